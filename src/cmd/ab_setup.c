/* ab_setup.c — what a `plumb ab` session needs around it: side A's command, the two labels,
 * the store tried before and written after (ab_setup.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/ab_setup.h"
#include "core/util.h"
#include "results/io.h"
#include "results/run.h"
#include "results/store.h"

/* Side A's command line: --a, else this binary (into self). */
const char *ab_side_a(const char *a, char *self, size_t size)
{
	if (a)
		return a;
	ssize_t n = readlink("/proc/self/exe", self, size - 1);
	if (n <= 0)
		die(EXIT_USAGE, "cannot find this binary (/proc/self/exe): give --a");
	self[n] = 0;
	return self;
}

/* The two labels: --label A,B split at its comma into lab (A) and the returned B. */
char *ab_split_labels(const char *labels, char **lab)
{
	*lab = xstrdup(labels);
	char *comma = strchr(*lab, ',');
	if (!comma || comma == *lab || !comma[1] || strchr(comma + 1, ','))
		die(EXIT_USAGE, "--label: '%s' is not two labels A,B", labels);
	*comma = 0;
	char why[128];
	if (run_text_check("label A", *lab, why, sizeof why) ||
	    run_text_check("label B", comma + 1, why, sizeof why))
		die(EXIT_USAGE, "--label: %s", why);
	return comma + 1;
}

/* The store is tried before the session: one that cannot be written is said at once, not
 * after minutes of measuring (and never replaced by another place). 1: a build without SQLite
 * (the session is compared, and said at the end to be kept nowhere). */
int ab_store_missing(int no_store, const char *db)
{
	if (no_store)
		return 0;
	char err[512];
	struct store *st = store_open(db, STORE_CREATE, err, sizeof err);
	if (st) {
		store_close(st);
		return 0;
	}
	if (strstr(err, STORE_NO_SQLITE_MSG))
		return 1;
	die(EXIT_USAGE, "%s (--no-store runs the session without storing it)", err);
}

/* Both runs stored as one transaction. 1 stored, 0 not asked to, -1 failed (said). */
int ab_store_session(const char *db, struct run **run, const char *sid)
{
	char err[512];
	struct store *st = store_open(db, STORE_CREATE, err, sizeof err);
	int rc = 1;
	if (!st || store_save_all(st, run, 2, err, sizeof err) != 0) {
		/* err names the store; the comparison is still printed, then exit 3 */
		warnx_("error: the session is not stored: %s", err);
		rc = -1;
	} else {
		warnx_("stored as runs %ld (%s) and %ld (%s), session %s; plumb report %ld %ld",
		       run[0]->id, run[0]->label, run[1]->id, run[1]->label, sid, run[0]->id,
		       run[1]->id);
	}
	if (st)
		store_close(st);
	return rc;
}

int ab_write_session(const char *dir, struct run **run)
{
	for (int s = 0; s < 2; s++) {
		char err[600], *path = xasprintf("%s/%s.json", dir, s ? "B" : "A");
		int rc = run_save_file(run[s], path, FMT_JSON, err, sizeof err);
		free(path);
		if (rc) {
			warnx_("error: --json-dir: %s", err);
			return -1;
		}
	}
	return 0;
}
