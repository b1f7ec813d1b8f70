/*
 * lat_usleep.c — lat_usleep: how long a request to sleep USECS microseconds really lasts, by
 * usleep(), nanosleep(), select(), pselect() or an interval timer (-u), at the normal or (-r)
 * a real-time priority. What is timed is the whole call, from entering it to running again:
 * the requested time is not subtracted (lmbench does not subtract it either), so a perfect
 * timer would show USECS and every microsecond above it is wake-up latency.
 *
 * lmbench's line is the mean of a sample (plumb: the median of the samples). Real-time users
 * read the distribution of single calls, as cyclictest shows it, so after the samples the
 * tool times single calls on their own (each between two clock reads: a different span from
 * the samples', on purpose) and records their median, 99th percentile and maximum.
 *   itimer  setitimer(ITIMER_REAL, one shot of USECS), then sigsuspend() until SIGALRM has
 *           been handled: arming, expiry, signal delivery and return.
 *           (lmbench re-arms a periodic timer from the handler; one shot per call keeps every
 *           call independent, as the other methods are.)
 * -r asks for SCHED_FIFO at its highest priority (lmbench: SCHED_RR; one thread alone behaves
 * the same under both) and says so when the system refuses (no CAP_SYS_NICE, RLIMIT_RTPRIO):
 * the line then has no "realtime " prefix, as lmbench's has not. A real-time thread also gets
 * no timer slack, which is most of the difference a normal thread sees (50 us by default).
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/clock.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_USLEEP_LATENCY, ROW_LAT_USLEEP_REALTIME, ROW_LAT_USLEEP_P50, ROW_LAT_USLEEP_P99,
	ROW_LAT_USLEEP_MAX, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* A sleep is slow: samples of at least 20 ms. */
#define SLEEP_MIN_SAMPLE_NS 20e6
/* The single calls timed for the distribution: at least 200 (a p99 of 2 calls), at most 5000,
 * about half a second of sleeping. */
#define DIST_MIN 200
#define DIST_MAX 5000
#define DIST_BUDGET_NS 0.5e9

enum method { M_USLEEP, M_NANOSLEEP, M_SELECT, M_PSELECT, M_ITIMER };
static const char *const method_names[] = { "usleep", "nanosleep", "select", "pselect", "itimer",
					    NULL };

struct usleep_opts {
	int realtime;
	int method;
};

struct sleeper {
	uint64_t usecs;
	sigset_t wait_mask;    /* itimer: the mask sigsuspend() waits with (SIGALRM open) */
};

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void sleep_usleep(const struct sleeper *s)
{
	usleep((useconds_t)s->usecs);
}

static void sleep_nanosleep(const struct sleeper *s)
{
	struct timespec req = { (time_t)(s->usecs / 1000000), (long)(s->usecs % 1000000) * 1000 };
	while (nanosleep(&req, &req) < 0 && errno == EINTR)
		;
}

static void sleep_select(const struct sleeper *s)
{
	struct timeval tv = { (time_t)(s->usecs / 1000000), (suseconds_t)(s->usecs % 1000000) };
	select(0, NULL, NULL, NULL, &tv);
}

static void sleep_pselect(const struct sleeper *s)
{
	struct timespec ts = { (time_t)(s->usecs / 1000000), (long)(s->usecs % 1000000) * 1000 };
	pselect(0, NULL, NULL, NULL, &ts, NULL);
}

static void sleep_itimer(const struct sleeper *s)
{
	struct itimerval one = { { 0, 0 }, { (time_t)(s->usecs / 1000000),
					     (suseconds_t)(s->usecs % 1000000) } };
	sig_atomic_t before = alarms;
	setitimer(ITIMER_REAL, &one, NULL);
	while (alarms == before)
		sigsuspend(&s->wait_mask);
}

static void (*const sleeps[])(const struct sleeper *) = {
	sleep_usleep, sleep_nanosleep, sleep_select, sleep_pselect, sleep_itimer,
};

struct sleep_run {
	struct sleeper s;
	void (*sleep)(const struct sleeper *);
};

static void loop_sleep(uint64_t n, void *a)
{
	struct sleep_run *r = a;
	for (uint64_t i = 0; i < n; i++)
		r->sleep(&r->s);
}

/* itimer: SIGALRM handled, and blocked except inside sigsuspend() (so no expiry is lost
 * between the test of the count and the wait). Also done in each -P copy (inherited). */
static int itimer_setup(void *a)
{
	struct sleep_run *r = a;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0) {
		warnx_("sigaction(SIGALRM): %s", strerror(errno));
		return -1;
	}
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &r->s.wait_mask);
	sigdelset(&r->s.wait_mask, SIGALRM);
	return 0;
}

/* SCHED_FIFO at its highest priority; 0 when the system refused (a warning says why). */
static int go_realtime(void)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };
	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		return 1;
	warnx_("-r: SCHED_FIFO refused (%s): measured at the normal priority", strerror(errno));
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Time n single calls (us each), sorted. */
static double *single_calls(struct sleep_run *r, size_t n)
{
	double *v = xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		r->sleep(&r->s);
		v[i] = (double)(now_ns() - t0) / 1e3;
	}
	qsort(v, n, sizeof *v, cmp_double);
	return v;
}

/* The value below which a fraction q of the sorted v lie (nearest rank, as cyclictest's
 * histogram reads it). */
static double rank(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);
	return v[k > 0 ? k - 1 : 0];
}

static int lat_usleep(struct tool_ctx *c, int argc, char **argv)
{
	struct usleep_opts o = { 0, M_USLEEP };
	struct operands args = options_parse(c, argc, argv, &o);
	if (args.n != 1)
		usage_error(c, args.n == 0 ? "missing USECS (microseconds to sleep)"
					      : "too many operands (one USECS)");
	uint64_t usecs = parse_size(args.v[0], 1, 10000000, "USECS (microseconds to sleep)");
	int rt = o.realtime && go_realtime();

	struct sleep_run r = { .s = { .usecs = usecs }, .sleep = sleeps[o.method] };
	struct bench_op op = { .loop = loop_sleep, .arg = &r,
			       .setup = o.method == M_ITIMER ? itimer_setup : NULL,
			       .min_sample_ns = SLEEP_MIN_SAMPLE_NS };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	char params[96];
	snprintf(params, sizeof params, "method=%s usecs=%llu", method_names[o.method],
		 (unsigned long long)usecs);
	struct result *res = record_latency(c, rt ? metrics[ROW_LAT_USLEEP_REALTIME].id : metrics[ROW_LAT_USLEEP_LATENCY].id,
					    params, NAN, &m, 1);
	result_add_info(res, "sched=%s", rt ? "fifo" : "other");
	double med = measurement_stat(&m, 0) / 1e3;
	measurement_free(&m);

	if (o.method == M_ITIMER && itimer_setup(&r) != 0)
		return EXIT_MEASURE;
	double want = med > 0 ? DIST_BUDGET_NS / 1e3 / med : DIST_MAX;
	size_t n = want < DIST_MIN ? DIST_MIN : want > DIST_MAX ? DIST_MAX : (size_t)want;
	double *v = single_calls(&r, n);
	char dparams[128];
	snprintf(dparams, sizeof dparams, "%s sched=%s", params, rt ? "fifo" : "other");
	static const struct { int row; double q; } dist[] = {
		{ ROW_LAT_USLEEP_P50, 0.5 }, { ROW_LAT_USLEEP_P99, 0.99 }, { ROW_LAT_USLEEP_MAX, 1.0 },
	};
	double at[3];
	for (int i = 0; i < 3; i++) {
		at[i] = rank(v, n, dist[i].q);
		struct sample s = { .value = at[i], .iters = 1, .elapsed_ns = at[i] * 1e3 };
		struct result *d = record_values(c, metrics[dist[i].row].id, dparams, NAN, &s, 1);
		result_add_info(d, "calls=%zu", n);
	}
	out_fact(c, res, "Single calls", "%zu: median %.1f p99 %.1f max %.1f microseconds", n,
		 at[0], at[1], at[2]);
	free(v);
	return 0;
}

static const struct tool_options usleep_options = { .opts = (const struct opt[]){
	OPT_BOOL('r', NULL, struct usleep_opts, realtime,
		 "real-time priority: SCHED_FIFO at its highest (said when refused)"),
	OPT_CHOICE('u', NULL, struct usleep_opts, method, "METHOD", method_names,
		   "how to sleep: usleep (default), nanosleep, select, pselect or itimer"),
	OPT_END } };

static const struct tool tools[] = {
	TOOL("lat_usleep", lat_usleep, 0, &usleep_options, "[-r] [-u METHOD] USECS",
	     "how long a sleep of USECS microseconds lasts: usleep, nanosleep, select, pselect, itimer",
	     "The whole call is timed, the requested time not subtracted (as lmbench). After the\n"
	     "samples, single calls are timed on their own and their median, 99th percentile and\n"
	     "maximum recorded (lat_usleep.p50, .p99, .max), as cyclictest reads a wake-up."),
	{ 0 },
};

/* Default noise: 5 runs on the 2-vCPU guest while other builds and tests shared it (load average
 * 5-6), the log values' standard deviation times 1.25: a busy machine's figure, until quiet runs
 * replace it (bench/README.md says how). */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_USLEEP_LATENCY] = { .id = "lat_usleep.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "a sleep of usecs by method, the whole call",
	  .line = "{method} {usecs} microseconds: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "one sleep call asking for usecs microseconds (usleep, nanosleep, select, pselect, "
		"or a one-shot ITIMER_REAL awaited with sigsuspend), the whole call; the requested "
		"time is not subtracted",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the median of the samples, not one sample's mean; itimer arms a one-shot timer per "
		"call where lmbench re-arms a periodic one from the handler",
	  .noise = { .group = "sleep", .run = 0.255, .run_eq = 0.255, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_USLEEP_REALTIME] = { .id = "lat_usleep.realtime",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "the same at SCHED_FIFO priority", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "realtime {method} {usecs} microseconds: %v microseconds", .vfmt = "%.4f",
	  .work = "as lat_usleep.latency, the process at SCHED_FIFO's highest priority",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "SCHED_FIFO where lmbench asks SCHED_RR (the same for one thread alone); the median "
		"of the samples",
	  .noise = { .group = "sleep", .run = 0.255, .run_eq = 0.255, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_USLEEP_P50] = { .id = "lat_usleep.p50",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "median of single sleep calls",
	  .line = NULL, .vfmt = "%.1f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "the median of 200..5000 single sleep calls timed one by one after the samples "
		"(about 0.5 s of them), the whole call each",
	  .subtracted = "nothing",
	  .lmbench = "plumb only (lmbench reports one mean): the distribution real-time users read, as "
		"cyclictest shows it",
	  .noise = { .group = "sleep", .run = 0.035, .run_eq = 0.035, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_USLEEP_P99] = { .id = "lat_usleep.p99",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "99th percentile of single sleep calls",
	  .line = NULL, .vfmt = "%.1f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "the 99th percentile (nearest rank) of the same single calls",
	  .subtracted = "nothing", .lmbench = "plumb only",
	  .noise = { .group = "sleep", .run = 1.16, .run_eq = 1.16, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_USLEEP_MAX] = { .id = "lat_usleep.max",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "longest of the single sleep calls",
	  .line = NULL, .vfmt = "%.1f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "the longest of the same single calls",
	  .subtracted = "nothing", .lmbench = "plumb only",
	  .noise = { .group = "sleep", .run = 0.73, .run_eq = 0.73, .df = 4, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_usleep = { "usleep", SUBSET_OS, "sleep and timer wake-up latency", tools, metrics };
