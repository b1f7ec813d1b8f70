/*
 * rng.h — a small deterministic generator for the simulations of the unit tests (xorshift64,
 * Box–Muller): the same draws on every machine, so a simulation's figures in the test log can
 * be compared between runs. Each test file that includes it has its own state.
 */
#ifndef PLUMB_TEST_RNG_H
#define PLUMB_TEST_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

/* Uniform on (0, 1). */
static inline double rng_u01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal. */
static inline double rng_gauss(void)
{
	return sqrt(-2 * log(rng_u01())) * cos(2 * M_PI * rng_u01());
}

#endif
