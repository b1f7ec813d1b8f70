/*
 * scale.c — scale: how an operation's throughput grows with the copies running it at once, the
 * way will-it-scale shows where the kernel stops scaling (a plumb tool: lmbench has only -P,
 * one figure for one copy count). For each operation, MAX copies (processes, or with --threads
 * threads of one process, which share one mm and its locks) are started once and pinned to
 * MAX distinct CPUs by the placement (cpu.h: by default the last CPU, then downwards). The
 * parent makes copies 0..k-1 run and the others wait (asleep, polling every 200 us); a running
 * copy performs its operation in batches of about 20 us and publishes its count of completed
 * operations on a cache line of its own after each batch. After a warm-up of a quarter
 * interval (at least 2 ms) the parent times one wall interval (the tool's minimum sample:
 * 20 ms by default, never under 10 ms) and reads the k counts at its start and end: one
 * sample = the operations the k copies completed in that one interval / its length. Each of
 * the N rounds measures k = 1..MAX in turn (ascending, then descending), so every point sees
 * the background load of the same moments: measured one after another, a 2-copy point on a
 * shared guest read 0.4 to 1.0 with the same load, the 1-copy point taking the load of its
 * own moment for scaling. A count is behind by at most one batch at either end: 20 us in
 * 20 ms, 0.1 %. Nothing is subtracted: the clock is read twice a sample (tens of ns).
 * Why not measure()'s -P: a merged -P sample is one copy's own sample (ns per iteration, its
 * own calibration and start), so k copies' samples are not one interval; summing their rates
 * would assume they overlapped, and each k would be a new set of processes.
 *
 * The operations (op = what one count is):
 *   null      getppid() (lat_syscall null)
 *   pagefault the first write to a page of a fresh private anonymous mapping of 1 MiB (THP
 *             off): the kernel allocates and zeroes a page; the mapping is made and unmapped
 *             every 256 pages, its cost shared by them (will-it-scale's page_fault1 shape;
 *             lat_pagefault's major faults from a file are disk-bound, not lock-bound)
 *   mmap      mmap + munmap of 128 KiB anonymous, untouched (will-it-scale's mmap1 shape;
 *             lat_mmap's loop maps a file and touches it)
 *   pipe      one 1-byte round trip with an echo process (lat_pipe's loop, ipc.c): a copy is a
 *             pair, placed as lat_pipe -P places it: by default both on one CPU, so k pairs use
 *             k CPUs and a 2-CPU machine gets points 1 and 2 (pairs spread over two CPUs each
 *             would leave a 2-CPU machine one point, and measure wake-ups across CPUs); with
 *             --cpu LIST a pair takes two successive CPUs of the list, wrapping (cpu.h).
 *             Process mode only (a thread's pair behaves as a process's)
 *   rd        one 512-byte block of bw_mem rd's loop (one int every 16 bytes), each copy
 *             walking its own buffer of -s bytes (default: 4 x the last-level cache)
 * Metrics: scale.OP per operation (ops/s; rd in MB/s), params mode=process|thread, x = copies,
 * so a report draws one chart per operation with a curve per mode (one metric with op as a
 * param put rd's 10^7 blocks/s and pipe's 10^5 round trips on one linear axis); and
 * scale.efficiency, params op and mode, all on one chart (0..1).
 * Efficiency at k = the throughput's samples at k / (k x the median throughput at 1): its median
 * is median(k) / (k x median(1)), exactly 1 at k = 1, and every sample is kept. It exceeds 1
 * beyond noise only when the 1-copy CPU is busier than the others (other work pinned there):
 * each point's CPUs are in its result's info.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench/ipc/ipc.h"
#include "bench/mem/mem_common.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/stats.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_SCALE_NULL, ROW_SCALE_PAGEFAULT, ROW_SCALE_MMAP, ROW_SCALE_PIPE, ROW_SCALE_RD,
	ROW_SCALE_EFFICIENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define SCALE_MAX 1024
#define LINE 128
#define BATCH_NS 20000.0
#define PF_PAGES 256
#define MMAP_LEN (128u << 10)

enum { OP_NULL, OP_PF, OP_MMAP, OP_PIPE, OP_RD, NOPS };
static const char *const op_names[NOPS] = { "null", "pagefault", "mmap", "pipe", "rd" };
/* the row of each operation's metric */
static const int op_rows[NOPS] = { ROW_SCALE_NULL, ROW_SCALE_PAGEFAULT, ROW_SCALE_MMAP,
				   ROW_SCALE_PIPE, ROW_SCALE_RD };

/* One copy's line: its count, written by it alone; its state. */
struct slot {
	_Alignas(LINE) _Atomic uint64_t count;
	_Atomic int state; /* 0 starting, 1 ready, -1 could not set up */
	int cpu;
};

/* Shared by the parent and its k copies (MAP_SHARED: copies may be processes). */
struct board {
	_Alignas(LINE) _Atomic int active; /* copies 0..active-1 run, the others wait */
	_Alignas(LINE) _Atomic int stop;
	struct slot s[];
};

/* What a copy needs to run its operation. */
struct copy {
	int op, index, helpers;
	struct board *b;
	struct timing_ctx t;  /* the tool's placement, this copy's number */
	size_t pg, rd_size, pos;
	char *region;
	struct mem_buf buf;
	struct ipc ipc;
	uint64_t acc;
};

static int op_setup(struct copy *c)
{
	c->pg = (size_t)sysconf(_SC_PAGESIZE);
	switch (c->op) {
	case OP_PIPE: {
		int to[2], from[2];
		c->ipc = (struct ipc){ .msize = 1, .buf = ipc_one_byte, .timing = &c->t };
		if (pipe(to) || pipe(from)) {
			warnx_("pipe: %s", strerror(errno));
			return -1;
		}
		if ((c->ipc.child = ipc_fork_helper(&c->ipc)) < 0)
			return -1;
		if (c->ipc.child == 0) {
			close(to[1]);
			close(from[0]);
			ipc_echo(to[0], from[1], c->ipc.buf, c->ipc.msize);
		}
		close(to[0]);
		close(from[1]);
		c->ipc.wfd = to[1];
		c->ipc.rfd = from[0];
		ipc_roundtrip(&c->ipc); /* proof the helper runs */
		return 0;
	}
	case OP_RD:
		mem_alloc(&c->buf, c->rd_size, PAGES_4K);
		/* nonzero words, so no sum is known in advance */
		for (size_t i = 0; i + 4 <= c->rd_size; i += 4)
			*(int32_t *)(c->buf.p + i) = (int32_t)(i >> 2);
		return 0;
	default:
		return 0;
	}
}

static void op_teardown(struct copy *c)
{
	if (c->op == OP_PIPE)
		ipc_teardown_echo(&c->ipc);
	if (c->op == OP_RD)
		mem_free(&c->buf);
	if (c->op == OP_PF && c->region)
		munmap(c->region, PF_PAGES * c->pg);
	c->region = NULL;
}

/* Perform n operations. */
static void op_batch(struct copy *c, uint64_t n)
{
	uint64_t acc = c->acc;
	switch (c->op) {
	case OP_NULL:
		for (uint64_t i = 0; i < n; i++)
			acc += (uint64_t)getppid();
		break;
	case OP_PF:
		for (uint64_t i = 0; i < n; i++) {
			if (!c->region) {
				void *m = mmap(NULL, PF_PAGES * c->pg, PROT_READ | PROT_WRITE,
					       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				if (m == MAP_FAILED)
					die(EXIT_MEASURE, "mmap: %s", strerror(errno));
				/* one 4 KiB fault per page, never a huge page for 512 */
				madvise(m, PF_PAGES * c->pg, MADV_NOHUGEPAGE);
				c->region = m;
				c->pos = 0;
			}
			((volatile char *)c->region)[c->pos * c->pg] = 1;
			if (++c->pos == PF_PAGES) {
				munmap(c->region, PF_PAGES * c->pg);
				c->region = NULL;
			}
		}
		break;
	case OP_MMAP:
		for (uint64_t i = 0; i < n; i++) {
			void *m = mmap(NULL, MMAP_LEN, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				die(EXIT_MEASURE, "mmap: %s", strerror(errno));
			acc += (uintptr_t)m;
			munmap(m, MMAP_LEN);
		}
		break;
	case OP_PIPE:
		for (uint64_t i = 0; i < n; i++)
			ipc_roundtrip(&c->ipc);
		break;
	case OP_RD: {
		size_t blocks = c->rd_size / 512;
		for (uint64_t left = n; left > 0;) {
			size_t run = blocks - c->pos < left ? blocks - c->pos : (size_t)left;
			acc += part_rd((const int32_t *)(c->buf.p + c->pos * 512), run);
			c->pos = (c->pos + run) % blocks;
			left -= run;
		}
		break;
	}
	}
	KEEP(acc);
	c->acc = acc;
}

/* A copy: place, set up, find a batch of about BATCH_NS, say ready, run until stopped. */
static int copy_run(struct copy *c)
{
	struct slot *s = &c->b->s[c->index];
	c->t.copy = c->index;
	c->t.helpers = c->helpers;
	s->cpu = cpu_place(&c->t.place, c->index, 0, c->helpers);
	if (op_setup(c) != 0) {
		atomic_store(&s->state, -1);
		return -1;
	}
	uint64_t batch = 1;
	for (int i = 0; i < 40; i++) {
		uint64_t t0 = now_ns();
		op_batch(c, batch);
		if ((double)(now_ns() - t0) >= BATCH_NS / 2 || batch >= (1u << 24))
			break;
		batch *= 2;
	}
	atomic_store(&s->state, 1);
	uint64_t done = 0;
	while (!atomic_load_explicit(&c->b->stop, memory_order_relaxed)) {
		if (c->index >= atomic_load_explicit(&c->b->active, memory_order_relaxed)) {
			/* not in this point: leave the CPU idle, look again in 200 us */
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
			continue;
		}
		op_batch(c, batch);
		done += batch;
		atomic_store_explicit(&s->count, done, memory_order_relaxed);
	}
	op_teardown(c);
	return 0;
}

static void *copy_thread(void *arg)
{
	return (void *)(intptr_t)copy_run(arg);
}

static uint64_t total(const struct board *b, int k)
{
	uint64_t n = 0;
	for (int i = 0; i < k; i++)
		n += atomic_load_explicit(&b->s[i].count, memory_order_relaxed);
	return n;
}

static void sleep_until(uint64_t t)
{
	for (uint64_t now; (now = now_ns()) < t;) {
		uint64_t d = t - now;
		struct timespec ts = { (time_t)(d / 1000000000u), (long)(d % 1000000000u) };
		nanosleep(&ts, NULL);
	}
}

/* The samples of every copy count k = 1..max of one operation: pts[k]. */
struct point {
	struct sample *s;
	int n;
	int cpus[SCALE_MAX];
};

/* One interval with copies 0..k-1 running: a warm-up of a quarter interval (at least 2 ms: a
 * waiting copy looks every 200 us, then runs a batch before its count moves), then the count. */
static struct sample one_interval(struct tool_ctx *tc, struct board *b, int k, double interval_ns)
{
	atomic_store(&b->active, k);
	sleep_until(now_ns() + (uint64_t)fmax(interval_ns / 4, 2e6));
	uint64_t t0 = now_ns(), c0 = total(b, k);
	sleep_until(t0 + (uint64_t)interval_ns);
	/* a count that did not move is no rate of 0 but no measurement: on a loaded machine the
	 * copies may not have finished a batch in the interval; wait for one (up to 50 intervals),
	 * the elapsed time growing with it (issue 34: "0 ops/s" with 1 copy under load) */
	uint64_t give_up = t0 + (uint64_t)(50 * interval_ns);
	while (total(b, k) == c0 && now_ns() < give_up)
		sleep_until(now_ns() + 1000000);
	uint64_t t1 = now_ns(), c1 = total(b, k);
	return (struct sample){ .value = (double)(c1 - c0) * 1e9 / (double)(t1 - t0),
				.iters = c1 - c0, .elapsed_ns = (double)(t1 - t0),
				.round = tc->timing.opts.round };
}

/* Wait until every one of the started copies is set up: 0, or -1 when one failed or died
 * (a copy process that ended is reaped and its pid set to 0). */
static int wait_ready(struct board *b, int started, int threads, pid_t *pids, const char *op)
{
	for (int i = 0; i < started;) {
		int st = atomic_load(&b->s[i].state);
		if (st < 0)
			return -1;
		if (st > 0) {
			i++;
			continue;
		}
		int ws;
		if (!threads && waitpid(pids[i], &ws, WNOHANG) == pids[i]) {
			child_forget(pids[i]);
			pids[i] = 0;
			warnx_("copy %d of %s ended before it started", i, op);
			return -1;
		}
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* max copies of op, started once; n rounds, each measuring k = 1..max (ascending in even
 * rounds, descending in odd ones), so every point sees the same background load on average:
 * on a shared guest a point measured apart from the 1-copy one mistook the load of its moment
 * for scaling. 0, or -1 (a message was printed). */
static int run_op(struct tool_ctx *tc, struct copy *proto, int max, int threads,
		  double interval_ns, int n, struct point *pts)
{
	size_t bytes = sizeof(struct board) + (size_t)max * sizeof(struct slot);
	struct board *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			       -1, 0);
	if (b == MAP_FAILED)
		die(EXIT_MEASURE, "mmap: %s", strerror(errno));
	struct copy *cs = xcalloc((size_t)max, sizeof *cs);
	pid_t *pids = xcalloc((size_t)max, sizeof *pids);
	pthread_t *th = xcalloc((size_t)max, sizeof *th);
	int rc = 0, started = 0;
	for (int i = 0; i < max && rc == 0; i++, started++) {
		cs[i] = *proto;
		cs[i].index = i;
		cs[i].b = b;
		if (threads) {
			int e = pthread_create(&th[i], NULL, copy_thread, &cs[i]);
			if (e != 0) {
				warnx_("pthread_create: %s", strerror(e));
				rc = -1;
				started--;
			}
		} else if ((pids[i] = plumb_fork()) == 0) {
			_exit(copy_run(&cs[i]) ? 1 : 0);
		} else if (pids[i] < 0) {
			warnx_("fork: %s", strerror(errno));
			rc = -1;
			started--;
		}
	}
	if (rc == 0)
		rc = wait_ready(b, started, threads, pids, op_names[proto->op]);
	if (rc == 0) {
		/* warm-up: every copy running for one interval */
		one_interval(tc, b, max, interval_ns);
		for (int k = 1; k <= max; k++) {
			pts[k].s = xcalloc((size_t)n, sizeof *pts[k].s);
			pts[k].n = n;
			for (int i = 0; i < k; i++)
				pts[k].cpus[i] = b->s[i].cpu;
		}
		for (int j = 0; j < n; j++)
			for (int i = 1; i <= max; i++) {
				int k = j % 2 ? max + 1 - i : i;
				pts[k].s[j] = one_interval(tc, b, k, interval_ns);
			}
	}
	atomic_store(&b->stop, 1);
	for (int i = 0; i < started; i++) {
		if (threads) {
			void *ret;
			pthread_join(th[i], &ret);
		} else if (pids[i] > 0) {
			int ws = child_wait(pids[i]);
			if (rc == 0 && (ws == -1 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)) {
				warnx_("copy %d of %s failed while measured", i, op_names[proto->op]);
				rc = -1;
			}
		}
	}
	munmap(b, bytes);
	free(cs);
	free(pids);
	free(th);
	return rc;
}

struct scale_opts {
	int op;       /* 0 = all, else OP_x + 1 */
	int max;
	int threads;
	uint64_t rd_size;
};

/* "1,0" */
static void cpu_list(const int *cpus, int k, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < k && at + 12 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "", cpus[i]);
}

/* One operation at 1..max copies: lines, results, a table. */
static int scale_op(struct tool_ctx *c, const struct scale_opts *o, int op, int max)
{
	const char *mode = o->threads ? "thread" : "process";
	struct copy proto = { .op = op, .helpers = op == OP_PIPE, .t = c->timing,
			      .rd_size = (size_t)o->rd_size };
	/* never below 10 ms (ENOUGH and --min-sample included): a shorter interval measures which
	 * copy the scheduler ran (on a loaded 2-vCPU guest whole 2 ms intervals counted nothing) */
	double interval = timing_min_sample_ns(&c->timing, 10e6);
	int n = timing_repetitions(&c->timing);
	double *thr = xcalloc((size_t)max + 1, sizeof *thr), *eff = xcalloc((size_t)max + 1, sizeof *eff);
	struct point *pts = xcalloc((size_t)max + 1, sizeof *pts);
	int st = 0, done = 0;
	if (run_op(c, &proto, max, o->threads, interval, n, pts) != 0)
		st = EXIT_MEASURE;
	double one = 0;
	for (int k = 1; k <= max && !st; k++) {
		struct point *p = &pts[k];
		char params[80], cpus[256];
		/* a metric per operation (its own unit, one chart with a curve per mode); copies are
		 * the series' abscissa (x), not part of its identity */
		snprintf(params, sizeof params, "mode=%s", mode);
		cpu_list(p->cpus, k, cpus, sizeof cpus);
		if (op == OP_RD) /* blocks of 512 bytes per second in MB/s (10^6 bytes, lmbench's MB) */
			for (int j = 0; j < p->n; j++)
				p->s[j].value *= 512 / 1e6;
		struct result *r = record_values(c, metrics[op_rows[op]].id, params, k, p->s, (size_t)p->n);
		result_add_info(r, "cpus=%s placement=%s", cpus, cpu_policy_desc(&c->timing.place));
		thr[k] = r->value;
		if (k == 1)
			one = r->value;
		/* each sample over k x the median at one copy: the median is median(k) / (k x one) */
		for (int j = 0; j < p->n; j++)
			p->s[j].value = one > 0 ? p->s[j].value / ((double)k * one) : NAN;
		snprintf(params, sizeof params, "op=%s mode=%s", op_names[op], mode);
		r = record_values(c, metrics[ROW_SCALE_EFFICIENCY].id, params, k, p->s, (size_t)p->n);
		result_add_info(r, "cpus=%s", cpus);
		eff[k] = r->value;
		done = k;
	}
	for (int k = 1; k <= max; k++)
		free(pts[k].s);
	free(pts);
	if (done > 0) {
		out_printf(c, "\n%s, %s copies: throughput and efficiency\n%7s %14s %10s\n",
			   op_names[op], mode, "copies", op == OP_RD ? "MB/s" : "ops/s", "efficiency");
		for (int k = 1; k <= done; k++)
			out_printf(c, "%7d %14.0f %10.3f\n", k, thr[k], eff[k]);
	}
	free(thr);
	free(eff);
	return st;
}

static int scale(struct tool_ctx *c, int argc, char **argv)
{
	struct scale_opts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	if (args.n > 0)
		usage_error(c, "scale takes no operands (-o OP chooses the operation)");
	int cpus[SCALE_MAX], ncpu = cpu_online(cpus, SCALE_MAX);
	int max = o.max > 0 ? o.max : ncpu;
	if (max > ncpu)
		usage_error(c, "-n %d: only %d CPUs may be used here", max, ncpu);
	c->timing.opts.parallel = 1; /* the copies are this tool's own */
	int first = o.op ? o.op - 1 : 0, last = o.op ? o.op - 1 : NOPS - 1;
	if (o.threads && first == OP_PIPE && last == OP_PIPE)
		usage_error(c, "-o pipe is measured with processes only (a copy is a process pair)");
	if ((first <= OP_RD && last >= OP_RD) && !o.rd_size) {
		char how[128];
		o.rd_size = mem_default_bytes((unsigned)max, 1, how, sizeof how);
	}
	if (first <= OP_RD && last >= OP_RD)
		mem_check_fits(c, (uint64_t)max * (o.rd_size + 4096));
	o.rd_size = o.rd_size / 512 * 512;
	/* where the copies ran: the policy here, each point's CPUs in its result's info */
	out_fact(c, NULL, "Scale placement", "%s", cpu_policy_desc(&c->timing.place));
	int st = 0;
	for (int op = first; op <= last && !st; op++)
		if (!(o.threads && op == OP_PIPE))
			st = scale_op(c, &o, op, max);
	return st;
}

/* 5 samples of 20 ms a point: with 5 operations and 2 CPUs about 2 s in all. */
static const struct tool_options scale_options = {
	.opts = (const struct opt[]){
		OPT_CHOICE('o', NULL, struct scale_opts, op, "OP",
			   OPT_CHOICES("all", "null", "pagefault", "mmap", "pipe", "rd"),
			   "the operation (default: all)"),
		OPT_INT('n', NULL, struct scale_opts, max, "MAX", 1, SCALE_MAX, "copies",
			"up to MAX copies (default: every CPU plumb may use)"),
		OPT_BOOL(0, "threads", struct scale_opts, threads,
			 "copies as threads of one process (one mm: page faults, mmap)"),
		OPT_SIZE('s', NULL, struct scale_opts, rd_size, "SIZE", 512, 1ull << 40, "size",
			 "rd: each copy's buffer (default: 4 x the last-level cache)"),
		OPT_END },
	.timing = { .repetitions = 5, .min_sample_ns = 20e6 },
};

static const struct tool tools[] = {
	TOOL("scale", scale, 1, &scale_options, "[-o OP] [-n MAX] [--threads] [-s SIZE]",
	     "scaling: an operation's throughput at 1..MAX copies at once, and its efficiency",
	     "Operations: null (getppid), pagefault (an anonymous page's first write), mmap\n"
	     "(mmap+munmap of 128 KiB), pipe (a round trip with an echo process; a copy is a pair),\n"
	     "rd (bw_mem rd's loop, in MB/s). Copies on distinct CPUs, started once; each round\n"
	     "measures 1..MAX copies in turn, a sample = the running copies' operations in one\n"
	     "interval (20 ms, at least 10) / its length. -P is ignored. Not in lmbench."),
	{ 0 },
};

#define SCALE_SUB "nothing (the clock is read twice an interval: tens of ns in 10 ms or more)"
static const struct metric_def metrics[ROW_END + 1] = {
#define SCALE_WORK "the operations x copies, pinned to x CPUs, completed in one wall interval of " \
	"at least 10 ms (each counts per batch of about 20 us) / the interval, read by the " \
	"parent; each round measures 1..MAX copies in turn"
#define SCALE_OP(row_, id_, desc_, line_)                                                       \
	[row_] = { .id = id_, .unit = "/s", .better = HIGHER, .stat = MEDIAN, .version = 1,               \
	  .desc = desc_ " per second, x copies at once (`mode`: process or thread copies)",       \
	  .line = line_ " {mode} copies %x: %v ops/s", .xfmt = "%.0f", .vfmt = "%.0f",          \
	  .sign = POSITIVE, .x = { .kind = X_COUNT, .label = "copies" }, .chart = "series",  \
	  .summary = { .at = SUMMARY_LAST },                                                     \
	  .work = SCALE_WORK, .subtracted = SCALE_SUB,                                           \
	  .lmbench = "not an lmbench tool (lmbench's -P gives one copy count)",                  \
	  .noise = NOISE_UNMEASURED }
	SCALE_OP(ROW_SCALE_NULL, "scale.null", "getppid() calls", "Scale null"),
	SCALE_OP(ROW_SCALE_PAGEFAULT, "scale.pagefault", "first writes to a page of a fresh anonymous mapping",
		 "Scale pagefault"),
	SCALE_OP(ROW_SCALE_MMAP, "scale.mmap", "mmap+munmap of 128 KiB anonymous", "Scale mmap"),
	SCALE_OP(ROW_SCALE_PIPE, "scale.pipe", "1-byte pipe round trips, a copy an echo pair", "Scale pipe"),
	[ROW_SCALE_RD] = { .id = "scale.rd",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "bw_mem rd's loop (one int every 16 bytes), MB read per second, x copies at once, "
		 "each its own buffer (`mode`: process or thread copies)",
	  .line = "Scale rd {mode} copies %x: %v MB/s", .xfmt = "%.0f", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_COUNT, .label = "copies" }, .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = SCALE_WORK "; MB = 512-byte blocks x 512 / 10^6",
	  .subtracted = SCALE_SUB,
	  .lmbench = "not an lmbench tool (bw_mem -P gives one copy count)",
	  .noise = NOISE_UNMEASURED },
	[ROW_SCALE_EFFICIENCY] = { .id = "scale.efficiency",
	  .unit = "x", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "throughput at x copies / (x times the median throughput at 1 copy)",
	  .line = "Scale efficiency {op} {mode} copies %x: %v", .xfmt = "%.0f", .vfmt = "%.3f",
	  .sign = POSITIVE, .x = { .kind = X_COUNT, .label = "copies" }, .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "derived from the medians: each throughput sample at k copies / (k x the median at "
		"1 copy), so its median is median(k) / (k x median(1)); 1 = perfect scaling; above 1 "
		"only when the 1-copy CPU is busier than the others",
	  .subtracted = SCALE_SUB, .lmbench = "not an lmbench tool",
	  .noise = NOISE_UNMEASURED },
	{ 0 },
};

const struct tool_file toolfile_scale = { "scale", SUBSET_OS, "scaling: throughput at 1..N copies", tools, metrics };
