/*
 * lmbench_read.c — the importer of lmbench 3 raw results text (the file lmbench's suite writes,
 * and the blocks people paste into mails and forums), into runs.
 *
 * A block begins at a line "[lmbench3.<x> results for <uname -a>]" and runs to the next such line
 * or the end: a file holding several blocks (a forum thread) gives several runs. Inside a block:
 *   [KEY: value]                      a header, kept as fact "lmbench.KEY"
 *   "label: value unit"               a single result, recognised from the registry's line
 *                                     templates (core/metrics.h), so the two cannot drift apart
 *   a title line, then "x y" lines    a series (bw_mem, lat_mem_rd, lat_ctx, lat_fs, ...), ended
 *                                     by an empty line
 * The titles, blocks and odd lines that are lmbench's own layouts are read into the rows whose
 * .lmbench_text says they belong there (core/metrics.h); no metric is named here.
 * Like lmbench's own report scripts, lines that are not recognised (stray error messages, prose
 * in hand-trimmed posts, ". . .") are skipped. Each value becomes a result with method version 0
 * (measured by lmbench, not by plumb) and one sample; a value lmbench printed as negative (its
 * "failed" marker) is not kept.
 *
 * Bounded by construction: the input is a buffer plus length (it may hold anything, NUL bytes
 * make it "binary"), lines are examined through a fixed 4 KiB copy (longer lines are skipped), and
 * nothing recurses.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/metrics.h"
#include "core/point_index.h"
#include "core/util.h"
#include "results/formats.h"
#include "results/run_cond.h"
#include "results/run.h"

#define LINE_MAX_ 4096

enum series_kind { S_NONE, S_XY, S_FS, S_CTX };

/* How a series' x says its size, so imported points get the x plumb's own benchmarks record:
 * the metric's row says (core/metrics.h, enum lmbench_x; x.lmbench). */
enum x_kind { X_RAW = LMX_AS_PRINTED, X_MIB = LMX_MIB, X_MB = LMX_MB, X_MB6 = LMX_MB6 };

struct lmp {
	const char *name;
	struct run **runs;
	size_t nruns;
	struct run *cur;
	size_t block_results;
	int blocks;
	/* after a row's mode line (lat_mem_rd's "Random load latency"): that row, whose series
	 * the title the rows share starts; NULL: none yet */
	const struct metric_def *mode;
	enum series_kind series;
	enum x_kind xkind;
	char smetric[64];
	char sparams[256];
	int ndates;
	struct point_index points; /* cur's results by (metric, params, x), exact */
};

/* A strict decimal number (lmbench never prints exponents): [-]digits[.digits] or [-].digits.
 * Returns the characters used, 0 when s does not start with one. */
static size_t parse_num(const char *s, double *v)
{
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	size_t digits = 0;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++, digits++;
	}
	if (!digits || (size_t)(p - s) > 64)
		return 0;
	char tmp[72];
	memcpy(tmp, s, (size_t)(p - s));
	tmp[p - s] = 0;
	*v = strtod(tmp, NULL);
	return (size_t)(p - s);
}

/* A whole token is a number (followed by blank or end). */
static const char *num_token(const char *s, double *v)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = parse_num(s, v);
	if (!n || (s[n] && s[n] != ' ' && s[n] != '\t'))
		return NULL;
	return s + n;
}

/* A value of metric (NULL: a layout's row the registry lacks, nothing kept). */
static void add_value(struct lmp *P, const char *metric, const char *params, double x, double v,
		      const char *info, uint64_t iters)
{
	if (!metric || !(v >= 0) || !isfinite(v) || !P->cur)
		return;
	char why[256];
	if (v == 0 && value_check(metric, NULL, v, why, sizeof why)) {
		/* lmbench prints "0.00 nanoseconds" for what is below its two decimals: no value was
		 * kept, so none is made up; the run's facts say what was left out */
		const char *was = kv_get(&P->cur->facts, "lmbench.below_resolution");
		char *n = xasprintf("%s%s%s", was ? was : "", was ? " " : "", metric);
		if (strlen(n) <= 4096)
			kv_set(&P->cur->facts, "lmbench.below_resolution", n);
		free(n);
		return;
	}
	struct result *r = NULL;
	/* A repeated line (two runs pasted together) becomes another sample of the same point;
	 * found by hash, a scan made a file of many blocks quadratic. */
	size_t i = pidx_find(&P->points, metric, params, x);
	if (i < P->cur->results.n)
		r = &P->cur->results.v[i];
	if (!r) {
		r = result_list_add(&P->cur->results, metric, params, x);
		pidx_add(&P->points, r->metric, r->params, r->x, P->cur->results.n - 1);
		const struct metric_def *d = metric_find(metric);
		r->unit = xstrdup(d ? d->unit : "");
		r->version = 0;
		r->value = v;
		if (info)
			r->info = xstrdup(info);
	}
	result_add_sample(r, (struct sample){ .value = v, .iters = iters, .elapsed_ns = NAN });
	P->block_results++;
}

/* ---- single lines, from the registry's templates ------------------------------------------ */

/* Match line against template t ("Select on {n} fd's: %v microseconds"): literal text must be
 * equal, {name} takes the characters up to the template's next literal character (never a blank),
 * %v a number. Params are written to params as "name=value ...". */
static int match_template(const char *t, const char *line, double *v, char *params, size_t plen)
{
	const char *l = line;
	int got_v = 0;
	size_t po = 0;
	params[0] = 0;
	while (*t) {
		if (t[0] == '%' && t[1] == 'v') {
			size_t n = parse_num(l, v);
			if (!n)
				return 0;
			l += n;
			t += 2;
			got_v = 1;
		} else if (t[0] == '%') {
			return 0; /* %x: series lines are not single results */
		} else if (t[0] == '{') {
			const char *e = strchr(t, '}');
			if (!e || e - t > 32)
				return 0;
			char stop = e[1] ? e[1] : 0;
			const char *s = l;
			while (*l && *l != ' ' && *l != '\t' && *l != stop)
				l++;
			if (l == s)
				return 0;
			int n = snprintf(params + po, plen - po, "%s%.*s=%.*s", po ? " " : "",
					 (int)(e - t - 1), t + 1, (int)(l - s), s);
			if (n < 0 || (size_t)n >= plen - po)
				return 0;
			po += (size_t)n;
			t = e + 1;
		} else {
			if (*t != *l)
				return 0;
			t++, l++;
		}
	}
	return got_v && *l == 0;
}

static int single_line(struct lmp *P, const char *line)
{
	char params[256], buf[LINE_MAX_];
	const char *info = NULL;
	double v;
	/* lmbench-3.0-a9 (Debian) printed some int64 lines as "uint64 ...": lmbench's summary reads
	 * only those into its uint64 table, so the label is kept with the result. */
	if (!strncmp(line, "uint64 ", 7)) {
		snprintf(buf, sizeof buf, "%s", line + 1);
		line = buf;
		info = "lmbench_label=uint64";
	}
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (!d->line || d->line[0] == '%' || d->line[0] != line[0])
			continue;
		if (match_template(d->line, line, &v, params, sizeof params)) {
			add_value(P, d->id, params, NAN, v, info, 0);
			return 1;
		}
	}
	/* lat_http: "Avg xfer: 3.2KB, 41.8KB in 117 millisecs, 355.90 KB/sec" */
	if (!strncmp(line, "Avg xfer", 8)) {
		const char *in = strstr(line, " in ");
		if (in && parse_num(in + 4, &v) && strstr(in, " millisec")) {
			add_value(P, metric_lmbench_id(LMB_HTTP), "", NAN, v, NULL, 0);
			return 1;
		}
	}
	/* cache: "L1 cache: 32768 bytes 1.23 nanoseconds 64 linesize 2.00 parallelism" */
	int level;
	double size, lat;
	if (sscanf(line, "L%d cache: %lf bytes %lf nanoseconds", &level, &size, &lat) == 3 &&
	    level > 0 && level < 10) {
		snprintf(params, sizeof params, "level=%d", level);
		add_value(P, metric_lmbench_id(LMB_CACHE_SIZE), params, NAN, size, NULL, 0);
		add_value(P, metric_lmbench_id(LMB_CACHE_LATENCY), params, NAN, lat, NULL, 0);
		return 1;
	}
	if (sscanf(line, "Memory latency: %lf nanoseconds", &lat) == 1) {
		add_value(P, metric_lmbench_id(LMB_CACHE_LATENCY), "level=mem", NAN, lat, NULL, 0);
		return 1;
	}
	return 0;
}

/* ---- series ------------------------------------------------------------------------------- */

static void start_series(struct lmp *P, enum series_kind k, const char *metric, const char *params)
{
	P->series = k;
	const struct metric_def *d = metric_find(metric);
	P->xkind = d ? (enum x_kind)d->x.lmbench : X_RAW;
	snprintf(P->smetric, sizeof P->smetric, "%s", metric);
	snprintf(P->sparams, sizeof P->sparams, "%s", params);
}

/* The row whose mode line (.lmbench_text.mode) line is; with line NULL, the first row that has
 * one (whose series a shared title starts before any mode line). NULL: none. */
static const struct metric_def *mode_row(const char *line)
{
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (d->lmbench_text.mode && d->lmbench_text.title && d->lmbench_text.param &&
		    (!line || !strcmp(line, d->lmbench_text.mode)))
			return d;
	}
	return NULL;
}

/* A title line that a row's .lmbench_text names: its text and a parameter's value (bw_tcp's
 * "Socket bandwidth using HOST", disk's), or a whole line meaning param=1 (bw_mem's aligned
 * bcopy). Starts the row's series; 1 when recognised. */
static int titled_line(struct lmp *P, const char *line)
{
	char params[256];
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		const struct metric_lmbench_text *t = &d->lmbench_text;
		if (!t->title || !t->param || t->mode)
			continue; /* a mode's series: title_line() */
		size_t pl = strlen(t->title);
		if (t->whole ? !strcmp(line, t->title)
			     : (!strncmp(line, t->title, pl) && line[pl] && !strchr(line + pl, ' '))) {
			if (t->whole)
				snprintf(params, sizeof params, "%s=1", t->param);
			else
				snprintf(params, sizeof params, "%s=%s", t->param, line + pl);
			start_series(P, S_XY, d->id, params);
			return 1;
		}
	}
	return 0;
}

/* A title line: starts a series (or sets lat_mem_rd's mode). 1 when recognised. */
static int title_line(struct lmp *P, const char *line)
{
	char params[256];
	double a, b;
	const struct metric_def *m = mode_row(line);
	if (m) {
		P->mode = m;
		P->series = S_NONE;
		return 1;
	}
	/* the series of the row the last mode line named (lat_mem_rd's "stride=N) */
	m = P->mode ? P->mode : mode_row(NULL);
	size_t tl = m ? strlen(m->lmbench_text.title) : 0;
	if (m && !strncmp(line, m->lmbench_text.title, tl) && num_token(line + tl, &a) &&
	    a == floor(a)) {
		snprintf(params, sizeof params, "%s=%.0f", m->lmbench_text.param, a);
		start_series(P, S_XY, m->id, params);
		return 1;
	}
	/* lat_ctx: "size=0k ovr=3.61 — the overhead, then "procs usecs" lines */
	if (!strncmp(line, "\"size=", 6) && metric_lmbench_id(LMB_CTX)) {
		size_t n = parse_num(line + 6, &a);
		if (n && line[6 + n] == 'k' && !strncmp(line + 7 + n, " ovr=", 5) &&
		    num_token(line + 12 + n, &b)) {
			snprintf(params, sizeof params, "size=%.0f", a);
			add_value(P, metric_lmbench_id(LMB_CTX_OVERHEAD), params, NAN, b, NULL, 0);
			start_series(P, S_CTX, metric_lmbench_id(LMB_CTX), params);
			return 1;
		}
	}
	if (!strcmp(line, "\"File system latency")) {
		start_series(P, S_FS, "", ""); /* its columns' rows say whose they are */
		return 1;
	}
	if (titled_line(P, line))
		return 1;
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (d->series_title && !strchr(d->series_title, '{') && !strcmp(line, d->series_title)) {
			start_series(P, S_XY, d->id, "");
			return 1;
		}
	}
	return 0;
}

/* The size in bytes behind a printed x (see enum x_kind). */
static double series_bytes(enum x_kind k, double x)
{
	if (k == X_MIB)
		return fmax(512, round(x * 1048576 / 512) * 512);
	double b = round(x * 1e6);
	if (k == X_MB && x >= 1) {
		/* "1.05" is 1 MiB: the nearest power of two when the printed value allows it */
		double p = exp2(round(log2(b)));
		if (fabs(p - b) <= 0.005e6 + 0.5)
			b = p;
	}
	return b;
}

/* The series' params for a point. The size is the abscissa (x), never part of a series'
 * identity: "stride=128" as lat_mem_rd's header says, "conflict=1" for bw_mem's aligned bcopy,
 * "line=L" for par_mem. */
static void size_params(struct lmp *P, char *out, size_t len)
{
	const char *line = kv_get(&P->cur->facts, "lmbench.LINE_SIZE");
	if (P->xkind == X_MIB)
		snprintf(out, len, "%.200s", P->sparams);
	else if (P->xkind == X_MB6 && line && atoi(line) > 0)
		snprintf(out, len, "line=%d", atoi(line));
	else if (P->xkind == X_MB6)
		out[0] = 0;
	else
		snprintf(out, len, "%s", P->sparams); /* bw_mem's conflict=1, or "" */
}

/* A line of numbers inside a series. 1 when it was one. */
static int series_line(struct lmp *P, const char *line)
{
	double x, y, c, d;
	const char *p;
	char params[256];
	switch (P->series) {
	case S_XY:
	case S_CTX:
		/* "x y" with anything after (bw_tcp adds "MB/sec") */
		if (!(p = num_token(line, &x)) || !num_token(p, &y))
			return 0;
		if (P->xkind != X_RAW && x > 0 && x < 1e9) {
			double bytes = series_bytes(P->xkind, x);
			x = bytes / (P->xkind == X_MIB ? 1048576.0 : 1e6);
			size_params(P, params, sizeof params);
			add_value(P, P->smetric, params, x, y, NULL, 0);
		} else {
			add_value(P, P->smetric, P->sparams, x, y, NULL, 0);
		}
		return 1;
	case S_FS: {
		/* "<k>k <files> <creates/s> <deletes/s>", tabs in lmbench's output, blanks in posts */
		size_t n = parse_num(line, &x);
		if (!n || line[n] != 'k' || !(p = num_token(line + n + 1, &y)) ||
		    !(p = num_token(p, &c)) || !num_token(p, &d))
			return 0;
		snprintf(params, sizeof params, "size=%.0f", x * 1024);
		uint64_t files = y > 0 && y < 1e18 ? (uint64_t)y : 0;
		add_value(P, metric_lmbench_id(LMB_FS_CREATE), params, NAN, c, NULL, files);
		add_value(P, metric_lmbench_id(LMB_FS_DELETE), params, NAN, d, NULL, files);
		return 1;
	}
	default:
		return 0;
	}
}

/* ---- headers and blocks ------------------------------------------------------------------- */

static const char *months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				"Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

/* "Mon Nov 30 03:45:44 UTC 2026": 1 when s is a date as date(1) prints it, with *iso set to the
 * ISO 8601 form when the zone is UTC (NULL otherwise: other zones cannot be converted safely). */
static int date_parse(const char *s, char **iso)
{
	char wd[8], mon[8], zone[8];
	int day, hh, mm, ss, year;
	*iso = NULL;
	if (sscanf(s, "%7s %7s %d %d:%d:%d %7s %d", wd, mon, &day, &hh, &mm, &ss, zone, &year) != 8)
		return 0;
	for (int m = 0; m < 12; m++)
		if (!strcmp(mon, months[m]) && day >= 1 && day <= 31 && hh >= 0 && hh < 24 &&
		    mm >= 0 && mm < 60 && ss >= 0 && ss <= 60 && year > 1900 && year < 10000) {
			if (!strcmp(zone, "UTC") || !strcmp(zone, "GMT"))
				*iso = xasprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", year, m + 1, day,
						 hh, mm, ss);
			return 1;
		}
	return 0;
}

static void header_line(struct lmp *P, const char *line, size_t len)
{
	struct run *r = P->cur;
	char key[128], val[LINE_MAX_];
	const char *colon = memchr(line, ':', len);
	size_t kl = colon ? (size_t)(colon - line - 1) : 0;
	int keyok = colon && kl > 0 && kl < sizeof key - 16 && colon[1] == ' ';
	for (size_t i = 1; keyok && i <= kl; i++)
		if (!isalnum((unsigned char)line[i]) && line[i] != '_' && line[i] != ' ')
			keyok = 0;
	if (keyok) {
		snprintf(key, sizeof key, "lmbench.%.*s", (int)kl, line + 1);
		size_t vl = len - kl - 4; /* "[" KEY ": " ... "]" */
		snprintf(val, sizeof val, "%.*s", (int)vl, colon + 2);
		while (vl > 0 && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
			val[--vl] = 0;
		const char *old = kv_get(&r->facts, key);
		if (old) { /* [net: ...] and [mount: ...] repeat: keep every one */
			char *both = xasprintf("%s; %s", old, val);
			kv_set(&r->facts, key, both);
			free(both);
		} else {
			kv_set(&r->facts, key, val);
		}
		if (!strcmp(key, "lmbench.CONDITIONS"))
			run_conditions_back(r, val);
		if (!strcmp(key, "lmbench.HOSTNAME") && *val) {
			free(r->host);
			r->host = xstrdup(val);
		}
		return;
	}
	/* "[date]" at the start and the end of a run, "[ uptime ]" after the first. */
	snprintf(val, sizeof val, "%.*s", (int)(len - 2), line + 1);
	if (strstr(val, " up ")) {
		kv_set(&r->facts, "lmbench.uptime", val);
		return;
	}
	char *iso;
	if (!date_parse(val, &iso))
		return; /* "[... omitted ...]" and other bracketed prose */
	if (P->ndates++ == 0) {
		kv_set(&r->facts, "lmbench.date", val);
		if (iso)
			r->started = iso, iso = NULL;
	} else {
		kv_set(&r->facts, "lmbench.end_date", val);
		if (iso) {
			free(r->ended);
			r->ended = iso, iso = NULL;
		}
	}
	free(iso);
}

/* Whether cur is a block this file held already (the same content uid): a file of one block
 * pasted many times is one run, and costs the memory of one (issue 34: 15x the file). */
static int repeated_block(struct lmp *P)
{
	run_set_content_uid(P->cur);
	for (size_t i = 0; i < P->nruns; i++)
		if (P->runs[i]->uid && !strcmp(P->runs[i]->uid, P->cur->uid))
			return 1;
	return 0;
}

static void end_block(struct lmp *P)
{
	if (!P->cur)
		return;
	if (P->block_results && !repeated_block(P))
		run_array_push(&P->runs, &P->nruns, P->cur);
	else
		run_free(P->cur);
	P->cur = NULL;
	pidx_free(&P->points);
	pidx_init(&P->points, PIDX_EXACT);
}

static void begin_block(struct lmp *P, const char *line, size_t len)
{
	end_block(P);
	P->blocks++;
	struct run *r = run_new();
	P->cur = r;
	P->block_results = 0;
	P->mode = NULL;
	P->series = S_NONE;
	P->ndates = 0;
	r->profile = xstrdup("lmbench");
	r->source = xasprintf("lmbench3:%s", P->name);
	/* "[lmbench3.0 results for Linux vm 6.18.44 #1 SMP ... x86_64 GNU/Linux]" */
	const char *u = strstr(line, " results for ");
	char uname[LINE_MAX_];
	if (u) {
		u += 13;
		size_t ul = len - (size_t)(u - line);
		if (ul > 0 && u[ul - 1] == ']')
			ul--;
		snprintf(uname, sizeof uname, "%.*s", (int)ul, u);
	} else {
		uname[0] = 0;
	}
	kv_set(&r->facts, "uname", uname);
	const char *dot = line + 9; /* "[lmbench3" */
	char ver[16];
	snprintf(ver, sizeof ver, "3%.*s", (int)strcspn(dot, " ]"), dot);
	kv_set(&r->facts, "lmbench.format", ver);
	/* uname -a: sysname nodename release version... ; lmbench's summary shows fields 0 and 2 */
	char *tok[3] = { 0 }, *save = NULL;
	char *p = strtok_r(uname, " \t", &save);
	for (int i = 0; p && i < 3; i++, p = strtok_r(NULL, " \t", &save))
		tok[i] = p;
	if (tok[0])
		kv_set(&r->facts, "os", tok[0]);
	if (tok[1]) {
		kv_set(&r->facts, "hostname", tok[1]);
		r->host = xstrdup(tok[1]);
	}
	if (tok[2])
		kv_set(&r->facts, "kernel", tok[2]);
}

static void do_line(struct lmp *P, const char *raw, size_t len)
{
	char line[LINE_MAX_];
	while (len > 0 && isspace((unsigned char)raw[len - 1]))
		len--;
	if (len >= sizeof line)
		return; /* no lmbench line is that long: prose, skipped */
	memcpy(line, raw, len);
	line[len] = 0;
	if (!strncmp(line, "[lmbench3.", 10)) {
		begin_block(P, line, len);
		return;
	}
	if (!P->cur)
		return; /* text before the first block */
	if (len == 0) {
		P->series = S_NONE;
		return;
	}
	if (P->series != S_NONE && series_line(P, line))
		return;
	if (line[0] == '[' && line[len - 1] == ']' && len >= 2) {
		header_line(P, line, len);
		P->series = S_NONE;
		return;
	}
	if (title_line(P, line))
		return;
	if (single_line(P, line)) {
		P->series = S_NONE;
		return;
	}
	/* anything else is skipped, as lmbench's reader does; a series goes on after it */
}

void run_array_push(struct run ***runs, size_t *n, struct run *r)
{
	*runs = xrealloc(*runs, (*n + 1) * sizeof **runs);
	(*runs)[(*n)++] = r;
}

int lmbench_parse(const char *buf, size_t len, const char *name, struct run ***runs, size_t *n,
		  char *err, size_t errlen)
{
	struct lmp P = { .name = name };
	pidx_init(&P.points, PIDX_EXACT);
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file", name);
		return -1;
	}
	if (memchr(buf, 0, len)) {
		snprintf(err, errlen, "%s: binary data, not a results file", name);
		return -1;
	}
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		do_line(&P, p, l);
		p += l + (nl ? 1 : 0);
	}
	end_block(&P);
	pidx_free(&P.points);
	if (!P.nruns) {
		if (!P.blocks)
			snprintf(err, errlen, "%s: not a results file (no \"[lmbench3.0 results for ...]\" "
				 "header, not plumb JSON)", name);
		else
			snprintf(err, errlen, "%s: no recognisable lmbench result", name);
		free(P.runs);
		return -1;
	}
	for (size_t i = 0; i < P.nruns; i++)
		run_array_push(runs, n, P.runs[i]);
	free(P.runs);
	return 0;
}
