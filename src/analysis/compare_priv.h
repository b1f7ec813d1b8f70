/*
 * compare_priv.h — what compare.c (rows, cells, warnings) and compare_judge.c (the tests)
 * share; not for other callers.
 */
#ifndef PLUMB_COMPARE_PRIV_H
#define PLUMB_COMPARE_PRIV_H

#include "analysis/compare.h"
#include "analysis/compare_est.h"

const struct result *cmp_find_point(const struct run *run, const char *metric,
				    const char *params, double x);
/* Append r's round values to *v (grown as needed): one per distinct sample.round, in
 * increasing round order. */
void cmp_add_rounds(const struct result *r, double **v, size_t *n, size_t *cap);
void cmp_fill_cell(struct cmp_cell *c, const struct side *s, const struct cmp_row *row);
int cmp_int(const void *a, const void *b);
/* Cells, tests, correction and verdicts of every row (rows collected). */
void cmp_judge(struct cmp_table *t);

#endif
