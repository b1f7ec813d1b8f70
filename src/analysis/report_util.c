/*
 * report_util.c — what the report's chart files share (report_util.h): the list of charts, the
 * chart kinds looked up by name, and a side's name as legends say it. It calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_util.h"
#include "core/util.h"

void chart_add(struct charts *c, const char *slug, const char *title, char *svg, int wide)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	/* a slug names a file (plot) and an HTML id, and may hold a metric name from a run */
	char *id = xstrdup(slug);
	for (char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			*p = '-';
	c->v[c->n++] = (struct report_chart){ .slug = id, .title = xstrdup(title), .svg = svg,
					       .wide = wide };
}

const struct chart_kind *chart_kind_find(const char *name)
{
	for (size_t i = 0; name && chart_kinds[i]; i++)
		if (strcmp(chart_kinds[i]->kind, name) == 0)
			return chart_kinds[i];
	return NULL;
}

int chart_draws(const struct metric_def *d, const char *kind)
{
	return d && d->chart && strcmp(d->chart, kind) == 0;
}

/* ---- names a reader can tell apart -------------------------------------------------------- */

/* The compiler in a word and its version: "gcc 12.2.0", "clang 16.0.6",
 * "aarch64-linux-gnu-gcc 12.2.0", from `CC --version`'s first line. */
static void short_cc(const char *cc, char *buf, size_t len)
{
	const char *ver = strstr(cc, "version ");
	if (strstr(cc, "clang")) {
		snprintf(buf, len, "clang %.*s", ver ? (int)strcspn(ver + 8, " ") : 0, ver ? ver + 8 : "");
		return;
	}
	const char *last = strrchr(cc, ' ');
	size_t first = strcspn(cc, " ");
	const char *name = first == 2 && !strncmp(cc, "cc", 2) ? "gcc" : NULL;
	if (last && last[1] >= '0' && last[1] <= '9')
		snprintf(buf, len, "%.*s %s", name ? 3 : (int)first, name ? name : cc, last + 1);
	else
		snprintf(buf, len, "%.*s", (int)(first < 40 ? first : 40), cc);
}

/* The flags that change the code: -O*, -march/-mcpu/-mtune, -static, -flto. */
static void short_flags(const char *fl, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	while (*fl) {
		fl += strspn(fl, " ");
		size_t n = strcspn(fl, " ");
		if (n && n < 40 && (!strncmp(fl, "-O", 2) || !strncmp(fl, "-march", 6) ||
				    !strncmp(fl, "-mcpu", 5) || !strncmp(fl, "-mtune", 6) ||
				    !strncmp(fl, "-static", 7) || !strncmp(fl, "-flto", 5)) &&
		    at + n + 2 < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? " " : "", (int)n, fl);
		fl += n;
	}
}

char *report_side_name(const struct side *s)
{
	const struct run *r = s->nruns ? s->runs[0] : NULL;
	if (!r)
		return xstrdup(s->name);
	const char *cc = kv_get(&r->facts, "build_cc"), *fl = kv_get(&r->facts, "build_cflags");
	char build[128] = "", c[64] = "", f[64] = "";
	if (cc)
		short_cc(cc, c, sizeof c);
	if (fl)
		short_flags(fl, f, sizeof f);
	snprintf(build, sizeof build, "%s%s%s", c, *c && *f ? " " : "", f);
	/* an id alone says nothing: the label joins it when it is not already the name */
	int add_label = r->label && *r->label && strcmp(r->label, s->name) != 0;
	return xasprintf("%s%s%s%s%s%s", s->name, add_label ? " " : "", add_label ? r->label : "",
			 *build ? " (" : "", build, *build ? ")" : "");
}

void report_charts_free(struct report_chart *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].slug);
		free(c[i].title);
		free(c[i].svg);
	}
	free(c);
}
