/*
 * par_ops.c — par_ops: instruction-level parallelism of the lat_ops operations.
 *
 * For each of the 16 operation types, k = 1, 2, 3 ... independent chains (ops.h) run
 * interleaved in one loop. With t(k) the time per operation (minimum over samples, as lmbench),
 * parallelism(k) = t(1) / t(k): how many operations complete in the time one takes alone; the
 * figure is the largest over k (k = 1 gives exactly 1). lmbench always tries 1..16 chains (five
 * minutes on a fast machine); plumb tries up to 16 but stops when three more chains in a row
 * have not raised the figure by 2 %: the curve rises to the core's limit and then stays flat or
 * falls (register spills), so the remaining counts cannot win.
 *
 * Samples: the samples of every variant are split into three consecutive groups; each group
 * yields lmbench's figure computed from that group's minima, and those (up to) three figures are
 * the result's samples, so their spread shows how much a stretch of the run moved the figure.
 * The line prints the registry statistic, BEST: the largest of the group figures, as
 * lmbench's figure comes from minimum times (the best case).
 *
 * Direction: NEUTRAL. The figure is a property of the CPU running this code (how many
 * independent operations it overlaps), not a speed: code built with -O2 keeps a chain in
 * registers, so one operation alone is fast and the ratio falls, which is no worse code.
 * compare and trend show its change without a verdict; the unit "x" is the ratio. The figure
 * from the minima of all samples (lmbench's own computation) is recorded as best_of_minima.
 *
 * Sample length defaults to 1 ms and 6 samples per variant (ENOUGH, --min-sample and -N
 * override), so the whole tool takes a few seconds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/cpu/ops.h"
#include "bench/tool.h"
#include "core/stats.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_PAR_OPS_INTEGER_BIT, ROW_PAR_OPS_INTEGER_ADD, ROW_PAR_OPS_INTEGER_MUL,
	ROW_PAR_OPS_INTEGER_DIV, ROW_PAR_OPS_INTEGER_MOD, ROW_PAR_OPS_INT64_BIT, ROW_PAR_OPS_INT64_ADD,
	ROW_PAR_OPS_INT64_MUL, ROW_PAR_OPS_INT64_DIV, ROW_PAR_OPS_INT64_MOD, ROW_PAR_OPS_FLOAT_ADD,
	ROW_PAR_OPS_FLOAT_MUL, ROW_PAR_OPS_FLOAT_DIV, ROW_PAR_OPS_DOUBLE_ADD, ROW_PAR_OPS_DOUBLE_MUL,
	ROW_PAR_OPS_DOUBLE_DIV, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* The row of each operation type's metric, in ops_types[] order (ops.h). */
static const int type_rows[OPS_NTYPES] = {
	ROW_PAR_OPS_INTEGER_BIT, ROW_PAR_OPS_INTEGER_ADD, ROW_PAR_OPS_INTEGER_MUL,
	ROW_PAR_OPS_INTEGER_DIV, ROW_PAR_OPS_INTEGER_MOD, ROW_PAR_OPS_INT64_BIT,
	ROW_PAR_OPS_INT64_ADD, ROW_PAR_OPS_INT64_MUL, ROW_PAR_OPS_INT64_DIV, ROW_PAR_OPS_INT64_MOD,
	ROW_PAR_OPS_FLOAT_ADD, ROW_PAR_OPS_FLOAT_MUL, ROW_PAR_OPS_FLOAT_DIV, ROW_PAR_OPS_DOUBLE_ADD,
	ROW_PAR_OPS_DOUBLE_MUL, ROW_PAR_OPS_DOUBLE_DIV,
};

#define PAR_UNITS 4     /* units of each chain per loop iteration */
#define PAR_MAXK 16     /* lmbench's maximum chain count */
#define PAR_GROUPS 3
#define PAR_PATIENCE 3  /* stop after this many chain counts without a gain */
#define PAR_GAIN 1.02
/* How the twins are timed (core/metrics.h .steady_how). */
#define PAR_STEADY_HOW "the same ratio from each variant's steady figures (the median of " \
	"short batches of at least 400 ns in a pass of an eighth of the sample's iterations " \
	"after it): per third of the samples their median per operation, t(1) / t(k) the " \
	"largest over the chain counts tried (declared noise: the batch figure's, not " \
	"measured yet)"

#define ALLK(name, T, OPND, U, S, SINK)                                 \
	CHAIN_FN(par_##name##_1, T, OPND, U, S, SINK, 1, X4)            \
	CHAIN_FN(par_##name##_2, T, OPND, U, S, SINK, 2, X4)            \
	CHAIN_FN(par_##name##_3, T, OPND, U, S, SINK, 3, X4)            \
	CHAIN_FN(par_##name##_4, T, OPND, U, S, SINK, 4, X4)            \
	CHAIN_FN(par_##name##_5, T, OPND, U, S, SINK, 5, X4)            \
	CHAIN_FN(par_##name##_6, T, OPND, U, S, SINK, 6, X4)            \
	CHAIN_FN(par_##name##_7, T, OPND, U, S, SINK, 7, X4)            \
	CHAIN_FN(par_##name##_8, T, OPND, U, S, SINK, 8, X4)            \
	CHAIN_FN(par_##name##_9, T, OPND, U, S, SINK, 9, X4)            \
	CHAIN_FN(par_##name##_10, T, OPND, U, S, SINK, 10, X4)          \
	CHAIN_FN(par_##name##_11, T, OPND, U, S, SINK, 11, X4)          \
	CHAIN_FN(par_##name##_12, T, OPND, U, S, SINK, 12, X4)          \
	CHAIN_FN(par_##name##_13, T, OPND, U, S, SINK, 13, X4)          \
	CHAIN_FN(par_##name##_14, T, OPND, U, S, SINK, 14, X4)          \
	CHAIN_FN(par_##name##_15, T, OPND, U, S, SINK, 15, X4)          \
	CHAIN_FN(par_##name##_16, T, OPND, U, S, SINK, 16, X4)

#define PAR_X(name, label, T, OPND, U, S, SINK, opu) ALLK(name, T, OPND, U, S, SINK)
OPS_TYPES(PAR_X)
#undef PAR_X

typedef void (*loop_fn)(uint64_t, void *);
static const loop_fn par_fns[OPS_NTYPES][PAR_MAXK] = {
#define X(name, label, T, OPND, U, S, SINK, opu)                                          \
	{ par_##name##_1, par_##name##_2, par_##name##_3, par_##name##_4, par_##name##_5,   \
	  par_##name##_6, par_##name##_7, par_##name##_8, par_##name##_9, par_##name##_10,  \
	  par_##name##_11, par_##name##_12, par_##name##_13, par_##name##_14,               \
	  par_##name##_15, par_##name##_16 },
	OPS_TYPES(X)
#undef X
};

/* Minimum time per operation of one variant: overall and per group. */
struct variant {
	double min;
	double gmin[PAR_GROUPS];
	double gel[PAR_GROUPS];  /* elapsed of the group's best sample */
	uint64_t iters;
	int ngroups;
	/* the steady figure (core/timing.h): per group the median of its samples' median short
	 * batches, per operation; the batch and the operations those timed */
	double smed[PAR_GROUPS];
	uint64_t sops[PAR_GROUPS], sbatch;
};

/* The steady figure per group of samples (NAN without one). */
static void steady_groups(const struct measurement *m, double ops, struct variant *v)
{
	double x[TIMING_MAX_REPS];
	v->sbatch = m->steady ? m->steady[0].batch : 0;
	for (int g = 0; g < v->ngroups; g++) {
		size_t n = 0;
		v->sops[g] = 0;
		for (size_t i = 0; m->steady && i < m->n && n < TIMING_MAX_REPS; i++)
			if ((int)(i * (size_t)v->ngroups / m->n) == g) {
				x[n++] = m->steady[i].value / ops;
				v->sops[g] += m->steady[i].ops;
			}
		v->smed[g] = n ? stats_median(x, n) : NAN;
	}
}

static int run_variant(struct tool_ctx *c, int t, int k, struct ops_args *a, struct variant *v)
{
	struct bench_op op = { .loop = par_fns[t][k - 1], .arg = a, .no_parallel = 1,
			       .steady = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return -1;
	double ops = (double)k * PAR_UNITS * ops_types[t].ops_per_unit;
	v->ngroups = m.n < PAR_GROUPS ? (int)m.n : PAR_GROUPS;
	v->min = INFINITY;
	for (int g = 0; g < PAR_GROUPS; g++)
		v->gmin[g] = INFINITY;
	for (size_t i = 0; i < m.n; i++) {
		double x = m.s[i].value / ops;
		int g = (int)(i * (size_t)v->ngroups / m.n);
		if (x < v->min)
			v->min = x;
		if (x < v->gmin[g]) {
			v->gmin[g] = x;
			v->gel[g] = m.s[i].elapsed_ns;
		}
	}
	v->iters = m.iters;
	steady_groups(&m, ops, v);
	measurement_free(&m);
	return 0;
}

static int par_type(struct tool_ctx *c, int t, struct ops_args *a)
{
	struct variant one, v;
	if (run_variant(c, t, 1, a, &one) != 0)
		return -1;
	int ng = one.ngroups;
	struct sample s[PAR_GROUPS];
	for (int g = 0; g < ng; g++)
		s[g] = (struct sample){ .value = 1.0, .iters = one.iters, .elapsed_ns = one.gel[g],
					.round = c->timing.opts.round };
	/* the twin: the same ratio from the steady figures, per group the largest over k */
	struct sample st[PAR_GROUPS];
	for (int g = 0; g < ng; g++)
		st[g] = (struct sample){ .value = 1.0, .iters = one.sops[g],
					 .elapsed_ns = one.gel[g], .round = c->timing.opts.round };
	double best = 1.0;
	int best_k = 1, gain_k = 1, k;
	for (k = 2; k <= PAR_MAXK && k < gain_k + PAR_PATIENCE + 1; k++) {
		if (run_variant(c, t, k, a, &v) != 0)
			return -1;
		double p = one.min / v.min;
		if (p > best * PAR_GAIN)
			gain_k = k;
		if (p > best) {
			best = p;
			best_k = k;
		}
		for (int g = 0; g < ng && g < v.ngroups; g++) {
			double pg = one.gmin[g] / v.gmin[g];
			if (pg > s[g].value)
				s[g] = (struct sample){ .value = pg, .iters = v.iters,
							.elapsed_ns = v.gel[g], .round = c->timing.opts.round };
			double sg = one.smed[g] / v.smed[g];
			if (sg > st[g].value)
				st[g] = (struct sample){ .value = sg, .iters = v.sops[g],
							 .elapsed_ns = v.gel[g],
							 .round = c->timing.opts.round };
		}
	}
	struct result *r = record_values(c, metrics[type_rows[t]].id, "", NAN, s, (size_t)ng);
	result_add_info(r, "chains=%d chains_tried=%d single_ns=%.4f best_of_minima=%.4f", best_k,
			k - 1, one.min, best);
	const struct metric_def *tw = metric_steady(&metrics[type_rows[t]]);
	if (tw && one.sbatch && !isnan(one.smed[0])) {
		r = record_values(c, tw->id, "", NAN, st, (size_t)ng);
		result_add_info(r, "steady=batches steady_batch=%llu chains_tried=%d single_ns=%.4f",
				(unsigned long long)one.sbatch, k - 1, one.smed[0]);
	}
	return 0;
}

/* Short samples as lat_ops's (lat_ops.c says why), and 6 unless -N says otherwise: 16 types x
 * up to 16 variants must take seconds. */
static const struct tool_options par_ops_options = {
	.timing = { .min_sample_ns = 1e6, .repetitions = 6 } };

static int par_ops_main(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s' (par_ops takes none)", args.v[0]);
	struct ops_args a;
	ops_args_init(&a);
	int rc = 0;
	for (int t = 0; t < OPS_NTYPES && rc == 0; t++)
		if (par_type(c, t, &a) != 0)
			rc = EXIT_MEASURE;
	return rc;
}

static const struct tool tools[] = {
	TOOL("par_ops", par_ops_main, 0, &par_ops_options, "",
	     "instruction-level parallelism of the lat_ops operations",
	     "For each operation, 1, 2, 3... independent chains run together; the figure is how many\n"
	     "operations complete in the time one takes alone (best chain count; the search stops\n"
	     "when three more chains bring no gain)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_PAR_OPS_INTEGER_BIT] = { .id = "par_ops.integer_bit",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "integer bitwise ops overlapping (parallelism ratio)",
	  .place = 11,
	  .line = "integer bit parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "k interleaved independent chains, k = 1..16; t(1) / t(k) of minimum times, the "
		"largest over k",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "stops when 3 more chains do not raise the figure by 2 %; samples are 3 group "
		"figures",
	  .noise = { .group = "par_ops", .run = 0.125, .run_eq = 0.125, .pair = 0.145, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.125, .run_eq = 0.125, .pair = 0.145, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INTEGER_ADD] = { .id = "par_ops.integer_add",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "integer add ops overlapping (parallelism ratio)",
	  .place = 12,
	  .line = "integer add parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for adds", .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.14, .run_eq = 0.14, .pair = 0.18, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.14, .run_eq = 0.14, .pair = 0.18, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INTEGER_MUL] = { .id = "par_ops.integer_mul",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "integer multiply ops overlapping (parallelism ratio)",
	  .place = 13,
	  .line = "integer mul parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for multiplies",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.05, .pair = 0.09, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.05, .pair = 0.09, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INTEGER_DIV] = { .id = "par_ops.integer_div",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "integer divide ops overlapping (parallelism ratio)",
	  .place = 14,
	  .line = "integer div parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for divides",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INTEGER_MOD] = { .id = "par_ops.integer_mod",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 2,
	  .desc = "integer modulo ops overlapping (parallelism ratio)",
	  .place = 15,
	  .line = "integer mod parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for modulos (the add-kept chain of lat_ops mod)",
	  .subtracted = SUB_CLOCK, .lmbench = "version 2: the chain of lat_ops mod version 2",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INT64_BIT] = { .id = "par_ops.int64_bit",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "int64 bitwise ops overlapping (parallelism ratio)",
	  .place = 31,
	  .line = "int64 bit parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "k interleaved independent chains, k = 1..16; t(1) / t(k) of minimum times, the "
		"largest over k",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "stops when 3 more chains do not raise the figure by 2 %; samples are 3 group "
		"figures",
	  .noise = { .group = "par_ops", .run = 0.15, .run_eq = 0.15, .pair = 0.19, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.15, .run_eq = 0.15, .pair = 0.19, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INT64_ADD] = { .id = "par_ops.int64_add",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "int64 add ops overlapping (parallelism ratio)",
	  .place = 32,
	  .line = "int64 add parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for adds", .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.125, .run_eq = 0.125, .pair = 0.18, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.125, .run_eq = 0.125, .pair = 0.18, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INT64_MUL] = { .id = "par_ops.int64_mul",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "int64 multiply ops overlapping (parallelism ratio)",
	  .place = 33,
	  .line = "int64 mul parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for multiplies",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.045, .pair = 0.05, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.045, .pair = 0.05, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INT64_DIV] = { .id = "par_ops.int64_div",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "int64 divide ops overlapping (parallelism ratio)",
	  .place = 34,
	  .line = "int64 div parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for divides",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.055, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.055, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_INT64_MOD] = { .id = "par_ops.int64_mod",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 2,
	  .desc = "int64 modulo ops overlapping (parallelism ratio)",
	  .place = 35,
	  .line = "int64 mod parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for modulos (the add-kept chain of lat_ops mod)",
	  .subtracted = SUB_CLOCK, .lmbench = "version 2: the chain of lat_ops mod version 2",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.045, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.045, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_FLOAT_ADD] = { .id = "par_ops.float_add",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "float add ops overlapping (parallelism ratio)",
	  .place = 51,
	  .line = "float add parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for float adds",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.05, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.05, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_FLOAT_MUL] = { .id = "par_ops.float_mul",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "float multiply ops overlapping (parallelism ratio)",
	  .place = 52,
	  .line = "float mul parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for float multiplies",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_FLOAT_DIV] = { .id = "par_ops.float_div",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "float divide ops overlapping (parallelism ratio)",
	  .place = 53,
	  .line = "float div parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for float divides",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.025, .pair = 0.23, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.025, .pair = 0.23, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_DOUBLE_ADD] = { .id = "par_ops.double_add",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "double add ops overlapping (parallelism ratio)",
	  .place = 71,
	  .line = "double add parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for double adds",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.025, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_DOUBLE_MUL] = { .id = "par_ops.double_mul",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "double multiply ops overlapping (parallelism ratio)",
	  .place = 72,
	  .line = "double mul parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for double multiplies",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.045, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.045, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	[ROW_PAR_OPS_DOUBLE_DIV] = { .id = "par_ops.double_div",
	  .unit = "x", .better = NEUTRAL, .stat = BEST, .version = 1,
	  .desc = "double divide ops overlapping (parallelism ratio)",
	  .place = 73,
	  .line = "double div parallelism: %v", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "as par_ops bit, for double divides",
	  .subtracted = SUB_CLOCK, .lmbench = "as par_ops bit",
	  .noise = { .group = "par_ops", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "par_ops.steady", .run = 0.09, .run_eq = 0.02, .df = 19,
		   .clock = FOLLOWS_CLOCK },
	  .steady_how = PAR_STEADY_HOW },
	{ 0 },
};

const struct tool_file toolfile_par_ops = { "ops", SUBSET_HW, "CPU operations", tools, metrics };
