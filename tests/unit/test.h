/*
 * test.h — a minimal unit-test harness: TEST(name) { ... } registers itself (constructor), CHECK
 * records a failure with file:line and goes on. tests/unit/main.c runs them all and prints
 * "PASS name" / "FAIL name: why" lines that tests/run.sh counts.
 */
#ifndef PLUMB_TEST_H
#define PLUMB_TEST_H

#include <math.h>
#include <stdio.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
	struct unit_test *next;
	int sim; /* a simulation: arithmetic only, times nothing (bin/unit-tests --sims) */
};

void test_register(struct unit_test *t);
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define TEST(name)                                                          \
	static void test_##name(void);                                      \
	static struct unit_test test_desc_##name = { #name, test_##name, 0, 0 }; \
	__attribute__((constructor)) static void test_reg_##name(void)      \
	{                                                                   \
		test_register(&test_desc_##name);                           \
	}                                                                   \
	static void test_##name(void)

/* A simulation of many sessions or series: seconds of arithmetic that time nothing, so
 * tests/run.sh runs them beside the timing scripts (bin/unit-tests --sims) and the rest in the
 * timing lane (--no-sims). */
#define TEST_SIM(name)                                                      \
	static void test_##name(void);                                      \
	static struct unit_test test_desc_##name = { #name, test_##name, 0, 1 }; \
	__attribute__((constructor)) static void test_reg_##name(void)      \
	{                                                                   \
		test_register(&test_desc_##name);                           \
	}                                                                   \
	static void test_##name(void)

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond))                                                 \
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);   \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                        \
	do {                                                                         \
		double a_ = (a), b_ = (b);                                           \
		if (!(fabs(a_ - b_) <= (tol)))                                       \
			test_fail(__FILE__, __LINE__, "%s = %g, expected %g (±%g)", #a, \
				  a_, b_, (double)(tol));                            \
	} while (0)

#define CHECK_STR(a, b)                                                                    \
	do {                                                                               \
		const char *a_ = (a), *b_ = (b);                                           \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                                     \
			test_fail(__FILE__, __LINE__, "%s = \"%s\", expected \"%s\"", #a,   \
				  a_ ? a_ : "(null)", b_ ? b_ : "(null)");                  \
	} while (0)

#endif
