/*
 * main.c — one binary, many names (BusyBox style). `plumb NAME ARGS` runs a command (run,
 * summary, ...) or an lmbench tool; a symlink called after an lmbench tool runs that tool and
 * prints its lines where lmbench printed them.
 */
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/tool.h"
#include "bench/tool_run.h"
#include "cmd/commands.h"
#include "core/cleanup.h"
#include "core/opts.h"
#include "core/util.h"
#include "buildinfo.h"

/* A tool's --help: usage, what it measures, its own and the shared options (both from their
 * tables, opts.c), where results go. */
static void tool_help(struct tool_ctx *c, const struct tool_options *opts)
{
	const struct tool *t = tool_find(c->tool, NULL);
	options_usage(stdout, t->name, t->usage);
	printf("\n\n%s\n", t->summary);
	if (t->help)
		printf("\n%s\n", t->help);
	options_help(stdout, opts);
	printf("\nResults print on %s as lmbench's lines (on %s when run through the lmbench name);\n"
	       "--json prints one JSON document with every sample instead. Exit status: 0 ok,\n"
	       "2 bad arguments, 3 the measurement could not be made.\n",
	       "stdout", t->lm_stdout ? "stdout" : "stderr");
}

static int run_tool(const struct tool *t, int argc, char **argv, int via_symlink)
{
	struct tool_ctx c;
	tool_ctx_init(&c, t, argc, argv, via_symlink);
	c.help = tool_help;
	int st = t->fn(&c, argc, argv);
	st = tool_finish(&c, st);
	tool_ctx_free(&c);
	return st;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: plumb COMMAND [ARGS]   or   plumb TOOL [ARGS]   or   TOOL [ARGS] via a symlink\n\n"
		   "Commands:\n");
	int w = (int)strlen("help NAME"); /* the names' column: as wide as the widest */
	for (int i = 0; commands[i].name; i++)
		if ((int)strlen(commands[i].name) > w)
			w = (int)strlen(commands[i].name);
	for (int i = 0; commands[i].name; i++) { /* the summary's first line; NAME --help has all */
		const char *nl = strchr(commands[i].summary, '\n');
		int len = nl ? (int)(nl - commands[i].summary) : (int)strlen(commands[i].summary);
		fprintf(f, "  %-*s %.*s\n", w, commands[i].name, len, commands[i].summary);
	}
	fprintf(f, "  %-*s %s\n", w, "help NAME", "help on a command or tool (same as NAME --help)");
	fprintf(f, "\nTools (lmbench's names, arguments and output lines; `plumb list` says more):\n ");
	int col = 1;
	for (const struct registered *r = registry; r->file; r++)
		for (const struct tool *t = r->file->tools; t->name; t++) {
			if (col + (int)strlen(t->name) + 1 > 78) {
				fprintf(f, "\n ");
				col = 1;
			}
			col += fprintf(f, " %s", t->name);
		}
	fprintf(f, "\n\nOptions: --help, --version. See plumb(1) and README.md.\n");
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "C"); /* numbers are printed and parsed in the C locale */
	cleanup_init();
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];

	const struct tool *t = tool_find(base, NULL);
	if (t)
		return run_tool(t, argc, argv, 1);

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version")) {
		printf("plumb %s (%s; %s; %s)\n", PLUMB_VERSION, PLUMB_CC, PLUMB_CFLAGS, PLUMB_FEATURES);
		return 0;
	}
	static char *help_argv[4];
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		/* "plumb help NAME" is "plumb NAME --help" */
		help_argv[0] = argv[0];
		help_argv[1] = argv[2];
		help_argv[2] = "--help";
		argv = help_argv;
		argc = 3;
		name = argv[1];
	}
	const struct command *cmd = command_find(name);
	if (cmd) {
		prog_name = cmd->name;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			command_help(cmd);
			if (cmd->fn == cmd_run) { /* --only/--skip's ids, from the registry */
				printf("\n");
				families_help(stdout);
			}
			return 0;
		}
		return cmd->fn(argc - 1, argv + 1);
	}
	t = tool_find(name, NULL);
	if (t)
		return run_tool(t, argc - 1, argv + 1, 0);
	fprintf(stderr, "plumb: unknown command or tool '%s' (try 'plumb --help')\n", name);
	return EXIT_USAGE;
}
