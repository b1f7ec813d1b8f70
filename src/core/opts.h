/*
 * opts.h — a tool's command line as data (after git's parse-options and stress-ng's
 * stressor_info_t), parsed in one place. Each tool declares its own options in a table:
 * letter, long name, type, range, where the value goes (an offset in the tool's options
 * struct) and one help line. options_parse() builds the getopt strings from it, adds the
 * options every tool shares, checks every range and prints the table for --help; getopt_long
 * is called in opts.c and nowhere else (tests/cli/dispatch.sh checks). The shared options:
 *   -P N        parallel copies (lmbench)          -W US   warm-up microseconds (lmbench)
 *   -N N        samples per copy (lmbench)         --cpu LIST|none   CPU placement (cpu.h)
 *   --json      one JSON document on stdout        --fsdir DIR       where temp files go
 *   --min-sample US   minimum sample length (like ENOUGH)
 *   --help      the tool's help
 * The table also carries the tool's own sampling defaults (struct timing_defaults, timing.h):
 * the tool's context (tool_ctx.timing) holds only what the user asked for; the parser points
 * its `tool` at the tool's defaults and measure() falls back to them. Bad values exit 2 with
 * one line.
 *
 * plumb's own commands (compare, report, run, serve, ...) declare their options in the same
 * `struct opt` rows and are parsed by command_parse(): no shared tool options, the command's
 * own error lines. An OPT_GROUP row pulls in a table declared once elsewhere (compare's
 * --db --alpha --min-effect --correction, used by compare, report and ab).
 */
#ifndef PLUMB_OPTS_H
#define PLUMB_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include "core/out.h"
#include "core/timing.h"

enum opt_type {
	OPT_FLAG = 1,  /* no value; the int at `offset` becomes 1 */
	OPT_INT,       /* a number in [min, max] into an int */
	OPT_SIZE,      /* a size with an optional k/m/g suffix in [min, max] into a uint64_t */
	OPT_ENUM,      /* one of `choices` (NULL-terminated); its index into an int */
	OPT_STRING,    /* the text itself into a const char * */
	OPT_IGNORED,   /* accepted for lmbench's sake, no effect */
	OPT_CUSTOM,    /* set(arg, field) parses the value itself (exits 2 on a bad one) */
	OPT_GROUP,     /* the rows of `group`, their offsets counted from this row's offset */
};

/* An OPT_CUSTOM row's parser: set() reads arg (NULL when no_value) into field, exits 2 itself. */
struct opt_action {
	void (*set)(const char *arg, void *field);
	int no_value;
};

struct opt {
	char letter;                 /* the short option, or 0 for a long-only option (--pages) */
	const char *name;            /* long name, or NULL (a letter is then needed) */
	enum opt_type type;
	long long min, max;          /* OPT_INT / OPT_SIZE range */
	size_t offset;               /* where the value goes in the tool's options struct */
	const char *arg;             /* the value's name in help ("N", "SIZE"); NULL for flags */
	const char *what;            /* what the value is, for range errors: "-n (WHAT): ..." */
	const char *help;            /* one line for --help */
	/* OPT_ENUM: the choices (const char *const[], NULL-terminated); OPT_GROUP: the group's
	 * rows (const struct opt[]); OPT_CUSTOM: its const struct opt_action. One field, so the
	 * tables stay nine columns wide. */
	const void *extra;
};

struct tool_options {
	const struct opt *opts;          /* ends with a zeroed entry */
	struct timing_defaults timing;   /* this tool's own sampling defaults */
};

/* Parse argv against the shared options and the tool's own table, c->opts (set by whoever runs
 * the tool from its descriptor's; NULL: only the shared ones); values go into dst. Exits 2 with
 * one line on a bad option or value, 0 after --help. Returns the index of the first operand
 * (options may follow operands, GNU style). */
int options_parse(struct tool_ctx *c, int argc, char **argv, void *dst);
/* The "Options:" lines of --help for t's own options (nothing when it has none). */
void options_help(FILE *f, const struct tool_options *t);

/* A command's options: its rows, how it words a bad option, and (run) a look at every option. */
struct command_options {
	const char *name;          /* "compare" */
	const struct opt *opts;    /* ends with a zeroed entry */
	int stop_at_operand;       /* options end at the first operand (serve's getopt '+') */
	/* A bad option: arg is the word (argv[optind - 1]); missing: it lacked its value. */
	void (*bad)(const char *cmd, const char *arg, int missing) __attribute__((noreturn));
	/* Called for every option seen, before its value is stored (may be NULL). */
	void (*seen)(const struct opt *o, const char *arg, void *dst);
};
/* Parse argv[1..] against t into dst; returns the index of the first operand. Range errors
 * name the option as "--name (what)" (or "-x" when it has no long name). */
int command_parse(const struct command_options *t, int argc, char **argv, void *dst);
/* For a command that passes the words it does not know on (ab gives them to run, so getopt
 * cannot parse them): does argv[i] name a long option of t ("--name V", "--name=V", "--flag")?
 * Then stores it into dst, sets *used to the words it took (1 or 2) and returns 1; a missing
 * value exits 2 ("option --name needs a value (try 'plumb CMD --help')"). */
int command_word(const char *cmd, const struct opt *t, char **argv, int argc, int i, void *dst,
		 int *used);
/* One "  -x, --name ARG  help" line per row (groups expanded), for a command's --help. */
void command_options_help(FILE *f, const struct opt *opts);
/* Help text printed from column col, its lines broken at blanks to HELP_COLUMNS, each new line
 * indented by indent; the text's own line breaks are kept. */
#define HELP_COLUMNS 100
void help_wrap(FILE *f, const char *s, int col, int indent);
/* One-line usage error for the current tool, exit 2. */
void usage_error(struct tool_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Hook set by the dispatcher: prints the current tool's --help; t is the table being parsed. */
extern void (*opts_help_hook)(struct tool_ctx *c, const struct tool_options *t);

#endif
