/*
 * bw_udp.c — bw_udp: UDP bandwidth of MSIZE-byte datagrams to a sink (net.h). UDP has no flow
 * control: the client sends datagrams in batches that fit in the sink's receive buffer and
 * after each batch asks how many bytes arrived; only delivered bytes count, and any loss is
 * reported.
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
enum { ROW_BW_UDP_BANDWIDTH, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct bwu {
	struct net_client nc;
	int fd;
	size_t msize;
	uint64_t move;
	uint32_t batch, per_batch;
	uint64_t sent, delivered;
	char *buf;
};

/* Ask the sink a question (SYNC or HELLO) and wait for its answer; resend on silence. */
static int bwu_ask(struct bwu *u, uint32_t kind, uint32_t batch, uint32_t *answer)
{
	struct bwudp_hdr q = { htonl(BWUDP_MAGIC), htonl(kind), htonl(batch), 0 }, r;
	for (int tries = 0; tries < 10; tries++) {
		if (send(u->fd, &q, sizeof q, 0) < 0)
			return -1;
		for (;;) {
			ssize_t n = recv(u->fd, &r, sizeof r, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				break;
			if (n < 0)
				return -1;
			if (n == sizeof r && ntohl(r.magic) == BWUDP_MAGIC && ntohl(r.kind) == kind &&
			    ntohl(r.batch) == batch) {
				*answer = ntohl(r.bytes);
				return 0;
			}
		}
	}
	errno = ETIMEDOUT;
	return -1;
}

static void bwu_move(struct bwu *u)
{
	uint64_t left = u->move / u->msize;
	struct bwudp_hdr *h = (struct bwudp_hdr *)u->buf;
	while (left) {
		uint32_t k = left < u->per_batch ? (uint32_t)left : u->per_batch;
		u->batch++;
		*h = (struct bwudp_hdr){ htonl(BWUDP_MAGIC), htonl(BWUDP_DATA), htonl(u->batch), 0 };
		for (uint32_t i = 0; i < k; i++)
			while (send(u->fd, u->buf, u->msize, 0) < 0)
				if (errno != EINTR && errno != ENOBUFS)
					die(EXIT_MEASURE, "bw_udp: send: %s", strerror(errno));
		uint32_t got;
		if (bwu_ask(u, BWUDP_SYNC, u->batch, &got) < 0)
			die(EXIT_MEASURE, "bw_udp: no answer from %s: %s", net_client_hostname(&u->nc),
			    strerror(errno));
		u->sent += (uint64_t)k * u->msize;
		u->delivered += got;
		left -= k;
	}
}

static int bwu_setup(void *a)
{
	struct bwu *u = a;
	if ((u->fd = net_udp_client(&u->nc)) < 0)
		return -1;
	int big = 4 << 20;
	setsockopt(u->fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
	uint32_t rcvbuf;
	if (bwu_ask(u, BWUDP_HELLO, 0, &rcvbuf) < 0) {
		warnx_("no bw_udp sink at %s: %s", net_client_hostname(&u->nc), strerror(errno));
		return -1;
	}
	/* Half the sink's buffer, counting the kernel's per-datagram overhead (~1 KiB). */
	u->per_batch = (uint32_t)(rcvbuf / 2 / (u->msize + 1024));
	if (u->per_batch < 1)
		u->per_batch = 1;
	u->buf = xcalloc(1, u->msize);
	bwu_move(u); /* warm-up */
	u->sent = u->delivered = 0;
	return 0;
}

static void bwu_loop(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++)
		bwu_move(a);
}

static void bwu_teardown(void *a)
{
	struct bwu *u = a;
	close(u->fd);
	free(u->buf);
	net_client_teardown(&u->nc);
}

static const struct tool_options bwudp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(sizeof(struct bwudp_hdr), 65507, "bytes per datagram (default 8192)"),
	NET_OPT_MOVE, OPT_END } };

static int bw_udp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &o, 8192, 1u << 20);
	if (o.start)
		return net_tool_start(c, NS_BWUDP, o.port);
	if (o.stop)
		return net_tool_stop(c, NS_BWUDP, o.host, o.port);
	o.move = (o.move + o.msize - 1) / o.msize * o.msize;
	struct bwu u = { .nc = { .svc = NS_BWUDP, .port = o.port, .base = o.base }, .fd = -1,
			 .msize = o.msize, .move = o.move };
	net_client_prepare(c, &u.nc, o.host);
	struct bench_op op = { .setup = bwu_setup, .loop = bwu_loop, .teardown = bwu_teardown,
			       .arg = &u, .helpers = u.nc.host ? 0 : 1, .no_parallel = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	/* Only delivered bytes count (a datagram lost is not bandwidth). */
	double frac = u.sent ? (double)u.delivered / (double)u.sent : 1;
	char *params = xasprintf("host=%s", net_client_hostname(&u.nc));
	struct result *r = record_bandwidth(c, metrics[ROW_BW_UDP_BANDWIDTH].id, params, NAN, &m, (double)o.move * frac);
	if (u.delivered < u.sent)
		out_fact(c, r, "lost", "%llu of %llu bytes", (unsigned long long)(u.sent - u.delivered),
			 (unsigned long long)u.sent);
	free(params);
	measurement_free(&m);
	return 0;
}

static const struct tool tools[] = {
	TOOL("bw_udp", bw_udp, 0, &bwudp_options, NET_SYNOPSIS("[-m MSIZE] [-M MOVE] "),
	     "UDP bandwidth of MSIZE-byte datagrams (default 8192), MOVE bytes (default 1 MiB) a time",
	     "Datagrams go in batches that fit the sink's receive buffer; only bytes the sink\n"
	     "received count, and a loss is printed as [lost: ...]. Port 34297 with -s."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_UDP_BANDWIDTH] = { .id = "bw_udp.bandwidth",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "UDP bandwidth", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "socket UDP bandwidth using {host}: %v MB/sec", .vfmt = "%.2f",
	  .work = "batches of datagrams that fit the receive buffer; delivered bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "only delivered bytes count; losses are reported",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_bw_udp = { "netbw", SUBSET_OS, "socket and pipe bandwidth", tools, metrics };
