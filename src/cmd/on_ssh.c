/* on_ssh.c — the ssh sessions of `plumb on` (see on_ssh.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/on_ssh.h"
#include "core/cleanup.h"
#include "core/util.h"

volatile sig_atomic_t ssh_stop_sig;

static void on_stop(int sig)
{
	if (!ssh_stop_sig)
		ssh_stop_sig = sig;
}

void ssh_catch_stops(void)
{
	catch_stop_signals(on_stop);
}

void sh_append(char **buf, const char *s)
{
	size_t len = *buf ? strlen(*buf) : 0, n = 3;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *b = xrealloc(*buf, len + n + 1), *w = b + len;
	*w++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') { /* close, an escaped quote, reopen */
			memcpy(w, "'\\''", 4);
			w += 4;
		} else {
			*w++ = *p;
		}
	}
	*w++ = '\'';
	*w++ = ' ';
	*w = 0;
	*buf = b;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 256;
	char *s = xmalloc(cap);
	if (f) {
		size_t got;
		while ((got = fread(s + n, 1, cap - n - 1, f)) > 0) {
			n += got;
			if (cap - n < 2)
				s = xrealloc(s, cap *= 2);
		}
		fclose(f);
	}
	s[n] = 0;
	return s;
}

/* The child: stdin, stdout and stderr as asked, then ssh itself. */
static void exec_ssh(const struct ssh_to *t, const char *cmd, const char *in_path,
		     const char *out_path, const char *err_path, const char *extra)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	int in = open(in_path ? in_path : "/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0)
		_exit(126);
	if (out_path) {
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
	}
	const char **av = xcalloc(t->nopts * 2 + 10, sizeof *av);
	size_t n = 0;
	av[n++] = "ssh";
	if (t->config) {
		av[n++] = "-F";
		av[n++] = t->config;
	}
	for (size_t i = 0; i < t->nopts; i++) {
		av[n++] = "-o";
		av[n++] = t->opts[i];
	}
	if (extra) {
		av[n++] = "-o";
		av[n++] = extra;
	}
	av[n++] = "-T";
	av[n++] = "--";
	av[n++] = t->host;
	av[n++] = cmd;
	execvp("ssh", (char **)av);
	fprintf(stderr, "cannot run ssh: %s\n", strerror(errno));
	_exit(127);
}

/* Wait for pid; when heed_stop and a stop arrives, or after limit_ms (0: none), end it. */
static int wait_ssh(pid_t pid, int heed_stop, long limit_ms, int *stopped)
{
	long waited = 0;
	for (;;) {
		int st;
		pid_t got = waitpid(pid, &st, WNOHANG);
		if (got == pid) {
			child_forget(pid);
			return st;
		}
		if (got < 0 && errno != EINTR) {
			child_forget(pid);
			return -1;
		}
		if ((heed_stop && ssh_stop_sig) || (limit_ms && waited >= limit_ms)) {
			*stopped = heed_stop && ssh_stop_sig;
			kill(pid, SIGTERM);
			return child_wait_bounded(pid, 2000);
		}
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
		waited += 20;
	}
}

static int step(const struct ssh_to *t, const char *cmd, const char *in_path, int capture,
		const char *extra, struct ssh_out *o, int heed_stop, long limit_ms)
{
	memset(o, 0, sizeof *o);
	char *out_path = capture ? xasprintf("%s/out", t->scratch) : NULL;
	char *err_path = capture ? xasprintf("%s/err", t->scratch) : NULL;
	fflush(NULL);
	pid_t pid = plumb_fork();
	if (pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (pid == 0)
		exec_ssh(t, cmd, in_path, out_path, err_path, extra);
	int stopped = 0;
	o->status = wait_ssh(pid, heed_stop, limit_ms, &stopped);
	if (capture) {
		o->out = slurp(out_path);
		o->err = slurp(err_path);
		unlink(out_path);
		unlink(err_path);
	} else {
		o->out = xstrdup("");
		o->err = xstrdup("");
	}
	free(out_path);
	free(err_path);
	return stopped ? -1 : 0;
}

int ssh_step(const struct ssh_to *t, const char *cmd, const char *in_path, int capture,
	     const char *extra, struct ssh_out *o)
{
	return step(t, cmd, in_path, capture, extra, o, 1, 0);
}

void ssh_out_free(struct ssh_out *o)
{
	free(o->out);
	free(o->err);
	o->out = o->err = NULL;
}

int ssh_remove_dir(const struct ssh_to *t, const char *dir)
{
	/* The run's shell wrote its pid (it exec'd plumb): SIGTERM lets plumb run remove its own
	 * files and children; after 5 s it is killed. Then the directory goes. */
	char *cmd = xstrdup("d=");
	sh_append(&cmd, dir);
	char *full = xasprintf("%s; p=$(cat \"$d/pid\" 2>/dev/null); if [ -n \"$p\" ]; then "
			       "kill -TERM \"$p\" 2>/dev/null; i=0; while kill -0 \"$p\" 2>/dev/null "
			       "&& [ $i -lt 50 ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i+1)); "
			       "done; kill -KILL \"$p\" 2>/dev/null; fi; rm -rf \"$d\" && "
			       "! [ -e \"$d\" ] && echo removed", cmd);
	free(cmd);
	struct ssh_out o;
	step(t, full, NULL, 1, "ConnectTimeout=15", &o, 0, 30000);
	int ok = o.status == 0 && strstr(o.out, "removed") != NULL;
	ssh_out_free(&o);
	free(full);
	return ok ? 0 : -1;
}
