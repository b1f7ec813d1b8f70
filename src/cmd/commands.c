/* commands.c — the table of plumb's own commands. Adding one: a file with cmd_NAME, a line here. */
#include <string.h>
#include "cmd/commands.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--names]", "every benchmark: name, family, what it measures" },
	{ "run", cmd_run, "[--quick|--full] [--subset hardware|os] [--only|--skip FAM,...] [--label TEXT]\n"
	  "       [--mem SIZE] [--fsdir DIR] [--remote HOST[:BASE]] [--disk DEV] [--copies N] [--cold]\n"
	  "       [--repeat N] [--cpu LIST|none] [--samples N] [--max-samples N] [--timeout SEC]\n"
	  "       [-o FILE] [--format text|json|lmbench] [--json] [--db FILE] [--no-store] [--dry-run]",
	  "run the suite, record every sample, store the run, print the summary (docs/suite.md)" },
	{ "sysinfo", cmd_sysinfo, "[--json]", "the system facts a run records" },
	{ NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
