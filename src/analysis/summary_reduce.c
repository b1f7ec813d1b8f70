/*
 * summary_reduce.c — a run reduced to the figures lmbench's summary tables show (summary_row.h),
 * as lmbench's getsummary reads a results file.
 *
 * figures[] says which metric, parameters and x feed each figure, in the order a row reads them
 * (the order `summary --cells` and the noise notes list the results in). Imported lmbench runs
 * are reduced exactly as getsummary reads its file (the int64 table only from "uint64" lines,
 * Mhz/cache line/copies from the [MHZ:], [LINE_SIZE:], [SYNC_MAX:] headers, "Main mem" at the
 * largest size), so the row equals lmbench's own. plumb's runs fill every column from plumb's
 * metrics: the int64 table from lat_ops.int64_*, Mhz from the measured `mhz` fact, the line size
 * measured by `line`, "Page Fault" as the time per fault really taken (lat_pagefault's
 * us_per_fault: a touch is not always a fault), and "Main mem" / "Rand mem" at the first size of
 * at least four times the last-level cache, else the largest (summary.c says what they are).
 */
#include <math.h>
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

/* How a figure is read. */
enum how {
	VAL,      /* the first result of metric matching params (file order) */
	LAST,     /* the point at the largest x */
	AT,       /* the point at x */
	RATE_US,  /* VAL, a rate per second, as microseconds per operation */
	I64,      /* VAL from an lmbench file's "uint64" lines only (getsummary reads those) */
	REMOTE,   /* VAL at the run's first host that is not localhost; missing without one */
	FAULT,    /* VAL; for plumb runs the time per fault really taken, when recorded */
	FACTS,    /* Mhz, cache line, load: from the run's facts (fill_facts) */
	MEMORY,   /* L1 $, L2 $, Main mem, Rand mem: lat_mem_rd and cache (fill_memory) */
};

struct figure {
	enum fig fig;
	enum how how;
	const char *metric, *params; /* params: "key=value" all held, "!key" absent */
	double x;
};

static const struct figure figures[] = {
	{ F_MHZ, FACTS, NULL, NULL, 0 },
	{ F_TLB, VAL, "tlb.pages", "", 0 },
	{ F_MEMPAR, LAST, "par_mem.parallelism", "", 0 },
	{ F_SYSCALL, VAL, "lat_syscall.null", "", 0 },
	{ F_READ, VAL, "lat_syscall.read", "", 0 },
	{ F_WRITE, VAL, "lat_syscall.write", "", 0 },
	{ F_STAT, VAL, "lat_syscall.stat", "", 0 },
	{ F_OPENCLOSE, VAL, "lat_syscall.open", "", 0 },
	{ F_TCPSEL, VAL, "lat_select.tcp", "n=100", 0 },
	{ F_SIGINST, VAL, "lat_sig.install", "", 0 },
	{ F_SIGCATCH, VAL, "lat_sig.catch", "", 0 },
	{ F_FORK, VAL, "lat_proc.fork", "", 0 },
	{ F_EXEC, VAL, "lat_proc.exec", "", 0 },
	{ F_SH, VAL, "lat_proc.shell", "", 0 },
	{ F_INT0 + 0, VAL, "lat_ops.integer_bit", "", 0 },
	{ F_I64_0 + 0, I64, "lat_ops.int64_bit", "", 0 },
	{ F_INT0 + 1, VAL, "lat_ops.integer_add", "", 0 },
	{ F_I64_0 + 1, I64, "lat_ops.int64_add", "", 0 },
	{ F_INT0 + 2, VAL, "lat_ops.integer_mul", "", 0 },
	{ F_I64_0 + 2, I64, "lat_ops.int64_mul", "", 0 },
	{ F_INT0 + 3, VAL, "lat_ops.integer_div", "", 0 },
	{ F_I64_0 + 3, I64, "lat_ops.int64_div", "", 0 },
	{ F_INT0 + 4, VAL, "lat_ops.integer_mod", "", 0 },
	{ F_I64_0 + 4, I64, "lat_ops.int64_mod", "", 0 },
	{ F_FLT0 + 0, VAL, "lat_ops.float_add", "", 0 },
	{ F_DBL0 + 0, VAL, "lat_ops.double_add", "", 0 },
	{ F_FLT0 + 1, VAL, "lat_ops.float_mul", "", 0 },
	{ F_DBL0 + 1, VAL, "lat_ops.double_mul", "", 0 },
	{ F_FLT0 + 2, VAL, "lat_ops.float_div", "", 0 },
	{ F_DBL0 + 2, VAL, "lat_ops.double_div", "", 0 },
	{ F_FLT0 + 3, VAL, "lat_ops.float_bogomflops", "", 0 },
	{ F_DBL0 + 3, VAL, "lat_ops.double_bogomflops", "", 0 },
	{ F_CTX0_2, AT, "lat_ctx.switch", "size=0", 2 },
	{ F_CTX16_2, AT, "lat_ctx.switch", "size=16", 2 },
	{ F_CTX64_2, AT, "lat_ctx.switch", "size=64", 2 },
	{ F_CTX16_8, AT, "lat_ctx.switch", "size=16", 8 },
	{ F_CTX64_8, AT, "lat_ctx.switch", "size=64", 8 },
	{ F_CTX16_16, AT, "lat_ctx.switch", "size=16", 16 },
	{ F_CTX64_16, AT, "lat_ctx.switch", "size=64", 16 },
	{ F_PIPE, VAL, "lat_pipe.latency", "", 0 },
	{ F_UNIX, VAL, "lat_unix.latency", "", 0 },
	{ F_UDP, VAL, "lat_udp.latency", "host=localhost", 0 },
	{ F_RPCUDP, VAL, "lat_rpc.udp", "host=localhost", 0 },
	{ F_TCP, VAL, "lat_tcp.latency", "host=localhost", 0 },
	{ F_RPCTCP, VAL, "lat_rpc.tcp", "host=localhost", 0 },
	{ F_CONNECT, VAL, "lat_connect.latency", "host=localhost", 0 },
	{ F_R_UDP, REMOTE, "lat_udp.latency", NULL, 0 },
	{ F_R_RPCUDP, REMOTE, "lat_rpc.udp", NULL, 0 },
	{ F_R_TCP, REMOTE, "lat_tcp.latency", NULL, 0 },
	{ F_R_RPCTCP, REMOTE, "lat_rpc.tcp", NULL, 0 },
	{ F_R_CONNECT, REMOTE, "lat_connect.latency", NULL, 0 },
	{ F_FS_C0, RATE_US, "lat_fs.create", "size=0", 0 },
	{ F_FS_D0, RATE_US, "lat_fs.delete", "size=0", 0 },
	{ F_FS_C10, RATE_US, "lat_fs.create", "size=10240", 0 },
	{ F_FS_D10, RATE_US, "lat_fs.delete", "size=10240", 0 },
	{ F_MMAP, LAST, "lat_mmap.latency", "", 0 },
	{ F_PROT, VAL, "lat_sig.prot", "", 0 },
	{ F_PAGEFAULT, FAULT, "lat_pagefault.latency", "", 0 },
	{ F_FDSEL, VAL, "lat_select.file", "n=100", 0 },
	{ F_BW_PIPE, VAL, "bw_pipe.bandwidth", "", 0 },
	{ F_BW_UNIX, VAL, "bw_unix.bandwidth", "", 0 },
	{ F_BW_TCP, LAST, "bw_tcp.bandwidth", "host=localhost", 0 },
	{ F_REREAD, LAST, "bw_file_rd.io_only", "", 0 },
	{ F_MMAPREAD, LAST, "bw_mmap_rd.mmap_only", "", 0 },
	{ F_BCOPY_LIBC, LAST, "bw_mem.bcopy", "!conflict", 0 },
	{ F_BCOPY_HAND, LAST, "bw_mem.fcp", "", 0 },
	{ F_MEMRD, LAST, "bw_mem.frd", "", 0 },
	{ F_MEMWR, LAST, "bw_mem.fwr", "", 0 },
	{ F_L1, MEMORY, NULL, NULL, 0 },
};

/* Mhz, cache line and load (copies): an lmbench file's headers, else plumb's measurements and
 * facts. */
static void fill_facts(const struct run *r, struct row *w, int lm)
{
	double *v = w->v;
	if (lm) {
		/* getsummary: field 1 of the [MHZ: ...] line, "]" removed */
		v[F_MHZ] = fact_num(r, "lmbench.MHZ");
		v[F_LINE] = fact_num(r, "lmbench.LINE_SIZE");
		v[F_LOAD] = fact_num(r, "lmbench.SYNC_MAX");
		return;
	}
	v[F_MHZ] = fact_num(r, "mhz");
	const struct metric_def *mhz = metric_of_run_fact("mhz");
	if (v[F_MHZ] < 0 && mhz)
		v[F_MHZ] = val(w, r, mhz->id, ""); /* a tool's own file: the measurement itself */
	/* the line size measured by line, else what the run used, else sysfs's */
	v[F_LINE] = val(w, r, "line.bytes", "");
	if (v[F_LINE] < 0)
		v[F_LINE] = fact_num(r, "line_size");
	if (v[F_LINE] < 0)
		v[F_LINE] = fact_num(r, "cache_line");
	/* plumb run records "copies" (--copies N), the command line as "opt.copies" */
	v[F_LOAD] = fact_num(r, "copies");
	if (v[F_LOAD] < 0)
		v[F_LOAD] = fact_num(r, "opt.copies");
	if (v[F_LOAD] < 0)
		v[F_LOAD] = 1;
}

/* L1 $, L2 $, Main mem, Rand mem: for lmbench files lat_mem_rd's stride-128 walk at 1 KiB and
 * 128 KiB, its last point, and the random walk's last point; for plumb runs the cache tool's
 * levels (else the walk at 1 KiB and 128 KiB) and both walks at 4 x the last-level cache. */
static void fill_memory(const struct run *r, struct row *w, int lm)
{
	double *v = w->v;
	char q[64];
	if (lm) {
		v[F_L1] = at(w, r, "lat_mem_rd.seq", "stride=128", 0.00098);
		v[F_L2] = at(w, r, "lat_mem_rd.seq", "stride=128", 0.125);
		v[F_MEM] = last(w, r, "lat_mem_rd.seq", "stride=128");
		v[F_RND] = last(w, r, "lat_mem_rd.rand", "stride=16");
		return;
	}
	stride_query(r, "lat_mem_rd.seq", 128, q, sizeof q);
	v[F_L1] = val(w, r, "cache.latency", "level=1");
	if (v[F_L1] < 0)
		v[F_L1] = at(w, r, "lat_mem_rd.seq", q, 1024 / 1048576.0);
	v[F_L2] = val(w, r, "cache.latency", "level=2");
	if (v[F_L2] < 0)
		v[F_L2] = at(w, r, "lat_mem_rd.seq", q, 0.125);
	double llc = llc_mib(r);
	v[F_MEM] = past(w, r, "lat_mem_rd.seq", q, llc > 0 ? 4 * llc : INFINITY);
	if (v[F_MEM] > 0)
		w->mem_res = w->used[w->nused - 1];
	stride_query(r, "lat_mem_rd.rand", 16, q, sizeof q);
	v[F_RND] = past(w, r, "lat_mem_rd.rand", q, llc > 0 ? 4 * llc : INFINITY);
	if (v[F_RND] > 0)
		w->rnd_res = w->used[w->nused - 1];
}

/* Whether metric feeds one of the table's remote figures (figures[], REMOTE). */
static int remote_metric(const char *metric)
{
	for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
		if (figures[i].how == REMOTE && !strcmp(figures[i].metric, metric))
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
static double page_fault(struct row *w, const struct run *r, const struct figure *g, int lm)
{
	double v = val(w, r, g->metric, g->params);
	if (lm || !(v > 0))
		return v;
	char buf[32], *end;
	const struct result *p = find(r, g->metric, g->params);
	if (p && param_get(p->info, "us_per_fault", buf, sizeof buf)) {
		double f = strtod(buf, &end);
		if (end != buf && !*end && f > 0)
			v = f;
	}
	return v;
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

	for (int i = 0; i < F_N; i++)
		w->v[i] = -1;
	char rh[160];
	remote_query(r, rh, sizeof rh);
	for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
		const struct figure *g = &figures[i];
		double *v = &w->v[g->fig];
		switch (g->how) {
		case VAL: *v = val(w, r, g->metric, g->params); break;
		case LAST: *v = last(w, r, g->metric, g->params); break;
		case AT: *v = at(w, r, g->metric, g->params, g->x); break;
		case RATE_US: *v = fs_us(val(w, r, g->metric, g->params)); break;
		case I64: *v = int64_op(w, r, g->metric, lm); break;
		case REMOTE: *v = rh[0] ? val(w, r, g->metric, rh) : -1; break;
		case FAULT: *v = page_fault(w, r, g, lm); break;
		case FACTS: fill_facts(r, w, lm); break;
		case MEMORY: fill_memory(r, w, lm); break;
		}
	}
	/* "null I/O": lmbench's mean of read and write; a missing read gives the write alone, a
	 * missing write counts as -1 */
	w->v[F_IO] = w->v[F_READ] == -1 ? w->v[F_WRITE] : (w->v[F_READ] + w->v[F_WRITE]) / 2;
}

struct row *summary_reduce_all(struct run *const *runs, size_t n)
{
	struct row *rows = calloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; rows && i < n; i++)
		reduce(runs[i], &rows[i]);
	return rows;
}
