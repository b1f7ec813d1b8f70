/*
 * sides.h — turning RUN arguments (files, run ids, labels) into compare/report sides: one side
 * per argument, a label pooling every run with it. Shared by compare, report and plot.
 */
#ifndef PLUMB_SIDES_H
#define PLUMB_SIDES_H

#include <stddef.h>
#include "analysis/compare.h"
#include "core/opts.h"

/* Resolve each argument (runs_resolve) into sides[i]; exits 2 with one line on any failure.
 * With no argument and allow_latest set, the newest run of the store is the one side. */
struct side *sides_load(char **args, size_t nargs, const char *db, int allow_latest,
			size_t *nsides);
void sides_free(struct side *s, size_t n);
/* A side is one thing measured: runs whose architecture, CPU, build, kernel or emulation differ
 * are not pooled into it. Exits 2 naming the fact, unless pool_anyway (then a warning). */
void sides_check_pooling(const struct side *s, size_t n, int pool_anyway);
/* For each side taken from the store: its earlier runs of the same host, profile, build and
 * measuring options (newest first, at most HISTORY_MAX, none of the compared runs), whose
 * run-to-run spread compare uses as the side's noise. Silent without a store. */
/* --fail-on-regression of compare and trend: a worse verdict that is no regression of a
 * change exits this, not 1 (docs/compare.md, "Exit status"). */
#define EXIT_NOT_JUDGED 4
/* Whether a worse verdict between the sides can be a change's regression: 0, or 1 with why
 * (one line) when their runs come from different machines (architecture, CPU model, emulation:
 * runs_machine_split without the kernel, whose change compare and trend are for) or a run was
 * made beside other work (its contended_steps fact) and the sides are not one paired plumb ab
 * session (whose pairs share the load). */
int sides_not_judged(const struct side *s, size_t n, char *why, size_t len);

#define HISTORY_MAX 20
void sides_load_history(struct side *s, size_t n, const char *db);
/* Parse a number in [lo, hi] strictly (C locale); exits 2 naming what on error. */
double parse_double_arg(const char *s, double lo, double hi, const char *what);

/* compare's option group, declared once (core/opts.h's OPT_GROUP): --db, --alpha, --min-effect
 * and --correction, into a struct compare_args. compare, report, plot and ab include it in
 * their tables. */
struct compare_args {
	const char *db;
	struct cmp_opts o;
};
extern const struct opt compare_group[];
extern const struct opt bisect_compare_group[]; /* --min-effect without a default */
/* A command's bad option: "unknown or incomplete option 'WORD' (see plumb CMD --help)", exit 2. */
void compare_bad_option(const char *cmd, const char *word, int missing) __attribute__((noreturn));

#endif
