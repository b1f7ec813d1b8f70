/*
 * summary_cells.h — the cells of lmbench's summary tables (its getsummary's layout), and how a
 * metric row says which of them it feeds (struct metric_def's .cells): analysis/summary.c draws
 * the tables, analysis/summary_reduce.c fills each cell from the rows that declare it, so no
 * room outside the tools' files names a metric to find a cell's figure.
 */
#ifndef PLUMB_SUMMARY_CELLS_H
#define PLUMB_SUMMARY_CELLS_H

/* Every figure a table cell can show. SUM_INT0 + k (k < 5) are lmbench's integer bit, add,
 * mul, div, mod; SUM_I64_0 + k the same for int64; SUM_FLT0 + k and SUM_DBL0 + k (k < 4) add,
 * mul, div, bogomflops. */
enum summary_cell {
	SUM_MHZ, SUM_TLB, SUM_LINE, SUM_MEMPAR, SUM_LOAD,
	SUM_SYSCALL, SUM_READ, SUM_WRITE, SUM_IO, SUM_STAT, SUM_OPENCLOSE, SUM_TCPSEL,
	SUM_SIGINST, SUM_SIGCATCH, SUM_FORK, SUM_EXEC, SUM_SH,
	SUM_INT0, SUM_I64_0 = SUM_INT0 + 5, SUM_FLT0 = SUM_I64_0 + 5, SUM_DBL0 = SUM_FLT0 + 4,
	SUM_CTX0_2 = SUM_DBL0 + 4, SUM_CTX16_2, SUM_CTX64_2, SUM_CTX16_8, SUM_CTX64_8,
	SUM_CTX16_16, SUM_CTX64_16,
	SUM_PIPE, SUM_UNIX, SUM_UDP, SUM_RPCUDP, SUM_TCP, SUM_RPCTCP, SUM_CONNECT,
	SUM_R_UDP, SUM_R_RPCUDP, SUM_R_TCP, SUM_R_RPCTCP, SUM_R_CONNECT,
	SUM_FS_C0, SUM_FS_D0, SUM_FS_C10, SUM_FS_D10, SUM_MMAP, SUM_PROT, SUM_PAGEFAULT,
	SUM_FDSEL,
	SUM_BW_PIPE, SUM_BW_UNIX, SUM_BW_TCP, SUM_REREAD, SUM_MMAPREAD, SUM_BCOPY_LIBC,
	SUM_BCOPY_HAND, SUM_MEMRD, SUM_MEMWR,
	SUM_L1, SUM_L2, SUM_MEM, SUM_RND,
	SUM_N,
};

/* How a cell reads its row's results in a run, as lmbench's getsummary reads its file. */
enum cell_read {
	READ_NONE,     /* ends a row's list of cells */
	READ_LEVEL,    /* plumb runs: the result matching params (a cache level's latency), tried
			* before the cell's other rows; never in an lmbench file */
	READ_FIRST,    /* the first result matching params, in file order */
	READ_LAST_X,   /* the point at the largest x */
	READ_AT_X,     /* the point at x */
	READ_RATE_US,  /* READ_FIRST, a rate per second, as microseconds per operation */
	READ_UINT64,   /* READ_FIRST; from an lmbench file only its "uint64" lines */
	READ_REMOTE,   /* READ_FIRST at the run's first host that is not this one */
	READ_FAULT,    /* READ_FIRST; in plumb runs the time per fault really taken
			* (info us_per_fault), when recorded */
	READ_HEADER,   /* lmbench files: the [.lmbench_text.header: ] line; plumb runs: the
			* row's .run_fact, else its first result */
	READ_WALK,     /* a lat_mem_rd walk of the stride in params (plumb runs: the stride
			* nearest it): the point at x, or with x 0 main memory (lmbench files: the
			* last point; plumb runs: the first at 4 x the last-level cache) */
	READ_KINDS,
};

/* One cell a row feeds: .cells = { { .cell = SUM_CTX16_2, .read = READ_AT_X,
 * .params = "size=16", .x = 2 } }. params: "key=value" every one held, "!key" absent. */
struct metric_cell {
	enum summary_cell cell;
	enum cell_read read;
	const char *params;
	double x;
};
/* The most cells one row feeds (lat_ctx.switch: seven). */
#define METRIC_CELLS 7

/* A line under the tables when a plumb run measured a row's cells otherwise than lmbench 3
 * (struct metric_def's .summary_note): printed once however many rows share it, when a result
 * of the row's current method version fed a cell and, with .placement, the result's
 * "placement" parameter begins with it ("single": the processes shared one CPU). The notes
 * follow the tables: by the first cell any of their rows feeds. */
struct summary_note {
	const char *text;
	const char *placement;
};

#endif
