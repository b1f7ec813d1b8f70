/*
 * compare_priv.h — what compare.c (rows, warnings) calls of compare_judge.c (the tests); the
 * cells both read are compare_cell.h's. Not for other callers.
 */
#ifndef PLUMB_COMPARE_PRIV_H
#define PLUMB_COMPARE_PRIV_H

#include "analysis/compare.h"
#include "analysis/compare_cell.h"
#include "analysis/compare_est.h"

/* Cells, tests, correction and verdicts of every row (rows collected). */
void cmp_judge(struct cmp_table *t);

#endif
