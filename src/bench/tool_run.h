/*
 * tool_run.h — a tool's context, set up in one place for every way a tool runs: the dispatcher
 * (`plumb NAME`, an lmbench name) and the suite's step child.
 */
#ifndef PLUMB_TOOL_RUN_H
#define PLUMB_TOOL_RUN_H

#include "bench/tool.h"

/* Make c the context of tool t run with argv (argv[0] its name): its options table, its
 * arguments recorded, lines on stdout (stderr for an lmbench name whose lmbench printed
 * there), no timing choices yet (timing.h). */
void tool_ctx_init(struct tool_ctx *c, const struct tool *t, int argc, char **argv,
		   int via_symlink);
/* Free what running the tool left in c. */
void tool_ctx_free(struct tool_ctx *c);

/* The mode, the first of a tool's operands (options_parse()'s args) when it takes one
 * (lat_syscall null, lat_proc fork): the index of the row of modes that names it, modes being
 * n rows of size bytes, each starting with its name (a const char *). Missing or unknown: a
 * usage error listing the names. */
size_t tool_mode(struct tool_ctx *c, struct operands args, const void *modes, size_t n,
		 size_t size);
#define TOOL_MODE(c, args, modes) \
	tool_mode(c, args, modes, sizeof(modes) / sizeof((modes)[0]), sizeof((modes)[0]))

#endif
