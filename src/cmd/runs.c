/* runs.c — `plumb runs`: the runs in the store, one line each (id, date, host, label, profile,
 * scope, architecture, build, duration, plumb version; --wide adds CPU, kernel and the whole
 * compiler and flags, --json every field), selected with --host H, --label L, --since DATE,
 * --cc C, --cflags F, --arch A (all that are given must match; store.h: run_filter),
 * `--delete RUN` / `--relabel RUN TEXT` to manage them (RUN is an id or a label: every run with
 * that label), `--check` to verify the database (SQLite's integrity and foreign-key checks;
 * PostgreSQL enforces its own) and then every run as the other commands read it, naming each one
 * they would skip (store.h: store_check_runs). The store may be an SQLite file or a PostgreSQL
 * URI (--db). Stored text is printed through term_str: a label cannot drive the terminal. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/util.h"
#include "results/io.h"
#include "results/run_cond.h"
#include "results/run_ident.h"
#include "results/store.h"

#define USAGE "usage: plumb runs [--db FILE|URI] [--host H] [--label L] [--since DATE] " \
	"[--cc C] [--cflags F] [--arch A] [--wide | --json] [--delete RUN | --relabel RUN TEXT | --check]"

/* The ids RUN stands for: a number is one id, anything else a label. */
static int ids_of(struct store *s, const char *arg, long **ids)
{
	int digits = *arg != 0;
	for (const char *p = arg; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	if (digits) {
		*ids = xmalloc(sizeof **ids);
		(*ids)[0] = atol(arg);
		return 1;
	}
	return store_find_label(s, arg, ids);
}

static void say_bad(struct store *s, const char *what, const char *why, void *ctx)
{
	char line[1024];
	snprintf(line, sizeof line, "%s: %s", what, why);
	term_fputs(stdout, line);
	fputc('\n', stdout);
}

/* The columns of the list: a heading, a width (0: as wide as its widest cell, never cut) and
 * whether it is aligned left; --wide adds the last four and cuts nothing. */
enum col { C_ID, C_DATE, C_HOST, C_LABEL, C_PROFILE, C_SCOPE, C_ARCH, C_BUILD, C_TIME,
	   C_VERSION, C_STATE, C_CPU, C_KERNEL, C_CC, C_CFLAGS, C_N, C_NARROW = C_STATE + 1 };
static const struct {
	const char *head;
	int width, left;
} cols[C_N] = {
	{ "id", 5, 0 }, { "date", 16, 1 }, { "host", 10, 1 }, { "label", 12, 1 },
	{ "profile", 7, 1 }, { "scope", 10, 1 }, { "arch", 7, 1 }, { "build", 16, 1 },
	{ "time", 6, 1 }, { "version", 7, 1 }, { "", 0, 1 }, { "cpu", 0, 1 }, { "kernel", 0, 1 },
	{ "compiler", 0, 1 }, { "cflags", 0, 1 },
};

static const char *fact_or_dash(const struct run *r, const char *key)
{
	const char *v = kv_get(&r->facts, key);
	return v && *v ? v : "-";
}

/* The cells of one run, each escaped for the terminal (malloc'd). */
static void run_cells(const struct run *r, char *cell[C_N], int wide)
{
	char buf[RUN_TEXT_MAX * 4], date[32] = "-";
	if (r->started) {
		snprintf(date, sizeof date, "%.16s", r->started);
		if (date[10] == 'T')
			date[10] = ' ';
	}
	snprintf(buf, sizeof buf, "%ld", r->id);
	cell[C_ID] = xstrdup(buf);
	/* the last column: what changes how the run's numbers read (results/run_cond.h) */
	char state[400], cond[320];
	snprintf(state, sizeof state, "%s%s%s", r->incomplete ? "incomplete" : "",
		 r->incomplete && *run_conditions_short(r, cond, sizeof cond) ? "; " : "",
		 (wide ? run_conditions : run_conditions_short)(r, cond, sizeof cond));
	const char *text[C_N] = {
		[C_DATE] = date, [C_HOST] = r->host ? r->host : "-",
		[C_LABEL] = r->label ? r->label : "-", [C_PROFILE] = r->profile ? r->profile : "-",
		[C_SCOPE] = run_scope(r), [C_ARCH] = run_arch(r) ? run_arch(r) : "-",
		[C_VERSION] = fact_or_dash(r, "plumb_version"),
		[C_STATE] = state, [C_CPU] = fact_or_dash(r, "cpu_model"),
		[C_KERNEL] = fact_or_dash(r, "kernel"), [C_CC] = fact_or_dash(r, "build_cc"),
		[C_CFLAGS] = fact_or_dash(r, "build_cflags"),
	};
	char build[256], dur[32];
	text[C_BUILD] = run_build_short(r, build, sizeof build);
	text[C_TIME] = run_duration_str(r, dur, sizeof dur);
	for (int c = C_DATE; c < C_N; c++)
		cell[c] = esc_dup(term_fputs, text[c]);
}

/* Characters (not bytes) of UTF-8 text: what a terminal column counts. */
static int text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* s in exactly width characters: cut with '~' when longer (a column of a narrow list). */
static void put_cell(const char *s, int width, int left, int cut)
{
	int w = text_width(s);
	if (cut && w > width) {
		int k = 0;
		const char *p = s;
		for (; *p && k < width - 1; p++)
			if (((unsigned char)p[1] & 0xc0) != 0x80)
				k++;
		fwrite(s, 1, (size_t)(p - s), stdout);
		fputc('~', stdout);
		return;
	}
	if (!left)
		printf("%*s", width - w, "");
	fputs(s, stdout);
	if (left)
		printf("%*s", width - w, "");
}

static void runs_table(struct run **list, int n, int wide)
{
	int ncols = wide ? C_N : C_NARROW, width[C_N];
	char *(*cell)[C_N] = xcalloc((size_t)n + 1, sizeof *cell);
	for (int i = 0; i < n; i++)
		run_cells(list[i], cell[i], wide);
	for (int c = 0; c < ncols; c++) {
		width[c] = wide || !cols[c].width ? text_width(cols[c].head) : cols[c].width;
		for (int i = 0; i < n && (wide || !cols[c].width); i++)
			if (text_width(cell[i][c]) > width[c])
				width[c] = text_width(cell[i][c]);
	}
	if (!wide) { /* the state column last, cut to what is left of 120 columns */
		int used = 0;
		for (int c = 0; c < C_STATE; c++)
			used += width[c] + (c == C_DATE || c == C_HOST || c == C_LABEL ? 2 : c ? 1 : 0);
		width[C_STATE] = 120 - used - 1 > 8 ? 120 - used - 1 : 8;
	}
	for (int i = -1; i < n; i++) {
		/* the state column last and only when set: no trailing blanks */
		int last = ncols - 1;
		while (last > 0 && !*(i < 0 ? cols[last].head : cell[i][last]))
			last--;
		for (int c = 0; c <= last; c++) {
			if (c)
				fputs(c == C_DATE || c == C_HOST || c == C_LABEL ? "  " : " ", stdout);
			const char *t = i < 0 ? cols[c].head : cell[i][c];
			if (c == last && cols[c].left && (wide || text_width(t) <= width[c]))
				fputs(t, stdout); /* no trailing blanks */
			else
				put_cell(t, width[c], cols[c].left, !wide);
		}
		fputc('\n', stdout);
	}
	for (int i = 0; i < n; i++)
		for (int c = 0; c < C_N; c++)
			free(cell[i][c]);
	free(cell);
}

static void runs_json(struct run **list, int n)
{
	struct json j;
	json_init(&j, stdout, 1);
	json_doc_begin(&j, "runs");
	json_arr_begin(&j, "runs");
	for (int i = 0; i < n; i++) {
		const struct run *r = list[i];
		char build[256];
		static const char *const facts[] = { "cpu_model", "kernel", "build_cc", "build_cflags",
						     "plumb_version", "ab_session" };
		json_obj_begin(&j, NULL);
		run_json_fields(&j, r);
		json_num(&j, "duration_s", run_duration_s(r));
		json_str(&j, "scope", run_scope(r));
		json_str(&j, "arch", run_arch(r));
		json_str(&j, "build", run_build_short(r, build, sizeof build));
		for (size_t k = 0; k < sizeof facts / sizeof facts[0]; k++)
			json_str(&j, facts[k], kv_get(&r->facts, facts[k]));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', stdout);
}

struct runs_cli {
	const char *db, *del, *rel;
	struct run_filter f;
	int check, wide, json;
};

const struct opt runs_options[] = {
	OPT_STRING(0, "db", struct runs_cli, db, "FILE|URI",
		"the store: an SQLite file or a postgresql:// URI"),
	OPT_STRING(0, "host", struct runs_cli, f.host, "H", "only runs made on host H"),
	OPT_STRING(0, "label", struct runs_cli, f.label, "L", "only runs labelled L"),
	OPT_STRING(0, "since", struct runs_cli, f.since, "DATE",
		"only runs started at or after DATE (YYYY-MM-DD[THH:MM:SSZ], UTC)"),
	OPT_STRING(0, "cc", struct runs_cli, f.cc, "C",
		"only runs built by a compiler whose name or version holds C (gcc, clang, 12.2)"),
	OPT_STRING(0, "cflags", struct runs_cli, f.cflags, "F",
		"only runs built with every flag of F (\"-O2\", \"-O0 -g\")"),
	OPT_STRING(0, "arch", struct runs_cli, f.arch, "A",
		"only runs of architecture A (x86_64, aarch64, armv7l)"),
	OPT_BOOL(0, "wide", struct runs_cli, wide,
		"also CPU model, kernel and the whole compiler and flags, nothing cut"),
	OPT_BOOL(0, "json", struct runs_cli, json, "the list as one JSON document (kind \"runs\")"),
	OPT_STRING(0, "delete", struct runs_cli, del, "RUN", "delete a run and its samples"),
	OPT_STRING(0, "relabel", struct runs_cli, rel, "RUN TEXT",
		"set a run's label to TEXT (TEXT starting with '-': put it after --)"),
	OPT_BOOL(0, "check", struct runs_cli, check,
		"check the store's integrity and name every run that cannot be read"),
	OPT_END,
};

__attribute__((noreturn)) static void runs_bad(const char *cmd, const char *word, int missing)
{
	if (missing && !strcmp(word, "--relabel"))
		die(EXIT_USAGE, "--relabel needs RUN and TEXT (%s)", USAGE);
	if (missing)
		die(EXIT_USAGE, "%s needs a value (%s)", word, USAGE);
	die(EXIT_USAGE, "unknown argument '%s' (%s)", word, USAGE);
}

int cmd_runs(int argc, char **argv)
{
	struct runs_cli a = { 0 };
	static const struct command_options t = { "runs", runs_options, 0, runs_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db, *del = a.del, *rel = a.rel, *text = NULL;
	struct run_filter f = a.f;
	int check = a.check;
	char err[1024];
	/* --relabel's TEXT is the one operand (getopt gives an option one value) */
	if (rel && first == argc)
		die(EXIT_USAGE, "--relabel needs RUN and TEXT (%s)", USAGE);
	if (argc - first > (rel ? 1 : 0))
		die(EXIT_USAGE, "unknown argument '%s' (%s)", argv[rel ? first + 1 : first], USAGE);
	if (rel)
		text = argv[first];
	if (del && rel)
		die(EXIT_USAGE, "--delete and --relabel: one at a time");
	if (f.since && run_since_check(f.since, err, sizeof err))
		die(EXIT_USAGE, "--since: %s", err);
	int selects = f.host || f.label || f.since || f.cc || f.cflags || f.arch;
	if ((selects || a.wide || a.json) && (del || rel || check))
		die(EXIT_USAGE, "--host, --label, --since, --cc, --cflags, --arch, --wide and --json "
		    "list runs; not with --delete, --relabel or --check");
	if (a.wide && a.json)
		die(EXIT_USAGE, "--wide and --json: one at a time");
	struct store *s = store_open(db, del || rel ? STORE_WRITE : STORE_READ, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (check) {
		if (store_check(s, err, sizeof err))
			die(EXIT_MEASURE, "%s", err);
		/* and every run as the readers read it: what they would skip is named here */
		int bad = store_check_runs(s, say_bad, NULL, err, sizeof err);
		if (bad < 0)
			die(EXIT_MEASURE, "%s", err);
		if (bad)
			die(EXIT_MEASURE, "%s: %d run%s cannot be read (listed above); the others can",
			    store_name(s), bad, bad == 1 ? "" : "s");
		printf("%s: ok\n", store_name(s));
		store_close(s);
		return 0;
	}
	if (rel && run_text_check("the label", text, err, sizeof err))
		die(EXIT_USAGE, "--relabel: %s", err);
	if (del || rel) {
		const char *arg = del ? del : rel;
		long *ids = NULL;
		int n = ids_of(s, arg, &ids);
		if (n == 0)
			die(EXIT_USAGE, "%s: no run with this id or label", arg);
		for (int i = 0; i < n; i++) {
			if (del ? store_delete(s, ids[i], err, sizeof err)
				: store_relabel(s, ids[i], text, err, sizeof err))
				die(EXIT_USAGE, "%s", err);
			printf("%s run %ld\n", del ? "deleted" : "relabelled", ids[i]);
		}
		free(ids);
		store_close(s);
		return 0;
	}
	struct run **list = NULL;
	f.facts = 1;
	int n = store_list_where(s, &f, &list, err, sizeof err);
	if (n < 0)
		die(EXIT_USAGE, "%s", err);
	if (a.json)
		runs_json(list, n);
	else
		runs_table(list, n, a.wide);
	for (int i = 0; i < n; i++)
		run_free(list[i]);
	free(list);
	store_close(s);
	return 0;
}
