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

void (*opts_help_hook)(struct tool_ctx *c, const struct tool_options *t);

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

/* getopt_long's return values for the shared long options, then for a tool's long names. */
enum { OPT_CPU = 256, OPT_JSON, OPT_FSDIR, OPT_HELP, OPT_MINSAMPLE, OPT_TOOL_LONG };

static const struct option shared_longopts[] = {
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "fsdir", required_argument, NULL, OPT_FSDIR },
	{ "min-sample", required_argument, NULL, OPT_MINSAMPLE },
	{ "help", no_argument, NULL, OPT_HELP },
};
#define NSHARED (sizeof shared_longopts / sizeof shared_longopts[0])

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

/* The shared options; 0 when ch was one of them, else ch back. Exits on errors and --help. */
static int shared_option(struct tool_ctx *c, const struct tool_options *t, int ch, char **argv)
{
	char what[32];
	switch (ch) {
	case 'P':
		c->timing.opts.parallel = (int)parse_int(optarg, 1, 4096, "-P (parallel copies)");
		return 0;
	case 'W':
		c->timing.opts.warmup_us = (uint64_t)parse_int(optarg, 0, 3600000000LL, "-W (warm-up microseconds)");
		return 0;
	case 'N':
		c->timing.opts.repetitions = (int)parse_int(optarg, 1, TIMING_MAX_REPS, "-N (repetitions)");
		return 0;
	case OPT_CPU:
		cpu_policy_init(&c->timing.place, optarg);
		return 0;
	case OPT_JSON:
		c->json = 1;
		return 0;
	case OPT_FSDIR:
		c->fsdir = optarg;
		return 0;
	case OPT_MINSAMPLE:
		c->timing.opts.min_sample_ns = 1e3 * (double)parse_int(optarg, 1, 100000000, "--min-sample (microseconds)");
		return 0;
	case OPT_HELP:
		if (opts_help_hook)
			opts_help_hook(c, t);
		exit(0);
	case ':':
		bad_word(what, sizeof what, argv);
		usage_error(c, "option %s needs a value", what);
	case '?':
		bad_word(what, sizeof what, argv);
		usage_error(c, "unknown option %s", what);
	default:
		return ch;
	}
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

/* A row with where its struct starts (groups nest their rows at an offset). */
struct flat_opt {
	const struct opt *o;
	size_t base;
};
#define MAX_OPTS 48

static int flatten(const struct opt *opts, size_t base, struct flat_opt *out, int n)
{
	for (const struct opt *o = opts; o && o->type; o++) {
		if (o->type == OPT_GROUP) {
			n = flatten((const struct opt *)o->extra, base + o->offset, out, n);
			continue;
		}
		if (n == MAX_OPTS)
			die(1, "more than %d options in one table", MAX_OPTS);
		out[n++] = (struct flat_opt){ o, base };
	}
	return n;
}

static int takes_value(const struct opt *o)
{
	const struct opt_action *a = o->extra;
	return o->type != OPT_FLAG && o->type != OPT_IGNORED && !(o->type == OPT_CUSTOM && a->no_value);
}

/* Store arg into row f of dst. Tools' errors go through usage_error (c set), commands' are
 * die() lines (c NULL). */
static void store(struct tool_ctx *c, struct flat_opt f, const char *arg, void *dst)
{
	const struct opt *o = f.o;
	char what[96], list[128], label[48];
	opt_label(label, sizeof label, o, !c);
	if (o->what)
		snprintf(what, sizeof what, "%s (%s)", label, o->what);
	else
		snprintf(what, sizeof what, "%s", label);
	char *p = (char *)dst + f.base + o->offset;
	const char *const *choices = o->extra;
	switch (o->type) {
	case OPT_FLAG:
		*(int *)p = 1;
		break;
	case OPT_INT:
		*(int *)p = (int)parse_int(arg, o->min, o->max, what);
		break;
	case OPT_SIZE:
		*(uint64_t *)p = parse_size(arg, (uint64_t)o->min, (uint64_t)o->max, what);
		break;
	case OPT_ENUM:
		for (int i = 0; choices[i]; i++)
			if (!strcmp(arg, choices[i])) {
				*(int *)p = i;
				return;
			}
		choices_text(list, sizeof list, choices);
		if (!c)
			die(EXIT_USAGE, "%s: '%s' is not %s", label, arg, list);
		usage_error(c, "%s: '%s' is not %s", label, arg, list);
	case OPT_STRING:
		*(const char **)p = arg;
		break;
	case OPT_CUSTOM:
		((const struct opt_action *)o->extra)->set(arg, p); /* NULL arg: a no_value row */
		break;
	case OPT_IGNORED:
	case OPT_GROUP:
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

int options_parse(struct tool_ctx *c, int argc, char **argv, void *dst)
{
	const struct tool_options *t = c->opts;
	char optstring[3 * MAX_OPTS + 16] = ":P:W:N:";
	struct option lo[NSHARED + MAX_OPTS + 1];
	struct flat_opt f[MAX_OPTS];
	memset(lo, 0, sizeof lo);
	memcpy(lo, shared_longopts, sizeof shared_longopts);
	c->timing.tool = t ? &t->timing : NULL;
	int n = flatten(t ? t->opts : NULL, 0, f, 0);
	build_getopt(f, n, optstring, lo, NSHARED, OPT_TOOL_LONG);
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, optstring, lo, NULL)) != -1)
		if (shared_option(c, t, ch, argv))
			store(c, find_row(f, n, ch, OPT_TOOL_LONG), optarg, dst);
	return optind;
}

int command_parse(const struct command_options *t, int argc, char **argv, void *dst)
{
	char optstring[3 * MAX_OPTS + 16];
	struct option lo[MAX_OPTS + 1];
	struct flat_opt f[MAX_OPTS];
	memset(lo, 0, sizeof lo);
	/* ':' first: a missing value is told apart from an unknown option */
	snprintf(optstring, sizeof optstring, "%s:", t->stop_at_operand ? "+" : "");
	int n = flatten(t->opts, 0, f, 0);
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
		store(NULL, row, optarg, dst);
	}
	return optind;
}

int command_word(const char *cmd, const struct opt *t, char **argv, int argc, int i, void *dst,
		 int *used)
{
	struct flat_opt f[MAX_OPTS];
	int n = flatten(t, 0, f, 0);
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
		store(NULL, f[k], v, dst);
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
	for (const struct opt *o = opts; o && o->type; o++) {
		if (o->type == OPT_GROUP) {
			help_lines(f, (const struct opt *)o->extra, width);
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

void options_help(FILE *f, const struct tool_options *t)
{
	if (!t || !t->opts || !t->opts[0].type)
		return;
	fprintf(f, "\nOptions:\n");
	help_lines(f, t->opts, 15);
}
