/* point_index.c — a hash of points by their tolerant identity (see point_index.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/point_index.h"
#include "core/result.h"
#include "core/util.h"

struct pidx_entry {
	const char *metric, *params;
	double x;
	size_t item;
	uint64_t key;  /* metric, canonical params and x's bucket hashed together */
	size_t next;   /* the next entry of the same bucket + 1 (0: none) */
};

#define NO_ITEM ((size_t)-1)

/* x on a scale where two x_same() values are less than one unit apart: the tolerance grows
 * as 5e-6 + 1e-6·|x|, so the scale is its integral, 1e6·ln(1 + |x|/5), halved for margin. */
static int64_t x_bucket(double x)
{
	if (isnan(x))
		return INT64_MIN;
	return (int64_t)floor(copysign(0.5e6 * log1p(fabs(x) / 5), x));
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static uint64_t key_of(const char *metric, const char *params, int64_t bucket)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)metric; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return mix(mix(h, params_hash(params)), (uint64_t)bucket);
}

static int same(const struct point_index *ix, const struct pidx_entry *e, const char *metric,
		const char *params, double x)
{
	if (strcmp(e->metric, metric))
		return 0;
	if (ix->mode == PIDX_EXACT)
		return !strcmp(e->params, params) && (e->x == x || (isnan(e->x) && isnan(x)));
	return params_same(e->params, params) && (ix->mode == PIDX_SERIES || x_same(e->x, x));
}

void pidx_init(struct point_index *ix, enum pidx_mode mode)
{
	memset(ix, 0, sizeof *ix);
	ix->mode = mode;
}

void pidx_free(struct point_index *ix)
{
	free(ix->e);
	free(ix->head);
	memset(ix, 0, sizeof *ix);
}

static void link_entry(struct point_index *ix, size_t i)
{
	size_t b = (size_t)(ix->e[i].key & (ix->nb - 1));
	ix->e[i].next = ix->head[b];
	ix->head[b] = i + 1;
}

static void grow(struct point_index *ix)
{
	ix->cap = ix->cap ? 2 * ix->cap : 64;
	ix->e = xrealloc(ix->e, ix->cap * sizeof *ix->e);
	free(ix->head);
	ix->nb = ix->cap * 2;
	ix->head = xcalloc(ix->nb, sizeof *ix->head);
	/* relinked in insertion order, so each chain lists later entries first */
	for (size_t i = 0; i < ix->n; i++)
		link_entry(ix, i);
}

void pidx_add(struct point_index *ix, const char *metric, const char *params, double x,
	      size_t item)
{
	if (ix->n == ix->cap)
		grow(ix);
	struct pidx_entry *e = &ix->e[ix->n];
	e->metric = metric;
	e->params = params ? params : "";
	e->x = x;
	e->item = item;
	/* an infinite x is x_same() as every finite one: kept out of the buckets, always scanned */
	e->key = key_of(metric, e->params, ix->mode == PIDX_SERIES ? 0 : isinf(x) ? INT64_MAX : x_bucket(x));
	link_entry(ix, ix->n++);
}

static size_t scan_all(const struct point_index *ix, const char *metric, const char *params,
		       double x)
{
	size_t best = NO_ITEM;
	for (size_t i = 0; i < ix->n; i++)
		if (ix->e[i].item < best && same(ix, &ix->e[i], metric, params, x))
			best = ix->e[i].item;
	return best;
}

static size_t scan_bucket(const struct point_index *ix, uint64_t key, const char *metric,
			  const char *params, double x, size_t best)
{
	for (size_t i = ix->head[key & (ix->nb - 1)]; i; i = ix->e[i - 1].next) {
		const struct pidx_entry *e = &ix->e[i - 1];
		if (e->key == key && e->item < best && same(ix, e, metric, params, x))
			best = e->item;
	}
	return best;
}

size_t pidx_find(const struct point_index *ix, const char *metric, const char *params, double x)
{
	if (!ix->n)
		return NO_ITEM;
	params = params ? params : "";
	if (ix->mode != PIDX_SERIES && isinf(x))
		return scan_all(ix, metric, params, x);
	size_t best = NO_ITEM;
	if (ix->mode == PIDX_SERIES)
		return scan_bucket(ix, key_of(metric, params, 0), metric, params, x, best);
	int64_t b = x_bucket(x);
	best = scan_bucket(ix, key_of(metric, params, b), metric, params, x, best);
	if (!isnan(x)) {
		best = scan_bucket(ix, key_of(metric, params, b - 1), metric, params, x, best);
		best = scan_bucket(ix, key_of(metric, params, b + 1), metric, params, x, best);
		best = scan_bucket(ix, key_of(metric, params, INT64_MAX), metric, params, x, best);
	}
	return best;
}
