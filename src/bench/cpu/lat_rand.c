/*
 * lat_rand.c — lat_rand: the cost of one call of libc's drand48() and lrand48(), as lmbench's
 * lat_rand measures it on Linux (its build probes drand48 first and, finding it, measures only
 * that pair). Each iteration adds the result to a sum the loop hands to KEEP() at the end, so
 * the compiler can neither drop the calls nor overlap them with nothing: the figure is the
 * call, its dependent add and the loop.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/arch.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_RAND_DRAND48, ROW_LAT_RAND_LRAND48, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static void loop_drand48(uint64_t n, void *a)
{
	double sum = 0;
	for (uint64_t i = 0; i < n; i++)
		sum += drand48();
	KEEPF(sum);
}

static void loop_lrand48(uint64_t n, void *a)
{
	long sum = 0;
	for (uint64_t i = 0; i < n; i++)
		sum += lrand48();
	KEEP(sum);
}

static int lat_rand(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n > 0)
		usage_error(c, "lat_rand takes no operands");
	static const struct {
		int row; /* its metric's row */
		void (*loop)(uint64_t, void *);
	} calls[] = {
		{ ROW_LAT_RAND_DRAND48, loop_drand48 },
		{ ROW_LAT_RAND_LRAND48, loop_lrand48 },
	};
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		struct bench_op op = { .loop = calls[i].loop };
		struct measurement m;
		if (measure(&c->timing, &op, &m) != 0)
			return EXIT_MEASURE;
		record_latency(c, metrics[calls[i].row].id, "", NAN, &m, 1);
		measurement_free(&m);
	}
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_rand", lat_rand, 0, NULL, "",
	     "random number generation: one drand48() and one lrand48() call",
	     "Each call's result is summed and the sum kept, so no call can be removed; the figure\n"
	     "is the call, its add and the loop (nothing subtracted)."),
	{ 0 },
};

/* Default noise: 5 runs on the 2-vCPU guest while other builds and tests shared it (load average
 * 5-6), the log values' standard deviation times 1.25: a busy machine's figure, until quiet runs
 * replace it (bench/README.md says how). */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_RAND_DRAND48] = { .id = "lat_rand.drand48",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "one drand48() call", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "drand48 latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "one drand48() call added to a kept sum, and its loop",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.75, .run_eq = 0.75, .df = 4, .clock = FOLLOWS_CLOCK } },
	[ROW_LAT_RAND_LRAND48] = { .id = "lat_rand.lrand48",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "one lrand48() call", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "lrand48 latency: %v nanoseconds", .vfmt = "%.2f",
	  .work = "one lrand48() call added to a kept sum, and its loop",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ops", .run = 0.75, .run_eq = 0.75, .df = 4, .clock = FOLLOWS_CLOCK } },
	{ 0 },
};

const struct tool_file toolfile_lat_rand = { "rand", SUBSET_HW, "random number generation", tools, metrics };
