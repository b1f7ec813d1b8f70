/* export.c — `plumb export RUN [--format json|lmbench|csv|lava] [-o FILE]`: a stored run (or a
 * results file) as plumb JSON, an lmbench 3 results file, CSV (one row per sample) or LAVA test
 * cases (one lava-test-case line per point), on stdout or
 * written atomically to FILE (the format then defaults from its extension: .json JSON, .txt
 * lmbench, .csv CSV). A file that cannot be written is a usage error (exit 2): exit 3 is for
 * measurements. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

#define USAGE "usage: plumb export RUN [--format json|lmbench|csv|lava] [-o FILE] [--db FILE]"

struct export_cli {
	const char *db, *out, *fmt;
};

static void set_json(const char *arg, void *field)
{
	*(const char **)field = "json";
}

const struct opt export_options[] = {
	OPT_STRING(0, "format", struct export_cli, fmt, "F",
		"json (default), lmbench (results text), csv (one row per sample) or lava "
		"(lava-test-case lines)"),
	OPT_CALLBACK_NOARG(0, "json", struct export_cli, fmt, set_json,
		"the same as --format json"),
	OPT_STRING('o', "output", struct export_cli, out, "FILE",
		"write FILE atomically; the format follows .json/.txt/.csv"),
	OPT_STRING(0, "db", struct export_cli, db, "FILE", "the store to read RUN from"),
	OPT_END,
};

__attribute__((noreturn)) static void export_bad(const char *cmd, const char *word, int missing)
{
	if (missing)
		die(EXIT_USAGE, "%s needs a value (%s)", word, USAGE);
	die(EXIT_USAGE, "unknown option '%s' (%s)", word, USAGE);
}

int cmd_export(int argc, char **argv)
{
	struct export_cli a = { 0 };
	static const struct command_options t = { "export", export_options, 0, export_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db, *out = a.out, *fmt = a.fmt;
	if (argc - first > 1)
		die(EXIT_USAGE, "one RUN at a time (%s)", USAGE);
	if (argc - first < 1)
		die(EXIT_USAGE, "no RUN given (%s)", USAGE);
	const char *arg = argv[first];
	enum run_format f;
	if (!fmt)
		f = run_format_for_path(out, FMT_JSON);
	else if (!strcmp(fmt, "json"))
		f = FMT_JSON;
	else if (!strcmp(fmt, "lmbench") || !strcmp(fmt, "text"))
		f = FMT_LMBENCH;
	else if (!strcmp(fmt, "csv"))
		f = FMT_CSV;
	else if (!strcmp(fmt, "lava"))
		f = FMT_LAVA;
	else
		die(EXIT_USAGE, "unknown format '%s' (json, lmbench, csv or lava)", fmt);
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
