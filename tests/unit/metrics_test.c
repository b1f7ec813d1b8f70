/* metrics_test.c — the metric registry, declared by the tool files: every metric says what it
 * is and what noise compare assumes for it; a tool records only what its file declares (the
 * check fires for an undeclared id and for a row without noise); the metrics whose operation is
 * not lmbench's carry a method version above lmbench's 1, so compare reports a method change,
 * never a regression. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/metrics.h"
#include "core/out.h"
#include "core/util.h"
#include "test.h"

TEST(metrics_every_metric_described)
{
	CHECK(metric_total() > 100);
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		CHECK(d->work && *d->work && d->subtracted && *d->subtracted && d->lmbench);
		/* every version above 1 says how it differs */
		if (d->version > 1 && !d->lmbench[0])
			test_fail(__FILE__, __LINE__, "%s: version %d without its difference", d->id,
				  d->version);
		/* nothing claims to subtract an empty loop */
		CHECK(!strstr(d->subtracted, "loop"));
	}
}

/* Every file's rows are complete, noise included: what the recording check also demands. */
TEST(metrics_every_set_declares_noise)
{
	char why[256];
	int sets = 0;
	for (int s = 0; metric_sets[s].defs; s++, sets++)
		if (metric_set_check(&metric_sets[s], why, sizeof why) != 0)
			test_fail(__FILE__, __LINE__, "%s", why);
	CHECK(sets > 30);
	for (int i = 0; metric_at(i); i++)
		CHECK(metric_at(i)->noise.group && metric_at(i)->noise.run > 0);
}

/* The registry's order: by each file's rank in mk/metrics.order, then place; no two rows tie. */
TEST(metrics_order_is_total)
{
	CHECK_STR(metric_at(0)->id, "lat_syscall.null");
	/* lat_ops and par_ops interleave by type, as lmbench's summary reads them (each steady
	 * twin right after its row) */
	const char *want[] = { "lat_ops.integer_mod", "par_ops.integer_bit" };
	for (int i = 0; metric_at(i + 1); i++)
		if (!strcmp(metric_at(i)->id, want[0])) {
			int j = i + 1;
			while (metric_at(j) && metric_at(j)->steady_of)
				j++;
			CHECK(metric_at(j) != NULL);
			if (metric_at(j))
				CHECK_STR(metric_at(j)->id, want[1]);
		}
	for (int a = 0; metric_sets[a].defs; a++)
		for (int b = a + 1; metric_sets[b].defs; b++)
			if (metric_sets[a].order == metric_sets[b].order)
				for (const struct metric_def *x = *metric_sets[a].defs; x->id; x++)
					for (const struct metric_def *y = *metric_sets[b].defs; y->id; y++)
						CHECK(x->place && y->place && x->place != y->place);
}

/* The recording check: a tool may record what its own file declares, nothing else. */
TEST(metrics_record_check_fires)
{
	char why[256];
	CHECK(metric_check_record("lat_syscall", "lat_syscall.null", why, sizeof why) == 0);
	CHECK(metric_check_record("bw_pipe", "bw_pipe.bandwidth", why, sizeof why) == 0);
	CHECK(metric_check_record("lat_syscall", "lat_pipe.latency", why, sizeof why) == -1);
	CHECK(strstr(why, "does not declare") != NULL);
	CHECK(metric_check_record("lat_syscall", "lat_syscall.undeclared", why, sizeof why) == -1);
	CHECK(strstr(why, "not declared") != NULL);
	/* a row without noise is refused */
	static const struct metric_def quiet[] = {
		{ .id = "test.no_noise", .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
		  .desc = "a row that forgot its noise", .vfmt = "%.4f", .sign = POSITIVE,
		  .x = { .kind = X_NONE }, .work = "nothing", .subtracted = SUB_CLOCK, .lmbench = "" },
		{ 0 },
	};
	const struct metric_def *rows = quiet;
	const struct metric_set s = { &rows, 1 };
	CHECK(metric_set_check(&s, why, sizeof why) == -1);
	CHECK(strstr(why, "noise") != NULL);
}

/* Every meaning a room reads from a row is declared in it: a row that leaves one out is refused,
 * naming the field (core/metrics.h). */
TEST(metrics_row_without_a_room_field_refused)
{
#define ROW(...)                                                                                \
	{ .id = "test.row", .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,         \
	  .desc = "a row", .vfmt = "%.4f", .work = "nothing", .subtracted = SUB_CLOCK,           \
	  .lmbench = "", .noise = NOISE_UNMEASURED, __VA_ARGS__ }
	static const struct summary_note textless = { .text = "" }, noted = { .text = "a note" };
	static const struct {
		struct metric_def row[2];
		const char *lacks; /* NULL: complete */
	} cases[] = {
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }) }, NULL },
		{ { ROW(.x = { .kind = X_NONE }) }, "sign rule (.sign)" },
		{ { ROW(.sign = ANY_SIGN) }, "abscissa (.x.kind)" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_COUNT }, .chart = "series",
			.summary = { .at = SUMMARY_LAST }) }, "label (.x.label)" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size" },
			.summary = { .at = SUMMARY_LAST }) }, "chart kind (.chart)" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_LEVEL, .label = "level" },
			.chart = "series") }, "summary points (.summary)" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_COUNT, .label = "copies" },
			.chart = "series", .summary = { .at = SUMMARY_LISTED }) },
		  "abscissas of its summary points" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_COUNT, .label = "copies" },
			.chart = "series", .summary = { .at = SUMMARY_LISTED, .x = { 2 } }) },
		  NULL },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .chart_title = "a title") },
		  "title and slug together" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .chart_slug = "a-slug") },
		  "title and slug together" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .chart_slug = "a-slug",
			.chart_title = "a title") }, NULL },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .figure = { .kind = "tails" }) },
		  "part in its figure (.figure.role)" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.figure = { .kind = "tails", .role = FIG_POINT, .at = 1, .name = "p" }) }, NULL },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.lmbench_text = { .title = "Socket bandwidth using " }) },
		  "lmbench title's text and parameter" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.lmbench_text = { .mode = "Random load latency", .param = "stride" }) },
		  "lmbench title's text and parameter" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.cells = { { .cell = SUM_CTX0_2, .read = READ_AT_X, .params = "size=0" } }) },
		  "abscissa its summary cell" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.cells = { { .cell = SUM_CTX0_2, .read = READ_AT_X, .x = 2 } }) }, NULL },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.cells = { { .cell = SUM_MHZ, .read = READ_HEADER } }) },
		  "lmbench header its summary cell" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.cells = { { .cell = SUM_L1, .read = READ_WALK } }) },
		  "stride of the walk" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE },
			.cells = { { .cell = SUM_IO, .read = READ_FIRST } }) },
		  "summary cell of lmbench's tables" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .summary_note = &textless) },
		  "summary note's text" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .summary_note = &noted) },
		  "summary note's text, on a row that feeds a cell" },
		{ { ROW(.sign = POSITIVE, .x = { .kind = X_NONE }, .summary_note = &noted,
			.cells = { { .cell = SUM_PIPE, .read = READ_FIRST } }) }, NULL },
	};
#undef ROW
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char why[256] = "";
		const struct metric_def *rows = cases[i].row;
		const struct metric_set s = { &rows, 1 };
		int rc = metric_set_check(&s, why, sizeof why);
		if (!cases[i].lacks ? rc != 0 : rc != -1 || !strstr(why, cases[i].lacks))
			test_fail(__FILE__, __LINE__, "case %zu: rc %d, why '%s'", i, rc, why);
	}
}

/* A row whose value a run records as a fact: found by the fact's name, and refused when its
 * value format is not printf's (a fact is written with it). */
TEST(metrics_run_fact_found_and_checked)
{
	const struct metric_def *d = metric_of_run_fact("mhz");
	CHECK(d != NULL && strcmp(d->id, "mhz.mhz") == 0);
	CHECK(metric_of_run_fact("no_such_fact") == NULL);
	static const struct metric_def bad[] = {
		{ .id = "test.fact", .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
		  .desc = "a fact written as lmbench's bandwidth", .vfmt = "bw", .run_fact = "bw",
		  .sign = POSITIVE, .x = { .kind = X_NONE }, .work = "nothing",
		  .subtracted = SUB_CLOCK, .lmbench = "", .noise = NOISE_UNMEASURED },
		{ 0 },
	};
	const struct metric_def *rows = bad;
	const struct metric_set s = { &rows, 1 };
	char why[256] = "";
	CHECK(metric_set_check(&s, why, sizeof why) == -1);
	CHECK(strstr(why, "printf value format for its run fact") != NULL);
}

/* Every cell of lmbench's summary tables that a metric fills is declared by a row (.cells),
 * once for each way it is read (a malformed cell: metrics_row_without_a_room_field_refused). */
TEST(metrics_summary_cells_declared_once)
{
	int fed[SUM_N][READ_KINDS];
	memset(fed, 0, sizeof fed);
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (d->steady_of)
			CHECK(d->cells[0].read == READ_NONE);
		for (int c = 0; c < METRIC_CELLS && d->cells[c].read; c++)
			fed[d->cells[c].cell][d->cells[c].read]++;
	}
	for (int cell = 0; cell < SUM_N; cell++) {
		int n = 0;
		for (int how = 0; how < READ_KINDS; how++) {
			CHECK(fed[cell][how] <= 1);
			n += fed[cell][how];
		}
		/* null I/O is read and write's mean; the load is the run's --copies */
		CHECK(n >= (cell != SUM_IO && cell != SUM_LOAD));
	}
	/* lat_ctx's seven cells, at their process counts */
	const struct metric_def *ctx = metric_find("lat_ctx.switch");
	CHECK(ctx && ctx->cells[6].cell == SUM_CTX64_16 && ctx->cells[6].x == 16);
}

/* The same check on the real recording path: an undeclared id stops the tool loudly. */
TEST(metrics_record_undeclared_dies)
{
	const char *ids[] = { "lat_pipe.latency", "lat_syscall.undeclared" };
	for (int i = 0; i < 2; i++) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			if (!freopen("/dev/null", "w", stderr))
				_exit(99);
			struct tool_ctx c = { .tool = "lat_syscall" };
			struct sample s = { .value = 1 };
			record_values(&c, ids[i], "", NAN, &s, 1);
			_exit(0);
		}
		int st = 0;
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == EXIT_MEASURE);
	}
}

TEST(metrics_method_versions_differ_from_lmbench)
{
	/* operations that differ from lmbench's (or changed in plumb): issue 14's list */
	static const char *const changed[] = {
		"lat_mmap.latency", "lat_connect.latency", "lat_mem_rd.rand", "lat_pagefault.latency",
		"lat_proc.procedure", "lat_proc.fork", "lat_proc.exec", "lat_proc.shell",
		"stream.copy", "stream.copy_latency", "stream.scale", "stream.scale_latency",
		"stream.add", "stream.triad", "stream2.fill", "stream2.copy", "stream2.daxpy",
		"par_mem.parallelism",
	};
	for (size_t i = 0; i < sizeof changed / sizeof changed[0]; i++) {
		const struct metric_def *d = metric_find(changed[i]);
		CHECK(d != NULL);
		if (d && d->version < 2)
			test_fail(__FILE__, __LINE__, "%s has method version %d, lmbench's", changed[i],
				  d->version);
	}
}
