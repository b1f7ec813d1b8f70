/*
 * mhz.c — mhz [-c]: the clock the core really runs at, turbo included, as lmbench's
 * "2729 MHz, 0.3664 nanosec clock" line on stdout (-c: just the nanoseconds).
 *
 * Method: a dependent chain of register-register adds takes one cycle per add on every core
 * (no renamer folds a register-register add; add-immediate chains can be folded, so none is
 * used). Its time per add is the cycle time. To know the chain really ran at one add per cycle,
 * a second chain of multiplies (3 cycles on current x86-64 and most ARM cores, 2 to 5 elsewhere)
 * is timed in the same round: their ratio must be within 3 % of a whole number of cycles, else
 * the round is rejected (frequency changed mid-round, a stolen time slice, a folded chain). Each
 * round takes the minimum of 7 short (200 us) samples per chain, which a hypervisor's or another
 * process's interruptions only lengthen; the figure is the median of the accepted rounds. Up to
 * 63 rounds are tried (a quarter of a second: a guest's clock can wander for a while); with
 * fewer than 3 accepted the clock cannot be found: lmbench's
 * "-1 System too busy", exit 3.
 *
 * The chains are inline assembly on x86-64, AArch64 and 32-bit ARM (exactly 100 instructions
 * per loop iteration whatever the compiler does), and C with KEEP() barriers elsewhere or when
 * PLUMB_PORTABLE=1 is set. A 20 ms warm-up lets the core reach its working clock first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/cpu/mhz.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/stats.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_MHZ_MHZ, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define CHAIN 100
#define MAX_ROUNDS 63
#define WANT_OK 5
#define MIN_OK 3
#define AGREE 0.03

typedef unsigned long word; /* the native register width */

static volatile word seeds[2] = { 0x12345679ul, 0x9e3779b9ul };

#define S10(x) x x x x x x x x x x
#define S100(x) S10(S10(x))

#if defined(__x86_64__)
#define ADD_ASM "add %1, %0\n\t"
#define MUL_ASM "imul %1, %0\n\t"
#elif defined(__aarch64__)
#define ADD_ASM "add %0, %0, %1\n\t"
#define MUL_ASM "mul %0, %0, %1\n\t"
#elif defined(__arm__)
/* mul Rd, Rm, Rs with Rd != Rm: ARMv5 forbids Rd == Rm */
#define ADD_ASM "add %0, %0, %1\n\t"
#define MUL_ASM "mul %0, %1, %0\n\t"
#endif

#ifdef ADD_ASM
static void add_asm(uint64_t n, void *arg)
{
	word a = seeds[0], b = seeds[1];
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__(S100(ADD_ASM) : "+r"(a) : "r"(b));
	sink_u64(a);
}

static void mul_asm(uint64_t n, void *arg)
{
	word a = seeds[0], b = seeds[1]; /* odd * odd: never reaches 0 */
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__(S100(MUL_ASM) : "+r"(a) : "r"(b));
	sink_u64(a);
}
#endif

/* Portable chains: KEEP() stops the compiler from folding a+b+b+... into a+100b. */
static void add_c(uint64_t n, void *arg)
{
	word a = seeds[0], b = seeds[1];
	KEEP(b);
	for (uint64_t i = 0; i < n; i++) {
		S100(a += b; KEEP(a);)
	}
	sink_u64(a);
}

static void mul_c(uint64_t n, void *arg)
{
	word a = seeds[0], b = seeds[1];
	KEEP(b);
	for (uint64_t i = 0; i < n; i++) {
		S100(a *= b; KEEP(a);)
	}
	sink_u64(a);
}

/* Minimum time per instruction of a chain over one measure() (ns); -1 on failure. */
/* mhz's own sampling (-N, -W and ENOUGH do not apply): short samples, a fixed count, no
 * adaptive stopping, one process; the very first chain warms the core up. */
static const struct timing_defaults mhz_first = { .min_sample_ns = 2e5, .repetitions = 7,
						  .warmup_us = 20000, .own = 1 };
static const struct timing_defaults mhz_rest = { .min_sample_ns = 2e5, .repetitions = 7, .own = 1 };
static const struct timing_defaults mhz_quick_sampling = { .min_sample_ns = 5e5, .repetitions = 5,
							   .own = 1 };

static double chain_ns(struct timing_ctx *t, void (*fn)(uint64_t, void *),
		       const struct timing_defaults *sampling, uint64_t *iters, double *elapsed)
{
	struct bench_op op = { .loop = fn, .no_parallel = 1, .sampling = sampling };
	struct measurement m;
	if (measure(t, &op, &m) != 0 || m.n == 0)
		return -1;
	size_t best = 0;
	for (size_t i = 1; i < m.n; i++)
		if (m.s[i].value < m.s[best].value)
			best = i;
	double v = m.s[best].value / CHAIN;
	*iters = m.iters;
	*elapsed = m.s[best].elapsed_ns;
	measurement_free(&m);
	return v;
}

/* The chains to time: inline assembly where there is some, C when not or with PLUMB_PORTABLE=1.
 * Returns "asm" or "c". */
static const char *pick_chains(void (**add)(uint64_t, void *), void (**mul)(uint64_t, void *))
{
	*add = add_c;
	*mul = mul_c;
	const char *pe = getenv("PLUMB_PORTABLE");
#ifdef ADD_ASM
	if (!(pe && *pe && strcmp(pe, "0") != 0)) {
		*add = add_asm;
		*mul = mul_asm;
		return "asm";
	}
#else
	(void)pe;
#endif
	return "c";
}

int mhz_estimate(struct timing_ctx *t, struct mhz_estimate *e)
{
	memset(e, 0, sizeof *e);
	void (*add)(uint64_t, void *), (*mul)(uint64_t, void *);
	e->method = pick_chains(&add, &mul);
	double ratio[MAX_ROUNDS], mhz[MAX_ROUNDS];
	uint64_t it[MAX_ROUNDS];
	double el[MAX_ROUNDS];
	int cycles[MAX_ROUNDS], votes[9] = { 0 };
	int n = 0, ok = 0;
	while (n < MAX_ROUNDS && ok < WANT_OK) {
		uint64_t mi;
		double me;
		double ta = chain_ns(t, add, n == 0 ? &mhz_first : &mhz_rest, &it[n], &el[n]);
		double tm = chain_ns(t, mul, &mhz_rest, &mi, &me);
		if (ta <= 0 || tm <= 0)
			break;
		ratio[n] = tm / ta;
		long L = lround(ratio[n]);
		cycles[n] = 0;
		if (L >= 2 && L <= 8 && fabs(ratio[n] / (double)L - 1) <= AGREE) {
			cycles[n] = (int)L;
			votes[L]++;
			ok++;
		}
		mhz[n] = 1e3 / ta;
		n++;
	}
	/* The multiply latency most rounds agree on; only those rounds count. */
	int L = 2;
	for (int l = 3; l <= 8; l++)
		if (votes[l] > votes[L])
			L = l;
	e->rounds = n;
	e->mul_cycles = L;
	for (int i = 0; i < n && e->rounds_ok < 32; i++)
		if (cycles[i] == L) {
			e->round_mhz[e->rounds_ok] = mhz[i];
			e->round_iters[e->rounds_ok] = it[i];
			e->round_elapsed_ns[e->rounds_ok] = el[i];
			e->rounds_ok++;
		}
	if (e->rounds_ok < MIN_OK) {
		e->mhz = -1;
		return -1;
	}
	e->mhz = stats_median(e->round_mhz, (size_t)e->rounds_ok);
	return 0;
}

double mhz_quick(struct timing_ctx *t)
{
	void (*add)(uint64_t, void *), (*mul)(uint64_t, void *);
	(void)pick_chains(&add, &mul);
	uint64_t it;
	double el, ta = chain_ns(t, add, &mhz_quick_sampling, &it, &el);
	return ta > 0 ? 1e3 / ta : -1;
}

double mhz_measure(struct timing_ctx *t)
{
	struct mhz_estimate e;
	return mhz_estimate(t, &e) == 0 ? e.mhz : -1;
}

struct mhz_opts { int only_clock; };
static const struct tool_options mhz_options = { .opts = (const struct opt[]){
	OPT_BOOL('c', NULL, struct mhz_opts, only_clock, "print only the clock period in ns"),
	OPT_END } };

static int mhz_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct mhz_opts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	int only_clock = o.only_clock;
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s' (mhz takes only -c)", args.v[0]);
	struct mhz_estimate e;
	if (mhz_estimate(&c->timing, &e) != 0) {
		out_printf(c, "-1 System too busy\n");
		warnx_("the add and multiply chains agreed in only %d of %d rounds; no clock",
		       e.rounds_ok, e.rounds);
		return EXIT_MEASURE;
	}
	struct sample s[32];
	for (int i = 0; i < e.rounds_ok; i++)
		s[i] = (struct sample){ .value = e.round_mhz[i], .iters = e.round_iters[i],
					.elapsed_ns = e.round_elapsed_ns[i], .round = c->timing.opts.round };
	struct result *r = record_values(c, metrics[ROW_MHZ_MHZ].id, "", NAN, s, (size_t)e.rounds_ok);
	result_add_info(r, "method=%s mul_cycles=%d rounds_ok=%d rounds=%d", e.method, e.mul_cycles,
			e.rounds_ok, e.rounds);
	/* lmbench prints the rounded MHz and the clock period of that whole number. */
	int m = (int)lround(r->value);
	if (only_clock)
		out_printf(c, "%.4f\n", 1000.0 / m);
	else
		out_printf(c, "%d MHz, %.4f nanosec clock\n", m, 1000.0 / m);
	return 0;
}

static const struct tool tools[] = {
	TOOL("mhz", mhz_tool, 1, &mhz_options, "[-c]",
	     "the clock the core runs at (MHz), turbo included",
	     "Times a chain of register adds (one cycle each) and checks it against a chain of\n"
	     "multiplies (a whole number of cycles each). -c prints only the clock period in ns.\n"
	     "Prints \"-1 System too busy\" and exits 3 when the two never agree. mhz uses its\n"
	     "own sampling (rounds of 7 samples of 200 us per chain; -N and ENOUGH do not apply)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_MHZ_MHZ] = { .id = "mhz.mhz",
	  .cells = { { .cell = SUM_MHZ, .read = READ_HEADER } },
	  .unit = "MHz", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "clock the core really runs at",
	  .line = NULL, .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .header = "MHZ" }, .run_fact = "mhz",
	  .work = "a dependent register-add chain (1 cycle per add), checked against a multiply "
		"chain in the same round; median of accepted rounds",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "rounds whose add/multiply ratio is not a whole number of cycles are rejected",
	  .noise = NOISE_UNMEASURED },
	{ 0 },
};

const struct tool_file toolfile_mhz = { "mhz", SUBSET_HW, "processor clock", tools, metrics };
