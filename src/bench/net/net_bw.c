/*
 * net_bw.c — bandwidths through the kernel: bw_tcp and bw_udp (to a server end, see net.h),
 * bw_unix (an AF_UNIX socketpair) and bw_pipe (a pipe).
 *
 * In each a sender writes MSIZE-byte (or XFER-byte) messages as fast as it can and the
 * measuring process's timed operation reads MOVE bytes in reads of that size; bandwidth =
 * MOVE / time. The sender is a forked child (bw_unix, bw_pipe, bw_tcp without HOST) placed by
 * the helper rule of cpu.h; by default on the same CPU as the reader.
 *
 * bw_udp cannot rely on flow control: the client sends datagrams in batches that fit in the
 * sink's receive buffer and after each batch asks how many bytes arrived; only delivered bytes
 * count, and any loss is reported.
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

#define DEF_MSG (64u << 10)
/* Data the sender queued between samples (socket buffers, up to ~2 MiB here) is read at copy
 * speed when the next sample starts; a sample of 100 ms (about 100 MB and more at loopback
 * speeds) keeps that error near 1 %, where a 5 ms sample of one 10 MiB read would be off by
 * tens of percent. */
#define BWTCP_MIN_SAMPLE_NS 100e6

/* Read exactly `move` bytes in reads of at most `chunk`; dies when the sender is gone. */
static void read_move(int fd, char *buf, size_t chunk, uint64_t move, const char *what)
{
	while (move) {
		size_t want = move < chunk ? (size_t)move : chunk;
		ssize_t r = read(fd, buf, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die(EXIT_MEASURE, "%s: the sender stopped: %s", what, r ? strerror(errno) : "end of file");
		move -= (uint64_t)r;
	}
}

/* ---- bw_tcp --------------------------------------------------------------------------------- */

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
	read_move(b->fd, b->buf, b->msize, b->move, "bw_tcp");
	return 0;
}

static void bwt_loop(uint64_t n, void *a)
{
	struct bwt *b = a;
	for (uint64_t i = 0; i < n; i++)
		read_move(b->fd, b->buf, b->msize, b->move, "bw_tcp");
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
	NET_OPT_MSIZE(1, NET_MAX_MSG, "bytes per message the server writes"), NET_OPT_MOVE, { 0 } } };
static const struct tool_options bwudp_options = { .opts = (const struct opt[]){
	NET_OPT_START, NET_OPT_STOP, NET_OPT_PORT, NET_OPT_BASE,
	NET_OPT_MSIZE(sizeof(struct bwudp_hdr), 65507, "bytes per datagram (default 8192)"),
	NET_OPT_MOVE, { 0 } } };

static int bw_tcp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &bwtcp_options, &o, 0, 0);
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
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	char *params = xasprintf("host=%s", net_client_hostname(&b.nc));
	struct result *r = record_bandwidth(c, "bw_tcp.bandwidth", params, (double)o.msize / 1e6, &m,
					    (double)o.move);
	result_add_info(r, "move=%llu", (unsigned long long)o.move);
	free(params);
	measurement_free(&m);
	return 0;
}

/* ---- bw_udp --------------------------------------------------------------------------------- */

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
	if (net_client_setup(&u->nc, SOCK_DGRAM) < 0)
		return -1;
	u->fd = socket(u->nc.ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->fd < 0 || connect(u->fd, (struct sockaddr *)&u->nc.ss, u->nc.sslen) < 0) {
		warnx_("udp socket to %s: %s", net_client_hostname(&u->nc), strerror(errno));
		return -1;
	}
	net_timeouts(u->fd, 1);
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

static int bw_udp(struct tool_ctx *c, int argc, char **argv)
{
	struct netopts o;
	net_parse_opts(c, argc, argv, &bwudp_options, &o, 8192, 1u << 20);
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
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	/* Only delivered bytes count (a datagram lost is not bandwidth). */
	double frac = u.sent ? (double)u.delivered / (double)u.sent : 1;
	char *params = xasprintf("host=%s", net_client_hostname(&u.nc));
	struct result *r = record_bandwidth(c, "bw_udp.bandwidth", params, NAN, &m, (double)o.move * frac);
	if (u.delivered < u.sent)
		out_fact(c, r, "lost", "%llu of %llu bytes", (unsigned long long)(u.sent - u.delivered),
			 (unsigned long long)u.sent);
	free(params);
	measurement_free(&m);
	return 0;
}

/* ---- bw_unix, bw_pipe ------------------------------------------------------------------------ */

struct bwl {
	int is_pipe;
	int rfd;
	pid_t child;
	size_t xfer;
	uint64_t bytes;
	char *buf;
};

static int bwl_setup(void *a)
{
	struct bwl *b = a;
	int fds[2];
	if (b->is_pipe ? pipe2(fds, O_CLOEXEC) : socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		warnx_("%s: %s", b->is_pipe ? "pipe" : "socketpair", strerror(errno));
		return -1;
	}
	b->child = plumb_fork();
	if (b->child < 0) {
		warnx_("fork: %s", strerror(errno));
		return -1;
	}
	if (b->child == 0) {
		timing_place_helper(1);
		close(fds[0]);
		char *buf = xcalloc(1, b->xfer);
		while (write_in_full(fds[1], buf, b->xfer) == 0)
			;
		_exit(0);
	}
	close(fds[1]);
	b->rfd = fds[0];
	/* lmbench reads into a buffer 128 bytes past a page start (not page-aligned on purpose). */
	b->buf = xcalloc(1, b->xfer + 128);
	read_move(b->rfd, b->buf + 128, b->xfer, b->bytes, b->is_pipe ? "bw_pipe" : "bw_unix");
	return 0;
}

static void bwl_loop(uint64_t n, void *a)
{
	struct bwl *b = a;
	for (uint64_t i = 0; i < n; i++)
		read_move(b->rfd, b->buf + 128, b->xfer, b->bytes, b->is_pipe ? "bw_pipe" : "bw_unix");
}

static void bwl_teardown(void *a)
{
	struct bwl *b = a;
	close(b->rfd);
	if (b->child > 0) {
		kill(b->child, SIGKILL);
		child_wait(b->child);
	}
	free(b->buf);
}

struct bwl_opts { uint64_t xfer, bytes; };
static const struct tool_options bwl_options = { .opts = (const struct opt[]){
	{ 'm', NULL, OPT_SIZE, 1, NET_MAX_MSG, offsetof(struct bwl_opts, xfer), "XFER",
	  "transfer size", "bytes per write() of the child (default 64 KiB)", NULL },
	{ 'M', NULL, OPT_SIZE, 1, 1 << 30, offsetof(struct bwl_opts, bytes), "BYTES",
	  "bytes per operation", "bytes read per timed operation (default 10 MiB)", NULL },
	{ 0 } } };

static int bw_local(struct tool_ctx *c, int argc, char **argv, int is_pipe)
{
	struct bwl_opts o = { .xfer = DEF_MSG, .bytes = 10u << 20 };
	options_parse(c, argc, argv, &bwl_options, &o);
	struct bwl b = { .is_pipe = is_pipe, .xfer = (size_t)o.xfer, .bytes = o.bytes };
	/* lmbench's bw_unix also took the byte count as an operand. */
	if (!is_pipe && optind < argc)
		b.bytes = parse_size(argv[optind++], 1, 1ull << 30, "BYTES");
	if (optind < argc)
		usage_error(c, "too many operands");
	struct bench_op op = { .setup = bwl_setup, .loop = bwl_loop, .teardown = bwl_teardown,
			       .arg = &b, .helpers = 1 };
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	struct result *r = record_bandwidth(c, is_pipe ? "bw_pipe.bandwidth" : "bw_unix.bandwidth", "",
					    NAN, &m, (double)b.bytes);
	result_add_info(r, "xfer=%zu bytes=%llu", b.xfer, (unsigned long long)b.bytes);
	measurement_free(&m);
	return 0;
}

static int bw_unix(struct tool_ctx *c, int argc, char **argv)
{
	return bw_local(c, argc, argv, 0);
}

static int bw_pipe(struct tool_ctx *c, int argc, char **argv)
{
	return bw_local(c, argc, argv, 1);
}

static const struct tool tools[] = {
	TOOL("bw_tcp", bw_tcp, 0, NET_SYNOPSIS("[-m MSIZE] [-M MOVE] "),
	     "TCP bandwidth: the server writes MSIZE-byte messages, the client reads MOVE bytes",
	     "MSIZE 1 B to 10 MiB; both default to 64 KiB, one given alone sets the other, MOVE is\n"
	     "rounded up to whole messages. Output: MSIZE in MB, then MB/sec (lmbench's line).\n"
	     "Port 31236 with -s; without HOST plumb runs its own server on an ephemeral port."),
	TOOL("bw_udp", bw_udp, 0, NET_SYNOPSIS("[-m MSIZE] [-M MOVE] "),
	     "UDP bandwidth of MSIZE-byte datagrams (default 8192), MOVE bytes (default 1 MiB) a time",
	     "Datagrams go in batches that fit the sink's receive buffer; only bytes the sink\n"
	     "received count, and a loss is printed as [lost: ...]. Port 34297 with -s."),
	TOOL("bw_unix", bw_unix, 0, "[-m XFER] [-M BYTES] [BYTES]",
	     "AF_UNIX stream bandwidth: a child writes XFER-byte chunks, BYTES read per operation",
	     "XFER defaults to 64 KiB, BYTES to 10 MiB. Unlike lmbench, -M changes the figure\n"
	     "(lmbench always divided 10 MiB by the time)."),
	TOOL("bw_pipe", bw_pipe, 0, "[-m XFER] [-M BYTES]",
	     "pipe bandwidth: a child writes XFER-byte chunks, BYTES read per operation",
	     "XFER defaults to 64 KiB, BYTES to 10 MiB."),
	{ 0 },
};

const struct family fam_netbw = { "netbw", SUBSET_OS, "socket and pipe bandwidth", tools, 140 };
