/*
 * p_adjust.c — Holm and Benjamini–Hochberg adjustments of the p-values compare and trend test
 * together. See p_adjust.h for what each function promises.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/p_adjust.h"
#include "core/util.h"

struct idx {
	double p;
	size_t i;
};

static int cmp_idx(const void *x, const void *y)
{
	double a = ((const struct idx *)x)->p, b = ((const struct idx *)y)->p;
	return a < b ? -1 : a > b;
}

void p_adjust(double *p, size_t k, enum correction c)
{
	if (c == CORR_NONE || k == 0)
		return;
	struct idx *s = xmalloc(k * sizeof *s);
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (!isnan(p[i]))
			s[m++] = (struct idx){ p[i], i };
	qsort(s, m, sizeof *s, cmp_idx);
	if (c == CORR_HOLM) {
		/* step down: the j-th smallest is multiplied by (m - j), never below the previous */
		double run = 0;
		for (size_t j = 0; j < m; j++) {
			double v = fmin(1, (double)(m - j) * s[j].p);
			run = fmax(run, v);
			p[s[j].i] = run;
		}
	} else {
		/* step up: the j-th smallest (1-based) times m / j, never above the next one's */
		double run = 1;
		for (size_t j = m; j-- > 0;) {
			double v = fmin(1, (double)m / (double)(j + 1) * s[j].p);
			run = fmin(run, v);
			p[s[j].i] = run;
		}
	}
	free(s);
}

int correction_parse(const char *s, enum correction *c)
{
	if (strcmp(s, "holm") == 0)
		*c = CORR_HOLM;
	else if (strcmp(s, "bh") == 0)
		*c = CORR_BH;
	else if (strcmp(s, "none") == 0)
		*c = CORR_NONE;
	else
		return -1;
	return 0;
}

const char *correction_name(enum correction c)
{
	return c == CORR_HOLM ? "holm" : c == CORR_BH ? "bh" : "none";
}
