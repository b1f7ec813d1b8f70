/*
 * ops.h — the dependent operation chains that lat_ops (lat_ops.c) and par_ops (par_ops.c) time.
 *
 * A chain is a run of operations where each one needs the previous result, so the time per
 * operation is the operation's latency. Every operation is followed by KEEP()/KEEPFP(): an empty
 * asm statement that tells the compiler the value may have changed. That stops constant folding,
 * reassociation (a+b+b+b -> a+3b), strength reduction and vectorisation at any -O level, while
 * emitting no instruction. Operands are loaded from memory at run time and KEEP'd too, so the
 * compiler never sees a constant; every operation is register-register, which no renamer can fold
 * (lmbench 3's add loop, a += b; b -= a a hundred times, maps (a, b) back to itself every 6
 * steps: gcc folds it to two instructions, and lmbench prints "integer add: 0.00").
 *
 * Integer chains use unsigned arithmetic (no undefined overflow; the same add/mul instructions
 * as signed; division is the unsigned form). Values are chosen so they stay in range forever:
 *   bit   x ^= p; x |= q                     add   x += p; x -= q
 *   mul   x *= p; x *= q   (p, q, x odd: never 0)
 *   div   x = s / x        (x oscillates between x0 and s/x0, both ~sqrt(s): a quotient of half
 *                           the word, and for int64 a dividend above 2^32, so the CPU really
 *                           does a 64-bit division)
 *   mod   x = (x % m) + h  (x stays in [h, h+m): the same quotient size as div; the add is part
 *                           of the chain and its measured latency is subtracted by lat_ops)
 *   fadd  x += g; x -= g   fmul  x *= g; x *= 1/g   fdiv  x = d / x  (all stay near x0)
 * A "unit" is the smallest repeated piece: 2 operations, except mod (1 modulo + 1 add).
 * Register moves on x86 (checked with objdump at -O2 and -O3, gcc and clang): div takes the
 * dividend in (e/r)dx:(e/r)ax and leaves the quotient in ax, the remainder in dx.
 *   mod: the add that keeps the chain in range takes the remainder from dx and writes ax, the
 *        next dividend, in one lea (an OR needed a mov first): no move on the chain with gcc,
 *        and with clang for 32 bits; clang's int64 chain still emits mov + add.
 *   div: the quotient in ax is the next divisor, which cannot be ax: one mov per divide on the
 *        chain, whatever the compiler. Cores with move elimination (Intel since Ivy Bridge,
 *        AMD since Zen) do it in the renamer at no latency; elsewhere it adds about a cycle.
 *        A chain on the dividend would have to shrink or take another operation. AArch64 and
 *        ARM divides take any registers: no move there. docs/metrics.md says so.
 */
#ifndef PLUMB_BENCH_OPS_H
#define PLUMB_BENCH_OPS_H

#include <stdint.h>
#include "bench/tool.h"
#include "core/arch.h"

/* Keep a float/double in its floating-point register (KEEP's "r" would move it to an integer
 * register, KEEPF's "g" may spill it to memory; both would add latency to the chain). Where no
 * constraint is known the barrier is empty: IEEE arithmetic without -ffast-math cannot be
 * reassociated or folded, so the chain survives anyway. */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__))
#define KEEPF32(v) __asm__ __volatile__("" : "+x"(v))
#define KEEPF64(v) __asm__ __volatile__("" : "+x"(v))
#elif defined(__aarch64__)
#define KEEPF32(v) __asm__ __volatile__("" : "+w"(v))
#define KEEPF64(v) __asm__ __volatile__("" : "+w"(v))
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define KEEPF32(v) __asm__ __volatile__("" : "+t"(v))
#define KEEPF64(v) __asm__ __volatile__("" : "+w"(v))
#else
#define KEEPF32(v) ((void)0)
#define KEEPF64(v) ((void)0)
#endif

/* KEEP() of a 64-bit value on a 32-bit machine: gcc passes a 64-bit "r" operand through the
 * stack on 32-bit ARM, which would put stores and loads in the chain; two 32-bit halves stay in
 * registers and cost nothing. */
#if UINTPTR_MAX == 0xffffffffu
#define KEEP64(v)                                                              \
	do {                                                                   \
		uint32_t lo_ = (uint32_t)(v);                                  \
		uint32_t hi_ = (uint32_t)((v) >> 32);                         \
		KEEP(lo_);                                                     \
		KEEP(hi_);                                                     \
		(v) = ((uint64_t)hi_ << 32) | lo_;                             \
	} while (0)
#else
#define KEEP64(v) KEEP(v)
#endif

/* Operands and chain starts, loaded from volatile storage at run time (ops_args_init). */
struct ops_args {
	uint32_t ip, iq, is, im, ih, i0, idiv0, imod0;
	uint64_t lp, lq, ls, lm, lh, l0, ldiv0, lmod0;
	float fg, fh, fd, f0;
	double dg, dh, dd, d0;
};
void ops_args_init(struct ops_args *a);

/* Repetition of a statement list. */
#define X2(a) a a
#define X4(a) X2(a) X2(a)
#define X10(a) X4(a) X4(a) X2(a)
#define X50(a) X10(a) X10(a) X10(a) X10(a) X10(a)

/* Units (see the top comment). Operands: p q s m h (integers), g h2 d (floating point). */
#define U_BIT_(x, K) x ^= p; K(x); x |= q; K(x);
#define U_ADD_(x, K) x += p; K(x); x -= q; K(x);
#define U_MUL_(x, K) x *= p; K(x); x *= q; K(x);
#define U_DIV_(x, K) x = s / x; K(x); x = s / x; K(x);
#define U_MOD_(x, K) x = (x % m) + h; K(x);
#define U_BIT32(x) U_BIT_(x, KEEP)
#define U_ADD32(x) U_ADD_(x, KEEP)
#define U_MUL32(x) U_MUL_(x, KEEP)
#define U_DIV32(x) U_DIV_(x, KEEP)
#define U_MOD32(x) U_MOD_(x, KEEP)
#define U_BIT64(x) U_BIT_(x, KEEP64)
#define U_ADD64(x) U_ADD_(x, KEEP64)
#define U_MUL64(x) U_MUL_(x, KEEP64)
#define U_DIV64(x) U_DIV_(x, KEEP64)
#define U_MOD64(x) U_MOD_(x, KEEP64)
#define U_FADD_(x, K) x += g; K(x); x -= g; K(x);
#define U_FMUL_(x, K) x *= g; K(x); x *= h2; K(x);
#define U_FDIV_(x, K) x = d / x; K(x); x = d / x; K(x);
#define U_FADD32(x) U_FADD_(x, KEEPF32)
#define U_FMUL32(x) U_FMUL_(x, KEEPF32)
#define U_FDIV32(x) U_FDIV_(x, KEEPF32)
#define U_FADD64(x) U_FADD_(x, KEEPF64)
#define U_FMUL64(x) U_FMUL_(x, KEEPF64)
#define U_FDIV64(x) U_FDIV_(x, KEEPF64)

/* Operand declarations per width (all KEEP'd: the compiler knows nothing about them). */
#define OPND_I32() uint32_t p = a->ip, q = a->iq, s = a->is, m = a->im, h = a->ih; \
	KEEP(p); KEEP(q); KEEP(s); KEEP(m); KEEP(h);
#define OPND_I64() uint64_t p = a->lp, q = a->lq, s = a->ls, m = a->lm, h = a->lh; \
	KEEP64(p); KEEP64(q); KEEP64(s); KEEP64(m); KEEP64(h);
#define OPND_F32() float g = a->fg, h2 = a->fh, d = a->fd; KEEPF32(g); KEEPF32(h2); KEEPF32(d);
#define OPND_F64() double g = a->dg, h2 = a->dh, d = a->dd; KEEPF64(g); KEEPF64(h2); KEEPF64(d);

/* Chain j's start: distinct per chain so no two chains are the same computation. */
#define START_I(f, j) (a->f + 2u * (j))
#define START_F(f, j) (a->f * (1 + (j) / 64.0f))

/* K chains x0..x{K-1}: declarations, one unit of each (interleaved), their sum. */
#define DCL1(T, S) T x0 = S(0);
#define DCL2(T, S) DCL1(T, S) T x1 = S(1);
#define DCL3(T, S) DCL2(T, S) T x2 = S(2);
#define DCL4(T, S) DCL3(T, S) T x3 = S(3);
#define DCL5(T, S) DCL4(T, S) T x4 = S(4);
#define DCL6(T, S) DCL5(T, S) T x5 = S(5);
#define DCL7(T, S) DCL6(T, S) T x6 = S(6);
#define DCL8(T, S) DCL7(T, S) T x7 = S(7);
#define DCL9(T, S) DCL8(T, S) T x8 = S(8);
#define DCL10(T, S) DCL9(T, S) T x9 = S(9);
#define DCL11(T, S) DCL10(T, S) T x10 = S(10);
#define DCL12(T, S) DCL11(T, S) T x11 = S(11);
#define DCL13(T, S) DCL12(T, S) T x12 = S(12);
#define DCL14(T, S) DCL13(T, S) T x13 = S(13);
#define DCL15(T, S) DCL14(T, S) T x14 = S(14);
#define DCL16(T, S) DCL15(T, S) T x15 = S(15);
#define CH1(U) U(x0)
#define CH2(U) CH1(U) U(x1)
#define CH3(U) CH2(U) U(x2)
#define CH4(U) CH3(U) U(x3)
#define CH5(U) CH4(U) U(x4)
#define CH6(U) CH5(U) U(x5)
#define CH7(U) CH6(U) U(x6)
#define CH8(U) CH7(U) U(x7)
#define CH9(U) CH8(U) U(x8)
#define CH10(U) CH9(U) U(x9)
#define CH11(U) CH10(U) U(x10)
#define CH12(U) CH11(U) U(x11)
#define CH13(U) CH12(U) U(x12)
#define CH14(U) CH13(U) U(x13)
#define CH15(U) CH14(U) U(x14)
#define CH16(U) CH15(U) U(x15)
#define SUM1 x0
#define SUM2 SUM1 + x1
#define SUM3 SUM2 + x2
#define SUM4 SUM3 + x3
#define SUM5 SUM4 + x4
#define SUM6 SUM5 + x5
#define SUM7 SUM6 + x6
#define SUM8 SUM7 + x7
#define SUM9 SUM8 + x8
#define SUM10 SUM9 + x9
#define SUM11 SUM10 + x10
#define SUM12 SUM11 + x11
#define SUM13 SUM12 + x12
#define SUM14 SUM13 + x13
#define SUM15 SUM14 + x14
#define SUM16 SUM15 + x15
#define SINK_I(v) sink_u64((uint64_t)(v))
#define SINK_F(v) sink_f64((double)(v))

/* A timed loop: K interleaved chains, REP units of each per iteration. */
#define CHAIN_FN(fname, T, OPND, U, S, SINK, K, REP)          \
	static void fname(uint64_t n, void *arg)                   \
	{                                                          \
		const struct ops_args *a = arg;                    \
		OPND()                                             \
		DCL##K(T, S)                                       \
		for (uint64_t i_ = 0; i_ < n; i_++) {              \
			REP(CH##K(U))                              \
		}                                                  \
		SINK(SUM##K);                                      \
	}

/* The 16 operation types in lmbench's order, as X(name, label, T, OPND, U, START, SINK,
 * ops per unit). */
#define OPS_TYPES(X)                                                                        \
	X(integer_bit, "integer bit", uint32_t, OPND_I32, U_BIT32, START_I_0_32, SINK_I, 2) \
	X(integer_add, "integer add", uint32_t, OPND_I32, U_ADD32, START_I_0_32, SINK_I, 2) \
	X(integer_mul, "integer mul", uint32_t, OPND_I32, U_MUL32, START_I_0_32, SINK_I, 2) \
	X(integer_div, "integer div", uint32_t, OPND_I32, U_DIV32, START_I_D_32, SINK_I, 2) \
	X(integer_mod, "integer mod", uint32_t, OPND_I32, U_MOD32, START_I_M_32, SINK_I, 1) \
	X(int64_bit, "int64 bit", uint64_t, OPND_I64, U_BIT64, START_I_0_64, SINK_I, 2)     \
	X(int64_add, "int64 add", uint64_t, OPND_I64, U_ADD64, START_I_0_64, SINK_I, 2)     \
	X(int64_mul, "int64 mul", uint64_t, OPND_I64, U_MUL64, START_I_0_64, SINK_I, 2)     \
	X(int64_div, "int64 div", uint64_t, OPND_I64, U_DIV64, START_I_D_64, SINK_I, 2)     \
	X(int64_mod, "int64 mod", uint64_t, OPND_I64, U_MOD64, START_I_M_64, SINK_I, 1)     \
	X(float_add, "float add", float, OPND_F32, U_FADD32, START_F_32, SINK_F, 2)      \
	X(float_mul, "float mul", float, OPND_F32, U_FMUL32, START_F_32, SINK_F, 2)      \
	X(float_div, "float div", float, OPND_F32, U_FDIV32, START_F_32, SINK_F, 2)      \
	X(double_add, "double add", double, OPND_F64, U_FADD64, START_F_64, SINK_F, 2)   \
	X(double_mul, "double mul", double, OPND_F64, U_FMUL64, START_F_64, SINK_F, 2)   \
	X(double_div, "double div", double, OPND_F64, U_FDIV64, START_F_64, SINK_F, 2)

#define START_I_0_32(j) START_I(i0, j)
#define START_I_D_32(j) START_I(idiv0, j)
#define START_I_M_32(j) START_I(imod0, j)
#define START_I_0_64(j) START_I(l0, j)
#define START_I_D_64(j) START_I(ldiv0, j)
#define START_I_M_64(j) START_I(lmod0, j)
#define START_F_32(j) ((float)START_F(f0, j))
#define START_F_64(j) ((double)(a->d0 * (1 + (j) / 64.0)))

#define OPS_NTYPES 16

/* Per-type description shared by both tools. */
struct ops_type {
	const char *name;     /* metric suffix: "integer_add" */
	const char *label;    /* lmbench's label: "integer add" */
	int ops_per_unit;
};
extern const struct ops_type ops_types[OPS_NTYPES];

#endif
