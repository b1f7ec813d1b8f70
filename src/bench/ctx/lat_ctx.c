/*
 * lat_ctx.c — lat_ctx: context-switch time among N processes passing a token around a ring of
 * pipes, each process summing its own private KB-sized buffer when it holds the token (so the
 * switch also pays for refilling the caches with that process's data, as in lmbench).
 *
 * Method (lmbench's): one iteration = one trip of the token around the ring, i.e. N switches.
 * The overhead that is not a switch — one pipe write + read and one buffer sum — is measured
 * by a single process doing exactly that (cycling through as many pipes as the largest ring
 * has) and subtracted: switch = trip / N - overhead. The result can come out at or below zero
 * when the overhead estimate is as large as the whole step; plumb prints and records it anyway
 * (lmbench printed nothing then) so no number is hidden.
 *
 * Placement: plumb's default (core/cpu.h) puts the whole ring on one CPU, so every hand-over is
 * a real switch on that CPU; `--cpu 0,1` spreads ring member k over the list (wake-ups cross
 * CPUs); `--cpu none` lets the scheduler decide. The placement is recorded with every result.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "bench/fs/fs.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_CTX_OVERHEAD, ROW_LAT_CTX_SWITCH, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define CTX_MAXPROCS 500   /* the cleanup registry holds 512 children per process */

struct ring {
	int n;            /* processes in the ring (or pipes cycled through, for the overhead) */
	size_t size;      /* bytes each process sums */
	int overhead;     /* 1: the one-process overhead loop */
	int (*p)[2];      /* pipe k: written by process k, read by process k+1 (mod n) */
	pid_t *pids;
	void *buf;
	uint64_t acc;
	struct timing_ctx *timing; /* the measurement's: where the members go */
};

static void *private_buffer(size_t size, unsigned seed)
{
	if (!size)
		return NULL;
	uint64_t *b = xmalloc(size + sizeof(uint64_t));
	/* Touch every page now, with values the sum cannot predict. */
	for (size_t i = 0; i < size / sizeof *b; i++)
		b[i] = (uint64_t)i * 2654435761u + seed;
	return b;
}

static int read_token(int fd, int *tok)
{
	ssize_t r;
	while ((r = read(fd, tok, sizeof *tok)) < 0 && errno == EINTR)
		;
	return r == (ssize_t)sizeof *tok ? 0 : -1;
}

static int write_token(int fd, int tok)
{
	ssize_t w;
	while ((w = write(fd, &tok, sizeof tok)) < 0 && errno == EINTR)
		;
	return w == (ssize_t)sizeof tok ? 0 : -1;
}

/* Ring member k (1..n-1): wait for the token, sum, pass it on; exit at end of file. */
static void __attribute__((noreturn)) member(struct ring *r, int k)
{
	int in = r->p[k - 1][0], out = r->p[k][1];
	for (int i = 0; i < r->n; i++) {
		if (r->p[i][0] != in)
			close(r->p[i][0]);
		if (r->p[i][1] != out)
			close(r->p[i][1]);
	}
	timing_place_helper(r->timing, k);
	void *buf = private_buffer(r->size, (unsigned)k);
	uint64_t acc = 0;
	int tok;
	while (read_token(in, &tok) == 0) {
		if (buf)
			acc += fs_sum_words(buf, r->size);
		KEEP(acc);
		if (write_token(out, tok) != 0)
			break;
	}
	sink_u64(acc);
	_exit(0);
}

static int ring_setup(void *arg)
{
	struct ring *r = arg;
	r->p = xcalloc((size_t)r->n, sizeof *r->p);
	r->pids = xcalloc((size_t)r->n, sizeof *r->pids);
	for (int i = 0; i < r->n; i++)
		if (pipe(r->p[i]) != 0) {
			warnx_("pipe: %s (ring of %d processes)", strerror(errno), r->n);
			return -1;
		}
	if (!r->overhead) {
		for (int k = 1; k < r->n; k++) {
			pid_t pid = plumb_fork();
			if (pid < 0) {
				int e = errno;
				struct rlimit rl;
				char lim[64] = "unlimited";
				if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
					snprintf(lim, sizeof lim, "%llu", (unsigned long long)rl.rlim_cur);
				warnx_("cannot start process %d of a ring of %d: %s (RLIMIT_NPROC %s)",
				       k + 1, r->n, strerror(e), lim);
				return -1;
			}
			if (pid == 0)
				member(r, k);
			r->pids[k] = pid;
		}
		/* The measuring process keeps only its own two ends. */
		for (int i = 0; i < r->n; i++) {
			if (i != r->n - 1)
				close(r->p[i][0]), r->p[i][0] = -1;
			if (i != 0)
				close(r->p[i][1]), r->p[i][1] = -1;
		}
	}
	r->buf = private_buffer(r->size, 0);
	return 0;
}

/* One iteration = one trip around the ring (n switches). */
static void ring_loop(uint64_t iters, void *arg)
{
	struct ring *r = arg;
	int tok = 0;
	uint64_t acc = r->acc;
	for (uint64_t i = 0; i < iters; i++) {
		if (write_token(r->p[0][1], tok) != 0 || read_token(r->p[r->n - 1][0], &tok) != 0)
			die(EXIT_MEASURE, "the ring of %d processes broke (a member died)", r->n);
		if (r->buf)
			acc += fs_sum_words(r->buf, r->size);
		KEEP(acc);
	}
	r->acc = acc;
}

/* The overhead: one process, its own pipe write + read and one sum per iteration. */
static void overhead_loop(uint64_t iters, void *arg)
{
	struct ring *r = arg;
	int tok = 0;
	uint64_t acc = r->acc;
	for (uint64_t i = 0; i < iters; i++) {
		int k = (int)(i % (uint64_t)r->n);
		if (write_token(r->p[k][1], tok) != 0 || read_token(r->p[k][0], &tok) != 0)
			die(EXIT_MEASURE, "pipe: %s", strerror(errno));
		if (r->buf)
			acc += fs_sum_words(r->buf, r->size);
		KEEP(acc);
	}
	r->acc = acc;
}

static void ring_teardown(void *arg)
{
	struct ring *r = arg;
	sink_u64(r->acc);
	/* Closing our write end makes member 1 see end of file and exit, which closes its write
	 * end, and so on around the ring; then every member is reaped. */
	for (int i = 0; i < r->n; i++) {
		if (r->p[i][0] >= 0)
			close(r->p[i][0]);
		if (r->p[i][1] >= 0)
			close(r->p[i][1]);
	}
	for (int k = 1; k < r->n; k++)
		if (r->pids[k] > 0)
			child_wait(r->pids[k]);
	free(r->p);
	free(r->pids);
	free(r->buf);
	r->p = NULL;
	r->pids = NULL;
	r->buf = NULL;
}

struct ctx_opts { int kb; };
static const struct tool_options ctx_options = { .opts = (const struct opt[]){
	OPT_INT('s', NULL, struct ctx_opts, kb, "KB", 0, 1 << 20, "kilobytes per process",
		"each process sums KB of its own memory per hand-off (default 0)"),
	OPT_END } };

static int lat_ctx(struct tool_ctx *c, int argc, char **argv)
{
	struct ctx_opts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	long long kb = o.kb;
	if (args.n == 0)
		usage_error(c, "missing process count(s), e.g. lat_ctx -s 0 2 4 8 16");
	int nn = args.n, maxn = 0;
	int *ns = xcalloc((size_t)nn, sizeof *ns);
	for (int i = 0; i < nn; i++) {
		ns[i] = (int)parse_int(args.v[i], 2, CTX_MAXPROCS, "process count");
		if (ns[i] > maxn)
			maxn = ns[i];
	}
	/* Say clearly, before forking anything, when the user's process limit cannot hold the
	 * largest ring (all -P copies at once). */
	struct rlimit rl;
	long long need = (long long)maxn * c->timing.opts.parallel;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (unsigned long long)need > (unsigned long long)rl.rlim_cur)
		die(EXIT_MEASURE, "%lld processes needed but RLIMIT_NPROC is %llu (raise it with "
		    "ulimit -u)", need, (unsigned long long)rl.rlim_cur);

	size_t size = (size_t)kb * 1024;
	char params[64];
	snprintf(params, sizeof params, "size=%lld", kb);

	/* Overhead: measured once, alone, with as many pipes as the largest ring. */
	struct ring ovr = { .n = maxn, .size = size, .overhead = 1, .timing = &c->timing };
	struct bench_op oop = { .setup = ring_setup, .loop = overhead_loop,
				.teardown = ring_teardown, .arg = &ovr, .no_parallel = 1,
				.steady = 1 };
	struct measurement m;
	if (measure(&c->timing, &oop, &m) != 0)
		return EXIT_MEASURE;
	double ovr_ns = measurement_stat(&m, 0);
	/* the steady figure subtracts the overhead's own steady figure, as lmbench's the mean */
	double ovr_steady = steady_stat(&m);
	struct result *ro = record_latency(c, metrics[ROW_LAT_CTX_OVERHEAD].id, params, NAN, &m, 1);
	measurement_free(&m);
	out_printf(c, "\n\"size=%lldk ovr=%.2f\n", kb, ro->value);

	for (int i = 0; i < nn; i++) {
		struct ring r = { .n = ns[i], .size = size, .timing = &c->timing };
		struct bench_op op = { .setup = ring_setup, .loop = ring_loop,
				       .teardown = ring_teardown, .arg = &r, .helpers = ns[i] - 1,
				       .steady = 1 };
		if (measure(&c->timing, &op, &m) != 0)
			return EXIT_MEASURE;
		/* Per trip, n steps each carrying one overhead's worth of non-switch work. */
		for (size_t k = 0; k < m.n; k++) {
			m.s[k].value -= ovr_ns * ns[i];
			if (m.steady)
				m.steady[k].value -= ovr_steady * ns[i];
		}
		struct result *rr = record_latency(c, metrics[ROW_LAT_CTX_SWITCH].id, params, ns[i], &m, ns[i]);
		result_add_info(rr, "procs=%d overhead_us=%.4f", ns[i], ovr_ns / 1e3);
		measurement_free(&m);
	}
	free(ns);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_ctx", lat_ctx, 0, &ctx_options, "[-s KB] N [N...]",
	     "context switch time among N processes passing a token, each summing KB of its own",
	     "Prints an empty line, \"size=Kk ovr=O (overhead per switch, us), then one line\n"
	     "'N us-per-switch' per process count. The overhead (one process's pipe write+read\n"
	     "and buffer sum) is subtracted; a result at or below zero is printed, not hidden.\n"
	     "Placement: by default the whole ring shares one CPU; --cpu 0,1 spreads the ring\n"
	     "members over CPUs 0 and 1; --cpu none leaves it to the scheduler."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_CTX_OVERHEAD] = { .id = "lat_ctx.overhead",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "lat_ctx loop overhead per switch (size=KB)",
	  .line = NULL, .vfmt = "%.2f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_CTX_OVERHEAD }, /* in lmbench's title of the series */
	  .work = "one pipe write + read and one buffer sum in a single process: what a switch "
		"step costs besides the switch",
	  .subtracted = SUB_CLOCK, .lmbench = "recorded as its own result",
	  .noise = { .group = "ipc", .run = 0.24, .run_eq = 0.24, .df = 4, .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_CTX_SWITCH] = { .id = "lat_ctx.switch",
	  .cells = {
		{ .cell = SUM_CTX0_2, .read = READ_AT_X, .params = "size=0", .x = 2 },
		{ .cell = SUM_CTX16_2, .read = READ_AT_X, .params = "size=16", .x = 2 },
		{ .cell = SUM_CTX64_2, .read = READ_AT_X, .params = "size=64", .x = 2 },
		{ .cell = SUM_CTX16_8, .read = READ_AT_X, .params = "size=16", .x = 8 },
		{ .cell = SUM_CTX64_8, .read = READ_AT_X, .params = "size=64", .x = 8 },
		{ .cell = SUM_CTX16_16, .read = READ_AT_X, .params = "size=16", .x = 16 },
		{ .cell = SUM_CTX64_16, .read = READ_AT_X, .params = "size=64", .x = 16 },
	  },
	  .summary_note = &one_cpu_note,
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "context switch among N processes touching KB each",
	  .line = "%x %v", .xfmt = "%.0f", .vfmt = "%.2f",
	  .lmbench_text = { .block = LMB_CTX },
	  .sign = ANY_SIGN, .x = { .kind = X_COUNT, .label = "processes" },
	  .chart = "ctx_switch", .chart_slug = "ctx-switch",
	  .chart_title = "Context switch time by process count (lat_ctx), a line per size (KB)",
	  .summary = { .at = SUMMARY_LISTED, .x = { 2, 8, 16 } },
	  .work = "one trip of a token around a ring of N processes, each summing its KB buffer; "
		"per switch",
	  .subtracted = SUB_CLOCK "; then lat_ctx.overhead per switch (lmbench's method)",
	  .lmbench = "results at or below zero are printed, not hidden",
	  .noise = { .group = "ipc", .run = 0.24, .run_eq = 0.24, .df = 4, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ipc.steady", .run = 0.24, .run_eq = 0.24, .df = 4,
		   .clock = FOLLOWS_CLOCK } },
	{ 0 },
};

const struct tool_file toolfile_ctx = { "ctx", SUBSET_OS, "context switching", tools, metrics };
