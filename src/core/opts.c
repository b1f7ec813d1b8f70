/* opts.c — shared option parsing for every tool (see opts.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/opts.h"
#include "core/timing.h"
#include "core/util.h"

void (*opts_help_hook)(struct tool_ctx *c);

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

enum { OPT_CPU = 256, OPT_JSON, OPT_FSDIR, OPT_HELP, OPT_MINSAMPLE };

int tool_getopt(struct tool_ctx *c, int argc, char **argv, const char *tool_letters)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "fsdir", required_argument, NULL, OPT_FSDIR },
		{ "min-sample", required_argument, NULL, OPT_MINSAMPLE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	char optstring[128];
	/* Leading ':' reports a missing argument as ':'; options may follow operands (GNU). */
	snprintf(optstring, sizeof optstring, ":P:W:N:%s", tool_letters ? tool_letters : "");
	opterr = 0;
	for (;;) {
		int ch = getopt_long(argc, argv, optstring, longopts, NULL);
		char what[32];
		switch (ch) {
		case -1:
			return -1;
		case 'P':
			timing.parallel = (int)parse_int(optarg, 1, 4096, "-P (parallel copies)");
			break;
		case 'W':
			timing.warmup_us = (uint64_t)parse_int(optarg, 0, 3600000000LL, "-W (warm-up microseconds)");
			break;
		case 'N':
			timing.repetitions = (int)parse_int(optarg, 1, TIMING_MAX_REPS, "-N (repetitions)");
			break;
		case OPT_CPU:
			cpu_policy_init(optarg);
			break;
		case OPT_JSON:
			c->json = 1;
			break;
		case OPT_FSDIR:
			c->fsdir = optarg;
			break;
		case OPT_MINSAMPLE:
			timing.min_sample_ns = 1e3 * (double)parse_int(optarg, 1, 100000000, "--min-sample (microseconds)");
			break;
		case OPT_HELP:
			if (opts_help_hook)
				opts_help_hook(c);
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
}
