/* commands.c — the table of plumb's own commands. Adding one: a file with cmd_NAME, a line here. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "cmd/commands.h"
#include "core/opts.h"
#include "core/util.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--names|--json|--metrics]", "every benchmark: name, family, what it measures (--json: also every metric)",
	  NULL, list_options },
	{ "run", cmd_run, "[--quick|--full] [--subset hardware|os] [--only|--skip FAM,...] [--label TEXT]\n"
	  "       [--mem SIZE] [--fsdir DIR] [--remote HOST[:BASE]] [--disk DEV] [--copies N] [--cold]\n"
	  "       [--repeat N] [--cpu LIST|none] [--samples N] [--max-samples N] [--timeout SEC]\n"
	  "       [--time-limit DURATION] [-o FILE] [--format text|json|lmbench] [--json]\n"
	  "       [--db FILE] [--no-store] [--dry-run]",
	  "run the suite, record every sample, store the run, print the summary (docs/suite.md)\n"
	  "Profiles and their time budgets: --quick (one round, 32 s), default (3 interleaved\n"
	  "rounds of 3 samples, 150 s; --repeat 1 for one round), --full (lmbench's full size\n"
	  "lists, 14 min); a plan over its budget is fitted to it and says what it gave up. The\n"
	  "memory series go to 4 x the effective last-level cache, at most 256 MiB (--mem goes\n"
	  "further); PLUMB_LLC=300M plans for a machine with that cache. On a terminal a run\n"
	  "shows the time its plan has left on this machine. Measured on the project's 2-vCPU\n"
	  "KVM guest (AMD EPYC, 32 MiB L3), quiet (docs/suite.md): default 113 s (planner 109 s,\n"
	  "2026-12-02), quick 19 s (planner 23 s, 2026-12-01)",
	  NULL, run_options },
	{ "sysinfo", cmd_sysinfo, "[--json] [--measure]", "the system facts a run records",
	  NULL, sysinfo_options },
	{ "serve", cmd_serve, "[--bind ADDR] [--port BASE] [--idle SECONDS] [-v]",
	  "run the server end of every network benchmark for remote clients",
	  NULL, serve_options },
	{ "summary", cmd_summary, "[--db FILE|URI] [--cells] [--per-host [--pool-anyway]] [--tails]\n"
	  "       [--noisy] [--format text|markdown|html|mediawiki] [--all | RUN|FILE ...]",
	  "lmbench's summary tables for runs and results files (--per-host: one row per host)",
	  NULL, summary_options },
	{ "import", cmd_import, "[--db FILE] [--label TEXT] FILE...", "store plumb JSON and lmbench 3 results files",
	  NULL, import_options },
	{ "export", cmd_export, "RUN [--format json|lmbench|csv|lava] [-o FILE] [--db FILE]",
	  "write a run as plumb JSON, an lmbench results file, CSV or LAVA test cases\n"
	  "CSV: one row per sample; lava: one lava-test-case line per point (docs/lab.md).",
	  NULL, export_options },
	{ "runs", cmd_runs, "[--db FILE|URI] [--host H] [--label L] [--since DATE] [--cc C]\n"
	  "       [--cflags F] [--arch A] [--wide | --json] [--delete RUN | --relabel RUN TEXT | --check]",
	  "list (or select), delete, relabel or check stored runs",
	  NULL, runs_options },
	{ "push", cmd_push, "RUN... --to URI|FILE [--db FILE]",
	  "copy runs (ids, labels, selections such as host=H,label=L, files) to a shared store\n"
	  "Each run is copied once: a run already there is not copied again.",
	  NULL, push_options },
	{ "compare", cmd_compare,
	  "RUN RUN [RUN...] [--all] [--alpha A] [--min-effect PCT] [--correction bh|holm|none]\n"
	  "       [--format text|markdown|csv|json|junit] [--fail-on-regression] [--pool-anyway]\n"
	  "       [--db PATH|URI] [-o FILE]",
	  "runs side by side per metric: each change with its 95% interval and a verdict\n"
	  "The run is the unit of noise (paired rounds for a plumb ab session). Verdicts: worse,\n"
	  "better (BH-corrected, min effect), same (the interval lies within ±min effect), no\n"
	  "significant change (undecided) or no test. Also the smallest detectable change, and the\n"
	  "change at equal clock for clock-bound metrics (docs/compare.md).",
	  NULL, compare_options },
	{ "ab", cmd_ab,
	  "[run options] [--a 'PREFIX'] --b 'PREFIX' [--label A,B] [--time-limit D] [--seed N]\n"
	  "       [--alpha A] [--min-effect PCT] [--correction bh|holm|none]\n"
	  "       [--format text|markdown|csv|json] [--fail-on-regression] [--db PATH] [--no-store]\n"
	  "       [--start-timeout SECONDS]",
	  "paired A/B session: two builds measured step by step, back to back, then compared\n"
	  "Every step runs for both sides back to back, the side that goes first drawn for each\n"
	  "pair, each round on fresh worker processes; after the first rounds only the steps of\n"
	  "points still undecided run on, judged at looks with the error rate spent over them,\n"
	  "until all are decided or --time-limit (default 180 s). Both runs are stored (labels\n"
	  "A#SESSION and B#SESSION: two sessions never pool) and compared round by round.\n"
	  "PREFIX: a command line split on blanks (no shell) ending in a plumb binary, e.g.\n"
	  "--b 'taskset -c 0 /opt/new/plumb'; --a defaults to this binary (docs/compare.md).\n"
	  "Any other option is a run option, given to both sides (--only, --repeat, ...).",
	  NULL, ab_options },
	{ "trend", cmd_trend,
	  "RUN RUN [RUN...] | --by FACT [RUN...]  [--all] [--alpha A] [--min-effect PCT]\n"
	  "       [--correction bh|holm|none] [--format text|markdown|csv|json] [--fail-on-regression]\n"
	  "       [--db PATH|URI] [-o FILE]",
	  "each metric across a series of versions, and where its level changed\n"
	  "The RUNs in order, or one version per value of a fact (kernel, build_cc, date, label):\n"
	  "every version's value with its 95% interval and where the level changed (binary\n"
	  "segmentation, the run as the unit of noise, noise pooled over the series, false changes\n"
	  "controlled over the table). With --by, the RUNs only select runs (none: every stored\n"
	  "run); versions in natural order, 6.9 before 6.10 (docs/trend.md).",
	  NULL, trend_options },
	{ "bisect-check", cmd_bisect_check,
	  "--metric M[,M...] --min-effect PCT (--baseline RUN | --a 'PREFIX') [--b 'PREFIX']\n"
	  "       [--sessions N] [--across-kernels] [--alpha A] [--db PATH] [run options]",
	  "a git bisect run predicate: is the build under test worse than a baseline?\n"
	  "Measures the build under test (--b, default this binary)\n"
	  "against a stored baseline or a baseline binary paired with it (plumb ab), and exits\n"
	  "0 when no named metric is worse, 1 when one is worse by at least --min-effect, 125 when\n"
	  "still undecided after --sessions looks (git skips the commit), and 128 for anything\n"
	  "else (bad options, a side that does not run, an impossible value: git stops the\n"
	  "bisect). Against --baseline, runs made beside other work, a baseline from another\n"
	  "machine (architecture, CPU model, kernel, emulation) and a build under test that\n"
	  "outlives its watchdog bound are not judged: 125, one line why. --min-effect has\n"
	  "no default here: it is the size of the regression hunted. docs/bisect.md.\n"
	  "Any other option is a run option (--only, --repeat, --cpu, ...).",
	  NULL, bisect_options },
	{ "on", cmd_on,
	  "HOST [run] [--ssh-option OPT]... [--ssh-config FILE] [--bundle FILE|DIR]\n"
	  "       [--remote-dir DIR] [--db FILE|URI] [--no-store] [-o FILE] [run options]\n"
	  "       plumb on HOST ab --a BUNDLE_A --b BUNDLE_B [ssh and store options] [ab options]",
	  "run the suite on another machine over ssh and store the run here\n"
	  "The target's `uname -m` picks the board bundle (make bundle: plumb-VERSION-TRIPLE.tar.gz,\n"
	  "built here when absent and the target is of this machine's architecture); it is unpacked\n"
	  "in a private directory there (mktemp -d), plumb run runs from it, the run comes back\n"
	  "with the target's facts and the directory is removed, also on Ctrl-C. Uses your ssh,\n"
	  "its config, keys and jump hosts. Not run --remote (network benchmarks against plumb\n"
	  "serve). With ab: a plumb ab session of two bundles' builds on the target, its verdict\n"
	  "shown here, both runs stored here, exit status ab's. docs/lab.md.",
	  NULL, on_options },
	{ "annotate", cmd_annotate,
	  "[--db FILE|URI] [--alpha A] [--min-effect PCT] [--correction bh|holm|none]\n"
	  "       [--all] [--quiet]",
	  "write the change points of every host's series into the store, for a dashboard\n"
	  "Per host, each label is a version, in the order its first run started; plumb trend's\n"
	  "change-point search runs over them and every change found is a row of the store's\n"
	  "change_points table, shown by the view annotations (time, timeend, text, tags: a\n"
	  "Grafana annotation query). The rows found before are replaced in one transaction: run\n"
	  "it from cron after the boards push. docs/lab.md, \"Grafana\".",
	  NULL, annotate_options },
	{ "report", cmd_report,
	  "[RUN...] -o FILE.html [--svg-dir DIR] [--db PATH]",
	  "one self-contained HTML page with charts, facts and the compare table\n"
	  "Given 3 or more RUNs, also each metric across them in order, with the changes plumb\n"
	  "trend finds.",
	  NULL, report_options },
	{ "plot", cmd_plot, "[RUN...] -d DIR [--png] [--db PATH]",
	  "each chart of the report as its own SVG file (--png: also as PNG)\n"
	  "Given 3 or more RUNs, also each metric across them in order.",
	  NULL, plot_options },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

/* The exit statuses a command can give, and only those. */
static const char *exit_text(const char *name)
{
	static const struct {
		const char *names, *text;
	} t[] = {
		{ " bisect-check ", "0 not worse, 1 worse, 125 undecided or not judged (loaded, "
				    "foreign, hung),\n128 any failure (git aborts), 128 + N stopped by "
				    "signal N. See docs/bisect.md." },
		{ " run ", "0 ok, 2 bad arguments, 3 a measurement could not be made, 128 + N "
			   "stopped by\nsignal N. See plumb(1)." },
		{ " ab ", "0 ok, 1 a regression (--fail-on-regression), 2 bad arguments, 3 a side "
			  "could not\nmeasure or was stopped by the watchdog before --time-limit, 4 a "
			  "worse point beside an\nemulated side (no regression), 128 + N stopped by "
			  "signal N. See plumb(1)." },
		{ " compare trend ", "0 ok, 1 a regression (--fail-on-regression), 2 bad arguments "
				     "or input,\n4 a worse point between other machines or beside "
				     "other work (no regression).\nSee plumb(1)." },
		{ " serve ", "0 ok, 2 bad arguments, 3 a service could not start, 128 + N stopped "
			     "by\nsignal N. See plumb(1)." },
		{ " push ", "0 ok, 2 bad arguments, input or a store that cannot be written, 128 + "
			    "N\nstopped by signal N. See plumb(1)." },
		{ " on ", "0 ok, 2 bad arguments, no ssh, no space, wrong architecture or a "
			  "missing library,\n3 the run there failed or did not come back, 128 + N "
			  "stopped by signal N;\nwith ab: ab's own status (1 a regression with "
			  "--fail-on-regression, 4 not judged).\nSee docs/lab.md." },
		{ " annotate ", "0 the change points written (none found is written too), 2 bad "
				"arguments or\na store that cannot be read or written. See docs/lab.md." },
		{ " runs summary list ", "0 ok, 2 bad arguments or input, 3 the store or the "
					 "registry cannot be read.\nSee plumb(1)." },
	};
	char key[64];
	snprintf(key, sizeof key, " %s ", name);
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (strstr(t[i].names, key))
			return t[i].text;
	return "0 ok, 2 bad arguments or input. See plumb(1).";
}

void command_help(const struct command *c)
{
	char *u = xasprintf("usage: plumb %s %s", c->name, c->usage);
	help_wrap(stdout, u, 0, 7);
	printf("\n\n%s\n", c->summary);
	free(u);
	if (c->opts) {
		printf("\nOptions:\n");
		command_options_help(stdout, c->opts);
	} else if (c->options) {
		printf("\nOptions:\n%s\n", c->options);
	}
	printf("\nExit status: %s\n", exit_text(c->name));
}

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
