/*
 * summary_cond.c — what summary says, in every format, about runs measured under conditions
 * that change how their numbers read (results/run_cond.h): an emulated run's numbers time an
 * emulator on another machine, not the architecture it names; a contended run's may read slow.
 * Said above the tables, where a reader of a pasted summary cannot miss it.
 */
#include <math.h>
#include <stdio.h>
#include "analysis/summary_row.h"
#include "core/escape.h"
#include "results/run_cond.h"
#include "results/run_ident.h"

void summary_cond_lines(FILE *f, struct run *const *runs, const struct row *rows, size_t n,
			void (*put)(FILE *, const char *))
{
	for (size_t i = 0; i < n; i++) {
		char emu[160], line[RUN_TEXT_MAX * 4 + 600];
		const char *arch = run_arch(runs[i]);
		if (run_emulation(runs[i], emu, sizeof emu)) {
			snprintf(line, sizeof line, "%s %s was %s: its numbers time an emulator on the "
				 "host, not %s hardware", rows[i].host, rows[i].who, emu,
				 arch ? arch : "the target's");
			put(f, line);
		}
		if (run_contended(runs[i])) {
			double c = run_contention_pct(runs[i]);
			char pct[64] = "";
			if (!isnan(c))
				snprintf(pct, sizeof pct, " (others up to %.0f%% of the CPUs)", c);
			snprintf(line, sizeof line, "%s %s ran beside other work%s: its contended steps "
				 "may read slow (the run's contended_steps fact names them)", rows[i].host,
				 rows[i].who, pct);
			put(f, line);
		}
	}
}
