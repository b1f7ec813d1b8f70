/* sysfile.c — what sysinfo.c and the readers it calls (caches.c, emulation.c, kernel_facts.c,
 * topology.c) share: a file's first line and a fact added to a list. It calls none of them. */
#include <stdio.h>
#include <string.h>
#include "core/sysinfo.h"

char *read_line_file(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *r = fgets(buf, len, f);
	fclose(f);
	if (!r)
		return NULL;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

int fact_add(struct fact *f, int n, int max, const char *k, const char *v)
{
	if (n >= max || !v || !*v)
		return n;
	snprintf(f[n].key, sizeof f[n].key, "%s", k);
	snprintf(f[n].val, sizeof f[n].val, "%s", v);
	return n + 1;
}
