/*
 * compare_junit.c — the compare table as JUnit XML (compare_junit.h), as Jenkins' and Ant's
 * JUnit reports have it: <testsuites> holding one <testsuite> per side compared with the
 * baseline, one <testcase> per metric point (classname "plumb.FAMILY", name the point as compare
 * names it). A significant regression is a <failure type="regression"> whose message holds the
 * verdict, the change and both values; points that cannot be judged (too few rounds, a missing
 * point, different method versions) are <skipped> with the reason; everything else passes.
 *
 * Every string comes from runs, which may come from any file: text is written with xml_fputs
 * (core/escape.h), so the output always parses.
 */
#include <math.h>
#include <string.h>
#include "analysis/compare_junit.h"
#include "core/escape.h"
#include "core/util.h"

static size_t count(const struct cmp_table *t, size_t side, enum verdict v)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		n += t->rows[i].test[side].v == v;
	return n;
}

static int skipped(enum verdict v)
{
	return v == V_NOTEST || v == V_MISSING || v == V_METHOD;
}

static void value_text(const struct cmp_cell *c, const char *unit, char *buf, size_t len)
{
	char v[32];
	if (!c->present)
		snprintf(buf, len, "missing");
	else
		snprintf(buf, len, "%s %s (%zu rounds)", cmp_fmt_num(c->center, v, sizeof v),
			 unit ? unit : "", c->nrounds);
}

static void testcase(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t side)
{
	char name[512], fam[128], base[96], now[96], msg[512];
	cmp_row_name(r, name, sizeof name);
	snprintf(fam, sizeof fam, "%s", r->metric);
	char *dot = strchr(fam, '.');
	if (dot)
		*dot = 0;
	const struct cmp_test *x = &r->test[side];
	value_text(&r->cell[0], r->unit, base, sizeof base);
	value_text(&r->cell[side], r->unit, now, sizeof now);
	char pc[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
	int n = isnan(x->change) ? snprintf(msg, sizeof msg, "%s", verdict_name(x->v))
		: isnan(x->lo) ? snprintf(msg, sizeof msg, "%s: %s %%", verdict_name(x->v),
					  pct_str(x->change, pc))
			       : snprintf(msg, sizeof msg, "%s: %s %% [%s, %s]", verdict_name(x->v),
					  pct_str(x->change, pc), pct_str(x->lo, pl),
					  pct_str(x->hi, ph));
	if (n > 0 && (size_t)n < sizeof msg && !isnan(x->p_adj))
		snprintf(msg + n, sizeof msg - (size_t)n, " (p=%.2g)", x->p_adj);
	fputs("    <testcase classname=\"plumb.", f);
	xml_fputs(f, fam);
	fputs("\" name=\"", f);
	xml_fputs(f, name);
	fputs("\" time=\"0\"", f);
	if (x->v == V_WORSE) {
		fputs(">\n      <failure type=\"regression\" message=\"", f);
		xml_fputs(f, msg);
		fputs("\">", f);
		fprintf(f, "baseline ");
		xml_fputs(f, base);
		fprintf(f, ", now ");
		xml_fputs(f, now);
		fputs("</failure>\n    </testcase>\n", f);
	} else if (skipped(x->v)) {
		fputs(">\n      <skipped message=\"", f);
		xml_fputs(f, msg);
		fputs("\"/>\n    </testcase>\n", f);
	} else {
		fputs("/>\n", f);
	}
}

void cmp_print_junit(FILE *f, const struct cmp_table *t)
{
	size_t tests = 0, fails = 0, skips = 0;
	for (size_t s = 1; s < t->nsides; s++) {
		tests += t->nrows;
		fails += count(t, s, V_WORSE);
		for (size_t i = 0; i < t->nrows; i++)
			skips += skipped(t->rows[i].test[s].v);
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"plumb compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"0\">\n", tests, fails, skips);
	for (size_t s = 1; s < t->nsides; s++) {
		size_t sk = 0;
		for (size_t i = 0; i < t->nrows; i++)
			sk += skipped(t->rows[i].test[s].v);
		fputs("  <testsuite name=\"plumb compare ", f);
		xml_fputs(f, t->sides[0].name);
		fputs(" vs ", f);
		xml_fputs(f, t->sides[s].name);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
			t->nrows, count(t, s, V_WORSE), sk);
		fputs("    <properties>\n      <property name=\"baseline\" value=\"", f);
		xml_fputs(f, t->sides[0].name);
		fputs("\"/>\n      <property name=\"compared\" value=\"", f);
		xml_fputs(f, t->sides[s].name);
		fprintf(f, "\"/>\n      <property name=\"alpha\" value=\"%g\"/>\n"
			"      <property name=\"min_effect_pct\" value=\"%g\"/>\n    </properties>\n",
			t->o.alpha, t->o.min_effect);
		for (size_t i = 0; i < t->nrows; i++)
			testcase(f, t, &t->rows[i], s);
		if (t->nwarnings) {
			fputs("    <system-err>", f);
			for (size_t w = 0; w < t->nwarnings; w++) {
				xml_fputs(f, t->warnings[w]);
				fputs("&#10;", f);
			}
			fputs("</system-err>\n", f);
		}
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}
