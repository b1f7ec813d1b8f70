/*
 * lat_sig.c — lat_sig: the costs of signals.
 *   install  one sigaction(SIGUSR1) per iteration.
 *   catch    delivery of SIGUSR1 to ourselves with kill() to an empty handler, minus the cost of
 *            kill(self, 0) (the system call without a signal), as lmbench does: what is left is
 *            the kernel's signal set-up, the handler call and sigreturn.
 *   prot     a write to a read-only page: the protection fault, the SIGSEGV delivery and the
 *            handler, minus the catch figure above (lmbench's correction), i.e. the cost of the
 *            trap and the kernel's fault handling beyond an ordinary signal delivery.
 * Corrections: the operations (kill 0, kill SIGUSR1, fault) are measured in interleaved rounds,
 * one sample of each per round, so slow phases of a busy machine fall on all of them. Every
 * sample of the measured operation is kept and has ONE constant subtracted: the correction
 * estimated from the minimum of its operations' samples. Noise on a shared machine only ever
 * adds time, and a difference of two medians taken from disturbed samples swings by several
 * microseconds either way (negative results included, which lmbench hid by clamping at 0); the
 * least disturbed sample is the best estimate of a cost that is subtracted. The result is then
 * the median of the corrected samples (record_values), as lmbench; the correction is recorded
 * with it (kill0_ns, catch_ns).
 * The fault loop: before each sample the page is made read-only (untimed). The timed loop is
 * ONE store to the page; the handler counts the faults and returns, so the store re-executes and
 * faults again, until the count reaches the sample's iteration count, when the handler makes the
 * page writable and the store completes. A sample of n iterations is therefore n complete
 * fault + handler + sigreturn round trips, plus one mprotect() (amortised over n, well under
 * 0.1 % at the default sample length). No siglongjmp, so no signal-mask system calls are timed.
 * Steady twins (core/timing.h): catch's is each sample's median single delivery minus the
 * median of kill(self, 0)'s; prot's each sample's median single fault, timed by the handler's
 * clock in a row of faults after the sample (prot_steady), minus catch's steady figure.
 * The optional FILE operand (lmbench's prot needs one) is mapped private and read-only; without
 * it an anonymous page is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/tool.h"
#include "bench/tool_run.h"
#include "core/arch.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/stats.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_SIG_INSTALL, ROW_LAT_SIG_CATCH, ROW_LAT_SIG_PROT, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct sig {
	pid_t self;            /* set in setup: each -P copy signals itself */
	int fd;                /* FILE for prot, or -1 */
	char *page;
	size_t pagesz;
	/* prot's steady figure: after each sample a pass of its own (prot_steady) */
	double clk;            /* the clock's read cost, subtracted per fault */
	double *one;           /* one pass's faults, ns */
	struct steady_sample last; /* the latest pass's figure */
	struct steady_sample *st;  /* the samples' (measure_rounds keeps them) */
	size_t nst;
};

static void empty_handler(int sig)
{
	(void)sig;
}

static void loop_install(uint64_t n, void *a)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = empty_handler;
	sigemptyset(&sa.sa_mask);
	for (uint64_t i = 0; i < n; i++)
		if (sigaction(SIGUSR1, &sa, &old) != 0)
			die(EXIT_MEASURE, "sigaction: %s", strerror(errno));
}

static int setup_catch(void *a)
{
	struct sig *s = a;
	s->self = getpid();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = empty_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	return 0;
}

static void loop_send(uint64_t n, void *a)
{
	struct sig *s = a;
	for (uint64_t i = 0; i < n; i++)
		if (kill(s->self, 0) != 0)
			die(EXIT_MEASURE, "kill: %s", strerror(errno));
}

static void loop_catch(uint64_t n, void *a)
{
	struct sig *s = a;
	for (uint64_t i = 0; i < n; i++)
		if (kill(s->self, SIGUSR1) != 0)
			die(EXIT_MEASURE, "kill: %s", strerror(errno));
}

/* ---- protection faults ------------------------------------------------------------------ */

static char *volatile fault_page;
static size_t fault_pagesz;
static volatile uint64_t faults_left;
static uint64_t *volatile fault_stamps; /* prot's steady pass: the clock at each fault */
static volatile size_t nstamps;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char *p = si->si_addr;
	if (p < fault_page || p >= fault_page + fault_pagesz) {
		/* Not our page: a real bug. Return with the default action so it crashes honestly. */
		signal(sig, SIG_DFL);
		return;
	}
	if (fault_stamps)
		fault_stamps[nstamps++] = now_ns(); /* clock_gettime: async-signal-safe */
	if (--faults_left == 0)
		mprotect(fault_page, fault_pagesz, PROT_READ | PROT_WRITE);
}

static int setup_prot(void *a)
{
	struct sig *s = a;
	setup_catch(a);
	s->pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if (s->fd >= 0) {
		s->page = mmap(NULL, s->pagesz, PROT_READ, MAP_PRIVATE, s->fd, 0);
		if (s->page != MAP_FAILED)
			(void)*(volatile char *)s->page; /* map it in: only protection faults timed */
	} else {
		s->page = mmap(NULL, s->pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (s->page != MAP_FAILED)
			s->page[0] = 1;
	}
	if (s->page == MAP_FAILED) {
		warnx_("mmap: %s", strerror(errno));
		return -1;
	}
	fault_page = s->page;
	fault_pagesz = s->pagesz;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	return 0;
}

static void before_prot(uint64_t n, void *a)
{
	struct sig *s = a;
	faults_left = n;
	if (mprotect(s->page, s->pagesz, PROT_READ) != 0)
		die(EXIT_MEASURE, "mprotect: %s", strerror(errno));
}

/* prot's steady pass, after each sample (untimed for lmbench's figure): an eighth of the
 * sample's faults (at least STEADY_MIN_BATCHES) in a row, the handler reading the clock at
 * each: between two reads lies exactly one fault (the handler's return, sigreturn, the store
 * again, the trap, the delivery), long against a clock read; the mprotect() that ends the
 * row comes after the last read, in no interval. The pass's median fault, ns. */
static void prot_steady(uint64_t n, void *a)
{
	struct sig *s = a;
	uint64_t k = n / STEADY_SHARE < STEADY_MIN_BATCHES ? STEADY_MIN_BATCHES : n / STEADY_SHARE;
	uint64_t *t = xmalloc((k + 1) * sizeof *t);
	s->one = xrealloc(s->one, k * sizeof *s->one);
	nstamps = 0;
	fault_stamps = t;
	faults_left = k + 1;
	if (mprotect(s->page, s->pagesz, PROT_READ) != 0)
		die(EXIT_MEASURE, "mprotect: %s", strerror(errno));
	*(volatile char *)fault_page = (char)k;
	fault_stamps = NULL;
	for (uint64_t i = 0; i < k; i++)
		s->one[i] = (double)(t[i + 1] - t[i]) - s->clk;
	s->last = (struct steady_sample){ stats_median(s->one, k), k, (double)(t[k] - t[0]), 1 };
	free(t);
}

static void loop_prot(uint64_t n, void *a)
{
	/* Faults n times (see the top comment), then completes. */
	*(volatile char *)fault_page = (char)n;
}

static void teardown_prot(void *a)
{
	struct sig *s = a;
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	munmap(s->page, s->pagesz);
}

/* ---- the tool ----------------------------------------------------------------------------- */

/* The estimate of a cost that is subtracted: the least disturbed sample (see the top comment). */
static double min_ns(const struct measurement *m)
{
	return measurement_stat(m, 1);
}

/* The corrected figure has no measurement of its own: record the facts record_latency() would
 * (placement, iterations, overheads) plus the correction subtracted. */
static void add_info(struct tool_ctx *c, struct result *r, const char *fmt, double v,
		     const struct measurement *m)
{
	char kv[64];
	snprintf(kv, sizeof kv, fmt, v);
	result_add_info(r, "%s cpu=%d placement=%s copies=%d iters=%llu min_sample_ns=%.0f "
			"loop_overhead_ns=%.4f clock_overhead_ns=%.2f", kv, m->cpu, cpu_policy_desc(&c->timing.place),
			m->parallel, (unsigned long long)m->iters, m->min_sample_ns,
			m->loop_overhead_ns, m->clock_overhead_ns);
}

/* Samples of m (ns per iteration) minus sub_ns, in microseconds. */
static struct sample *corrected(const struct measurement *m, double sub_ns)
{
	struct sample *v = xmalloc((m->n + 1) * sizeof *v);
	for (size_t i = 0; i < m->n; i++) {
		v[i] = m->s[i];
		v[i].value = (m->s[i].value - sub_ns) * 1e-3;
	}
	return v;
}

/* The steady twin of catch: each sample's median single delivery (ms[1]'s steady figure)
 * minus ONE constant, the median of kill(self, 0)'s steady figures over all samples. Both are
 * medians of operations timed apart in interleaved rounds: the subtracted system call is its
 * own measurement and never overlaps the delivery it is taken from. */
static void record_catch_steady(struct tool_ctx *c, const struct measurement *ms)
{
	const struct metric_def *t = metric_steady(metric_find(metrics[ROW_LAT_SIG_CATCH].id));
	if (!t || !ms[0].steady || !ms[1].steady || ms[1].n == 0)
		return;
	double send = steady_stat(&ms[0]);
	struct sample *v = xmalloc(ms[1].n * sizeof *v);
	for (size_t i = 0; i < ms[1].n; i++)
		v[i] = (struct sample){ .value = (ms[1].steady[i].value - send) * 1e-3,
					.iters = ms[1].steady[i].ops,
					.elapsed_ns = ms[1].steady[i].elapsed_ns,
					.round = ms[1].s[i].round };
	struct result *r = record_values(c, t->id, "", NAN, v, ms[1].n);
	result_add_info(r, "steady=%s steady_batch=%llu kill0_steady_batch=%llu",
			ms[1].steady[0].batch == 1 ? "single" : "batches",
			(unsigned long long)ms[1].steady[0].batch,
			(unsigned long long)ms[0].steady[0].batch);
	add_info(c, r, "kill0_steady_ns=%.2f", send, &ms[1]);
	free(v);
}

/* The steady twin of prot: each sample's median single fault minus ONE constant, catch's
 * steady figure (the median delivery less the median kill(self, 0), both over all samples):
 * measured apart in the interleaved rounds, never inside the fault it is taken from. */
static void record_prot_steady(struct tool_ctx *c, const struct measurement *ms,
			       const struct sig *s, struct result *batch)
{
	const struct metric_def *t = metric_steady(metric_find(metrics[ROW_LAT_SIG_PROT].id));
	if (!t || !ms[0].steady || !ms[1].steady || s->nst != ms[2].n || ms[2].n == 0)
		return;
	double catch_ns = steady_stat(&ms[1]) - steady_stat(&ms[0]);
	/* a single fault measured below the delivery subtracted from it: the two were taken at
	 * different levels of the machine, and a difference of them is no fault's cost. No twin
	 * then (as lat_ops' modulo), rather than a figure at or below zero */
	for (size_t i = 0; i < ms[2].n; i++)
		if (!(s->st[i].value - catch_ns > 0)) {
			result_add_info(batch, "steady=none catch_steady_ns=%.2f", catch_ns);
			return;
		}
	struct sample *v = xmalloc(ms[2].n * sizeof *v);
	for (size_t i = 0; i < ms[2].n; i++)
		v[i] = (struct sample){ .value = (s->st[i].value - catch_ns) * 1e-3,
					.iters = s->st[i].ops, .elapsed_ns = s->st[i].elapsed_ns,
					.round = ms[2].s[i].round };
	struct result *r = record_values(c, t->id, "", NAN, v, ms[2].n);
	result_add_info(r, "steady=single steady_batch=1");
	add_info(c, r, "catch_steady_ns=%.2f", catch_ns, &ms[2]);
	free(v);
}

static void measure_or_die(struct tool_ctx *c, const struct bench_op *op, struct measurement *m)
{
	if (measure(&c->timing, op, m) != 0)
		exit(EXIT_MEASURE);
}

/* Measure the k operations in interleaved rounds: each is calibrated once (its first measure()
 * call, which also gives round 0's sample), then every further round takes one sample of each
 * with that iteration count. A burst of load on the machine then falls on all of them alike
 * instead of on whichever happened to be measured at the time, so the differences taken below
 * stay honest on a busy machine. */
static void measure_rounds(struct tool_ctx *c, struct bench_op *ops, int k,
			   struct measurement *out)
{
	int reps = timing_repetitions(&c->timing);
	size_t cap[4] = { 0 };
	/* one sample per call and round, no adaptive stopping */
	static const struct timing_defaults one = { .repetitions = 1 };
	for (int j = 0; j < k; j++)
		ops[j].sampling = &one;
	for (int r = 0; r < reps; r++)
		for (int j = 0; j < k; j++) {
			struct measurement m;
			measure_or_die(c, &ops[j], &m);
			if (ops[j].after == prot_steady) { /* the sample's pass is the last */
				struct sig *s = ops[j].arg;
				s->st = xrealloc(s->st, (s->nst + 1) * sizeof *s->st);
				s->st[s->nst++] = s->last;
			}
			if (r == 0) {
				ops[j].fixed_iters = m.iters;
				out[j] = m;
				cap[j] = m.n;
				continue;
			}
			for (size_t i = 0; i < m.n; i++) {
				if (out[j].n == cap[j]) {
					cap[j] = 2 * cap[j] + 8;
					out[j].s = xrealloc(out[j].s, cap[j] * sizeof *out[j].s);
					if (out[j].steady)
						out[j].steady = xrealloc(out[j].steady,
									 cap[j] * sizeof *out[j].steady);
				}
				if (out[j].steady && m.steady)
					out[j].steady[out[j].n] = m.steady[i];
				out[j].s[out[j].n++] = m.s[i];
				m.s[i].side = NULL; /* out[j] owns it now */
			}
			measurement_free(&m);
		}
}

static int lat_sig(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	static const char *const modes[] = { "install", "catch", "prot" };
	const char *mode = modes[TOOL_MODE(c, args, modes)];
	if (args.n > 2)
		usage_error(c, "too many operands");
	struct sig s = { .fd = -1 };
	const char *file = args.n > 1 ? args.v[1] : NULL;
	if (file) {
		/* lmbench's operand: must exist; prot maps its first page. */
		struct stat st;
		if (stat(file, &st) != 0)
			die(EXIT_USAGE, "%s: %s", file, strerror(errno));
		if (mode[0] == 'p') {
			if (!S_ISREG(st.st_mode) || st.st_size == 0)
				die(EXIT_USAGE, "%s: not a regular non-empty file", file);
			if ((s.fd = open(file, O_RDONLY)) < 0)
				die(EXIT_USAGE, "%s: %s", file, strerror(errno));
		}
	}

	if (mode[0] == 'i') {
		struct measurement m;
		struct bench_op op = { .loop = loop_install, .arg = &s, .steady = 1 };
		measure_or_die(c, &op, &m);
		record_latency(c, metrics[ROW_LAT_SIG_INSTALL].id, "", NAN, &m, 1);
		measurement_free(&m);
		return 0;
	}

	/* ms[0] kill(self, 0), ms[1] kill(self, SIGUSR1), ms[2] the faults (prot only) */
	struct bench_op ops[3] = {
		{ .setup = setup_catch, .loop = loop_send, .arg = &s },
		{ .setup = setup_catch, .loop = loop_catch, .arg = &s },
		{ .setup = setup_prot, .before = before_prot, .loop = loop_prot,
		  .after = prot_steady, .teardown = teardown_prot, .arg = &s },
	};
	s.clk = clock_overhead_ns();
	struct measurement ms[3];
	int k = mode[0] == 'c' ? 2 : 3;
	ops[0].steady = ops[1].steady = 1;
	measure_rounds(c, ops, k, ms);
	double send_ns = min_ns(&ms[0]);
	if (k == 2) {
		struct sample *v = corrected(&ms[1], send_ns);
		struct result *r = record_values(c, metrics[ROW_LAT_SIG_CATCH].id, "", NAN, v, ms[1].n);
		add_info(c, r, "kill0_ns=%.2f", send_ns, &ms[1]);
		free(v);
		record_catch_steady(c, ms);
	} else {
		double catch_ns = min_ns(&ms[1]) - send_ns;
		struct sample *v = corrected(&ms[2], catch_ns);
		struct result *r = record_values(c, metrics[ROW_LAT_SIG_PROT].id, "", NAN, v, ms[2].n);
		add_info(c, r, "catch_ns=%.2f", catch_ns, &ms[2]);
		free(v);
		record_prot_steady(c, ms, &s, r);
	}
	free(s.one);
	free(s.st);
	for (int j = 0; j < k; j++)
		measurement_free(&ms[j]);
	if (s.fd >= 0)
		close(s.fd);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_sig", lat_sig, 0, NULL, "install|catch|prot [FILE]",
	     "signal handler installation, signal delivery overhead, protection fault cost",
	     "catch is the delivery of SIGUSR1 to an empty handler minus the cost of kill(self, 0);\n"
	     "prot is a write to a read-only page caught by a SIGSEGV handler, minus the catch cost.\n"
	     "prot maps the first page of FILE when given (lmbench needed one), else an anonymous page."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_SIG_INSTALL] = { .id = "lat_sig.install",
	  .cells = { { .cell = SUM_SIGINST, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "sigaction() install", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Signal handler installation: %v microseconds", .vfmt = "%.4f",
	  .work = "one sigaction() and its loop", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.1, .run_eq = 0.1, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.1, .run_eq = 0.1, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 } },
	[ROW_LAT_SIG_CATCH] = { .id = "lat_sig.catch",
	  .cells = { { .cell = SUM_SIGCATCH, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "signal delivery to an empty handler", .sign = ANY_SIGN, .x = { .kind = X_NONE },
	  .line = "Signal handler overhead: %v microseconds", .vfmt = "%.4f",
	  .work = "one kill(self, SIGUSR1) delivered to an empty handler",
	  .subtracted = SUB_CLOCK "; then the least disturbed kill(self, 0) sample (the system call "
		"without a signal), from every sample",
	  .lmbench = "the subtracted cost is the minimum of interleaved samples, not a separate run's "
		"average; results at or below zero are kept, not clamped",
	  .noise = { .group = "syscall", .run = 0.1, .run_eq = 0.1, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.1, .run_eq = 0.1, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady_how = "the median of single deliveries (or short batches of at least 400 ns) in "
		"a pass of an eighth of the sample's operations after it, minus one constant: the "
		"median of kill(self, 0)'s own steady figures over all samples, measured in the "
		"interleaved rounds, never inside the delivery it is taken from (declared noise: "
		"the batch mean's, not measured yet)" },
	[ROW_LAT_SIG_PROT] = { .id = "lat_sig.prot",
	  .cells = { { .cell = SUM_PROT, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "write to a read-only page, caught", .sign = ANY_SIGN, .x = { .kind = X_NONE },
	  .line = "Protection fault: %v microseconds", .vfmt = "%.4f",
	  .work = "one store to a read-only page: fault, SIGSEGV to a handler, sigreturn, store "
		"again",
	  .subtracted = SUB_CLOCK "; then the least disturbed catch sample, from every sample",
	  .lmbench = "no siglongjmp (no signal-mask calls timed); an anonymous page without FILE",
	  .noise = { .group = "syscall", .run = 0.32, .run_eq = 0.32, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.095 },
	  .steady = { .group = "syscall.steady", .run = 0.32, .run_eq = 0.32, .df = 5,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.095 },
	  .steady_how = "the median single fault in a pass of its own after each sample (an "
		"eighth of its faults, at least 15, in a row, the handler reading the clock at each; "
		"the mprotect() that ends the row in no interval), minus one constant: catch's "
		"steady figure (the median delivery less the median kill(self, 0), measured in the "
		"interleaved rounds, never inside a fault) (declared noise: the batch mean's, not "
		"measured yet)" },
	{ 0 },
};

const struct tool_file toolfile_signal = { "signal", SUBSET_OS, "signals and protection faults", tools, metrics };
