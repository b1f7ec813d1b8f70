/*
 * lat_rpc.c — lat_rpc: the round trip of a Sun RPC call over TCP and over UDP (libtirpc).
 *
 * lmbench registered its server with the portmapper and its clients asked the portmapper for
 * the port, so without rpcbind running it failed ("RPC: Port mapper failure"). plumb never
 * talks to a portmapper: the server transports are made on sockets plumb has bound itself
 * (svctcp_create / svcudp_create) and registered with protocol 0, which tells libtirpc not to
 * call the portmapper; clients are made with clnttcp_create / clntudp_create on an address
 * whose port is already filled in, so no lookup happens either. The port is fixed for the
 * lmbench-style server (31239, TCP and UDP) and `plumb serve` (BASE+4), ephemeral otherwise.
 *
 * Procedure 1 takes a char and returns one (lmbench's xact); procedure 2 stops a -s server
 * (the server end: rpc_serve.c, below the server that runs it). RPC is IPv4 only (the
 * socket-based libtirpc calls take a sockaddr_in).
 *
 * Built without libtirpc, lat_rpc says so in one line and exits 3.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/net/net.h"
#include "bench/tool.h"
#include "core/util.h"

/* Options of both builds (without libtirpc lat_rpc still checks its command line). */
struct rpc_opts { int start, stop, proto, base; };
static const struct tool_options rpc_options = { .opts = (const struct opt[]){
	OPT_BOOL('s', NULL, struct rpc_opts, start,
		"start a background server on port 31239 and return"),
	OPT_BOOL('S', NULL, struct rpc_opts, stop, "stop the server on HOST"),
	OPT_CHOICE('p', NULL, struct rpc_opts, proto, "tcp|udp", OPT_CHOICES("tcp", "udp"),
		"measure this transport only (default both)"),
	OPT_INT('b', NULL, struct rpc_opts, base, "BASE", 1, 65535 - NS_COUNT,
		"plumb serve base port", "talk to `plumb serve --port BASE`"),
	OPT_END } };

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_RPC_TCP, ROW_LAT_RPC_UDP, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#ifdef HAVE_TIRPC
#include <netinet/in.h>
#include <rpc/rpc.h>
#include <time.h>
#include <unistd.h>

#include "bench/net/rpc_xdr.h"


/* ---- client ---------------------------------------------------------------------------------- */

struct rpcl {
	struct net_client nc;
	int udp;
	CLIENT *cl;
};

static const struct timeval call_timeout = { 5, 0 };

static int xact_call(CLIENT *cl, u_long proc)
{
	char in = 1, out = 0;
	if (proc == 2)
		return clnt_call(cl, 2, x_void, NULL, x_void, NULL,
				 call_timeout) == RPC_SUCCESS ? 0 : -1;
	if (clnt_call(cl, proc, x_char, (caddr_t)&in, x_char,
		      (caddr_t)&out, call_timeout) != RPC_SUCCESS)
		return -1;
	return out == 123 ? 0 : -1;
}

static CLIENT *rpc_client(struct sockaddr_storage *ss, int udp)
{
	struct sockaddr_in sa;
	memcpy(&sa, ss, sizeof sa);
	int sock = RPC_ANYSOCK;
	struct timeval retry = { 0, 500000 };
	return udp ? clntudp_create(&sa, NET_RPC_PROG, NET_RPC_VERS, retry, &sock)
		   : clnttcp_create(&sa, NET_RPC_PROG, NET_RPC_VERS, &sock, 0, 0);
}

static int rpc_setup(void *a)
{
	struct rpcl *r = a;
	if (net_client_setup(&r->nc, r->udp ? SOCK_DGRAM : SOCK_STREAM) < 0)
		return -1;
	if (r->nc.ss.ss_family != AF_INET) {
		warnx_("%s: lat_rpc needs an IPv4 address", net_client_hostname(&r->nc));
		return -1;
	}
	r->cl = rpc_client(&r->nc.ss, r->udp);
	if (!r->cl) {
		warnx_("%s", clnt_spcreateerror(net_client_hostname(&r->nc)));
		return -1;
	}
	if (xact_call(r->cl, 1) < 0) {
		warnx_("%s", clnt_sperror(r->cl, net_client_hostname(&r->nc)));
		return -1;
	}
	return 0;
}

static void rpc_loop(uint64_t n, void *a)
{
	struct rpcl *r = a;
	for (uint64_t i = 0; i < n; i++)
		if (xact_call(r->cl, 1) < 0)
			die(EXIT_MEASURE, "%s", clnt_sperror(r->cl, net_client_hostname(&r->nc)));
}

static void rpc_teardown(void *a)
{
	struct rpcl *r = a;
	if (r->cl)
		clnt_destroy(r->cl);
	r->cl = NULL;
	net_client_teardown(&r->nc);
}

static int rpc_stop_server(const char *host, int port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char err[256];
	if (net_resolve(host, port, SOCK_STREAM, 0, &ss, &len, err, sizeof err) < 0 ||
	    ss.ss_family != AF_INET) {
		warnx_("%s", ss.ss_family != AF_INET ? "lat_rpc needs an IPv4 address" : err);
		return EXIT_MEASURE;
	}
	CLIENT *cl = rpc_client(&ss, 0);
	if (!cl) {
		warnx_("%s", clnt_spcreateerror(host));
		return EXIT_MEASURE;
	}
	int rc = xact_call(cl, 2);
	clnt_destroy(cl);
	if (rc == 0)
		net_wait_gone(NS_RPC, &ss, len);
	return rc == 0 ? 0 : EXIT_MEASURE;
}

static int lat_rpc(struct tool_ctx *c, int argc, char **argv)
{
	struct rpc_opts o = { .proto = -1 };
	struct operands args = options_parse(c, argc, argv, &o);
	int start = o.start, stop = o.stop, base = o.base;
	int want_tcp = o.proto != 1, want_udp = o.proto != 0;
	if (args.n > 1)
		usage_error(c, "too many operands (one HOST at most)");
	const char *host = args.n > 0 ? args.v[0] : NULL;
	if (start && stop)
		usage_error(c, "-s and -S exclude each other");
	if (start && host)
		usage_error(c, "-s takes no HOST (the server listens on 127.0.0.1)");
	if (stop && !host)
		usage_error(c, "-S needs the HOST whose server to stop");
	if (start)
		return net_tool_start(c, NS_RPC, 0);
	if (stop)
		return rpc_stop_server(host, net_port(NS_RPC, base));
	for (int udp = 0; udp < 2; udp++) {
		if (udp ? !want_udp : !want_tcp)
			continue;
		struct rpcl r = { .nc = { .svc = NS_RPC, .base = base }, .udp = udp };
		net_client_prepare(c, &r.nc, host);
		struct bench_op op = { .setup = rpc_setup, .loop = rpc_loop, .teardown = rpc_teardown,
				       .arg = &r, .helpers = r.nc.host ? 0 : 1 };
		char *params = xasprintf("host=%s", net_client_hostname(&r.nc));
		struct result *res = measure_latency(c, &op, udp ? metrics[ROW_LAT_RPC_UDP].id : metrics[ROW_LAT_RPC_TCP].id,
						     params, NAN, 1);
		free(params);
		if (!res)
			return EXIT_MEASURE;
	}
	return 0;
}

#else /* !HAVE_TIRPC */

static int lat_rpc(struct tool_ctx *c, int argc, char **argv)
{
	/* --help and bad options behave as in a full build; measuring is what cannot be done. */
	struct rpc_opts o = { .proto = -1 };
	(void)options_parse(c, argc, argv, &o);
	fprintf(stderr, "%s: plumb was built without libtirpc (install libtirpc-dev and rebuild)\n", c->tool);
	return EXIT_MEASURE;
}

#endif

static const struct tool tools[] = {
	TOOL("lat_rpc", lat_rpc, 0, &rpc_options, "-s | [-p tcp|udp] [-b BASE] [HOST] | -S HOST",
	     "Sun RPC round trip over TCP and UDP, no portmapper needed",
	     "Without -p both are measured, TCP first. Without HOST plumb starts its own server on\n"
	     "an ephemeral 127.0.0.1 port; -s starts a background one on port 31239 (TCP and UDP),\n"
	     "-S HOST stops it. rpcbind is never used: transports sit on explicit ports."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_RPC_TCP] = { .id = "lat_rpc.tcp",
	  .cells = {
		{ .cell = SUM_RPCTCP, .read = READ_FIRST, .params = "host=localhost" },
		{ .cell = SUM_R_RPCTCP, .read = READ_REMOTE },
	  },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "Sun RPC call over TCP", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "RPC/tcp latency using {host}: %v microseconds", .vfmt = "%.4f",
	  .work = "one Sun RPC call (a char in, a char out) over TCP",
	  .subtracted = SUB_CLOCK, .lmbench = "no portmapper involved",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	[ROW_LAT_RPC_UDP] = { .id = "lat_rpc.udp",
	  .cells = {
		{ .cell = SUM_RPCUDP, .read = READ_FIRST, .params = "host=localhost" },
		{ .cell = SUM_R_RPCUDP, .read = READ_REMOTE },
	  },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "Sun RPC call over UDP", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "RPC/udp latency using {host}: %v microseconds", .vfmt = "%.4f",
	  .work = "one Sun RPC call (a char in, a char out) over UDP",
	  .subtracted = SUB_CLOCK, .lmbench = "no portmapper involved",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_rpc = { "rpc", SUBSET_OS, "Sun RPC latency", tools, metrics };
