/*
 * lat_epoll.c — lat_epoll: an epoll wake-up round trip between two processes, the loop an
 * event-driven server lives on. This process writes 1 byte to a pipe that a helper waits on in
 * epoll_wait(); the helper reads it and answers over another pipe, which this process waits on
 * in epoll_wait() before reading the answer. One round trip, two epoll wake-ups, is one
 * operation. lmbench has no such tool; it is lat_pipe with each side blocked in epoll_wait()
 * instead of read().
 *
 * Both sides count their epoll_wait() calls. Level-triggered, with one byte in flight, each side
 * makes exactly one call per round trip: at teardown the helper reports its count and a count
 * that differs from the round trips made is an error (exit 3), not a number.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include "bench/ipc/ipc.h"
#include "bench/tool.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_EPOLL_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct ep {
	struct ipc s;          /* the pipes' ends, the helper, its placement */
	int epfd;              /* ours, watching s.rfd */
	uint64_t trips;        /* round trips made by this process (every pass: calibration too) */
	uint64_t waits;        /* our epoll_wait() calls that returned */
	uint64_t helper_waits; /* the helper's, reported at teardown (its last, for EOF, not counted) */
};

/* One epoll instance watching fd for input; -1 on failure (errno set). */
static int ep_watch(int fd)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
	if (ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
		int e = errno;
		close(ep);
		errno = e;
		return -1;
	}
	return ep;
}

/* Block in epoll_wait() until ep's descriptor is ready; the events seen, -1 on an error. */
static int ep_wait(int ep, uint64_t *count)
{
	struct epoll_event ev;
	int n;
	while ((n = epoll_wait(ep, &ev, 1, -1)) < 0 && errno == EINTR)
		;
	if (n > 0)
		(*count)++;
	return n;
}

/* The helper: wait in epoll_wait(), read the byte, send it back; at EOF report the calls. */
__attribute__((noreturn)) static void ep_echo(int rfd, int wfd)
{
	int ep = ep_watch(rfd);
	if (ep < 0)
		_exit(1);
	uint64_t waits = 0;
	char b;
	for (;;) {
		if (ep_wait(ep, &waits) != 1 || read(rfd, &b, 1) != 1)
			break;
		if (write(wfd, &b, 1) != 1)
			_exit(1);
	}
	waits--; /* the wake-up that saw the end of the input */
	if (write_in_full(wfd, &waits, sizeof waits))
		_exit(1);
	_exit(0);
}

static void ep_roundtrip(struct ep *e)
{
	char b = 0;
	if (write(e->s.wfd, &b, 1) != 1 || ep_wait(e->epfd, &e->waits) != 1 ||
	    read(e->s.rfd, &b, 1) != 1)
		die(EXIT_MEASURE, "the epoll helper is gone (%s)", errno ? strerror(errno) : "EOF");
	e->trips++;
}

static void ep_loop(uint64_t n, void *a)
{
	struct ep *e = a;
	for (uint64_t i = 0; i < n; i++)
		ep_roundtrip(e);
}

static int ep_setup(void *a)
{
	struct ep *e = a;
	int to[2], from[2];
	if (pipe(to) || pipe(from)) {
		warnx_("pipe: %s", strerror(errno));
		return -1;
	}
	if ((e->s.child = ipc_fork_helper(&e->s)) < 0)
		return -1;
	if (e->s.child == 0) {
		close(to[1]);
		close(from[0]);
		ep_echo(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	e->s.wfd = to[1];
	e->s.rfd = from[0];
	if ((e->epfd = ep_watch(e->s.rfd)) < 0) {
		warnx_("epoll: %s", strerror(errno));
		return -1;
	}
	e->trips = e->waits = 0;
	ep_roundtrip(e); /* warm-up, and proof the helper runs */
	return 0;
}

/* Close our end of the input: the helper sees EOF, reports its calls and exits. */
static void ep_teardown(void *a)
{
	struct ep *e = a;
	close(e->s.wfd);
	close(e->epfd);
	uint64_t hw = 0;
	int got = read_in_full(e->s.rfd, &hw, sizeof hw) == 0;
	close(e->s.rfd);
	ipc_teardown_child(&e->s);
	if (!got)
		die(EXIT_MEASURE, "the epoll helper did not report its wake-ups");
	e->helper_waits = hw;
	if (hw != e->trips || e->waits != e->trips)
		die(EXIT_MEASURE, "%llu round trips but %llu epoll wake-ups here and %llu in the "
		    "helper: not one wake-up a side per round trip",
		    (unsigned long long)e->trips, (unsigned long long)e->waits,
		    (unsigned long long)hw);
}

static int lat_epoll(struct tool_ctx *c, int argc, char **argv)
{
	ipc_no_operands(c, options_parse(c, argc, argv, NULL));
	struct ep e = { .s = { .msize = 1, .buf = ipc_one_byte, .timing = &c->timing }, .epfd = -1 };
	struct bench_op op = { .setup = ep_setup, .loop = ep_loop, .teardown = ep_teardown,
			       .arg = &e, .helpers = 1 };
	struct result *r = measure_latency(c, &op, metrics[ROW_LAT_EPOLL_LATENCY].id, "", NAN, 1);
	if (!r)
		return EXIT_MEASURE;
	/* the measuring process's counts (with -P the copies measure in children: none here) */
	if (e.trips > 0)
		result_add_info(r, "round_trips=%llu helper_wakeups=%llu",
				(unsigned long long)e.trips, (unsigned long long)e.helper_waits);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_epoll", lat_epoll, 0, NULL, "",
	     "epoll wake-up round trip (1 byte over pipes) with a helper process",
	     "Each side waits in epoll_wait() for the other's byte: one round trip, two wake-ups.\n"
	     "Not in lmbench (the same round trip as lat_pipe, each side blocked in epoll_wait()\n"
	     "instead of read()); exit 3 when a side did not wake exactly once per round trip."),
	{ 0 },
};

/* Noise measured on this tool (bench/README.md, "Steady figures"): 12 default runs of
 * `plumb run --only lat_epoll,lat_pipe` (12 rounds each) on the 2-vCPU guest at load 8-9,
 * `bench/sys/steady_noise.py`: batch mean s_w 40.7 %, s_b 20.1 %, run effect 16.4 % -> run at 3
 * rounds 36 %, effect 20.5 %; steady 23.0 / 12.5 / 10.6 % -> 21.5 %, 13.5 % (x 1.25, as the
 * rule says); 11 degrees of freedom. A busy hour's figures: lat_pipe in the same runs gave
 * 33.5 % / 20 % against its declared 12 % / 2.5 %. Not measured apart at equal clock: run_eq is
 * the raw figure. */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_EPOLL_LATENCY] = { .id = "lat_epoll.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "epoll wake-up round trip, 1 byte", .sign = POSITIVE, .x = { .kind = X_NONE },
	  /* its samples spread wide on a busy machine (the noise above): the report draws them
	   * all, sorted, the steady figure's beside them */
	  .chart = "samples",
	  .line = "epoll latency: %v microseconds", .vfmt = "%.4f",
	  .work = "1 byte over a pipe to a helper waiting in epoll_wait() and back over another "
		  "pipe this process waits on in epoll_wait(): one round trip, two wake-ups",
	  .subtracted = SUB_CLOCK, .lmbench = "not in lmbench",
	  .noise = { .group = "ipc", .run = 0.36, .run_eq = 0.36, .df = 11,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.205 },
	  .steady = { .group = "ipc.steady", .run = 0.215, .run_eq = 0.215, .df = 11,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.135 } },
	{ 0 },
};

const struct tool_file toolfile_lat_epoll = { "epoll", SUBSET_OS, "epoll wake-up round trip", tools, metrics };
