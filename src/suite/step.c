/*
 * step.c — one suite step in a child process (see step.h). The child runs the tool
 * function exactly as `plumb NAME` would, but quiet (ctx.out = NULL) and with its stdout and
 * stderr going to a pipe the parent reads line by line; its results go back over a second pipe
 * as the tool's JSON document (docs/json-schema.md, "kind": "tool", read back with
 * results/json_read.c) when the tool returns — or when it exits through die(), from an atexit
 * hook, so what a tool measured before failing is not lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "bench/tool_run.h"
#include "suite/step.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/metrics.h"
#include "core/out.h"
#include "core/timing.h"
#include "core/util.h"
#include "results/io.h"
#include "buildinfo.h"

#define GRACE_NS 2000000000ull /* SIGTERM first, SIGKILL this long after */
/* after a stop request the whole run must end within 2 s: a shorter grace */
#define STOP_GRACE_NS 500000000ull

/* ---- protocol: the tool's JSON document ---------------------------------------------------- */

void proto_write(FILE *f, const struct tool_ctx *c)
{
	struct json j;
	json_init(&j, f, 0);
	json_doc_begin(&j, "tool");
	json_str(&j, "tool", c->tool);
	json_kv_object(&j, "facts", c->header_info);
	json_arr_begin(&j, "results");
	for (size_t i = 0; i < c->results.n; i++)
		json_result(&j, &c->results.v[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', f);
	fflush(f);
}

/* The tool's facts ([KEY: value] lines) as "k=v k=v": every result of the step carries them. */
static char *facts_string(const struct run *d)
{
	char *s = NULL;
	for (size_t i = 0; i < d->facts.n; i++) {
		const struct kv *kv = &d->facts.v[i];
		if (strcmp(kv->key, "tool") == 0)
			continue;
		char *n = xasprintf("%s%s%s=%s", s ? s : "", s ? " " : "", kv->key, kv->val);
		free(s);
		s = n;
	}
	return s;
}

/* Whether sample k of q may enter the run (results/run.h: value_check); a result's first refusal
 * is counted in the step's outcome (the first one's why kept), so the run says what it left out. */
static int sample_ok(const struct result *q, size_t k, struct step_outcome *out, int *said)
{
	char why[300];
	double v = q->samples[k].value;
	if (value_check(q->metric, q->unit, v, why, sizeof why) == 0)
		return 1;
	if (out && !*said) {
		if (!out->refused)
			out->refused = xstrdup(why);
		out->nrefused++;
	}
	*said = 1;
	return 0;
}

static void merge_result(struct run *r, const struct result *q, const char *h, int round,
			 struct step_outcome *out)
{
	int said = 0;
	size_t good = 0;
	for (size_t k = 0; k < q->nsamples; k++)
		good += sample_ok(q, k, out, &said);
	if (good == 0)
		return; /* nothing of it measured what a machine can give */
	struct result *e = NULL;
	for (size_t k = 0; k < r->results.n && !e; k++)
		if (point_same(&r->results.v[k], q->metric, q->params, q->x))
			e = &r->results.v[k];
	if (!e) {
		/* a new point; its value is the tool's until samples of more rounds join it */
		e = result_list_add(&r->results, q->metric, q->params, q->x);
		e->value = q->value;
		e->unit = q->unit ? xstrdup(q->unit) : NULL;
		e->version = q->version;
		if (h && (!q->info || !strstr(q->info, h)))
			e->info = q->info ? xasprintf("%s %s", q->info, h) : xstrdup(h);
		else
			e->info = q->info ? xstrdup(q->info) : NULL;
	}
	size_t before = e->nsamples;
	said = 1; /* said above */
	for (size_t k = 0; k < q->nsamples; k++) {
		if (!sample_ok(q, k, NULL, &said))
			continue;
		struct sample sm = q->samples[k];
		sm.round = round;
		result_add_sample(e, sm);
	}
	if (before || good != q->nsamples)
		result_update_value(e, metric_stat_dir(metric_find(e->metric)));
}

int proto_merge(const char *buf, size_t len, int round, struct run *r, size_t *nresults,
		struct step_outcome *out)
{
	char err[256];
	*nresults = 0;
	if (len == 0)
		return -1;
	struct run *d = run_parse_step(buf, len, err, sizeof err);
	if (!d)
		return -1;
	char *h = facts_string(d);
	for (size_t i = 0; i < d->results.n; i++) {
		merge_result(r, &d->results.v[i], h, round, out);
		(*nresults)++;
	}
	free(h);
	run_free(d);
	return 0;
}

/* ---- the child ------------------------------------------------------------------------------ */

static struct sigaction child_act[8];
static int child_sigs[8], nchild_sigs;

void step_set_child_sigactions(const struct sigaction *act, const int *sigs, int n)
{
	nchild_sigs = n > 8 ? 8 : n;
	for (int i = 0; i < nchild_sigs; i++) {
		child_act[i] = act[i];
		child_sigs[i] = sigs[i];
	}
}

static struct tool_ctx child_ctx;
static FILE *child_res;
static int child_sent;
static pid_t child_pid;

static void child_send(void)
{
	/* A helper the tool forked inherits this hook: only the step's own process reports. */
	if (child_sent || !child_res || getpid() != child_pid)
		return;
	child_sent = 1;
	proto_write(child_res, &child_ctx);
	fclose(child_res);
	child_res = NULL;
}

static void child_main(const struct tool *t, int argc, char **argv, const struct step_env *env,
		       int resw, int errw)
{
	for (int i = 0; i < nchild_sigs; i++)
		sigaction(child_sigs[i], &child_act[i], NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	int dn = open("/dev/null", O_RDONLY);
	if (dn >= 0) {
		dup2(dn, 0);
		if (dn > 2)
			close(dn);
	}
	dup2(errw, 1);
	dup2(errw, 2);
	if (errw > 2)
		close(errw);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (env->tmpdir)
		setenv("TMPDIR", env->tmpdir, 1);
	child_pid = getpid();
	child_res = fdopen(resw, "w");
	if (!child_res)
		_exit(EXIT_MEASURE);
	tool_ctx_init(&child_ctx, t, argc, argv, 0);
	child_ctx.out = NULL;
	child_ctx.fsdir = env->fsdir;
	if (env->timing) {
		child_ctx.timing.opts = env->timing->opts;
		child_ctx.timing.place = env->timing->place;
	}
	child_ctx.timing.opts.round = env->round;
	if (env->remote && net_remote_parse(env->remote, child_ctx.remote_host,
					   sizeof child_ctx.remote_host, &child_ctx.remote_base) != 0)
		_exit(EXIT_USAGE);
	atexit(child_send);
	int st = t->fn(&child_ctx, argc, argv);
	exit(st);
}

/* ---- the parent ----------------------------------------------------------------------------- */

struct linebuf {
	char *buf;
	size_t n, cap;
};

static void lb_add(struct linebuf *b, const char *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->buf = xrealloc(b->buf, b->cap);
	}
	memcpy(b->buf + b->n, p, n);
	b->n += n;
}

/* Hand every complete line of b to fn; keep the rest. At eof the rest is a line too. */
static void lb_lines(struct linebuf *b, int eof, void (*fn)(char *, void *), void *arg)
{
	if (!b->buf)
		return; /* nothing arrived */
	size_t start = 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->buf[i] == '\n') {
			b->buf[i] = 0;
			fn(b->buf + start, arg);
			start = i + 1;
		}
	if (eof && start < b->n) {
		lb_add(b, "", 1);
		fn(b->buf + start, arg);
		start = b->n;
	}
	memmove(b->buf, b->buf + start, b->n - start);
	b->n -= start;
}

static void on_err_line(char *line, void *arg)
{
	struct step_outcome *o = arg;
	size_t l = strlen(line);
	while (l && (line[l - 1] == '\r' || line[l - 1] == ' '))
		line[--l] = 0;
	/* Progress written with \r (memsize) keeps only its last part. */
	char *cr = strrchr(line, '\r');
	if (cr)
		line = cr + 1;
	if (!*line)
		return;
	if (o->nlines < STEP_MAX_LINES)
		o->lines[o->nlines++] = xstrdup(line);
	else
		o->lines_dropped++;
}

static void kill_group(pid_t pid, int sig)
{
	kill(-pid, sig);
	kill(pid, sig);
}

/* Fork the step's child, signals blocked across the fork so that it cannot run the parent's
 * handler. Its pid; -1 when fork failed (the pipes closed, the error a line of out). */
static pid_t spawn_child(const struct tool *t, int argc, char **argv, const struct step_env *env,
			 int resp[2], int errp[2], struct step_outcome *out)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid_t pid = plumb_fork();
	if (pid == 0) {
		close(resp[0]);
		close(errp[0]);
		child_main(t, argc, argv, env, resp[1], errp[1]);
	}
	if (pid > 0)
		setpgid(pid, pid); /* also done by the child: whichever runs first */
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(resp[1]);
	close(errp[1]);
	if (pid < 0) {
		close(resp[0]);
		close(errp[0]);
		char msg[128];
		snprintf(msg, sizeof msg, "fork: %s", strerror(errno));
		on_err_line(msg, out);
	}
	return pid;
}

/* The parent's watch over a running step: the child, its two pipes, the clock. */
struct watch {
	pid_t pid;
	int fds[2];               /* results, stdout+stderr; -1 once closed */
	struct linebuf rb, eb;
	uint64_t deadline, term_at, exited_at, grace;
	int exited;
};

/* Read what the pipes hold (waiting up to 200 ms); lines of the second go to out. */
static void watch_read(struct watch *w, struct step_outcome *out)
{
	struct pollfd pf[2];
	int np = 0, which[2];
	for (int i = 0; i < 2; i++)
		if (w->fds[i] >= 0) {
			pf[np].fd = w->fds[i];
			pf[np].events = POLLIN;
			which[np++] = i;
		}
	/* both pipes closed: the child is exiting, so look again soon (200 ms here cost every
	 * step a fifth of a second, most of a short run's time) */
	int pr = poll(pf, (nfds_t)np, np ? 200 : 2);
	for (int k = 0; pr > 0 && k < np; k++) {
		if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		char buf[65536];
		ssize_t got = read(pf[k].fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		int i = which[k];
		if (got <= 0) {
			close(w->fds[i]);
			w->fds[i] = -1;
		} else {
			lb_add(i ? &w->eb : &w->rb, buf, (size_t)got);
		}
		if (i)
			lb_lines(&w->eb, w->fds[i] < 0, on_err_line, out);
	}
}

/* Reap the child when it is gone; stop it (SIGTERM, then SIGKILL after the grace) on a stop
 * request or past the deadline. Returns 1 when the watch is over. */
static int watch_child(struct watch *w, const struct step_env *env, struct step_outcome *out)
{
	uint64_t now = now_ns();
	if (!w->exited) {
		int st;
		pid_t got = waitpid(w->pid, &st, WNOHANG);
		if (got == w->pid) {
			w->exited = 1;
			w->exited_at = now;
			out->status = st;
			child_forget(w->pid);
			/* Helpers must not outlive their step (they would also hold the pipes). */
			kill(-w->pid, SIGKILL);
		}
	}
	if (!w->term_at && !w->exited) {
		int why = 0;
		if (env->stop && *env->stop)
			why = out->stopped = 1;
		else if (w->deadline && now > w->deadline)
			why = out->timed_out = 1;
		if (why) {
			kill_group(w->pid, SIGTERM);
			w->term_at = now;
		}
	} else if (w->term_at && !w->exited && now > w->term_at + w->grace) {
		kill_group(w->pid, SIGKILL);
	}
	if (env->stop && *env->stop)
		w->grace = STOP_GRACE_NS;
	/* Anything still holding the pipes after the child is gone is not ours to wait for. */
	return w->exited && now > w->exited_at + w->grace;
}

int step_exec(const struct tool *t, int argc, char **argv, const struct step_env *env,
	      struct run *r, struct step_outcome *out)
{
	memset(out, 0, sizeof *out);
	out->status = -1;
	int resp[2], errp[2];
	if (pipe2(resp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC))
		die(EXIT_MEASURE, "pipe: %s", strerror(errno));
	uint64_t t0 = now_ns();
	pid_t pid = spawn_child(t, argc, argv, env, resp, errp, out);
	if (pid < 0)
		return -1;
	struct watch w = { .pid = pid, .fds = { resp[0], errp[0] }, .grace = GRACE_NS,
			   .deadline = env->timeout_s > 0 ? t0 + (uint64_t)(env->timeout_s * 1e9) : 0 };
	/* until the child is gone and its pipes are read (a child that closed both still runs:
	 * the loop keeps checking the stop flag and the deadline for it) */
	while (w.fds[0] >= 0 || w.fds[1] >= 0 || !w.exited) {
		watch_read(&w, out);
		if (env->tick)
			env->tick(env->tick_arg);
		if (watch_child(&w, env, out))
			break;
	}
	for (int i = 0; i < 2; i++)
		if (w.fds[i] >= 0)
			close(w.fds[i]);
	if (!w.exited) {
		out->status = child_wait(pid);
		kill(-pid, SIGKILL);
	}
	/* the child's JSON document, complete or not at all (a killed child sends none) */
	out->complete = proto_merge(w.rb.buf, w.rb.n, env->round, r, &out->nresults,
					     out) == 0;
	free(w.rb.buf);
	free(w.eb.buf);
	out->seconds = (double)(now_ns() - t0) / 1e9;
	int ok = out->status >= 0 && WIFEXITED(out->status) && WEXITSTATUS(out->status) == 0 &&
		 out->complete && !out->timed_out && !out->stopped;
	return ok ? 0 : -1;
}

void step_outcome_free(struct step_outcome *o)
{
	for (int i = 0; i < o->nlines; i++)
		free(o->lines[i]);
	free(o->refused);
	memset(o, 0, sizeof *o);
}
