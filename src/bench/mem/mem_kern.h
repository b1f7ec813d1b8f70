/*
 * mem_kern.h — the inner loops of bw_mem's full-word modes and of STREAM, in several versions
 * chosen at run time with arch_has(): a portable C version (always compiled, used on every
 * architecture and with PLUMB_PORTABLE=1) and x86-64 AVX2 / AVX-512 versions (mem_kern_x86.c).
 * STREAM kernels take nt = 1 to write with streaming (non-temporal) stores where the version
 * has them: used when the arrays are far larger than the caches, where they save the
 * read-for-ownership of the destination. mem_kern_has_nt() says whether nt does anything.
 *
 * Sizes: bw_mem kernels take bytes (a multiple of 512, lmbench's block); STREAM kernels take
 * elements (any count; vector versions finish the tail in scalar code).
 */
#ifndef PLUMB_MEM_KERN_H
#define PLUMB_MEM_KERN_H

#include <stddef.h>
#include <stdint.h>

struct mem_kernels {
	const char *name;   /* "portable", "sse2", "avx2", "avx512" */
	int has_nt;         /* nt = 1 really uses streaming stores */
	uint64_t (*frd)(const char *p, size_t bytes);          /* sum of every 64-bit word */
	void (*fwr)(char *p, size_t bytes, uint64_t v);         /* store v to every word */
	void (*fcp)(char *d, const char *s, size_t bytes);      /* copy every word */
	void (*s_copy)(double *c, const double *a, size_t n, int nt);              /* c = a */
	void (*s_scale)(double *b, const double *c, double s, size_t n, int nt);   /* b = s*c */
	void (*s_add)(double *c, const double *a, const double *b, size_t n, int nt); /* c = a+b */
	void (*s_triad)(double *a, const double *b, const double *c, double s, size_t n, int nt);
	void (*s_fill)(double *a, double q, size_t n, int nt);                     /* a = q */
	void (*s_daxpy)(double *a, const double *b, double q, size_t n, int nt);   /* a += q*b */
	double (*s_sum)(const double *a, size_t n);                                /* sum of a */
};

extern const struct mem_kernels mem_kernels_portable;
#if defined(__x86_64__)
extern const struct mem_kernels mem_kernels_sse2, mem_kernels_avx2, mem_kernels_avx512;
#endif
/* The best version this CPU runs (portable with PLUMB_PORTABLE=1). */
const struct mem_kernels *mem_kernels_best(void);
/* The version for STREAM's plain (write-allocating) stores: 16-byte SSE2 on x86-64, the width
 * gcc -O3 gives stream.c for x86-64; the widest otherwise (portable with PLUMB_PORTABLE=1).
 * Why not the widest: on a Zen 4 guest, 32- and 64-byte plain stores to arrays beyond the caches
 * moved 15-25 % fewer bytes than 8- or 16-byte ones (bench/README.md, "STREAM's vector width"). */
const struct mem_kernels *mem_kernels_plain(void);
/* STREAM's kernels for plain stores into *k: mem_kernels_plain()'s, but sum, which stores
 * nothing, keeps the widest loads (its method stays). 1 when they are narrower than the widest
 * (another method: stream's method version + 2), else 0. */
int mem_kernels_plain_stream(struct mem_kernels *k);
/* Every version this CPU can run, best first; returns the count (for the unit tests). */
int mem_kernels_all(const struct mem_kernels **v, int max);

#endif
