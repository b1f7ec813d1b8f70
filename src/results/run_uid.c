/*
 * run_uid.c — a run's identity (run.h: struct run's uid), so the same run is never stored or
 * pooled twice however often it travels (files, imports, pushes to a shared store).
 *
 * A run made by `plumb run` gets 128 random bits (getrandom) the moment it is made, written into
 * its JSON as "uid". A run that arrives without one — an lmbench results file, a plumb/1 JSON file
 * written before uids existed, a run stored before schema 3 — gets a hash of its content instead:
 * the same content always gives the same uid, so importing the same lmbench file twice is seen
 * as a duplicate. The hash covers what was measured and where (host, times, facts, every result
 * and sample) but not the label (relabelling does not make a new run) nor the source path (the
 * same file from two directories is the same run). It is two independent 64-bit FNV-style lanes:
 * meant to tell accidental duplicates apart, not to resist a forger, who could as well copy a uid.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "core/util.h"
#include "results/run.h"

int uid_valid(const char *s)
{
	if (!s || strlen(s) != RUN_UID_LEN)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

static void set_hex(struct run *r, const unsigned char b[16])
{
	char hex[RUN_UID_LEN + 1];
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	free(r->uid);
	r->uid = xstrdup(hex);
}

void run_set_new_uid(struct run *r)
{
	unsigned char b[16];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t n = getrandom(b + got, sizeof b - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got < sizeof b) {
		/* no getrandom (old kernel, seccomp): the kernel's pool through the file, else a mix of
		 * clock and process that is still unique in practice */
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			uint64_t v[2] = { (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
					  (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&ts };
			memcpy(b, v, sizeof b);
		}
		if (fd >= 0)
			close(fd);
	}
	set_hex(r, b);
}

struct hash2 {
	uint64_t a, b;
};

static void feed(struct hash2 *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ c[i]) * 0x100000001b3ull;
		h->b = ((h->b ^ c[i]) * 0xff51afd7ed558ccdull);
		h->b ^= h->b >> 29;
	}
}

/* Strings with their length, so ("ab","c") and ("a","bc") differ; NULL differs from "". */
static void feed_str(struct hash2 *h, const char *s)
{
	uint64_t n = s ? strlen(s) : UINT64_MAX;
	feed(h, &n, sizeof n);
	if (s)
		feed(h, s, strlen(s));
}

static void feed_u64(struct hash2 *h, uint64_t v)
{
	unsigned char b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i)); /* the same bytes on every architecture */
	feed(h, b, sizeof b);
}

/* A double by its bits, with every NaN one value and -0 as 0 (stores keep neither apart). */
static void feed_real(struct hash2 *h, double d)
{
	uint64_t v = 0;
	if (isnan(d))
		v = 0x7ff8000000000000ull;
	else if (d != 0)
		memcpy(&v, &d, sizeof v);
	feed_u64(h, v);
}

static uint64_t fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

void run_set_content_uid(struct run *r)
{
	struct hash2 h = { 0xcbf29ce484222325ull, 0x9e3779b97f4a7c15ull };
	feed_str(&h, "plumb-run-content/1");
	feed_str(&h, r->host);
	feed_str(&h, r->profile);
	feed_str(&h, r->started);
	feed_str(&h, r->ended);
	feed_u64(&h, (uint64_t)(r->incomplete != 0));
	feed_u64(&h, (uint64_t)r->rounds);
	feed_u64(&h, r->facts.n);
	for (size_t i = 0; i < r->facts.n; i++) {
		feed_str(&h, r->facts.v[i].key);
		feed_str(&h, r->facts.v[i].val ? r->facts.v[i].val : "");
	}
	feed_u64(&h, r->results.n);
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		feed_str(&h, p->metric);
		feed_str(&h, p->params ? p->params : "");
		feed_real(&h, p->x);
		feed_real(&h, p->value);
		feed_str(&h, p->unit);
		feed_u64(&h, (uint64_t)p->version);
		feed_str(&h, p->info);
		feed_u64(&h, p->nsamples);
		for (size_t k = 0; k < p->nsamples; k++) {
			feed_real(&h, p->samples[k].value);
			feed_u64(&h, p->samples[k].iters);
			feed_real(&h, p->samples[k].elapsed_ns);
			feed_u64(&h, (uint64_t)p->samples[k].round);
		}
	}
	uint64_t a = fmix(h.a ^ fmix(h.b)), b = fmix(h.b + 0x632be59bd9b4e019ull * h.a);
	unsigned char out[16];
	for (int i = 0; i < 8; i++) {
		out[i] = (unsigned char)(a >> (56 - 8 * i));
		out[8 + i] = (unsigned char)(b >> (56 - 8 * i));
	}
	set_hex(r, out);
}
