/* results_test.c — the results layer: the lmbench importer's mapping to registry metrics, the
 * JSON parser's strictness and bounds (truncations at every byte, mutations, deep nesting), exact
 * JSON and store round trips, schema migration, and summary rules for plumb's own runs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/summary.h"
#include "results/io.h"
#include "results/store.h"
#include "results/store_db.h"
#include "test.h"
#ifdef HAVE_SQLITE
#include <sqlite3.h>
#endif

#define DATA "tests/data/lmbench/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static double value_of(const struct run *r, const char *metric, const char *params, double x)
{
	const struct result *p = run_find(r, metric, params, x);
	return p ? p->value : -12345;
}

TEST(lmbench_import_maps_to_registry)
{
	char err[256];
	struct run *r = run_read_file(DATA "seed-a10-3.0.36-28.txt", err, sizeof err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_STR(r->host, "T-01");
	CHECK_STR(r->profile, "lmbench");
	CHECK(!strncmp(r->source, "lmbench3:", 9));
	CHECK_STR(kv_get(&r->facts, "lmbench.LMBENCH_VER"), "3.0-a9");
	CHECK_STR(kv_get(&r->facts, "kernel"), "3.0.36+");
	CHECK_NEAR(value_of(r, "lat_syscall.null", "", NAN), 0.3456, 0);
	CHECK_NEAR(value_of(r, "lat_select.file", "n=100", NAN), 9.7291, 0);
	CHECK_NEAR(value_of(r, "lat_select.tcp", "n=500", NAN), 74.6780, 0);
	CHECK_NEAR(value_of(r, "lat_mem_rd.seq", "stride=128", 1024 / 1048576.0), 3.022, 0);
	CHECK_NEAR(value_of(r, "lat_mem_rd.seq", "stride=1024", 128), 170.194, 0);
	CHECK_NEAR(value_of(r, "lat_mem_rd.rand", "stride=16", 128), 309.296, 0);
	CHECK_NEAR(value_of(r, "bw_mem.frd", "", 134.217728), 358.98, 0);
	CHECK_NEAR(value_of(r, "bw_mem.bcopy", "conflict=1", 67.108864), 240.15, 0);
	CHECK_NEAR(value_of(r, "bw_mem.bcopy", "", 67.108864), 238.96, 0);
	CHECK_NEAR(value_of(r, "lat_ctx.overhead", "size=0", NAN), 3.61, 0);
	CHECK_NEAR(value_of(r, "lat_ctx.switch", "size=0", 2), 5.35, 0);
	CHECK_NEAR(value_of(r, "lat_ctx.switch", "size=64", 96), 164.81, 0);
	CHECK_NEAR(value_of(r, "lat_fs.create", "size=0", NAN), 17116, 0);
	CHECK_NEAR(value_of(r, "lat_fs.delete", "size=10240", NAN), 2574, 0);
	CHECK_NEAR(value_of(r, "bw_tcp.bandwidth", "host=localhost", 10), 8.78, 0);
	CHECK_NEAR(value_of(r, "lat_udp.latency", "host=localhost", NAN), 984.8660, 0);
	CHECK_NEAR(value_of(r, "lat_mmap.latency", "", 134.217728), 4390, 0);
	CHECK_NEAR(value_of(r, "bw_file_rd.io_only", "", 1.048576), 261.44, 0);
	CHECK_NEAR(value_of(r, "bw_mem.rd", "", 0.000512), 7242.95, 0);
	CHECK_NEAR(value_of(r, "par_mem.parallelism", "", 134.217728), 1.00, 0);
	CHECK_NEAR(value_of(r, "lmdd.write_bw", "file=/var/tmp/XXX", NAN), 3101, 0);
	CHECK_NEAR(value_of(r, "lat_pagefault.latency", "file=/var/tmp/XXX", NAN), 4.2495, 0);
	CHECK_NEAR(value_of(r, "stream2.daxpy", "", NAN), 360.41, 0);
	CHECK_NEAR(value_of(r, "tlb.pages", "", NAN), 32, 0);
	CHECK_NEAR(value_of(r, "par_ops.integer_mul", "", NAN), 2.90, 0);
	CHECK_NEAR(value_of(r, "lat_http.latency", "", NAN), 117, 0);
	CHECK_NEAR(value_of(r, "disk.seek", "dev=/dev/mmcblk0", 2.3), 14.79, 0);
	/* "uint64 add:" is lat_ops.int64_add, marked as lmbench printed it */
	const struct result *u = run_find(r, "lat_ops.int64_add", "", NAN);
	CHECK(u && u->info && strstr(u->info, "lmbench_label=uint64"));
	/* every imported result: method version 0, one sample */
	int bad = 0;
	for (size_t i = 0; i < r->results.n; i++)
		bad += r->results.v[i].version != 0 || r->results.v[i].nsamples != 1;
	CHECK(bad == 0);
	run_free(r);
}

TEST(lmbench_thread_gives_two_runs)
{
	size_t len;
	char *buf = slurp(DATA "armhf-kernel-lmbench-thread.txt", &len);
	struct run **v = NULL;
	size_t n = 0;
	char err[256];
	CHECK(buf && runs_parse(buf, len, "thread", &v, &n, err, sizeof err) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(v[0]->host, "DS02");
		CHECK_STR(v[1]->host, "T-01");
		/* the blocks equal the files cut out of the thread: same number of results */
		struct run *a = run_read_file(DATA "seed-goflex-kirkwood.txt", err, sizeof err);
		CHECK(a && a->results.n == v[0]->results.n);
		run_free(a);
	}
	for (size_t i = 0; i < n; i++)
		run_free(v[i]);
	free(v);
	free(buf);
}

TEST(lmbench_rejects)
{
	char err[256];
	struct run **v = NULL;
	size_t n = 0;
	CHECK(runs_parse("", 0, "e", &v, &n, err, sizeof err) < 0 && strstr(err, "e: empty"));
	CHECK(runs_parse("a\0b", 3, "b", &v, &n, err, sizeof err) < 0 && strstr(err, "binary"));
	const char *hdr = "[lmbench3.0 results for Linux x 1.0]\n[MB: 8]\nprose\n";
	CHECK(runs_parse(hdr, strlen(hdr), "h", &v, &n, err, sizeof err) < 0 &&
	      strstr(err, "no recognisable"));
	const char *nohdr = "Simple syscall: 0.1 microseconds\n";
	CHECK(runs_parse(nohdr, strlen(nohdr), "x", &v, &n, err, sizeof err) < 0);
	/* a minimal file without a final newline still reads */
	const char *min = "[lmbench3.0 results for Linux x 1.0]\nSimple syscall: 0.1 microseconds";
	CHECK(runs_parse(min, strlen(min), "m", &v, &n, err, sizeof err) == 0 && n == 1);
	for (size_t i = 0; i < n; i++)
		run_free(v[i]);
	free(v);
}

/* A run with awkward doubles: every sample must come back bit for bit. */
static struct run *sample_run(void)
{
	struct run *r = run_new();
	r->label = strdup("label \"quoted\" \\ tab\t");
	r->host = strdup("host");
	r->profile = strdup("quick");
	r->source = strdup("plumb");
	r->started = strdup("2026-11-30T04:00:00Z");
	r->incomplete = 1;
	r->rounds = 3;
	kv_set(&r->facts, "kernel", "6.1 é ünïcode");
	kv_set(&r->facts, "opt.copies", "2");
	static const double vals[] = { 0.1, 1.0 / 3, 5e-324, 1.7976931348623157e308, 123456.789,
				       -0.0, 2.2250738585072014e-308, 0.30000000000000004 };
	/* a metric plumb does not know (run_check judges only finiteness): every double survives */
	struct result *p = result_list_add(&r->results, "other.exact", "", NAN);
	p->unit = strdup("furlongs");
	p->version = 1;
	p->info = strdup("cpu=1 placement=single:1 cpu_big");
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
		result_add_sample(p, (struct sample){ .value = vals[i], .iters = INT64_MAX - i,
						     .elapsed_ns = vals[i] / 7, .round = (int)i % 3 });
	p->value = 1.0 / 3;
	p = result_list_add(&r->results, "lat_mem_rd.seq", "stride=128", 1024 / 1048576.0);
	p->unit = strdup("ns");
	result_add_sample(p, (struct sample){ .value = 1.25, .elapsed_ns = NAN });
	p->value = 1.25;
	return r;
}

/* Exactly equal (SQLite keeps -0.0 as 0, the only double it does not keep bit for bit). */
static int same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int same_run(const struct run *a, const struct run *b)
{
	if (a->results.n != b->results.n || a->facts.n != b->facts.n || a->rounds != b->rounds ||
	    a->incomplete != b->incomplete || strcmp(a->label, b->label) || strcmp(a->host, b->host))
		return 0;
	for (size_t i = 0; i < a->facts.n; i++)
		if (!kv_get(&b->facts, a->facts.v[i].key) ||
		    strcmp(kv_get(&b->facts, a->facts.v[i].key), a->facts.v[i].val))
			return 0;
	for (size_t i = 0; i < a->results.n; i++) {
		const struct result *p = &a->results.v[i], *q = &b->results.v[i];
		if (strcmp(p->metric, q->metric) || strcmp(p->params, q->params) ||
		    !same_double(p->x, q->x) || !same_double(p->value, q->value) ||
		    p->nsamples != q->nsamples || p->version != q->version ||
		    strcmp(p->info ? p->info : "", q->info ? q->info : ""))
			return 0;
		for (size_t k = 0; k < p->nsamples; k++)
			if (!same_double(p->samples[k].value, q->samples[k].value) ||
			    !same_double(p->samples[k].elapsed_ns, q->samples[k].elapsed_ns) ||
			    p->samples[k].iters != q->samples[k].iters ||
			    p->samples[k].round != q->samples[k].round)
				return 0;
	}
	return 1;
}

static char *to_json(const struct run *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	run_write_json(r, f);
	fclose(f);
	return buf;
}

TEST(json_roundtrip_exact)
{
	struct run *r = sample_run();
	size_t len;
	char *buf = to_json(r, &len), err[256];
	struct run *b = run_parse(buf, len, "mem", err, sizeof err);
	CHECK(b != NULL);
	if (b)
		CHECK(same_run(r, b));
	run_free(b);
	free(buf);
	run_free(r);
}

TEST(json_truncated_at_every_byte)
{
	struct run *r = sample_run();
	size_t len;
	char *buf = to_json(r, &len), err[256];
	int accepted = 0;
	for (size_t cut = 0; cut < len; cut++) {
		/* a copy of exactly cut bytes, so a read past it is caught by ASan */
		char *c = malloc(cut ? cut : 1);
		memcpy(c, buf, cut);
		struct run *t = run_parse(c, cut, "cut", err, sizeof err);
		/* only the document minus its final newline is still complete */
		accepted += t != NULL;
		run_free(t);
		free(c);
	}
	CHECK(accepted == 1);
	free(buf);
	run_free(r);
}

TEST(json_mutations_never_crash)
{
	struct run *r = sample_run();
	size_t len;
	char *buf = to_json(r, &len), err[256];
	unsigned s = 12345;
	static const char pick[] = "{}[]\",:\\0123456789eE.-+ntfu\x01\xff";
	for (int i = 0; i < 3000; i++) {
		char *c = malloc(len);
		memcpy(c, buf, len);
		for (int k = 0; k < 1 + i % 4; k++) {
			s = s * 1103515245 + 12345;
			c[(s >> 8) % len] = pick[(s >> 3) % (sizeof pick - 1)];
		}
		run_free(run_parse(c, len, "mut", err, sizeof err));
		free(c);
	}
	CHECK(1);
	free(buf);
	run_free(r);
}

TEST(json_strictness)
{
	char err[256];
	static const char *bad[] = {
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [],}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [01]}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": []} x",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [\"\\ud800\"]}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [\"a\tb\"]}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [1.]}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [tru]}",
		"{\"schema\": \"other/1\", \"kind\": \"run\", \"results\": []}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\"}",
		"{\"schema\": \"plumb/1\", \"kind\": \"run\", \"results\": [{\"value\": 1}]}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct run *r = run_parse(bad[i], strlen(bad[i]), "bad", err, sizeof err);
		if (r)
			test_fail(__FILE__, __LINE__, "accepted bad JSON #%zu", i);
		run_free(r);
	}
	/* nesting deeper than the limit is an error, not a stack overflow */
	size_t depth = 200000;
	char *deep = malloc(depth * 5 + 64);
	size_t o = (size_t)sprintf(deep, "{\"schema\": \"plumb/1\", \"x\": ");
	for (size_t i = 0; i < depth; i++)
		o += (size_t)sprintf(deep + o, "{\"a\":");
	struct run *r = run_parse(deep, o, "deep", err, sizeof err);
	CHECK(r == NULL && strstr(err, "deep"));
	free(deep);
	/* unknown keys are ignored; \u escapes and surrogate pairs decode */
	const char *ok = "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"future\": {\"a\": [1, 2e3]},"
			 " \"run\": {\"label\": \"\\u00e9\\ud83d\\ude00\"}, \"results\": []}";
	r = run_parse(ok, strlen(ok), "ok", err, sizeof err);
	CHECK(r && r->label && !strcmp(r->label, "\xc3\xa9\xf0\x9f\x98\x80"));
	run_free(r);
}

TEST(lmbench_mutations_never_crash)
{
	size_t len;
	char *buf = slurp(DATA "seed-goflex-kirkwood.txt", &len), err[256];
	unsigned s = 777;
	for (int i = 0; i < 300 && buf; i++) {
		char *c = malloc(len);
		memcpy(c, buf, len);
		for (int k = 0; k < 20; k++) {
			s = s * 1103515245 + 12345;
			c[(s >> 8) % len] = (char)(" \n\"[]:.0123456789k-"[(s >> 3) % 19]);
		}
		size_t cut = (s >> 4) % len + 1;
		struct run **v = NULL;
		size_t n = 0;
		runs_parse(c, cut, "mut", &v, &n, err, sizeof err);
		for (size_t k = 0; k < n; k++)
			run_free(v[k]);
		free(v);
		free(c);
	}
	CHECK(1);
	free(buf);
}

/* A plumb run (not imported): the int64 table, Mhz from the measured fact, "Main mem" at four
 * times the last-level cache, and a value below 0.001 in a 5-wide column printed properly. */
TEST(summary_plumb_run)
{
	struct run *r = run_new();
	r->host = strdup("box");
	r->profile = strdup("default");
	kv_set(&r->facts, "os", "Linux");
	kv_set(&r->facts, "kernel", "6.1.0");
	kv_set(&r->facts, "mhz", "2993");
	kv_set(&r->facts, "cache_l2", "1048576");
	kv_set(&r->facts, "cache_l3", "8388608"); /* 8 MiB: main memory from 32 MiB on */
	struct result *p;
#define ADD(m, par, x, v) (p = result_list_add(&r->results, m, par, x), p->value = (v))
	ADD("lat_ops.int64_bit", "", NAN, 0.31);
	ADD("lat_ops.int64_add", "", NAN, 0.29);
	ADD("lat_sig.prot", "", NAN, 0.0004);
	double sizes[] = { 1024 / 1048576.0, 0.125, 8, 16, 32, 64, 128 };
	double lat[] = { 1.1, 3.3, 20, 60, 90, 95, 96 };
	for (int i = 0; i < 7; i++)
		ADD("lat_mem_rd.seq", "stride=128", sizes[i], lat[i]);
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);
	summary_print(f, &r, 1);
	fclose(f);
	CHECK(strstr(out, "Basic uint64 operations"));
	CHECK(strstr(out, "box         Linux 6.1.0  0.310 0.2900"));
	/* Mhz 2993; L1 1.1, L2 3.3, Main mem at 32 MiB (90), not the largest size (96) */
	CHECK(strstr(out, "box         Linux 6.1.0  2993 1.1000 3.3000   90.0"));
	CHECK(strstr(out, "4e-04"));      /* Prot Fault, a 5-wide column: not "%5.-1e" */
	CHECK(!strstr(out, "%"));
	free(out);
	run_free(r);
}

#ifdef HAVE_SQLITE
TEST(store_roundtrip_and_labels)
{
	char path[] = "/tmp/plumb-store-test-XXXXXX", err[256];
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	struct store *s = store_open(path, 1, err, sizeof err);
	CHECK(s != NULL);
	if (!s)
		return;
	struct run *r = sample_run();
	CHECK(store_save(s, r, err, sizeof err) == 0 && r->id > 0);
	struct run *b = store_load(s, r->id, err, sizeof err);
	CHECK(b && same_run(r, b));
	CHECK(b && !strcmp(b->started, r->started));
	long *ids = NULL;
	CHECK(store_find_label(s, r->label, &ids) == 1 && ids[0] == r->id);
	free(ids);
	CHECK(store_relabel(s, r->id, "x", err, sizeof err) == 0);
	CHECK(store_find_label(s, "x", &ids) == 1);
	free(ids);
	CHECK(store_delete(s, r->id, err, sizeof err) == 0);
	CHECK(store_load(s, r->id, err, sizeof err) == NULL);
	CHECK(store_delete(s, r->id, err, sizeof err) < 0);
	CHECK(store_check(s, err, sizeof err) == 0);
	run_free(b);
	run_free(r);
	store_close(s);
	unlink(path);
	char wal[64];
	snprintf(wal, sizeof wal, "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof wal, "%s-shm", path);
	unlink(wal);
}

/* A store made by the first schema (version 1) opens and is migrated (index of version 2, uids of
 * version 3 given to the runs it held); a newer one is refused. */
TEST(store_migrates_and_refuses_newer)
{
	char path[] = "/tmp/plumb-store-mig-XXXXXX", err[256];
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	sqlite3 *db;
	sqlite3_open(path, &db);
	char *v1 = schema_migration(0, DIALECT_SQLITE);
	CHECK(v1 && sqlite3_exec(db, v1, NULL, NULL, NULL) == SQLITE_OK);
	free(v1);
	CHECK(sqlite3_exec(db, "INSERT INTO runs (label, host) VALUES ('old', 'box');"
			   "INSERT INTO runs (label, host) VALUES ('old2', 'box');"
			   "PRAGMA user_version = 1; PRAGMA application_id = 1886154082",
			   NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	struct store *s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	struct run *r = s ? store_load(s, 1, err, sizeof err) : NULL;
	CHECK(r && uid_valid(r->uid));
	run_free(r);
	store_close(s);
	sqlite3_open(path, &db);
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE name IN ('results_metric', "
			   "'runs_uid')", -1, &st, NULL);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 2);
	sqlite3_finalize(st);
	/* two runs of equal content: the first keeps the uid, the second none (not a clash) */
	sqlite3_prepare_v2(db, "SELECT count(uid) FROM runs", -1, &st, NULL);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1);
	sqlite3_finalize(st);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL && strstr(err, "newer"));
	store_close(s);
	unlink(path);
}
#endif

/* A series' abscissa is never part of its identity; scratch paths are not identity either. */
TEST(series_identity_and_scratch_paths)
{
	struct result_list l = { 0 };
	struct result *r = result_list_add(&l, "lat_mem_rd.seq", "stride=128 size=1024", 0.0009765625);
	CHECK_STR(r->params, "stride=128");
	r = result_list_add(&l, "bw_mem.bcopy", "size=67108864 conflict=1", 67.108864);
	CHECK_STR(r->params, "conflict=1");
	r = result_list_add(&l, "par_mem.parallelism", "size=4096 line=64", 0.004096);
	CHECK_STR(r->params, "line=64");
	r = result_list_add(&l, "lat_ctx.switch", "size=16", 8); /* x is the process count */
	CHECK_STR(r->params, "size=16");
	r = result_list_add(&l, "lat_fs.create", "size=1024", NAN);
	CHECK_STR(r->params, "size=1024");
	result_list_free(&l);
	CHECK(params_same("file=/var/tmp/XXX", "file=/tmp/plumb.*/XXX"));
	CHECK(params_same("file=/tmp/XXX", "file=/var/tmp/plumb.*/x"));
	CHECK(params_same("n=1 file=/var/tmp/XXX", "n=1 file=/tmp/plumb.*/XXX"));
	CHECK(!params_same("n=2 file=/var/tmp/XXX", "n=1 file=/tmp/plumb.*/XXX"));
	CHECK(!params_same("file=/data/big", "file=/var/tmp/XXX"));
	CHECK(!params_same("file=/var/tmp/XXX", "dev=/var/tmp/XXX"));
	CHECK(!params_same("stride=16", "stride=16 size=2"));
	CHECK(params_same("", NULL));
}

/* One point identity (core/result.c) for run, compare and summary. */
TEST(point_identity)
{
	CHECK(x_same(NAN, NAN));
	CHECK(!x_same(NAN, 0));
	CHECK(!x_same(1, NAN));
	CHECK(x_same(2, 2));
	/* lmbench's 5-decimal MiB against the exact size: 512 bytes */
	CHECK(x_same(0.00049, 512.0 / 1048576.0));
	/* lat_mem_rd's neighbouring sizes stay apart: 512 and 1024 bytes, 256 MiB and 272 MiB */
	CHECK(!x_same(512.0 / 1048576.0, 1024.0 / 1048576.0));
	CHECK(!x_same(256, 272));
	CHECK(x_same(256, 256 * (1 + 5e-7))); /* a JSON writer's 7 digits */
	CHECK(!x_same(8, 16));
	struct result_list l = { 0 };
	struct result *r = result_list_add(&l, "lat_fs.create", "size=0 file=/tmp/plumb.1/XXX", 4);
	CHECK(point_same(r, "lat_fs.create", "size=0 file=/var/tmp/XXX", 4));
	CHECK(!point_same(r, "lat_fs.delete", "size=0 file=/var/tmp/XXX", 4));
	CHECK(!point_same(r, "lat_fs.create", "size=1 file=/var/tmp/XXX", 4));
	CHECK(!point_same(r, "lat_fs.create", "size=0 file=/var/tmp/XXX", 8));
	result_list_free(&l);
}
