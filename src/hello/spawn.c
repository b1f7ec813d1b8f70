/*
 * plumb-spawn — the small process lat_proc fork, exec and shell create their children from.
 *
 * fork() copies the parent's page tables and heap: forked from plumb (a 2 MB multi-call image
 * with its heap) the figure carried plumb's size, 20-60 % above lmbench's lat_proc (issue 14).
 * This helper is as small as lmbench's lat_proc, so what is timed is the kernel's work.
 *
 *   plumb-spawn PROGRAM SHELL_COMMAND
 *
 * It reads commands on stdin, one per line: "f N" (N x fork, the child exit(0)s, wait),
 * "e N" (N x fork + execve PROGRAM with an empty environment, its stdout on /dev/null, wait),
 * "s N" (the same with /bin/sh -c SHELL_COMMAND). It answers each with one line on stdout:
 * "ok" when all N children exited 0, else "err WHAT". plumb times the command from writing it
 * to reading the answer (one pipe round trip per sample: microseconds against a 60 ms sample,
 * added to the figure, never subtracted). End of input: it exits.
 * Only libc; no plumb code is linked in, so the image stays small.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *const empty_env[] = { NULL };

static void answer(const char *s)
{
	size_t n = strlen(s);
	if (write(1, s, n) != (ssize_t)n)
		_exit(1);
}

/* One command line from stdin into buf; 0 at end of input. */
static int read_line(char *buf, size_t len)
{
	size_t n = 0;
	for (;;) {
		char ch;
		ssize_t r = read(0, &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		if (ch == '\n')
			break;
		if (n + 1 < len)
			buf[n++] = ch;
	}
	buf[n] = 0;
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: plumb-spawn PROGRAM SHELL_COMMAND (run by lat_proc)\n");
		return 2;
	}
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return 1;
	char *exec_argv[] = { argv[1], NULL };
	char *sh_argv[] = { "sh", "-c", argv[2], NULL };
	char line[64];
	while (read_line(line, sizeof line)) {
		char mode = line[0];
		unsigned long long n = strtoull(line + 1, NULL, 10);
		const char *err = NULL;
		if (mode != 'f' && mode != 'e' && mode != 's')
			err = "err unknown command\n";
		for (unsigned long long i = 0; i < n && !err; i++) {
			pid_t pid = fork();
			if (pid < 0) {
				err = "err fork failed\n";
				break;
			}
			if (pid == 0) {
				/* exit(), not _exit(): the C library's exit path (its
				 * handlers, stdio, the page faults they take) is part of
				 * lmbench's fork+exit */
				if (mode == 'f')
					exit(0);
				dup2(devnull, 1);
				if (mode == 'e')
					execve(argv[1], exec_argv, empty_env);
				else
					execve("/bin/sh", sh_argv, empty_env);
				_exit(127);
			}
			int st = 0;
			while (waitpid(pid, &st, 0) < 0)
				if (errno != EINTR) {
					err = "err waitpid failed\n";
					break;
				}
			if (!err && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
				err = "err a child failed\n";
		}
		answer(err ? err : "ok\n");
	}
	return 0;
}
