/*
 * summary_notes.c — the lines under lmbench's summary tables that rows of several tool files
 * share (struct summary_note, core/summary_cells.h); a note of one file's rows lives in it.
 */
#include "bench/tool.h"

const struct summary_note one_cpu_note = {
	.text = "ctxsw, Pipe, AF UNIX, fork proc, TCP bandwidth: plumb's processes share one CPU; "
		"lmbench 3 leaves them to the scheduler, which may wake one on another CPU, behind "
		"what runs there (--cpu none measures that).",
	.placement = "single",
};
