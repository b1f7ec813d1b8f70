/* opts.c — the one option parser of tools and commands (opts.h): getopt_long is called here only. */
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/opts.h"
#include "core/timing.h"
#include "core/util.h"


void usage_error(struct tool_ctx *c, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", c->tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try '%s --help')\n", c->tool);
	exit(EXIT_USAGE);
}

/* What the shared options parse into; copied into `timing` and the tool's context after. */
struct shared_values {
	struct timing_opts timing;  /* -P -W -N */
	int min_sample_us;          /* --min-sample (timing keeps nanoseconds) */
	int json;                   /* --json */
	const char *fsdir, *cpu;    /* --fsdir, --cpu */
};

/* --cpu is checked when given: a bad list is refused before anything runs (options_parse
 * applies it to the tool's placement once the line is parsed). */
static void set_cpu(const char *arg, void *field)
{
	struct placement checked;
	cpu_policy_init(&checked, arg);
	*(const char **)field = arg;
}

/* The options every tool shares (lmbench's -P -W -N, then plumb's own), in --help's order. */
static const struct opt shared_options[] = {
	OPT_INT('P', NULL, struct shared_values, timing.parallel, "copies", 1, 4096,
		"parallel copies", "run that many copies at once (lmbench's parallelism)"),
	OPT_INT('W', NULL, struct shared_values, timing.warmup_us, "warmup_us", 0, 3600000000LL,
		"warm-up microseconds", "run the operation this long before timing it"),
	OPT_INT('N', NULL, struct shared_values, timing.repetitions, "samples", 1, TIMING_MAX_REPS,
		"repetitions", "number of timed samples (lmbench's repetitions)"),
	OPT_CALLBACK(0, "cpu", struct shared_values, cpu, "LIST|none", set_cpu,
		     "CPUs to pin the processes to (default one fixed CPU), none: unpinned"),
	OPT_BOOL(0, "json", struct shared_values, json,
		 "one JSON document with every sample instead of lmbench's lines"),
	OPT_STRING(0, "fsdir", struct shared_values, fsdir, "DIR",
		   "where file benchmarks create their private directory"),
	OPT_INT(0, "min-sample", struct shared_values, min_sample_us, "US", 1, 100000000,
		"microseconds", "shortest time a sample may take (the loop runs more iterations)"),
	OPT_HELP('h', "help", NULL, "this help"),
	OPT_END,
};

/* The option getopt_long just refused: its letter, or the word as given. A long option of ours
 * sets optopt to its value (256 and up, not a letter): then the word's name, without "=VALUE". */
static void bad_word(char *what, size_t n, char **argv)
{
	const char *w = argv[optind - 1];
	if (optopt > 0 && optopt < 256)
		snprintf(what, n, "-%c", optopt);
	else if (optopt >= 256)
		snprintf(what, n, "%.*s", (int)strcspn(w, "="), w);
	else
		snprintf(what, n, "%s", w);
}

/* "tcp or udp", "a, b or c" */
static void choices_text(char *buf, size_t n, const char *const *ch)
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; ch[i]; i++) {
		const char *sep = i == 0 ? "" : ch[i + 1] ? ", " : " or ";
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", sep, ch[i]);
	}
}

/* How errors name an option: tools say "-x" (lmbench's letters), commands "--name"; an option
 * without the preferred form uses the other. */
static void opt_label(char *buf, size_t n, const struct opt *o, int long_first)
{
	if (o->name && (long_first || !o->letter))
		snprintf(buf, n, "--%s", o->name);
	else
		snprintf(buf, n, "-%c", o->letter);
}

/* A row with where its value goes: the table's struct, and groups nest their rows in it. */
struct flat_opt {
	const struct opt *o;
	char *base;
};
#define MAX_OPTS 56

/* Can the row's field hold its kind's value? A wrong field type is a bug in a table. */
static int field_fits(const struct opt *o)
{
	switch (o->kind) {
	case OPTK_BOOL:
	case OPTK_CHOICE:
		return o->size == sizeof(int);
	case OPTK_INT:
		return o->size == sizeof(int) || o->size == sizeof(long long);
	case OPTK_SIZE:
		return o->size == sizeof(uint64_t);
	case OPTK_STRING:
		return o->size == sizeof(const char *);
	case OPTK_CALLBACK:
		return o->set != NULL;
	default:
		return 1;
	}
}

/* A callback row takes a value when it names one (ARG); the others by their kind. */
static int takes_value(const struct opt *o)
{
	switch (o->kind) {
	case OPTK_INT:
	case OPTK_SIZE:
	case OPTK_CHOICE:
	case OPTK_STRING:
		return 1;
	case OPTK_CALLBACK:
		return o->arg != NULL;
	default:
		return 0;
	}
}

/* Rows of opts (groups expanded) appended to out[n..]; base is where their struct is. */
static int flatten(const struct opt *opts, char *base, struct flat_opt *out, int n)
{
	for (const struct opt *o = opts; o && o->kind; o++) {
		if (o->kind == OPTK_GROUP) {
			n = flatten(o->group, base + o->offset, out, n);
			continue;
		}
		if (n == MAX_OPTS)
			die(1, "more than %d options in one table", MAX_OPTS);
		if (!field_fits(o))
			die(1, "option %c/%s: its field cannot hold its kind of value",
			    o->letter ? o->letter : '-', o->name ? o->name : "");
		out[n++] = (struct flat_opt){ o, base };
	}
	return n;
}

/* Store arg into row f. Tools' errors go through usage_error (c set), commands' are die()
 * lines (c NULL). */
static void store(struct tool_ctx *c, struct flat_opt f, const char *arg)
{
	const struct opt *o = f.o;
	char what[96], list[128], label[48];
	opt_label(label, sizeof label, o, !c);
	if (o->what)
		snprintf(what, sizeof what, "%s (%s)", label, o->what);
	else
		snprintf(what, sizeof what, "%s", label);
	char *p = f.base + o->offset;
	switch (o->kind) {
	case OPTK_BOOL:
		*(int *)p = 1;
		break;
	case OPTK_INT:
		if (o->size == sizeof(int)) {
			*(int *)p = (int)parse_int(arg, o->min, o->max, what);
		} else { /* a 64-bit field, signed or not: the range keeps the value in both */
			long long v = parse_int(arg, o->min, o->max, what);
			memcpy(p, &v, sizeof v);
		}
		break;
	case OPTK_SIZE:
		*(uint64_t *)p = parse_size(arg, (uint64_t)o->min, (uint64_t)o->max, what);
		break;
	case OPTK_CHOICE:
		for (int i = 0; o->choices[i]; i++)
			if (!strcmp(arg, o->choices[i])) {
				*(int *)p = i;
				return;
			}
		choices_text(list, sizeof list, o->choices);
		if (!c)
			die(EXIT_USAGE, "%s: '%s' is not %s", label, arg, list);
		usage_error(c, "%s: '%s' is not %s", label, arg, list);
	case OPTK_STRING:
		*(const char **)p = arg;
		break;
	case OPTK_CALLBACK:
		o->set(arg, p); /* NULL arg: a row without a value */
		break;
	case OPTK_IGNORED:
	case OPTK_GROUP:
	case OPTK_HELP:
		break;
	}
}

/* The getopt strings for rows [0, n): letters appended to optstring, long names to lo (their
 * getopt value: first_long + row index). */
static void build_getopt(const struct flat_opt *f, int n, char *optstring, struct option *lo,
			 size_t nlo, int first_long)
{
	size_t len = strlen(optstring);
	for (int i = 0; i < n; i++) {
		int has_arg = takes_value(f[i].o);
		if (f[i].o->letter) {
			optstring[len++] = f[i].o->letter;
			if (has_arg)
				optstring[len++] = ':';
		}
		if (f[i].o->name)
			lo[nlo++] = (struct option){ f[i].o->name, has_arg ? required_argument : no_argument,
						     NULL, first_long + i };
	}
	optstring[len] = 0;
}

/* The row getopt_long's ch stands for (ch is a letter of a row, or first_long + index). */
static struct flat_opt find_row(const struct flat_opt *f, int n, int ch, int first_long)
{
	if (ch >= first_long)
		return f[ch - first_long];
	int i = 0;
	while (i < n - 1 && f[i].o->letter != ch)
		i++;
	return f[i];
}

/* Two rows answering to one letter or name: a bug in a table (a tool redeclaring -P). */
static void check_unique(const struct flat_opt *f, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < i; k++) {
			const struct opt *a = f[i].o, *b = f[k].o;
			if ((a->letter && a->letter == b->letter) ||
			    (a->name && b->name && !strcmp(a->name, b->name)))
				die(1, "option %c/%s declared twice", a->letter ? a->letter : '-',
				    a->name ? a->name : "");
		}
}

struct operands options_parse(struct tool_ctx *c, int argc, char **argv, void *dst)
{
	const struct tool_options *t = c->opts;
	char optstring[3 * MAX_OPTS + 16] = ":"; /* ':' first: a missing value is told apart */
	struct option lo[MAX_OPTS + 1];
	struct flat_opt f[MAX_OPTS];
	struct shared_values sv = { .timing = c->timing.opts, .json = c->json, .fsdir = c->fsdir };
	memset(lo, 0, sizeof lo);
	c->timing.tool = t ? &t->timing : NULL;
	int n = flatten(shared_options, (char *)&sv, f, 0);
	n = flatten(t ? t->opts : NULL, dst, f, n);
	check_unique(f, n);
	build_getopt(f, n, optstring, lo, 0, 256);
	optind = 0; /* full reset (glibc): each tool's parse starts afresh */
	opterr = 0;
	int ch;
	char what[32];
	while ((ch = getopt_long(argc, argv, optstring, lo, NULL)) != -1) {
		if (ch == ':' || ch == '?') {
			bad_word(what, sizeof what, argv);
			if (ch == ':')
				usage_error(c, "option %s needs a value", what);
			usage_error(c, "unknown option %s", what);
		}
		struct flat_opt row = find_row(f, n, ch, 256);
		if (row.o->kind == OPTK_HELP) {
			if (row.o->show)
				row.o->show();
			else if (c->help)
				c->help(c, t);
			exit(0);
		}
		store(c, row, optarg);
	}
	c->timing.opts = sv.timing;
	if (sv.min_sample_us)
		c->timing.opts.min_sample_ns = 1e3 * sv.min_sample_us;
	if (sv.cpu)
		cpu_policy_init(&c->timing.place, sv.cpu);
	c->json = sv.json;
	c->fsdir = sv.fsdir;
	return (struct operands){ .n = argc - optind, .v = argv + optind };
}

int command_parse(const struct command_options *t, int argc, char **argv, void *dst)
{
	char optstring[3 * MAX_OPTS + 16];
	struct option lo[MAX_OPTS + 1];
	struct flat_opt f[MAX_OPTS];
	memset(lo, 0, sizeof lo);
	/* ':' first: a missing value is told apart from an unknown option */
	snprintf(optstring, sizeof optstring, "%s:", t->stop_at_operand ? "+" : "");
	int n = flatten(t->opts, dst, f, 0);
	check_unique(f, n);
	build_getopt(f, n, optstring, lo, 0, 256);
	optind = 0; /* full reset (glibc): a command may parse after another parser ran */
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, optstring, lo, NULL)) != -1) {
		if (ch == ':' || ch == '?')
			t->bad(t->name, argv[optind - 1], ch == ':');
		struct flat_opt row = find_row(f, n, ch, 256);
		if (t->seen)
			t->seen(row.o, optarg, dst);
		if (row.o->kind == OPTK_HELP) {
			if (row.o->show)
				row.o->show();
			exit(0);
		}
		store(NULL, row, optarg);
	}
	return optind;
}

int command_word(const char *cmd, const struct opt *t, char **argv, int argc, int i, void *dst,
		 int *used)
{
	struct flat_opt f[MAX_OPTS];
	int n = flatten(t, dst, f, 0);
	const char *w = argv[i];
	if (strncmp(w, "--", 2) != 0)
		return 0;
	w += 2;
	for (int k = 0; k < n; k++) {
		const struct opt *o = f[k].o;
		size_t l = o->name ? strlen(o->name) : 0;
		if (!l || strncmp(w, o->name, l) != 0)
			continue;
		const char *v = NULL;
		if (w[l] == '=' && takes_value(o)) {
			v = w + l + 1;
			*used = 1;
		} else if (w[l] == 0 && !takes_value(o)) {
			*used = 1;
		} else if (w[l] == 0) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "option %s needs a value (try 'plumb %s --help')", argv[i], cmd);
			v = argv[i + 1];
			*used = 2;
		} else {
			continue;
		}
		store(NULL, f[k], v);
		return 1;
	}
	return 0;
}

/* Columns a UTF-8 string takes (one a character; continuation bytes take none). */
static int columns(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void help_wrap(FILE *f, const char *s, int col, int indent)
{
	while (*s) {
		if (*s == '\n') {
			fputc(*s++, f);
			col = 0;
			continue;
		}
		size_t sp = strspn(s, " "), w = strcspn(s + sp, " \n");
		int ww = columns(s + sp, w);
		if (col > indent && sp && col + (int)sp + ww > HELP_COLUMNS) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else {
			fprintf(f, "%.*s", (int)sp, s);
			col += (int)sp;
		}
		fprintf(f, "%.*s", (int)w, s + sp);
		col += ww;
		s += sp + w;
	}
}

static void help_lines(FILE *f, const struct opt *opts, int width)
{
	for (const struct opt *o = opts; o && o->kind; o++) {
		if (o->kind == OPTK_GROUP) {
			help_lines(f, o->group, width);
			continue;
		}
		char left[64];
		int n = 0;
		if (o->letter)
			n = snprintf(left, sizeof left, "-%c%s", o->letter, o->name ? ", " : "");
		if (o->name)
			n += snprintf(left + n, sizeof left - (size_t)n, "--%s", o->name);
		if (o->arg)
			snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
		int col = fprintf(f, "  %-*s  ", width, left);
		help_wrap(f, o->help, col, col < width + 4 ? col : width + 4);
		fputc('\n', f);
	}
}

void command_options_help(FILE *f, const struct opt *opts)
{
	help_lines(f, opts, 17);
}

/* The shared options in a usage line take at most this many columns a line, after the name. */
#define SYNOPSIS_COLUMNS 72

void options_usage(FILE *f, const char *tool, const char *synopsis)
{
	char buf[1024];
	int indent = 8 + (int)strlen(tool), len = 0, block = 0;
	len = snprintf(buf, sizeof buf, "usage: %s", tool);
	for (const struct opt *o = shared_options; o->kind; o++) {
		if (o->kind == OPTK_HELP)
			continue;
		char word[64];
		int w = o->letter ? snprintf(word, sizeof word, "[-%c %s]", o->letter, o->arg)
			: snprintf(word, sizeof word, "[--%s%s%s]", o->name, o->arg ? " " : "",
				   o->arg ? o->arg : "");
		if (block && block + 1 + w > SYNOPSIS_COLUMNS) {
			len += snprintf(buf + len, sizeof buf - (size_t)len, "\n%*s", indent - 1,
					"");
			block = 0;
		}
		len += snprintf(buf + len, sizeof buf - (size_t)len, " %s", word);
		block += (block ? 1 : 0) + w;
	}
	char *u = xasprintf("%s %s", buf, synopsis);
	help_wrap(f, u, 0, indent);
	free(u);
}

void options_help(FILE *f, const struct tool_options *t)
{
	if (t && t->opts && t->opts[0].kind) {
		fprintf(f, "\nOptions:\n");
		help_lines(f, t->opts, 15);
	}
	fprintf(f, "\nOptions of every tool:\n");
	help_lines(f, shared_options, 15);
}
