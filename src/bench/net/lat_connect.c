/*
 * lat_connect.c — the cost of opening and closing a connection: lat_connect (TCP) and
 * lat_unix_connect (AF_UNIX, always against plumb's own server), one front for both.
 *
 * Without a HOST the tool forks its own server on an ephemeral 127.0.0.1 port (or a private
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

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_CONNECT_LATENCY, ROW_LAT_UNIX_CONNECT_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static const struct tool_options connect_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE, OPT_END } };
static const struct tool_options unix_connect_options = { .opts = (const struct opt[]){
	OPT_BOOL('s', NULL, struct netopts, start,
		"not supported: plumb always runs its own server"),
	OPT_BOOL('S', NULL, struct netopts, stop,
		"not supported: plumb always runs its own server"),
	OPT_END } };

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
	return measure_latency(c, &op, metric, params, NAN, 1) ? 0 : EXIT_MEASURE;
}

static int lat_connect(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &o, 0, 0);
	if (o.start)
		return net_tool_start(c, NS_CONNECT, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_CONNECT, o.host, o.port);
	struct conl k = { .nc = { .svc = NS_CONNECT, .port = o.port, .base = o.base } };
	net_client_prepare(c, &k.nc, o.host);
	char *params = net_host_params(&k.nc, &o);
	int rc = run_connect(c, &k, metrics[ROW_LAT_CONNECT_LATENCY].id, params);
	free(params);
	return rc;
}

static int lat_unix_connect(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	if (o.start || o.stop)
		usage_error(c, "-%c: plumb always runs its own server on a private socket "
			    "(lmbench's used the fixed path /tmp/af_unix)", o.start ? 's' : 'S');
	if (args.n > 0)
		usage_error(c, "no operands expected");
	struct conl k = { .nc = { .svc = NS_UNIX } };
	return run_connect(c, &k, metrics[ROW_LAT_UNIX_CONNECT_LATENCY].id, "");
}

static const struct tool tools[] = {
	TOOL("lat_connect", lat_connect, 0, &connect_options, NET_SYNOPSIS(""),
	     "TCP connection cost: socket + connect + close",
	     "Port 31237 with -s. Each connection is closed with SO_LINGER 0 (a reset), so no\n"
	     "TIME_WAIT entries pile up and a long run cannot exhaust the ephemeral ports.\n"
	     "Always one process (-P is ignored), as in lmbench."),
	TOOL("lat_unix_connect", lat_unix_connect, 0, &unix_connect_options, "",
	     "AF_UNIX connection cost: socket + connect + close",
	     "The server listens on a socket in a private directory, removed afterwards."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_CONNECT_LATENCY] = { .id = "lat_connect.latency",
	  .cells = {
		{ .cell = SUM_CONNECT, .read = READ_FIRST, .params = "host=localhost" },
		{ .cell = SUM_R_CONNECT, .read = READ_REMOTE },
	  },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "TCP connect+close", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "TCP/IP connection cost to {host}: %v microseconds", .vfmt = "%.4f",
	  .work = "socket() + connect() + close() to a TCP server",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "version 2: closed with SO_LINGER 0 (a reset, no TIME_WAIT), lmbench closes "
		"normally",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "net.steady", .run = 0.14, .run_eq = 0.14, .df = 5,
		   .clock = OWN_PACE } },
	[ROW_LAT_UNIX_CONNECT_LATENCY] = { .id = "lat_unix_connect.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "AF_UNIX connect+close", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "UNIX connection cost: %v microseconds", .vfmt = "%.4f",
	  .work = "socket() + connect() + close() to an AF_UNIX server",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "net.steady", .run = 0.14, .run_eq = 0.14, .df = 5,
		   .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_connect = { "netlat", SUBSET_OS, "network and socket latency", tools, metrics };
