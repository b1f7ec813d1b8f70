/*
 * summary.c — lmbench's summary tables (its getsummary script, behind `make see`) from runs.
 *
 * Two steps: each run is reduced to the figures lmbench's tables show (summary_reduce.c,
 * from the cells each metric row declares it feeds: .cells), then tables[] below, one
 * description per table (its header lines, the figures whose presence prints a row, and each cell: the figure, the
 * number format and the width), is printed by one printer with lmbench's gating, column widths
 * and number formatting (lmbench 3's scripts/getsummary). The memory
 * table's "Guesses" column is the one printed by its own function.
 *
 * "Main mem" and "Rand mem" are what lmbench's columns are, not a DRAM latency each: "Main mem"
 * is the sequential stride-128 walk, which prefetchers follow; "Rand mem" is a random walk that
 * on small pages also pays TLB misses. For plumb runs, lines under the memory table say so and
 * give the random and block-random figures of the run (mem_notes); lmbench files get lmbench's
 * tables alone. Differences from lmbench, on purpose: values below 0.001 in columns narrower
 * than 6 print as a short exponent instead of lmbench's literal "%4.-2e", and a duplicated line
 * in one file does not shift the rows of later files.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "analysis/summary_row.h"
#include "core/escape.h"
#include "core/metrics.h"
#include "core/result.h"
#include "results/run_ident.h"

/* ---- lmbench's number formatting ---------------------------------------------------------- */

typedef char cell[64];

/* num(v, w): blank when missing or <= 0; K and M suffixes above 10^4 and 10^7; one decimal above
 * 10; exponent below 0.001; else w-2 decimals. The row's %W.Ws truncates afterwards; a K or M
 * figure is fitted first (lmbench cut 21234 to "21.K"): its decimal dropped, or the next
 * suffix taken, so the cell reads as the number it is ("21K", "1.2M"). */
static char *num(cell c, double v, int w)
{
	char t[64];
	if (!(v > 0) || isinf(v)) {
		snprintf(c, sizeof(cell), "%*s", w, "");
	} else if (v >= 1e7 || v >= 1e4) {
		static const char suffix[] = "KMGT";
		int k = v >= 1e7;
		double x = k ? v / 1e6 : v / 1e3;
		snprintf(t, sizeof t, "%.1f", x);
		while ((int)strlen(t) > w - 1) {
			snprintf(t, sizeof t, "%.0f", x);
			if ((int)strlen(t) <= w - 1 || !suffix[k + 1])
				break;
			x /= 1e3;
			k++;
			snprintf(t, sizeof t, "%.1f", x);
		}
		snprintf(c, sizeof(cell), "%*.*s%c", w - 1, w - 1, t, suffix[k]);
	} else if (v >= 10) {
		snprintf(t, sizeof t, "%.1f", v);
		snprintf(c, sizeof(cell), "%*.*s", w, w, t);
	} else if (v < 0.001) {
		if (w >= 6) {
			snprintf(c, sizeof(cell), "%*.*e", w, w - 6, v);
		} else {
			/* lmbench printed its invalid format here; print the value in w characters */
			snprintf(t, sizeof t, "%.0e", v);
			char *e = strstr(t, "e-0");
			if ((int)strlen(t) > w && e)
				memmove(e + 2, e + 3, strlen(e + 3) + 1);
			snprintf(c, sizeof(cell), "%*s", w, t);
		}
	} else {
		snprintf(c, sizeof(cell), "%*.*f", w, w - 2, v);
	}
	return c;
}

static char *inum(cell c, double v, int w)
{
	if (!(v > 0) || v > 2e9)
		snprintf(c, sizeof(cell), "%*s", w, "");
	else
		snprintf(c, sizeof(cell), "%*d", w, (int)v);
	return c;
}

static char *snum(cell c, double v, int w, double load)
{
	return load > 1 ? num(c, -1, w) : num(c, v, w);
}

/* ---- the tables --------------------------------------------------------------------------- */

/* How a cell prints its figure: lmbench's num(), its integer form, num() left blank under load
 * (a scaled run's figure is not comparable: lmbench blanks it), the Mhz as "%4.0f" (never
 * truncated), the run's description. */
enum fmt { NUM, INUM, SNUM, FIX0, DESC };

/* One cell: figure fig formatted in w characters, printed in pw (lmbench's %PW.PWs; 0: w). */
struct cell_spec {
	enum summary_cell fig;
	enum fmt fmt;
	int w, pw;
};

#define NO_FIG (-1)
#define MAX_CELLS 12

/* One table: its header lines; the figures of which one present (> 0) prints a row (lmbench's
 * gate, ended by NO_FIG); the text before the first cell; the cells (after "host os ", one
 * blank between cells), or print: a row printed by its own function. */
struct table {
	const char *const *head;
	int gate[MAX_CELLS + 1];
	const char *lead;
	struct cell_spec cells[MAX_CELLS];
	int ncells;
	void (*print)(FILE *f, const struct row *w, int named);
};

static const char *const h_basic[] = {
	"Basic system parameters",
	"------------------------------------------------------------------------------",
	"Host                 OS Description              Mhz  tlb  cache  mem   scal",
	"                                                     pages line   par   load",
	"                                                           bytes  ",
	"--------- ------------- ----------------------- ---- ----- ----- ------ ----", NULL };
static const char *const h_proc[] = {
	"Processor, Processes - times in microseconds - smaller is better",
	"------------------------------------------------------------------------------",
	"Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  ",
	"                             call  I/O stat clos TCP  inst hndl proc proc proc",
	"--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----", NULL };
static const char *const h_int[] = {
	"Basic integer operations - times in nanoseconds - smaller is better",
	"-------------------------------------------------------------------",
	"Host                 OS  intgr intgr  intgr  intgr  intgr  ",
	"                          bit   add    mul    div    mod   ",
	"--------- ------------- ------ ------ ------ ------ ------ ", NULL };
static const char *const h_i64[] = {
	"Basic uint64 operations - times in nanoseconds - smaller is better",
	"------------------------------------------------------------------",
	"Host                 OS int64  int64  int64  int64  int64  ",
	"                         bit    add    mul    div    mod   ",
	"--------- ------------- ------ ------ ------ ------ ------ ", NULL };
static const char *const h_flt[] = {
	"Basic float operations - times in nanoseconds - smaller is better",
	"-----------------------------------------------------------------",
	"Host                 OS  float  float  float  float",
	"                         add    mul    div    bogo",
	"--------- ------------- ------ ------ ------ ------ ", NULL };
static const char *const h_dbl[] = {
	"Basic double operations - times in nanoseconds - smaller is better",
	"------------------------------------------------------------------",
	"Host                 OS  double double double double",
	"                         add    mul    div    bogo",
	"--------- ------------- ------  ------ ------ ------ ", NULL };
static const char *const h_ctx[] = {
	"Context switching - times in microseconds - smaller is better",
	"-------------------------------------------------------------------------",
	"Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K",
	"                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw",
	"--------- ------------- ------ ------ ------ ------ ------ ------- -------", NULL };
static const char *const h_lat[] = {
	"*Local* Communication latencies in microseconds - smaller is better",
	"---------------------------------------------------------------------",
	"Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP",
	"                        ctxsw       UNIX         UDP         TCP conn",
	"--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----", NULL };
static const char *const h_rem[] = {
	"*Remote* Communication latencies in microseconds - smaller is better",
	"---------------------------------------------------------------------",
	"Host                 OS   UDP  RPC/  TCP   RPC/ TCP",
	"                               UDP         TCP  conn",
	"--------- ------------- ----- ----- ----- ----- ----", NULL };
static const char *const h_fs[] = {
	"File & VM system latencies in microseconds - smaller is better",
	"-------------------------------------------------------------------------------",
	"Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd",
	"                        Create Delete Create Delete Latency Fault  Fault  selct",
	"--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----", NULL };
static const char *const h_bw[] = {
	"*Local* Communication bandwidths in MB/s - bigger is better",
	"-----------------------------------------------------------------------------",
	"Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem",
	"                             UNIX      reread reread (libc) (hand) read write",
	"--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----", NULL };
static const char *const h_mem[] = {
	"Memory latencies in nanoseconds - smaller is better",
	"    (WARNING - may not be correct, check graphs)",
	"------------------------------------------------------------------------------",
	"Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses",
	"--------- -------------   ---   ----   ----    --------    --------    -------", NULL };

/* lmbench's "same": within 20 % of the larger (its comment says 10 %). */
static int same(double a, double b)
{
	double m = a > b ? a : b;
	return a > 0 && b > 0 && fabs(a - b) / m <= 0.2;
}
/* The row's OS column: its OS, or its run's name when rows share host and OS. */
static const char *os_col(const struct row *w, int named)
{
	return named ? w->name : w->os;
}

/* lmbench's "Guesses" column: "" when it has none. */
static const char *mem_guess(const double *v)
{
	if (!same(v[SUM_L1], v[SUM_L2]) && same(v[SUM_L2], v[SUM_MEM]))
		return "No L2 cache?";
	return same(v[SUM_L1], v[SUM_L2]) ? "No L1 cache?" : "";
}

static void p_mem(FILE *f, const struct row *w, int named)
{
	const double *v = w->v;
	cell c[4];
	fprintf(f, "%-9.9s %13.13s  %4d", w->host, os_col(w, named), (int)v[SUM_MHZ]);
	if (v[SUM_L1] < 0 && !(v[SUM_L2] > 0 || v[SUM_MEM] > 0)) {
		/* no memory figure at all: the row is there so that rows match, blank */
		fputc('\n', f);
		return;
	}
	if (v[SUM_L1] < 0) {
		fprintf(f, "%6s %6s %11s    %s\n", "-", "-", "-", "Bad mhz?");
		return;
	}
	fprintf(f, " %6.6s %6.6s %6.6s %11.11s", num(c[0], v[SUM_L1], 6), num(c[1], v[SUM_L2], 6),
		num(c[2], v[SUM_MEM], 6), num(c[3], v[SUM_RND], 6));
	if (*mem_guess(v))
		fprintf(f, "    %s", mem_guess(v));
	fputc('\n', f);
}

#define C(fig, fmt, w) { fig, fmt, w, 0 }
#define FOUR(b) b, b + 1, b + 2, b + 3
#define FOUR_OPS(b) C(b, SNUM, 6), C(b + 1, SNUM, 6), C(b + 2, SNUM, 6), C(b + 3, SNUM, 6)

static const struct table tables[] = {
	{ h_basic, { SUM_TLB, SUM_LINE, SUM_MEMPAR, NO_FIG }, "",
	  { C(SUM_MHZ, DESC, 23), C(SUM_MHZ, INUM, 4), C(SUM_TLB, INUM, 5), C(SUM_LINE, INUM, 5),
	    C(SUM_MEMPAR, NUM, 6), C(SUM_LOAD, INUM, 4) }, 6, NULL },
	{ h_proc, { SUM_SYSCALL, SUM_READ, SUM_WRITE, SUM_STAT, SUM_OPENCLOSE, SUM_TCPSEL,
		    SUM_SIGINST, SUM_SIGCATCH, SUM_FORK, SUM_EXEC, SUM_SH, NO_FIG }, "",
	  { C(SUM_MHZ, FIX0, 4), C(SUM_SYSCALL, NUM, 4), C(SUM_IO, NUM, 4), C(SUM_STAT, NUM, 4),
	    C(SUM_OPENCLOSE, NUM, 4), C(SUM_TCPSEL, NUM, 4), C(SUM_SIGINST, NUM, 4),
	    C(SUM_SIGCATCH, NUM, 4), C(SUM_FORK, NUM, 4), C(SUM_EXEC, NUM, 4),
	    C(SUM_SH, NUM, 4) }, 11, NULL },
	{ h_int, { FOUR(SUM_INT0), SUM_INT0 + 4, NO_FIG }, "",
	  { FOUR_OPS(SUM_INT0), C(SUM_INT0 + 4, SNUM, 6) }, 5, NULL },
	/* lmbench printed the int64 table's first cell in 5 characters after a blank */
	{ h_i64, { FOUR(SUM_I64_0), SUM_I64_0 + 4, NO_FIG }, " ",
	  { { SUM_I64_0, SNUM, 6, 5 }, C(SUM_I64_0 + 1, SNUM, 6), C(SUM_I64_0 + 2, SNUM, 6),
	    C(SUM_I64_0 + 3, SNUM, 6), C(SUM_I64_0 + 4, SNUM, 6) }, 5, NULL },
	{ h_flt, { FOUR(SUM_FLT0), NO_FIG }, "", { FOUR_OPS(SUM_FLT0) }, 4, NULL },
	{ h_dbl, { FOUR(SUM_DBL0), NO_FIG }, "", { FOUR_OPS(SUM_DBL0) }, 4, NULL },
	{ h_ctx, { SUM_CTX0_2, SUM_CTX16_2, SUM_CTX64_2, SUM_CTX16_8, SUM_CTX64_8, SUM_CTX16_16,
		   SUM_CTX64_16, NO_FIG }, "",
	  { C(SUM_CTX0_2, NUM, 6), C(SUM_CTX16_2, NUM, 6), C(SUM_CTX64_2, NUM, 6),
	    C(SUM_CTX16_8, NUM, 6), C(SUM_CTX64_8, NUM, 6), C(SUM_CTX16_16, NUM, 7),
	    C(SUM_CTX64_16, NUM, 7) }, 7, NULL },
	{ h_lat, { SUM_CTX0_2, SUM_PIPE, SUM_UNIX, SUM_UDP, SUM_RPCUDP, SUM_TCP, SUM_RPCTCP,
		   SUM_CONNECT, NO_FIG }, "",
	  { C(SUM_CTX0_2, NUM, 5), C(SUM_PIPE, NUM, 5), C(SUM_UNIX, NUM, 4), C(SUM_UDP, NUM, 5),
	    C(SUM_RPCUDP, NUM, 5), C(SUM_TCP, NUM, 5), C(SUM_RPCTCP, NUM, 5),
	    { SUM_CONNECT, SNUM, 5, 4 } }, 8, NULL },
	{ h_rem, { SUM_R_UDP, SUM_R_RPCUDP, SUM_R_TCP, SUM_R_RPCTCP, SUM_R_CONNECT, NO_FIG }, "",
	  { C(SUM_R_UDP, NUM, 5), C(SUM_R_RPCUDP, NUM, 5), C(SUM_R_TCP, NUM, 5),
	    C(SUM_R_RPCTCP, NUM, 5), C(SUM_R_CONNECT, SNUM, 4) }, 5, NULL },
	{ h_fs, { SUM_FS_C0, SUM_FS_D0, SUM_FS_C10, SUM_FS_D10, SUM_MMAP, SUM_PROT, SUM_PAGEFAULT,
		  NO_FIG }, "",
	  { C(SUM_FS_C0, SNUM, 6), C(SUM_FS_D0, SNUM, 6), C(SUM_FS_C10, SNUM, 6),
	    C(SUM_FS_D10, SNUM, 6), C(SUM_MMAP, NUM, 7), C(SUM_PROT, NUM, 5),
	    C(SUM_PAGEFAULT, NUM, 7), C(SUM_FDSEL, NUM, 5) }, 8, NULL },
	{ h_bw, { SUM_BW_PIPE, SUM_BW_UNIX, SUM_BW_TCP, SUM_REREAD, SUM_BCOPY_LIBC, SUM_BCOPY_HAND,
		  SUM_MEMRD, SUM_MEMWR, NO_FIG }, "",
	  { C(SUM_BW_PIPE, NUM, 4), C(SUM_BW_UNIX, NUM, 4), C(SUM_BW_TCP, NUM, 4),
	    C(SUM_REREAD, NUM, 6), C(SUM_MMAPREAD, NUM, 6), C(SUM_BCOPY_LIBC, NUM, 6),
	    C(SUM_BCOPY_HAND, NUM, 6), C(SUM_MEMRD, NUM, 4), C(SUM_MEMWR, NUM, 5) }, 9, NULL },
	{ h_mem, { SUM_L1, SUM_L2, SUM_MEM, NO_FIG }, "", { { 0 } }, 0, p_mem },
};
#define MEM_TABLE (sizeof tables / sizeof tables[0] - 1)
#define BW_TABLE (MEM_TABLE - 1)
#define NTABLES (sizeof tables / sizeof tables[0])

/* Each table's value columns by name, for the document formats (summary_doc.c). */
static const char *const col_names[][MAX_CELLS + 1] = {
	{ "Description", "Mhz", "tlb pages", "cache line bytes", "mem par", "scal load", NULL },
	{ "Mhz", "null call", "null I/O", "stat", "open clos", "slct TCP", "sig inst", "sig hndl",
	  "fork proc", "exec proc", "sh proc", NULL },
	{ "intgr bit", "intgr add", "intgr mul", "intgr div", "intgr mod", NULL },
	{ "int64 bit", "int64 add", "int64 mul", "int64 div", "int64 mod", NULL },
	{ "float add", "float mul", "float div", "float bogo", NULL },
	{ "double add", "double mul", "double div", "double bogo", NULL },
	{ "2p/0K ctxsw", "2p/16K ctxsw", "2p/64K ctxsw", "8p/16K ctxsw", "8p/64K ctxsw",
	  "16p/16K ctxsw", "16p/64K ctxsw", NULL },
	{ "2p/0K ctxsw", "Pipe", "AF UNIX", "UDP", "RPC/UDP", "TCP", "RPC/TCP", "TCP conn", NULL },
	{ "UDP", "RPC/UDP", "TCP", "RPC/TCP", "TCP conn", NULL },
	{ "0K File Create", "0K File Delete", "10K File Create", "10K File Delete", "Mmap Latency",
	  "Prot Fault", "Page Fault", "100fd selct", NULL },
	{ "Pipe", "AF UNIX", "TCP", "File reread", "Mmap reread", "Bcopy (libc)", "Bcopy (hand)",
	  "Mem read", "Mem write", NULL },
	{ "Mhz", "L1 $", "L2 $", "Main mem", "Rand mem", "Guesses", NULL },
};
_Static_assert(sizeof col_names / sizeof col_names[0] == NTABLES, "a name list per table");

/* lmbench's gate: a row prints when one of the table's gate figures is present. */
static int row_shown(const struct table *t, const struct row *w)
{
	for (int i = 0; t->gate[i] != NO_FIG; i++)
		if (w->v[t->gate[i]] > 0)
			return 1;
	return 0;
}

/* lmbench's gate, for the table: shown when a row of it is. */
static int table_shown(const struct table *t, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (row_shown(t, &rows[i]))
			return 1;
	return 0;
}

/* Rows name their run in the OS column when two share host and OS (rows_named): the heading
 * says so, "Run" where lmbench wrote "OS". */
static void header(FILE *f, int first, const char *const *lines, int named)
{
	if (!first)
		fputc('\n', f);
	for (int i = 0; lines[i]; i++) {
		const char *os = strncmp(lines[i], "Host ", 5) ? NULL : strstr(lines[i], " OS");
		if (named && os)
			fprintf(f, "%.*sRun%s\n", (int)(os - lines[i]), lines[i], os + 3);
		else
			fprintf(f, "%s\n", lines[i]);
	}
}


/* The printer: "host os ", then every cell. */
static void print_row(FILE *f, const struct table *t, const struct row *w, int named)
{
	if (t->print) {
		t->print(f, w, named);
		return;
	}
	fprintf(f, "%-9.9s %13.13s ", w->host, os_col(w, named));
	for (int i = 0; i < t->ncells; i++) {
		const struct cell_spec *c = &t->cells[i];
		double v = w->v[c->fig];
		int pw = c->pw ? c->pw : c->w;
		cell s;
		switch (c->fmt) {
		case NUM: num(s, v, c->w); break;
		case INUM: inum(s, v, c->w); break;
		case SNUM: snum(s, v, c->w, w->v[SUM_LOAD]); break;
		case FIX0: snprintf(s, sizeof s, "%*.0f", c->w, v); pw = (int)strlen(s); break;
		case DESC: snprintf(s, sizeof s, "%s", w->desc); break;
		}
		fprintf(f, "%s%*.*s", i ? " " : t->lead, pw, pw, s);
	}
	fputc('\n', f);
}

/* A fact of a result: from its info (a run's step facts join each result), else the run's. The
 * blanks the info format replaced with '_' come back. */
static int res_fact(const struct run *r, const struct result *p, const char *key, char *buf,
		    size_t len)
{
	const char *v = NULL;
	if (!(p && param_get(p->info, key, buf, len))) {
		if (!(v = kv_get(&r->facts, key)))
			return 0;
		snprintf(buf, len, "%s", v);
	}
	for (char *c = buf; *c; c++)
		if (*c == '_')
			*c = ' ';
	return 1;
}

/* Under the memory table (plumb runs only: an lmbench file's summary stays lmbench's), one line
 * each saying what "Main mem" and "Rand mem" are, then each run's random and block-random
 * figures: the columns are lmbench's, neither is simply "the DRAM latency". */
static void mem_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < n; i++)
		any |= (rows[i].mem_res || rows[i].rnd_res) && row_shown(&tables[MEM_TABLE], &rows[i]);
	if (!any)
		return;
	fprintf(f, "\nMain mem: lat_mem_rd's sequential walk, stride 128, in address order: "
		   "prefetched, nearer a bandwidth than a load's latency.\n");
	fprintf(f, "Rand mem: lat_mem_rd -t, a random walk through every line of the size: on "
		   "small pages (below) TLB misses included.\n");
	for (size_t i = 0; i < n; i++) {
		const struct result *p = rows[i].rnd_res;
		char pg[96] = "", blk[160] = "";
		if (!p)
			continue;
		if (!res_fact(runs[i], p, "page_size", pg, sizeof pg))
			snprintf(pg, sizeof pg, "unknown");
		fprintf(f, "  %-9.9s %s: random %.1f ns at %g MiB, pages ", rows[i].host, rows[i].who,
			p->value, p->x);
		term_fputs(f, pg);
		if (res_fact(runs[i], p, "block_chase_ns", blk, sizeof blk)) {
			fputs("; block-random ", f);
			term_fputs(f, blk);
		}
		fputc('\n', f);
	}
}

/* The first cell, in the tables' order, that a row declaring note feeds; *first gets the first
 * such row in the registry. */
static int note_rank(const struct summary_note *note, const struct metric_def **first)
{
	int rank = SUM_N;
	const struct metric_def *d;
	*first = NULL;
	for (int i = 0; (d = metric_at(i)) != NULL; i++) {
		if (d->summary_note == note && !*first)
			*first = d;
		for (int c = 0; d->summary_note == note && c < METRIC_CELLS && d->cells[c].read; c++)
			rank = (int)d->cells[c].cell < rank ? (int)d->cells[c].cell : rank;
	}
	return rank;
}

/* Whether a result that fed a cell is measured as its row's note says: the row's current
 * method (lmbench files are method 0, --lmbench-loop one more) and the note's placement. */
static int note_applies(const struct result *p, const struct summary_note *note)
{
	const struct metric_def *d = metric_find(p->metric);
	char pl[64];
	if (!d || d->summary_note != note || p->version != d->version)
		return 0;
	return !note->placement || (param_get(p->info, "placement", pl, sizeof pl) &&
				    strncmp(pl, note->placement, strlen(note->placement)) == 0);
}

/* Under the tables, the line of each note (core/summary_cells.h) a plumb run's cells call for,
 * in the order of the tables. */
static void lm_note_lines(FILE *f, const struct row *rows, size_t n)
{
	const struct metric_def *d, *first;
	for (int rank = 0, lines = 0; rank < SUM_N; rank++)
		for (int i = 0; (d = metric_at(i)) != NULL; i++) {
			const struct summary_note *note = d->summary_note;
			int any = 0;
			if (!note || note_rank(note, &first) != rank || first != d)
				continue;
			for (size_t r = 0; r < n && !any; r++)
				for (int k = 0; k < rows[r].nused && !any; k++)
					any = note_applies(rows[r].used[k], note);
			if (any)
				fprintf(f, "%s%s\n", lines++ ? "" : "\n", note->text);
		}
}

/* Under the tables, what the CPU clock did during each plumb run that watched it (suite/clock_watch.h):
 * on a shared host it moves every CPU-bound cell with it. Imported files have no such facts. */
static void clock_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		const char *med = kv_get(&runs[i]->facts, "clock_mhz");
		const char *lo = kv_get(&runs[i]->facts, "clock_mhz_p5");
		const char *hi = kv_get(&runs[i]->facts, "clock_mhz_p95");
		const char *sp = kv_get(&runs[i]->facts, "clock_spread_pct");
		if (!med || !lo || !hi || !sp)
			continue;
		if (!any++)
			fprintf(f, "\nCPU clock during the run (read before every step; 5th-95th percentile):\n");
		char m[32], l[32], h[32], p[32];
		fprintf(f, "  %-9.9s %s: %s MHz median, %s-%s MHz (%s%%)%s\n", rows[i].host,
			rows[i].who, term_str(med, m, sizeof m), term_str(lo, l, sizeof l), term_str(hi, h, sizeof h),
			term_str(sp, p, sizeof p),
			atof(sp) > CLOCK_SPREAD_WARN ? ": CPU-bound cells move with it from run to run" : "");
	}
}

static void cond_line(FILE *f, const char *line)
{
	fputs("Note: ", f);
	term_fputs(f, line);
	fputs(".\n", f);
}

void summary_print(FILE *f, struct run *const *runs, size_t n)
{
	struct row *rows = summary_reduce_all(runs, n);
	if (!rows)
		return;
	fprintf(f, "\n%17s%s\n%17s%s\n\t\t %s\n\n", "", "L M B E N C H  3 . 0   S U M M A R Y",
		"", "------------------------------------", "(Alpha software, do not distribute)");
	int named = rows_named(runs, rows, n);
	summary_cond_lines(f, runs, rows, n, cond_line); /* emulated, contended: before the tables */
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		if (!table_shown(&tables[t], rows, n))
			continue;
		/* lmbench's blank line before every table but the first of its list, shown or not */
		header(f, t == 0, tables[t].head, named);
		/* every run's row, blank where it has no value: rows of runs match across tables */
		for (size_t i = 0; i < n; i++)
			print_row(f, &tables[t], &rows[i], named);
	}
	summary_notes(f, runs, rows, n);
	free(rows);
}

void summary_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n)
{
	lm_note_lines(f, rows, n);
	mem_notes(f, runs, rows, n);
	summary_noisy_notes(f, rows, n); /* summary_noisy.c */
	clock_notes(f, runs, rows, n);
}

/* Each row's who (notes) and name (the OS column when needed): its label when no other row
 * has it, else its run id, else its place among the arguments. Returns 1 when two rows share
 * host and OS, so that the tables must name the runs to tell them apart. */
int rows_named(struct run *const *runs, struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct row *w = &rows[i];
		const struct run *r = runs[i];
		const char *pooled = kv_get(&r->facts, "pooled_runs");
		char who[sizeof w->who];
		if (pooled && atoi(pooled) > 1)
			snprintf(who, sizeof who, "%s runs of %s pooled", pooled, r->host ? r->host : "?");
		else
			run_who(r, i, who, sizeof who);
		term_str(who, w->who, sizeof w->who);
		int unique = r->label && *r->label;
		for (size_t j = 0; j < n && unique; j++)
			unique = j == i || !runs[j]->label || strcmp(runs[j]->label, r->label) != 0;
		char name[64];
		if (unique)
			term_str(r->label, name, sizeof name);
		else if (r->id > 0)
			snprintf(name, sizeof name, "run %ld", r->id);
		else
			snprintf(name, sizeof name, "file run %zu", i + 1);
		/* cut to the column (13) and right-aligned there: a cut that collides is a run id */
		snprintf(w->name, sizeof w->name, "%s", name);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strncmp(rows[i].name, rows[j].name, 13)) {
				if (runs[i]->id > 0)
					snprintf(rows[i].name, sizeof rows[i].name, "run %ld", runs[i]->id);
				if (runs[j]->id > 0)
					snprintf(rows[j].name, sizeof rows[j].name, "run %ld", runs[j]->id);
			}
	int shared = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			shared |= !strncmp(rows[i].host, rows[j].host, 9) &&
				  !strncmp(rows[i].os, rows[j].os, 13);
	return shared;
}

/* ---- the tables for the document formats (summary_doc.c) ------------------------------------ */

size_t summary_ntables(void) { return NTABLES; }

const char *summary_table_title(size_t t) { return tables[t].head[0]; }

const char *const *summary_table_names(size_t t) { return col_names[t]; }

int summary_table_shown(size_t t, const struct row *rows, size_t n)
{
	return table_shown(&tables[t], rows, n);
}

/* s without its leading and trailing blanks, into out. */
static void trimmed(const char *s, char *out, size_t len)
{
	while (*s == ' ')
		s++;
	size_t l = strlen(s);
	while (l && s[l - 1] == ' ')
		l--;
	snprintf(out, len, "%.*s", (int)l, s);
}

int summary_table_cells(size_t t, const struct row *w, char out[][SUMMARY_CELL], int max)
{
	const struct table *tb = &tables[t];
	cell s;
	int k = 0;
	if (tb->print) { /* the memory table: Mhz, four latencies, the guess */
		const double *v = w->v;
		static const enum summary_cell mem[] = { SUM_L1, SUM_L2, SUM_MEM, SUM_RND };
		if (k < max)
			trimmed(inum(s, v[SUM_MHZ], 4), out[k++], SUMMARY_CELL);
		for (int i = 0; i < 4 && k < max; i++)
			trimmed(num(s, v[mem[i]], 6), out[k++], SUMMARY_CELL);
		if (k < max)
			snprintf(out[k++], SUMMARY_CELL, "%s", v[SUM_L1] > 0 ? mem_guess(v) : "");
		return k;
	}
	for (int i = 0; i < tb->ncells && k < max; i++) {
		const struct cell_spec *c = &tb->cells[i];
		double v = w->v[c->fig];
		if (c->fmt == DESC) {
			trimmed(w->desc, out[k++], SUMMARY_CELL);
			continue;
		}
		switch (c->fmt) {
		case NUM: num(s, v, c->w); break;
		case SNUM: snum(s, v, c->w, w->v[SUM_LOAD]); break;
		/* lmbench's %4.0f prints -1 for a missing clock; a document leaves it blank */
		default: inum(s, v, c->w); break;
		}
		trimmed(s, out[k++], SUMMARY_CELL);
	}
	return k;
}

void summary_cells(FILE *f, struct run *const *runs, size_t n)
{
	struct row *rows = summary_reduce_all(runs, n);
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < rows[i].nused; k++) {
			const struct result *p = rows[i].used[k];
			char cv[32];
			const char *caveat = result_caveat(p, cv, sizeof cv);
			if (summary_used_before(&rows[i], k))
				continue;
			/* tab-separated: every text escaped (a tab in a name shows as \t) */
			fprintf(f, "%zu\t", i);
			term_fputs(f, p->metric);
			fputc('\t', f);
			term_fputs(f, p->params);
			fprintf(f, "\t%.17g\t%.17g\t%zu\t%.3f\t", p->x, p->value, p->nsamples,
				result_noise_pct(p));
			term_fputs(f, caveat ? caveat : "-");
			fputc('\n', f);
		}
	free(rows);
}
