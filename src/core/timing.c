/*
 * timing.c — calibrate, warm up, sample, subtract the clock's read cost; -P copies in child
 * processes. See timing.h for the method. Every number it produces is a sample kept whole:
 * nothing is clamped, smoothed or dropped.
 *
 * No empty-loop cost is subtracted (issue 14): an empty `add; cmp; jne` loop runs in parallel
 * with the body on an out-of-order core, so subtracting it made short operations (a procedure
 * call: 20-35 %) smaller than the work, and its estimate varied 2x between processes. A sample
 * is the whole loop: the operation plus its loop, per iteration. LOOP_O is read for lmbench's
 * scripts' sake and ignored.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/side.h"
#include "core/stats.h"
#include "core/timing.h"
#include "core/util.h"

void timing_ctx_init(struct timing_ctx *t)
{
	memset(t, 0, sizeof *t);
	t->opts.parallel = 1;
}

/* ENOUGH and TIMING_O, once per context (LOOP_O is ignored: nothing is subtracted per
 * iteration). */
static void env_read(struct timing_ctx *t)
{
	if (t->env_read)
		return;
	t->env_read = 1;
	t->env_enough_ns = t->env_timing_o_ns = -1;
	const char *e;
	/* lmbench's variables are in microseconds. */
	if ((e = getenv("ENOUGH")) && *e) {
		char *end;
		double v = strtod(e, &end);
		if (*end || v <= 0 || v > 1e8)
			die(EXIT_USAGE, "ENOUGH: '%s' is not a positive number of microseconds", e);
		t->env_enough_ns = v * 1e3;
	}
	if ((e = getenv("TIMING_O")) && *e)
		t->env_timing_o_ns = atof(e) * 1e3;
}

/* The measurement under way brings its own sampling (mhz's): none of the user's applies. */
static int forced_own(const struct timing_ctx *t)
{
	return t->sampling && t->sampling->own;
}

double timing_min_sample_ns(struct timing_ctx *t, double op_min)
{
	env_read(t);
	double tool = t->tool ? t->tool->min_sample_ns : 0;
	double ns = forced_own(t) ? t->sampling->min_sample_ns
		  : t->opts.min_sample_ns > 0 ? t->opts.min_sample_ns
		  : t->env_enough_ns > 0 ? t->env_enough_ns : tool > 0 ? tool : TIMING_DEFAULT_MIN_NS;
	if (op_min > ns)
		ns = op_min;
	/* A sample must be long against the clock's step, or quantisation is the measurement. */
	double floor_ns = 1000.0 * clock_resolution_ns();
	return ns < floor_ns ? floor_ns : ns;
}

static double clock_ovh(struct timing_ctx *t)
{
	env_read(t);
	return t->env_timing_o_ns >= 0 ? t->env_timing_o_ns : clock_overhead_ns();
}

/* One timed interval; with a side probe (a sample, not a calibration or warm-up try) its
 * side metrics are read right outside the clock's reads into *side. */
static uint64_t time_side(const struct bench_op *op, uint64_t iters, struct side_probe *p,
			  struct side_sample *side)
{
	if (op->before)
		op->before(iters, op->arg);
	if (p)
		side_begin(p);
	uint64_t t0 = now_ns();
	op->loop(iters, op->arg);
	uint64_t t1 = now_ns();
	if (p)
		side_end(p, side);
	if (op->after)
		op->after(iters, op->arg);
	return t1 - t0;
}

static uint64_t time_once(const struct bench_op *op, uint64_t iters)
{
	return time_side(op, iters, NULL, NULL);
}

/* Grow the iteration count from iters until one sample lasts at least target ns. */
static uint64_t calibrate(const struct bench_op *op, double target, uint64_t iters)
{
	if (op->fixed_iters)
		return op->fixed_iters;
	for (int tries = 0; tries < 64; tries++) {
		double t = (double)time_once(op, iters);
		if (t >= 0.95 * target)
			break;
		uint64_t next;
		if (t < target / 64 || t < 2000)
			next = iters * 8;
		else
			next = (uint64_t)((double)iters * target * 1.1 / t) + 1;
		if (next <= iters)
			next = iters + 1;
		if (next > (1ull << 40))
			break; /* the operation costs nothing: report what that measures */
		iters = next;
	}
	return iters;
}

static void warm(const struct timing_ctx *t, const struct bench_op *op, uint64_t iters)
{
	uint64_t us = forced_own(t) ? t->sampling->warmup_us : t->opts.warmup_us;
	if (!us)
		return;
	uint64_t end = now_ns() + us * 1000;
	while (now_ns() < end)
		time_once(op, iters);
}

/* How a measurement takes its steady figure (timing.h): none, single operations inside the
 * sample, or a pass of `batches` short batches of `batch` operations after it. */
enum steady_mode { STEADY_NONE, STEADY_SINGLE, STEADY_PASS };
struct steady_plan {
	enum steady_mode mode;
	uint64_t batch, batches;
};

/* The plan for op at iters iterations a sample (calibrated to last about min_ns). Single
 * operations need a loop that can run one iteration at a time with nothing around the
 * sample (no before/after hook, no cost per call); otherwise short batches, each with its own
 * hooks. */
static struct steady_plan steady_plan(const struct bench_op *op, uint64_t iters, double min_ns)
{
	struct steady_plan p = { STEADY_NONE, 0, 0 };
	if (!op->steady || iters == 0)
		return p;
	double per = min_ns / (double)iters;
	if (per >= STEADY_SPLIT_NS && !op->before && !op->after && !op->call_cost) {
		p.mode = STEADY_SINGLE;
		p.batch = 1;
		p.batches = iters;
		return p;
	}
	p.mode = STEADY_PASS;
	p.batch = per > 0 && per < STEADY_BATCH_NS ? (uint64_t)ceil(STEADY_BATCH_NS / per) : 1;
	p.batches = iters / (STEADY_SHARE * p.batch);
	if (p.batches < STEADY_MIN_BATCHES) {
		/* a long operation: never more than half the sample's operations again */
		uint64_t half = iters / (2 * p.batch);
		p.batches = half < STEADY_MIN_BATCHES ? (half ? half : 1) : STEADY_MIN_BATCHES;
	}
	if (p.batches > STEADY_MAX_BATCHES)
		p.batches = STEADY_MAX_BATCHES;
	return p;
}

/* lmbench's sample, its iterations timed one by one: each clock read ends one operation and
 * starts the next, so the span is lmbench's (plus one read per operation, under 0.2 % of an
 * operation this long) and the operations are single. */
static uint64_t time_single(const struct bench_op *op, uint64_t iters, double clk_ovh,
			    struct steady_sample *st, struct side_probe *sp,
			    struct side_sample *side)
{
	double *d = xmalloc(iters * sizeof *d);
	side_begin(sp);
	uint64_t t0 = now_ns(), prev = t0;
	for (uint64_t i = 0; i < iters; i++) {
		op->loop(1, op->arg);
		uint64_t t = now_ns();
		d[i] = (double)(t - prev) - clk_ovh;
		prev = t;
	}
	side_end(sp, side);
	*st = (struct steady_sample){ stats_median(d, iters), iters, (double)(prev - t0), 1 };
	free(d);
	return prev - t0;
}

/* The pass of short batches after lmbench's sample, outside its span. */
static void steady_pass(const struct bench_op *op, const struct steady_plan *p, double clk_ovh,
			struct steady_sample *st)
{
	double *d = xmalloc(p->batches * sizeof *d);
	uint64_t start = now_ns();
	for (uint64_t k = 0; k < p->batches; k++) {
		if (op->before)
			op->before(p->batch, op->arg);
		uint64_t t0 = now_ns();
		op->loop(p->batch, op->arg);
		uint64_t t1 = now_ns();
		if (op->after)
			op->after(p->batch, op->arg);
		d[k] = ((double)(t1 - t0) - clk_ovh) / (double)p->batch;
	}
	double el = (double)(now_ns() - start);
	*st = (struct steady_sample){ stats_median(d, p->batches), p->batch * p->batches, el,
				      p->batch };
	free(d);
}

/* A sample; its side metrics go to *side, which it points at (push() copies them). */
static struct sample take_sample(const struct bench_op *op, uint64_t iters, double clk_ovh,
				 int round, const struct steady_plan *p, struct steady_sample *st,
				 struct side_probe *sp, struct side_sample *side)
{
	uint64_t el = p->mode == STEADY_SINGLE ? time_single(op, iters, clk_ovh, st, sp, side)
						: time_side(op, iters, sp, side);
	if (p->mode == STEADY_PASS)
		steady_pass(op, p, clk_ovh, st);
	double net = (double)el - clk_ovh;
	struct sample s = { .value = net / (double)iters, .iters = iters,
			    .elapsed_ns = (double)el, .round = round, .side = side };
	return s;
}

int timing_repetitions(const struct timing_ctx *t)
{
	int n = t->opts.repetitions > 0 ? t->opts.repetitions
	      : t->tool && t->tool->repetitions > 0 ? t->tool->repetitions
	      : TIMING_DEFAULT_REPS;
	return n > TIMING_MAX_REPS ? TIMING_MAX_REPS : n;
}

static int reps(const struct timing_ctx *t)
{
	if (t->sampling && t->sampling->repetitions > 0)
		return t->sampling->repetitions;
	return timing_repetitions(t);
}

/* Adaptive stopping applies unless the measurement fixed its own sample count. */
static int adaptive_cap(const struct timing_ctx *t)
{
	return t->sampling && t->sampling->repetitions > 0 ? 0 : t->opts.max_samples;
}

/* Keep a sample and, when the measurement takes it, its steady figure (st non-NULL). */
static void push(struct measurement *m, struct sample s, const struct steady_sample *st,
		 size_t *cap)
{
	if (m->n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		m->s = xrealloc(m->s, *cap * sizeof *m->s);
		if (st || m->steady)
			m->steady = xrealloc(m->steady, *cap * sizeof *m->steady);
	}
	if (st)
		m->steady[m->n] = *st;
	s.side = side_dup(s.side);
	m->s[m->n++] = s;
}

/* Forget m's samples (their side metrics freed), keeping the arrays. */
static void drop_samples(struct measurement *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->s[i].side);
		m->s[i].side = NULL;
	}
	m->n = 0;
}

/* Adaptive stopping: is the median known well enough yet? */
static int precise_enough(const struct timing_ctx *t, const struct measurement *m)
{
	if (adaptive_cap(t) <= 0 || t->opts.target_ci <= 0)
		return 1;
	double *v = xmalloc(m->n * sizeof *v);
	for (size_t i = 0; i < m->n; i++)
		v[i] = m->s[i].value;
	double lo, hi, med = stats_median(v, m->n);
	int ok = stats_median_ci(v, m->n, &lo, &hi) == 0 && med != 0 &&
		 (hi - lo) / fabs(med) <= 2 * t->opts.target_ci;
	free(v);
	return ok;
}

/* The count that would make a sample last the minimum, when the samples just taken are far
 * shorter than it (under an eighth), else 0. A calibration try can be slower than every sample
 * after it: a lost time slice (on a busy machine a partner thread waits out another process's
 * slice: lat_c2c's count was fixed at one round trip, samples of 300 ns for a minimum of 2 ms),
 * or the first touch of a buffer. The samples themselves say what one iteration costs. */
static uint64_t recalibrated(const struct bench_op *op, const struct measurement *m)
{
	if (op->fixed_iters || m->n == 0)
		return 0;
	double *el = xmalloc(m->n * sizeof *el);
	for (size_t i = 0; i < m->n; i++)
		el[i] = m->s[i].elapsed_ns;
	double med = stats_median(el, m->n);
	free(el);
	if (!(med < m->min_sample_ns / 8))
		return 0;
	double per = (med > 1 ? med : 1) / (double)m->iters;
	double want = m->min_sample_ns * 1.1 / per;
	return want > (double)(1ull << 40) ? (1ull << 40) : (uint64_t)want + 1;
}

static int measure_here(struct timing_ctx *t, const struct bench_op *op, struct measurement *m)
{
	size_t cap = 0;
	m->cpu = cpu_place(&t->place, t->copy, 0, op->helpers);
	struct side_probe sp; /* before setup: the helpers it forks are counted (side.h) */
	side_open(&sp, m->cpu);
	if (op->setup && op->setup(op->arg) != 0) {
		side_close(&sp);
		return -1;
	}
	m->loop_overhead_ns = 0; /* nothing subtracted per iteration: see the top of this file */
	m->clock_overhead_ns = clock_ovh(t);
	m->min_sample_ns = timing_min_sample_ns(t, op->min_sample_ns);
	m->iters = calibrate(op, m->min_sample_ns, 1);
	for (int again = 0; again < 2; again++) {
		warm(t, op, m->iters);
		int n = reps(t);
		int cap_n = adaptive_cap(t) > n ? adaptive_cap(t) : n;
		drop_samples(m);
		struct steady_plan plan = steady_plan(op, m->iters, m->min_sample_ns);
		for (int i = 0; i < cap_n; i++) {
			if (i >= n && precise_enough(t, m))
				break;
			struct steady_sample st;
			struct side_sample sd;
			struct sample s = take_sample(op, m->iters, m->clock_overhead_ns,
						      t->opts.round, &plan, &st, &sp, &sd);
			push(m, s, plan.mode != STEADY_NONE ? &st : NULL, &cap);
		}
		uint64_t fit = again ? 0 : recalibrated(op, m);
		if (!fit)
			break;
		/* the samples taken are dropped (shorter than the minimum); from the count they
		 * suggest, grown until a try lasts the minimum: a sample of a few iterations also
		 * holds costs that do not grow with the count (the clock's reads, under emulation
		 * microseconds), so the suggestion alone can fall short */
		m->iters = calibrate(op, m->min_sample_ns, fit);
	}
	if (op->teardown)
		op->teardown(op->arg);
	side_meta(&sp, m->side_source, m->idle_names);
	side_close(&sp);
	m->parallel = 1;
	return 0;
}

/* ---- -P copies: lmbench's benchmp, in child processes started together -------------------- */

struct copy_header {
	int failed;
	int n;
	uint64_t iters;
	double loop_ovh, clk_ovh, min_ns;
	int cpu;
	int steady; /* n steady_samples follow the samples */
	char side_source[16], idle_names[96];
};

static void copy_main(struct timing_ctx *t, const struct bench_op *op, int copy, int ready_w,
		      int start_r, int res_w, int exit_r)
{
	struct copy_header h = { 0 };
	t->copy = copy;
	h.cpu = cpu_place(&t->place, copy, 0, op->helpers);
	struct side_probe sp;
	side_open(&sp, h.cpu);
	char c = 1;
	if (op->setup && op->setup(op->arg) != 0) {
		h.failed = 1;
		write_in_full(res_w, &h, sizeof h);
		write_in_full(ready_w, &c, 1);
		_exit(1);
	}
	h.loop_ovh = 0;
	h.clk_ovh = clock_ovh(t);
	h.min_ns = timing_min_sample_ns(t, op->min_sample_ns);
	h.iters = calibrate(op, h.min_ns, 1);
	write_in_full(ready_w, &c, 1);
	if (read_in_full(start_r, &c, 1) < 0)
		_exit(1);
	warm(t, op, h.iters);
	int n = reps(t);
	struct sample *s = xmalloc((size_t)n * sizeof *s);
	struct steady_sample *st = xcalloc((size_t)n, sizeof *st);
	struct side_sample *sd = xcalloc((size_t)n, sizeof *sd);
	struct steady_plan plan = steady_plan(op, h.iters, h.min_ns);
	for (int i = 0; i < n; i++)
		s[i] = take_sample(op, h.iters, h.clk_ovh, t->opts.round, &plan, &st[i], &sp,
				   &sd[i]);
	side_meta(&sp, h.side_source, h.idle_names);
	side_close(&sp);
	h.n = n;
	h.steady = plan.mode != STEADY_NONE;
	write_in_full(res_w, &h, sizeof h);
	write_in_full(res_w, s, (size_t)n * sizeof *s);
	write_in_full(res_w, sd, (size_t)n * sizeof *sd); /* s[i].side points into it */
	if (h.steady)
		write_in_full(res_w, st, (size_t)n * sizeof *st);
	/* Keep the machine loaded until every copy is done (lmbench's cool-down). */
	struct pollfd p = { .fd = exit_r, .events = POLLIN };
	while (poll(&p, 1, 0) == 0)
		time_once(op, h.iters > 1 ? h.iters / 4 + 1 : 1);
	if (op->teardown)
		op->teardown(op->arg);
	_exit(0);
}

/* Wait until count bytes arrive on fd; fail if a copy exits first. */
static int wait_bytes(int fd, int count, pid_t *pids, int npids)
{
	while (count > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, 200);
		if (r > 0) {
			char buf[64];
			ssize_t got = read(fd, buf, count < 64 ? (size_t)count : 64);
			if (got <= 0)
				return -1;
			count -= (int)got;
			continue;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		for (int i = 0; i < npids; i++) {
			int st;
			if (pids[i] > 0 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
				child_forget(pids[i]);
				pids[i] = 0;
				return -1;
			}
		}
	}
	return 0;
}

/* A copy's samples (and their steady figures) after its header h, into m. */
static int read_copy(int fd, const struct copy_header *h, struct measurement *m, size_t *cap)
{
	struct sample *s = xmalloc(((size_t)h->n + 1) * sizeof *s);
	struct side_sample *sd = xmalloc(((size_t)h->n + 1) * sizeof *sd);
	struct steady_sample *st = h->steady ? xmalloc(((size_t)h->n + 1) * sizeof *st) : NULL;
	int rc = read_in_full(fd, s, (size_t)h->n * sizeof *s) < 0 ||
		 read_in_full(fd, sd, (size_t)h->n * sizeof *sd) < 0 ||
		 (st && read_in_full(fd, st, (size_t)h->n * sizeof *st) < 0) ? -1 : 0;
	for (int k = 0; rc == 0 && k < h->n; k++) {
		s[k].side = &sd[k]; /* the copy's pointer named its own memory */
		push(m, s[k], st ? &st[k] : NULL, cap);
	}
	free(s);
	free(sd);
	free(st);
	return rc;
}

static int measure_copies(struct timing_ctx *t, const struct bench_op *op, struct measurement *m,
			  int P)
{
	int ready[2], start[2], done[2];
	int (*res)[2] = xcalloc((size_t)P, sizeof *res);
	pid_t *pids = xcalloc((size_t)P, sizeof *pids);
	int rc = -1;
	if (pipe(ready) || pipe(start) || pipe(done))
		die(EXIT_MEASURE, "pipe: %s", strerror(errno));
	for (int i = 0; i < P; i++) {
		if (pipe(res[i]))
			die(EXIT_MEASURE, "pipe: %s", strerror(errno));
		pids[i] = plumb_fork();
		if (pids[i] < 0)
			die(EXIT_MEASURE, "fork: %s", strerror(errno));
		if (pids[i] == 0) {
			close(ready[0]); close(start[1]); close(done[1]); close(res[i][0]);
			copy_main(t, op, i, ready[1], start[0], res[i][1], done[0]);
		}
		close(res[i][1]);
	}
	close(ready[1]); close(start[0]); close(done[0]);
	if (wait_bytes(ready[0], P, pids, P) == 0) {
		char go[256];
		memset(go, 1, sizeof go);
		for (int left = P; left > 0; left -= left > 256 ? 256 : left)
			write_in_full(start[1], go, left > 256 ? 256 : (size_t)left);
		size_t cap = 0;
		rc = 0;
		for (int i = 0; i < P && rc == 0; i++) {
			struct copy_header h;
			if (read_in_full(res[i][0], &h, sizeof h) < 0 || h.failed) {
				rc = -1;
				break;
			}
			if (i == 0) {
				m->iters = h.iters;
				m->loop_overhead_ns = h.loop_ovh;
				m->clock_overhead_ns = h.clk_ovh;
				m->min_sample_ns = h.min_ns;
				m->cpu = h.cpu;
				memcpy(m->side_source, h.side_source, sizeof m->side_source);
				memcpy(m->idle_names, h.idle_names, sizeof m->idle_names);
			}
			rc = read_copy(res[i][0], &h, m, &cap);
		}
	}
	close(done[1]);
	for (int i = 0; i < P; i++) {
		close(res[i][0]);
		if (pids[i] > 0) {
			if (rc != 0)
				kill(pids[i], SIGKILL);
			child_wait(pids[i]);
		}
	}
	close(ready[0]);
	close(start[1]);
	free(res);
	free(pids);
	m->parallel = P;
	if (rc != 0)
		warnx_("a benchmark copy failed; no result");
	return rc;
}

int measure(struct timing_ctx *t, const struct bench_op *op, struct measurement *m)
{
	memset(m, 0, sizeof *m);
	m->cpu = -1;
	int P = t->opts.parallel > 1 && !op->no_parallel ? t->opts.parallel : 1;
	t->sampling = op->sampling;
	t->helpers = op->helpers;
	int rc = P > 1 ? measure_copies(t, op, m, P) : measure_here(t, op, m);
	t->sampling = NULL;
	return rc;
}

void measurement_free(struct measurement *m)
{
	drop_samples(m);
	free(m->s);
	free(m->steady);
	memset(m, 0, sizeof *m);
}

double measurement_stat(const struct measurement *m, int use_min)
{
	double *v = xmalloc((m->n + 1) * sizeof *v);
	for (size_t i = 0; i < m->n; i++)
		v[i] = m->s[i].value;
	double r = use_min ? stats_min(v, m->n) : stats_median(v, m->n);
	free(v);
	return r;
}

double steady_stat(const struct measurement *m)
{
	if (!m->steady || m->n == 0)
		return NAN;
	double *v = xmalloc(m->n * sizeof *v);
	for (size_t i = 0; i < m->n; i++)
		v[i] = m->steady[i].value;
	double r = stats_median(v, m->n);
	free(v);
	return r;
}

int timing_place_helper(struct timing_ctx *t, int proc)
{
	return cpu_place(&t->place, t->copy, proc, t->helpers);
}
