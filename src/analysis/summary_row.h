/*
 * summary_row.h — what summary.c and summary_reduce.c share: a run reduced to the figures
 * lmbench's summary tables show (struct row, one double per figure, -1 when missing), and the
 * results each row's cells read (for the noise notes and `summary --cells`).
 */
#ifndef PLUMB_SUMMARY_ROW_H
#define PLUMB_SUMMARY_ROW_H

#include <stdio.h>
#include "results/run.h"

/* Every figure a table cell can show. */
enum fig {
	F_MHZ, F_TLB, F_LINE, F_MEMPAR, F_LOAD,
	F_SYSCALL, F_READ, F_WRITE, F_IO, F_STAT, F_OPENCLOSE, F_TCPSEL, F_SIGINST, F_SIGCATCH,
	F_FORK, F_EXEC, F_SH,
	F_INT0, F_I64_0 = F_INT0 + 5, F_FLT0 = F_I64_0 + 5, F_DBL0 = F_FLT0 + 4,
	F_CTX0_2 = F_DBL0 + 4, F_CTX16_2, F_CTX64_2, F_CTX16_8, F_CTX64_8, F_CTX16_16, F_CTX64_16,
	F_PIPE, F_UNIX, F_UDP, F_RPCUDP, F_TCP, F_RPCTCP, F_CONNECT,
	F_R_UDP, F_R_RPCUDP, F_R_TCP, F_R_RPCTCP, F_R_CONNECT,
	F_FS_C0, F_FS_D0, F_FS_C10, F_FS_D10, F_MMAP, F_PROT, F_PAGEFAULT, F_FDSEL,
	F_BW_PIPE, F_BW_UNIX, F_BW_TCP, F_REREAD, F_MMAPREAD, F_BCOPY_LIBC, F_BCOPY_HAND,
	F_MEMRD, F_MEMWR,
	F_L1, F_L2, F_MEM, F_RND,
	F_N,
};

struct row {
	const struct result *used[160]; /* the results the row's cells came from, in reading order */
	int nused;
	char host[128], os[128], desc[128];
	/* the row's run, for readers: who names it in notes ("run 12 (label v1)"), name is the
	 * short distinct name the tables show when rows share host and OS (summary.c) */
	char who[RUN_TEXT_MAX * 4 + 32], name[64];
	double v[F_N];
	const struct result *mem_res, *rnd_res; /* the Main mem / Rand mem cells of a plumb run */
};

/* Every run reduced to its row (summary_reduce.c); NULL when out of memory. */
struct row *summary_reduce_all(struct run *const *runs, size_t n);

/* What summary.c gives the document formats (summary_doc.c). rows_named sets each row's who
 * and name, and returns 1 when two rows share host and OS. */
int rows_named(struct run *const *runs, struct row *rows, size_t n);
/* The notes under the tables (memory columns, noisy cells, CPU clock), as plain text. */
void summary_notes(FILE *f, struct run *const *runs, const struct row *rows, size_t n);
/* summary_noisy.c: the noisy and caveat cells under the tables (their count and the worst) */
void summary_noisy_notes(FILE *f, const struct row *rows, size_t n);
/* Whether cell k of a row reads a result an earlier cell of the row already read. */
int summary_used_before(const struct row *r, int k);
/* summary_cond.c: a line for each run measured emulated or contended, each given to put (the
 * format's writer of one line) */
void summary_cond_lines(FILE *f, struct run *const *runs, const struct row *rows, size_t n,
			void (*put)(FILE *, const char *));
size_t summary_ntables(void);
const char *summary_table_title(size_t t);
/* Table t's value columns by name, NULL-terminated. */
const char *const *summary_table_names(size_t t);
int summary_table_shown(size_t t, const struct row *rows, size_t n);
/* Row w's cells of table t as lmbench's text prints them, blanks trimmed; "" when missing
 * (never lmbench's -1). Returns how many. */
#define SUMMARY_CELL 160
int summary_table_cells(size_t t, const struct row *w, char out[][SUMMARY_CELL], int max);

#endif
