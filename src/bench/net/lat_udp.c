/*
 * lat_udp.c — lat_udp: the round trip of a SIZE-byte UDP datagram (default 4 bytes); a
 * datagram unanswered for 1 s is resent, five times at most.
 *
 * Without a HOST the tool forks its own server on an ephemeral 127.0.0.1 port (or a private
 * AF_UNIX path) in setup and stops it in teardown (net.h, mode b); with a HOST it measures
 * against a server started with `-s` or `plumb serve` there. By default the server shares the
 * measuring process's CPU (placement "single", cpu.h), as lmbench's loopback figures assume
 * nothing about placement: use --cpu 0,1 to spread them.
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

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_UDP_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

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
	if ((u->fd = net_udp_client(&u->nc)) < 0)
		return -1;
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

static const struct tool_options udp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(4, 65507, "bytes per datagram each way (default 4)"),
	OPT_END } };

static int lat_udp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &o, 4, 0);
	if (o.start)
		return net_tool_start(c, NS_UDP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_UDP, o.host, o.port);
	struct udpl u = { .nc = { .svc = NS_UDP, .port = o.port, .base = o.base }, .fd = -1,
			  .msize = o.msize };
	net_client_prepare(c, &u.nc, o.host);
	struct bench_op op = { .setup = udp_setup, .loop = udp_loop, .teardown = udp_teardown,
			       .arg = &u, .helpers = u.nc.host ? 0 : 1 };
	char *params = net_host_params(&u.nc, &o);
	struct result *r = measure_latency(c, &op, metrics[ROW_LAT_UDP_LATENCY].id, params, NAN, 1);
	free(params);
	return r ? 0 : EXIT_MEASURE;
}

static const struct tool tools[] = {
	TOOL("lat_udp", lat_udp, 0, &udp_options, NET_SYNOPSIS("[-m SIZE] "),
	     "UDP round-trip latency of SIZE-byte datagrams (default 4, 4..65507)",
	     "As lat_tcp; lmbench's UDP port is 34298. A datagram unanswered for 1 s is resent\n"
	     "(five times at most, then exit 3)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_UDP_LATENCY] = { .id = "lat_udp.latency",
	  .cells = {
		{ .cell = SUM_UDP, .read = READ_FIRST, .params = "host=localhost" },
		{ .cell = SUM_R_UDP, .read = READ_REMOTE },
	  },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "UDP round trip", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "UDP latency using {host}: %v microseconds", .vfmt = "%.4f",
	  .work = "one datagram round trip over UDP", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "net.steady", .run = 0.14, .run_eq = 0.14, .df = 5,
		   .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_udp = { "netlat", SUBSET_OS, "network and socket latency", tools, metrics };
