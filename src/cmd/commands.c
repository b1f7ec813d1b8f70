/* commands.c — the table of plumb's own commands. Adding one: a file with cmd_NAME, a line here. */
#include <string.h>
#include "cmd/commands.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--names|--metrics]", "every benchmark: name, family, what it measures" },
	{ "run", cmd_run, "[--quick|--full] [--subset hardware|os] [--only|--skip FAM,...] [--label TEXT]\n"
	  "       [--mem SIZE] [--fsdir DIR] [--remote HOST[:BASE]] [--disk DEV] [--copies N] [--cold]\n"
	  "       [--repeat N] [--cpu LIST|none] [--samples N] [--max-samples N] [--timeout SEC]\n"
	  "       [-o FILE] [--format text|json|lmbench] [--json] [--db FILE] [--no-store] [--dry-run]",
	  "run the suite, record every sample, store the run, print the summary (docs/suite.md)\n"
	  "Profiles: --quick (one round, about 40 s), default (3 interleaved rounds of 3 samples,\n"
	  "about 2-3 min; --repeat 1 for one round), --full (lmbench's full size lists)" },
	{ "sysinfo", cmd_sysinfo, "[--json]", "the system facts a run records" },
	{ "serve", cmd_serve, "[--bind ADDR] [--port BASE] [--idle SECONDS] [-v]",
	  "run the server end of every network benchmark for remote clients" },
	{ "summary", cmd_summary, "[--db FILE] [--cells] [RUN|FILE ...]", "lmbench's summary tables for runs and results files" },
	{ "import", cmd_import, "[--db FILE] [--label TEXT] FILE...", "store plumb JSON and lmbench 3 results files" },
	{ "export", cmd_export, "RUN [--format json|lmbench] [-o FILE] [--db FILE]", "write a run as plumb JSON or an lmbench results file" },
	{ "runs", cmd_runs, "[--db FILE] [--delete RUN | --relabel RUN TEXT | --check]", "list, delete, relabel or check stored runs" },
	{ "compare", cmd_compare,
	  "RUN RUN [RUN...] [--all] [--alpha A] [--min-effect PCT] [--correction holm|bh|none]\n"
	  "       [--format text|markdown|csv|json] [--fail-on-regression] [--db PATH] [-o FILE]",
	  "runs side by side per metric, with a verdict judged on rounds (docs/compare.md)" },
	{ "report", cmd_report,
	  "[RUN...] -o FILE.html [--svg-dir DIR] [--db PATH]",
	  "one self-contained HTML page with charts, facts and the compare table" },
	{ "plot", cmd_plot, "[RUN...] -d DIR [--db PATH]",
	  "each chart of the report as its own SVG file" },
	{ NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
