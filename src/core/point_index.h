/*
 * point_index.h — find a point by its identity (metric, params_same(), x_same()) in constant
 * time instead of scanning: compare and report look up every point of every run, which scanning
 * made quadratic in the number of points.
 *
 * The identity is tolerant (x within 5e-6 + 1e-6·|x|, scratch paths in params equal whatever
 * their directory), so the hash is taken on a canonical form of params and on x mapped to a
 * scale where the tolerance is under one unit: a point is looked for in its bucket and the two
 * beside it, and every candidate is checked with the exact rule. Lookups give the same answer
 * as a scan in item order (the lowest item that matches).
 */
#ifndef PLUMB_POINT_INDEX_H
#define PLUMB_POINT_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct pidx_entry;

struct point_index {
	struct pidx_entry *e;
	size_t n, cap;
	size_t *head; /* bucket -> first entry + 1 (0: empty) */
	size_t nb;    /* buckets, a power of two */
	int mode;     /* enum pidx_mode */
};

enum pidx_mode {
	PIDX_POINT,  /* point_same(): params_same() and x_same() */
	PIDX_SERIES, /* the series alone: metric and params_same(), whatever x */
	PIDX_EXACT,  /* equal params strings and equal x (or both NaN) */
};

void pidx_init(struct point_index *ix, enum pidx_mode mode);
void pidx_free(struct point_index *ix);
/* Add item under (metric, params, x); the strings are not copied and must outlive the index. */
void pidx_add(struct point_index *ix, const char *metric, const char *params, double x,
	      size_t item);
/* The lowest item whose key is the same point, or (size_t)-1 when none. */
size_t pidx_find(const struct point_index *ix, const char *metric, const char *params, double x);

#endif
