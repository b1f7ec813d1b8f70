/*
 * plan.c — the suite's steps per profile (see plan.h). One function per part of
 * lmbench's run order; each step carries its budget group (BG_*, plan.h), flags, and an
 * estimated cost in seconds (refined at run time by what steps really take) for the progress
 * line's time-left estimate. The estimates are for 11 samples per point, from a merged build on
 * this 2-core machine (lat_mem_rd -t about 0.05 s per point at 3 samples, lat_fs about 5 s per
 * size whatever the sample count).
 *
 * Profiles:
 *   quick    every family, only the points lmbench's summary tables read (about 40 s here)
 *   default  every family with lmbench's series thinned (powers of 4 for sizes; 3 strides)
 *   full     lmbench's full lists: HALF/ALL sizes, every lat_ctx size and count, every stride
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/mem/mem_common.h"
#include "suite/plan.h"
#include "core/sysinfo.h"
#include "core/cpu.h"
#include "core/util.h"

#define MIB (1024ull * 1024)
#define MAXARGS 48
/* series thinned to the summary's points: the quick profile, or plan_fit() meeting a budget */
#define THIN(c) ((c)->profile == PROF_QUICK || (c)->thin)

const char *profile_name(enum profile p)
{
	return p == PROF_QUICK ? "quick" : p == PROF_FULL ? "full" : "default";
}

void plan_size_str(uint64_t n, char *buf, size_t len)
{
	if (n >= MIB && n % MIB == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(n / MIB));
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(n / 1024));
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
}

static uint64_t pow2_floor(uint64_t n)
{
	uint64_t p = 1;
	while (p * 2 <= n && p * 2 > p)
		p *= 2;
	return p;
}

/* A dry run where a run would measure the latency knee first: the run's top is 4 x the knee,
 * between MEM_KNEE_FLOOR and the cap, which only the measurement decides. The dry run plans the
 * largest (its time estimate is an upper bound) and says what the run will do. */
static uint64_t dry_run_mem(uint64_t llc, uint64_t room, char *how, size_t howlen)
{
	uint64_t hi = MEM_DEFAULT_CAP, lo = MEM_KNEE_FLOOR;
	if (room && hi > room)
		hi = room < 8 * MIB ? 8 * MIB : room;
	if (lo > hi)
		lo = hi;
	char rep[64] = "no cache size known";
	if (llc)
		snprintf(rep, sizeof rep, "last-level cache reported: %llu MiB",
			 (unsigned long long)(llc / MIB));
	if (lo == hi)
		snprintf(how, howlen, "%llu MiB whatever the latency knee a run measures first (%s)",
			 (unsigned long long)(hi / MIB), rep);
	else
		snprintf(how, howlen, "4 x the latency knee a run measures first (%s): between %llu "
			 "and %llu MiB, planned here at %llu MiB", rep, (unsigned long long)(lo / MIB),
			 (unsigned long long)(hi / MIB), (unsigned long long)(hi / MIB));
	return hi;
}

uint64_t plan_mem_top(uint64_t llc, uint64_t knee, int measure, uint64_t room, char *how,
		      size_t howlen)
{
	if (!measure && mem_needs_knee(llc))
		return dry_run_mem(llc, room, how, howlen);
	uint64_t want = mem_size_rule(llc, mem_needs_knee(llc) ? knee : 0, room, how, howlen);
	uint64_t p = pow2_floor(want);
	if (p < want)
		p *= 2;
	if (p < 8 * MIB)
		p = 8 * MIB;
	if (room && p > room)
		p = room < 8 * MIB ? 8 * MIB : room;
	return p;
}

uint64_t plan_default_mem(int copies, int measure, char *how, size_t howlen)
{
	uint64_t llc = sys_llc_bytes(), avail = sys_mem_available();
	if (copies < 1)
		copies = 1;
	uint64_t room = avail ? pow2_floor(avail / 4 / (uint64_t)copies) : 0;
	uint64_t knee = measure && mem_needs_knee(llc) ? mem_knee(llc) : 0;
	uint64_t p = plan_mem_top(llc, knee, measure, room, how, howlen);
	if (measure && mem_knee_probe_cut()) {
		size_t l = strlen(how);
		snprintf(how + l, howlen - l, "; the knee probe mapped only %llu MiB (all this process "
			 "may map: ulimit -v)", (unsigned long long)(mem_knee_probe_cut() >> 20));
	}
	return p;
}

/* ---- building steps ------------------------------------------------------------------------ */

struct args {
	char *v[MAXARGS];
	int n;
};

static void arg(struct args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(struct args *a, const char *fmt, ...)
{
	if (a->n >= MAXARGS - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	a->v[a->n++] = xstrdup(buf);
}

static void push(struct plan *p, const struct plan_cfg *c, enum budget_group bg, enum subset sub,
		 unsigned flags, double est, struct args *a)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->v = xrealloc(p->v, p->cap * sizeof *p->v);
	}
	struct step *s = &p->v[p->n++];
	memset(s, 0, sizeof *s);
	s->budget_group = bg;
	s->subset = sub;
	s->flags = flags;
	/* the figures were for 11 samples on an early build; the steps take half that now
	 * (measured 2026-11-30: bench/README.md) */
	s->est_s = (flags & STEP_EST_FINAL) ? est : 0.5 * est * c->sample_scale;
	if (s->est_s < 0.03)
		s->est_s = 0.03;
	/* lmbench's $P goes right after the tool name. */
	int extra = (flags & STEP_COPIES) && c->copies > 1 ? 2 : 0;
	s->argv = xcalloc((size_t)(a->n + extra + 1), sizeof *s->argv);
	s->argv[s->argc++] = a->v[0];
	if (extra) {
		s->argv[s->argc++] = xstrdup("-P");
		s->argv[s->argc++] = xasprintf("%d", c->copies);
	}
	for (int i = 1; i < a->n; i++)
		s->argv[s->argc++] = a->v[i];
	size_t len = 1;
	for (int i = 0; i < s->argc; i++)
		len += strlen(s->argv[i]) + 1;
	s->label = xmalloc(len);
	s->label[0] = 0;
	for (int i = 0; i < s->argc; i++) {
		if (i)
			strcat(s->label, " ");
		strcat(s->label, s->argv[i]);
	}
	a->n = 0;
}

/* One step from a NULL-terminated list of words. */
static void add(struct plan *p, const struct plan_cfg *c, enum budget_group bg, enum subset sub,
		unsigned flags, double est, const char *tool, ...)
{
	struct args a = { .n = 0 };
	arg(&a, "%s", tool);
	va_list ap;
	va_start(ap, tool);
	const char *w;
	while ((w = va_arg(ap, const char *)))
		arg(&a, "%s", w);
	va_end(ap);
	push(p, c, bg, sub, flags, est, &a);
}

/* Size lists. full: lmbench's ALL (512 .. 2m, then powers of two up to top) or HALF (the same
 * ending at top/2); otherwise powers of 4 from 4k plus top itself. Returns the count. */
static int sizes(const struct plan_cfg *c, uint64_t top, int half, uint64_t *out, int max)
{
	int n = 0;
	if (c->profile == PROF_FULL && !c->thin) {
		uint64_t end = half ? top / 2 : top;
		for (uint64_t s = 512; s <= end && n < max; s *= 2)
			out[n++] = s;
		if (end < 512 && n < max)
			out[n++] = 512;
		return n;
	}
	uint64_t end = half ? top / 2 : top;
	for (uint64_t s = 4096; s <= end && n < max; s *= 4)
		out[n++] = s;
	if ((n == 0 || out[n - 1] != end) && n < max)
		out[n++] = end;
	return n;
}

/* Points of a lat_mem_rd sweep to top bytes (lmbench's size steps, about 8 per doubling). */
static double memrd_points(uint64_t top)
{
	return 4 + 8 * log2((double)top / 4096.0);
}

#define OS SUBSET_OS
#define HW SUBSET_HW

static void facts(struct plan *p, const struct plan_cfg *c)
{
	add(p, c, BG_FACTS, HW | OS, STEP_ALWAYS, 0.6, "mhz", NULL);
	if (c->profile != PROF_QUICK) {
		char mb[32];
		snprintf(mb, sizeof mb, "%llu", (unsigned long long)(c->mem_bytes / MIB));
		add(p, c, BG_FACTS, HW | OS, STEP_ALWAYS, 2.6, "memsize", mb, NULL);
		add(p, c, BG_MEMORY, HW, 0, 1.0, "line", NULL);
	}
}

static void os_basic(struct plan *p, const struct plan_cfg *c)
{
	static const char *sc[] = { "null", "read", "write", "stat", "fstat", "open" };
	for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++)
		add(p, c, BG_SYSCALL, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.2, "lat_syscall", sc[i], NULL);

	static const char *nq[] = { "100" }, *nd[] = { "10", "100", "250", "500" };
	const char **ns = THIN(c) ? nq : nd;
	int nn = THIN(c) ? 1 : 4;
	for (int kind = 0; kind < 2; kind++)
		for (int i = 0; i < nn; i++)
			add(p, c, BG_SELECT, OS, STEP_COPIES, kind ? 0.4 : 0.25, "lat_select", "-n", ns[i],
			    kind ? "tcp" : "file", NULL);

	add(p, c, BG_SIGNAL, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.2, "lat_sig", "install", NULL);
	add(p, c, BG_SIGNAL, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_sig", "catch", NULL);
	add(p, c, BG_SIGNAL, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.4, "lat_sig", "prot", NULL);

	add(p, c, BG_IPC, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_pipe", NULL);
	add(p, c, BG_IPC, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_unix", NULL);
	if (c->profile != PROF_QUICK) {
		/* Not in lmbench's suite, but SPEC's IPC family: cheap. */
		add(p, c, BG_IPC, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_fifo", NULL);
		add(p, c, BG_IPC, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_fcntl", NULL);
		add(p, c, BG_IPC, OS, STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_sem", NULL);
		add(p, c, BG_IPC, OS, STEP_COPIES, 0.4, "lat_unix_connect", NULL);
	}

	if (c->profile != PROF_QUICK)
		add(p, c, BG_PROCESS, OS, STEP_COPIES, 0.2, "lat_proc", "procedure", NULL);
	add(p, c, BG_PROCESS, OS, STEP_COPIES, 1.5, "lat_proc", "fork", NULL);
	add(p, c, BG_PROCESS, OS, STEP_COPIES, 1.5, "lat_proc", "exec", NULL);
	add(p, c, BG_PROCESS, OS, STEP_COPIES, 2.0, "lat_proc", "shell", NULL);

	add(p, c, BG_OPS, HW, 0, 0.6, "lat_ops", NULL);
	add(p, c, BG_OPS, HW, 0, 3.4, "par_ops", NULL);
}

static void files(struct plan *p, const struct plan_cfg *c)
{
	char fsz[32], lbl[600];
	plan_size_str(c->file_bytes, fsz, sizeof fsz);
	snprintf(lbl, sizeof lbl, "label=File %s write bandwidth: ", c->file);
	struct args a = { .n = 0 };
	arg(&a, "lmdd");
	arg(&a, "%s", lbl);
	arg(&a, "of=%s", c->file);
	arg(&a, "move=%s", fsz);
	arg(&a, "fsync=1");
	arg(&a, "print=3");
	push(p, c, BG_FILE, OS, STEP_WRITES_FILE, 1.2 + (double)c->file_bytes / 1e8, &a);

	/* No FILE: lat_pagefault then makes its own file in --fsdir and evicts its pages before each
	 * pass, so it measures real (major) faults; given $FILE it could only measure minor ones. */
	add(p, c, BG_FILE, OS, STEP_COPIES, 4.0, "lat_pagefault", NULL);

	/* "mappings: lat_mmap at sizes from 512k (lmbench's smaller ones exit silently). */
	uint64_t sz[40];
	int n = sizes(c, c->file_bytes, 0, sz, 40);
	for (int i = 0; i < n; i++) {
		if (sz[i] < 512 * 1024 || (THIN(c) && i != n - 1))
			continue;
		char s[32];
		plan_size_str(sz[i], s, sizeof s);
		add(p, c, BG_FILE, OS, STEP_COPIES | STEP_FILE, 0.3, "lat_mmap", s, c->file, NULL);
	}

	if (THIN(c)) {
		add(p, c, BG_FILE, OS, 0, 7.0, "lat_fs", "-s", "0", c->fsdir, NULL);
		add(p, c, BG_FILE, OS, 0, 7.0, "lat_fs", "-s", "10240", c->fsdir, NULL);
	} else {
		add(p, c, BG_FILE, OS, 0, 14.0, "lat_fs", c->fsdir, NULL);
	}
	if (c->disk)
		add(p, c, BG_DISK, HW, 0, 20.0, "disk", c->disk, NULL);
}

static void net_set(struct plan *p, const struct plan_cfg *c, const char *host, unsigned fl)
{
	fl |= STEP_COPIES;
	add(p, c, BG_NET, OS, fl, 0.5, "lat_udp", host, NULL);
	add(p, c, BG_NET, OS, fl, 0.5, "lat_tcp", host, NULL);
	add(p, c, BG_NET, OS, fl, 0.6, "lat_rpc", "-p", "udp", host, NULL);
	add(p, c, BG_NET, OS, fl, 0.6, "lat_rpc", "-p", "tcp", host, NULL);
	add(p, c, BG_NET, OS, fl & ~STEP_COPIES, 0.6, "lat_connect", host, NULL);
	static const char *mq[] = { "10m" }, *md[] = { "1", "64", "1024", "10m" },
			  *mf[] = { "1", "64", "128", "256", "512", "1024", "1437", "10m" };
	const char **m = THIN(c) ? mq : c->profile == PROF_FULL ? mf : md;
	int nm = THIN(c) ? 1 : c->profile == PROF_FULL ? 8 : 4;
	for (int i = 0; i < nm; i++)
		add(p, c, BG_NET, OS, fl, strcmp(m[i], "1") == 0 ? 4.6 : 3.6, "bw_tcp", "-m", m[i], host,
		    NULL);
	if (c->profile == PROF_FULL)
		add(p, c, BG_NET, OS, fl, 0.7, "bw_udp", host, NULL);
	add(p, c, BG_NET, OS, fl & ~STEP_COPIES, 1.0, "lat_http", host, NULL);
}

static void net(struct plan *p, const struct plan_cfg *c)
{
	/* Local: no host operand, so each tool starts its own servers on ephemeral ports. */
	net_set(p, c, NULL, 0);
	/* Remote: also no host operand; the step's child parses HOST[:BASE] into its context
	 * (net_remote_parse), so the tools talk to that `plumb serve` on its port base. */
	if (c->remote)
		net_set(p, c, NULL, STEP_REMOTE);
}

static void ipc_bw_files(struct plan *p, const struct plan_cfg *c)
{
	add(p, c, BG_IPC, OS, STEP_COPIES, 0.5, "bw_unix", NULL);
	add(p, c, BG_IPC, OS, STEP_COPIES, 0.5, "bw_pipe", NULL);

	uint64_t sz[40];
	int n = sizes(c, c->file_bytes, 0, sz, 40);
	static const char *tool[] = { "bw_file_rd", "bw_mmap_rd" };
	static const char *mode[2][2] = { { "io_only", "open2close" }, { "mmap_only", "open2close" } };
	for (int t = 0; t < 2; t++)
		for (int m = 0; m < (THIN(c) ? 1 : 2); m++)
			for (int i = THIN(c) ? n - 1 : 0; i < n; i++) {
				char s[32];
				plan_size_str(sz[i], s, sizeof s);
				add(p, c, BG_FILE, OS, STEP_COPIES | STEP_FILE | STEP_COLD,
				    0.25 + (double)sz[i] / 2e9 * 11, tool[t], s, mode[t][m], c->file, NULL);
			}
}

static void mem_bw(struct plan *p, const struct plan_cfg *c)
{
	/* lmbench's order; half = the HALF list (copies need two buffers). */
	static const struct { const char *mode, *extra; int half, quick; } ser[] = {
		{ "bcopy", NULL, 1, 1 }, { "bcopy", "conflict", 1, 0 }, { "bzero", NULL, 0, 0 },
		{ "fcp", NULL, 1, 1 }, { "cp", NULL, 1, 0 }, { "frd", NULL, 0, 1 },
		{ "rd", NULL, 0, 0 }, { "fwr", NULL, 0, 1 }, { "wr", NULL, 0, 0 },
		{ "rdwr", NULL, 0, 0 },
	};
	for (size_t k = 0; k < sizeof ser / sizeof ser[0]; k++) {
		if (c->profile == PROF_QUICK && !ser[k].quick)
			continue;
		uint64_t sz[40];
		int n = sizes(c, c->mem_bytes, ser[k].half, sz, 40);
		for (int i = THIN(c) ? n - 1 : 0; i < n; i++) {
			char s[32];
			plan_size_str(sz[i], s, sizeof s);
			double est = 0.3 + (double)sz[i] / 1e9 * (ser[k].half ? 14.0 : 7.0);
			add(p, c, BG_MEMORY, HW | OS, STEP_COPIES, est, "bw_mem", s, ser[k].mode, ser[k].extra,
			    NULL);
		}
	}
}

static void ctx(struct plan *p, const struct plan_cfg *c)
{
	static const char *sq[] = { "0", "16", "64" }, *sd[] = { "0", "4", "16", "64" },
			  *sf[] = { "0", "4", "8", "16", "32", "64" };
	static const char *nq[] = { "2", "8", "16" }, *nd[] = { "2", "4", "8", "16", "32" },
			  *nf[] = { "2", "4", "8", "16", "24", "32", "64", "96" };
	const char **s = THIN(c) ? sq : c->profile == PROF_FULL ? sf : sd;
	const char **ns = THIN(c) ? nq : c->profile == PROF_FULL ? nf : nd;
	int nsz = THIN(c) ? 3 : c->profile == PROF_FULL ? 6 : 4;
	int nn = THIN(c) ? 3 : c->profile == PROF_FULL ? 8 : 5;
	for (int i = 0; i < nsz; i++) {
		struct args a = { .n = 0 };
		arg(&a, "lat_ctx");
		arg(&a, "-s");
		arg(&a, "%s", s[i]);
		/* lmbench's summary reads 2p/0K only, so the quick profile measures just that. */
		int upto = THIN(c) && i == 0 ? 1 : nn;
		for (int k = 0; k < upto; k++)
			arg(&a, "%s", ns[k]);
		push(p, c, BG_CTX, OS, STEP_COPIES, 0.3 + 0.2 * upto, &a);
	}
}

/*
 * The memory steps' cost, from what they do rather than a flat guess (they were most of a run,
 * and grow with the memory series' top M): each measured point costs its samples (R, plus
 * about 2 for calibration) of the tool's minimum sample time; set-up costs what it touches:
 * faulting the buffer in (~2 GB/s), building random chains (~150 ns a line: a cache miss per
 * insertion), sweeps in address order (~10 GB/s). Constants from this 2-vCPU guest.
 */
static double pt_s(const struct plan_cfg *c, double sample_ms)
{
	double r = c->reps > 0 ? c->reps : 11;
	if (c->profile == PROF_FULL)
		r *= 1.5; /* adaptive sampling to 51 takes more where the metric is noisy */
	return (r + 2) * sample_ms / 1000.0;
}

static double log2d(double x)
{
	return x > 1 ? log2(x) : 0;
}

static void mem_lat(struct plan *p, const struct plan_cfg *c)
{
	char mm[32], mbn[32], line[16];
	snprintf(mm, sizeof mm, "%lluM", (unsigned long long)(c->mem_bytes / MIB));
	snprintf(mbn, sizeof mbn, "%llu", (unsigned long long)(c->mem_bytes / MIB));
	snprintf(line, sizeof line, "%d", c->line);
	double M = (double)c->mem_bytes, lines = M / (c->line > 0 ? c->line : 64);
	/* the effective last level (a guest's reported host L3 is not what its caches hold) */
	double llc = (double)mem_llc_believed(), warmed = llc > 0 && 2 * llc < M ? 2 * llc : M;
	/* tlb's -M counts pages in plumb (lmbench's suite passed bytes): its default is used. */
	add(p, c, BG_MEMORY, HW, 0, 2.0, "tlb", "-L", line, NULL);
	/* par_mem: 17 measurements of 0.5 ms samples per size (16 lines .. M, doubling), the
	 * permutation once, each size's lines linked (bench/mem/par_mem.c) */
	double npm = log2d(lines / 16) + 1;
	add(p, c, BG_MEMORY, HW, STEP_EST_FINAL,
	    0.1 + M / 2e9 + lines * 20e-9 + npm * lines * 1.5e-9 + npm * 17 * pt_s(c, 0.7),
	    "par_mem", "-L", line, "-M", mm, NULL);
	/* cache: two sweeps of 4 points per doubling from 512 bytes (1 ms samples), each growing
	 * a chain through M; then parallelism at each level (9 measurements) */
	if (c->profile != PROF_QUICK)
		add(p, c, BG_MEMORY, HW, STEP_EST_FINAL,
		    0.1 + M / 2e9 + 2 * lines * 150e-9 + 2 * 4 * log2d(M / 512) * pt_s(c, 1.0) +
			    2 * 8 * warmed / 10e9 + 4 * 9 * pt_s(c, 1.0),
		    "cache", NULL);

	/* STREAM sizes its arrays by its own rule (mem_common.h) unless --mem is given, as
	 * lmbench passes it; 4 kernels, each about 2.5 arrays a pass at ~10 GB/s, R + 2 passes */
	double arr = c->mem_given ? M / 3 : M;
	for (int v = 1; v <= (c->profile == PROF_QUICK ? 1 : 2); v++) {
		struct args a = { .n = 0 };
		arg(&a, "stream");
		if (v == 2) {
			arg(&a, "-v");
			arg(&a, "2");
		}
		if (c->mem_given) {
			arg(&a, "-M");
			arg(&a, "%s", mm);
		} else if (c->mem_cut) {
			arg(&a, "-M"); /* lmbench's -M: the three arrays' total */
			arg(&a, "%lluM", 3 * (unsigned long long)(c->mem_bytes / MIB));
		}
		push(p, c, BG_STREAM, HW, STEP_COPIES | STEP_EST_FINAL,
		     0.2 + 3 * arr / 2e9 + 4 * pt_s(c, 1000) * 2.5 * arr / 10e9, &a);
	}

	/* "Memory load latency": stride 128 is what lmbench's summary reads (L1, L2, main). */
	static const char *stq[] = { "128" }, *std[] = { "16", "64", "128" },
			  *stf[] = { "16", "32", "64", "128", "256", "512", "1024" };
	const char **st = THIN(c) ? stq : c->profile == PROF_FULL ? stf : std;
	int nst = THIN(c) ? 1 : c->profile == PROF_FULL ? 7 : 3;
	double pts = memrd_points(c->mem_bytes);
	struct args a = { .n = 0 };
	arg(&a, "lat_mem_rd");
	arg(&a, "%s", mbn);
	for (int i = 0; i < nst; i++)
		arg(&a, "%s", st[i]);
	/* 2 ms samples per point, and a warm-up walk of up to 2 x LLC lines at ~1 ns a load */
	push(p, c, BG_MEMORY, HW, STEP_COPIES | STEP_EST_FINAL,
	     0.1 + M / 2e9 + nst * pts * (pt_s(c, 2.0) + 0.0005), &a);
	/* "Random load latency": points, the chain grown once through M (a 16-byte slot each),
	 * the block-random chase at the top (shuffle, link, walk), sweeps to warm each size */
	/* (sizes within the last level are warmed by a walk of up to 1 Mi loads at ~40 ns: about
	 * 24 sizes near the top of it) */
	double in_llc = llc > 0 && llc < M ? llc : M;
	double walk = in_llc / 16 < 1048576 ? in_llc / 16 : 1048576;
	add(p, c, BG_MEMORY, HW, STEP_COPIES | STEP_EST_FINAL,
	    0.1 + M / 2e9 + pts * pt_s(c, 2.0) + M / 16 * 40e-9 + 24 * walk * 40e-9 +
		    (M >= 8 * MIB ? lines * 100e-9 : 0) + 16 * warmed / 10e9,
	    "lat_mem_rd", "-t", mbn, "16", NULL);
}

/* lmbench's tools that its suite never ran, and plumb's own views (lat_c2c, scale): in the plan so that
 * `--only TOOL` (or the tool's alias) runs them, kept out of every profile otherwise
 * (STEP_ASKED). */
static void asked(struct plan *p, const struct plan_cfg *c)
{
	static const char *sleeps[] = { "usleep", "nanosleep", "select", "pselect", "itimer" };
	for (size_t i = 0; i < sizeof sleeps / sizeof sleeps[0]; i++)
		add(p, c, BG_SIGNAL, OS, STEP_ASKED, 1.0, "lat_usleep", "-u", sleeps[i], "100", NULL);
	add(p, c, BG_OPS, HW, STEP_ASKED, 0.5, "lat_rand", NULL);
	add(p, c, BG_PROCESS, OS, STEP_ASKED, 1.5, "lat_cmd", "true", NULL);
	static const char *jobs[] = { "1", "2", "4" };
	for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
		add(p, c, BG_PROCESS, OS, STEP_ASKED, 2.0, "lat_pmake", jobs[i], "1000", "10000", NULL);
	add(p, c, BG_MEMORY, HW, STEP_ASKED, 3.0, "lat_dram_page", NULL);
	/* plumb's own: every ordered pair of CPUs, about 30 ms a pair */
	int cpus[256], n = cpu_online(cpus, 256);
	add(p, c, BG_OPS, HW, STEP_ASKED, 0.2 + 0.03 * n * (n - 1), "lat_c2c", NULL);
	/* plumb's own: 5 operations at 1..n copies, about 0.2 s a point (5 samples of 20 ms,
	 * a warm-up interval, starting the copies) and rd's buffers written once a point */
	add(p, c, BG_PROCESS, OS, STEP_ASKED, 0.3 + 1.0 * n, "scale", NULL);
	/* 9 levels of samples of 20 ms, a calibration each, and the chain: a round of the default
	 * profile took 2 s on the 2-vCPU guest, the tool alone (7 samples) 2.2 s */
	add(p, c, BG_MEMORY, HW, STEP_ASKED, 10.0, "lat_loaded", NULL);
	/* plumb's own: 9 operations x 11 blocks of 5000 single ones, about 4 s here */
	add(p, c, BG_SIGNAL, OS, STEP_ASKED, 5.0, "lat_tail", NULL);
	/* plumb's own: lat_pipe's round trip through epoll_wait(), as cheap as lat_pipe's */
	add(p, c, BG_IPC, OS, STEP_ASKED | STEP_COPIES | STEP_OS_ROUNDS, 0.3, "lat_epoll", NULL);
}

void plan_build(struct plan *p, const struct plan_cfg *c)
{
	memset(p, 0, sizeof *p);
	p->os_factor = c->os_factor > 1 ? c->os_factor : 1;
	facts(p, c);
	os_basic(p, c);
	files(p, c);
	net(p, c);
	ipc_bw_files(p, c);
	mem_bw(p, c);
	ctx(p, c);
	asked(p, c); /* before lmbench's last step, lat_mem_rd -t */
	mem_lat(p, c);
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		for (int k = 0; k < p->v[i].argc; k++)
			free(p->v[i].argv[k]);
		free(p->v[i].argv);
		free(p->v[i].label);
	}
	free(p->v);
	memset(p, 0, sizeof *p);
}

double plan_cost(const struct plan *p, int rounds, int (*sel)(const struct step *, void *),
		 void *arg)
{
	double steps = 0;
	int r = rounds > 0 ? rounds : 1, k = p->os_factor > 1 ? p->os_factor : 1;
	for (size_t i = 0; i < p->n; i++)
		if (!p->v[i].dropped && (!sel || sel(&p->v[i], arg)))
			/* what each step costs outside its child (clock probe, sweep): about 5 ms */
			steps += (p->v[i].est_s + 0.005) * ((p->v[i].flags & STEP_OS_ROUNDS) ? r * k : r);
	/* the run's own: noise check, start-up and the knee probe (about 1.5 s) */
	return 1.5 + steps;
}
