/* contention.c — other processes' CPU use and steal time step by step (see contention.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "suite/contention.h"
#include "core/util.h"

static double tv_s(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static void sample(struct cpu_sample *s)
{
	memset(s, 0, sizeof *s);
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return;
	/* user nice system idle iowait irq softirq steal (guest, guest_nice: inside user) */
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		       &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	if (n < 4 || hz <= 0)
		return;
	double t = 1.0 / (double)hz;
	s->busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) * t;
	s->steal = (double)v[7] * t;
	s->total = (double)(v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]) * t;
	struct rusage me, kids;
	getrusage(RUSAGE_SELF, &me);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->ours = tv_s(me.ru_utime) + tv_s(me.ru_stime) + tv_s(kids.ru_utime) + tv_s(kids.ru_stime);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	s->ok = 1;
}

int contention_shares(const struct cpu_sample *a, const struct cpu_sample *b, double *others,
		      double *steal)
{
	*others = *steal = 0;
	double total = b->total - a->total;
	long hz = sysconf(_SC_CLK_TCK);
	/* /proc/stat counts in clock ticks: fewer than 20 over all CPUs is too coarse to judge */
	if (!a->ok || !b->ok || hz <= 0 || total < 20.0 / (double)hz)
		return 0;
	double o = (b->busy - a->busy) - (b->ours - a->ours);
	*others = o > 0 ? 100 * o / total : 0;
	*steal = 100 * (b->steal - a->steal) / total;
	return 1;
}

/* Steps too short for /proc/stat's ticks are judged together with the next ones: their
 * intervals are summed in c->window and their labels wait in c->pending. Only the steps' own
 * intervals count, never the time between them: in a plumb ab session the other side runs its
 * step there, and that is not work beside this side's step. */
void contention_before(struct contention *c)
{
	sample(&c->before);
}

static void window_add(struct cpu_sample *w, const struct cpu_sample *a, const struct cpu_sample *b)
{
	if (!a->ok || !b->ok)
		return;
	w->busy += b->busy - a->busy;
	w->steal += b->steal - a->steal;
	w->total += b->total - a->total;
	w->ours += b->ours - a->ours;
	w->wall += b->wall - a->wall;
	w->ok = 1;
}

static void list_add(char **list, size_t *len, const char *item)
{
	size_t n = strlen(item);
	*list = xrealloc(*list, *len + n + 3);
	snprintf(*list + *len, n + 3, "%s%s", *len ? "; " : "", item);
	*len += n + (*len ? 2 : 0);
}

void contention_after(struct contention *c, const char *label)
{
	struct cpu_sample now;
	sample(&now);
	double others, steal;
	list_add(&c->pending, &c->plen, label);
	c->npending++;
	window_add(&c->window, &c->before, &now);
	const struct cpu_sample zero = { .ok = 1 };
	if (!contention_shares(&zero, &c->window, &others, &steal))
		return;
	memset(&c->window, 0, sizeof c->window);
	int n = c->npending;
	char *labels = c->pending;
	c->pending = NULL;
	c->plen = 0;
	c->npending = 0;
	c->steps += n;
	if (others > c->max_pct)
		c->max_pct = others;
	if (steal > c->max_steal)
		c->max_steal = steal;
	if (others > CONTENTION_PCT || steal > CONTENTION_STEAL_PCT) {
		c->marked += n;
		char *item = xasprintf("%s (others %.0f%%, steal %.0f%%)", labels, others, steal);
		list_add(&c->list, &c->len, item);
		free(item);
	}
	free(labels);
}

void contention_end(struct contention *c, struct run *run,
		    void (*warn)(const char *fmt, ...))
{
	char b[64];
	if (c->steps) {
		snprintf(b, sizeof b, "%.0f", c->max_pct);
		kv_set(&run->facts, "contention_max_pct", b);
		snprintf(b, sizeof b, "%.0f", c->max_steal);
		kv_set(&run->facts, "steal_max_pct", b);
	}
	if (c->marked) {
		kv_set(&run->facts, "contended_steps", c->list);
		warn("%d of %d steps ran beside other work (other processes up to %.0f%% of the CPUs, "
		     "steal up to %.0f%%): their numbers may read slow; the steps are in the run's "
		     "contended_steps fact", c->marked, c->steps, c->max_pct, c->max_steal);
	}
	free(c->list);
	free(c->pending);
	memset(c, 0, sizeof *c);
}
