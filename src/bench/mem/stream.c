/*
 * stream.c — STREAM (McCalpin's kernels, lmbench's `stream` lines): sustained memory bandwidth
 * of simple vector loops over arrays larger than the caches.
 *
 *   stream [-v 1|2] [-M BYTES] [-P N -W US -N N] [--threads N|all] [--table] [--no-nt]
 *          [--pages 4k|thp|huge]
 *
 *   -v 1   copy c=a, scale b=s*c, add c=a+b (a real add: lmbench 3 ran its sum loop here),
 *          triad a=b+s*c — bytes counted 2, 2, 3, 3 x 8 per element, as McCalpin counts them
 *   -v 2   fill a=q, copy c=a, daxpy a=a+q*b, sum s+=a — 1, 2, 3, 1 x 8 per element
 * Arrays: each array 4 x the sum of the last-level caches the threads and copies use (McCalpin's
 * rule; as reported, or the measured knee when that is not believable: mem_common.c), at most
 * MEM_DEFAULT_CAP (the [Array size] fact says when the cap won) and what memory is available,
 * unless -M gives the total of the three arrays (lmbench's meaning).
 * --threads N|all splits every kernel over N threads pinned one per CPU (default 1, lmbench);
 * -P N runs N processes as lmbench does. --table prints McCalpin's table instead of lmbench's
 * lines.
 *
 * Each kernel is measured on its own (calibrated passes, minimum time = McCalpin's best rate),
 * on arrays reset to a=1 b=2 c=3 first, so the expected contents after any number of passes are
 * known exactly and are checked on every element afterwards (daxpy's count of passes is kept).
 * A kernel run alone is mostly idempotent (copy twice = copy once), so that check cannot see a
 * skipped pass; after timing, the four kernels therefore also run in sequence on the same arrays,
 * as McCalpin's loop does (a=1 b=2 c=0, STREAM_SEQ_ROUNDS rounds), and every element is checked
 * against the values the same sequence gives on scalars: a pass skipped anywhere changes them.
 * A wrong answer — a kernel that did not do its work — is an error (exit 3), never a number.
 * Streaming (non-temporal) stores are used when an array is larger than the last-level cache:
 * a plain store reads its line first, traffic STREAM's byte count leaves out (McCalpin allows
 * them; lmbench's stream and a portable build do not); a [Streaming stores: ...] fact says which
 * kernels used them, --no-nt turns them off, and a kernel that stored without them gets method
 * version + 1 (metrics[] below), so compare never takes the difference for a regression;
 * + 2 where the plain stores' 16-byte kernels replace wider ones (mem_kernels_plain_stream()).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_kern.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_STREAM_COPY_LATENCY, ROW_STREAM_COPY, ROW_STREAM_SCALE_LATENCY, ROW_STREAM_SCALE,
	ROW_STREAM_ADD_LATENCY, ROW_STREAM_ADD, ROW_STREAM_TRIAD_LATENCY, ROW_STREAM_TRIAD,
	ROW_STREAM2_FILL_LATENCY, ROW_STREAM2_FILL, ROW_STREAM2_COPY_LATENCY, ROW_STREAM2_COPY,
	ROW_STREAM2_DAXPY_LATENCY, ROW_STREAM2_DAXPY, ROW_STREAM2_SUM_LATENCY, ROW_STREAM2_SUM,
	ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define SCALAR 3.0
#define STREAM_SEQ_ROUNDS 3

enum sk { K_COPY, K_SCALE, K_ADD, K_TRIAD, K_FILL, K_COPY2, K_DAXPY, K_SUM };
static const struct {
	const char *name;
	int lat_row, bw_row; /* its metrics' rows: the latency, the bandwidth */
	const char *table;
	int words;      /* 8-byte words moved per element */
	int stores;     /* writes an array (may use streaming stores) */
} sk_info[] = {
	[K_COPY] = { "copy", ROW_STREAM_COPY_LATENCY, ROW_STREAM_COPY, "Copy:      ", 2, 1 },
	[K_SCALE] = { "scale", ROW_STREAM_SCALE_LATENCY, ROW_STREAM_SCALE, "Scale:     ", 2, 1 },
	[K_ADD] = { "add", ROW_STREAM_ADD_LATENCY, ROW_STREAM_ADD, "Add:       ", 3, 1 },
	[K_TRIAD] = { "triad", ROW_STREAM_TRIAD_LATENCY, ROW_STREAM_TRIAD, "Triad:     ", 3, 1 },
	[K_FILL] = { "fill", ROW_STREAM2_FILL_LATENCY, ROW_STREAM2_FILL, "Fill:      ", 1, 1 },
	[K_COPY2] = { "copy", ROW_STREAM2_COPY_LATENCY, ROW_STREAM2_COPY, "Copy:      ", 2, 1 },
	[K_DAXPY] = { "daxpy", ROW_STREAM2_DAXPY_LATENCY, ROW_STREAM2_DAXPY, "Daxpy:     ", 3, 1 },
	[K_SUM] = { "sum", ROW_STREAM2_SUM_LATENCY, ROW_STREAM2_SUM, "Sum:       ", 1, 0 },
};

/* Failures found in -P copies reach the parent through a shared page. */
struct shared_flag {
	int bad;
	char msg[240];
};

struct st {
	size_t n;               /* elements per array */
	double *a, *b, *c;
	enum sk k;
	int nt, narrowed;       /* streaming stores; plain ones' kernels narrower (version + 2) */
	const struct mem_kernels *kern;
	uint64_t passes;        /* passes of the kernel since the arrays were reset */
	int nthreads;
	pthread_t *th;
	pthread_barrier_t go, done;
	volatile int quit;
	double *psum;           /* per-thread partial sums */
	struct shared_flag *flag;
	const char *corrupt;    /* test hook: PLUMB_STREAM_CORRUPT=<kernel> */
	const char *skip;       /* test hook: PLUMB_STREAM_SKIP=<kernel> skips every 2nd pass */
	uint64_t calls;
};

/* The test hook's broken kernel: every second pass of the named kernel does nothing. */
static int skipped(struct st *s)
{
	return s->skip && strcmp(s->skip, sk_info[s->k].name) == 0 && (s->calls++ & 1);
}

struct worker_arg {
	struct st *s;
	int t, cpu;
};

static void run_chunk(struct st *s, int t)
{
	/* chunks start on 64-byte boundaries so streaming stores stay aligned */
	size_t lo = s->n * (size_t)t / (size_t)s->nthreads / 8 * 8;
	size_t hi = t + 1 == s->nthreads ? s->n : s->n * (size_t)(t + 1) / (size_t)s->nthreads / 8 * 8;
	size_t len = hi - lo;
	double *a = s->a + lo, *b = s->b + lo, *c = s->c + lo;
	const struct mem_kernels *k = s->kern;
	switch (s->k) {
	case K_COPY: case K_COPY2: k->s_copy(c, a, len, s->nt); break;
	case K_SCALE: k->s_scale(b, c, SCALAR, len, s->nt); break;
	case K_ADD: k->s_add(c, a, b, len, s->nt); break;
	case K_TRIAD: k->s_triad(a, b, c, SCALAR, len, s->nt); break;
	case K_FILL: k->s_fill(a, SCALAR, len, s->nt); break;
	case K_DAXPY: k->s_daxpy(a, b, SCALAR, len, s->nt); break;
	case K_SUM: s->psum[t] = k->s_sum(a, len); break;
	}
}

static void *worker(void *p)
{
	struct worker_arg *w = p;
	struct st *s = w->s;
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	}
	for (;;) {
		pthread_barrier_wait(&s->go);
		if (s->quit)
			break;
		run_chunk(s, w->t);
		pthread_barrier_wait(&s->done);
	}
	free(w);
	return NULL;
}

static void st_loop(uint64_t iters, void *arg)
{
	struct st *s = arg;
	for (uint64_t i = 0; i < iters; i++) {
		if (skipped(s))
			continue;
		if (s->nthreads > 1) {
			pthread_barrier_wait(&s->go);
			run_chunk(s, 0);
			pthread_barrier_wait(&s->done);
		} else {
			run_chunk(s, 0);
		}
		if (s->k == K_SUM) {
			double t = 0;
			for (int k = 0; k < s->nthreads; k++)
				t += s->psum[k];
			s->psum[0] = t; /* kept for the check */
			if (s->nthreads > 1)
				for (int k = 1; k < s->nthreads; k++)
					s->psum[k] = 0;
		}
		compiler_barrier();
	}
	s->passes += iters;
}

static int st_setup(void *arg)
{
	struct st *s = arg;
	/* Reset the arrays (in -P copies this also gives the copy private pages). */
	for (size_t i = 0; i < s->n; i++) {
		s->a[i] = 1.0;
		s->b[i] = 2.0;
		s->c[i] = 3.0;
	}
	s->passes = 0;
	if (s->nthreads > 1) {
		pthread_barrier_init(&s->go, NULL, (unsigned)s->nthreads);
		pthread_barrier_init(&s->done, NULL, (unsigned)s->nthreads);
		s->quit = 0;
		s->th = xcalloc((size_t)s->nthreads, sizeof *s->th);
		/* the measuring thread is pinned by the timing core; the others go to other CPUs */
		int cpus[1024], nc = cpu_online(cpus, 1024), self = sched_getcpu(), next = nc - 1;
		for (int t = 1; t < s->nthreads; t++) {
			struct worker_arg *w = xmalloc(sizeof *w);
			w->s = s;
			w->t = t;
			while (next >= 0 && cpus[next] == self)
				next--;
			w->cpu = next >= 0 ? cpus[next--] : -1;
			if (pthread_create(&s->th[t], NULL, worker, w) != 0) {
				warnx_("cannot start thread %d: %s", t, strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static void fail(struct st *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct st *s, const char *fmt, ...)
{
	if (s->flag->bad)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->flag->msg, sizeof s->flag->msg, fmt, ap);
	va_end(ap);
	s->flag->bad = 1;
}

/* McCalpin-style validation of what the kernel left in the arrays after s->passes passes. */
static void st_validate(struct st *s)
{
	double ea = 1.0, eb = 2.0, ec = 3.0;
	switch (s->k) {
	case K_COPY: case K_COPY2: ec = ea; break;
	case K_SCALE: eb = SCALAR * ec; break;
	case K_ADD: ec = ea + eb; break;
	case K_TRIAD: ea = eb + SCALAR * ec; break;
	case K_FILL: ea = SCALAR; break;
	case K_DAXPY:
		for (uint64_t i = 0; i < s->passes; i++)
			ea += SCALAR * eb; /* the same operations, in the same order, per element */
		break;
	case K_SUM: {
		double want = (double)s->n * ea, got = s->psum[0];
		if (!(fabs(got - want) <= 1e-9 * want))
			fail(s, "STREAM %s: sum is %.17g, expected %.17g", sk_info[s->k].name, got, want);
		break;
	}
	}
	const struct { const char *name; double *x; double want; } arr[] = {
		{ "a", s->a, ea }, { "b", s->b, eb }, { "c", s->c, ec },
	};
	for (int i = 0; i < 3; i++) {
		size_t first = 0, bad = stream_check(arr[i].x, s->n, arr[i].want, &first);
		if (bad)
			fail(s, "STREAM %s failed validation: %zu of %zu elements of %s wrong "
			     "(%s[%zu] = %.17g, expected %.17g)", sk_info[s->k].name, bad, s->n,
			     arr[i].name, arr[i].name, first, arr[i].x[first], arr[i].want);
	}
}

static void st_teardown(void *arg)
{
	struct st *s = arg;
	if (s->nthreads > 1) {
		s->quit = 1;
		pthread_barrier_wait(&s->go);
		for (int t = 1; t < s->nthreads; t++)
			pthread_join(s->th[t], NULL);
		free(s->th);
		s->th = NULL;
		pthread_barrier_destroy(&s->go);
		pthread_barrier_destroy(&s->done);
	}
	if (s->corrupt && strcmp(s->corrupt, sk_info[s->k].name) == 0) {
		/* test hook: damage the kernel's output as a broken kernel would */
		double *dst = s->k == K_SCALE ? s->b : s->k == K_TRIAD || s->k == K_FILL ||
			      s->k == K_DAXPY || s->k == K_SUM ? s->a : s->c;
		dst[s->n / 2] += 1.0;
		if (s->k == K_SUM)
			s->psum[0] += 1.0;
	}
	st_validate(s);
}

/* McCalpin's sequence: the version's four kernels in turn on the same arrays, STREAM_SEQ_ROUNDS
 * times, in this thread with the timed kernels' versions and stores; every element is then
 * checked against the same sequence done on scalars. 0, or -1 with the reason in s->flag. */
static int st_sequence(struct st *s, const enum sk *ks)
{
	int nth = s->nthreads;
	s->nthreads = 1; /* the worker threads are gone; run_chunk does the whole array */
	for (size_t i = 0; i < s->n; i++) {
		s->a[i] = 1.0;
		s->b[i] = 2.0;
		s->c[i] = 0.0;
	}
	double a = 1.0, b = 2.0, c = 0.0, sum = 0;
	/* checked after every round: fill starts v2's rounds afresh, so only the last round
	 * would show in the end state */
	for (int r = 0; r < STREAM_SEQ_ROUNDS && !s->flag->bad; r++) {
		for (int i = 0; i < 4; i++) {
			s->k = ks[i];
			if (!skipped(s))
				run_chunk(s, 0);
			switch (ks[i]) {
			case K_COPY: case K_COPY2: c = a; break;
			case K_SCALE: b = SCALAR * c; break;
			case K_ADD: c = a + b; break;
			case K_TRIAD: a = b + SCALAR * c; break;
			case K_FILL: a = SCALAR; break;
			case K_DAXPY: a = a + SCALAR * b; break;
			case K_SUM: sum = (double)s->n * a; break;
			}
		}
		if (ks[3] == K_SUM && !(fabs(s->psum[0] - sum) <= 1e-9 * sum))
			fail(s, "STREAM kernels in sequence, round %d: sum is %.17g, expected %.17g (a "
			     "pass was skipped or wrong)", r + 1, s->psum[0], sum);
		const struct { const char *name; double *x; double want; } arr[] = {
			{ "a", s->a, a }, { "b", s->b, b }, { "c", s->c, c },
		};
		for (int i = 0; i < 3; i++) {
			size_t first = 0, bad = stream_check(arr[i].x, s->n, arr[i].want, &first);
			if (bad)
				fail(s, "STREAM kernels in sequence failed validation in round %d: %zu of "
				     "%zu elements of %s wrong (%s[%zu] = %.17g, expected %.17g): a pass "
				     "was skipped or wrong", r + 1, bad, s->n, arr[i].name, arr[i].name,
				     first, arr[i].x[first], arr[i].want);
		}
	}
	s->nthreads = nth;
	return s->flag->bad ? -1 : 0;
}

static void table_line(struct tool_ctx *c, const char *label, const struct measurement *m,
		       double bytes)
{
	double mn = 1e300, mx = 0, sum = 0;
	for (size_t i = 0; i < m->n; i++) {
		double t = m->s[i].value * 1e-9; /* seconds per pass */
		mn = t < mn ? t : mn;
		mx = t > mx ? t : mx;
		sum += t;
	}
	int P = m->parallel > 0 ? m->parallel : 1;
	out_printf(c, "%s%12.1f  %11.6f  %11.6f  %11.6f\n", label, 1e-6 * bytes * P / mn,
		   sum / (double)m->n, mn, mx);
}

/* How many last-level cache instances `used` CPUs (the first online ones, as the threads are
 * pinned) span: McCalpin's rule sizes the arrays by the sum of the caches the run uses. */
static unsigned llcs_in_use(int used, int ncpu)
{
	struct cache_level cl[8];
	int nc = sys_caches(0, cl, 8), share = 0, lvl = 0;
	for (int i = 0; i < nc; i++)
		if (cl[i].level >= lvl) {
			lvl = cl[i].level;
			share = cl[i].shared_cpus;
		}
	if (used > ncpu)
		used = ncpu;
	if (share < 1 || used < 1)
		return 1;
	return (unsigned)((used + share - 1) / share);
}

struct stream_opts {
	int version, table, no_nt;
	uint64_t total;
	const char *pages, *threads;
};
static const struct tool_options stream_options = { .opts = (const struct opt[]){
	OPT_INT('v', NULL, struct stream_opts, version, "1|2", 1, 2, "version 1 or 2",
		"kernels: 1 copy scale add triad (default), 2 fill copy daxpy sum"),
	OPT_SIZE('M', NULL, struct stream_opts, total, "BYTES", 3 * 512, 1ll << 42,
		"bytes of the three arrays", "total bytes of the three arrays (k/m/g)"),
	OPT_STRING(0, "threads", struct stream_opts, threads, "N|all",
		"N threads, one per CPU (default 1); all: one per online CPU"),
	OPT_BOOL(0, "table", struct stream_opts, table,
		"McCalpin's table (best rate, avg/min/max seconds per pass)"),
	OPT_BOOL(0, "no-nt", struct stream_opts, no_nt,
		"plain stores (16-byte on x86-64, as stream.c -O3): method version + 1 or 2"),
	MEM_PAGES_OPT(struct stream_opts, pages),
	OPT_END } };

/* Elements per array: -M's total split three ways, or McCalpin's 4 x the caches in use.
 * `how` gets the reason, for the [Array size] fact. */
static size_t stream_elements(struct tool_ctx *c, uint64_t total, int nthreads, int ncpu,
			      char *how, size_t howlen)
{
	int P = c->timing.opts.parallel > 1 ? c->timing.opts.parallel : 1;
	size_t arr_bytes;
	if (total) {
		arr_bytes = total / 3;
		snprintf(how, howlen, "-M %llu bytes for three arrays", (unsigned long long)total);
	} else {
		arr_bytes = mem_default_bytes(3u * (unsigned)P, llcs_in_use(nthreads * P, ncpu),
					      how, howlen);
	}
	size_t n = arr_bytes / 8 / 8 * 8;
	if (n < 64)
		n = 64;
	mem_check_fits(c, (uint64_t)P * 3 * (n * 8 + 4096));
	return n;
}

/* The facts printed before the lines: pages, array size, threads, which kernels stream. */
static void stream_facts(struct tool_ctx *c, const struct mem_buf *buf, const struct st *s,
			 const enum sk *ks, const char *how, int no_nt)
{
	mem_page_fact(c, buf);
	mem_fact(c, NULL, "Array size", "array_size", 1, "%zu elements = %.1f MiB per array (%s)",
		 s->n, (double)s->n * 8 / 1048576.0, how);
	mem_fact(c, NULL, "Threads", "threads", 1, "%d per process%s", s->nthreads,
		 s->nthreads > 1 ? ", pinned one per CPU" : "");
	char ntk[64] = "";
	for (int i = 0; i < 4; i++)
		if (s->nt && sk_info[ks[i]].stores)
			snprintf(ntk + strlen(ntk), sizeof ntk - strlen(ntk), "%s%s", ntk[0] ? " " : "",
				 sk_info[ks[i]].name);
	mem_fact(c, NULL, "Streaming stores", "streaming_stores", 1, "%s (%s kernels; %s)",
		 ntk[0] ? ntk : "none", s->kern->name,
		 s->nt ? "arrays larger than the last-level cache"
		       : no_nt ? "--no-nt: plain stores, as lmbench's stream"
		       : s->kern->has_nt ? "arrays fit in the last-level cache" : "not available");
}

/* Time the four kernels, then run them in sequence for the check. 0 or EXIT_MEASURE; *done
 * counts the measurements made (to free). */
static int measure_kernels(struct tool_ctx *c, struct st *s, const enum sk *ks,
			   struct measurement *m, int *done)
{
	int status = 0;
	for (int i = 0; i < 4 && !status; i++) {
		s->k = ks[i];
		struct bench_op op = { .setup = st_setup, .loop = st_loop, .teardown = st_teardown,
				       .arg = s };
		if (measure(&c->timing, &op, &m[i]) != 0)
			status = EXIT_MEASURE;
		else
			(*done)++;
		if (s->flag->bad)
			status = EXIT_MEASURE;
	}
	if (!status && st_sequence(s, ks) != 0)
		status = EXIT_MEASURE;
	if (s->flag->bad)
		warnx_("%s", s->flag->msg);
	return status;
}

/* Store each kernel's latency and bandwidth: lmbench's lines, or with --table McCalpin's. */
static void record_kernels(struct tool_ctx *c, const struct st *s, const enum sk *ks,
			   const struct measurement *m, int table)
{
	FILE *o = c->out;
	if (table) {
		out_printf(c, "-------------------------------------------------------------\n"
			      "Function    Best Rate MB/s  Avg time     Min time     Max time\n");
		c->out = NULL;
	}
	char params[96];
	snprintf(params, sizeof params, "elements=%zu threads=%d", s->n, s->nthreads);
	for (int i = 0; i < 4; i++) {
		const char *lat = metrics[sk_info[ks[i]].lat_row].id,
			   *met = metrics[sk_info[ks[i]].bw_row].id;
		double bytes = (double)sk_info[ks[i]].words * 8.0 * (double)s->n;
		struct result *rl = record_latency(c, lat, params, NAN, &m[i], (double)s->n);
		struct result *rb = record_bandwidth(c, met, params, NAN, &m[i], bytes); /* BEST */
		if (sk_info[ks[i]].stores && !s->nt) {
			/* plain stores: another operation (+ 1 again where narrower kernels) */
			rl->version += 1 + s->narrowed;
			rb->version += 1 + s->narrowed;
		}
		if (table) {
			c->out = o;
			table_line(c, sk_info[ks[i]].table, &m[i], bytes);
			c->out = NULL;
		}
	}
	c->out = o;
	if (table)
		out_printf(c, "-------------------------------------------------------------\n"
			      "Solution Validates: every element within 1.000000e-13 of the "
			      "expected value on all three arrays\n"
			      "-------------------------------------------------------------\n");
}

static int stream(struct tool_ctx *c, int argc, char **argv)
{
	struct stream_opts o = { .version = 1 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
	enum mem_pages pages = mem_pages_opt(c, o.pages);
	int cpus[1024], ncpu = cpu_online(cpus, 1024), nthreads = 1;
	if (o.threads)
		nthreads = strcmp(o.threads, "all") == 0 ? ncpu
			   : (int)parse_int(o.threads, 1, 1024, "--threads (a count or 'all')");
	char how[160] = "";
	size_t n = stream_elements(c, o.total, nthreads, ncpu, how, sizeof how);

	/* one mapping, three arrays 1 KiB apart modulo 4 KiB (no 4K-aliasing between them) */
	size_t stride = (n * 8 + 4095) / 4096 * 4096 + 1024;
	struct mem_buf buf;
	mem_alloc(&buf, 3 * stride + 4096, pages);
	struct shared_flag *flag = mmap(NULL, sizeof *flag, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (flag == MAP_FAILED)
		die(EXIT_MEASURE, "mmap: %s", strerror(errno));
	memset(flag, 0, sizeof *flag);
	double psum[1024];
	uint64_t llc = mem_llc_believed(); /* a guest's 508 MiB host L3 is not a reason to cache */
	if (!llc)
		llc = 8u << 20;
	struct st s = {
		.n = n, .a = (double *)buf.p, .b = (double *)(buf.p + stride),
		.c = (double *)(buf.p + 2 * stride), .kern = mem_kernels_best(),
		.nthreads = nthreads, .psum = psum, .flag = flag,
		.corrupt = getenv("PLUMB_STREAM_CORRUPT"), .skip = getenv("PLUMB_STREAM_SKIP"),
	};
	s.nt = !o.no_nt && s.kern->has_nt && n * 8 > llc;
	static struct mem_kernels plain;
	if (!s.nt)
		s.narrowed = mem_kernels_plain_stream(&plain), s.kern = &plain;
	memset(psum, 0, sizeof psum);
	static const enum sk v1[] = { K_COPY, K_SCALE, K_ADD, K_TRIAD };
	static const enum sk v2[] = { K_FILL, K_COPY2, K_DAXPY, K_SUM };
	const enum sk *ks = o.version == 1 ? v1 : v2;
	stream_facts(c, &buf, &s, ks, how, o.no_nt);

	struct measurement m[4];
	int done = 0, status = measure_kernels(c, &s, ks, m, &done);
	if (!status)
		record_kernels(c, &s, ks, m, o.table);
	for (int i = 0; i < done; i++)
		measurement_free(&m[i]);
	munmap(flag, sizeof *flag);
	mem_free(&buf);
	return status;
}

static const struct tool tools[] = {
	TOOL("stream", stream, 0, &stream_options, "[-v 1|2] [-M BYTES] [--threads N|all] [--table] [--no-nt] [--pages 4k|thp|huge]",
	     "STREAM memory bandwidth: copy scale add triad (-v 1), fill copy daxpy sum (-v 2)",
	     "Arrays default to 4 x the last-level cache each (-M: total bytes of the three).\n"
	     "-P N: N processes (aggregate).\n"
	     "Every kernel's result is checked on every element; a wrong answer exits 3.\n"
	     "Streaming stores are used for arrays larger than the last-level cache (fact line)."),
	{ 0 },
};
/* what the kernels' method versions count, and every figure's noise (bench/README.md) */
#define NT_TEXT                                                                                 \
	"streaming stores on x86 beyond the last-level cache, +1 with plain ones (--no-nt, "    \
	"portable build, small arrays: lmbench's operation); they skip the read of each "       \
	"destination line STREAM's count leaves out: up to 1.5x (copy, scale), 1.33x (add, "    \
	"triad) the plain figure; stream.c -O3's copy is glibc's memcpy (it streams on some "  \
	"hosts); +2 where plain stores' 16-byte kernels (stream.c -O3's) replace wider ones"
#define NT_STORES(ver) "version " ver ": " NT_TEXT
#define REAL_ADD "version 3: a real add (lmbench 3 ran its sum loop); " NT_TEXT
#define MEMBW_NOISE { .group = "membw", .run = 0.08, .run_eq = 0.08, .df = 5, .clock = OWN_PACE }
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_STREAM_COPY_LATENCY] = { .id = "stream.copy_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM c=a, ns per element", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM copy latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "c = a; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM_COPY] = { .id = "stream.copy", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM c=a", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM copy bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "c = a; 2 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM_SCALE_LATENCY] = { .id = "stream.scale_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM b=s*c, ns per element", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM scale latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "b = s*c; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM_SCALE] = { .id = "stream.scale", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM b=s*c", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM scale bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "b = s*c; 2 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM_ADD_LATENCY] = { .id = "stream.add_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 3,
	  .desc = "STREAM c=a+b (a real add, unlike lmbench)",
	  .line = "STREAM add latency: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "c = a + b; one pass, per element",
	  .subtracted = SUB_CLOCK, .lmbench = REAL_ADD, .noise = MEMBW_NOISE },
	[ROW_STREAM_ADD] = { .id = "stream.add", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 3,
	  .desc = "STREAM c=a+b (a real add, unlike lmbench)",
	  .line = "STREAM add bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "c = a + b; 3 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = REAL_ADD, .noise = MEMBW_NOISE },
	[ROW_STREAM_TRIAD_LATENCY] = { .id = "stream.triad_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM a=b+s*c, ns per element", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM triad latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "a = b + s*c; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM_TRIAD] = { .id = "stream.triad", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM a=b+s*c", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM triad bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "a = b + s*c; 3 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_FILL_LATENCY] = { .id = "stream2.fill_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=q", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 fill latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "a = q; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_FILL] = { .id = "stream2.fill", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=q", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 fill bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "a = q; 1 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_COPY_LATENCY] = { .id = "stream2.copy_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=b", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 copy latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "a = b; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_COPY] = { .id = "stream2.copy", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=b", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 copy bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "a = b; 2 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_DAXPY_LATENCY] = { .id = "stream2.daxpy_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=a+q*b", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 daxpy latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "a = a + q*b; one pass over the arrays, per element",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_DAXPY] = { .id = "stream2.daxpy", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 2,
	  .desc = "STREAM2 a=a+q*b", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 daxpy bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "a = a + q*b; 3 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = NT_STORES("2"), .noise = MEMBW_NOISE },
	[ROW_STREAM2_SUM_LATENCY] = { .id = "stream2.sum_latency", .unit = "ns", .better = LOWER, .stat = BEST, .version = 1,
	  .desc = "STREAM2 s+=a", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 sum latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "s += a; one pass, per element", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = MEMBW_NOISE },
	[ROW_STREAM2_SUM] = { .id = "stream2.sum", .unit = "MB/s", .better = HIGHER, .stat = BEST, .version = 1,
	  .desc = "STREAM2 s+=a", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "STREAM2 sum bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "s += a; 1 x 8 bytes per element / time of the fastest pass",
	  .subtracted = SUB_CLOCK, .lmbench = "", .noise = MEMBW_NOISE },
	{ 0 },
};

const struct tool_file toolfile_stream = { "stream", SUBSET_HW, "STREAM bandwidth", tools, metrics };
