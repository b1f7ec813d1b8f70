/* result.c — the measured-point model: growable sample arrays and "k=v" parameter strings. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/result.h"
#include "core/stats.h"
#include "core/util.h"

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
	r->params = xstrdup(params ? params : "");
	r->x = x;
	r->value = NAN;
	return r;
}

void result_add_sample(struct result *r, struct sample s)
{
	if (r->nsamples == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->samples = xrealloc(r->samples, r->cap * sizeof *r->samples);
	}
	r->samples[r->nsamples++] = s;
}

void result_free(struct result *r)
{
	free(r->metric);
	free(r->params);
	free(r->unit);
	free(r->info);
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
