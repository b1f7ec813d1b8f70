/*
 * out.h — what a benchmark produces and where it goes. A tool runs with a tool_ctx: it records
 * results (result.h) through record_*(), which also print the lmbench line for the result (from
 * the registry template, core/metrics.h) to ctx->out; lines the registry cannot template are printed
 * by the benchmark with out_printf(). With --json nothing is printed until the end, when
 * tool_finish() writes one JSON document (docs/json-schema.md) on stdout.
 *
 * Streams: invoked through an lmbench tool name (symlink), lines go where lmbench put them
 * (stderr for most tools, stdout for line, mhz, memsize and seek), so old scripts that capture
 * 2>&1 or 2>file keep working; `plumb NAME` prints them on stdout.
 */
#ifndef PLUMB_OUT_H
#define PLUMB_OUT_H

#include <stdio.h>
#include "core/json.h"
#include "core/metrics.h"
#include "core/result.h"
#include "core/timing.h"

struct tool_ctx {
	const char *tool;         /* lmbench tool name */
	const struct tool_options *opts; /* its options table, from its descriptor (NULL: none) */
	FILE *out;                /* lmbench lines go here; NULL = print nothing */
	int json;                 /* --json */
	int via_symlink;          /* invoked as an lmbench name */
	const char *fsdir;        /* --fsdir: where file benchmarks may create their directory */
	int argc;                 /* the tool's own arguments, recorded */
	char **argv;
	struct result_list results;
	char *header_info;        /* "key=value ..." facts printed as [KEY: value] lines */
	struct timing_ctx timing; /* how and where it measures: measure(&c->timing, ...) */
	/* -h/--help of a tool: prints its help (the dispatcher's; NULL in a step child) */
	void (*help)(struct tool_ctx *c, const struct tool_options *t);
	/* --remote HOST[:BASE] of the network tools: where their clients connect (no server then) */
	char remote_host[256];
	int remote_base;
};

/* Convert a measurement (ns per iteration) into the metric's unit and record it; the lmbench
 * line is printed when the registry has a template. ops = operations per iteration. */
struct result *record_latency(struct tool_ctx *c, const char *metric, const char *params,
			      double x, const struct measurement *m, double ops);
/* Bandwidth: bytes moved per iteration by one copy; with -P the figure is the aggregate. */
struct result *record_bandwidth(struct tool_ctx *c, const char *metric, const char *params,
				double x, const struct measurement *m, double bytes);
/* The epilogue every simple tool shares: measure op under the tool's timing (measure()) and
 * record it as record_latency() / record_bandwidth() do. The result, or NULL when op could not
 * be measured (a message was printed: the tool exits EXIT_MEASURE). */
struct result *measure_latency(struct tool_ctx *c, const struct bench_op *op, const char *metric,
			       const char *params, double x, double ops);
struct result *measure_bandwidth(struct tool_ctx *c, const struct bench_op *op,
				 const char *metric, const char *params, double x, double bytes);
/* Values already in the metric's unit (derived figures: parallelism, corrected latencies). */
struct result *record_values(struct tool_ctx *c, const char *metric, const char *params,
			     double x, const struct sample *s, size_t n);
/* Print the lmbench line of r (no-op for metrics formatted by code or in JSON mode). */
void emit_line(struct tool_ctx *c, const struct result *r);
/* Free-form lmbench output (series headers, odd lines); suppressed in JSON mode. */
void out_printf(struct tool_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fact about the measurement, printed as "[KEY: value]" (never inside a series) and stored
 * in the result info / JSON. */
void out_fact(struct tool_ctx *c, struct result *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Format the lmbench line of r into buf from its template; returns 0, or -1 when the metric
 * has no template (formatted by code). */
int format_line(const struct metric_def *d, const struct result *r, char *buf, size_t len);
/* Format v with an lmbench value format ("%.4f", "bw", "micromb"). */
void format_value(const char *fmt, double v, char *buf, size_t len);

/* "k=v k2=v2 bare" as a JSON object {"k": "v", "k2": "v2", "bare": null} under key. */
void json_kv_object(struct json *j, const char *key, const char *kvs);
/* Write r as a JSON object (schema in docs/json-schema.md). */
void json_result(struct json *j, const struct result *r);
/* r's side metrics (side.h) as the "side" object of its JSON (side_json.c); nothing when
 * none of its samples has any. */
void side_json(struct json *j, const struct result *r);
/* End of a tool: in JSON mode print the document. Returns the exit status to use. */
int tool_finish(struct tool_ctx *c, int status);

#endif
