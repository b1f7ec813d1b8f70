/* opts.c — the one option parser of every tool (see opts.h): getopt_long is called here only. */
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
#define MAX_TOOL_OPTS 32

/* The shared options; 0 when ch was one of them, else ch back. Exits on errors and --help. */
static int shared_option(struct tool_ctx *c, const struct tool_options *t, int ch, char **argv)
{
	char what[32];
	switch (ch) {
	case 'P':
		timing.parallel = (int)parse_int(optarg, 1, 4096, "-P (parallel copies)");
		return 0;
	case 'W':
		timing.warmup_us = (uint64_t)parse_int(optarg, 0, 3600000000LL, "-W (warm-up microseconds)");
		return 0;
	case 'N':
		timing.repetitions = (int)parse_int(optarg, 1, TIMING_MAX_REPS, "-N (repetitions)");
		return 0;
	case OPT_CPU:
		cpu_policy_init(optarg);
		return 0;
	case OPT_JSON:
		c->json = 1;
		return 0;
	case OPT_FSDIR:
		c->fsdir = optarg;
		return 0;
	case OPT_MINSAMPLE:
		timing.min_sample_ns = 1e3 * (double)parse_int(optarg, 1, 100000000, "--min-sample (microseconds)");
		return 0;
	case OPT_HELP:
		if (opts_help_hook)
			opts_help_hook(c, t);
		exit(0);
	case ':':
		if (optopt)
			snprintf(what, sizeof what, "-%c", optopt);
		else
			snprintf(what, sizeof what, "%s", argv[optind - 1]);
		usage_error(c, "option %s needs a value", what);
	case '?':
		if (optopt)
			snprintf(what, sizeof what, "-%c", optopt);
		else
			snprintf(what, sizeof what, "%s", argv[optind - 1]);
		usage_error(c, "unknown option %s", what);
	default:
		return ch;
	}
}

int tool_getopt(struct tool_ctx *c, int argc, char **argv, const char *tool_letters)
{
	char optstring[128];
	/* Leading ':' reports a missing argument as ':'; options may follow operands (GNU). */
	snprintf(optstring, sizeof optstring, ":P:W:N:%s", tool_letters ? tool_letters : "");
	opterr = 0;
	struct option lo[NSHARED + 1] = { { 0 } };
	memcpy(lo, shared_longopts, sizeof shared_longopts);
	for (;;) {
		int ch = getopt_long(argc, argv, optstring, lo, NULL);
		if (ch == -1)
			return -1;
		if (shared_option(c, NULL, ch, argv))
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

static void store(struct tool_ctx *c, const struct opt *o, const char *arg, void *dst)
{
	char what[96], list[128];
	if (o->what)
		snprintf(what, sizeof what, "-%c (%s)", o->letter, o->what);
	else
		snprintf(what, sizeof what, "-%c", o->letter);
	char *p = (char *)dst + o->offset;
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
		for (int i = 0; o->choices[i]; i++)
			if (!strcmp(arg, o->choices[i])) {
				*(int *)p = i;
				return;
			}
		choices_text(list, sizeof list, o->choices);
		usage_error(c, "-%c: '%s' is not %s", o->letter, arg, list);
	case OPT_STRING:
		*(const char **)p = arg;
		break;
	case OPT_IGNORED:
		break;
	}
}

int options_parse(struct tool_ctx *c, int argc, char **argv, const struct tool_options *t, void *dst)
{
	char optstring[3 * MAX_TOOL_OPTS + 16] = ":P:W:N:";
	struct option lo[NSHARED + MAX_TOOL_OPTS + 1];
	memset(lo, 0, sizeof lo);
	memcpy(lo, shared_longopts, sizeof shared_longopts);
	size_t nlo = NSHARED, len = strlen(optstring);
	int nopts = 0;
	timing_tool = t ? &t->timing : NULL;
	for (const struct opt *o = t ? t->opts : NULL; o && o->type; o++, nopts++) {
		if (nopts == MAX_TOOL_OPTS)
			die(1, "%s: more than %d options", c->tool, MAX_TOOL_OPTS);
		int has_arg = o->type != OPT_FLAG && o->type != OPT_IGNORED;
		optstring[len++] = o->letter;
		if (has_arg)
			optstring[len++] = ':';
		if (o->name)
			lo[nlo++] = (struct option){ o->name, has_arg ? required_argument : no_argument,
						     NULL, OPT_TOOL_LONG + nopts };
	}
	optstring[len] = 0;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, optstring, lo, NULL)) != -1) {
		if (!shared_option(c, t, ch, argv))
			continue;
		const struct opt *o = t->opts;
		if (ch >= OPT_TOOL_LONG)
			o += ch - OPT_TOOL_LONG;
		else
			while (o->letter != ch)
				o++;
		store(c, o, optarg, dst);
	}
	return optind;
}

void options_help(FILE *f, const struct tool_options *t)
{
	if (!t || !t->opts || !t->opts[0].type)
		return;
	fprintf(f, "\nOptions:\n");
	for (const struct opt *o = t->opts; o->type; o++) {
		char left[64];
		int n = snprintf(left, sizeof left, "-%c", o->letter);
		if (o->name)
			n += snprintf(left + n, sizeof left - (size_t)n, ", --%s", o->name);
		if (o->arg)
			snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
		fprintf(f, "  %-15s  %s\n", left, o->help);
	}
}
