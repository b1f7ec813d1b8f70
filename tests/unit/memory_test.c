/* memory_test.c — the memory benchmarks' pieces: every kernel version does what it claims (copy
 * moves the bytes, STREAM kernels compute the right values), STREAM's validation catches a
 * corrupted array, random chains are single cycles through every slot at every size, lmbench's
 * size steps, option stripping. */
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_kern.h"
#include "bench/mem/mem_levels.h"
#include "test.h"

static const struct mem_kernels *vers[8];
static int nvers;

static void load_versions(void)
{
	if (!nvers)
		nvers = mem_kernels_all(vers, 8);
}

TEST(mem_kernels_copy_moves_bytes)
{
	load_versions();
	size_t max = 1 << 17;
	char *src = malloc(max), *dst = malloc(max + 4096);
	for (size_t i = 0; i < max; i++)
		src[i] = (char)(i * 131 + (i >> 8));
	for (int v = 0; v < nvers; v++) {
		static const size_t sizes[] = { 512, 1024, 4096, 65536 + 512, 1 << 17 };
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			for (size_t off = 0; off <= 1920; off += 1920) { /* bw_mem's conflict offset */
				memset(dst, 0x5a, max + 4096);
				vers[v]->fcp(dst + off, src, sizes[k]);
				CHECK(memcmp(dst + off, src, sizes[k]) == 0);
				/* and not a byte more */
				CHECK((unsigned char)dst[off + sizes[k]] == 0x5a);
			}
		}
		/* fwr stores every word, frd sums every word */
		memset(dst, 0, max);
		vers[v]->fwr(dst, 4096, 7);
		uint64_t s = vers[v]->frd(dst, 4096);
		CHECK(s == 7 * 512);
		CHECK(vers[v]->frd(src, max) == mem_kernels_portable.frd(src, max));
	}
	free(src);
	free(dst);
}

TEST(mem_kernels_stream_values)
{
	load_versions();
	size_t n = 4099; /* odd: vector versions finish a tail in scalar code */
	double *a = aligned_alloc(64, 4160 * 8), *b = aligned_alloc(64, 4160 * 8),
	       *c = aligned_alloc(64, 4160 * 8);
	for (int v = 0; v < nvers; v++)
		for (int nt = 0; nt <= 1; nt++) {
			for (size_t i = 0; i < n; i++) {
				a[i] = 1.0 + (double)i;
				b[i] = 2.0;
				c[i] = 0.0;
			}
			const struct mem_kernels *k = vers[v];
			k->s_copy(c, a, n, nt);
			CHECK(c[0] == 1.0 && c[n - 1] == (double)n);
			k->s_scale(b, c, 3.0, n, nt);
			CHECK(b[5] == 18.0 && b[n - 1] == 3.0 * (double)n);
			k->s_add(c, a, b, n, nt);
			CHECK(c[5] == 24.0 && c[n - 1] == 4.0 * (double)n);
			k->s_triad(a, b, c, 3.0, n, nt);
			CHECK(a[5] == 18.0 + 72.0 && a[n - 1] == 15.0 * (double)n);
			k->s_fill(a, 3.0, n, nt);
			CHECK(stream_check(a, n, 3.0, NULL) == 0);
			for (size_t i = 0; i < n; i++)
				b[i] = 2.0;
			k->s_daxpy(a, b, 3.0, n, nt);
			CHECK(stream_check(a, n, 9.0, NULL) == 0);
			CHECK_NEAR(k->s_sum(a, n), 9.0 * (double)n, 1e-6);
		}
	free(a);
	free(b);
	free(c);
}

TEST(stream_check_catches_corruption)
{
	double x[1000];
	for (int i = 0; i < 1000; i++)
		x[i] = 11.0;
	size_t first = 99;
	CHECK(stream_check(x, 1000, 11.0, &first) == 0);
	x[500] = 11.0 + 1e-9;
	CHECK(stream_check(x, 1000, 11.0, &first) == 1);
	CHECK(first == 500);
	x[7] = NAN;
	CHECK(stream_check(x, 1000, 11.0, &first) == 2);
	CHECK(first == 7);
}

/* Follow the chain from slot 0: it must come back after exactly n loads, visiting every slot. */
static int is_single_cycle(char *base, size_t stride, size_t n)
{
	char *seen = calloc(n, 1);
	void **p = (void **)base;
	size_t steps = 0;
	do {
		size_t idx = (size_t)((char *)p - base) / stride;
		if (idx >= n || seen[idx]) {
			free(seen);
			return 0;
		}
		seen[idx] = 1;
		p = (void **)*p;
		steps++;
	} while ((char *)p != base && steps <= n);
	free(seen);
	return steps == n;
}

TEST(chain_grows_as_one_random_cycle)
{
	size_t stride = 64, max = 5000;
	char *buf = aligned_alloc(64, max * stride);
	struct chain_builder cb;
	chain_begin(&cb, buf, stride, 0, 42);
	static const size_t sizes[] = { 1, 2, 3, 17, 64, 100, 1000, 4096, 5000 };
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		chain_grow(&cb, sizes[k]);
		CHECK(is_single_cycle(buf, stride, sizes[k]));
	}
	/* random: successive slots are rarely neighbours in address */
	void **p = (void **)buf;
	int adjacent = 0;
	for (int i = 0; i < 1000; i++) {
		void **q = (void **)*p;
		if ((char *)q - (char *)p == (long)stride)
			adjacent++;
		p = q;
	}
	CHECK(adjacent < 20);
	/* the same seed gives the same chain */
	char *buf2 = aligned_alloc(64, max * stride);
	struct chain_builder cb2;
	chain_begin(&cb2, buf2, stride, 0, 42);
	chain_grow(&cb2, max);
	int same = 1;
	for (size_t i = 0; i < max; i++)
		same &= (char *)*(void **)(buf + i * stride) - buf ==
			(char *)*(void **)(buf2 + i * stride) - buf2;
	CHECK(same);
	free(buf);
	free(buf2);
}

TEST(link_random_is_one_cycle)
{
	size_t n = 777;
	char *buf = aligned_alloc(64, n * 64);
	void ***nodes = malloc(n * sizeof *nodes);
	for (size_t i = 0; i < n; i++)
		nodes[i] = (void **)(buf + i * 64);
	uint64_t rng = 9;
	mem_link_random(nodes, n, &rng);
	CHECK(is_single_cycle(buf, 64, n));
	free(nodes);
	free(buf);
}

/* par_mem's cycles: each size one cycle through exactly its lines; the restriction of the next
 * size's order (nested, as chain_grow's), and ord[] is the order the cycle walks */
TEST(par_mem_order_is_one_cycle_per_size)
{
	size_t nall = 1024;
	char *buf = aligned_alloc(64, nall * 64);
	struct pm_order o;
	pm_order_init(&o, nall, 77);
	uint32_t *prev = malloc(nall * sizeof *prev);
	size_t nprev = 0;
	for (size_t n = 16; n <= nall; n *= 2) {
		pm_order_link(&o, buf, 64, n);
		CHECK(is_single_cycle(buf, 64, n));
		int walk_ok = 1, nested = 1;
		for (size_t i = 0; i < n; i++)
			if (*(void **)(buf + (size_t)o.ord[i] * 64) != buf + (size_t)o.ord[(i + 1) % n] * 64)
				walk_ok = 0;
		/* the previous size's lines appear in the same order */
		size_t k = 0;
		for (size_t i = 0; i < n && k < nprev; i++)
			if (o.ord[i] == prev[k])
				k++;
		nested = k == nprev;
		CHECK(walk_ok && nested);
		memcpy(prev, o.ord, n * sizeof *prev);
		nprev = n;
	}
	pm_order_free(&o);
	free(prev);
	free(buf);
}

TEST(lat_mem_rd_size_steps)
{
	/* lmbench: x2 below 1K, +1K below 4K, then 8 steps per doubling */
	static const size_t want[] = { 512, 1024, 2048, 3072, 4096, 6144, 8192, 10240, 12288,
				       14336, 16384, 18432, 20480, 22528, 24576, 26624, 28672,
				       30720, 32768, 36864, 40960 };
	size_t r = 512;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		CHECK(r == want[i]);
		r = lat_next_range(r);
	}
	CHECK(lat_next_range(1 << 20) == (1 << 20) + (1 << 17));
}

/* cache's curve sizes: 512 * (1, 1.25, 1.5, 1.75) * 2^k, n of them */
static int curve_sizes(uint64_t *sz, int n)
{
	int k = 0;
	for (uint64_t p2 = 512; k < n; p2 *= 2)
		for (int q = 4; q < 8 && k < n; q++)
			sz[k++] = p2 * (uint64_t)q / 4;
	return k;
}

/* A curve measured on the CI machine (sysfs: L1d 48 KiB, L2 1 MiB; main memory from ~4 MiB). */
static const double idle_curve[] = {
	0.998, 1.009, 1.019, 1.003, 1.017, 1.002, 1.004, 0.994, 0.993, 1.003, 1.020, 1.019, 1.013,
	1.025, 1.007, 1.002, 1.004, 1.008, 1.018, 1.019, 1.022, 1.027, 1.027, 1.024, 1.019, 1.016,
	1.047, 3.596, 3.568, 3.575, 3.584, 3.578, 3.561, 3.579, 3.543, 3.559, 3.564, 3.554, 3.543,
	3.809, 4.000, 4.262, 4.677, 6.074, 6.934, 10.100, 11.981, 12.585, 14.964, 22.557, 27.862,
	30.005, 136.659, 136.698, 143.220, 146.924, 140.284, 136.330, 131.320, 139.819, 138.785,
	141.746, 153.563, 153.472, 156.916, 163.018, 164.177, 163.411, 171.630,
};

TEST(cache_levels_from_a_measured_curve)
{
	enum { N = sizeof idle_curve / sizeof idle_curve[0] };
	uint64_t sz[N];
	curve_sizes(sz, N);
	struct level lv[8];
	int nl = mem_find_levels(sz, idle_curve, N, lv, 8);
	CHECK(nl == 4);
	CHECK(lv[0].size == 48 << 10);
	CHECK(lv[0].ns > 0.99 && lv[0].ns < 1.03);
	/* the gradual L2 rise (TLB reach, then capacity), read at its middle */
	CHECK(lv[1].size >= 768 << 10 && lv[1].size <= 1 << 20);
	CHECK(lv[1].ns > 3.5 && lv[1].ns < 3.7);
	CHECK(lv[2].size >= 3 << 20 && lv[2].size < 4 << 20);
	CHECK(lv[3].ns > 130 && lv[3].ns < 175);
}

TEST(cache_levels_ignore_a_spike_and_read_a_gradual_rise)
{
	enum { N = 40 };
	uint64_t sz[N];
	double ns[N];
	curve_sizes(sz, N);
	for (int k = 0; k < N; k++)
		ns[k] = sz[k] <= (48 << 10) ? 1.0 : 3.6;
	/* a disturbed point in the plateau: one point 1.8x, then back */
	ns[10] = 1.8;
	struct level lv[8];
	int nl = mem_find_levels(sz, ns, N, lv, 8);
	CHECK(nl == 2);
	CHECK(lv[0].size == 48 << 10);
	/* L1 shared with a busy SMT sibling: misses start at 16 KiB and climb to the next level */
	ns[10] = 1.0;
	for (int k = 0; k < N; k++)
		if (sz[k] > (16 << 10) && sz[k] <= (48 << 10))
			ns[k] = 1.0 + 0.4 * (double)(k - 20);
	nl = mem_find_levels(sz, ns, N, lv, 8);
	CHECK(nl == 2);
	CHECK(lv[0].size >= 24 << 10 && lv[0].size <= 48 << 10);
	CHECK(lv[0].ns < 1.3 && lv[1].ns > 3.5);
	/* a flat curve is one level */
	for (int k = 0; k < N; k++)
		ns[k] = 2.0;
	CHECK(mem_find_levels(sz, ns, N, lv, 8) == 1);
	CHECK(lv[0].size == sz[N - 1]);
}

TEST(cache_levels_when_the_shared_cache_is_squeezed_out)
{
	/* other guests took the shared cache: L2's rise (from 896 KiB) runs on to main memory with
	 * no plateau in between; L2 must not take the missing level's sizes (CI once read 4 MiB) */
	enum { N = 60 };
	static const double rise[] = { 6.0, 6.9, 10.1, 12.0, 13.5, 15.2, 22.5, 27.8, 30.0 };
	uint64_t sz[N];
	double ns[N];
	curve_sizes(sz, N);
	for (int k = 0; k < N; k++)
		ns[k] = k <= 26 ? 1.0 : k <= 42 ? 3.5 : k <= 51 ? rise[k - 43] : 140;
	CHECK(sz[26] == 48 << 10 && sz[42] == 768 << 10 && sz[52] == 4 << 20);
	struct level lv[8];
	int nl = mem_find_levels(sz, ns, N, lv, 8);
	CHECK(nl == 3);
	CHECK(lv[0].size == 48 << 10);
	CHECK(lv[1].size >= 768 << 10 && lv[1].size <= 1280 << 10);
	CHECK(lv[2].ns > 130);
}

struct longopt_test { int version, table; const char *threads, *pages; };

TEST(mem_pages_and_options)
{
	CHECK(mem_pages_parse("4k") == PAGES_4K);
	CHECK(mem_pages_parse("thp") == PAGES_THP);
	CHECK(mem_pages_parse("huge") == PAGES_HUGE);
	CHECK(mem_pages_parse("2m") == -1);
	const struct tool_options t = { .opts = (const struct opt[]){
		OPT_INT('v', NULL, struct longopt_test, version, "1|2", 1, 2, NULL, "v"),
		OPT_STRING(0, "threads", struct longopt_test, threads, "N", "t"),
		OPT_BOOL(0, "table", struct longopt_test, table, "t"),
		MEM_PAGES_OPT(struct longopt_test, pages),
		OPT_END } };
	char *args[] = { "stream", "-v", "2", "op", "--threads", "all", "--table", "--pages=thp", "--", "--table", NULL };
	char **av = args;
	struct longopt_test o = { 0 };
	struct tool_ctx c = { .tool = "stream", .opts = &t };
	optind = 0;
	struct operands ops = mem_options_parse(&c, 10, &av, &o);
	CHECK(o.version == 2 && o.table == 1);
	CHECK_STR(o.threads, "all");
	CHECK_STR(o.pages, "thp");
	CHECK(mem_pages_opt(&c, o.pages) == PAGES_THP);
	CHECK(mem_pages_opt(&c, NULL) == PAGES_4K);
	CHECK(ops.n == 2 && ops.v == av + 8); /* the operands, after the options (getopt moved them) */
	CHECK_STR(ops.v[0], "op");
	CHECK_STR(ops.v[1], "--table"); /* after "--": an operand */
	CHECK_STR(args[3], "op"); /* the original vector is left as given (the JSON records it) */
	CHECK_STR(args[4], "--threads");
}

TEST(mem_alloc_pages)
{
	struct mem_buf b;
	mem_alloc(&b, 3 << 20, PAGES_THP);
	CHECK(((uintptr_t)b.p & ((2u << 20) - 1)) == 0); /* THP wants 2 MiB alignment */
	CHECK(b.p[0] == 0 && b.p[(3 << 20) - 1] == 0);
	char d[200];
	mem_page_desc(&b, d, sizeof d);
	CHECK(strstr(d, "THP") != NULL);
	mem_free(&b);
	mem_alloc(&b, 10000, PAGES_4K);
	CHECK(b.len >= 10000);
	mem_page_desc(&b, d, sizeof d);
	CHECK(strstr(d, "KiB") != NULL);
	mem_free(&b);
}
