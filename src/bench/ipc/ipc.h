/*
 * ipc.h — what the local IPC latency tools share (ipc.c): the state of a round trip with an
 * echo process, the helper forked and placed as helper 1 (by default on the measuring
 * process's CPU, see cpu.h), killed and reaped in teardown, and the tools' common front.
 */
#ifndef PLUMB_BENCH_IPC_H
#define PLUMB_BENCH_IPC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/opts.h"
#include "core/out.h"
#include "core/timing.h"

struct ipc {
	const char *dir;       /* private directory (fifo, fcntl) */
	size_t msize;          /* bytes each way */
	char *buf;
	int wfd, rfd;          /* our ends */
	int lockfd;            /* fcntl */
	unsigned k;            /* fcntl: position in the three-lock rotation */
	int semid, semidx;     /* sem: the set, and this copy's first semaphore */
	pid_t child;
	struct timing_ctx *timing; /* the measurement's: where the helper goes (set by ipc_run) */
};

/* The helper: send back whatever arrives, until EOF or death. */
__attribute__((noreturn)) void ipc_echo(int rfd, int wfd, char *buf, size_t n);
/* One round trip of msize bytes; exit 3 when the echo process is gone. */
void ipc_roundtrip(struct ipc *s);
/* The timed loop of lat_pipe, lat_unix, lat_fifo. */
void ipc_loop_echo(uint64_t n, void *s);
/* Kill and reap the helper. */
void ipc_teardown_child(struct ipc *s);
/* Close our ends, then ipc_teardown_child. */
void ipc_teardown_echo(void *s);
/* Fork the helper (placed as helper 1 of s's measurement); -1 with a warning on failure. */
pid_t ipc_fork_helper(struct ipc *s);
/* Measure op on s (one helper) and record metric, ops hand-offs per iteration. */
int ipc_run(struct tool_ctx *c, struct ipc *s, struct bench_op *op, const char *metric,
	    const char *params, double ops);
/* Usage error on any operand. */
void ipc_no_operands(struct tool_ctx *c, struct operands args);
/* A private directory under --fsdir (exit 3 when it cannot be made). */
char *ipc_tool_dir(struct tool_ctx *c);
/* The one byte lat_pipe and lat_fifo send. */
extern char ipc_one_byte[1];

#endif
