/*
 * report.c — `plumb report [RUN...] -o FILE.html [--svg-dir DIR]` and `plumb plot [RUN...]
 * -d DIR`: the HTML page (analysis/report.h) and/or every chart as its own .svg file. Files
 * are written to a temporary name and renamed into place, so a failed report leaves nothing
 * half-written. No RUN: the newest run of the store.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis/report.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/util.h"

/* Open path's temporary sibling for writing. */
static FILE *open_tmp(const char *path, char **tmp)
{
	*tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(*tmp, "w");
	if (!f)
		die(EXIT_USAGE, "%s: cannot write: %s", path, strerror(errno));
	path_register(*tmp, 0); /* removed if we are interrupted */
	return f;
}

static void close_tmp(FILE *f, const char *path, char *tmp)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		path_forget(tmp);
		int e = errno;
		unlink(tmp);
		die(EXIT_USAGE, "%s: write failed: %s", path, strerror(e));
	}
	path_forget(tmp);
	free(tmp);
}

static void write_svgs(const char *dir, const struct side *sides, size_t n)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		die(EXIT_USAGE, "%s: cannot create directory: %s", dir, strerror(errno));
	struct report_chart *c;
	size_t nc = report_charts(sides, n, 1, &c);
	for (size_t i = 0; i < nc; i++) {
		char *path = xasprintf("%s/%02zu-%s.svg", dir, i + 1, c[i].slug), *tmp;
		FILE *f = open_tmp(path, &tmp);
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
		fputs(c[i].svg, f);
		close_tmp(f, path, tmp);
		free(path);
	}
	fprintf(stderr, "%s: %zu chart%s written to %s\n", prog_name, nc, nc == 1 ? "" : "s", dir);
	report_charts_free(c, nc);
}

static int report_main(int argc, char **argv, int plot)
{
	static const struct option lo[] = {
		{ "output", required_argument, 0, 'o' },
		{ "svg-dir", required_argument, 0, 'd' },
		{ "dir", required_argument, 0, 'd' },
		{ "db", required_argument, 0, 'b' },
		{ "alpha", required_argument, 0, 'a' },
		{ "min-effect", required_argument, 0, 'e' },
		{ "correction", required_argument, 0, 'c' },
		{ 0, 0, 0, 0 },
	};
	const char *out = NULL, *dir = NULL, *db = NULL;
	struct cmp_opts o;
	cmp_opts_default(&o);
	int c;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:d:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': dir = optarg; break;
		case 'b': db = optarg; break;
		case 'a': o.alpha = parse_double_arg(optarg, 1e-9, 0.5, "--alpha"); break;
		case 'e': o.min_effect = parse_double_arg(optarg, 0, 1000, "--min-effect"); break;
		case 'c':
			if (correction_parse(optarg, &o.corr))
				die(EXIT_USAGE, "--correction: '%s' is not holm, bh or none", optarg);
			break;
		default:
			die(EXIT_USAGE, "unknown or incomplete option '%s' (see plumb %s --help)",
			    argv[optind - 1], plot ? "plot" : "report");
		}
	}
	if (plot && out)
		die(EXIT_USAGE, "plot writes SVG files: give -d DIR (report -o writes HTML)");
	if (plot && !dir)
		die(EXIT_USAGE, "needs -d DIR: the directory for the .svg files");
	if (!plot && !out && !dir)
		die(EXIT_USAGE, "needs -o FILE.html (or --svg-dir DIR)");
	size_t ns;
	struct side *sides = sides_load(argv + optind, (size_t)(argc - optind), db, 1, &ns);
	if (out) {
		char *tmp;
		FILE *f = strcmp(out, "-") == 0 ? stdout : open_tmp(out, &tmp);
		report_html(f, sides, ns, &o);
		if (f != stdout)
			close_tmp(f, out, tmp);
	}
	if (dir)
		write_svgs(dir, sides, ns);
	sides_free(sides, ns);
	return 0;
}

int cmd_report(int argc, char **argv) { return report_main(argc, argv, 0); }

int cmd_plot(int argc, char **argv) { return report_main(argc, argv, 1); }
