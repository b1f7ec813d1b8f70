/*
 * memsize.c — memsize [MiB]: how much memory one process can really use, in MiB on stdout
 * ("256"), as lmbench's memsize printed it for the suite to size its memory tests.
 *
 * lmbench mallocs growing sizes and touches them, which on Linux (overcommit) can run into swap
 * or the OOM killer. plumb instead
 *   - caps the probe at what the kernel says is available without swapping: MemAvailable, and
 *     the cgroup's limit minus its usage (sys_mem_available()), less 1/16 for everybody else;
 *   - touches the pages in a forked child (oom_score_adj 1000, so it is the OOM killer's first
 *     choice), which reports each size reached through a pipe: if it dies, plumb survives and
 *     the last size reported stands;
 *   - stops when touching slows down (three steps of 4 MiB or more in a row at more than 50 us
 *     a page and 20 times the best step: reclaim or swap has started; lmbench's 10 us is
 *     slower than a first touch of host memory under some hypervisors, 12 us here), or when
 *     5 s have passed (lmbench has an alarm too): the size printed is then what was really
 *     touched, and the result's info says which limit applied (requested, available, time,
 *     slowdown, child-died).
 * The argument is lmbench's: a number of MiB, with lmbench's suffixes applied before the MiB
 * (k/K = x1024, m/M = x1024^2, plumb adds g/G); none (or 0) means 1024 MiB. Sizes grow as in
 * lmbench: 1 MiB steps to 8, then a quarter of the largest power of two below (10 12 14 16 20
 * ...), and lmbench's "NMB OK" progress is printed on stderr when it is a terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/sysinfo.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_MEMSIZE_MIB, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define MIB (1ull << 20)
#define SLOW_NS_PER_PAGE 50000.0
#define SLOW_FACTOR 20.0
#define SLOW_STEPS 3
#define JUDGE_MIB 4                    /* steps this large or larger are judged */
#define BUDGET_NS 5000000000ull        /* the child stops touching after this long */
#define DEADLINE_NS 30000000000ull     /* the parent kills a child that is stuck */
enum { STOP_DONE = 0, STOP_TIME = 2, STOP_SLOW = 3 };

/* The next size after cur MiB (lmbench's progression). */
static uint64_t next_size(uint64_t cur)
{
	uint64_t p = 1;
	while (p * 2 <= cur)
		p *= 2;
	uint64_t step = p / 4;
	return cur + (step ? step : 1);
}

/* In the child: map max_mib, touch growing ranges, write each size reached (uint64 MiB) to fd.
 * Exits with STOP_DONE, STOP_TIME or STOP_SLOW. */
static void probe_child(uint64_t max_mib, int fd)
{
	int adj = open("/proc/self/oom_score_adj", O_WRONLY);
	if (adj >= 0) {
		if (write(adj, "1000", 4) < 0) { /* best effort: only makes us the OOM victim */ }
		close(adj);
	}
	char *p = MAP_FAILED;
	while (max_mib >= 1 &&
	       (p = mmap(NULL, max_mib * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0)) == MAP_FAILED)
		max_mib /= 2; /* strict overcommit: find what the kernel will commit */
	if (p == MAP_FAILED)
		_exit(1);
#ifdef MADV_HUGEPAGE
	/* Huge pages where the kernel allows them: a fault per 2 MiB instead of per 4 KiB, so a
	 * 4 GiB probe takes about a second instead of ten (the memory is the same memory). */
	madvise(p, max_mib * MIB, MADV_HUGEPAGE);
#endif
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096;
	double best = INFINITY;
	int slow = 0;
	uint64_t done = 0, good = 0, start = now_ns();
	for (uint64_t cur = 1; done < max_mib; cur = next_size(cur)) {
		if (cur > max_mib)
			cur = max_mib;
		size_t from = done * MIB, to = cur * MIB;
		/* Page-touch timing decides when to stop; it is not a reported measurement. Small
		 * steps are not judged: with huge pages one of them may hold a whole 2 MiB fault. */
		uint64_t t0 = now_ns();
		for (size_t o = from; o < to; o += page)
			((volatile char *)p)[o] = 1;
		uint64_t t1 = now_ns();
		double per = (double)(t1 - t0) / (double)((to - from) / page);
		done = cur;
		if (cur - (from / MIB) >= JUDGE_MIB) {
			if (per > SLOW_NS_PER_PAGE && per > SLOW_FACTOR * best) {
				if (++slow >= SLOW_STEPS)
					_exit(STOP_SLOW);
				continue;
			}
			slow = 0;
			if (per < best)
				best = per;
		}
		if (!slow) {
			good = cur;
			if (write(fd, &good, sizeof good) != (ssize_t)sizeof good)
				break;
		}
		if (t1 - start > BUDGET_NS && done < max_mib)
			_exit(STOP_TIME);
	}
	/* Every size was touched. A slow step or two at the end, fewer than SLOW_STEPS, were a busy
	 * moment (a CPU shared with other work), not reclaim: they count. */
	if (done > good) {
		good = done;
		if (write(fd, &good, sizeof good) != (ssize_t)sizeof good) { /* the parent is gone */ }
	}
	_exit(STOP_DONE);
}

/* The size asked for, in MiB: the operand (lmbench's suffixes multiply it), 1024 without one. */
static uint64_t requested_mib(struct tool_ctx *c, struct operands args)
{
	uint64_t req = 1024;
	if (args.n > 0) {
		uint64_t v;
		if (try_parse_size(args.v[0], &v) < 0)
			usage_error(c, "'%s' is not a number of MiB (suffixes k, m, g multiply it)",
				    args.v[0]);
		if (v > (UINT64_MAX >> 21))
			usage_error(c, "%s MiB is too large", args.v[0]);
		if (v > 0)
			req = v;
		if (args.n > 1)
			usage_error(c, "too many operands");
	}
	return req;
}

/* Read the sizes the child reports until it closes the pipe, killing it at DEADLINE_NS after
 * t0 (then *limit = "deadline"). Returns the last size reported (0 when none was). */
static uint64_t read_progress(int fd, pid_t pid, uint64_t t0, int tty, const char **limit)
{
	uint64_t got = 0, v;
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		uint64_t el = now_ns() - t0;
		if (el >= DEADLINE_NS) {
			kill(pid, SIGKILL);
			*limit = "deadline";
			break;
		}
		int r = poll(&pf, 1, (int)((DEADLINE_NS - el) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t n = read(fd, &v, sizeof v);
		if (n == (ssize_t)sizeof v) {
			got = v;
			if (tty)
				fprintf(stderr, "%lluMB OK\r", (unsigned long long)got);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break; /* EOF: the child is done (or was killed) */
	}
	return got;
}

/* Which limit ended the probe, from the child's exit status `st` (the deadline stays). */
static const char *stop_reason(const char *limit, int st, uint64_t got, uint64_t max)
{
	if (strcmp(limit, "deadline") == 0)
		return limit;
	if (WIFEXITED(st) && WEXITSTATUS(st) == STOP_TIME)
		return "time";
	if (WIFEXITED(st) && WEXITSTATUS(st) == STOP_SLOW)
		return "slowdown";
	if (!WIFEXITED(st) || WEXITSTATUS(st) != STOP_DONE || got < max)
		return "child-died";
	return limit;
}

static int memsize_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	uint64_t req = requested_mib(c, args);
	uint64_t avail = sys_mem_available();
	uint64_t cap = (avail - avail / 16) / MIB;
	const char *limit = "requested";
	uint64_t max = req;
	if (cap < max) {
		max = cap;
		limit = "available";
	}
	if (max < 1)
		die(EXIT_MEASURE, "no memory available (MemAvailable/cgroup room %llu bytes)",
		    (unsigned long long)avail);

	int pfd[2];
	if (pipe(pfd) != 0)
		die(EXIT_MEASURE, "pipe: %s", strerror(errno));
	uint64_t t0 = now_ns();
	pid_t pid = plumb_fork();
	if (pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(pfd[0]);
		probe_child(max, pfd[1]);
	}
	close(pfd[1]);
	int tty = isatty(2) && !c->json;
	uint64_t got = read_progress(pfd[0], pid, t0, tty, &limit);
	close(pfd[0]);
	int st = child_wait(pid);
	double el = (double)(now_ns() - t0);
	if (tty)
		fprintf(stderr, "%*s\r", 24, "");
	limit = stop_reason(limit, st, got, max);
	if (got == 0)
		die(EXIT_MEASURE, "could not touch even 1 MiB (%s)", limit);
	struct sample s = { .value = (double)got, .iters = got * MIB / (uint64_t)sysconf(_SC_PAGESIZE), .elapsed_ns = el,
			    .round = c->timing.opts.round };
	struct result *r = record_values(c, metrics[ROW_MEMSIZE_MIB].id, "", NAN, &s, 1);
	result_add_info(r, "requested_mib=%llu available_mib=%llu limit=%s",
			(unsigned long long)req, (unsigned long long)(avail / MIB), limit);
	return 0;
}

static const struct tool tools[] = {
	TOOL("memsize", memsize_tool, 1, NULL, "[MiB]",
	     "memory one process can use (MiB), within free memory and cgroup limits",
	     "Touches up to MiB (default 1024; lmbench's k/m suffixes multiply it) in a child\n"
	     "process, never beyond what the kernel reports available (MemAvailable, cgroup\n"
	     "memory.max); stops when touching pages slows down or after 5 s, and then prints\n"
	     "the size really touched (--json says which limit applied)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_MEMSIZE_MIB] = { .id = "memsize.mib",
	  .unit = "MiB", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "memory usable by one process",
	  .line = "%v", .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "pages touched in a forked child until available memory, a slowdown or 5 s",
	  .subtracted = "nothing (not a time)",
	  .lmbench = "capped at what is available without swapping; the child takes any OOM kill",
	  .noise = NOISE_UNMEASURED },
	{ 0 },
};

const struct tool_file toolfile_memsize = { "memsize", SUBSET_HW, "usable memory", tools, metrics };
