/*
 * summary.c — lmbench's summary tables (its getsummary script, behind `make see`) from runs.
 *
 * Two steps: first each run is reduced to the figures lmbench's tables show (struct row, -1 for
 * a missing figure), then the tables are printed with lmbench's headers, gating, column widths
 * and number formatting (../shared/lmbench-formats.md §4).
 *
 * Imported lmbench runs are reduced exactly as getsummary reads a results file (the int64 table
 * only from "uint64" lines, Mhz/cache line/copies from the [MHZ:], [LINE_SIZE:], [SYNC_MAX:]
 * headers, "Main mem" at the largest size), so the row equals lmbench's own. plumb's runs fill
 * every column from plumb's metrics: the int64 table from lat_ops.int64_*, Mhz from the measured
 * `mhz` fact, the line size measured by `line`, "Page Fault" as the time per fault really taken
 * (lat_pagefault's us_per_fault: a touch is not always a fault), and "Main mem" / "Rand mem" at
 * the first size of at least four times the last-level cache, else the largest. Those two are
 * what lmbench's columns are, not a DRAM latency each: "Main mem" is the sequential stride-128
 * walk, which prefetchers follow; "Rand mem" is a random walk that on small pages also pays TLB
 * misses. For plumb runs, lines under the memory table say so and give the random and
 * block-random figures of the run (mem_notes); lmbench files get lmbench's tables alone.
 * Differences from lmbench, on purpose: values below 0.001 in columns narrower than 6 print as a
 * short exponent instead of lmbench's literal "%4.-2e", and a duplicated line in one file does not
 * shift the rows of later files.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "core/result.h"

struct row {
	const struct result *used[160]; /* the results the row's cells came from (noise notes) */
	int nused;
	char host[128], os[128], desc[128];
	double mhz, tlb, line, mempar, load;
	double syscall, read, write, stat, openclose, tcpsel, siginst, sigcatch, fork, exec, sh;
	double iop[5], i64[5], flt[4], dbl[4];
	double ctx0_2, ctx16_2, ctx64_2, ctx16_8, ctx64_8, ctx16_16, ctx64_16;
	double pipe, unix_, udp, rpcudp, tcp, rpctcp, connect;
	double r_udp, r_rpcudp, r_tcp, r_rpctcp, r_connect;
	double fs_c0, fs_d0, fs_c10, fs_d10, mmap, prot, pagefault, fdsel;
	double bw_pipe, bw_unix, bw_tcp, reread, mmapread, bcopy_libc, bcopy_hand, memrd, memwr;
	double l1, l2, mem, rnd;
	const struct result *mem_res, *rnd_res; /* the Main mem / Rand mem cells of a plumb run */
};

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

/* The first result of metric matching query (file order: what lmbench's reader keeps). */
static struct row *cur_row; /* the row being reduced: take() notes what its cells read */

/* The value of p for a cell, remembering p so that noisy cells can be named under the tables. */
static double take(const struct result *p)
{
	if (cur_row && cur_row->nused < (int)(sizeof cur_row->used / sizeof cur_row->used[0]))
		cur_row->used[cur_row->nused++] = p;
	return ok(p->value);
}

static const struct result *find(const struct run *r, const char *metric, const char *query)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query))
			return p;
	}
	return NULL;
}

static double val(const struct run *r, const char *metric, const char *query)
{
	const struct result *p = find(r, metric, query);
	return p ? take(p) : -1;
}

/* A series' point at the largest x (lmbench's "last line of the block"). */
static double last(const struct run *r, const char *metric, const char *query)
{
	const struct result *best = NULL;
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query) && !isnan(p->x) &&
		    (!best || p->x >= best->x))
			best = p;
	}
	return best ? take(best) : -1;
}

/* The point of a series at x (x_same: MiB sizes printed with 5 decimals by lmbench). */
static double at(const struct run *r, const char *metric, const char *query, double x)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (!strcmp(p->metric, metric) && params_match(p->params, query) && x_same(p->x, x))
			return take(p);
	}
	return -1;
}

/* The point of a series at the first x >= min_x, else at the largest x. */
static double past(const struct run *r, const char *metric, const char *query, double min_x)
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
	return best ? take(best) : last(r, metric, query);
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

/* The last-level cache in MiB from the run's facts (cache_l2, cache_l3, ...), 0 if unknown. */
static double llc_mib(const struct run *r)
{
	double best = 0;
	for (size_t i = 0; i < r->facts.n; i++) {
		const char *k = r->facts.v[i].key;
		if (!strncmp(k, "cache_l", 7) && k[7] >= '0' && k[7] <= '9') {
			double b = strtod(r->facts.v[i].val, NULL);
			if (b > best)
				best = b;
		}
	}
	return best / 1048576.0;
}

static void reduce(const struct run *r, struct row *w)
{
	int lm = (r->source && !strncmp(r->source, "lmbench3", 8)) ||
		 (r->profile && !strcmp(r->profile, "lmbench"));
	const char *os = kv_get(&r->facts, "os"), *kern = kv_get(&r->facts, "kernel");
	snprintf(w->host, sizeof w->host, "%s", r->host ? r->host : "");
	snprintf(w->os, sizeof w->os, "%s %s", os ? os : "", kern ? kern : "");
	const char *d = r->label;
	if (!d && lm)
		d = kv_get(&r->facts, "lmbench.OS");
	snprintf(w->desc, sizeof w->desc, "%s", d ? d : r->profile ? r->profile : "");

	if (lm) {
		/* getsummary: field 1 of the [MHZ: ...] line, "]" removed */
		w->mhz = fact_num(r, "lmbench.MHZ");
		w->line = fact_num(r, "lmbench.LINE_SIZE");
		w->load = fact_num(r, "lmbench.SYNC_MAX");
	} else {
		w->mhz = fact_num(r, "mhz");
		if (w->mhz < 0)
			w->mhz = val(r, "mhz.mhz", "");
		/* the line size measured by line, else what the run used, else sysfs's */
		w->line = val(r, "line.bytes", "");
		if (w->line < 0)
			w->line = fact_num(r, "line_size");
		if (w->line < 0)
			w->line = fact_num(r, "cache_line");
		/* plumb run records "copies" (--copies N), the command line as "opt.copies" */
		w->load = fact_num(r, "copies");
		if (w->load < 0)
			w->load = fact_num(r, "opt.copies");
		if (w->load < 0)
			w->load = 1;
	}
	w->tlb = val(r, "tlb.pages", "");
	w->mempar = last(r, "par_mem.parallelism", "");

	w->syscall = val(r, "lat_syscall.null", "");
	w->read = val(r, "lat_syscall.read", "");
	w->write = val(r, "lat_syscall.write", "");
	w->stat = val(r, "lat_syscall.stat", "");
	w->openclose = val(r, "lat_syscall.open", "");
	w->tcpsel = val(r, "lat_select.tcp", "n=100");
	w->siginst = val(r, "lat_sig.install", "");
	w->sigcatch = val(r, "lat_sig.catch", "");
	w->fork = val(r, "lat_proc.fork", "");
	w->exec = val(r, "lat_proc.exec", "");
	w->sh = val(r, "lat_proc.shell", "");

	static const char *ops[] = { "bit", "add", "mul", "div", "mod" };
	static const char *fops[] = { "add", "mul", "div", "bogomflops" };
	char m[64];
	for (int i = 0; i < 5; i++) {
		snprintf(m, sizeof m, "lat_ops.integer_%s", ops[i]);
		w->iop[i] = val(r, m, "");
		snprintf(m, sizeof m, "lat_ops.int64_%s", ops[i]);
		/* lmbench's summary reads only "uint64 ..." lines, never what lat_ops prints */
		const struct result *p = NULL;
		for (size_t k = 0; k < r->results.n && !p; k++)
			if (!strcmp(r->results.v[k].metric, m) &&
			    (!lm || info_has(r->results.v[k].info, "lmbench_label=uint64")))
				p = &r->results.v[k];
		w->i64[i] = p ? take(p) : -1;
	}
	for (int i = 0; i < 4; i++) {
		snprintf(m, sizeof m, "lat_ops.float_%s", fops[i]);
		w->flt[i] = val(r, m, "");
		snprintf(m, sizeof m, "lat_ops.double_%s", fops[i]);
		w->dbl[i] = val(r, m, "");
	}

	w->ctx0_2 = at(r, "lat_ctx.switch", "size=0", 2);
	w->ctx16_2 = at(r, "lat_ctx.switch", "size=16", 2);
	w->ctx64_2 = at(r, "lat_ctx.switch", "size=64", 2);
	w->ctx16_8 = at(r, "lat_ctx.switch", "size=16", 8);
	w->ctx64_8 = at(r, "lat_ctx.switch", "size=64", 8);
	w->ctx16_16 = at(r, "lat_ctx.switch", "size=16", 16);
	w->ctx64_16 = at(r, "lat_ctx.switch", "size=64", 16);

	w->pipe = val(r, "lat_pipe.latency", "");
	w->unix_ = val(r, "lat_unix.latency", "");
	w->udp = val(r, "lat_udp.latency", "host=localhost");
	w->rpcudp = val(r, "lat_rpc.udp", "host=localhost");
	w->tcp = val(r, "lat_tcp.latency", "host=localhost");
	w->rpctcp = val(r, "lat_rpc.tcp", "host=localhost");
	w->connect = val(r, "lat_connect.latency", "host=localhost");
	/* remote: the first host that is not localhost */
	w->r_udp = w->r_rpcudp = w->r_tcp = w->r_rpctcp = w->r_connect = -1;
	char rh[160] = "", hb[128];
	for (size_t i = 0; i < r->results.n && !rh[0]; i++) {
		const struct result *p = &r->results.v[i];
		if ((!strncmp(p->metric, "lat_udp.", 8) || !strncmp(p->metric, "lat_tcp.", 8) ||
		     !strncmp(p->metric, "lat_rpc.", 8) || !strncmp(p->metric, "lat_connect.", 12)) &&
		    param_get(p->params, "host", hb, sizeof hb) && strcmp(hb, "localhost") &&
		    strcmp(hb, "127.0.0.1") && strcmp(hb, "::1"))
			snprintf(rh, sizeof rh, "host=%s", hb);
	}
	if (rh[0]) {
		w->r_udp = val(r, "lat_udp.latency", rh);
		w->r_rpcudp = val(r, "lat_rpc.udp", rh);
		w->r_tcp = val(r, "lat_tcp.latency", rh);
		w->r_rpctcp = val(r, "lat_rpc.tcp", rh);
		w->r_connect = val(r, "lat_connect.latency", rh);
	}

	w->fs_c0 = fs_us(val(r, "lat_fs.create", "size=0"));
	w->fs_d0 = fs_us(val(r, "lat_fs.delete", "size=0"));
	w->fs_c10 = fs_us(val(r, "lat_fs.create", "size=10240"));
	w->fs_d10 = fs_us(val(r, "lat_fs.delete", "size=10240"));
	w->mmap = last(r, "lat_mmap.latency", "");
	w->prot = val(r, "lat_sig.prot", "");
	w->pagefault = val(r, "lat_pagefault.latency", "");
	if (!lm && w->pagefault > 0) {
		/* the cost of a fault really taken (files.c: us_per_fault), when the run has it */
		char buf[32], *end;
		const struct result *p = find(r, "lat_pagefault.latency", "");
		if (p && param_get(p->info, "us_per_fault", buf, sizeof buf)) {
			double v = strtod(buf, &end);
			if (end != buf && !*end && v > 0)
				w->pagefault = v;
		}
	}
	w->fdsel = val(r, "lat_select.file", "n=100");

	w->bw_pipe = val(r, "bw_pipe.bandwidth", "");
	w->bw_unix = val(r, "bw_unix.bandwidth", "");
	w->bw_tcp = last(r, "bw_tcp.bandwidth", "host=localhost");
	w->reread = last(r, "bw_file_rd.io_only", "");
	w->mmapread = last(r, "bw_mmap_rd.mmap_only", "");
	w->bcopy_libc = last(r, "bw_mem.bcopy", "!conflict");
	w->bcopy_hand = last(r, "bw_mem.fcp", "");
	w->memrd = last(r, "bw_mem.frd", "");
	w->memwr = last(r, "bw_mem.fwr", "");

	char q[64];
	if (lm) {
		w->l1 = at(r, "lat_mem_rd.seq", "stride=128", 0.00098);
		w->l2 = at(r, "lat_mem_rd.seq", "stride=128", 0.125);
		w->mem = last(r, "lat_mem_rd.seq", "stride=128");
		w->rnd = last(r, "lat_mem_rd.rand", "stride=16");
	} else {
		stride_query(r, "lat_mem_rd.seq", 128, q, sizeof q);
		w->l1 = val(r, "cache.latency", "level=1");
		if (w->l1 < 0)
			w->l1 = at(r, "lat_mem_rd.seq", q, 1024 / 1048576.0);
		w->l2 = val(r, "cache.latency", "level=2");
		if (w->l2 < 0)
			w->l2 = at(r, "lat_mem_rd.seq", q, 0.125);
		double llc = llc_mib(r);
		w->mem = past(r, "lat_mem_rd.seq", q, llc > 0 ? 4 * llc : INFINITY);
		if (w->mem > 0)
			w->mem_res = cur_row->used[cur_row->nused - 1];
		stride_query(r, "lat_mem_rd.rand", 16, q, sizeof q);
		w->rnd = past(r, "lat_mem_rd.rand", q, llc > 0 ? 4 * llc : INFINITY);
		if (w->rnd > 0)
			w->rnd_res = cur_row->used[cur_row->nused - 1];
	}
}

/* ---- lmbench's number formatting ---------------------------------------------------------- */

typedef char cell[64];

/* num(v, w): blank when missing or <= 0; K and M suffixes above 10^4 and 10^7; one decimal above
 * 10; exponent below 0.001; else w-2 decimals. The row's %W.Ws truncates afterwards. */
static char *num(cell c, double v, int w)
{
	char t[64];
	if (!(v > 0) || isinf(v)) {
		snprintf(c, sizeof(cell), "%*s", w, "");
	} else if (v >= 1e7 || v >= 1e4) {
		int mega = v >= 1e7;
		snprintf(t, sizeof t, "%.1f", mega ? v / 1e6 : v / 1e3);
		snprintf(c, sizeof(cell), "%*.*s%c", w - 1, w - 1, t, mega ? 'M' : 'K');
	} else if (v >= 10) {
		snprintf(t, sizeof t, "%.1f", v);
		snprintf(c, sizeof(cell), "%*.*s", w, w, t);
	} else if (v < 0.001) {
		if (w >= 6) {
			snprintf(c, sizeof(cell), "%*.*e", w, w - 6, v);
		} else {
			/* lmbench printed its invalid format here; print the value in w characters */
			snprintf(t, sizeof t, "%.0e", v);
			char *e = strstr(t, "e-0");
			if ((int)strlen(t) > w && e)
				memmove(e + 2, e + 3, strlen(e + 3) + 1);
			snprintf(c, sizeof(cell), "%*s", w, t);
		}
	} else {
		snprintf(c, sizeof(cell), "%*.*f", w, w - 2, v);
	}
	return c;
}

static char *inum(cell c, double v, int w)
{
	if (!(v > 0) || v > 2e9)
		snprintf(c, sizeof(cell), "%*s", w, "");
	else
		snprintf(c, sizeof(cell), "%*d", w, (int)v);
	return c;
}

static char *snum(cell c, double v, int w, double load)
{
	return load > 1 ? num(c, -1, w) : num(c, v, w);
}

/* ---- tables ------------------------------------------------------------------------------- */

static int any(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] > 0)
			return 1;
	return 0;
}

static void prefix(FILE *f, const struct row *w)
{
	fprintf(f, "%-9.9s %13.13s ", w->host, w->os);
}

static void header(FILE *f, int first, const char *const *lines)
{
	if (!first)
		fputc('\n', f);
	for (int i = 0; lines[i]; i++)
		fprintf(f, "%s\n", lines[i]);
}

#define GATE(...) (double[]){ __VA_ARGS__ }, (int)(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double))

/* One table: gate values per row decide whether the table and each row print. */
struct table {
	const char *const *head;
	int (*gate)(const struct row *w);
	void (*print)(FILE *f, const struct row *w);
};

static const char *const h_basic[] = {
	"Basic system parameters",
	"------------------------------------------------------------------------------",
	"Host                 OS Description              Mhz  tlb  cache  mem   scal",
	"                                                     pages line   par   load",
	"                                                           bytes  ",
	"--------- ------------- ----------------------- ---- ----- ----- ------ ----", NULL };
static int g_basic(const struct row *w) { return any(GATE(w->tlb, w->line, w->mempar)); }
static void p_basic(FILE *f, const struct row *w)
{
	cell a, b, c, d, e;
	prefix(f, w);
	fprintf(f, "%23.23s %4.4s %5.5s %5.5s %6.6s %4.4s\n", w->desc, inum(a, w->mhz, 4),
		inum(b, w->tlb, 5), inum(c, w->line, 5), num(d, w->mempar, 6), inum(e, w->load, 4));
}

static const char *const h_proc[] = {
	"Processor, Processes - times in microseconds - smaller is better",
	"------------------------------------------------------------------------------",
	"Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  ",
	"                             call  I/O stat clos TCP  inst hndl proc proc proc",
	"--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----", NULL };
static int g_proc(const struct row *w)
{
	return any(GATE(w->syscall, w->read, w->write, w->stat, w->openclose, w->tcpsel,
			w->siginst, w->sigcatch, w->fork, w->exec, w->sh));
}
static void p_proc(FILE *f, const struct row *w)
{
	cell c[10];
	/* lmbench: a missing read gives the write alone; a missing write counts as -1 */
	double io = w->read == -1 ? w->write : (w->read + w->write) / 2;
	prefix(f, w);
	fprintf(f, "%4.0f %4.4s %4.4s %4.4s %4.4s %4.4s %4.4s %4.4s %4.4s %4.4s %4.4s\n", w->mhz,
		num(c[0], w->syscall, 4), num(c[1], io, 4), num(c[2], w->stat, 4),
		num(c[3], w->openclose, 4), num(c[4], w->tcpsel, 4), num(c[5], w->siginst, 4),
		num(c[6], w->sigcatch, 4), num(c[7], w->fork, 4), num(c[8], w->exec, 4),
		num(c[9], w->sh, 4));
}

static const char *const h_int[] = {
	"Basic integer operations - times in nanoseconds - smaller is better",
	"-------------------------------------------------------------------",
	"Host                 OS  intgr intgr  intgr  intgr  intgr  ",
	"                          bit   add    mul    div    mod   ",
	"--------- ------------- ------ ------ ------ ------ ------ ", NULL };
static int g_int(const struct row *w) { return any(w->iop, 5); }
static void p_int(FILE *f, const struct row *w)
{
	cell c[5];
	prefix(f, w);
	fprintf(f, "%6.6s %6.6s %6.6s %6.6s %6.6s\n", snum(c[0], w->iop[0], 6, w->load),
		snum(c[1], w->iop[1], 6, w->load), snum(c[2], w->iop[2], 6, w->load),
		snum(c[3], w->iop[3], 6, w->load), snum(c[4], w->iop[4], 6, w->load));
}

static const char *const h_i64[] = {
	"Basic uint64 operations - times in nanoseconds - smaller is better",
	"------------------------------------------------------------------",
	"Host                 OS int64  int64  int64  int64  int64  ",
	"                         bit    add    mul    div    mod   ",
	"--------- ------------- ------ ------ ------ ------ ------ ", NULL };
static int g_i64(const struct row *w) { return any(w->i64, 5); }
static void p_i64(FILE *f, const struct row *w)
{
	cell c[5];
	prefix(f, w);
	fprintf(f, " %5.5s %6.6s %6.6s %6.6s %6.6s\n", snum(c[0], w->i64[0], 6, w->load),
		snum(c[1], w->i64[1], 6, w->load), snum(c[2], w->i64[2], 6, w->load),
		snum(c[3], w->i64[3], 6, w->load), snum(c[4], w->i64[4], 6, w->load));
}

static const char *const h_flt[] = {
	"Basic float operations - times in nanoseconds - smaller is better",
	"-----------------------------------------------------------------",
	"Host                 OS  float  float  float  float",
	"                         add    mul    div    bogo",
	"--------- ------------- ------ ------ ------ ------ ", NULL };
static const char *const h_dbl[] = {
	"Basic double operations - times in nanoseconds - smaller is better",
	"------------------------------------------------------------------",
	"Host                 OS  double double double double",
	"                         add    mul    div    bogo",
	"--------- ------------- ------  ------ ------ ------ ", NULL };
static int g_flt(const struct row *w) { return any(w->flt, 4); }
static int g_dbl(const struct row *w) { return any(w->dbl, 4); }
static void p_fops(FILE *f, const struct row *w, const double *v)
{
	cell c[4];
	prefix(f, w);
	fprintf(f, "%6.6s %6.6s %6.6s %6.6s\n", snum(c[0], v[0], 6, w->load),
		snum(c[1], v[1], 6, w->load), snum(c[2], v[2], 6, w->load),
		snum(c[3], v[3], 6, w->load));
}
static void p_flt(FILE *f, const struct row *w) { p_fops(f, w, w->flt); }
static void p_dbl(FILE *f, const struct row *w) { p_fops(f, w, w->dbl); }

static const char *const h_ctx[] = {
	"Context switching - times in microseconds - smaller is better",
	"-------------------------------------------------------------------------",
	"Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K",
	"                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw",
	"--------- ------------- ------ ------ ------ ------ ------ ------- -------", NULL };
static int g_ctx(const struct row *w)
{
	return any(GATE(w->ctx0_2, w->ctx16_2, w->ctx64_2, w->ctx16_8, w->ctx64_8, w->ctx16_16,
			w->ctx64_16));
}
static void p_ctx(FILE *f, const struct row *w)
{
	cell c[7];
	prefix(f, w);
	fprintf(f, "%6.6s %6.6s %6.6s %6.6s %6.6s %7.7s %7.7s\n", num(c[0], w->ctx0_2, 6),
		num(c[1], w->ctx16_2, 6), num(c[2], w->ctx64_2, 6), num(c[3], w->ctx16_8, 6),
		num(c[4], w->ctx64_8, 6), num(c[5], w->ctx16_16, 7), num(c[6], w->ctx64_16, 7));
}

static const char *const h_lat[] = {
	"*Local* Communication latencies in microseconds - smaller is better",
	"---------------------------------------------------------------------",
	"Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP",
	"                        ctxsw       UNIX         UDP         TCP conn",
	"--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----", NULL };
static int g_lat(const struct row *w)
{
	return any(GATE(w->ctx0_2, w->pipe, w->unix_, w->udp, w->rpcudp, w->tcp, w->rpctcp,
			w->connect));
}
static void p_lat(FILE *f, const struct row *w)
{
	cell c[8];
	prefix(f, w);
	fprintf(f, "%5.5s %5.5s %4.4s %5.5s %5.5s %5.5s %5.5s %4.4s\n", num(c[0], w->ctx0_2, 5),
		num(c[1], w->pipe, 5), num(c[2], w->unix_, 4), num(c[3], w->udp, 5),
		num(c[4], w->rpcudp, 5), num(c[5], w->tcp, 5), num(c[6], w->rpctcp, 5),
		snum(c[7], w->connect, 5, w->load));
}

static const char *const h_rem[] = {
	"*Remote* Communication latencies in microseconds - smaller is better",
	"---------------------------------------------------------------------",
	"Host                 OS   UDP  RPC/  TCP   RPC/ TCP",
	"                               UDP         TCP  conn",
	"--------- ------------- ----- ----- ----- ----- ----", NULL };
static int g_rem(const struct row *w)
{
	return any(GATE(w->r_udp, w->r_rpcudp, w->r_tcp, w->r_rpctcp, w->r_connect));
}
static void p_rem(FILE *f, const struct row *w)
{
	cell c[5];
	prefix(f, w);
	fprintf(f, "%5.5s %5.5s %5.5s %5.5s %4.4s\n", num(c[0], w->r_udp, 5),
		num(c[1], w->r_rpcudp, 5), num(c[2], w->r_tcp, 5), num(c[3], w->r_rpctcp, 5),
		snum(c[4], w->r_connect, 4, w->load));
}

static const char *const h_fs[] = {
	"File & VM system latencies in microseconds - smaller is better",
	"-------------------------------------------------------------------------------",
	"Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd",
	"                        Create Delete Create Delete Latency Fault  Fault  selct",
	"--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----", NULL };
static int g_fs(const struct row *w)
{
	return any(GATE(w->fs_c0, w->fs_d0, w->fs_c10, w->fs_d10, w->mmap, w->prot,
			w->pagefault));
}
static void p_fs(FILE *f, const struct row *w)
{
	cell c[8];
	prefix(f, w);
	fprintf(f, "%6.6s %6.6s %6.6s %6.6s %7.7s %5.5s %7.7s %5.5s\n",
		snum(c[0], w->fs_c0, 6, w->load), snum(c[1], w->fs_d0, 6, w->load),
		snum(c[2], w->fs_c10, 6, w->load), snum(c[3], w->fs_d10, 6, w->load),
		num(c[4], w->mmap, 7), num(c[5], w->prot, 5), num(c[6], w->pagefault, 7),
		num(c[7], w->fdsel, 5));
}

static const char *const h_bw[] = {
	"*Local* Communication bandwidths in MB/s - bigger is better",
	"-----------------------------------------------------------------------------",
	"Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem",
	"                             UNIX      reread reread (libc) (hand) read write",
	"--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----", NULL };
static int g_bw(const struct row *w)
{
	return any(GATE(w->bw_pipe, w->bw_unix, w->bw_tcp, w->reread, w->bcopy_libc,
			w->bcopy_hand, w->memrd, w->memwr));
}
static void p_bw(FILE *f, const struct row *w)
{
	cell c[9];
	prefix(f, w);
	fprintf(f, "%4.4s %4.4s %4.4s %6.6s %6.6s %6.6s %6.6s %4.4s %5.5s\n",
		num(c[0], w->bw_pipe, 4), num(c[1], w->bw_unix, 4), num(c[2], w->bw_tcp, 4),
		num(c[3], w->reread, 6), num(c[4], w->mmapread, 6), num(c[5], w->bcopy_libc, 6),
		num(c[6], w->bcopy_hand, 6), num(c[7], w->memrd, 4), num(c[8], w->memwr, 5));
}

static const char *const h_mem[] = {
	"Memory latencies in nanoseconds - smaller is better",
	"    (WARNING - may not be correct, check graphs)",
	"------------------------------------------------------------------------------",
	"Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses",
	"--------- -------------   ---   ----   ----    --------    --------    -------", NULL };
static int g_mem(const struct row *w) { return any(GATE(w->l1, w->l2, w->mem)); }
/* lmbench's "same": within 20 % of the larger (its comment says 10 %). */
static int same(double a, double b)
{
	double m = a > b ? a : b;
	return a > 0 && b > 0 && fabs(a - b) / m <= 0.2;
}
static void p_mem(FILE *f, const struct row *w)
{
	cell c[4];
	fprintf(f, "%-9.9s %13.13s  %4d", w->host, w->os, (int)w->mhz);
	if (w->l1 < 0) {
		fprintf(f, "%6s %6s %11s    %s\n", "-", "-", "-", "Bad mhz?");
		return;
	}
	fprintf(f, " %6.6s %6.6s %6.6s %11.11s", num(c[0], w->l1, 6), num(c[1], w->l2, 6),
		num(c[2], w->mem, 6), num(c[3], w->rnd, 6));
	if (!same(w->l1, w->l2) && same(w->l2, w->mem))
		fputs("    No L2 cache?", f);
	else if (same(w->l1, w->l2))
		fputs("    No L1 cache?", f);
	fputc('\n', f);
}

static const struct table tables[] = {
	{ h_basic, g_basic, p_basic }, { h_proc, g_proc, p_proc }, { h_int, g_int, p_int },
	{ h_i64, g_i64, p_i64 },       { h_flt, g_flt, p_flt },    { h_dbl, g_dbl, p_dbl },
	{ h_ctx, g_ctx, p_ctx },       { h_lat, g_lat, p_lat },    { h_rem, g_rem, p_rem },
	{ h_fs, g_fs, p_fs },          { h_bw, g_bw, p_bw },       { h_mem, g_mem, p_mem },
};

/* Under the tables, the cells whose samples spread too much to trust, and those with a caveat
 * (issue: say when a number cannot be trusted). Runs with one sample per metric and no caveats
 * (imported lmbench files) print nothing, so lmbench's own layout is untouched for them. */
/* Whether cell k of a row reads a result an earlier cell of the row already read. */
static int used_before(const struct row *r, int k)
{
	for (int j = 0; j < k; j++)
		if (r->used[j] == r->used[k])
			return 1;
	return 0;
}

/* Every run reduced to its row (the cells and the results they read); NULL when out of memory. */
static struct row *reduce_all(struct run *const *runs, size_t n)
{
	struct row *rows = calloc(n ? n : 1, sizeof *rows);
	for (size_t i = 0; rows && i < n; i++) {
		cur_row = &rows[i];
		reduce(runs[i], &rows[i]);
	}
	cur_row = NULL;
	return rows;
}

static void noisy_notes(FILE *f, const struct row *rows, size_t n)
{
	int any = 0;
	const char *seen[8];
	int nseen = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < rows[i].nused; k++) {
			const struct result *p = rows[i].used[k];
			if (used_before(&rows[i], k))
				continue;
			double nz = result_noise_pct(p);
			char cv[32];
			const char *caveat = result_caveat(p, cv, sizeof cv);
			if (!(nz > NOISY_PCT) && !caveat)
				continue;
			if (!any++)
				fprintf(f, "\nNoisy cells (95%% confidence interval of the median wider than "
					   "+-%.0f%%; rerun or use --repeat) and cells with a caveat:\n",
					NOISY_PCT);
			fprintf(f, "  %-9.9s %s%s%s", rows[i].host, p->metric, *p->params ? " " : "",
				p->params);
			if (!isnan(p->x))
				fprintf(f, " x=%g", p->x);
			if (!isnan(nz))
				fprintf(f, "  +-%.0f%% (%zu samples)", nz, p->nsamples);
			if (caveat)
				fprintf(f, "  caveat: %s", caveat);
			fputc('\n', f);
			if (caveat && nseen < 8) {
				int known = 0;
				for (int j = 0; j < nseen; j++)
					known |= !strcmp(seen[j], caveat_text(caveat));
				if (!known)
					seen[nseen++] = caveat_text(caveat);
			}
		}
	for (int j = 0; j < nseen; j++)
		fprintf(f, "  caveat: %s.\n", seen[j]);
}

/* A fact of a result: from its info (a run's step facts join each result), else the run's. The
 * blanks the info format replaced with '_' come back. */
static int res_fact(const struct run *r, const struct result *p, const char *key, char *buf,
		    size_t len)
{
	const char *v = NULL;
	if (!(p && param_get(p->info, key, buf, len))) {
		if (!(v = kv_get(&r->facts, key)))
			return 0;
		snprintf(buf, len, "%s", v);
	}
	for (char *c = buf; *c; c++)
		if (*c == '_')
			*c = ' ';
	return 1;
}

/* Under the memory table (plumb runs only: an lmbench file's summary stays lmbench's), one line
 * each saying what "Main mem" and "Rand mem" are, then each run's random and block-random
 * figures: the columns are lmbench's, neither is simply "the DRAM latency". */
static void mem_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < n; i++)
		any |= (rows[i].mem_res || rows[i].rnd_res) && g_mem(&rows[i]);
	if (!any)
		return;
	fprintf(f, "\nMain mem: lat_mem_rd's sequential walk, stride 128, in address order: "
		   "prefetched, nearer a bandwidth than a load's latency.\n");
	fprintf(f, "Rand mem: lat_mem_rd -t, a random walk through every line of the size: on "
		   "small pages (below) TLB misses included.\n");
	for (size_t i = 0; i < n; i++) {
		const struct result *p = rows[i].rnd_res;
		char pg[96] = "", blk[160] = "";
		if (!p)
			continue;
		if (!res_fact(runs[i], p, "page_size", pg, sizeof pg))
			snprintf(pg, sizeof pg, "unknown");
		fprintf(f, "  %-9.9s random %.1f ns at %g MiB, pages %s", rows[i].host, p->value, p->x,
			pg);
		if (res_fact(runs[i], p, "block_chase_ns", blk, sizeof blk))
			fprintf(f, "; block-random %s", blk);
		fputc('\n', f);
	}
}

/* Under the tables, what the CPU clock did during each plumb run that watched it (run_clock.h):
 * on a shared host it moves every CPU-bound cell with it. Imported files have no such facts. */
static void clock_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		const char *med = kv_get(&runs[i]->facts, "clock_mhz");
		const char *lo = kv_get(&runs[i]->facts, "clock_mhz_p5");
		const char *hi = kv_get(&runs[i]->facts, "clock_mhz_p95");
		const char *sp = kv_get(&runs[i]->facts, "clock_spread_pct");
		if (!med || !lo || !hi || !sp)
			continue;
		if (!any++)
			fprintf(f, "\nCPU clock during the run (read before every step; 5th-95th percentile):\n");
		fprintf(f, "  %-9.9s %s MHz median, %s-%s MHz (%s%%)%s\n", rows[i].host, med, lo, hi, sp,
			atof(sp) > CLOCK_SPREAD_WARN ? ": CPU-bound cells move with it from run to run" : "");
	}
}

void summary_print(FILE *f, struct run *const *runs, size_t n)
{
	struct row *rows = reduce_all(runs, n);
	if (!rows)
		return;
	fprintf(f, "\n%17s%s\n%17s%s\n\t\t %s\n\n", "", "L M B E N C H  3 . 0   S U M M A R Y",
		"", "------------------------------------", "(Alpha software, do not distribute)");
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		int shown = 0;
		for (size_t i = 0; i < n; i++) {
			if (!tables[t].gate(&rows[i]))
				continue;
			if (!shown++)
				header(f, t == 0, tables[t].head);
			tables[t].print(f, &rows[i]);
		}
	}
	mem_notes(f, runs, rows, n);
	noisy_notes(f, rows, n);
	clock_notes(f, runs, rows, n);
	free(rows);
}

void summary_cells(FILE *f, struct run *const *runs, size_t n)
{
	struct row *rows = reduce_all(runs, n);
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < rows[i].nused; k++) {
			const struct result *p = rows[i].used[k];
			char cv[32];
			const char *caveat = result_caveat(p, cv, sizeof cv);
			if (!used_before(&rows[i], k))
				fprintf(f, "%zu\t%s\t%s\t%.17g\t%.17g\t%zu\t%.3f\t%s\n", i, p->metric,
					p->params, p->x, p->value, p->nsamples, result_noise_pct(p),
					caveat ? caveat : "-");
		}
	free(rows);
}
