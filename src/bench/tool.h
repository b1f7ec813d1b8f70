/*
 * tool.h — how a benchmark family describes itself (after stress-ng's stressors): one constant
 * `struct family` per file, listing its tools. The dispatcher (main.c), `plumb list`, the
 * Makefile's symlinks (it greps the TOOL(" lines) and the suite all read these descriptors;
 * nobody keeps another list of tool names.
 */
#ifndef PLUMB_TOOL_H
#define PLUMB_TOOL_H

#include "core/opts.h"
#include "core/out.h"

typedef int (*tool_fn)(struct tool_ctx *c, int argc, char **argv);

struct tool {
	const char *name;      /* the lmbench program name */
	tool_fn fn;            /* argv[0] is the tool name; returns the exit status */
	int lm_stdout;         /* lmbench printed results on stdout (line, mhz, memsize, seek) */
	const char *usage;     /* operands and own options, e.g. "[-n N] file|tcp" */
	const char *summary;   /* one line: what it measures */
	const char *help;      /* more lines for --help (may be NULL) */
};

/* One entry per line, starting with TOOL(" — the Makefile reads the names from these lines.
 * A tool's own options are a `struct tool_options` table (opts.h) defined beside its function,
 * which passes it to options_parse(); --help prints it from there. */
#define TOOL(name, fn, lm_stdout, usage, summary, help) { name, fn, lm_stdout, usage, summary, help }

enum subset { SUBSET_HW = 1, SUBSET_OS = 2 };

struct family {
	const char *name;          /* "syscall", "memory", ... (plumb run --only NAME) */
	enum subset subset;
	const char *desc;
	const struct tool *tools;  /* ends with a zeroed entry */
};

extern const struct family *const families[];
const struct tool *tool_find(const char *name, const struct family **fam);

#endif
