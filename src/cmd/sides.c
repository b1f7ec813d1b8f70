/* sides.c — RUN arguments to sides (see sides.h). A side pools every run its argument names,
 * each once: two runs with one uid (the same run imported twice before the duplicate rule, or
 * a file and its stored copy) are one run, since counting it twice would fake agreement. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "cmd/sides.h"
#include "core/util.h"
#include "results/run_ident.h"
#include "results/store.h"

static void load_latest(struct side *s, const char *db)
{
	char err[512];
	struct store *st = store_open(db, STORE_READ, err, sizeof err);
	if (!st)
		die(EXIT_USAGE, "no RUN given and no store to take the latest run from: %s", err);
	struct run **list = NULL;
	int n = store_list(st, &list, err, sizeof err);
	if (n <= 0) {
		store_close(st);
		die(EXIT_USAGE, "no RUN given and %s", n < 0 ? err : "the store has no run");
	}
	long id = list[n - 1]->id;
	for (int i = 0; i < n; i++)
		run_free(list[i]);
	free(list);
	struct run *r = store_load(st, id, err, sizeof err);
	store_close(st);
	if (!r)
		die(EXIT_USAGE, "%s", err);
	s->name = xasprintf("%ld", id);
	s->runs = xmalloc(sizeof *s->runs);
	s->runs[0] = r;
	s->nruns = 1;
}

/* Keep the first of runs that share a uid; say what was dropped. */
static void drop_duplicates(struct side *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct run *r = s->runs[i];
		size_t j = 0;
		while (j < k && !(r->uid && s->runs[j]->uid && !strcmp(r->uid, s->runs[j]->uid)))
			j++;
		if (j < k) {
			if (r->id && s->runs[j]->id)
				warnx_("%s: run %ld is the same run as run %ld (uid %s); counted once",
				       s->name, r->id, s->runs[j]->id, r->uid);
			else
				warnx_("%s: holds the same run twice (uid %s); counted once", s->name,
				       r->uid);
			run_free(r);
		} else {
			s->runs[k++] = r;
		}
	}
	s->nruns = k;
}

struct side *sides_load(char **args, size_t nargs, const char *db, int allow_latest,
			size_t *nsides)
{
	struct side *s = xcalloc(nargs ? nargs : 1, sizeof *s);
	if (nargs == 0 && allow_latest) {
		load_latest(&s[0], db);
		*nsides = 1;
		return s;
	}
	for (size_t i = 0; i < nargs; i++) {
		char err[512] = "";
		s[i].name = xstrdup(args[i]);
		if (runs_resolve(args[i], db, &s[i].runs, &s[i].nruns, err, sizeof err) != 0)
			die(EXIT_USAGE, "%s", err[0] ? err : args[i]);
		if (s[i].nruns == 0)
			die(EXIT_USAGE, "%s: no run with this id or label", args[i]);
		drop_duplicates(&s[i]);
	}
	/* Files are named by their base name in tables and legends, unless two would clash. */
	for (size_t i = 0; i < nargs; i++) {
		const char *b = strrchr(args[i], '/');
		if (!b || !b[1])
			continue;
		int clash = 0;
		for (size_t k = 0; k < nargs && !clash; k++) {
			const char *o = strrchr(args[k], '/');
			clash = k != i && strcmp(o ? o + 1 : args[k], b + 1) == 0;
		}
		if (!clash) {
			free(s[i].name);
			s[i].name = xstrdup(b + 1);
		}
	}
	*nsides = nargs;
	return s;
}

void sides_free(struct side *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < s[i].nruns; k++)
			run_free(s[i].runs[k]);
		free(s[i].runs);
		for (size_t k = 0; k < s[i].nhistory; k++)
			run_free(s[i].history[k]);
		free(s[i].history);
		free(s[i].name);
	}
	free(s);
}

double parse_double_arg(const char *s, double lo, double hi, const char *what)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || isnan(v) || v < lo || v > hi)
		die(EXIT_USAGE, "%s: '%s' is not a number in [%g, %g]", what, s, lo, hi);
	return v;
}

/* What must match for an earlier run to count as history of a side's run: the build and the
 * options that change how a number is measured (not --label, --only, output options). */
static const char *const same_facts[] = {
	"build_cc", "build_cflags", "build_features", "opt.mem", "opt.fsdir", "opt.remote",
	"opt.disk", "opt.copies", "opt.cold", "opt.repeat", "opt.cpu", "opt.samples",
	"opt.max-samples", NULL,
};

static int same_setup(const struct run *a, const struct run *b)
{
	if (!a->host || !b->host || strcmp(a->host, b->host) != 0 || !a->profile || !b->profile ||
	    strcmp(a->profile, b->profile) != 0)
		return 0;
	for (int i = 0; same_facts[i]; i++) {
		const char *x = kv_get(&a->facts, same_facts[i]), *y = kv_get(&b->facts, same_facts[i]);
		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
			return 0;
	}
	return 1;
}

static int in_sides(const struct side *s, size_t n, long id)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].nruns; k++)
			if (s[i].runs[k]->id == id)
				return 1;
	return 0;
}

void sides_load_history(struct side *s, size_t n, const char *db)
{
	if (!store_available())
		return;
	char err[512];
	struct store *st = store_open(db, STORE_READ, err, sizeof err);
	if (!st)
		return;
	struct run **list = NULL;
	int nl = store_list(st, &list, err, sizeof err);
	for (size_t i = 0; i < n; i++) {
		const struct run *ref = s[i].nruns ? s[i].runs[0] : NULL;
		if (!ref || !ref->id)
			continue; /* a file: no history of its own */
		/* the newest candidates first, at most HISTORY_MAX of them */
		for (int k = nl - 1; k >= 0 && s[i].nhistory < HISTORY_MAX; k--) {
			const struct run *c = list[k];
			if (in_sides(s, n, c->id) || !c->host || strcmp(c->host, ref->host ? ref->host : "") ||
			    !c->profile || strcmp(c->profile, ref->profile ? ref->profile : ""))
				continue;
			struct run *full = store_load(st, c->id, err, sizeof err);
			if (!full)
				continue;
			if (!same_setup(ref, full)) {
				run_free(full);
				continue;
			}
			s[i].history = xrealloc(s[i].history, (s[i].nhistory + 1) * sizeof *s[i].history);
			s[i].history[s[i].nhistory++] = full;
		}
	}
	for (int k = 0; k < nl; k++)
		run_free(list[k]);
	free(list);
	store_close(st);
}

static void set_alpha(const char *arg, void *field)
{
	*(double *)field = parse_double_arg(arg, 1e-9, 0.5, "--alpha");
}

static void set_min_effect(const char *arg, void *field)
{
	*(double *)field = parse_double_arg(arg, 0, 1000, "--min-effect");
}

static void set_correction(const char *arg, void *field)
{
	if (correction_parse(arg, field))
		die(EXIT_USAGE, "--correction: '%s' is not holm, bh or none", arg);
}

/* Strict ranges: a double's own parser names the option in its one error line. */
const struct opt compare_group[] = {
	OPT_STRING(0, "db", struct compare_args, db, "PATH",
		"the store RUN ids and labels refer to (an SQLite file or a postgresql:// URI)"),
	OPT_CALLBACK(0, "alpha", struct compare_args, o.alpha, "A", set_alpha,
		"significance level before correction (default 0.05)"),
	OPT_CALLBACK(0, "min-effect", struct compare_args, o.min_effect, "P", set_min_effect,
		"smallest change in percent called worse/better; same: within ±P (default 3)"),
	OPT_CALLBACK(0, "correction", struct compare_args, o.corr, "C", set_correction,
		"multiple-test correction: bh (default), holm or none"),
	OPT_END,
};

/* The same for bisect-check, whose --min-effect has no default: the regression hunted. */
const struct opt bisect_compare_group[] = {
	OPT_STRING(0, "db", struct compare_args, db, "PATH",
		"the store RUN ids and labels refer to (an SQLite file or a postgresql:// URI)"),
	OPT_CALLBACK(0, "alpha", struct compare_args, o.alpha, "A", set_alpha,
		"significance level before correction (default 0.05)"),
	OPT_CALLBACK(0, "min-effect", struct compare_args, o.min_effect, "P", set_min_effect,
		"the smallest slowdown in percent that is the regression hunted (required)"),
	OPT_CALLBACK(0, "correction", struct compare_args, o.corr, "C", set_correction,
		"multiple-test correction: bh (default), holm or none"),
	OPT_END,
};

void compare_bad_option(const char *cmd, const char *word, int missing)
{
	(void)missing; /* one wording for both, as compare always said */
	die(EXIT_USAGE, "unknown or incomplete option '%s' (see plumb %s --help)", word, cmd);
}

void sides_check_pooling(const struct side *s, size_t n, int pool_anyway)
{
	for (size_t i = 0; i < n; i++) {
		char why[1024];
		if (!runs_pool_split(s[i].runs, s[i].nruns, why, sizeof why))
			continue;
		if (!pool_anyway)
			die(EXIT_USAGE, "%s: not pooled, %s (--pool-anyway pools them)", s[i].name, why);
		warnx_("warning: %s: pooled anyway, although %s", s[i].name, why);
	}
}

/* Every run of the sides carries the same ab_session fact: one paired session. */
static int one_session(const struct side *s, size_t n)
{
	const char *sid = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].nruns; k++) {
			const char *v = kv_get(&s[i].runs[k]->facts, "ab_session");
			if (!v || (sid && strcmp(sid, v)))
				return 0;
			sid = v;
		}
	return sid != NULL;
}

int sides_not_judged(const struct side *s, size_t n, char *why, size_t len)
{
	size_t all = 0;
	for (size_t i = 0; i < n; i++)
		all += s[i].nruns;
	struct run **runs = xcalloc(all + 1, sizeof *runs);
	all = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].nruns; k++)
			runs[all++] = s[i].runs[k];
	char w[1024];
	int split = runs_machine_split(runs, all, 0, w, sizeof w);
	free(runs);
	if (split) {
		snprintf(why, len, "the sides come from different machines (%s)", w);
		return 1;
	}
	if (one_session(s, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].nruns; k++) {
			const char *c = kv_get(&s[i].runs[k]->facts, "contended_steps");
			char who[256];
			if (!c || !*c)
				continue;
			snprintf(why, len, "%s: %s ran beside other work (contended_steps: %.300s)",
				 s[i].name, run_who(s[i].runs[k], k, who, sizeof who), c);
			return 1;
		}
	return 0;
}
