/*
 * commands.h — plumb's own commands (not lmbench tools): `plumb NAME ARGS`. One table in
 * commands.c, each command in its own file as cmd_NAME(argc, argv) (argv[0] = NAME).
 */
#ifndef PLUMB_COMMANDS_H
#define PLUMB_COMMANDS_H

#include "core/opts.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
	const char *options;  /* one line per option: "  --name ARG    what it does" (commands that
			       * still parse by hand; NULL when opts is set) */
	const struct opt *opts; /* the command's options table (core/opts.h): --help prints it */
};

extern const struct command commands[];
const struct command *command_find(const char *name);
/* `plumb NAME --help`: usage, summary, then every option on its own line. */
void command_help(const struct command *c);

/* The options tables of the commands parsed by command_parse() (each beside its command). */
extern const struct opt compare_options[], report_options[], plot_options[], serve_options[], run_options[],
	summary_options[], export_options[], import_options[], runs_options[], push_options[],
	list_options[], sysinfo_options[], ab_options[], trend_options[], bisect_options[], on_options[],
	annotate_options[];

int cmd_list(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_bisect_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_on(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

#endif
