/*
 * lat_ops.c — lat_ops: the latency of integer, int64, float and double operations, lmbench's 18
 * lines in lmbench's order (par_ops, in par_ops.c, times the same chains side by side).
 *
 * Each test times one dependent chain (ops.h) of 50 units per loop iteration; the value is the
 * time per operation. The loop counter runs beside the chain on any out-of-order core and a
 * chain of 100 operations hides it on in-order ones, so the empty loop's cost is not subtracted
 * (it would be subtracted from time the chain never spent).
 *
 * Corrections (lmbench subtracts an add from its mul and mod chains): plumb's mul chain is pure,
 * so nothing is subtracted; the mod chain needs an add to stay in range (one lea with the
 * remainder, so no register move sits on the chain: ops.h), so the measured add latency of the
 * same width is subtracted from every sample — unless that would leave a sample at or below
 * zero, in which case nothing is subtracted and the result says so (info correction=skipped).
 *
 * bogomflops is lmbench's throughput test: y = (1+x)(1.5-x)/x over a 1000-element array,
 * reported per element, kept scalar (not vectorised) so it means the same at -O2 and -O3.
 * -P applies only to bogomflops, as in lmbench. Samples last 1 ms unless ENOUGH or --min-sample
 * say otherwise (see lat_ops() for why).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/cpu/ops.h"
#include "bench/tool.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_OPS_INTEGER_BIT, ROW_LAT_OPS_INTEGER_ADD, ROW_LAT_OPS_INTEGER_MUL,
	ROW_LAT_OPS_INTEGER_DIV, ROW_LAT_OPS_INTEGER_MOD, ROW_LAT_OPS_INT64_BIT, ROW_LAT_OPS_INT64_ADD,
	ROW_LAT_OPS_INT64_MUL, ROW_LAT_OPS_INT64_DIV, ROW_LAT_OPS_INT64_MOD, ROW_LAT_OPS_FLOAT_ADD,
	ROW_LAT_OPS_FLOAT_MUL, ROW_LAT_OPS_FLOAT_DIV, ROW_LAT_OPS_FLOAT_BOGOMFLOPS,
	ROW_LAT_OPS_DOUBLE_ADD, ROW_LAT_OPS_DOUBLE_MUL, ROW_LAT_OPS_DOUBLE_DIV,
	ROW_LAT_OPS_DOUBLE_BOGOMFLOPS, ROW_END };
/* How the twins are timed (docs/metrics.md shows it per row). */
#define OPS_STEADY_HOW "the median of short batches of at least 400 ns in a pass of an " \
	"eighth of the sample's iterations after it (declared noise: the batch mean's, not " \
	"measured yet)"
#define OPS_MOD_STEADY_HOW "the median of short batches of at least 400 ns in a pass of an " \
	"eighth of the sample's iterations after it, minus the add's steady figure of the " \
	"same width per op (no twin where that leaves a value at or below zero; declared " \
	"noise: the batch mean's, not measured yet)"

static const struct metric_def metrics[ROW_END + 1];

/* The row of each operation type's metric, in ops_types[] order (ops.h). */
static const int type_rows[OPS_NTYPES] = {
	ROW_LAT_OPS_INTEGER_BIT, ROW_LAT_OPS_INTEGER_ADD, ROW_LAT_OPS_INTEGER_MUL,
	ROW_LAT_OPS_INTEGER_DIV, ROW_LAT_OPS_INTEGER_MOD, ROW_LAT_OPS_INT64_BIT,
	ROW_LAT_OPS_INT64_ADD, ROW_LAT_OPS_INT64_MUL, ROW_LAT_OPS_INT64_DIV, ROW_LAT_OPS_INT64_MOD,
	ROW_LAT_OPS_FLOAT_ADD, ROW_LAT_OPS_FLOAT_MUL, ROW_LAT_OPS_FLOAT_DIV, ROW_LAT_OPS_DOUBLE_ADD,
	ROW_LAT_OPS_DOUBLE_MUL, ROW_LAT_OPS_DOUBLE_DIV,
};

const struct ops_type ops_types[OPS_NTYPES] = {
#define X(name, label, T, OPND, U, S, SINK, opu) { #name, label, opu },
	OPS_TYPES(X)
#undef X
};

/* Stored in volatile memory so the compiler cannot know them. */
static volatile uint32_t seeds32[8] = {
	0x9e3779b9u, 0x7f4a7c15u, 0x40003039u, 0x8765u, 0x40000000u, 0x12345679u, 0x8123u, 77u,
};
static volatile uint64_t seeds64[8] = {
	0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x4000000000003039ull, 0x80001235ull,
	0x4000000000000000ull, 0x123456789abcdef1ull, 0x80001234ull, 77ull,
};
static volatile double seedsf[3] = { 1.000123, 2.345, 1.3 };

void ops_args_init(struct ops_args *a)
{
	memset(a, 0, sizeof *a);
	a->ip = seeds32[0]; a->iq = seeds32[1]; a->is = seeds32[2]; a->im = seeds32[3];
	a->ih = seeds32[4]; a->i0 = seeds32[5]; a->idiv0 = seeds32[6];
	a->imod0 = seeds32[4] + seeds32[7];
	a->lp = seeds64[0]; a->lq = seeds64[1]; a->ls = seeds64[2]; a->lm = seeds64[3];
	a->lh = seeds64[4]; a->l0 = seeds64[5]; a->ldiv0 = seeds64[6];
	a->lmod0 = seeds64[4] + seeds64[7];
	a->dg = seedsf[0]; a->dh = 1.0 / seedsf[0]; a->dd = seedsf[1]; a->d0 = seedsf[2];
	a->fg = (float)a->dg; a->fh = 1.0f / a->fg; a->fd = (float)a->dd; a->f0 = (float)a->d0;
}

/* One chain, 50 units per iteration. */
#define LAT_X(name, label, T, OPND, U, S, SINK, opu) \
	CHAIN_FN(lat_##name, T, OPND, U, S, SINK, 1, X50)
OPS_TYPES(LAT_X)
#undef LAT_X
#define LAT_UNITS 50

static void (*const lat_fns[OPS_NTYPES])(uint64_t, void *) = {
#define X(name, label, T, OPND, U, S, SINK, opu) lat_##name,
	OPS_TYPES(X)
#undef X
};

/* ---- bogomflops ----------------------------------------------------------------------- */

#define BOGO_M 1000

struct bogo {
	float fx[BOGO_M], fy[BOGO_M];
	double dx[BOGO_M], dy[BOGO_M];
};

/* Keep the element loop scalar: lmbench's figure is scalar throughput, and a vectorised loop
 * would make the number depend on -O level and compiler. */
#if defined(__clang__)
#define NOVEC_FN
#define NOVEC_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define NOVEC_FN __attribute__((optimize("no-tree-vectorize")))
#define NOVEC_LOOP
#else
#define NOVEC_FN
#define NOVEC_LOOP
#endif

NOVEC_FN static void bogo_float(uint64_t n, void *arg)
{
	struct bogo *b = arg;
	for (uint64_t i = 0; i < n; i++) {
		NOVEC_LOOP
		for (int j = 0; j < BOGO_M; j++)
			b->fy[j] = (1.0f + b->fx[j]) * (1.5f - b->fx[j]) / b->fx[j];
		compiler_barrier(); /* x may have changed: every pass is recomputed */
	}
}

NOVEC_FN static void bogo_double(uint64_t n, void *arg)
{
	struct bogo *b = arg;
	for (uint64_t i = 0; i < n; i++) {
		NOVEC_LOOP
		for (int j = 0; j < BOGO_M; j++)
			b->dy[j] = (1.0 + b->dx[j]) * (1.5 - b->dx[j]) / b->dx[j];
		compiler_barrier();
	}
}

/* Short samples (1 ms, unless ENOUGH or --min-sample say otherwise): a chain needs no long
 * sample for the clock's sake, and on a busy machine a sample longer than a scheduler time
 * slice (a few ms) almost always contains another process's run, which moves the median.
 * (par_ops.c says the same for par_ops.) */
static const struct tool_options lat_ops_options = { .timing = { .min_sample_ns = 1e6 } };

/* ---- the tool --------------------------------------------------------------------------- */

/* The steady figures of a modulo chain, the add of the same width (its steady figure, ns per
 * op) subtracted as from the batch means; when one would go to or below zero there is no twin.
 * "" or why not. */
static const char *steady_corrected(struct measurement *m, double corr, double ops)
{
	if (!m->steady)
		return "";
	int ok = corr > 0 && !isnan(corr);
	for (size_t i = 0; ok && i < m->n; i++)
		if (m->steady[i].value / ops - corr <= 0)
			ok = 0;
	for (size_t i = 0; ok && i < m->n; i++)
		m->steady[i].value -= corr * ops;
	if (ok)
		return "";
	free(m->steady);
	m->steady = NULL;
	return " steady=none";
}

/* Measure and record chain type t; -1 when the measurement failed. add_ns[0/1] carries the
 * 32/64-bit add latency to the mod correction, add_ns[2/3] the add's steady figure. */
static int lat_one(struct tool_ctx *c, int t, struct ops_args *a, double add_ns[4])
{
	struct bench_op op = { .loop = lat_fns[t], .arg = a, .no_parallel = 1, .steady = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return -1;
	double ops = (double)(LAT_UNITS * ops_types[t].ops_per_unit);
	const char *metric = metrics[type_rows[t]].id;
	int is64 = strncmp(ops_types[t].name, "int64", 5) == 0;
	const char *kind = strchr(ops_types[t].name, '_') + 1;
	struct result *r;
	if (strcmp(kind, "mod") == 0) {
		/* Subtract the add that keeps the chain in range (one per modulo). */
		double corr = add_ns[is64];
		int ok = corr > 0 && !isnan(corr);
		for (size_t i = 0; ok && i < m.n; i++)
			if (m.s[i].value / ops - corr <= 0)
				ok = 0;
		if (ok)
			for (size_t i = 0; i < m.n; i++)
				m.s[i].value -= corr * ops;
		const char *st = steady_corrected(&m, add_ns[2 + is64], ops);
		r = record_latency(c, metric, "", NAN, &m, ops);
		char kv[96];
		if (ok)
			snprintf(kv, sizeof kv, "correction_ns=-%.4f", corr);
		else
			snprintf(kv, sizeof kv, "correction=skipped");
		result_add_info(r, "%s%s", kv, st);
	} else {
		r = record_latency(c, metric, "", NAN, &m, ops);
		if (strcmp(kind, "add") == 0) {
			add_ns[is64] = r->value;
			add_ns[2 + is64] = steady_stat(&m) / ops;
		}
	}
	measurement_free(&m);
	return 0;
}

static int lat_bogo(struct tool_ctx *c, struct bogo *b, int dbl)
{
	struct bench_op op = { .loop = dbl ? bogo_double : bogo_float, .arg = b };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return -1;
	record_latency(c, dbl ? metrics[ROW_LAT_OPS_DOUBLE_BOGOMFLOPS].id : metrics[ROW_LAT_OPS_FLOAT_BOGOMFLOPS].id, "", NAN,
		       &m, BOGO_M);
	measurement_free(&m);
	return 0;
}

static int lat_ops(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s' (lat_ops takes none)", args.v[0]);
	struct ops_args a;
	ops_args_init(&a);
	double add_ns[4] = { NAN, NAN, NAN, NAN };
	/* The chains are single-process latencies; only bogomflops runs -P copies (lmbench). */
	for (int t = 0; t < OPS_NTYPES; t++)
		if (lat_one(c, t, &a, add_ns) != 0)
			return EXIT_MEASURE;
	struct bogo *b = xmalloc(sizeof *b);
	for (int j = 0; j < BOGO_M; j++) {
		/* x in [0.6, 1.4): no zero, no denormal, no overflow anywhere in the formula */
		double x = 0.6 + 0.8 * fmod(j * 0.6180339887 + seedsf[2], 1.0);
		b->dx[j] = x;
		b->fx[j] = (float)x;
	}
	int rc = 0;
	if (lat_bogo(c, b, 0) != 0 || lat_bogo(c, b, 1) != 0)
		rc = EXIT_MEASURE;
	free(b);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_ops", lat_ops, 0, &lat_ops_options, "",
	     "latency of integer/int64/float/double bit, add, mul, div, mod; bogomflops",
	     "Each figure is the time of one operation in a dependent chain (ns); bogomflops is\n"
	     "(1+x)(1.5-x)/x per element of a 1000-element array. -P applies to bogomflops only."),
	{ 0 },
};

/* Under lmbench's summary tables, where its loops are not the operation they name (objdump of
 * lmbench 3 built by gcc 12 -O; bench/README.md). */
static const struct summary_note folded_bit_loops = {
	.text = "intgr bit, int64 bit: one dependent op; lmbench 3's compiler folds its loop to 2 ops "
		"of 3 on the chain, 1.45x lower."
};
/* a += b; b -= a maps (a, b) back to itself every 6 steps: 100 steps are 4, one neg and sub */
static const struct summary_note folded_add_loops = {
	.text = "intgr add, int64 add: one dependent add; lmbench 3's compiler folds its 100 steps "
		"of a += b; b -= a (they repeat every 6) to two instructions and prints 0.00."
};
static const struct summary_note quotient_of_one = {
	.text = "int64 mod: a quotient of half the word, as int64 div's; lmbench 3's r %= s; r |= s "
		"keeps it at 1, which a divider that follows the quotient does faster (1.25x on Zen 4)."
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_OPS_INTEGER_BIT] = { .id = "lat_ops.integer_bit",
	  .cells = { { .cell = SUM_INT0, .read = READ_FIRST } },
	  .summary_note = &folded_bit_loops,
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "integer bitwise op latency",
	  .place = 1,
	  .line = "integer bit: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int bitwise ops, 50 units per loop iteration; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a register-to-register chain the compiler cannot fold; lmbench's "
		"compiler rewrites r |= (s ^= r) as r | s: 2 dependent ops of its 3, 1.45x lower",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INTEGER_ADD] = { .id = "lat_ops.integer_add",
	  .cells = { { .cell = SUM_INT0 + 1, .read = READ_FIRST } },
	  .summary_note = &folded_add_loops,
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "integer add latency",
	  .place = 2,
	  .line = "integer add: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int adds; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a real dependent chain; lmbench's compiler folds its 100 steps of "
		"a += b; b -= a (they repeat every 6) to two instructions: it prints 0.00",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.05, .pair = 0.076, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.05, .pair = 0.076, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INTEGER_MUL] = { .id = "lat_ops.integer_mul",
	  .cells = { { .cell = SUM_INT0 + 2, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "integer multiply latency",
	  .place = 3,
	  .line = "integer mul: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int multiplies; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a pure multiply chain: no add subtracted as lmbench does",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INTEGER_DIV] = { .id = "lat_ops.integer_div",
	  .cells = { { .cell = SUM_INT0 + 3, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "integer divide latency",
	  .place = 4,
	  .line = "integer div: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int divides; per op (x86: one register move per divide on "
		"the chain, free where the core eliminates moves)",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INTEGER_MOD] = { .id = "lat_ops.integer_mod",
	  .cells = { { .cell = SUM_INT0 + 4, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "integer modulo latency",
	  .place = 5,
	  .line = "integer mod: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int modulos, each with an add keeping it in range (one lea "
		"on x86: no register move on the chain); per op",
	  .subtracted = SUB_CLOCK "; then the measured add latency of the same width per op (skipped, and "
		"said so, if a sample would go to or below zero)",
	  .lmbench = "version 2: the range is kept with an add, not an OR plus a register move; "
		"the quotient is half the word as div's, where lmbench's r |= s keeps it at 1 "
		"(1.25x lower on Zen 4, whose divider follows the quotient)",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.035, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.035, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_MOD_STEADY_HOW },
	[ROW_LAT_OPS_INT64_BIT] = { .id = "lat_ops.int64_bit",
	  .cells = { { .cell = SUM_I64_0, .read = READ_UINT64 } },
	  .summary_note = &folded_bit_loops,
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "int64 bitwise op latency",
	  .place = 21,
	  .line = "int64 bit: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int64 bitwise ops, 50 units per loop iteration; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a register-to-register chain the compiler cannot fold; lmbench's "
		"compiler rewrites r |= (s ^= r) as r | s: 2 dependent ops of its 3, 1.45x lower",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INT64_ADD] = { .id = "lat_ops.int64_add",
	  .cells = { { .cell = SUM_I64_0 + 1, .read = READ_UINT64 } },
	  .summary_note = &folded_add_loops,
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "int64 add latency",
	  .place = 22,
	  .line = "int64 add: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int64 adds; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a real dependent chain; lmbench's compiler folds its 100 steps of "
		"a += b; b -= a (they repeat every 6) to two instructions: it prints 0.00",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INT64_MUL] = { .id = "lat_ops.int64_mul",
	  .cells = { { .cell = SUM_I64_0 + 2, .read = READ_UINT64 } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "int64 multiply latency",
	  .place = 23,
	  .line = "int64 mul: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int64 multiplies; per op",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "a pure multiply chain: no add subtracted as lmbench does",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INT64_DIV] = { .id = "lat_ops.int64_div",
	  .cells = { { .cell = SUM_I64_0 + 3, .read = READ_UINT64 } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "int64 divide latency",
	  .place = 24,
	  .line = "int64 div: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int64 divides; per op (x86: one register move per divide "
		"on the chain, free where the core eliminates moves)",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_INT64_MOD] = { .id = "lat_ops.int64_mod",
	  .cells = { { .cell = SUM_I64_0 + 4, .read = READ_UINT64 } },
	  .summary_note = &quotient_of_one,
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "int64 modulo latency",
	  .place = 25,
	  .line = "int64 mod: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of int64 modulos, each with an add keeping it in range (one "
		"lea on x86: no register move on the chain); per op",
	  .subtracted = SUB_CLOCK "; then the measured add latency of the same width per op (skipped, and "
		"said so, if a sample would go to or below zero)",
	  .lmbench = "version 2: the range is kept with an add, not an OR plus a register move; "
		"the quotient is half the word as div's, where lmbench's r |= s keeps it at 1 "
		"(1.25x lower on Zen 4, whose divider follows the quotient)",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_MOD_STEADY_HOW },
	[ROW_LAT_OPS_FLOAT_ADD] = { .id = "lat_ops.float_add",
	  .cells = { { .cell = SUM_FLT0, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "float add latency",
	  .place = 41,
	  .line = "float add: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of float adds; per op", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_FLOAT_MUL] = { .id = "lat_ops.float_mul",
	  .cells = { { .cell = SUM_FLT0 + 1, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "float multiply latency",
	  .place = 42,
	  .line = "float mul: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of float multiplies; per op",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_FLOAT_DIV] = { .id = "lat_ops.float_div",
	  .cells = { { .cell = SUM_FLT0 + 2, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "float divide latency",
	  .place = 43,
	  .line = "float div: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of float divides; per op",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.04, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.04, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_FLOAT_BOGOMFLOPS] = { .id = "lat_ops.float_bogomflops",
	  .cells = { { .cell = SUM_FLT0 + 3, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "float (1+x)(1.5-x)/x over an array",
	  .place = 44,
	  .line = "float bogomflops: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "y = (1+x)(1.5-x)/x over a 1000-element array, scalar code; per element",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "kept scalar (not vectorised) so -O2 and -O3 measure the same",
	  .noise = { .group = "ops", .run = 0.16, .run_eq = 0.16, .pair = 0.12, .df = 19,
		   .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_OPS_DOUBLE_ADD] = { .id = "lat_ops.double_add",
	  .cells = { { .cell = SUM_DBL0, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "double add latency",
	  .place = 61,
	  .line = "double add: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of double adds; per op", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.02, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_DOUBLE_MUL] = { .id = "lat_ops.double_mul",
	  .cells = { { .cell = SUM_DBL0 + 1, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "double multiply latency",
	  .place = 62,
	  .line = "double mul: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of double multiplies; per op",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.025, .pair = 0.057, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.025, .pair = 0.057, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_DOUBLE_DIV] = { .id = "lat_ops.double_div",
	  .cells = { { .cell = SUM_DBL0 + 2, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "double divide latency",
	  .place = 63,
	  .line = "double div: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "a dependent chain of double divides; per op",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.03, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "ops.steady", .run = 0.09, .run_eq = 0.03, .df = 19,
		    .clock = FOLLOWS_CLOCK },
	  .steady_how = OPS_STEADY_HOW },
	[ROW_LAT_OPS_DOUBLE_BOGOMFLOPS] = { .id = "lat_ops.double_bogomflops",
	  .cells = { { .cell = SUM_DBL0 + 3, .read = READ_FIRST } },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "double (1+x)(1.5-x)/x over an array",
	  .place = 64,
	  .line = "double bogomflops: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "y = (1+x)(1.5-x)/x over a 1000-element array, scalar code; per element",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "kept scalar (not vectorised) so -O2 and -O3 measure the same",
	  .noise = { .group = "ops", .run = 0.09, .run_eq = 0.04, .df = 19, .clock = FOLLOWS_CLOCK } },
	{ 0 },
};

const struct tool_file toolfile_ops = { "ops", SUBSET_HW, "CPU operations", tools, metrics };
