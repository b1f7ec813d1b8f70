/*
 * opts.h — a command line as data (after git's parse-options and stress-ng's stressor_info_t),
 * parsed in one place. A tool or command declares its options in a table, one line each:
 *
 *	OPT_SIZE('n', NULL, struct select_opts, n, "N", 1, FD_SETSIZE, "file descriptors",
 *		"descriptors to select() on (default 200)"),
 *	OPT_BOOL(0, "table", struct stream_opts, table, "McCalpin's table"),
 *	OPT_END
 *
 * the letter (0: none), the long name (NULL: none), the struct the table parses into and the
 * field, then what the kind needs, the help line always last. options_parse() builds the getopt
 * strings from the table, adds the options every tool shares (a table of the same rows in
 * opts.c: -P -W -N --cpu --json --fsdir --min-sample --help), checks every range and prints
 * both tables for --help; getopt_long is called in opts.c and nowhere else
 * (tests/cli/dispatch.sh checks). Bad values exit 2 with one line.
 *
 * The table also carries the tool's own sampling defaults (struct timing_defaults, timing.h):
 * the tool's context (tool_ctx.timing) holds only what the user asked for; the parser points
 * its `tool` at the tool's defaults and measure() falls back to them.
 *
 * plumb's own commands (compare, report, run, serve, ...) declare their options in the same
 * rows and are parsed by command_parse(): no shared tool options, the command's own error
 * lines. An OPT_GROUP row pulls in a table declared once elsewhere (compare's --db --alpha
 * --min-effect --correction, used by compare, report and ab).
 */
#ifndef PLUMB_OPTS_H
#define PLUMB_OPTS_H

#include <stddef.h>
#include <stdio.h>
#include "core/out.h"
#include "core/timing.h"

/* A row's kind: what its value is and how it is stored (the OPT_* declarations below). */
enum opt_kind {
	OPTK_BOOL = 1, /* no value; the int field becomes 1 */
	OPTK_INT,      /* a whole number in [min, max] into an int (or a 64-bit field) */
	OPTK_SIZE,     /* a size with an optional k/m/g suffix in [min, max] into a uint64_t */
	OPTK_CHOICE,   /* one of `choices`; its index into an int */
	OPTK_STRING,   /* the text itself into a const char * */
	OPTK_IGNORED,  /* accepted for lmbench's sake, no effect */
	OPTK_CALLBACK, /* set(arg, field) parses the value itself (exits 2 on a bad one) */
	OPTK_GROUP,    /* the rows of `group`, their fields inside this row's field */
	OPTK_HELP,     /* print the help and exit 0 */
};

/* An OPTK_CALLBACK row's parser: reads arg (NULL when the row takes no value) into field. */
typedef void opt_setter(const char *arg, void *field);

struct opt {
	char letter;                 /* the short option, or 0 for a long-only option (--pages) */
	const char *name;            /* long name, or NULL (a letter is then needed) */
	enum opt_kind kind;
	size_t offset, size;         /* the field: where in the table's struct, how wide */
	const char *arg;             /* the value's name in help ("N", "SIZE"); NULL: no value */
	long long min, max;          /* OPTK_INT / OPTK_SIZE range */
	const char *what;            /* what the value is, for range errors: "-n (WHAT): ..." */
	const char *help;            /* one line for --help */
	const char *const *choices;  /* OPTK_CHOICE, NULL-terminated */
	const struct opt *group;     /* OPTK_GROUP */
	opt_setter *set;             /* OPTK_CALLBACK */
	void (*show)(void);          /* OPTK_HELP: prints the help (NULL: the context's help) */
};

/* The declarations. T is the struct the table parses into, F the field (a member designator:
 * `o.alpha` works); ARG names the value in help; LO..HI is the range, WHAT names the value in
 * a range error (NULL: the option's name alone). */
#define OPT_FIELD_(T, F) .offset = offsetof(T, F), .size = sizeof(((T *)0)->F)
#define OPT_BOOL(L, NAME, T, F, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_BOOL, OPT_FIELD_(T, F), .help = HELP }
#define OPT_INT(L, NAME, T, F, ARG, LO, HI, WHAT, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_INT, OPT_FIELD_(T, F), .arg = ARG, .min = LO, \
	  .max = HI, .what = WHAT, .help = HELP }
#define OPT_SIZE(L, NAME, T, F, ARG, LO, HI, WHAT, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_SIZE, OPT_FIELD_(T, F), .arg = ARG, .min = LO, \
	  .max = HI, .what = WHAT, .help = HELP }
#define OPT_STRING(L, NAME, T, F, ARG, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_STRING, OPT_FIELD_(T, F), .arg = ARG, \
	  .help = HELP }
/* CHOICES is OPT_CHOICES("tcp", "udp"): the value must be one of them. */
#define OPT_CHOICE(L, NAME, T, F, ARG, CHOICES, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_CHOICE, OPT_FIELD_(T, F), .arg = ARG, \
	  .choices = CHOICES, .help = HELP }
#define OPT_CHOICES(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define OPT_IGNORED(L, NAME, HELP) { .letter = L, .name = NAME, .kind = OPTK_IGNORED, .help = HELP }
/* SET(arg, &field) parses the value; the _NOARG form takes none (SET gets arg NULL). */
#define OPT_CALLBACK(L, NAME, T, F, ARG, SET, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_CALLBACK, OPT_FIELD_(T, F), .arg = ARG, \
	  .set = SET, .help = HELP }
#define OPT_CALLBACK_NOARG(L, NAME, T, F, SET, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_CALLBACK, OPT_FIELD_(T, F), .set = SET, \
	  .help = HELP }
/* The rows of GROUP (a table of another struct), parsed into the field F of T; OPT_INCLUDE:
 * rows of this table's own struct, declared once for two tables. */
#define OPT_GROUP(T, F, GROUP) { .kind = OPTK_GROUP, OPT_FIELD_(T, F), .group = GROUP }
#define OPT_INCLUDE(GROUP) { .kind = OPTK_GROUP, .group = GROUP }
/* SHOW() prints the help, then the parser exits 0; a tool's row says NULL: its --help. */
#define OPT_HELP(L, NAME, SHOW, HELP) \
	{ .letter = L, .name = NAME, .kind = OPTK_HELP, .show = SHOW, .help = HELP }
#define OPT_END { .kind = 0 }

struct tool_options {
	const struct opt *opts;          /* ends with OPT_END */
	struct timing_defaults timing;   /* this tool's own sampling defaults */
};

/* A tool's operands: the words of its command line that are not options, in their order
 * (options may follow operands, GNU style; "--" ends the options). v points into the argv
 * options_parse() was given, v[n] is its end (NULL for a program's argv). */
struct operands {
	int n;
	char **v;
};
/* Parse argv against the shared options and the tool's own table, c->opts (set by whoever runs
 * the tool from its descriptor's; NULL: only the shared ones); values go into dst. Exits 2 with
 * one line on a bad option or value, 0 after --help. Returns the operands: a tool reads them
 * there, never getopt's optind. */
struct operands options_parse(struct tool_ctx *c, int argc, char **argv, void *dst);
/* A tool's usage line: "usage: NAME" and the shared options, then the tool's own synopsis. */
void options_usage(FILE *f, const char *tool, const char *synopsis);
/* The options part of a tool's --help: "Options:" for t's own (when it has any), then
 * "Options of every tool:", both from their tables. */
void options_help(FILE *f, const struct tool_options *t);

/* A command's options: its rows, how it words a bad option, and (run) a look at every option. */
struct command_options {
	const char *name;          /* "compare" */
	const struct opt *opts;    /* ends with OPT_END */
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

#endif
