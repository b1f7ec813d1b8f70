/* result.c — the measured-point model: growable sample arrays and "k=v" parameter strings. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/metrics.h"
#include "core/result.h"
#include "core/stats.h"
#include "core/util.h"

/* The parameter the metric's older files also carried its abscissa in (its row's
 * x.was_param, core/metrics.h), or NULL: dropped wherever a result is made, so old files, old
 * stores and new runs agree on what a series is. */
static const char *old_x_param(const char *metric)
{
	const struct metric_def *d = metric_find(metric);
	return d ? d->x.was_param : NULL;
}

/* params without the word "key=..." (a fresh string). */
static char *params_without(const char *params, const char *key)
{
	size_t kl = strlen(key), o = 0;
	char *out = xmalloc(strlen(params) + 1);
	for (const char *p = params; *p;) {
		while (*p == ' ')
			p++;
		size_t wl = strcspn(p, " ");
		if (!wl)
			break;
		if (!(wl > kl && !strncmp(p, key, kl) && p[kl] == '=')) {
			if (o)
				out[o++] = ' ';
			memcpy(out + o, p, wl);
			o += wl;
		}
		p += wl;
	}
	out[o] = 0;
	return out;
}

struct result *result_list_add(struct result_list *l, const char *metric, const char *params,
			       double x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	struct result *r = &l->v[l->n++];
	memset(r, 0, sizeof *r);
	r->metric = xstrdup(metric);
	const char *was = isnan(x) ? NULL : old_x_param(metric);
	r->params = was ? params_without(params ? params : "", was) : xstrdup(params ? params : "");
	r->x = x;
	r->value = NAN;
	return r;
}

/* A word "key=/path" whose path is a scratch file: its key part length, else 0. */
static size_t scratch_word(const char *w, size_t wl)
{
	const char *eq = memchr(w, '=', wl);
	if (!eq || eq + 1 >= w + wl || eq[1] != '/')
		return 0;
	const char *last = w + wl;
	while (last > eq && last[-1] != '/')
		last--;
	if (w + wl - last == 3 && !memcmp(last, "XXX", 3))
		return (size_t)(eq - w);
	for (const char *p = eq + 1; p + 7 <= w + wl; p++)
		if (p[-1] == '/' && !memcmp(p, "plumb.", 6))
			return (size_t)(eq - w);
	return 0;
}

int params_same(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	if (!strcmp(a, b))
		return 1;
	/* word by word: equal, or both scratch paths under the same key */
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		size_t al = strcspn(a, " "), bl = strcspn(b, " ");
		if (!al || !bl)
			return !al && !bl;
		size_t ak = scratch_word(a, al), bk = scratch_word(b, bl);
		if (!(al == bl && !memcmp(a, b, al)) &&
		    !(ak && ak == bk && !memcmp(a, b, ak)))
			return 0;
		a += al;
		b += bl;
	}
}

uint64_t params_hash(const char *p)
{
	uint64_t h = 1469598103934665603ULL;
	p = p ? p : "";
	/* the words params_same() compares, a scratch word as its key alone */
	for (;;) {
		while (*p == ' ')
			p++;
		size_t wl = strcspn(p, " ");
		if (!wl)
			return h;
		size_t k = scratch_word(p, wl);
		size_t n = k ? k : wl;
		for (size_t i = 0; i < n; i++)
			h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
		h = (h ^ (k ? 1u : 0u) ^ 0x100u) * 1099511628211ULL;
		p += wl;
	}
}

int x_same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 5e-6 + 1e-6 * fmax(fabs(a), fabs(b));
}

int point_same(const struct result *r, const char *metric, const char *params, double x)
{
	return strcmp(r->metric, metric) == 0 && params_same(r->params, params) && x_same(r->x, x);
}

void result_add_sample(struct result *r, struct sample s)
{
	if (r->nsamples == r->cap) {
		/* from 2: an imported lmbench result often has one sample, and a run many results */
		r->cap = r->cap ? 2 * r->cap : 2;
		r->samples = xrealloc(r->samples, r->cap * sizeof *r->samples);
	}
	s.side = side_dup(s.side);
	r->samples[r->nsamples++] = s;
}

const struct side_sample *sample_side(const struct sample *s)
{
	static const struct side_sample none;
	return s->side ? s->side : &none;
}

void result_free(struct result *r)
{
	free(r->metric);
	free(r->params);
	free(r->unit);
	free(r->info);
	for (size_t i = 0; i < r->nsamples; i++)
		free(r->samples[i].side);
	free(r->samples);
	memset(r, 0, sizeof *r);
}

void result_list_free(struct result_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		result_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

char *param_get(const char *params, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = params;
	while (p && *p) {
		while (*p == ' ')
			p++;
		const char *end = strchr(p, ' ');
		size_t tl = end ? (size_t)(end - p) : strlen(p);
		if (tl > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			size_t vl = tl - kl - 1;
			if (vl >= len)
				vl = len - 1;
			memcpy(buf, p + kl + 1, vl);
			buf[vl] = 0;
			return buf;
		}
		p = end;
	}
	return NULL;
}

void result_add_info(struct result *r, const char *fmt, ...)
{
	char kv[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(kv, sizeof kv, fmt, ap);
	va_end(ap);
	char *n = r->info && *r->info ? xasprintf("%s %s", r->info, kv) : xstrdup(kv);
	free(r->info);
	r->info = n;
}

double result_noise_pct(const struct result *r)
{
	if (r->nsamples < 2)
		return NAN;
	double *v = xmalloc(r->nsamples * sizeof *v);
	for (size_t i = 0; i < r->nsamples; i++)
		v[i] = r->samples[i].value;
	double med = stats_median(v, r->nsamples), lo, hi;
	if (stats_median_ci(v, r->nsamples, &lo, &hi) != 0) {
		lo = stats_min(v, r->nsamples);
		hi = stats_max(v, r->nsamples);
	}
	free(v);
	if (med == 0 || isnan(med))
		return NAN;
	return (hi - lo) / 2 / fabs(med) * 100;
}

const char *result_caveat(const struct result *r, char *buf, size_t len)
{
	return r->info ? param_get(r->info, "caveat", buf, len) : NULL;
}

const char *caveat_text(const char *word)
{
	static const struct { const char *word, *text; } known[] = {
		{ CAVEAT_FS_HISTORY, "ext4 without a journal skips inodes deleted in the last 60-300 s "
				     "when it creates a file: the rate follows what was deleted before "
				     "(earlier runs, other programs), not only the file system's code" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcmp(word, known[i].word))
			return known[i].text;
	return word;
}

void result_update_value(struct result *r, int stat_dir)
{
	double *v = xmalloc((r->nsamples + 1) * sizeof *v);
	for (size_t i = 0; i < r->nsamples; i++)
		v[i] = r->samples[i].value;
	r->value = stat_dir < 0 ? stats_min(v, r->nsamples)
		 : stat_dir > 0 ? stats_max(v, r->nsamples) : stats_median(v, r->nsamples);
	free(v);
}
