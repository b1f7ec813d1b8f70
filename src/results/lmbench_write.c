/*
 * lmbench_write.c — a run as an lmbench 3 raw results file: the "[lmbench3.0 results for ...]"
 * line, [KEY: value] headers, then every result as the line lmbench prints for it (from the
 * registry's templates) and every series as lmbench's suite writes it (title, "x y" lines, an
 * empty line). lmbench's own summary script and plumb's importer both read the file; values carry
 * lmbench's printed precision, so the exact samples travel in JSON instead. The titles, blocks
 * and headers that are lmbench's own layouts are written for the rows whose .lmbench_text says
 * they belong there (core/metrics.h); no metric is named here.
 *
 * Not written, because lmbench's format has no line for them: lat_http (its line needs byte
 * counts plumb does not keep), memsize, and plumb's per-sample detail.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/metrics.h"
#include "core/out.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/run_cond.h"
#include "results/io.h"

/* One line of the file: pre, the run's text s escaped (term_fputs: a LF in a label or a fact
 * cannot start a line of its own), post, LF. */
static void text_line(FILE *f, const char *pre, const char *s, const char *post)
{
	fputs(pre, f);
	term_fputs(f, s);
	fputs(post, f);
	fputc('\n', f);
}

static int same_series(const struct result *a, const struct result *b)
{
	return !strcmp(a->metric, b->metric) && !strcmp(a->params, b->params);
}

static void point(FILE *f, const struct result *p)
{
	char line[512];
	if (!isnan(p->value) && format_line(metric_find(p->metric), p, line, sizeof line) == 0)
		text_line(f, "", line, "");
}

/* The lat_fs block: "<k>k\t<files>\t<creates/s>\t<deletes/s>" per size, the two columns' rows
 * saying which they are. */
static void fs_block(FILE *f, const struct run *r)
{
	const char *create = metric_lmbench_id(LMB_FS_CREATE);
	const char *del = metric_lmbench_id(LMB_FS_DELETE);
	fprintf(f, "\"File system latency\n");
	for (size_t i = 0; i < r->results.n && create; i++) {
		const struct result *c = &r->results.v[i];
		if (strcmp(c->metric, create))
			continue;
		char size[32];
		if (!param_get(c->params, "size", size, sizeof size))
			continue;
		const struct result *d = del ? run_find(r, del, c->params, NAN) : NULL;
		unsigned long long files = c->nsamples ? (unsigned long long)c->samples[0].iters : 0;
		fprintf(f, "%.0fk\t%llu\t%.0f\t%.0f\n", atof(size) / 1024, files,
			isnan(c->value) ? -1 : c->value, d && !isnan(d->value) ? d->value : -1);
	}
	fputc('\n', f);
}

/* A series as lmbench's suite writes it: its title, its points, an empty line. mode: the last
 * mode line written (lat_mem_rd's "Random load latency", its row's .lmbench_text.mode). */
static void series(FILE *f, const struct run *r, size_t first, const char **mode)
{
	const struct result *s = &r->results.v[first];
	const struct metric_def *d = metric_find(s->metric);
	const struct metric_lmbench_text *t = d && d->lmbench_text.title ? &d->lmbench_text : NULL;
	char v[256];
	if (t && t->mode && t->param) {
		if (!*mode || strcmp(*mode, t->mode))
			fprintf(f, "%s\n", t->mode);
		*mode = t->mode;
		text_line(f, t->title, param_get(s->params, t->param, v, sizeof v) ? v : "?", "");
	} else if (d && d->lmbench_text.block == LMB_CTX) {
		const char *ov = metric_lmbench_id(LMB_CTX_OVERHEAD);
		const struct result *o = ov ? run_find(r, ov, s->params, NAN) : NULL;
		char ovr[48];
		snprintf(ovr, sizeof ovr, "k ovr=%.2f", o && !isnan(o->value) ? o->value : 0.0);
		text_line(f, "\n\"size=", param_get(s->params, "size", v, sizeof v) ? v : "0", ovr);
	} else if (t && !t->whole) { /* a title and a parameter's value: bw_tcp's, disk's */
		text_line(f, t->title, param_get(s->params, t->param, v, sizeof v) ? v
				       : t->unset ? t->unset : "?", "");
	} else if (t && param_get(s->params, t->param, v, sizeof v) && strcmp(v, "0")) {
		fprintf(f, "%s\n", t->title); /* bw_mem's aligned bcopy */
	} else if (d && d->series_title) {
		fprintf(f, "%s\n", d->series_title);
	} else {
		return; /* a series lmbench has no title for */
	}
	for (size_t i = first; i < r->results.n; i++)
		if (same_series(&r->results.v[i], s) && !isnan(r->results.v[i].x))
			point(f, &r->results.v[i]);
	fputc('\n', f);
}

static void single(FILE *f, const struct result *p)
{
	const struct metric_def *d = metric_find(p->metric);
	char line[512], v[64];
	if (!d || isnan(p->value))
		return;
	enum lmbench_block b = d->lmbench_text.block;
	if (b == LMB_CACHE_LATENCY || b == LMB_CACHE_SIZE) {
		if (!param_get(p->params, "level", v, sizeof v))
			return;
		if (!strcmp(v, "mem") && b == LMB_CACHE_LATENCY)
			fprintf(f, "Memory latency: %.2f nanoseconds\n", p->value);
		return; /* level lines are written with their size, below */
	}
	if (!d->line || d->line[0] == '%' || format_line(d, p, line, sizeof line))
		return;
	/* imported "uint64 ..." lines go back out as lmbench printed them */
	const char *i = p->info ? strstr(p->info, "lmbench_label=uint64") : NULL;
	text_line(f, i ? "u" : "", line, "");
}

static void cache_levels(FILE *f, const struct run *r)
{
	const char *size = metric_lmbench_id(LMB_CACHE_SIZE);
	const char *lat = metric_lmbench_id(LMB_CACHE_LATENCY);
	for (size_t i = 0; i < r->results.n && size; i++) {
		const struct result *s = &r->results.v[i];
		if (strcmp(s->metric, size) || isnan(s->value))
			continue;
		const struct result *l = lat ? run_find(r, lat, s->params, NAN) : NULL;
		char v[16];
		char rest[96];
		snprintf(rest, sizeof rest, " cache: %.0f bytes %.2f nanoseconds", s->value,
			 l ? l->value : NAN);
		if (l && param_get(s->params, "level", v, sizeof v))
			text_line(f, "L", v, rest);
	}
}

/* ISO 8601 UTC ("2026-11-30T04:41:33Z") as date(1) prints it in lmbench's files, so the
 * importer reads the run's start and end back; other text is written as it is. */
static void date_line(FILE *f, const char *iso)
{
	struct tm tm = { 0 };
	char buf[64];
	const char *end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end && !*end && strftime(buf, sizeof buf, "%a %b %e %H:%M:%S UTC %Y", &tm))
		fprintf(f, "[%s]\n", buf);
	else
		text_line(f, "[", iso, "]");
}

/* The result (no params) of the row whose value lmbench's header key carries
 * (.lmbench_text.header), or NULL. */
static const struct result *header_result(const struct run *r, const char *key)
{
	for (int i = 0; metric_at(i); i++) {
		const char *h = metric_at(i)->lmbench_text.header;
		if (h && !strcmp(h, key))
			return run_find(r, metric_at(i)->id, "", NAN);
	}
	return NULL;
}

static void headers(FILE *f, const struct run *r)
{
	const char *uname = kv_get(&r->facts, "uname");
	const char *os = kv_get(&r->facts, "os"), *kern = kv_get(&r->facts, "kernel");
	const char *kv = kv_get(&r->facts, "kernel_version"), *mach = kv_get(&r->facts, "machine");
	if (uname && *uname) {
		text_line(f, "[lmbench3.0 results for ", uname, "]");
	} else {
		char *u = xasprintf("%s %s %s %s %s", os ? os : "Linux", r->host ? r->host : "unknown",
				    kern ? kern : "unknown", kv ? kv : "#", mach ? mach : "unknown");
		text_line(f, "[lmbench3.0 results for ", u, "]");
		free(u);
	}
	int have_mhz = 0, have_line = 0, have_sync = 0;
	for (size_t i = 0; i < r->facts.n; i++) {
		const char *k = r->facts.v[i].key;
		if (strncmp(k, "lmbench.", 8) || !strcmp(k, "lmbench.format") ||
		    !strcmp(k, "lmbench.date") || !strcmp(k, "lmbench.end_date") ||
		    !strcmp(k, "lmbench.uptime") || !strcmp(k, "lmbench.CONDITIONS"))
			continue; /* CONDITIONS: written below from the facts it was read back into */
		fputc('[', f);
		term_fputs(f, k + 8);
		text_line(f, ": ", r->facts.v[i].val, "]");
		have_mhz |= !strcmp(k, "lmbench.MHZ");
		have_line |= !strcmp(k, "lmbench.LINE_SIZE");
		have_sync |= !strcmp(k, "lmbench.SYNC_MAX");
	}
	/* plumb's own runs: the headers lmbench's summary reads, from plumb's facts */
	const char *mhz = kv_get(&r->facts, "mhz");
	const struct result *m = header_result(r, "MHZ");
	double mv = mhz ? atof(mhz) : m ? m->value : NAN;
	if (!have_mhz && mv > 0)
		fprintf(f, "[MHZ: %.0f MHz, %.4f nanosec clock]\n", mv, 1000 / mv);
	const struct result *lb = header_result(r, "LINE_SIZE");
	const char *cl = kv_get(&r->facts, "line_size");
	if (!cl)
		cl = kv_get(&r->facts, "cache_line");
	if (!have_line && (lb || cl))
		fprintf(f, "[LINE_SIZE: %.0f]\n", lb ? lb->value : atof(cl));
	const char *cp = kv_get(&r->facts, "copies");
	if (!cp)
		cp = kv_get(&r->facts, "opt.copies");
	if (!have_sync && strncmp(r->source ? r->source : "", "lmbench3", 8))
		text_line(f, "[SYNC_MAX: ", cp ? cp : "1", "]");
	if (!kv_get(&r->facts, "lmbench.HOSTNAME") && r->host)
		text_line(f, "[HOSTNAME: ", r->host, "]");
	/* not lmbench's: a header an emulated or contended run cannot be read without */
	char cond[320];
	if (*run_conditions(r, cond, sizeof cond))
		text_line(f, "[CONDITIONS: ", cond, "]");
	const char *date = kv_get(&r->facts, "lmbench.date");
	if (date)
		text_line(f, "[", date, "]");
	else if (r->started)
		date_line(f, r->started);
}

static void write_text(const struct run *r, FILE *f)
{
	headers(f, r);
	const char *mode = NULL; /* no mode line written yet */
	int fs_done = 0;
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		const struct metric_def *d = metric_find(p->metric);
		if (d && d->steady_of)
			continue; /* a steady figure: lmbench has no line for it */
		if (d && (d->lmbench_text.block == LMB_FS_CREATE ||
			  d->lmbench_text.block == LMB_FS_DELETE)) {
			if (!fs_done++)
				fs_block(f, r);
			continue;
		}
		if (isnan(p->x)) {
			single(f, p); /* nothing for a row without a line (.line NULL): lat_ctx's
				       * overhead goes in its title, mhz in the MHZ header */
			continue;
		}
		int seen = 0; /* a series is written whole where its first point is */
		for (size_t k = 0; k < i && !seen; k++)
			seen = same_series(&r->results.v[k], p) && !isnan(r->results.v[k].x);
		if (!seen)
			series(f, r, i, &mode);
	}
	cache_levels(f, r);
	const char *end = kv_get(&r->facts, "lmbench.end_date");
	if (end) {
		text_line(f, "\n[", end, "]");
	} else if (r->ended) {
		fputc('\n', f);
		date_line(f, r->ended);
	}
}

int run_write_lmbench(const struct run *r, FILE *f)
{
	/* Written whole, then as valid UTF-8: labels, host names and imported headers are kept as
	 * given (a Latin-1 forum paste), and invalid bytes go out as U+FFFD. */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -1;
	write_text(r, m);
	if (fclose(m) != 0) {
		free(buf);
		return -1;
	}
	utf8_fputs(f, buf);
	free(buf);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
