/*
 * select.c — which steps `plumb run` runs: the plan for the profile fitted to the time budget
 * (fit.h), kept or dropped by --only, --skip (families and aliases, bench/tool.h, or tools
 * and single steps) and --subset; and the plan as --dry-run prints it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/timing.h"
#include "core/util.h"
#include "suite/suite.h"

/* The family of step s's tool (its folder), NULL for a tool not built in; *t gets the tool
 * (NULL when not built in), *subset its subset (the plan's for a tool not built in). */
static const char *step_family(const struct step *s, const struct tool **t, int *subset)
{
	const struct registered *r = NULL;
	const struct tool *tt = tool_find(s->argv[0], &r);
	if (t)
		*t = tt;
	if (tt) {
		if (subset)
			*subset = (int)r->file->subset;
		return r->family;
	}
	if (subset)
		*subset = (int)s->subset;
	return NULL;
}

static void names_add(struct names *n, const char *s)
{
	for (int i = 0; i < n->n; i++)
		if (strcmp(n->v[i], s) == 0)
			return;
	if (n->n < 128)
		n->v[n->n++] = s;
}

static int names_has(const struct names *n, const char *s)
{
	for (int i = 0; i < n->n; i++)
		if (strcmp(n->v[i], s) == 0)
			return 1;
	return 0;
}

/* Whether name is step s's tool (lat_syscall) or the step itself, TOOL.ARG (lat_syscall.null):
 * a bisect or an A/B check of one operation runs only its steps, many rounds of them. */
static int step_named(const struct step *s, const char *name)
{
	size_t n = strlen(s->argv[0]);
	if (strncmp(name, s->argv[0], n) != 0)
		return 0;
	return name[n] == 0 || (name[n] == '.' && s->argc > 1 && !strcmp(name + n + 1, s->argv[1]));
}

/* Whether a name of n (a family or an alias: tool.h, a tool or a step) selects step s; a step
 * whose tool is not built in has no family or alias: only its tool or step names it. */
static int names_select(const struct names *n, const struct step *s)
{
	const struct registered *r = NULL;
	const struct tool *t = tool_find(s->argv[0], &r);
	for (int i = 0; i < n->n; i++)
		if ((t && registered_selects(r, n->v[i])) ||
		    step_named(s, n->v[i]))
			return 1;
	return 0;
}

/* Whether n names step s itself: its tool, the step (TOOL.ARG) or its tool's alias, not only
 * its family (a STEP_ASKED step runs only when asked for by name). */
static int names_ask(const struct names *n, const struct step *s)
{
	const struct registered *r = NULL;
	const struct tool *t = tool_find(s->argv[0], &r);
	for (int i = 0; i < n->n; i++)
		if (step_named(s, n->v[i]) || (t && !strcmp(r->file->alias, n->v[i])))
			return 1;
	return 0;
}

/* Parse a comma list of families and aliases (or tools and steps of the plan); an unknown name
 * is a usage error listing the valid families and aliases. */
static void parse_families(const char *opt, char *list, const struct names *valid,
			   const struct plan *all, struct names *out)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (!*tok)
			continue;
		int known = names_has(valid, tok);
		for (size_t i = 0; i < all->n && !known; i++)
			known = step_named(&all->v[i], tok);
		if (!known) {
			char buf[1024] = "";
			for (int i = 0; i < valid->n; i++)
				snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "",
					 valid->v[i]);
			die(EXIT_USAGE, "%s: unknown family '%s' (valid: %s; or a tool, or one step as "
			    "TOOL.ARG: lat_syscall.null)", opt, tok, buf);
		}
		names_add(out, tok);
	}
	if (out->n == 0)
		die(EXIT_USAGE, "%s: no family named", opt);
}

/* Whether the run keeps step s: --only, --skip, --subset. */
static int step_kept(const struct step *s, void *arg)
{
	const struct suite_plan *P = arg;
	const struct run_opts *o = &P->o;
	int sub;
	step_family(s, NULL, &sub);
	if ((o->only && !names_select(&P->only, s)) || (o->skip && names_select(&P->skipf, s)))
		return 0;
	if ((s->flags & STEP_ASKED) && !(o->only && names_ask(&P->only, s)))
		return 0;
	if (o->subset && !(sub & o->subset) && !(s->flags & STEP_ALWAYS))
		return 0;
	return 1;
}

/* What the budget counts: the steps kept whose tool is built in. */
static int step_costs(const struct step *s, void *arg)
{
	return step_kept(s, arg) && tool_find(s->argv[0], NULL);
}

/* The plan for the profile, fitted to the budget (fit.h), filtered by --only, --skip and
 * --subset; steps whose tool is not built in are counted (and kept for --dry-run). */
void select_steps(struct suite_plan *P)
{
	const struct run_opts *o = &P->o;
	struct plan_cfg pc = {
		.profile = o->profile, .mem_bytes = P->mem, .mem_given = o->mem != 0,
		.file_bytes = P->file_bytes, .line = P->line,
		.file = P->file ? P->file : "$FSDIR/XXX", .fsdir = P->fsrun ? P->fsrun : "$FSDIR",
		.remote = o->remote, .disk = o->disk, .copies = o->copies,
		/* the estimates are for 11 samples; measured here: 3 samples a round take about a
		 * third of the time (default: 34 s a round against 66 s estimated with 0.3 + 0.7 r/11),
		 * 7 adaptive about two thirds, 11 adaptive to 51 the full time */
		.sample_scale = 0.1 + 0.9 * (double)P->reps / TIMING_DEFAULT_REPS,
		.reps = P->reps,
		/* plumb ab's side: its parent decides the rounds of every step */
		.os_factor = P->ab_worker ? 1 : o->os_factor,
	};

	/* The names --only and --skip take: the registry's families and aliases (tools and steps
	 * are checked against the plan). */
	struct plan all;
	plan_build(&all, &pc);
	struct names valid = { .n = 0 };
	for (int f = 0; family_at(f); f++)
		names_add(&valid, family_at(f));
	for (int f = 0; alias_at(f); f++)
		names_add(&valid, alias_at(f));
	if (o->only)
		parse_families("--only", o->only, &valid, &all, &P->only);
	if (o->skip)
		parse_families("--skip", o->skip, &valid, &all, &P->skipf);
	plan_free(&all);

	P->fit.budget = o->time_limit > 0 ? o->time_limit : plan_budget(o->profile);
	P->fit.rounds_asked = o->repeat;
	plan_fit(&P->plan, &pc, step_costs, P, &P->fit);
	if (!P->fit.fits && o->time_limit > 0)
		die(EXIT_USAGE, "--time-limit %.0f s is below the smallest plan, about %.0f s here "
		    "(series thinned, one round, one tool per budget group)", o->time_limit,
		    P->fit.min_est);
	P->o.repeat = P->fit.rounds;
	P->mem = pc.mem_bytes;

	P->sel = xcalloc(P->plan.n + 1, sizeof *P->sel);
	P->last_file = (size_t)-1;
	for (size_t i = 0; i < P->plan.n; i++) {
		const struct step *s = &P->plan.v[i];
		if (s->dropped || !step_kept(s, P))
			continue;
		const struct tool *t;
		const char *fam = step_family(s, &t, NULL);
		if (!t) {
			names_add(&P->absent, s->argv[0]);
			P->nabsent++;
			if (!o->dry_run)
				continue;
		}
		/* The last step that uses $FILE: the file goes after it, as lmbench deletes it. */
		if (t && (s->flags & (STEP_FILE | STEP_WRITES_FILE)))
			P->last_file = P->nsel;
		P->sel[P->nsel++] = (struct sel){ s, t, fam };
		if (t)
			P->est_total += s->est_s;
	}
	for (int i = 0; i < P->absent.n; i++)
		sb_add(&P->skipped, ", ", P->absent.v[i]);
}

/* What the budget cost the plan, in words ("" when nothing). */
void fit_desc(const struct suite_plan *P, char *buf, size_t len)
{
	const struct plan_fit *f = &P->fit;
	buf[0] = 0;
	if (f->thinned)
		snprintf(buf, len, "series thinned to the summary's sizes");
	if (f->mem_asked > P->mem)
		snprintf(buf + strlen(buf), len - strlen(buf), "%smemory series to %llu MiB, not %llu",
			 buf[0] ? "; " : "", (unsigned long long)(P->mem / MIB),
			 (unsigned long long)(f->mem_asked / MIB));
	if (f->rounds < f->rounds_asked)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%d of %d rounds", buf[0] ? "; " : "",
			 f->rounds, f->rounds_asked);
	if (f->ndropped)
		snprintf(buf + strlen(buf), len - strlen(buf), "%stools left out: %s",
			 buf[0] ? "; " : "", f->dropped);
}

void print_plan(const struct suite_plan *P)
{
	double all = 0;
	int k = P->plan.os_factor > 1 ? P->plan.os_factor : 1, marked = 0;
	for (size_t i = 0; i < P->nsel; i++) {
		const struct sel *x = &P->sel[i];
		int more = k > 1 && (x->s->flags & STEP_OS_ROUNDS);
		printf("%-8s %6.1f  %s%s%s\n", x->family ? x->family : "-", x->s->est_s, x->s->label, more ? "  *" : "",
		       x->t ? "" : "   (not built in: skipped)");
		all += x->s->est_s;
		marked |= more;
	}
	char more[96] = "";
	if (marked)
		snprintf(more, sizeof more, " (the steps marked * in %d)", P->o.repeat * k);
	char fd[1200];
	fit_desc(P, fd, sizeof fd);
	printf("%zu steps, profile %s, memory series to %llu MiB (%s), file %llu MiB\n"
	       "estimated %.0f s for %d round(s)%s with the tools built in (%.0f s a round listed), "
	       "budget %.0f s%s%s%s\n",
	       P->nsel, profile_name(P->o.profile), (unsigned long long)(P->mem / MIB), P->mem_how,
	       (unsigned long long)(P->file_bytes / MIB), P->fit.est, P->o.repeat, more, all,
	       P->fit.budget, P->o.time_limit > 0 ? " (--time-limit)" : " (the profile's)",
	       fd[0] ? ": " : "", fd);
}

