/* export.c — `plumb export RUN [--format json|lmbench|csv] [-o FILE]`: a stored run (or a results
 * file) as plumb JSON, an lmbench 3 results file or CSV (one row per sample), on stdout or
 * written atomically to FILE (the format then defaults from its extension: .json JSON, .txt
 * lmbench, .csv CSV). A file that cannot be written is a usage error (exit 2): exit 3 is for
 * measurements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

#define USAGE "usage: plumb export RUN [--format json|lmbench|csv] [-o FILE] [--db FILE]"

int cmd_export(int argc, char **argv)
{
	const char *db = NULL, *out = NULL, *fmt = NULL, *arg = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--db") || !strcmp(a, "-o") || !strcmp(a, "--output") ||
		    !strcmp(a, "--format")) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "%s needs a value (%s)", a, USAGE);
			const char *v = argv[++i];
			if (!strcmp(a, "--db"))
				db = v;
			else if (!strcmp(a, "--format"))
				fmt = v;
			else
				out = v;
		} else if (!strcmp(a, "--json")) {
			fmt = "json";
		} else if (!strncmp(a, "--format=", 9)) {
			fmt = a + 9;
		} else if (a[0] == '-' && a[1]) {
			die(EXIT_USAGE, "unknown option '%s' (%s)", a, USAGE);
		} else if (arg) {
			die(EXIT_USAGE, "one RUN at a time (%s)", USAGE);
		} else {
			arg = a;
		}
	}
	if (!arg)
		die(EXIT_USAGE, "no RUN given (%s)", USAGE);
	enum run_format f;
	if (!fmt)
		f = run_format_for_path(out, FMT_JSON);
	else if (!strcmp(fmt, "json"))
		f = FMT_JSON;
	else if (!strcmp(fmt, "lmbench") || !strcmp(fmt, "text"))
		f = FMT_LMBENCH;
	else if (!strcmp(fmt, "csv"))
		f = FMT_CSV;
	else
		die(EXIT_USAGE, "unknown format '%s' (json, lmbench or csv)", fmt);
	struct run **runs = NULL;
	size_t n = 0;
	char err[512];
	if (runs_resolve(arg, db, &runs, &n, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	if (n != 1)
		die(EXIT_USAGE, "%s names %zu runs; export one at a time by its id (plumb runs)", arg, n);
	int rc;
	if (out)
		rc = run_save_file(runs[0], out, f, err, sizeof err);
	else
		rc = run_write(runs[0], stdout, f);
	if (rc)
		die(EXIT_USAGE, "%s", out ? err : "cannot write to stdout");
	run_free(runs[0]);
	free(runs);
	return 0;
}
