/*
 * bw_rd.h — what bw_file_rd and bw_mmap_rd share: the state of a re-read pass, the setup and
 * teardown both use, and the common front (operands, own file, checksum against the file,
 * result). Each tool gives its two modes' setup and loop.
 */
#ifndef PLUMB_BENCH_FS_BW_RD_H
#define PLUMB_BENCH_FS_BW_RD_H

#include <stddef.h>
#include <stdint.h>
#include "core/out.h"

#define RD_UNIT (64 * 1024)   /* lmbench's XFERSIZE */

struct rd {
	const char *file;
	uint64_t size;     /* bytes read per iteration */
	size_t unit;
	int fd;
	unsigned char *buf;
	const unsigned char *map;
	uint64_t pass_sum; /* sum of the last full pass: checked against the file afterwards */
	uint64_t acc;
};

/* A tool's two modes: "only" (io_only / mmap_only: the file stays open or mapped) and
 * open2close (opened, and mapped, every pass), with their metric ids. */
struct rd_modes {
	const char *only;
	int (*only_setup)(void *rd);
	void (*only_loop)(uint64_t iters, void *rd);
	int (*o2c_setup)(void *rd);
	void (*o2c_loop)(uint64_t iters, void *rd);
	const struct metric_def *metric_only, *metric_o2c; /* the rows of their metrics */
};

/* Allocate the read buffer (no descriptor yet). */
int rd_setup(void *rd);
/* Unmap, close and free what a pass left. */
void rd_teardown(void *rd);
/* The tool: "size MODE [file]", measured, checked against the file, recorded. */
int bw_rd_run(struct tool_ctx *c, int argc, char **argv, const struct rd_modes *md);

#endif
