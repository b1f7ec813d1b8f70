/* runs_resolve.c — the RUN arguments of summary, compare, report, export and push turned into
 * runs: a results file, or a run id, label or selection in a store (store.c opens it,
 * store_read.c reads it; this file sits above both). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "results/formats.h"
#include "results/io.h"
#include "results/store.h"
#include "results/store_db.h"

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int runs_resolve(const char *arg, const char *db, struct run ***runs, size_t *n, char *err,
		 size_t errlen)
{
	struct stat st;
	errno = 0;
	if (stat(arg, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return runs_read_file(arg, runs, n, err, errlen);
		snprintf(err, errlen, "%s: is a directory, not a results file", arg);
		return -1;
	}
	const char *ext = strrchr(arg, '.');
	if (strchr(arg, '/') || (ext && (!strcmp(ext, ".json") || !strcmp(ext, ".txt")))) {
		snprintf(err, errlen, "%s: %s", arg, strerror(errno ? errno : ENOENT));
		return -1;
	}
	struct run_filter f;
	int sel = run_filter_parse(arg, &f, err, errlen);
	if (sel < 0)
		return -1;
	if (!store_is_uri(db ? db : store_default_path()) && !store_sqlite_built()) {
		snprintf(err, errlen, "%s: no such file, and " STORE_NO_SQLITE_MSG, arg);
		run_filter_free(&f);
		return -1;
	}
	struct store *s = store_open(db, STORE_READ, err, errlen);
	if (!s) {
		run_filter_free(&f);
		return -1;
	}
	int rc = 0;
	size_t before = *n;
	if (all_digits(arg)) {
		struct run *r = store_load(s, atol(arg), err, errlen);
		if (r)
			run_array_push(runs, n, r);
		else
			rc = -1;
	} else {
		struct run_filter lab = { .label = arg };
		rc = store_load_where(s, sel ? &f : &lab, runs, n, err, errlen);
		if (!rc && *n == before) {
			snprintf(err, errlen, sel ? "%s: no run matches this selection in %s"
						  : "%s: no such file, run id or label in %s",
				 arg, s->name);
			rc = -1;
		}
	}
	run_filter_free(&f);
	store_close(s);
	return rc;
}
