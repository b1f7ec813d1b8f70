/* metrics.c — the registry table, expanded from metrics.def. */
#include <string.h>
#include "core/metrics.h"

const struct metric_def metric_table[] = {
#define M(id, unit, better, stat, ver, line, xfmt, vfmt, title, desc) \
	{ id, unit, better, stat, ver, line, xfmt, vfmt, title, desc },
#include "core/metrics.def"
#undef M
};
const int metric_count = (int)(sizeof metric_table / sizeof metric_table[0]);

const struct metric_def *metric_find(const char *id)
{
	for (int i = 0; i < metric_count; i++)
		if (strcmp(metric_table[i].id, id) == 0)
			return &metric_table[i];
	return NULL;
}

const char *better_name(enum better b)
{
	return b == LOWER ? "lower" : b == HIGHER ? "higher" : "neutral";
}

const char *stat_name(enum statistic s)
{
	return s == BEST ? "best" : "median";
}

int metric_stat_dir(const struct metric_def *d)
{
	if (!d || d->stat != BEST)
		return 0;
	return d->better == HIGHER ? 1 : -1;
}
