/*
 * lat_tcp.c — lat_tcp: the round trip of a SIZE-byte message over TCP (default 1 byte).
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
enum { ROW_LAT_TCP_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

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
	NET_OPT_MSIZE(1, NET_MAX_MSG, "bytes sent each way per round trip (default 1)"),
	OPT_END } };
static int lat_tcp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &o, 1, 0);
	if (o.start)
		return net_tool_start(c, NS_TCP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_TCP, o.host, o.port);
	struct tcpl t = { .nc = { .svc = NS_TCP, .port = o.port, .base = o.base }, .fd = -1,
			  .msize = o.msize };
	net_client_prepare(c, &t.nc, o.host);
	struct bench_op op = { .setup = tcp_setup, .loop = tcp_loop, .teardown = tcp_teardown,
			       .arg = &t, .helpers = t.nc.host ? 0 : 1 };
	char *params = net_host_params(&t.nc, &o);
	struct result *r = measure_latency(c, &op, metrics[ROW_LAT_TCP_LATENCY].id, params, NAN, 1);
	free(params);
	return r ? 0 : EXIT_MEASURE;
}

static const struct tool tools[] = {
	TOOL("lat_tcp", lat_tcp, 0, &tcp_options, NET_SYNOPSIS("[-m SIZE] "),
	     "TCP round-trip latency of SIZE-byte messages (default 1)",
	     "Without HOST: plumb starts its own server on an ephemeral 127.0.0.1 port and stops it.\n"
	     "-s starts lmbench's background server on port 31234 (127.0.0.1; it exits after 600 s\n"
	     "without a client), -S HOST stops it; -b BASE talks to `plumb serve --port BASE`."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_TCP_LATENCY] = { .id = "lat_tcp.latency",
	  .cells = {
		{ .cell = SUM_TCP, .read = READ_FIRST, .params = "host=localhost" },
		{ .cell = SUM_R_TCP, .read = READ_REMOTE },
	  },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "TCP round trip", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "TCP latency using {host}: %v microseconds", .vfmt = "%.4f",
	  .work = "one message round trip over TCP", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "net", .run = 0.24, .run_eq = 0.24, .df = 4, .clock = OWN_PACE },
	  .steady = { .group = "net.steady", .run = 0.24, .run_eq = 0.24, .df = 4,
		   .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_netlat = { "netlat", SUBSET_OS, "network and socket latency", tools, metrics };
