/*
 * p_adjust.h — the corrections for testing many metrics at once (Holm, Benjamini–Hochberg)
 * that `plumb compare` and `plumb trend` apply to their tests (docs/compare.md).
 */
#ifndef PLUMB_P_ADJUST_H
#define PLUMB_P_ADJUST_H

#include <stddef.h>

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
