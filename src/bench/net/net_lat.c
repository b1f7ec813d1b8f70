/*
 * net_lat.c — network latencies: lat_tcp and lat_udp (a message's round trip), lat_connect
 * and lat_unix_connect (the cost of opening and closing a connection).
 *
 * Without a HOST each tool forks its own server on an ephemeral 127.0.0.1 port (or a private
 * AF_UNIX path) in setup and stops it in teardown (net.h, mode b); with a HOST it measures
 * against a server started with `-s` or `plumb serve` there. By default the server shares the
 * measuring process's CPU (placement "single", cpu.h), as lmbench's loopback figures assume
 * nothing about placement: use --cpu 0,1 to spread them.
 *
 * lat_connect closes each connection with SO_LINGER {1, 0}: the close sends a reset instead of
 * a FIN, so neither end keeps a TIME_WAIT entry and a long run cannot exhaust the ephemeral
 * ports (lmbench's did). The timed operation is socket + connect + close.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "bench/tool.h"
#include "core/util.h"

/* ---- lat_tcp ------------------------------------------------------------------------------ */

struct tcpl {
	struct net_client nc;
	int fd;
	size_t msize;
	char *buf;
};

static int tcp_setup(void *a)
{
	struct tcpl *t = a;
	if (net_client_setup(&t->nc, SOCK_STREAM) < 0)
		return -1;
	t->fd = net_connect(&t->nc.ss, t->nc.sslen);
	if (t->fd < 0) {
		warnx_("cannot connect to %s: %s", net_client_hostname(&t->nc), strerror(errno));
		return -1;
	}
	net_nodelay(t->fd);
	uint32_t hdr = htonl((uint32_t)t->msize);
	t->buf = xcalloc(1, t->msize);
	/* One round trip before timing: the server's handler is forked and running. */
	if (write_in_full(t->fd, &hdr, 4) || write_in_full(t->fd, t->buf, t->msize) ||
	    read_in_full(t->fd, t->buf, t->msize)) {
		warnx_("the server at %s does not answer", net_client_hostname(&t->nc));
		return -1;
	}
	return 0;
}

static void tcp_loop(uint64_t n, void *a)
{
	struct tcpl *t = a;
	for (uint64_t i = 0; i < n; i++)
		if (write_in_full(t->fd, t->buf, t->msize) || read_in_full(t->fd, t->buf, t->msize))
			die(EXIT_MEASURE, "connection to %s lost: %s", net_client_hostname(&t->nc),
			    errno ? strerror(errno) : "closed");
}

static void tcp_teardown(void *a)
{
	struct tcpl *t = a;
	close(t->fd);
	free(t->buf);
	net_client_teardown(&t->nc);
}

static const struct tool_options tcp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(1, NET_MAX_MSG, "bytes sent each way per round trip (default 1)"), { 0 } } };
static const struct tool_options udp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(4, 65507, "bytes per datagram each way (default 4)"), { 0 } } };
static const struct tool_options connect_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE, { 0 } } };
static const struct tool_options unix_connect_options = { .opts = (const struct opt[]){
	{ 's', NULL, OPT_FLAG, 0, 0, offsetof(struct netopts, start), NULL, NULL,
	  "not supported: plumb always runs its own server", NULL },
	{ 'S', NULL, OPT_FLAG, 0, 0, offsetof(struct netopts, stop), NULL, NULL,
	  "not supported: plumb always runs its own server", NULL }, { 0 } } };

static int lat_tcp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &tcp_options, &o, 1, 0);
	if (o.start)
		return net_tool_start(c, NS_TCP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_TCP, o.host, o.port);
	struct tcpl t = { .nc = { .svc = NS_TCP, .port = o.port, .base = o.base }, .fd = -1,
			  .msize = o.msize };
	net_client_prepare(c, &t.nc, o.host);
	struct bench_op op = { .setup = tcp_setup, .loop = tcp_loop, .teardown = tcp_teardown,
			       .arg = &t, .helpers = t.nc.host ? 0 : 1 };
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	char *params = net_host_params(&t.nc, &o);
	record_latency(c, "lat_tcp.latency", params, NAN, &m, 1);
	free(params);
	measurement_free(&m);
	return 0;
}

/* ---- lat_udp ------------------------------------------------------------------------------ */

struct udpl {
	struct net_client nc;
	int fd;
	size_t msize;
	char *buf, *rbuf;
	uint32_t seq;
};

/* Send the next sequence number and wait for its echo; resend after a second of silence
 * (a lost datagram), give up after five. */
static int udp_round_trip(struct udpl *u)
{
	uint32_t want = htonl(++u->seq & 0x7fffffff);
	memcpy(u->buf, &want, 4);
	for (int tries = 0; tries < 5; tries++) {
		if (send(u->fd, u->buf, u->msize, 0) < 0)
			return -1;
		for (;;) {
			ssize_t r = recv(u->fd, u->rbuf, u->msize, 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			if (r < 0)
				return -1;
			if (r >= 4 && memcmp(u->rbuf, &want, 4) == 0)
				return 0;
			/* a late echo of an earlier, resent datagram: skip it */
		}
	}
	errno = ETIMEDOUT;
	return -1;
}

static int udp_setup(void *a)
{
	struct udpl *u = a;
	if (net_client_setup(&u->nc, SOCK_DGRAM) < 0)
		return -1;
	u->fd = socket(u->nc.ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->fd < 0 || connect(u->fd, (struct sockaddr *)&u->nc.ss, u->nc.sslen) < 0) {
		warnx_("udp socket to %s: %s", net_client_hostname(&u->nc), strerror(errno));
		return -1;
	}
	net_timeouts(u->fd, 1);
	u->buf = xcalloc(1, u->msize);
	u->rbuf = xcalloc(1, u->msize);
	if (udp_round_trip(u) < 0) {
		warnx_("no UDP echo from %s: %s", net_client_hostname(&u->nc), strerror(errno));
		return -1;
	}
	return 0;
}

static void udp_loop(uint64_t n, void *a)
{
	struct udpl *u = a;
	for (uint64_t i = 0; i < n; i++)
		if (udp_round_trip(u) < 0)
			die(EXIT_MEASURE, "UDP echo from %s failed: %s", net_client_hostname(&u->nc),
			    strerror(errno));
}

static void udp_teardown(void *a)
{
	struct udpl *u = a;
	close(u->fd);
	free(u->buf);
	free(u->rbuf);
	net_client_teardown(&u->nc);
}

static int lat_udp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &udp_options, &o, 4, 0);
	if (o.start)
		return net_tool_start(c, NS_UDP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_UDP, o.host, o.port);
	struct udpl u = { .nc = { .svc = NS_UDP, .port = o.port, .base = o.base }, .fd = -1,
			  .msize = o.msize };
	net_client_prepare(c, &u.nc, o.host);
	struct bench_op op = { .setup = udp_setup, .loop = udp_loop, .teardown = udp_teardown,
			       .arg = &u, .helpers = u.nc.host ? 0 : 1 };
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	char *params = net_host_params(&u.nc, &o);
	record_latency(c, "lat_udp.latency", params, NAN, &m, 1);
	free(params);
	measurement_free(&m);
	return 0;
}

/* ---- lat_connect, lat_unix_connect -------------------------------------------------------- */

struct conl {
	struct net_client nc;
};

static void connect_once(struct conl *k)
{
	int fd = socket(k->nc.ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die(EXIT_MEASURE, "socket: %s", strerror(errno));
	if (k->nc.ss.ss_family != AF_UNIX) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	}
	while (connect(fd, (struct sockaddr *)&k->nc.ss, k->nc.sslen) < 0)
		if (errno != EINTR)
			die(EXIT_MEASURE, "connect to %s: %s", net_client_hostname(&k->nc), strerror(errno));
	close(fd);
}

static int con_setup(void *a)
{
	struct conl *k = a;
	if (net_client_setup(&k->nc, SOCK_STREAM) < 0)
		return -1;
	int fd = net_connect(&k->nc.ss, k->nc.sslen);   /* waits for a server still starting */
	if (fd < 0) {
		warnx_("cannot connect to %s: %s", net_client_hostname(&k->nc), strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static void con_loop(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++)
		connect_once(a);
}

static void con_teardown(void *a)
{
	net_client_teardown(&((struct conl *)a)->nc);
}

static int run_connect(struct tool_ctx *c, struct conl *k, const char *metric, const char *params)
{
	struct bench_op op = { .setup = con_setup, .loop = con_loop, .teardown = con_teardown,
			       .arg = k, .helpers = k->nc.host ? 0 : 1,
			       .no_parallel = 1 }; /* lmbench: one process only */
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	record_latency(c, metric, params, NAN, &m, 1);
	measurement_free(&m);
	return 0;
}

static int lat_connect(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &connect_options, &o, 0, 0);
	if (o.start)
		return net_tool_start(c, NS_CONNECT, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_CONNECT, o.host, o.port);
	struct conl k = { .nc = { .svc = NS_CONNECT, .port = o.port, .base = o.base } };
	net_client_prepare(c, &k.nc, o.host);
	char *params = net_host_params(&k.nc, &o);
	int rc = run_connect(c, &k, "lat_connect.latency", params);
	free(params);
	return rc;
}

static int lat_unix_connect(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o = { 0 };
	options_parse(c, argc, argv, &unix_connect_options, &o);
	if (o.start || o.stop)
		usage_error(c, "-%c: plumb always runs its own server on a private socket "
			    "(lmbench's used the fixed path /tmp/af_unix)", o.start ? 's' : 'S');
	if (optind < argc)
		usage_error(c, "no operands expected");
	struct conl k = { .nc = { .svc = NS_UNIX } };
	return run_connect(c, &k, "lat_unix_connect.latency", "");
}

static const struct tool tools[] = {
	TOOL("lat_tcp", lat_tcp, 0, NET_SYNOPSIS("[-m SIZE] "),
	     "TCP round-trip latency of SIZE-byte messages (default 1)",
	     "Without HOST: plumb starts its own server on an ephemeral 127.0.0.1 port and stops it.\n"
	     "-s starts lmbench's background server on port 31234 (127.0.0.1; it exits after 600 s\n"
	     "without a client), -S HOST stops it; -b BASE talks to `plumb serve --port BASE`."),
	TOOL("lat_udp", lat_udp, 0, NET_SYNOPSIS("[-m SIZE] "),
	     "UDP round-trip latency of SIZE-byte datagrams (default 4, 4..65507)",
	     "As lat_tcp; lmbench's UDP port is 34298. A datagram unanswered for 1 s is resent\n"
	     "(five times at most, then exit 3)."),
	TOOL("lat_connect", lat_connect, 0, NET_SYNOPSIS(""),
	     "TCP connection cost: socket + connect + close",
	     "Port 31237 with -s. Each connection is closed with SO_LINGER 0 (a reset), so no\n"
	     "TIME_WAIT entries pile up and a long run cannot exhaust the ephemeral ports.\n"
	     "Always one process (-P is ignored), as in lmbench."),
	TOOL("lat_unix_connect", lat_unix_connect, 0, "",
	     "AF_UNIX connection cost: socket + connect + close",
	     "The server listens on a socket in a private directory, removed afterwards."),
	{ 0 },
};

const struct family fam_netlat = { "netlat", SUBSET_OS, "network and socket latency", tools, 130 };
