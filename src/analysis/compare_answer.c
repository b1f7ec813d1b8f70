/*
 * compare_answer.c — the first line of compare's and ab's answer (compare.h: cmp_answer): what
 * a person does next, read from the verdicts before the table. "B is slower: 6 points worse,
 * +11.0 to +17.0 % (lat_syscall x6); nothing else changed significantly (20 points)". One line
 * per compared side; a reminder of the warnings when there are any.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/compare.h"
#include "core/util.h"
#include "core/escape.h"

/* The change a verdict judged: at equal clock when it was judged so. */
static double judged(const struct cmp_test *t)
{
	return t->judged_eq && !isnan(t->eq.est) ? t->eq.est : t->raw.est;
}

/* "+11.0 to +17.0 %" or "+12.0 %"; the rows of side s with verdict v. */
static void range_text(const struct cmp_table *t, size_t s, enum verdict v, char *buf, size_t len)
{
	double lo = NAN, hi = NAN;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_test *ts = &t->rows[i].test[s];
		double c = judged(ts);
		if (!cmp_row_shown(t, &t->rows[i]))
			continue;
		if (ts->v != v || isnan(c))
			continue;
		lo = isnan(lo) || c < lo ? c : lo;
		hi = isnan(hi) || c > hi ? c : hi;
	}
	char pl[PCT_LEN], ph[PCT_LEN];
	if (isnan(lo))
		snprintf(buf, len, "?");
	else if (fabs(hi - lo) < 0.05)
		snprintf(buf, len, "%s %%", pct_str(lo, pl));
	else
		snprintf(buf, len, "%s to %s %%", pct_str(lo, pl), pct_str(hi, ph));
}

/* The rows' tools ("lat_syscall x4, bw_pipe"): the part of a metric before its dot. */
static void tools_text(const struct cmp_table *t, size_t s, enum verdict v, char *buf, size_t len)
{
	char seen[6][48];
	int count[6] = { 0 }, n = 0, more = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].test[s].v != v || !cmp_row_shown(t, &t->rows[i]))
			continue;
		const char *m = t->rows[i].metric;
		char tool[48];
		snprintf(tool, sizeof tool, "%.*s", (int)strcspn(m, "."), m);
		int k = 0;
		while (k < n && strcmp(seen[k], tool))
			k++;
		if (k == n && n == 6) {
			more++;
			continue;
		}
		if (k == n)
			snprintf(seen[n++], sizeof seen[0], "%s", tool);
		count[k]++;
	}
	size_t at = 0;
	buf[0] = 0;
	for (int k = 0; k < n && at < len; k++) {
		char c[16] = "";
		if (count[k] > 1)
			snprintf(c, sizeof c, " x%d", count[k]);
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s", k ? ", " : "", seen[k], c);
	}
	if (more && at < len)
		snprintf(buf + at, len - at, ", %d more", more);
}

static void answer_side(FILE *f, const struct cmp_table *t, size_t s)
{
	size_t n[V_SAME + 1] = { 0 }, tested = 0;
	double mde_hi = NAN;
	/* the rows the table shows: a batch mean beside its steady figure where it changed */
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_test *ts = &t->rows[i].test[s];
		if (!cmp_row_shown(t, &t->rows[i]))
			continue;
		n[ts->v]++;
		if (ts->v == V_UNDECIDED && !isnan(ts->mde) && (isnan(mde_hi) || ts->mde > mde_hi))
			mde_hi = ts->mde;
	}
	tested = n[V_WORSE] + n[V_BETTER] + n[V_UNDECIDED] + n[V_SAME];
	char name[200], rw[64], rb[64], tw[200], tb[200];
	term_str(t->sides[s].name, name, sizeof name);
	range_text(t, s, V_WORSE, rw, sizeof rw);
	range_text(t, s, V_BETTER, rb, sizeof rb);
	tools_text(t, s, V_WORSE, tw, sizeof tw);
	tools_text(t, s, V_BETTER, tb, sizeof tb);
	size_t rest = tested - n[V_WORSE] - n[V_BETTER];
	if (n[V_WORSE] && n[V_BETTER])
		fprintf(f, "%s is mixed: %zu point%s worse, %s (%s); %zu better, %s (%s)", name,
			n[V_WORSE], n[V_WORSE] == 1 ? "" : "s", rw, tw, n[V_BETTER], rb, tb);
	else if (n[V_WORSE] || n[V_BETTER])
		fprintf(f, "%s is %s: %zu point%s %s, %s (%s); nothing else changed significantly "
			   "(%zu point%s)", name, n[V_WORSE] ? "slower" : "faster",
			n[V_WORSE] + n[V_BETTER], n[V_WORSE] + n[V_BETTER] == 1 ? "" : "s",
			n[V_WORSE] ? "worse" : "better", n[V_WORSE] ? rw : rb, n[V_WORSE] ? tw : tb,
			rest, rest == 1 ? "" : "s");
	else if (tested) {
		char und[96] = "";
		if (n[V_UNDECIDED] && !isnan(mde_hi))
			snprintf(und, sizeof und, ": they could flag changes of ±%.0f %% or more", mde_hi);
		fprintf(f, "%s: no significant change in %zu point%s (%zu the same within ±%g %%, "
			   "%zu undecided%s)", name, tested, tested == 1 ? "" : "s", n[V_SAME],
			t->o.min_effect, n[V_UNDECIDED], und);
	} else {
		fprintf(f, "%s: nothing could be tested (too few rounds or runs a side)", name);
	}
	fputc('\n', f);
}

void cmp_answer(FILE *f, const struct cmp_table *t)
{
	for (size_t s = 1; s < t->nsides; s++)
		answer_side(f, t, s);
	if (t->nwarnings)
		fprintf(f, "(%zu warning%s on stderr: the sides may differ by more than their code)\n",
			t->nwarnings, t->nwarnings == 1 ? "" : "s");
}
