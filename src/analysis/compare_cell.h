/*
 * compare_cell.h — a side's cell of a compare row (compare_cell.c), shared by compare.c and
 * compare_judge.c; not for other callers.
 */
#ifndef PLUMB_COMPARE_CELL_H
#define PLUMB_COMPARE_CELL_H

#include "analysis/compare.h"

const struct result *cmp_find_point(const struct run *run, const char *metric,
				    const char *params, double x);
/* Append r's round values to *v (grown as needed): one per distinct sample.round, in
 * increasing round order. */
void cmp_add_rounds(const struct result *r, double **v, size_t *n, size_t *cap);
/* The cell of side s in row: its round values and what they show. */
void cmp_fill_cell(struct cmp_cell *c, const struct side *s, const struct cmp_row *row);
int cmp_int(const void *a, const void *b);

#endif
