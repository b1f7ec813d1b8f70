/*
 * compare.c — `plumb compare A B [C ...]`: runs side by side per metric with a verdict judged
 * on rounds (analysis/compare.h, docs/compare.md). Exit 1 with --fail-on-regression when a
 * metric is significantly worse; 2 for usage and input errors.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_junit.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/util.h"

int cmd_compare(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "alpha", required_argument, 0, 'a' },
		{ "min-effect", required_argument, 0, 'e' },
		{ "correction", required_argument, 0, 'c' },
		{ "all", no_argument, 0, 'A' },
		{ "format", required_argument, 0, 'f' },
		{ "json", no_argument, 0, 'j' },
		{ "fail-on-regression", no_argument, 0, 'F' },
		{ "db", required_argument, 0, 'd' },
		{ "output", required_argument, 0, 'o' },
		{ 0, 0, 0, 0 },
	};
	struct cmp_opts o;
	cmp_opts_default(&o);
	enum cmp_format fmt = CF_TEXT;
	const char *db = NULL, *out = NULL;
	int fail = 0, junit = 0, c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		switch (c) {
		case 'a': o.alpha = parse_double_arg(optarg, 1e-9, 0.5, "--alpha"); break;
		case 'e': o.min_effect = parse_double_arg(optarg, 0, 1000, "--min-effect"); break;
		case 'c':
			if (correction_parse(optarg, &o.corr))
				die(EXIT_USAGE, "--correction: '%s' is not holm, bh or none", optarg);
			break;
		case 'A': o.all = 1; break;
		case 'f':
			junit = !strcmp(optarg, "junit");
			if (!junit && cmp_format_parse(optarg, &fmt))
				die(EXIT_USAGE, "--format: '%s' is not text, markdown, csv, json or junit", optarg);
			break;
		case 'j': fmt = CF_JSON; break;
		case 'F': fail = 1; break;
		case 'd': db = optarg; break;
		case 'o': out = optarg; break;
		default:
			die(EXIT_USAGE, "unknown or incomplete option '%s' (see plumb compare --help)",
			    argv[optind - 1]);
		}
	}
	size_t nargs = (size_t)(argc - optind);
	if (nargs < 2)
		die(EXIT_USAGE, "needs at least two RUN arguments (run ids, labels or files)");
	size_t ns;
	struct side *sides = sides_load(argv + optind, nargs, db, 0, &ns);
	sides_load_history(sides, ns, db);
	struct cmp_table *t = cmp_build(sides, ns, &o);
	for (size_t i = 0; i < t->nwarnings; i++)
		warnx_("warning: %s", t->warnings[i]);
	FILE *f = stdout;
	if (out && !(f = fopen(out, "w")))
		die(EXIT_USAGE, "%s: cannot write: %m", out);
	if (junit)
		cmp_print_junit(f, t);
	else
		cmp_print(f, t, fmt);
	if (f != stdout && fclose(f) != 0)
		die(EXIT_USAGE, "%s: write failed: %m", out);
	int st = fail && cmp_regressions(t) > 0 ? 1 : 0;
	cmp_free(t);
	sides_free(sides, ns);
	return st;
}
