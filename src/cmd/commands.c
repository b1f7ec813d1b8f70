/* commands.c — the table of plumb's own commands. Adding one: a file with cmd_NAME, a line here. */
#include <string.h>
#include "cmd/commands.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--names]", "every benchmark: name, family, what it measures" },
	{ "sysinfo", cmd_sysinfo, "[--json]", "the system facts a run records" },
	{ "summary", cmd_summary, "[--db FILE] [RUN|FILE ...]", "lmbench's summary tables for runs and results files" },
	{ "import", cmd_import, "[--db FILE] [--label TEXT] FILE...", "store plumb JSON and lmbench 3 results files" },
	{ "export", cmd_export, "RUN [--format json|lmbench] [-o FILE] [--db FILE]", "write a run as plumb JSON or an lmbench results file" },
	{ "runs", cmd_runs, "[--db FILE] [--delete RUN | --relabel RUN TEXT | --check]", "list, delete, relabel or check stored runs" },
	{ NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
