/*
 * bw_tcp.c — bw_tcp: TCP bandwidth to a server end (net.h): the server writes MSIZE-byte
 * messages, the client reads MOVE bytes per timed operation; bandwidth = MOVE / time. Without
 * HOST the server is a forked child placed by the helper rule of cpu.h (by default on the
 * reader's CPU).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_BW_TCP_BANDWIDTH, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define DEF_MSG (64u << 10)
/* Data the sender queued between samples (socket buffers, up to ~2 MiB here) is read at copy
 * speed when the next sample starts; a sample of 100 ms (about 100 MB and more at loopback
 * speeds) keeps that error near 1 %, where a 5 ms sample of one 10 MiB read would be off by
 * tens of percent. */
#define BWTCP_MIN_SAMPLE_NS 100e6

struct bwt {
	struct net_client nc;
	int fd;
	size_t msize;
	uint64_t move;
	char *buf;
};

static int bwt_setup(void *a)
{
	struct bwt *b = a;
	if (net_client_setup(&b->nc, SOCK_STREAM) < 0)
		return -1;
	b->fd = net_connect(&b->nc.ss, b->nc.sslen);
	if (b->fd < 0) {
		warnx_("cannot connect to %s: %s", net_client_hostname(&b->nc), strerror(errno));
		return -1;
	}
	/* lmbench's 1 MiB receive buffer; it also bounds the data already queued when a sample
	 * starts (see BWTCP_MIN_SAMPLE_NS). */
	int rb = 1 << 20;
	setsockopt(b->fd, SOL_SOCKET, SO_RCVBUF, &rb, sizeof rb);
	char hdr[32];
	int n = snprintf(hdr, sizeof hdr, "%zu\n", b->msize);
	b->buf = xmalloc(b->msize);
	memset(b->buf, 0, b->msize);
	if (write_in_full(b->fd, hdr, (size_t)n) < 0) {
		warnx_("the server at %s does not answer", net_client_hostname(&b->nc));
		return -1;
	}
	net_read_move(b->fd, b->buf, b->msize, b->move, "bw_tcp");
	return 0;
}

static void bwt_loop(uint64_t n, void *a)
{
	struct bwt *b = a;
	for (uint64_t i = 0; i < n; i++)
		net_read_move(b->fd, b->buf, b->msize, b->move, "bw_tcp");
}

static void bwt_teardown(void *a)
{
	struct bwt *b = a;
	close(b->fd);
	free(b->buf);
	net_client_teardown(&b->nc);
}

/* lmbench: message size and move default to 64 KiB, each copies the other when given alone,
 * and move is rounded up to whole messages. */
static void sizes(struct netopts *o)
{
	if (!o->msize_given)
		o->msize = o->move_given && o->move <= NET_MAX_MSG ? o->move : DEF_MSG;
	if (!o->move_given)
		o->move = o->msize;
	o->move = (o->move + o->msize - 1) / o->msize * o->msize;
}

static const struct tool_options bwtcp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(1, NET_MAX_MSG, "bytes per message the server writes"), NET_OPT_MOVE,
	OPT_END } };
static int bw_tcp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &o, 0, 0);
	if (o.start)
		return net_tool_start(c, NS_BWTCP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_BWTCP, o.host, o.port);
	sizes(&o);
	struct bwt b = { .nc = { .svc = NS_BWTCP, .port = o.port, .base = o.base }, .fd = -1,
			 .msize = o.msize, .move = o.move };
	net_client_prepare(c, &b.nc, o.host);
	struct bench_op op = { .setup = bwt_setup, .loop = bwt_loop, .teardown = bwt_teardown,
			       .arg = &b, .helpers = b.nc.host ? 0 : 1,
			       .min_sample_ns = BWTCP_MIN_SAMPLE_NS };
	char *params = xasprintf("host=%s", net_client_hostname(&b.nc));
	struct result *r = measure_bandwidth(c, &op, metrics[ROW_BW_TCP_BANDWIDTH].id, params, (double)o.msize / 1e6,
					     (double)o.move);
	free(params);
	if (!r)
		return EXIT_MEASURE;
	result_add_info(r, "move=%llu", (unsigned long long)o.move);
	return 0;
}

static const struct tool tools[] = {
	TOOL("bw_tcp", bw_tcp, 0, &bwtcp_options, NET_SYNOPSIS("[-m MSIZE] [-M MOVE] "),
	     "TCP bandwidth: the server writes MSIZE-byte messages, the client reads MOVE bytes",
	     "MSIZE 1 B to 10 MiB; both default to 64 KiB, one given alone sets the other, MOVE is\n"
	     "rounded up to whole messages. Output: MSIZE in MB, then MB/sec (lmbench's line).\n"
	     "Port 31236 with -s; without HOST plumb runs its own server on an ephemeral port."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_TCP_BANDWIDTH] = { .id = "bw_tcp.bandwidth",
	  .cells = { { .cell = SUM_BW_TCP, .read = READ_LAST_X, .params = "host=localhost" } },
	  .summary_note = &one_cpu_note,
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "TCP bandwidth by message size (MB)",
	  .line = "%x %v MB/sec", .xfmt = "%.6f", .vfmt = "%.2f",
	  .lmbench_text = { .title = "Socket bandwidth using ", .param = "host",
			    .unset = "localhost" },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size" }, .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "reading MOVE bytes from a TCP sender in reads of the message size; MOVE / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_netbw = { "netbw", SUBSET_OS, "socket and pipe bandwidth", tools, metrics };
