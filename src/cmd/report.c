/*
 * report.c — `plumb report [RUN...] -o FILE.html [--svg-dir DIR]` and `plumb plot [RUN...]
 * -d DIR`: the HTML page (analysis/report.h) and/or every chart as its own .svg file. Files
 * are written to a temporary name and renamed into place, so a failed report leaves nothing
 * half-written. No RUN: the newest run of the store.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis/report.h"
#include "cmd/commands.h"
#include "cmd/plot_png.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/outfile.h"
#include "core/util.h"

/* png: also NN-NAME.png beside each .svg, drawn by the converter found (plot_png.c). */
static void write_svgs(const char *dir, const struct side *sides, size_t n, int png)
{
	char *conv = png ? png_converter() : NULL;
	if (png && !conv)
		die(EXIT_USAGE, "--png needs rsvg-convert on PATH (Debian: librsvg2-bin); or draw the "
				".svg files elsewhere: rsvg-convert -o chart.png chart.svg");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		die(EXIT_USAGE, "%s: cannot create directory: %s", dir, strerror(errno));
	struct report_chart *c;
	size_t nc = report_charts(sides, n, 1, &c), npng = 0;
	for (size_t i = 0; i < nc; i++) {
		char *path = xasprintf("%s/%02zu-%s.svg", dir, i + 1, c[i].slug);
		struct outfile of;
		FILE *f = outfile_open_or_die(&of, path);
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
		fputs(c[i].svg, f);
		outfile_commit_or_die(&of);
		if (png) {
			char *pp = xasprintf("%s/%02zu-%s.png", dir, i + 1, c[i].slug);
			if (png_write(conv, path, pp) == 0)
				npng++;
			else
				warnx_("%s: %s could not draw it", pp, conv);
			free(pp);
		}
		free(path);
	}
	if (png)
		fprintf(stderr, "%s: %zu chart%s written to %s, %zu as PNG (%s)\n", prog_name, nc,
			nc == 1 ? "" : "s", dir, npng, conv);
	else
		fprintf(stderr, "%s: %zu chart%s written to %s\n", prog_name, nc, nc == 1 ? "" : "s",
			dir);
	report_charts_free(c, nc);
	if (png && npng < nc)
		die(EXIT_USAGE, "%zu of %zu charts could not be drawn as PNG by %s", nc - npng, nc,
		    conv);
	free(conv);
}

struct report_cli {
	struct compare_args ca;   /* --db --alpha --min-effect --correction */
	const char *out, *dir;
	int png, pool_anyway;
};

/* The options report and plot both end with. */
static const struct opt report_common[] = {
	OPT_STRING(0, "dir", struct report_cli, dir, "DIR", "the same as --svg-dir"),
	OPT_BOOL(0, "pool-anyway", struct report_cli, pool_anyway,
		"pool a side's runs even when their architecture, CPU, build or kernel differ"),
	OPT_GROUP(struct report_cli, ca, compare_group),
	OPT_END,
};

const struct opt report_options[] = {
	OPT_STRING('o', "output", struct report_cli, out, "FILE.html", "the page (- for stdout)"),
	OPT_STRING('d', "svg-dir", struct report_cli, dir, "DIR",
		"also write every chart as DIR/NN-NAME.svg (the directory is made if missing)"),
	OPT_INCLUDE(report_common),
	OPT_END,
};

/* plot writes files into a directory only: it has no -o */
const struct opt plot_options[] = {
	OPT_STRING('d', "svg-dir", struct report_cli, dir, "DIR",
		"write every chart as DIR/NN-NAME.svg (required; made if missing)"),
	OPT_BOOL(0, "png", struct report_cli, png,
		"also DIR/NN-NAME.png, drawn by rsvg-convert (found on PATH)"),
	OPT_INCLUDE(report_common),
	OPT_END,
};

static int report_main(int argc, char **argv, int plot)
{
	struct report_cli a = { 0 };
	cmp_opts_default(&a.ca.o);
	const struct command_options t = { plot ? "plot" : "report",
					   plot ? plot_options : report_options, 0,
					   compare_bad_option, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *out = a.out, *dir = a.dir, *db = a.ca.db;
	struct cmp_opts o = a.ca.o;
	if (plot && !dir)
		die(EXIT_USAGE, "needs -d DIR: the directory for the .svg files");
	if (!plot && !out && !dir)
		die(EXIT_USAGE, "needs -o FILE.html (or --svg-dir DIR)");
	size_t ns;
	struct side *sides = sides_load(argv + first, (size_t)(argc - first), db, 1, &ns);
	sides_check_pooling(sides, ns, a.pool_anyway);
	if (out) {
		struct outfile of;
		int to_stdout = strcmp(out, "-") == 0;
		FILE *f = to_stdout ? stdout : outfile_open_or_die(&of, out);
		report_html(f, sides, ns, &o);
		if (!to_stdout)
			outfile_commit_or_die(&of);
	}
	if (dir)
		write_svgs(dir, sides, ns, a.png);
	sides_free(sides, ns);
	return 0;
}

int cmd_report(int argc, char **argv) { return report_main(argc, argv, 0); }

int cmd_plot(int argc, char **argv) { return report_main(argc, argv, 1); }
