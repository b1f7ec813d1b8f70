/* commands.c — the table of plumb's own commands. Adding one: a file with cmd_NAME, a line here. */
#include <string.h>
#include "cmd/commands.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--names]", "every benchmark: name, family, what it measures" },
	{ "sysinfo", cmd_sysinfo, "[--json]", "the system facts a run records" },
	{ "serve", cmd_serve, "[--bind ADDR] [--port BASE] [--idle SECONDS] [-v]",
	  "run the server end of every network benchmark for remote clients" },
	{ NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}
