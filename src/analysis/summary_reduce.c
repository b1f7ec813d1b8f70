/*
 * summary_reduce.c — a run reduced to the figures lmbench's summary tables show (summary_row.h),
 * as lmbench's getsummary reads a results file.
 *
 * Each metric row names the cells it feeds and how each reads its results (.cells,
 * core/summary_cells.h); figures[] is those declarations gathered from the registry in
 * reading_order[] (the order `summary --cells` and the noise notes list the results in), so
 * this file names no metric. Imported lmbench runs
 * are reduced exactly as getsummary reads its file (the int64 table only from "uint64" lines,
 * Mhz/cache line/copies from the [MHZ:], [LINE_SIZE:], [SYNC_MAX:] headers, "Main mem" at the
 * largest size), so the row equals lmbench's own. plumb's runs fill every column from plumb's
 * metrics: the int64 table from lat_ops.int64_*, Mhz from the measured `mhz` fact, the line size
 * measured by `line`, "Page Fault" as the time per fault really taken (lat_pagefault's
 * us_per_fault: a touch is not always a fault), and "Main mem" / "Rand mem" at the first size of
 * at least four times the last-level cache, else the largest (summary.c says what they are).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary_row.h"
#include "core/escape.h"
#include "core/metrics.h"
#include "core/result.h"

/* ---- finding figures in a run ------------------------------------------------------------- */

/* Does params hold every "key=value" of query? "!key" in query: key absent (or 0). */
static int params_match(const char *params, const char *query)
{
	char q[256], buf[128];
	snprintf(q, sizeof q, "%s", query ? query : "");
	char *save = NULL;
	for (char *t = strtok_r(q, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (t[0] == '!') {
			if (param_get(params, t + 1, buf, sizeof buf) && strcmp(buf, "0") != 0)
				return 0;
			continue;
		}
		char *eq = strchr(t, '=');
		if (!eq)
			continue;
		*eq = 0;
		if (!param_get(params, t, buf, sizeof buf) || strcmp(buf, eq + 1) != 0)
			return 0;
	}
	return 1;
}

static int info_has(const char *info, const char *kv)
{
	if (!info)
		return 0;
	size_t l = strlen(kv);
	for (const char *p = info; (p = strstr(p, kv)); p += l)
		if ((p == info || p[-1] == ' ') && (p[l] == 0 || p[l] == ' '))
			return 1;
	return 0;
}

static double ok(double v) { return isnan(v) ? -1 : v; }

/* The value of p for a cell of row w, remembering p in w so that noisy cells can be named
 * under the tables. */
static double take(struct row *w, const struct result *p)
{
	if (w->nused < (int)(sizeof w->used / sizeof w->used[0]))
		w->used[w->nused++] = p;
	return ok(p->value);
}

/* The first result of metric matching query (file order: what lmbench's reader keeps). */

static const struct result *find(const struct run *r, const char *metric, const char *query)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query))
			return p;
	}
	return NULL;
}

static double val(struct row *w, const struct run *r, const char *metric, const char *query)
{
	const struct result *p = find(r, metric, query);
	return p ? take(w, p) : -1;
}

/* A series' point at the largest x (lmbench's "last line of the block"). */
static double last(struct row *w, const struct run *r, const char *metric, const char *query)
{
	const struct result *best = NULL;
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query) && !isnan(p->x) &&
		    (!best || p->x >= best->x))
			best = p;
	}
	return best ? take(w, best) : -1;
}

/* The point of a series at x (x_same: MiB sizes printed with 5 decimals by lmbench). */
static double at(struct row *w, const struct run *r, const char *metric, const char *query,
		 double x)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query) && x_same(p->x, x))
			return take(w, p);
	}
	return -1;
}

/* The point of a series at the first x >= min_x, else at the largest x. */
static double past(struct row *w, const struct run *r, const char *metric, const char *query,
		   double min_x)
{
	const struct result *best = NULL;
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (strcmp(p->metric, metric) || !params_match(p->params, query) || isnan(p->x) ||
		    p->x < min_x)
			continue;
		if (!best || p->x < best->x)
			best = p;
	}
	return best ? take(w, best) : last(w, r, metric, query);
}

/* The stride of lat_mem_rd series to read: want if measured, else the nearest one. */
static void stride_query(const struct run *r, const char *metric, int want, char *q, size_t ql)
{
	long best = -1;
	char buf[32];
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (strcmp(p->metric, metric) || !param_get(p->params, "stride", buf, sizeof buf))
			continue;
		long s = atol(buf);
		if (best < 0 || labs(s - want) < labs(best - want))
			best = s;
	}
	snprintf(q, ql, "stride=%ld", best < 0 ? (long)want : best);
}

/* The leading number of a fact (perl's numeric conversion: "" → 0). -1 when absent. */
static double fact_num(const struct run *r, const char *key)
{
	const char *v = kv_get(&r->facts, key);
	if (!v)
		return -1;
	while (*v == ' ')
		v++;
	return strtod(v, NULL);
}

static double fs_us(double rate) { return rate > 0 ? 1e6 / rate : -1; }

/* cache_l1d, cache_l2, cache_l3 ...: a level's size (not its _source, _line or _shared). */
static int level_size_key(const char *k)
{
	if (strncmp(k, "cache_l", 7) != 0)
		return 0;
	const char *p = k + 7;
	size_t d = strspn(p, "0123456789");
	p += d;
	if (*p == 'd')
		p++;
	return d > 0 && *p == 0;
}

/* The last-level cache in MiB from the run's facts: its effective size when a latency knee
 * measured it (cache_llc_effective), else the largest level's (cache_l2, cache_l3, ...; not
 * their _source, _line, _shared facts); 0 if unknown. */
static double llc_mib(const struct run *r)
{
	const char *eff = kv_get(&r->facts, "cache_llc_effective");
	if (eff && strtod(eff, NULL) > 0)
		return strtod(eff, NULL) / 1048576.0;
	double best = 0;
	for (size_t i = 0; i < r->facts.n; i++) {
		if (level_size_key(r->facts.v[i].key)) {
			double b = strtod(r->facts.v[i].val, NULL);
			if (b > best)
				best = b;
		}
	}
	return best / 1048576.0;
}

/* A cell as a row declares it (core/summary_cells.h), with the row: what reduce() reads. */
struct figure {
	const struct metric_def *def;
	const struct metric_cell *c;
	int seq; /* its place in the registry's order, which breaks ties (qsort is not stable) */
};

/* The order the cells are read in, which is the order their results are listed in under the
 * tables and by `summary --cells`: lmbench's layout, the integer and int64 (float and double)
 * operations alternating. SUM_LOAD comes from the run's facts and SUM_IO from two cells. */
static const enum summary_cell reading_order[] = {
	SUM_MHZ, SUM_LINE, SUM_TLB, SUM_MEMPAR, SUM_SYSCALL, SUM_READ, SUM_WRITE, SUM_STAT,
	SUM_OPENCLOSE, SUM_TCPSEL, SUM_SIGINST, SUM_SIGCATCH, SUM_FORK, SUM_EXEC, SUM_SH,
	SUM_INT0, SUM_I64_0, SUM_INT0 + 1, SUM_I64_0 + 1, SUM_INT0 + 2, SUM_I64_0 + 2,
	SUM_INT0 + 3, SUM_I64_0 + 3, SUM_INT0 + 4, SUM_I64_0 + 4,
	SUM_FLT0, SUM_DBL0, SUM_FLT0 + 1, SUM_DBL0 + 1, SUM_FLT0 + 2, SUM_DBL0 + 2,
	SUM_FLT0 + 3, SUM_DBL0 + 3,
	SUM_CTX0_2, SUM_CTX16_2, SUM_CTX64_2, SUM_CTX16_8, SUM_CTX64_8, SUM_CTX16_16,
	SUM_CTX64_16,
	SUM_PIPE, SUM_UNIX, SUM_UDP, SUM_RPCUDP, SUM_TCP, SUM_RPCTCP, SUM_CONNECT,
	SUM_R_UDP, SUM_R_RPCUDP, SUM_R_TCP, SUM_R_RPCTCP, SUM_R_CONNECT,
	SUM_FS_C0, SUM_FS_D0, SUM_FS_C10, SUM_FS_D10, SUM_MMAP, SUM_PROT, SUM_PAGEFAULT,
	SUM_FDSEL, SUM_BW_PIPE, SUM_BW_UNIX, SUM_BW_TCP, SUM_REREAD, SUM_MMAPREAD,
	SUM_BCOPY_LIBC, SUM_BCOPY_HAND, SUM_MEMRD, SUM_MEMWR,
	SUM_L1, SUM_L2, SUM_MEM, SUM_RND,
};
#define NREAD (sizeof reading_order / sizeof reading_order[0])

/* Every row's cells in reading order; within a cell by how it is read (a cache level's
 * latency before a walk's point), then in the registry's order. Built once; a cell is declared
 * once per way of reading it (tests/unit/metrics_test.c), so the table holds them all. */
static struct figure figures[SUM_N * READ_KINDS];
static size_t nfigures;
static pthread_once_t figures_once = PTHREAD_ONCE_INIT;
static int cell_rank[SUM_N]; /* a cell's place in reading_order[], 1-based; 0: read by none */

static int figure_cmp(const void *a, const void *b)
{
	const struct figure *x = a, *y = b;
	int d = cell_rank[x->c->cell] - cell_rank[y->c->cell];
	if (!d)
		d = (int)x->c->read - (int)y->c->read;
	return d ? d : x->seq - y->seq;
}

static void build_figures(void)
{
	for (size_t k = 0; k < NREAD; k++)
		cell_rank[reading_order[k]] = (int)k + 1;
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		for (int k = 0; k < METRIC_CELLS && d->cells[k].read; k++) {
			const struct metric_cell *c = &d->cells[k];
			if (!cell_rank[c->cell] || nfigures == sizeof figures / sizeof figures[0])
				continue;
			figures[nfigures] = (struct figure){ d, c, (int)nfigures };
			nfigures++;
		}
	}
	qsort(figures, nfigures, sizeof figures[0], figure_cmp);
}

/* Mhz and cache line from an lmbench file's [MHZ:] and [LINE_SIZE:] headers; in plumb runs
 * the row's run fact (the measured `mhz`), else its measurement. */
static double header_cell(struct row *w, const struct run *r, const struct metric_def *d, int lm)
{
	if (lm) {
		/* getsummary: field 1 of the [MHZ: ...] line, "]" removed */
		char key[64];
		if (!d->lmbench_text.header)
			return -1;
		snprintf(key, sizeof key, "lmbench.%s", d->lmbench_text.header);
		return fact_num(r, key);
	}
	double v = d->run_fact ? fact_num(r, d->run_fact) : -1;
	return v >= 0 ? v : val(w, r, d->id, "");
}

/* Cache line and load (copies) when no row gave them: plumb runs take the line size the run
 * used, else sysfs's; the load is lmbench's [SYNC_MAX:] header, or plumb's "copies" (--copies
 * N), the command line's "opt.copies", else 1. */
static void fill_facts(const struct run *r, struct row *w, int lm)
{
	double *v = w->v;
	if (lm) {
		v[SUM_LOAD] = fact_num(r, "lmbench.SYNC_MAX");
		return;
	}
	if (v[SUM_LINE] < 0)
		v[SUM_LINE] = fact_num(r, "line_size");
	if (v[SUM_LINE] < 0)
		v[SUM_LINE] = fact_num(r, "cache_line");
	v[SUM_LOAD] = fact_num(r, "copies");
	if (v[SUM_LOAD] < 0)
		v[SUM_LOAD] = fact_num(r, "opt.copies");
	if (v[SUM_LOAD] < 0)
		v[SUM_LOAD] = 1;
}

/* A lat_mem_rd walk's cell: for lmbench files the series of the stride in query at x, or its
 * last point (x 0: main memory); for plumb runs the series of the stride nearest it, at x or
 * at the first size of four times the last-level cache (llc MiB), else its largest. */
static double walk(struct row *w, const struct run *r, const char *id, const char *query,
		   double x, int lm, double llc)
{
	if (lm)
		return x > 0 ? at(w, r, id, query, x) : last(w, r, id, query);
	char buf[32], q[64];
	long want = param_get(query, "stride", buf, sizeof buf) ? atol(buf) : 0;
	stride_query(r, id, (int)want, q, sizeof q);
	return x > 0 ? at(w, r, id, q, x) : past(w, r, id, q, llc > 0 ? 4 * llc : INFINITY);
}

/* Whether metric feeds one of the table's remote figures (READ_REMOTE). */
static int remote_metric(const char *metric)
{
	for (size_t i = 0; i < nfigures; i++)
		if (figures[i].c->read == READ_REMOTE && !strcmp(figures[i].def->id, metric))
			return 1;
	return 0;
}

/* The first host, not this one, of a result that feeds a remote figure, as a params query
 * ("" if none). */
static void remote_query(const struct run *r, char *rh, size_t len)
{
	char hb[128];
	rh[0] = 0;
	for (size_t i = 0; i < r->results.n && !rh[0]; i++) {
		const struct result *p = &r->results.v[i];
		if (remote_metric(p->metric) &&
		    param_get(p->params, "host", hb, sizeof hb) && strcmp(hb, "localhost") &&
		    strcmp(hb, "127.0.0.1") && strcmp(hb, "::1"))
			snprintf(rh, len, "host=%s", hb);
	}
}

/* lmbench's summary reads only "uint64 ..." lines of its files, never what lat_ops prints. */
static double int64_op(struct row *w, const struct run *r, const char *metric, int lm)
{
	for (size_t k = 0; k < r->results.n; k++)
		if (!strcmp(r->results.v[k].metric, metric) &&
		    (!lm || info_has(r->results.v[k].info, "lmbench_label=uint64")))
			return take(w, &r->results.v[k]);
	return -1;
}

/* lat_pagefault's figure; for plumb runs the cost of a fault really taken (bench/fs/
 * lat_pagefault.c: us_per_fault), when the run has it. */
static double page_fault(struct row *w, const struct run *r, const char *id, const char *query,
			 int lm)
{
	double v = val(w, r, id, query);
	if (lm || !(v > 0))
		return v;
	char buf[32], *end;
	const struct result *p = find(r, id, query);
	if (p && param_get(p->info, "us_per_fault", buf, sizeof buf)) {
		double f = strtod(buf, &end);
		if (end != buf && !*end && f > 0)
			v = f;
	}
	return v;
}

/* The value of figure g in run r; rh the remote host's query ("" without one). */
static double read_cell(struct row *w, const struct run *r, const struct figure *g, int lm,
			const char *rh, double llc)
{
	const char *id = g->def->id, *q = g->c->params ? g->c->params : "";
	switch (g->c->read) {
	case READ_LEVEL: return lm ? -1 : val(w, r, id, q);
	case READ_FIRST: return val(w, r, id, q);
	case READ_LAST_X: return last(w, r, id, q);
	case READ_AT_X: return at(w, r, id, q, g->c->x);
	case READ_RATE_US: return fs_us(val(w, r, id, q));
	case READ_UINT64: return int64_op(w, r, id, lm);
	case READ_REMOTE: return rh[0] ? val(w, r, id, rh) : -1;
	case READ_FAULT: return page_fault(w, r, id, q, lm);
	case READ_HEADER: return header_cell(w, r, g->def, lm);
	case READ_WALK: return walk(w, r, id, q, g->c->x, lm, llc);
	case READ_NONE:
	case READ_KINDS: break;
	}
	return -1;
}

static void reduce(const struct run *r, struct row *w)
{
	int lm = (r->source && !strncmp(r->source, "lmbench3", 8)) ||
		 (r->profile && !strcmp(r->profile, "lmbench"));
	const char *os = kv_get(&r->facts, "os"), *kern = kv_get(&r->facts, "kernel");
	/* the row's texts come from the run: escaped once here for every table and note */
	char t[sizeof w->os];
	term_str(r->host ? r->host : "", w->host, sizeof w->host);
	snprintf(t, sizeof t, "%s %s", os ? os : "", kern ? kern : "");
	term_str(t, w->os, sizeof w->os);
	const char *d = r->label;
	if (!d && lm)
		d = kv_get(&r->facts, "lmbench.OS");
	term_str(d ? d : r->profile ? r->profile : "", w->desc, sizeof w->desc);

	for (int i = 0; i < SUM_N; i++)
		w->v[i] = -1;
	char rh[160];
	remote_query(r, rh, sizeof rh);
	double llc = lm ? 0 : llc_mib(r);
	/* a cell that two rows feed takes the first that has it (a cache level's latency, else
	 * the walk's point) */
	for (size_t i = 0; i < nfigures; i++) {
		const struct figure *g = &figures[i];
		double *v = &w->v[g->c->cell];
		if (*v >= 0)
			continue;
		*v = read_cell(w, r, g, lm, rh, llc);
		if (!lm && *v > 0 && g->c->cell == SUM_MEM)
			w->mem_res = w->used[w->nused - 1];
		if (!lm && *v > 0 && g->c->cell == SUM_RND)
			w->rnd_res = w->used[w->nused - 1];
	}
	fill_facts(r, w, lm);
	/* "null I/O": lmbench's mean of read and write; a missing read gives the write alone, a
	 * missing write counts as -1 */
	double *v = w->v;
	v[SUM_IO] = v[SUM_READ] == -1 ? v[SUM_WRITE] : (v[SUM_READ] + v[SUM_WRITE]) / 2;
}

struct row *summary_reduce_all(struct run *const *runs, size_t n)
{
	pthread_once(&figures_once, build_figures);
	struct row *rows = calloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; rows && i < n; i++)
		reduce(runs[i], &rows[i]);
	return rows;
}
