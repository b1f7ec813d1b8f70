/* cpuops_test.c — the operation chains keep their values in range forever (so every timed
 * operation is a real one of the intended width), and mhz_measure() finds a plausible clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/cpu/mhz.h"
#include "bench/cpu/ops.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "test.h"

#define STEPS 200000

TEST(ops_int_chains_stay_in_range)
{
	struct ops_args args;
	ops_args_init(&args);
	const struct ops_args *a = &args;
	{
		OPND_I32()
		uint32_t xd = a->idiv0, xm = a->imod0, xu = a->i0;
		int bad_d = 0, bad_m = 0, bad_u = 0;
		for (int i = 0; i < STEPS; i++) {
			U_DIV32(xd)
			U_MOD32(xm)
			U_MUL32(xu)
			/* div: quotient and divisor both ~2^15, never 0 */
			bad_d += xd < (1u << 13) || xd >= (1u << 17);
			/* mod: x in [h, h+m), a quotient of h/m ~ 2^15 */
			bad_m += xm < h || xm >= h + m;
			bad_u += (xu & 1) == 0; /* odd * odd never reaches 0 */
		}
		CHECK(bad_d == 0);
		CHECK(bad_m == 0);
		CHECK(bad_u == 0);
		CHECK(h / m >= (1u << 14));
	}
	{
		OPND_I64()
		uint64_t xd = a->ldiv0, xm = a->lmod0, xu = a->l0;
		int bad_d = 0, bad_m = 0, bad_u = 0;
		for (int i = 0; i < STEPS; i++) {
			U_DIV64(xd)
			U_MOD64(xm)
			U_MUL64(xu)
			bad_d += xd < (1ull << 29) || xd >= (1ull << 34);
			bad_m += xm < h || xm >= h + m;
			bad_u += (xu & 1) == 0;
		}
		CHECK(bad_d == 0);
		CHECK(bad_m == 0);
		CHECK(bad_u == 0);
		/* the dividends really need a 64-bit division */
		CHECK(s >> 32 != 0);
		CHECK(h >> 32 != 0);
		CHECK(h / m >= (1ull << 30));
	}
}

TEST(ops_fp_chains_stay_normal)
{
	struct ops_args args;
	ops_args_init(&args);
	const struct ops_args *a = &args;
	{
		OPND_F64()
		double xa = a->d0, xm = a->d0, xd = a->d0;
		for (int i = 0; i < STEPS; i++) {
			U_FADD64(xa)
			U_FMUL64(xm)
			U_FDIV64(xd)
		}
		CHECK(isnormal(xa) && xa > 0.5 && xa < 4);
		CHECK(isnormal(xm) && xm > 0.5 && xm < 4);
		CHECK(isnormal(xd) && xd > 0.5 && xd < 4);
	}
	{
		OPND_F32()
		float xa = a->f0, xm = a->f0, xd = a->f0;
		for (int i = 0; i < STEPS; i++) {
			U_FADD32(xa)
			U_FMUL32(xm)
			U_FDIV32(xd)
		}
		CHECK(isnormal(xa) && xa > 0.5f && xa < 4);
		CHECK(isnormal(xm) && xm > 0.5f && xm < 4);
		CHECK(isnormal(xd) && xd > 0.5f && xd < 4);
	}
}

TEST(ops_types_in_lmbench_order)
{
	CHECK_STR(ops_types[0].label, "integer bit");
	CHECK_STR(ops_types[4].label, "integer mod");
	CHECK_STR(ops_types[9].label, "int64 mod");
	CHECK_STR(ops_types[10].label, "float add");
	CHECK_STR(ops_types[15].label, "double div");
	CHECK(ops_types[4].ops_per_unit == 1);
	CHECK(ops_types[1].ops_per_unit == 2);
}

TEST(mhz_plausible)
{
	struct timing_ctx t;
	timing_ctx_init(&t);
	struct timing_opts before = t.opts;
	struct mhz_estimate e;
	int rc = -1;
	/* a very busy machine may refuse once, and under qemu-user (the cross stage) the add and
	 * multiply chains are emulated, so their ratio wanders: one CI run saw three refusals in a
	 * row on armhf. Six refusals would be a real failure. */
	for (int i = 0; i < 6 && rc != 0; i++)
		rc = mhz_estimate(&t, &e);
	/* under an emulator (tests/cross.sh says so) the chains are no CPU's: refusing, as mhz
	 * does when they never agree, is a right answer there */
	if (rc != 0 && getenv("PLUMB_TEST_EMULATED")) {
		fprintf(stderr, "mhz_plausible: mhz refused under emulation (six tries)\n");
		return;
	}
	CHECK(rc == 0);
	CHECK(memcmp(&before, &t.opts, sizeof t.opts) == 0); /* the caller's options survive */
	if (rc != 0)
		return;
	CHECK(e.mhz > 10 && e.mhz < 10000);
	CHECK(e.mul_cycles >= 2 && e.mul_cycles <= 8);
	CHECK(e.rounds_ok >= 3 && e.rounds_ok <= e.rounds);
#if defined(__x86_64__)
	CHECK(e.mul_cycles == 3); /* imul r64: 3 cycles on every current x86-64 core */
#endif
	double nom = sys_nominal_mhz();
	if (nom > 0)
		CHECK(e.mhz > 0.5 * nom && e.mhz < 3 * nom);
	double m = mhz_measure(&t);
	CHECK(m < 0 || fabs(m / e.mhz - 1) < 0.15);
}
