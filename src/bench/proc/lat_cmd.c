/*
 * lat_cmd.c — lat_cmd: how long a command takes from start to end: fork(), execvp() of the
 * command (searched in $PATH, its arguments as given), the command's own work and exit, and
 * waitpid() — the whole cost a script pays to run it. The command's output goes where
 * plumb's goes unless redirected; its stdin is /dev/null, so a command that reads cannot hold
 * the measurement up.
 * A command that cannot be run or exits non-zero makes the tool exit 3 saying so (lmbench's
 * lat_cmd never checked: as published its fork test compares the pid with the character '0',
 * so the child never executed the command and ran the parent's loop instead).
 * Children are forked with plumb_fork(): a stop (SIGINT, SIGTERM, SIGHUP) to plumb alone kills
 * and reaps the command running at that moment (core/cleanup.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_CMD_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* A command is slow: samples of at least 60 ms, as lat_proc's. */
#define CMD_MIN_SAMPLE_NS 60e6

struct cmd {
	char **argv;
};

/* Run the command once and wait for it; exits 3 when it fails. */
static void run_once(const struct cmd *k)
{
	pid_t pid = plumb_fork();
	if (pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
		execvp(k->argv[0], k->argv);
		_exit(127);
	}
	int st = child_wait(pid);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
			die(EXIT_MEASURE, "%s: cannot run it (not found or not executable)", k->argv[0]);
		die(EXIT_MEASURE, "%s: %s %d", k->argv[0],
		    st != -1 && WIFSIGNALED(st) ? "killed by signal" : "exit status",
		    st == -1 ? -1 : WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
}

static void loop_cmd(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++)
		run_once(a);
}

/* Fail before timing, with the command's own reason, if it cannot run. */
static int cmd_setup(void *a)
{
	run_once(a);
	return 0;
}

static int lat_cmd(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n == 0)
		usage_error(c, "missing the command to run");
	struct cmd k = { .argv = args.v };
	struct bench_op op = { .loop = loop_cmd, .setup = cmd_setup, .arg = &k,
			       .min_sample_ns = CMD_MIN_SAMPLE_NS };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	struct result *r = record_latency(c, metrics[ROW_LAT_CMD_LATENCY].id, "", NAN, &m, 1);
	/* the command as info, blanks made '_' (info is "key=value ..."), at most 200 bytes */
	char line[256] = "";
	for (int i = 0; i < args.n && strlen(line) < 200; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i > 0 ? "_" : "",
			 args.v[i]);
	for (char *q = line; *q; q++)
		if (*q == ' ' || *q == '\t' || *q == '\n')
			*q = '_';
	result_add_info(r, "command=%s", line);
	measurement_free(&m);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_cmd", lat_cmd, 0, NULL, "COMMAND [ARG...]",
	     "a command's whole cost: fork, exec, its run and exit, wait",
	     "COMMAND is found in $PATH and run with its arguments, stdin on /dev/null; it must exit\n"
	     "0 (else exit 3). A COMMAND with options of its own follows --: lat_cmd -- ls -l"),
	{ 0 },
};

/* Default noise: 5 runs on the 2-vCPU guest while other builds and tests shared it (load average
 * 5-6), the log values' standard deviation times 1.25: a busy machine's figure, until quiet runs
 * replace it (bench/README.md says how). */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_CMD_LATENCY] = { .id = "lat_cmd.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "fork + exec of a command, its run, wait",
	  .line = "lat_cmd: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "fork(), execvp() of the command with its arguments (stdin /dev/null), its run and "
		"exit, waitpid(): one command, start to end",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the command really runs: lmbench's lat_cmd compares fork()'s result with the "
		"character '0', so its child never ran the command; a command that fails is an error",
	  .noise = { .group = "proc", .run = 0.485, .run_eq = 0.485, .df = 4, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_cmd = { "cmd", SUBSET_OS, "a command's fork-exec-wait cost", tools, metrics };
