/*
 * lava_write.c — a run as LAVA test cases (`plumb export --format lava`): a POSIX shell script
 * of one `lava-test-case` line per measured point, for a LAVA test definition to run on the
 * device (contrib/lava/):
 *     lava-test-case lat_syscall.op-null --result pass --measurement 0.0453 --units microseconds
 * The case is the metric, its parameters and its abscissa (a series' size), in the characters a
 * LAVA case name and its signal line can carry ([A-Za-z0-9._-]: LAVA splits the signal on blanks
 * and '='); the measurement is the value the metric reports (its median, or minimum where the
 * metric says so), in the shortest decimal that reads back exactly; the units the metric's, in
 * the same characters plus '/' and '%'. A point without a value is --result fail, with no
 * measurement. No text of the run itself (host, label) goes into the script but these names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "core/util.h"
#include "results/io.h"

/* s with every character outside [A-Za-z0-9._-] (and extra) written as sep. */
static void safe_word(FILE *f, const char *s, const char *extra, char sep)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-' ||
			 (extra && strchr(extra, *p));
		fputc(ok ? *p : sep, f);
	}
}

static void case_name(FILE *f, const struct result *p)
{
	safe_word(f, p->metric && *p->metric ? p->metric : "unnamed", NULL, '_');
	if (p->params && *p->params) {
		fputc('.', f);
		/* "op=null size=4k" -> op-null_size-4k */
		for (const char *s = p->params; *s; s++) {
			char one[2] = { *s == '=' ? '-' : *s == ' ' ? '_' : *s, 0 };
			safe_word(f, one, NULL, '_');
		}
	}
	if (isfinite(p->x)) {
		char buf[32];
		fputs(".x", f);
		safe_word(f, json_fmt_num(p->x, buf, sizeof buf), NULL, '_');
	}
}

int run_write_lava(const struct run *r, FILE *f)
{
	fputs("#!/bin/sh\n# plumb export --format lava: one LAVA test case per measured point; run it "
	      "where\n# lava-test-case is on the PATH (a LAVA test shell).\n", f);
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		fputs("lava-test-case ", f);
		case_name(f, p);
		if (!isfinite(p->value)) {
			fputs(" --result fail\n", f);
			continue;
		}
		char buf[32];
		fprintf(f, " --result pass --measurement %s", json_fmt_num(p->value, buf, sizeof buf));
		if (p->unit && *p->unit) {
			fputs(" --units ", f);
			safe_word(f, p->unit, "/%", '_');
		}
		fputc('\n', f);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}
