/*
 * tool.h — how a benchmark describes itself (after stress-ng's stressors and BusyBox's
 * applets): src/bench/FAMILY/ holds a family's tools, a file per tool, and each file ends with
 * a constant descriptor listing its tools and the metrics they record. The Makefile makes the
 * symlinks from the TOOL(" lines and the registry (build/registry_gen.c, by mk/registry.sh)
 * from the `const struct tool_file toolfile_` lines; the dispatcher (main.c), `plumb list`, the
 * suite and the metric registry (core/metrics.h) read it. Nobody keeps another list of tool
 * names, families, aliases or metrics.
 *
 * Two names select a tool's steps in `plumb run --only/--skip` (docs/architecture.md, "Names
 * that classify a tool"):
 *   family  the folder its file is in (sys, ipc, mem, ...): where its code lives, and every
 *           tool of the folder;
 *   alias   the first field of its file's descriptor (syscall, memory, tails, ...): a narrower
 *           name for that file's tools, the one that also asks for a STEP_ASKED step.
 * A tool file's subset (hardware, os) is what --subset cuts by. The plan's budget groups
 * (suite/plan.h) and the metrics' noise groups (core/metrics.h) are no names of tools.
 */
#ifndef PLUMB_TOOL_H
#define PLUMB_TOOL_H

#include <stdio.h>
#include "core/metrics.h"
#include "core/opts.h"
#include "core/out.h"

typedef int (*tool_fn)(struct tool_ctx *c, int argc, char **argv);

struct tool {
	const char *name;      /* the lmbench program name */
	tool_fn fn;            /* argv[0] is the tool name; returns the exit status */
	int lm_stdout;         /* lmbench printed results on stdout (line, mhz, memsize, seek) */
	const struct tool_options *opts; /* its own options (opts.h), or NULL: what options_parse()
				  * parses, --help and `plumb list --json` print */
	const char *usage;     /* operands and own options, e.g. "[-n N] file|tcp" */
	const char *summary;   /* one line: what it measures */
	const char *help;      /* more lines for --help (may be NULL) */
};

/* One entry per line, starting with TOOL(" — the Makefile reads the names from these lines.
 * A tool's own options are a `struct tool_options` table (opts.h) named in its entry; the
 * dispatcher hands it to the tool (tool_ctx.opts), options_parse() parses it and --help
 * prints it: the tool function never names it. */
#define TOOL(name, fn, lm_stdout, opts, usage, summary, help)                                  \
	{ name, fn, lm_stdout, opts, usage, summary, help }

enum subset { SUBSET_HW = 1, SUBSET_OS = 2 };

/* A tool file's descriptor, its last line, after its tools[] and metrics[] tables:
 *   const struct tool_file toolfile_NAME = { "ALIAS", SUBSET, "what", tools, metrics };
 * on one line (mk/registry.sh reads it). ALIAS is the file's alias ("memory" is bw_mem,
 * "caches" tlb par_mem line cache, several files may share one): --only and --skip take it,
 * selecting exactly those tools. metrics[] declares every metric the file's tools record
 * (core/metrics.h: id, unit, lmbench line, method, noise); a tool that records a metric its
 * file does not declare stops with an internal error. Where the file's tools stand in the
 * registry (and so in `plumb list` and `plumb --help`) is the line the file is on in
 * mk/tools.order, and where its metrics stand (docs/metrics.md's order) its line in
 * mk/metrics.order: no number in the file, and no two files on one place. */
struct tool_file {
	const char *alias;         /* --only/--skip ALIAS: this file's tools (and its kin's) */
	enum subset subset;
	const char *desc;
	const struct tool *tools;  /* ends with a zeroed entry */
	const struct metric_def *metrics; /* ends with a zeroed row */
};

/* The registry, generated: every descriptor in mk/tools.order's order with its family (its
 * folder). */
struct registered {
	const char *family;        /* "sys", "ipc", "mem", ... (plumb run --only FAMILY) */
	const struct tool_file *file;
};
extern const struct registered registry[]; /* ends with a zeroed entry */

/* The line under lmbench's summary tables of the rows whose processes plumb's default
 * placement keeps on one CPU (core/cpu.h's "single"; lmbench 3 lets them spread): ctxsw, Pipe,
 * AF UNIX, fork proc, TCP bandwidth (summary_notes.c). */
extern const struct summary_note one_cpu_note;

/* The tool called name, or NULL; *where (if given) gets its registry entry. */
const struct tool *tool_find(const char *name, const struct registered **where);

/* Families (the folders) in registry order, each once: the i-th, NULL past the last. */
const char *family_at(int i);
/* Aliases in registry order, each once: the i-th, or NULL. */
const char *alias_at(int i);
/* Whether name (a family or an alias) selects the tools of registry entry r. */
int registered_selects(const struct registered *r, const char *name);
/* run --help's lines naming the families and the aliases with their tools. */
void families_help(FILE *f);
/* "hardware" or "os". */
const char *subset_name(enum subset s);

#endif
