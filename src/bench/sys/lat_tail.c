/*
 * lat_tail.c — lat_tail: the distribution of single operations, not their mean (a plumb tool;
 * lmbench has none). Every other latency sample is a batch mean: one 2 ms stall among a
 * thousand system calls adds 2 us to it and is lost. Here each sample is a BLOCK of K single
 * operations, each timed on its own between two clock reads, and the sample's values are the
 * block's percentiles: p50, p90, p99, p99.9 and max (nearest rank, as lat_usleep and
 * cyclictest read them). The operations (-o, default all of them one after another):
 *   null       syscall(SYS_getppid)           read   read 1 byte from /dev/zero
 *   write      write 1 byte to /dev/null      sig    kill(self, SIGUSR1) to a handler
 *   pipe       1 byte to a child process through one pipe and back through another
 *   unix       the same through a connected pair of AF_UNIX stream sockets
 *   tcp, udp   the same through a loopback TCP connection (TCP_NODELAY) or two connected
 *              loopback UDP sockets
 *   pagefault  the first store to a fresh page of an anonymous mapping (a new mapping of K
 *              pages before each block, unmapped after it, both untimed; no huge pages)
 *
 * What is timed: ONE operation between two now_ns() reads, and the clock's measured read cost
 * (clock_overhead_ns(), recorded as clock_overhead_ns in the info) subtracted from each. Not
 * batches of B: a stall in a batch of B would be shown divided by B, which is the very error
 * this tool exists to avoid. The price: a null call (~100-300 ns) is within a few clock reads
 * (~20-40 ns), so its p50 carries the clock's own jitter and the subtraction's error (a few ns);
 * the tails, which are what this tool is for, are long against both. Nothing is clamped: a
 * value below zero would be shown as measured.
 *
 * A sample is one block (K = -k, default 5000: p99.9 is then the 5th largest of the block;
 * another K is said in params as block=K, being another quantity);
 * the stored samples of lat_tail.p99 are the blocks' p99s, and the reported value is their
 * median. The blocks are independent replicates of the percentile (the batch-means argument:
 * blocks far longer than any correlation between neighbouring operations), so a round's value
 * is a robust estimate of it, and compare's interval (over runs, their rounds within) is sound
 * as for any metric; this holds for every percentile including the max: lat_tail.max is the
 * typical worst of K operations, not the worst of the run (that is recorded as worst_us in the
 * max's info). docs/compare.md says why this interval, and not one from the order statistics
 * of one run's operations pooled, is the one compare uses.
 *
 * --stall-every N (for tests: a known truth) makes every N-th operation also busy-wait 1 ms
 * inside its timed span; its params then say stall_every=N, so it never compares with a clean
 * run. The blocks run through measure() (fixed at K iterations, placed as every tool is, -N
 * samples, -W warm-up), the sorting and the percentiles in its untimed after() hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_TAIL_P50, ROW_LAT_TAIL_P90, ROW_LAT_TAIL_P99, ROW_LAT_TAIL_P999,
	ROW_LAT_TAIL_MAX, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define STALL_NS 1000000ull
#define TAIL_BLOCK 5000 /* operations per block by default */
#define NQ 5
static const double quantiles[NQ] = { 0.5, 0.9, 0.99, 0.999, 1.0 };
/* the rows of the quantiles' metrics */
static const int quantile_rows[NQ] = {
	ROW_LAT_TAIL_P50, ROW_LAT_TAIL_P90, ROW_LAT_TAIL_P99, ROW_LAT_TAIL_P999, ROW_LAT_TAIL_MAX,
};

enum op { OP_NULL, OP_READ, OP_WRITE, OP_SIG, OP_PIPE, OP_UNIX, OP_TCP, OP_UDP, OP_FAULT, NOPS };
static const char *const op_names[] = { "null", "read", "write", "sig", "pipe", "unix", "tcp",
					"udp", "pagefault", "all", NULL };

struct tail {
	struct timing_ctx *timing;
	enum op op;
	uint64_t k;               /* operations per block */
	double clk;               /* ns subtracted from each operation */
	double *v;                /* this block's operations, ns */
	uint64_t stall_every, count;
	int fd;                   /* read, write */
	int to_child, from_child; /* pipe */
	pid_t child;
	volatile char *map;       /* pagefault */
	size_t pagesz;
	double (*blk)[NQ];        /* every block's percentiles, in order */
	size_t nblk, capblk;
};

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

/* The injected stall: busy, so that it is time on the CPU as a preempted call's would not be. */
static void stall(struct tail *x)
{
	if (x->stall_every && ++x->count % x->stall_every == 0) {
		uint64_t end = now_ns() + STALL_NS;
		while (now_ns() < end)
			;
	}
}

/* One loop per operation, each with the clock reads around the operation alone. */
#define TIMED_LOOP(x, n, BODY)                                                           \
	for (uint64_t i = 0; i < (n); i++) {                                             \
		uint64_t t0 = now_ns();                                                  \
		BODY;                                                                    \
		stall(x);                                                                \
		uint64_t t1 = now_ns();                                                  \
		(x)->v[i] = (double)(t1 - t0) - (x)->clk;                                \
	}

static void loop_null(uint64_t n, void *a)
{
	struct tail *x = a;
	long r = 0;
	TIMED_LOOP(x, n, r += syscall(SYS_getppid));
	sink_u64((uint64_t)r);
}

static void loop_read(uint64_t n, void *a)
{
	struct tail *x = a;
	char c;
	TIMED_LOOP(x, n, if (read(x->fd, &c, 1) != 1) abort());
}

static void loop_write(uint64_t n, void *a)
{
	struct tail *x = a;
	char c = 0;
	TIMED_LOOP(x, n, if (write(x->fd, &c, 1) != 1) abort());
}

static void loop_sig(uint64_t n, void *a)
{
	struct tail *x = a;
	pid_t self = getpid();
	TIMED_LOOP(x, n, kill(self, SIGUSR1));
}

static void loop_pipe(uint64_t n, void *a)
{
	struct tail *x = a;
	char c = 'x';
	TIMED_LOOP(x, n, if (write(x->to_child, &c, 1) != 1 || read(x->from_child, &c, 1) != 1)
				 abort());
}

static void loop_fault(uint64_t n, void *a)
{
	struct tail *x = a;
	TIMED_LOOP(x, n, x->map[i * x->pagesz] = 1);
}

static void (*const loops[NOPS])(uint64_t, void *) = {
	loop_null, loop_read, loop_write, loop_sig, loop_pipe, loop_pipe, loop_pipe, loop_pipe,
	loop_fault,
};

/* Two connected sockets (*p the parent's, *q the child's): unix, a stream socket pair; tcp, a
 * loopback connection (connected and accepted before the fork: the backlog completes it); udp,
 * two loopback datagram sockets connected to each other. */
static int socket_ends(enum op op, int *p, int *q)
{
	if (op == OP_UNIX) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
			return -1;
		*p = sv[0];
		*q = sv[1];
		return 0;
	}
	int type = op == OP_UDP ? SOCK_DGRAM : SOCK_STREAM, one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in b = a;
	socklen_t al = sizeof a, bl = sizeof b;
	int l = socket(AF_INET, type, 0), c = socket(AF_INET, type, 0);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof a) != 0 ||
	    getsockname(l, (struct sockaddr *)&a, &al) != 0)
		return -1;
	if (op == OP_UDP) {
		if (bind(c, (struct sockaddr *)&b, sizeof b) != 0 ||
		    getsockname(c, (struct sockaddr *)&b, &bl) != 0 ||
		    connect(l, (struct sockaddr *)&b, sizeof b) != 0 ||
		    connect(c, (struct sockaddr *)&a, sizeof a) != 0)
			return -1;
		*p = c;
		*q = l;
		return 0;
	}
	if (listen(l, 1) != 0 || connect(c, (struct sockaddr *)&a, sizeof a) != 0)
		return -1;
	int s = accept(l, NULL, NULL);
	close(l);
	if (s < 0)
		return -1;
	/* one byte each way, at once: no Nagle delay */
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	*p = c;
	*q = s;
	return 0;
}

/* The echo child: two pipes (pipe), or two connected sockets, each end both ways (dup'd so
 * that each side closes its own copies). */
static int setup_pipe(struct tail *x)
{
	int down[2], up[2];
	if (x->op != OP_PIPE) {
		int p, q;
		if (socket_ends(x->op, &p, &q) != 0) {
			warnx_("%s: cannot connect two sockets: %s", op_names[x->op], strerror(errno));
			return -1;
		}
		down[1] = p;
		down[0] = q;
		up[0] = dup(p);
		up[1] = dup(q);
		if (up[0] < 0 || up[1] < 0) {
			warnx_("dup: %s", strerror(errno));
			return -1;
		}
	} else if (pipe(down) != 0 || pipe(up) != 0) {
		warnx_("pipe: %s", strerror(errno));
		return -1;
	}
	x->child = plumb_fork();
	if (x->child < 0) {
		warnx_("fork: %s", strerror(errno));
		return -1;
	}
	if (x->child == 0) {
		timing_place_helper(x->timing, 1);
		close(down[1]);
		close(up[0]);
		char c;
		while (read(down[0], &c, 1) == 1 && write(up[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	x->to_child = down[1];
	x->from_child = up[0];
	return 0;
}

static int setup(void *a)
{
	struct tail *x = a;
	if (x->op == OP_READ || x->op == OP_WRITE) {
		const char *path = x->op == OP_READ ? "/dev/zero" : "/dev/null";
		if ((x->fd = open(path, x->op == OP_READ ? O_RDONLY : O_WRONLY)) < 0) {
			warnx_("%s: %s", path, strerror(errno));
			return -1;
		}
	} else if (x->op == OP_SIG) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_usr1;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL) != 0) {
			warnx_("sigaction(SIGUSR1): %s", strerror(errno));
			return -1;
		}
	} else if (x->op >= OP_PIPE && x->op <= OP_UDP) {
		return setup_pipe(x);
	}
	return 0;
}

static void teardown(void *a)
{
	struct tail *x = a;
	if (x->fd >= 0)
		close(x->fd);
	x->fd = -1;
	if (x->op == OP_SIG)
		signal(SIGUSR1, SIG_DFL);
	if (x->op >= OP_PIPE && x->op <= OP_UDP && x->child > 0) {
		char c = 0;
		ssize_t w = write(x->to_child, &c, 0); /* udp: an empty datagram, read as 0 bytes */
		(void)w;
		close(x->to_child); /* the others: the child reads EOF and exits */
		close(x->from_child);
		child_wait_bounded(x->child, 1000);
		x->child = 0;
	}
}

/* pagefault: a fresh mapping for each block (untimed); a failure is fatal, not a fault. */
static void before(uint64_t n, void *a)
{
	struct tail *x = a;
	if (x->op != OP_FAULT)
		return;
	void *p = mmap(NULL, n * x->pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		die(EXIT_MEASURE, "mmap of %llu pages: %s", (unsigned long long)n, strerror(errno));
#ifdef MADV_NOHUGEPAGE
	madvise(p, n * x->pagesz, MADV_NOHUGEPAGE); /* one fault per page, not per 2 MiB */
#endif
	x->map = p;
}

static int cmp_double(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;
	return (p > q) - (p < q);
}

/* The value below which a fraction q of the sorted v lie: nearest rank. */
static double rank(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);
	return v[k > 0 ? k - 1 : 0];
}

/* After each block (untimed): its percentiles, kept in order. */
static void after(uint64_t n, void *a)
{
	struct tail *x = a;
	if (x->op == OP_FAULT) {
		munmap((void *)x->map, n * x->pagesz);
		x->map = NULL;
	}
	qsort(x->v, n, sizeof *x->v, cmp_double);
	if (x->nblk == x->capblk) {
		x->capblk = x->capblk ? 2 * x->capblk : 32;
		x->blk = xrealloc(x->blk, x->capblk * sizeof *x->blk);
	}
	for (int q = 0; q < NQ; q++)
		x->blk[x->nblk][q] = rank(x->v, n, quantiles[q]);
	x->nblk++;
}

struct tail_opts {
	int op;
	long long k;
	long long stall_every;
};

static int measure_op(struct tool_ctx *c, struct tail *x)
{
	x->v = xmalloc(x->k * sizeof *x->v);
	x->clk = clock_overhead_ns();
	struct bench_op op = { .setup = setup, .loop = loops[x->op], .before = before,
			       .after = after, .teardown = teardown, .arg = x,
			       .fixed_iters = x->k, .no_parallel = 1,
			       .helpers = x->op >= OP_PIPE && x->op <= OP_UDP };
	struct measurement m;
	int rc = measure(&c->timing, &op, &m);
	free(x->v);
	if (rc != 0 || m.n > x->nblk) {
		if (rc == 0)
			measurement_free(&m);
		return EXIT_MEASURE;
	}
	/* The samples are the last m.n blocks (warm-up blocks come first). */
	const double (*b)[NQ] = (const double (*)[NQ])x->blk + (x->nblk - m.n);
	double worst = -INFINITY;
	for (size_t i = 0; i < m.n; i++)
		if (b[i][NQ - 1] > worst)
			worst = b[i][NQ - 1];
	m.clock_overhead_ns = x->clk;
	/* Another block size is another quantity (a block's max above all): said in params, so
	 * that compare never pairs it with the default's; so is an injected stall. */
	char params[96];
	int len = snprintf(params, sizeof params, "op=%s", op_names[x->op]);
	if (x->k != TAIL_BLOCK)
		len += snprintf(params + len, sizeof params - (size_t)len, " block=%llu",
				(unsigned long long)x->k);
	if (x->stall_every)
		snprintf(params + len, sizeof params - (size_t)len, " stall_every=%llu",
			 (unsigned long long)x->stall_every);
	struct sample *keep = m.s;
	struct sample *s = xmalloc(m.n * sizeof *s);
	m.s = s;
	for (int q = 0; q < NQ; q++) {
		for (size_t i = 0; i < m.n; i++) {
			s[i] = keep[i];
			s[i].value = b[i][q];
		}
		struct result *r = record_latency(c, metrics[quantile_rows[q]].id, params, NAN, &m, 1);
		result_add_info(r, "block=%llu", (unsigned long long)x->k);
		if (q == NQ - 1)
			result_add_info(r, "worst_us=%.3f", worst / 1e3);
	}
	m.s = keep;
	free(s);
	measurement_free(&m);
	return 0;
}

static int lat_tail(struct tool_ctx *c, int argc, char **argv)
{
	struct tail_opts o = { NOPS, TAIL_BLOCK, 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	if (args.n > 0)
		usage_error(c, "lat_tail takes no operands (-o OP chooses the operation)");
	c->timing.opts.parallel = 1;
	long ps = sysconf(_SC_PAGESIZE);
	int first = o.op == NOPS ? 0 : o.op, last = o.op == NOPS ? NOPS - 1 : o.op;
	for (int i = first; i <= last; i++) {
		struct tail x = { .timing = &c->timing, .op = (enum op)i, .k = (uint64_t)o.k,
				  .stall_every = (uint64_t)o.stall_every, .fd = -1,
				  .pagesz = ps > 0 ? (size_t)ps : 4096 };
		int rc = measure_op(c, &x);
		free(x.blk);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* By default 11 blocks of 5000 operations: p99.9 is the 5th largest of a block, and the
 * slowest operations (pipe and unix, 10-40 us on a guest) take about 1.5 s each. */
static const struct tool_options tail_options = {
	.opts = (const struct opt[]){
		OPT_CHOICE('o', NULL, struct tail_opts, op, "OP", op_names,
			   "the operation: null, read, write, sig, pipe, unix, tcp, udp, pagefault or all (default)"),
		OPT_INT('k', NULL, struct tail_opts, k, "K", 100, 100000, "-k (operations per block)",
			"single operations per block, i.e. per sample (default 5000)"),
		OPT_INT(0, "stall-every", struct tail_opts, stall_every, "N", 2, 1000000000,
			"--stall-every", "for tests: every N-th operation also busy-waits 1 ms"),
		OPT_END },
	.timing = { .repetitions = 11 },
};

static const struct tool tools[] = {
	TOOL("lat_tail", lat_tail, 0, &tail_options, "[-o OP] [-k K] [--stall-every N]",
	     "tail latency: p50 p90 p99 p99.9 max of single system calls, signals, pipe round trips, page faults",
	     "Each sample is a block of K operations, each timed on its own between two clock reads\n"
	     "(the clock's read cost subtracted); the sample's values are the block's percentiles\n"
	     "(nearest rank) and the reported value their median over the blocks. Operations (-o):\n"
	     "null (getppid), read (1 byte of /dev/zero), write (1 byte to /dev/null), sig (SIGUSR1\n"
	     "to itself, handled), pipe (1-byte round trip to a child), unix, tcp, udp (the same\n"
	     "through an AF_UNIX socket pair, a loopback TCP connection, loopback UDP sockets),\n"
	     "pagefault (first touch of a fresh anonymous page); all of them by default. Not in\n"
	     "lmbench."),
	{ 0 },
};

/* Each row is a point of the chart kind "tails" (analysis/report_tails.c: x the percentile in
 * nines, -log10(1 - q), the block's maximum at 4) and a column of `plumb summary --tails`, which
 * shows p99's spread and the worst single operation (.figure, core/metrics.h). */
#define TAIL_METHOD(what)                                                                     \
	.work = what " of a block of K single operations (op: getppid; 1-byte read of /dev/zero or " \
	       "write to /dev/null; kill(self, SIGUSR1) handled; a 1-byte round trip to a child "  \
	       "through two pipes, an AF_UNIX socket pair, loopback TCP or UDP; the first store to a fresh anonymous page), each timed alone between two " \
	       "clock reads; the sample is one block, the value the median over the blocks",      \
	.subtracted = "the clock's read cost from each operation", .lmbench = "not an lmbench tool"

/* Default noise: 6 runs of `plumb run --only lat_tail` (3 rounds each) on the busy 2-vCPU guest,
 * the log values' standard deviation times 1.25, the largest over null, read, write, sig, pipe
 * and pagefault (one row serves every operation; unix, tcp and udp came later, not measured): p50 0.19 (null), p90 0.10, p99 0.87 (pipe; the others 0.05-0.09), p99.9
 * 2.12 (pipe; sig 1.63, the others 0.13-0.26), max 3.27 (read: a block's worst is either tens of
 * us or a ms stall, run by run). The median tracks the CPU clock; the tails are stalls. */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_TAIL_P50] = { .id = "lat_tail.p50",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "median of single operations (op)", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Tail {op} p50: %v microseconds", .vfmt = "%.4f",
	  .figure = { .kind = "tails", .role = FIG_POINT, .at = 0.30103, .name = "p50" },
	  TAIL_METHOD("the median (nearest rank)"),
	  .noise = { .group = "tails", .run = 0.19, .run_eq = 0.19, .df = 5,
		   .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_TAIL_P90] = { .id = "lat_tail.p90",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "90th percentile of single operations (op)",
	  .line = "Tail {op} p90: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .figure = { .kind = "tails", .role = FIG_POINT, .at = 1, .name = "p90" },
	  TAIL_METHOD("the 90th percentile (nearest rank)"),
	  .noise = { .group = "tails", .run = 0.1, .run_eq = 0.1, .df = 5, .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_TAIL_P99] = { .id = "lat_tail.p99",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "99th percentile of single operations (op)",
	  .line = "Tail {op} p99: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .figure = { .kind = "tails", .role = FIG_POINT, .at = 2, .name = "p99", .spread = 1 },
	  TAIL_METHOD("the 99th percentile (nearest rank)"),
	  .noise = { .group = "tails", .run = 0.87, .run_eq = 0.87, .df = 5, .clock = OWN_PACE } },
	[ROW_LAT_TAIL_P999] = { .id = "lat_tail.p999",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "99.9th percentile of single operations (op)",
	  .line = "Tail {op} p99.9: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .figure = { .kind = "tails", .role = FIG_POINT, .at = 3, .name = "p99.9" },
	  TAIL_METHOD("the 99.9th percentile (nearest rank)"),
	  .noise = { .group = "tails", .run = 2.12, .run_eq = 2.12, .df = 5, .clock = OWN_PACE } },
	[ROW_LAT_TAIL_MAX] = { .id = "lat_tail.max",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "slowest of a block of single operations (op)",
	  .line = "Tail {op} max: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .figure = { .kind = "tails", .role = FIG_POINT, .at = 4, .name = "max", .worst = 1 },
	  TAIL_METHOD("the slowest"),
	  .noise = { .group = "tails", .run = 3.27, .run_eq = 3.27, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_tail = { "tails", SUBSET_OS, "tail latency: percentiles of single operations", tools, metrics };
