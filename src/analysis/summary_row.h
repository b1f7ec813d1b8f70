/*
 * summary_row.h — what summary.c and summary_reduce.c share: a run reduced to the figures
 * lmbench's summary tables show (struct row, one double per figure, -1 when missing), and the
 * results each row's cells read (for the noise notes and `summary --cells`).
 */
#ifndef PLUMB_SUMMARY_ROW_H
#define PLUMB_SUMMARY_ROW_H

#include <stdio.h>
#include "core/summary_cells.h"
#include "results/run.h"

/* A run reduced to its cells (core/summary_cells.h: enum summary_cell). */
struct row {
	const struct result *used[160]; /* the results the row's cells came from, in reading order */
	int nused;
	char host[128], os[128], desc[128];
	/* the row's run, for readers: who names it in notes ("run 12 (label v1)"), name is the
	 * short distinct name the tables show when rows share host and OS (summary.c) */
	char who[RUN_TEXT_MAX * 4 + 32], name[64];
	double v[SUM_N];
	const struct result *mem_res, *rnd_res; /* the Main mem / Rand mem cells of a plumb run */
};

/* Every run reduced to its row (summary_reduce.c); NULL when out of memory. */
struct row *summary_reduce_all(struct run *const *runs, size_t n);

/* What summary.c gives the document formats (summary_doc.c). rows_named sets each row's who
 * and name, and returns 1 when two rows share host and OS. */
int rows_named(struct run *const *runs, struct row *rows, size_t n);
/* The notes under the tables (memory columns, noisy cells, CPU clock), as plain text. */
void summary_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n);
/* summary_noisy.c: the noisy and caveat cells under the tables (their count and the worst) */
void summary_noisy_notes(FILE *f, const struct row *rows, size_t n);
/* Whether cell k of a row reads a result an earlier cell of the row already read. */
int summary_used_before(const struct row *r, int k);
/* summary_cond.c: a line for each run measured emulated or contended, each given to put (the
 * format's writer of one line) */
void summary_cond_lines(FILE *f, struct run *const *runs, const struct row *rows, size_t n,
			void (*put)(FILE *, const char *));
size_t summary_ntables(void);
const char *summary_table_title(size_t t);
/* Table t's value columns by name, NULL-terminated. */
const char *const *summary_table_names(size_t t);
int summary_table_shown(size_t t, const struct row *rows, size_t n);
/* Row w's cells of table t as lmbench's text prints them, blanks trimmed; "" when missing
 * (never lmbench's -1). Returns how many. */
#define SUMMARY_CELL 160
int summary_table_cells(size_t t, const struct row *w, char out[][SUMMARY_CELL], int max);

#endif
