/* fit.c — fitting the suite's plan to a time budget (see fit.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "suite/fit.h"

double plan_budget(enum profile p)
{
	return p == PROF_QUICK ? 32 : p == PROF_FULL ? 840 : 150;
}

double parse_duration(const char *s)
{
	if (!s || !*s)
		return -1;
	double total = 0;
	const char *q = s;
	while (*q) {
		if (!isdigit((unsigned char)*q))
			return -1;
		char *end;
		double v = strtod(q, &end);
		double unit = 1;
		if (*end == 's')
			end++;
		else if (*end == 'm')
			unit = 60, end++;
		else if (*end == 'h')
			unit = 3600, end++;
		else if (*end)
			return -1;
		total += v * unit;
		q = end;
	}
	return total;
}

struct tool_cost {
	const char *name;
	enum budget_group bg;
	double cost;
	int keep;            /* the run's facts, or its budget group's cheapest tool */
};

/* The tools of the steps kept, with their cost per round. */
static int tool_costs(const struct plan *p, int (*sel)(const struct step *, void *), void *arg,
		      struct tool_cost *t, int max)
{
	int n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct step *s = &p->v[i];
		if (s->dropped || (sel && !sel(s, arg)))
			continue;
		int k;
		for (k = 0; k < n && strcmp(t[k].name, s->argv[0]); k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			t[n++] = (struct tool_cost){ s->argv[0], s->budget_group, 0, 0 };
		}
		t[k].cost += s->est_s;
		if (s->flags & STEP_ALWAYS)
			t[k].keep = 1;
	}
	/* each budget group keeps its cheapest tool: a budget shortens the suite, it does not
	 * empty a group of it */
	for (int k = 0; k < n; k++) {
		int cheapest = 1;
		for (int j = 0; j < n; j++)
			if (j != k && t[j].bg == t[k].bg &&
			    (t[j].cost < t[k].cost || (t[j].cost == t[k].cost && j < k)))
				cheapest = 0;
		if (cheapest)
			t[k].keep = 1;
	}
	return n;
}

static void drop_tool(struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].argv[0], name))
			p->v[i].dropped = 1;
}

static void rebuild(struct plan *p, const struct plan_cfg *c)
{
	plan_free(p);
	plan_build(p, c);
}

void plan_fit(struct plan *p, struct plan_cfg *c, int (*sel)(const struct step *, void *),
	      void *arg, struct plan_fit *f)
{
	f->rounds = f->rounds_asked > 0 ? f->rounds_asked : 1;
	f->thinned = 0;
	f->mem_asked = c->mem_bytes;
	f->dropped[0] = 0;
	f->ndropped = 0;
	plan_build(p, c);
	f->est = plan_cost(p, f->rounds, sel, arg);

	/* the smallest plan, for the message when even that is over the budget */
	struct plan_cfg tc = *c;
	tc.thin = 1;
	struct plan small;
	plan_build(&small, &tc);
	struct tool_cost t[128];
	int nt = tool_costs(&small, sel, arg, t, 128);
	for (int k = 0; k < nt; k++)
		if (!t[k].keep)
			drop_tool(&small, t[k].name);
	f->min_est = plan_cost(&small, 1, sel, arg);
	plan_free(&small);

	if (f->est > f->budget && !c->thin && c->profile != PROF_QUICK) {
		c->thin = 1;
		rebuild(p, c);
		f->thinned = 1;
		f->est = plan_cost(p, f->rounds, sel, arg);
	}
	/* then the largest sizes: the memory series' top halved, not below 64 MiB — first only
	 * if that alone meets the budget (a lower top costs main memory's figures, a round
	 * only their spread), else after the rounds */
	f->mem_asked = c->mem_bytes;
	for (int pass = 0; pass < 2; pass++) {
		if (f->est > f->budget && c->mem_bytes > (64ull << 20)) {
			struct plan_cfg lo = *c;
			lo.mem_bytes = 64ull << 20;
			lo.mem_cut = 1;
			struct plan t;
			plan_build(&t, &lo);
			int enough = plan_cost(&t, f->rounds, sel, arg) <= f->budget;
			plan_free(&t);
			while ((enough || pass) && f->est > f->budget && c->mem_bytes > (64ull << 20)) {
				c->mem_bytes /= 2;
				c->mem_cut = 1;
				rebuild(p, c);
				f->est = plan_cost(p, f->rounds, sel, arg);
			}
		}
		while (!pass && f->est > f->budget && f->rounds > 1)
			f->est = plan_cost(p, --f->rounds, sel, arg);
	}
	while (f->est > f->budget) {
		nt = tool_costs(p, sel, arg, t, 128);
		int worst = -1;
		for (int k = 0; k < nt; k++)
			if (!t[k].keep && (worst < 0 || t[k].cost > t[worst].cost))
				worst = k;
		if (worst < 0)
			break;
		size_t l = strlen(f->dropped);
		if (l + strlen(t[worst].name) + 3 < sizeof f->dropped)
			snprintf(f->dropped + l, sizeof f->dropped - l, "%s%s", l ? ", " : "",
				 t[worst].name);
		f->ndropped++;
		drop_tool(p, t[worst].name);
		f->est = plan_cost(p, f->rounds, sel, arg);
	}
	f->fits = f->est <= f->budget;
}
