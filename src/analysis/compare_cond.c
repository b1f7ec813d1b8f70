/* compare_cond.c — contention and time-block warnings between sides (compare_cond.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare_cond.h"
#include "core/util.h"
#include "results/run_cond.h"

#define HOW_TO_INTERLEAVE "interleave the versions: plumb ab, or alternate their runs " \
	"(A B A B ...) and compare the sets"

/* The most any run of the side saw others take; NaN when no run recorded it. */
static double side_contention(const struct side *s, int *contended)
{
	double m = NAN;
	*contended = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		double c = run_contention_pct(s->runs[i]);
		*contended |= run_contended(s->runs[i]);
		if (!isnan(c) && (isnan(m) || c > m))
			m = c;
	}
	return m;
}

static void contention_warning(const struct side *sides, size_t n,
			       void (*add)(void *ctx, char *w), void *ctx)
{
	double lo = NAN, hi = NAN;
	int any = 0, all = 1, known = 0;
	for (size_t s = 0; s < n; s++) {
		int c;
		double v = side_contention(&sides[s], &c);
		any |= c;
		all &= c;
		if (isnan(v))
			continue;
		known++;
		lo = isnan(lo) || v < lo ? v : lo;
		hi = isnan(hi) || v > hi ? v : hi;
	}
	if (known < 2 || (!(hi - lo > COND_CONTENTION_DIFF_PCT) && (!any || all)))
		return;
	char *w = xstrdup("the sides ran beside different amounts of other work (others' largest "
			  "share of the CPUs during a step:");
	for (size_t s = 0; s < n; s++) {
		int c;
		double v = side_contention(&sides[s], &c);
		char val[32] = "?";
		if (!isnan(v))
			snprintf(val, sizeof val, "%.0f%%", v);
		char *m = xasprintf("%s %s %s%s", w, sides[s].name, val, s + 1 < n ? "," : ");");
		free(w);
		w = m;
	}
	char *m = xasprintf("%s a change between them may be the machine's; " HOW_TO_INTERLEAVE, w);
	free(w);
	add(ctx, m);
}

/* The side's first start and last end (ISO 8601 UTC text: it sorts as time); 0 when unknown. */
static int side_span(const struct side *s, const char **first, const char **last)
{
	*first = *last = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct run *r = s->runs[i];
		if (!r->started || !r->ended || !*r->started || !*r->ended)
			return 0;
		if (!*first || strcmp(r->started, *first) < 0)
			*first = r->started;
		if (!*last || strcmp(r->ended, *last) > 0)
			*last = r->ended;
	}
	return *first != NULL;
}

/* Sides whose spans of time do not overlap: every pair of sides, told once. */
static void block_warning(const struct side *sides, size_t n, void (*add)(void *ctx, char *w),
			  void *ctx)
{
	size_t pairs = 0, apart = 0;
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++) {
			const char *fa, *la, *fb, *lb;
			if (!side_span(&sides[a], &fa, &la) || !side_span(&sides[b], &fb, &lb))
				return;
			pairs++;
			apart += strcmp(la, fb) <= 0 || strcmp(lb, fa) <= 0;
		}
	if (!apart)
		return;
	add(ctx, xasprintf("%s measured in separate blocks of time (%zu of %zu pairs of sides): "
			   "whatever else changed on the machine between the blocks reads as a "
			   "change between the sides; %s",
			   n == 2 ? "the two sides were" : "sides were", apart, pairs,
			   HOW_TO_INTERLEAVE));
}

/* A side measured under user-mode emulation: its numbers are an emulator's on another CPU. */
static void emulation_warning(const struct side *sides, size_t n,
			      void (*add)(void *ctx, char *w), void *ctx)
{
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++) {
			char emu[160];
			if (!run_emulation(sides[s].runs[i], emu, sizeof emu))
				continue;
			add(ctx, xasprintf("%s was %s: its numbers time an emulator on the host, not "
					   "the architecture's hardware", sides[s].name, emu));
			break;
		}
}

void cmp_cond_warnings(const struct side *sides, size_t n, void (*add)(void *ctx, char *w),
		       void *ctx)
{
	emulation_warning(sides, n, add, ctx);
	contention_warning(sides, n, add, ctx);
	block_warning(sides, n, add, ctx);
}
