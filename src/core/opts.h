/*
 * opts.h — the options every tool shares, parsed in one place:
 *   -P N        parallel copies (lmbench)          -W US   warm-up microseconds (lmbench)
 *   -N N        samples per copy (lmbench)         --cpu LIST|none   CPU placement (cpu.h)
 *   --json      one JSON document on stdout        --fsdir DIR       where temp files go
 *   --min-sample US   minimum sample length (like ENOUGH)
 *   --help      the tool's help
 * A tool passes its own option letters; tool_getopt() returns them one at a time (optarg set),
 * like getopt(), and -1 at the end (optind = first operand). Bad values exit 2 with one line.
 */
#ifndef PLUMB_OPTS_H
#define PLUMB_OPTS_H

#include "core/out.h"

struct tool_desc;
int tool_getopt(struct tool_ctx *c, int argc, char **argv, const char *tool_letters);
/* One-line usage error for the current tool, exit 2. */
void usage_error(struct tool_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Hook set by the dispatcher: prints the current tool's --help. */
extern void (*opts_help_hook)(struct tool_ctx *c);

#endif
