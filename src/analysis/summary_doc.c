/*
 * summary_doc.c — `plumb summary --format markdown|html`: lmbench's summary tables as a
 * document for a wiki or a browser (summary.h). First a facts table, one row per run: which
 * machine, clock, kernel, build and memory each row of the tables below is; then every table
 * lmbench's summary prints, as a real table (Host, Run, OS, then lmbench's columns; every run's
 * row, "-" where it has no value); then the notes summary prints under its tables, as text.
 * Every text from a run goes through the format's escaper (core/escape.h): a label cannot
 * split a row or open a tag. --format mediawiki writes the same for a board's MediaWiki (a
 * wikitable a table; markdown's pipes are not MediaWiki's): text made visible as for a
 * terminal, then the characters wikitext gives a meaning inside a line written as entities.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "analysis/summary_row.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/run_cond.h"
#include "results/run_ident.h"

#define MAX_COLS 16

struct doc {
	FILE *f;
	enum summary_format fmt;
};

/* MediaWiki: control bytes and bad UTF-8 made visible, then the characters of wikitext's
 * markup (tables, links, templates, tags, bold, headings, lists) as numeric entities. */
static void wiki_fputs(FILE *f, const char *s)
{
	char *v = esc_dup(term_fputs, s);
	for (const char *p = v; *p; p++)
		if (strchr("|!{}[]<>&'=~_", *p)) /* a cell never starts a line: -:;#* are plain */
			fprintf(f, "&#%d;", *p);
		else
			fputc(*p, f);
	free(v);
}

static void put_text(const struct doc *d, const char *s)
{
	(d->fmt == SUM_HTML ? xml_fputs : d->fmt == SUM_MEDIAWIKI ? wiki_fputs : md_fputs)(
		d->f, s && *s ? s : "-");
}

static void heading(const struct doc *d, const char *title)
{
	if (d->fmt == SUM_MEDIAWIKI) {
		fputs("\n== ", d->f);
		wiki_fputs(d->f, title);
		fputs(" ==\n", d->f);
		return;
	}
	if (d->fmt == SUM_HTML) {
		fputs("<h2>", d->f);
		xml_fputs(d->f, title);
		fputs("</h2>\n", d->f);
	} else {
		fputs("\n## ", d->f);
		md_fputs(d->f, title);
		fputs("\n\n", d->f);
	}
}

/* One table row; head: the heading row (and markdown's rule under it). */
static void table_row(const struct doc *d, const char *const *cells, int n, int head)
{
	if (d->fmt == SUM_MEDIAWIKI) {
		fputs("|-\n", d->f);
		for (int i = 0; i < n; i++) {
			fputs(i ? head ? " !! " : " || " : head ? "! " : "| ", d->f);
			put_text(d, cells[i]);
		}
		fputc('\n', d->f);
		return;
	}
	if (d->fmt == SUM_HTML) {
		fputs("<tr>", d->f);
		for (int i = 0; i < n; i++) {
			fputs(head ? "<th>" : "<td>", d->f);
			put_text(d, cells[i]);
			fputs(head ? "</th>" : "</td>", d->f);
		}
		fputs("</tr>\n", d->f);
		return;
	}
	for (int i = 0; i < n; i++) {
		fputs("| ", d->f);
		put_text(d, cells[i]);
		fputc(' ', d->f);
	}
	fputs("|\n", d->f);
	if (head) {
		for (int i = 0; i < n; i++)
			fputs("|---", d->f);
		fputs("|\n", d->f);
	}
}

static void table_begin(const struct doc *d)
{
	if (d->fmt == SUM_HTML)
		fputs("<table>\n", d->f);
	else if (d->fmt == SUM_MEDIAWIKI)
		fputs("{| class=\"wikitable\"\n", d->f);
}

static void table_end(const struct doc *d)
{
	if (d->fmt == SUM_HTML)
		fputs("</table>\n", d->f);
	else if (d->fmt == SUM_MEDIAWIKI)
		fputs("|}\n", d->f);
}

static void md_note(FILE *f, const char *line)
{
	fputs("**Note:** ", f);
	md_fputs(f, line);
	fputs(".\n\n", f);
}

static void wiki_note(FILE *f, const char *line)
{
	fputs("'''Note:''' ", f);
	wiki_fputs(f, line);
	fputs(".\n\n", f);
}

static void html_note(FILE *f, const char *line)
{
	fputs("<p><b>Note:</b> ", f);
	xml_fputs(f, line);
	fputs(".</p>\n", f);
}

/* The facts above the tables: what each row is. */
static void facts_table(const struct doc *d, struct run *const *runs, const struct row *rows,
			size_t n)
{
	static const char *const head[] = { "Run", "Host", "CPU", "MHz", "Kernel", "Arch",
					    "Compiler and flags", "Memory", "Date", "Conditions" };
	heading(d, "Machines and builds");
	summary_cond_lines(d->f, runs, rows, n, d->fmt == SUM_HTML ? html_note :
				d->fmt == SUM_MEDIAWIKI ? wiki_note : md_note);
	table_begin(d);
	table_row(d, head, 10, 1);
	for (size_t i = 0; i < n; i++) {
		const struct run *r = runs[i];
		const char *os = kv_get(&r->facts, "os"), *kern = kv_get(&r->facts, "kernel");
		const char *cc = kv_get(&r->facts, "build_cc"), *fl = kv_get(&r->facts, "build_cflags");
		const char *mem = kv_get(&r->facts, "mem_total");
		char mhz[32] = "", kernel[600] = "", build[RUN_FACT_MAX / 16] = "", memory[32] = "";
		/* measured: plumb's mhz, lmbench's [MHZ:] header, else the median of the clock
		 * plumb read before every step */
		const char *clock = kv_get(&r->facts, "clock_mhz");
		if (rows[i].v[SUM_MHZ] > 0)
			snprintf(mhz, sizeof mhz, "%.0f", rows[i].v[SUM_MHZ]);
		else if (clock && strtod(clock, NULL) > 0)
			snprintf(mhz, sizeof mhz, "%.0f", strtod(clock, NULL));
		if (os || kern)
			snprintf(kernel, sizeof kernel, "%s%s%s", os ? os : "", os && kern ? " " : "",
				 kern ? kern : "");
		if (cc || fl)
			snprintf(build, sizeof build, "%s%s%s", cc ? cc : "", cc && fl ? ", " : "",
				 fl ? fl : "");
		if (mem && strtod(mem, NULL) > 0)
			snprintf(memory, sizeof memory, "%.1f GiB", strtod(mem, NULL) / 1073741824.0);
		/* emulated: no CPU of the named architecture was measured, and the clock is the
		 * emulator's pace on the host; the cells say so rather than read as hardware */
		char emu[160], cond[320];
		const char *emulated = run_emulation(r, emu, sizeof emu);
		if (emulated && *mhz)
			snprintf(mhz + strlen(mhz), sizeof mhz - strlen(mhz), " (emulated)");
		const char *cells[] = { rows[i].who, r->host,
					emulated ? emulated : kv_get(&r->facts, "cpu_model"), mhz,
					kernel, run_arch(r), build, memory, r->started,
					run_conditions(r, cond, sizeof cond) };
		table_row(d, cells, 10, 0);
	}
	table_end(d);
}

static void lmbench_tables(const struct doc *d, const struct row *rows, size_t n)
{
	for (size_t t = 0; t < summary_ntables(); t++) {
		if (!summary_table_shown(t, rows, n))
			continue;
		heading(d, summary_table_title(t));
		const char *cells[MAX_COLS] = { "Host", "Run", "OS" };
		const char *const *names = summary_table_names(t);
		int nc = 3;
		for (int k = 0; names[k] && nc < MAX_COLS; k++)
			cells[nc++] = names[k];
		table_begin(d);
		table_row(d, cells, nc, 1);
		for (size_t i = 0; i < n; i++) {
			char vals[MAX_COLS][SUMMARY_CELL];
			int k = summary_table_cells(t, &rows[i], vals, MAX_COLS - 3);
			cells[0] = rows[i].host;
			cells[1] = rows[i].name;
			cells[2] = rows[i].os;
			for (int c = 0; c < k; c++)
				cells[3 + c] = vals[c];
			table_row(d, cells, 3 + k, 0);
		}
		table_end(d);
	}
}

/* The notes as summary prints them: indented four blanks in markdown (a code block, which
 * nothing in it can end), a <pre> in HTML. */
static void notes(const struct doc *d, struct run *const *runs, const struct row *rows, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	summary_notes(m, runs, rows, n);
	fclose(m);
	const char *p = buf;
	while (*p == '\n')
		p++;
	if (*p) {
		heading(d, "Notes");
		if (d->fmt == SUM_HTML) {
			fputs("<pre>", d->f);
			xml_fputs(d->f, p);
			fputs("</pre>\n", d->f);
		} else if (d->fmt == SUM_MEDIAWIKI) { /* a line at a time: wiki_fputs shows a LF */
			fputs("<pre>", d->f);
			for (const char *l = p; *l;) {
				size_t k = strcspn(l, "\n");
				char *line = xasprintf("%.*s", (int)k, l);
				wiki_fputs(d->f, line);
				free(line);
				fputc('\n', d->f);
				l += k + (l[k] == '\n');
			}
			fputs("</pre>\n", d->f);
		} else {
			for (const char *l = p; *l;) {
				size_t k = strcspn(l, "\n");
				fprintf(d->f, "%s%.*s\n", k ? "    " : "", (int)k, l);
				l += k + (l[k] == '\n');
			}
		}
	}
	free(buf);
}

int summary_format_parse(const char *s, enum summary_format *f)
{
	if (!strcmp(s, "text"))
		*f = SUM_TEXT;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*f = SUM_MARKDOWN;
	else if (!strcmp(s, "html"))
		*f = SUM_HTML;
	else if (!strcmp(s, "mediawiki") || !strcmp(s, "wiki"))
		*f = SUM_MEDIAWIKI;
	else
		return -1;
	return 0;
}

void summary_print_doc(FILE *f, struct run *const *runs, size_t n, enum summary_format fmt)
{
	struct row *rows = summary_reduce_all(runs, n);
	if (!rows)
		return;
	rows_named(runs, rows, n);
	struct doc d = { f, fmt };
	if (fmt == SUM_HTML)
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
		      "<title>lmbench summary</title>\n<style>table{border-collapse:collapse}"
		      "td,th{border:1px solid #bbb;padding:2px 6px}td{text-align:right}</style>"
		      "</head><body>\n<h1>lmbench summary</h1>\n", f);
	else if (fmt == SUM_MEDIAWIKI)
		fputs("= lmbench summary =\n", f);
	else
		fputs("# lmbench summary\n", f);
	facts_table(&d, runs, rows, n);
	lmbench_tables(&d, rows, n);
	notes(&d, runs, rows, n);
	if (fmt == SUM_HTML)
		fputs("</body></html>\n", f);
	free(rows);
}
