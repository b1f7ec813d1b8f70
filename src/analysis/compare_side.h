/*
 * compare_side.h — the side metrics beside compare's verdicts (docs/side-metrics.md): per
 * operation, each side's median over the samples of the row's point with its 95 % interval,
 * and whether a side's samples were disturbed. A field "changed with" the row when the two
 * sides' intervals do not overlap and their medians differ by 10 % or more.
 *
 * A sample is disturbed when the hypervisor stole at least 1 % of it, when it saw a CPU
 * migration, or when its involuntary switches exceed twice what the operation itself causes
 * (the row's median per operation over both sides' samples) by more than 2; a side is when
 * more than a quarter of its samples are.
 */
#ifndef PLUMB_COMPARE_SIDE_H
#define PLUMB_COMPARE_SIDE_H

#include <stdio.h>
#include "analysis/compare.h"
#include "core/json.h"

/* 1 when the baseline's or side s's samples of row r were disturbed. */
int cmp_side_disturbed(const struct cmp_table *t, const struct cmp_row *r, size_t s);
/* Text: under the table, for each shown row with a worse or better verdict (every shown row
 * with t->o.side), the side metrics that changed with it (all of them with t->o.side), one
 * line each; nothing when no run has side metrics. */
void cmp_side_text(FILE *f, const struct cmp_table *t);
/* The side metrics of row r from side `from` to side `to`, one line each ("    cs  2.004
 * [2.000, 2.008] -> 3.007 [3.000, 3.012] (+50%) changed"): those that changed, or all with
 * `all`; title (may be NULL) before the first. Returns the lines printed (trend uses it for
 * each change of level). */
int cmp_side_pair(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t from,
		  size_t to, int all, const char *title);
/* One side metric of a row on two sides: its label ("cs", "POLL%", "POLL/op"), the side.h
 * field (-1 for a cpuidle state's figure), per side ([0] from, [1] to) the median per
 * operation and its 95 % interval (NAN when it has none), and whether it changed. */
struct cmp_side_fig {
	char name[48];
	int field;
	double med[2], lo[2], hi[2];
	int changed;
};
/* The figures cmp_side_pair() prints, into *out (malloc'd, free it); returns their count. */
size_t cmp_side_figs(const struct cmp_table *t, const struct cmp_row *r, size_t from,
		     size_t to, int all, struct cmp_side_fig **out);
/* 1 when side s's verdict on row r is worse or better for some side s >= 1. */
int cmp_side_judged(const struct cmp_row *r, size_t nsides);
/* JSON: "disturbed" and a "side" object of side s's per-operation figures for row r. */
void cmp_side_json(struct json *j, const struct cmp_table *t, const struct cmp_row *r, size_t s);
/* CSV: ",DISTURBED,FIELD=MEDIAN[LO;HI] ..." for side s of row r. */
void cmp_side_csv(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t s);

#endif
