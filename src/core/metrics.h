/*
 * metrics.h — the metric registry. Every metric is declared once, in the file of the tool that
 * records it (src/bench/FAMILY/TOOL.c, beside its tools[] table), as a `struct metric_def` row
 * written with designated fields (below); mk/registry.sh collects the files' tables into the registry
 * (build/registry_gen.c) and every layer looks metrics up here: none keeps its own list of
 * names, units, methods or noise.
 */
#ifndef PLUMB_METRICS_H
#define PLUMB_METRICS_H

#include <stddef.h>
#include <stdio.h>
#include "core/summary_cells.h"

enum better { LOWER, HIGHER, NEUTRAL };
/* BEST is lmbench's "minimum": the sample that took least time, which is the smallest value of
 * a lower-is-better metric and the largest of a higher-is-better one (bandwidth, parallelism). */
enum statistic { MEDIAN, BEST };

/* The run-to-run noise compare assumes for a metric until the store has history of it
 * (bench/README.md, "Run-to-run noise: the default table"). Every figure is measured. */
struct metric_noise {
	const char *group; /* the noise group ("syscall", "ops", ...): metrics whose paired
			    * variances compare pools, and the name in its messages; NULL = none
			    * declared, which the registry's check refuses */
	double run;        /* run-to-run standard deviation of a run's log value, raw */
	double run_eq;     /* the same at equal clock (used when clock) */
	double pair;       /* floor of one paired round's log-ratio sd in `plumb ab` (0: none) */
	double df;         /* what the figures are worth: the runs measured, less one */
	int clock;         /* 1: the cost follows the core clock, so compare also judges it at
			    * equal clock (bench/README.md, "Which metrics follow the clock") */
	double run_effect; /* the part of run (sd) that separates runs beyond their rounds' noise,
			    * measured on runs of many rounds; the rest of run, measured on runs of
			    * NOISE_ROUNDS rounds, is round noise and falls as 1/rounds
			    * (default_run_noise_at). 0: not separated, run holds at any rounds */
};

/* The rounds of the runs the declared run figures were measured on (the default profile's 3). */
#define NOISE_ROUNDS 3

/* What a series' abscissa (its x) is: how a report charts it and names its axis. */
enum abscissa {
	X_UNDECLARED, /* refused by the registry's check (metric_set_check) */
	X_NONE,       /* one value per parameter set: no series */
	X_SIZE,       /* a size, in MB when xfmt is "bw" (10^6 bytes), else MiB: a log2 axis */
	X_COUNT,      /* a count (processes, copies): a linear axis */
	X_LEVEL,      /* a level of a load: a linear axis */
	X_OTHER,      /* another quantity: a linear axis named by its label */
};
/* How lmbench's text prints a size abscissa, so that an import (results/lmbench_read.c)
 * recovers the size in bytes plumb's own run records: */
enum lmbench_x {
	LMX_AS_PRINTED, /* x as printed: no size to recover (and every row without a series) */
	LMX_MIB,        /* MiB with 5 decimals, sizes multiples of 512 bytes (lat_mem_rd) */
	LMX_MB,         /* MB, "%.2f" from 1 MB on, sizes powers of two (bw_mem, bw_file_rd) */
	LMX_MB6,        /* MB with 6 decimals, exact bytes (par_mem) */
};
struct metric_x {
	enum abscissa kind;
	const char *label;     /* the axis' name in a chart ("size", "copies"); NULL with X_NONE */
	const char *was_param; /* the parameter older files carried the abscissa in as well ("size":
				* files before plumb/2 and lmbench imports of that time, which made
				* every point its own series); dropped wherever a result is made, so
				* old files, old stores and new runs agree on what a series is */
	enum lmbench_x lmbench; /* how lmbench's text prints it (above) */
};

/* A layout of lmbench's text that holds rows together, which the lmbench reader and writer
 * read and write by code, finding each row by its place in it: */
enum lmbench_block {
	LMB_NONE,
	LMB_FS_CREATE,     /* "File system latency": "<k>k <files> <creates/s> <deletes/s>" lines, */
	LMB_FS_DELETE,     /* a line per file size */
	LMB_CTX,           /* lat_ctx's series of each size, titled "size=<k>k ovr=<overhead>" */
	LMB_CTX_OVERHEAD,  /* the overhead in that title */
	LMB_CACHE_SIZE,    /* "L<level> cache: <size> bytes <latency> nanoseconds" */
	LMB_CACHE_LATENCY, /* the latency in it; main memory's "Memory latency: <l> nanoseconds" */
	LMB_HTTP,          /* lat_http's "Avg xfer: ..., <total> in <ms> millisecs, ...", read only */
};

/* Where lmbench's text holds a row's values when neither its template line (.line) nor its
 * series title (.series_title) says: the importer (results/lmbench_read.c) finds the row by it
 * and the writer (results/lmbench_write.c) writes the values back there. */
struct metric_lmbench_text {
	/* A series' title line: this text, then the value of the series' parameter param (bw_tcp:
	 * "Socket bandwidth using " and host), or with whole this line alone, for the series whose
	 * parameter param is set other than "0" (bw_mem's "\"libc bcopy aligned", read back as
	 * param=1) */
	const char *title, *param;
	int whole;
	const char *unset; /* what the writer puts for a series without param (NULL: "?") */
	/* With title and param: the line before such series that says whose they are, when rows
	 * share the title (lat_mem_rd's "Memory load latency" and "Random load latency" before
	 * "\"stride=N"); param's value is then an integer. Before any, the first such row's. */
	const char *mode;
	enum lmbench_block block; /* its place in a layout of lmbench's (above) */
	/* The [KEY: value] header of lmbench's results that the writer makes of its value when
	 * the run's facts do not hold it (mhz.mhz: "MHZ", line.bytes: "LINE_SIZE"); NULL: none */
	const char *header;
};

/* Which values a measurement of the metric can give (results/run_check.c judges a run by it). */
enum sign_rule {
	SIGN_UNDECLARED, /* refused by the registry's check */
	POSITIVE,        /* a time, a rate, a size or a count: above zero */
	ZERO_OR_MORE,    /* zero is a measurement too (lat_loaded's level 0 delivers 0 MB/s) */
	ANY_SIGN,        /* a measurement less an estimated overhead, or a difference of two:
			  * recorded as measured even at or below zero */
};

/* A row's part in a figure that joins rows of its tool, drawn by a chart kind besides the row's
 * own chart (.chart): lat_tail's percentiles (a chart per operation, and `plumb summary
 * --tails`'s table), lat_loaded's latency against its bandwidth. The kind and the table find
 * their rows by it, never by id. */
enum figure_role {
	FIG_UNDECLARED, /* refused on a row that names a figure */
	FIG_POINT,      /* a point at .at of the figure's x; the points in the registry's order */
	FIG_X,          /* the figure's x, paired with its FIG_Y row at each params and abscissa */
	FIG_Y,          /* the figure's y */
};
struct metric_figure {
	const char *kind;      /* the chart kind that draws the figure (mk/charts.sh checks it is
				* declared); NULL: in none */
	enum figure_role role;
	double at;             /* FIG_POINT: its abscissa (lat_tail: the percentile in nines) */
	const char *name;      /* FIG_POINT: its name on the axis and a table's column ("p99.9") */
	int spread;            /* 1: its spread is the table's "+-" column (lat_tail's p99) */
	int worst;             /* 1: its samples' largest is the table's "worst" (lat_tail's max) */
};

/* Which points of a series lmbench's summary tables read (analysis/compare.c: the points
 * compare keeps without --all). */
enum summary_at {
	SUMMARY_UNDECLARED,     /* refused on a row with a series */
	SUMMARY_LAST,           /* the series' last point, as getsummary's LAST() reads it */
	SUMMARY_LISTED,         /* the points at x[] only */
	SUMMARY_LISTED_OR_LAST, /* the points at x[] (of the series whose parameter param is
				 * param_is) and the last point */
};
struct metric_summary {
	enum summary_at at;
	double x[4];       /* the abscissas, ended by 0 (no summary point is at 0) */
	double tol;        /* how near x[] a point is read: a fraction of x (0: exactly) */
	const char *param; /* with SUMMARY_LISTED_OR_LAST: the parameter of the series the x[]
			    * points are read from (NULL: every series) */
	long param_is;     /* ... and its value */
};

/* A metric row, in a tool file's `const struct metric_def metrics[]` (ended by { 0 }), every
 * field named:
 *   { .id = "tool.what", .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
 *     .desc = "one line",
 *     .line = "lmbench's line: %v", .vfmt = "%.4f",           (and .xfmt, .series_title)
 *     .sign = POSITIVE, .x = { .kind = X_NONE },
 *     .work = "the unit of work", .subtracted = SUB_CLOCK, .lmbench = "",
 *     .noise = { .group = "syscall", .run = 0.105, .run_eq = 0.105, .df = 19,
 *                .clock = FOLLOWS_CLOCK, .run_effect = 0.04 } },
 * A row with a series (x.kind other than X_NONE) also names its axis and says which chart
 * draws it and which points lmbench's summary reads:
 *     .x = { .kind = X_COUNT, .label = "copies" }, .chart = "series",
 *     .summary = { .at = SUMMARY_LAST },
 * A row whose chart is titled by it names the title and the slug together (lmbench's memory
 * and context-switch charts: .chart_title, .chart_slug); one in a figure joining rows of its
 * tool says its part (.figure = { .kind = "tails", .role = FIG_POINT, .at = 2, .name = "p99" });
 * one whose values lmbench's text holds in a title or a block of its own says where
 * (.lmbench_text = { .title = "Socket bandwidth using ", .param = "host" }, .block, .header).
 * A row whose results fill cells of lmbench's summary tables names them and how each is read
 * (.cells = { { .cell = SUM_SYSCALL, .read = READ_FIRST } }, core/summary_cells.h), and the
 * line under the tables when they are measured otherwise than lmbench 3 (.summary_note).
 * A row that leaves out a field a room needs (unit, version, description, method, noise, sign
 * rule, abscissa; with a series its label, chart and summary points; a chart title without its
 * slug or a slug without its title; a figure without its part; an lmbench title or mode
 * without the title's text and parameter; a summary note without its text or cells) is
 * incomplete:
 * mk/registry.sh refuses a table whose rows lack noise, sign rule or abscissa at build time,
 * metric_set_check() names what any row lacks (tests/unit/metrics_test.c runs it on every
 * file's rows), and a tool recording an incomplete row's metric stops with an internal error.
 * No room outside the row guesses what a metric is from its id or its description. */
struct metric_def {
	const char *id;           /* stable "tool.what"; never reused for another meaning */
	const char *unit;         /* "us" "ns" "MB/s" "KB/s" "MiB" "MB" "MHz" "bytes" "pages" "x" "/s" "ms" */
	enum better better;       /* a property of the machine, not good or bad */
	enum statistic stat;      /* the statistic lmbench reports for it */
	int version;              /* method version: bumped whenever what it measures changes */
	const char *desc;         /* one line: what it is */
	const char *line;         /* lmbench line: {name} a parameter, %v the value (vfmt), %x the
				   * series abscissa (xfmt); NULL = the tool prints it (out_printf)
				   * and results/lmbench_write.c writes it back */
	const char *xfmt, *vfmt;  /* printf formats, or "bw" (lmbench's "%.6f if < 1 else %.2f"),
				   * or "micromb" (lat_mmap: %.0f if >= 10) */
	const char *series_title; /* the header printed before a series, or NULL */
	struct metric_lmbench_text lmbench_text; /* where else lmbench's text holds it (above) */
	const char *work;         /* the unit of work one timed iteration performs, and how the
				   * value is derived from it */
	const char *subtracted;   /* what is subtracted from the timed span */
	const char *lmbench;      /* how it differs from lmbench 3's operation; "" = the same.
				   * Every metric whose version is above 1 says here why. */
	struct metric_noise noise;
	/* The steady figure's noise (.steady, the fields of .noise): a row that declares it has a
	 * twin metric "<id>.steady" in the registry, the median of single operations or short
	 * batches within each sample (core/timing.h, "The steady figure"), which verdicts judge by
	 * default. group NULL: no steady figure (a bandwidth, a figure derived from several
	 * latencies). */
	struct metric_noise steady;
	/* How its steady figure is timed, when not by measure() (core/timing.h): the twin's method
	 * text after the row's .work (NULL: measure()'s single operations or short batches). */
	const char *steady_how;
	/* In a twin the registry made: the row whose steady figure it is (NULL elsewhere). */
	const struct metric_def *steady_of;
	int place;                /* its place in the registry's order among the rows of files
				   * that share a line of mk/metrics.order; 0 = as written (see
				   * metric_set) */
	enum sign_rule sign;      /* which values a measurement can give */
	struct metric_x x;        /* what a series' abscissa is */
	/* The report's chart kind that draws it, by name: a kind is declared by its file in
	 * src/analysis/ (report_util.h, collected by mk/charts.sh, which refuses a row naming no
	 * kind). "series" is a line chart of its own per metric, x named by x.label; a row with a
	 * series names one, a row without may (lat_epoll's "samples"); NULL: none but the bars. */
	const char *chart;
	/* Its chart's title and slug (file name stem and HTML id), both or neither; NULL: "ID:
	 * description" and "series-ID", as every chart per metric is named ("series",
	 * "mem_latency", "mem_bandwidth", "ctx_switch" draw a chart per row) */
	const char *chart_title, *chart_slug;
	struct metric_figure figure; /* its part in a figure joining rows of its tool (above) */
	struct metric_summary summary; /* lmbench's summary points (with a series) */
	/* 1: the value is a size in bytes that the report marks on the size axis of its memory
	 * charts, named "L" and the result's level= parameter (a cache level's size: cache.size,
	 * and lmbench's "L1 cache:" lines imported as it) */
	int size_mark;
	/* The run fact its value is recorded as when a run holds it (mhz.mhz: "mhz", printed with
	 * vfmt), for readers that take the fact from any run (summary, the lmbench writer); NULL:
	 * none */
	const char *run_fact;
	/* The cells of lmbench's summary tables its results fill (core/summary_cells.h), ended by
	 * READ_NONE; a steady twin feeds none */
	struct metric_cell cells[METRIC_CELLS];
	/* The line under the tables saying how its cells differ from lmbench 3's (above); NULL:
	 * none. Rows sharing one point at one note. */
	const struct summary_note *summary_note;
};

/* The suffix of a steady twin's id. */
#define STEADY_SUFFIX ".steady"
/* struct metric_noise's clock */
#define FOLLOWS_CLOCK 1
#define OWN_PACE 0
/* Not measured yet: the conservative figure compare has always assumed for such a metric. */
#define NOISE_UNMEASURED                                                                        \
	{ .group = "other", .run = 0.20, .run_eq = 0.20, .df = 4, .clock = OWN_PACE }
/* What most metrics subtract: no empty-loop cost is ever subtracted (core/timing.c). */
#define SUB_CLOCK "the clock's read cost, once per sample"
#define SUB_NOTHING "nothing (one pass is timed whole)"

/* One file's metrics (its descriptor's table, bench/tool.h) and their rank: the line the file
 * is on in mk/metrics.order, which mk/registry.sh reads; no file numbers itself. The registry
 * lists every file's rows by ascending rank, then place (or the row's position when place is
 * 0): the order of docs/metrics.md, `plumb list --json` and report pages. Files share a rank
 * only when that list names them on one line, and then their rows interleave by place (lat_ops
 * and par_ops). */
struct metric_set {
	const struct metric_def *const *defs; /* the table, which ends with a zeroed row */
	int order;
};

/* Generated by mk/registry.sh (build/registry_gen.c): every tool file's set, and every tool
 * with the set of its file; both end with a zeroed entry. */
extern const struct metric_set metric_sets[];
struct metric_owner {
	const char *tool;
	const struct metric_set *set;
};
extern const struct metric_owner metric_owners[];

/* The i-th metric of the registry in its order, or NULL past the last. */
const struct metric_def *metric_at(int i);
/* How many metrics the registry has. */
int metric_total(void);
/* The definition of id, or NULL when plumb does not know it. */
const struct metric_def *metric_find(const char *id);
/* The row whose value a run records as the fact named fact (.run_fact), or NULL. */
const struct metric_def *metric_of_run_fact(const char *fact);
/* Whether tool may record id: 0, or -1 with why (id unknown, declared by another tool's file,
 * or declared without noise). A tool plumb does not know (a test's) may record any known id. */
int metric_check_record(const char *tool, const char *id, char *why, size_t len);
/* Whether the rows of s are complete (id, unit, version, description, method, noise, sign rule,
 * abscissa; with a series its label, chart and summary points; a chart's title and slug
 * together; a figure's part; an lmbench title's parameter): 0, or -1 with why. */
int metric_set_check(const struct metric_set *s, char *why, size_t len);
/* The id of the row whose place in lmbench's layouts is b (its .lmbench_text.block), or NULL. */
const char *metric_lmbench_id(enum lmbench_block b);
/* The rows of the registry whose figure is kind and whose part in it is role, in the registry's
 * order (steady twins are in no figure): how many, at most max, stored in out. */
int metric_figure_rows(const char *kind, enum figure_role role, const struct metric_def **out,
		       int max);
/* docs/metrics.md: every metric, its unit of work, subtraction, statistic, version and
 * difference from lmbench, as Markdown. -1 when a metric lacks its method. */
int metrics_doc(FILE *f);
const char *better_name(enum better b);
const char *stat_name(enum statistic s);
/* The steady twin of d (the metric "<d->id>.steady"), or NULL when d declares none. */
const struct metric_def *metric_steady(const struct metric_def *d);
/* 1 when the reported statistic of d is the maximum of the samples, -1 the minimum, 0 median. */
int metric_stat_dir(const struct metric_def *d);

#endif
