/*
 * mwu.h — the Mann–Whitney U (Wilcoxon rank-sum) test, and the corrections for testing many
 * metrics at once (Holm, Benjamini–Hochberg) that `plumb compare` applies to its tests. compare's
 * verdicts no longer rest on U (compare_est.h: with 3–5 rounds it had no power, and rounds of
 * one run are not independent); the test is kept for its tables in docs/compare.md history.
 *
 * The U test asks whether one side's values tend to be larger than the other's without assuming
 * any distribution, which suits timing data (skewed, with outliers). For small samples without
 * ties the p-value is exact (the full null distribution of U); otherwise it comes from the normal
 * approximation with the tie correction of the variance and a continuity correction.
 */
#ifndef PLUMB_MWU_H
#define PLUMB_MWU_H

#include <stddef.h>

/* Largest side (and n + m) for which the exact distribution is used when there are no ties. */
#define MWU_EXACT_MAX 30

struct mwu {
	double u;       /* U of the first sample: pairs (a_i, b_j) with a_i > b_j, ties count 1/2 */
	double p;       /* two-sided p-value; NAN when a side is empty */
	int exact;      /* 1: exact distribution, 0: normal approximation */
	int ties;       /* 1: some values are tied (across or within the sides) */
};

/* Test a[0..n) against b[0..m). Neither array is modified. */
struct mwu mwu_test(const double *a, size_t n, const double *b, size_t m);

/* Exact two-sided p-value of U = u for sizes n, m (no ties): 2 * min(P(U <= u), P(U >= u)),
 * capped at 1. NAN when n or m is 0 or the sizes are beyond MWU_EXACT_MAX. */
double mwu_exact_p(double u, size_t n, size_t m);

/* The smallest two-sided p-value the exact test can give with sizes n, m: complete separation,
 * 2 / C(n + m, n). No test on n, m rounds can be significant at an alpha below this. */
double mwu_min_p(size_t n, size_t m);

enum correction { CORR_NONE, CORR_HOLM, CORR_BH };

/* Adjust the k p-values in p[] in place for testing them together (NAN entries are skipped
 * and do not count as tests). Holm controls the family-wise error rate (the chance of even one
 * false "significant"); BH controls the false discovery rate (the expected share of false ones
 * among those called significant). */
void p_adjust(double *p, size_t k, enum correction c);
/* "holm", "bh", "none" → 0 and *c set; -1 for anything else. */
int correction_parse(const char *s, enum correction *c);
const char *correction_name(enum correction c);

#endif
