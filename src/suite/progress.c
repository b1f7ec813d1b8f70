/* progress.c — the progress line of `plumb run` and its one-line warnings (see progress.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "suite/progress.h"
#include "core/clock.h"
#include "core/escape.h"

struct progress *progress_current;

void progress_init(struct progress *p, int on, int total)
{
	memset(p, 0, sizeof *p);
	p->on = on;
	p->total = total;
	p->t0 = p->step_t0 = now_ns();
}

void progress_start(struct progress *p, const char *label, double est, double rest)
{
	snprintf(p->cur, sizeof p->cur, "%s", label);
	p->cur_est = est;
	p->rest = rest;
	p->step_t0 = now_ns();
	progress_draw(p);
}

void progress_finish(struct progress *p)
{
	p->done++;
}

double progress_left(const struct progress *p)
{
	double in_cur = (double)(now_ns() - p->step_t0) / 1e9;
	double cur_left = p->cur_est - in_cur;
	return p->rest + (cur_left > 0 ? cur_left : 0);
}

static void mmss(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);
	snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void progress_draw(struct progress *p)
{
	if (!p->on)
		return;
	struct winsize ws;
	int width = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
	char el[32], left[32], line[256];
	mmss((double)(now_ns() - p->t0) / 1e9, el, sizeof el);
	mmss(progress_left(p), left, sizeof left);
	int n = snprintf(line, sizeof line, "[%d/%d] %s  %s elapsed, ~%s left", p->done + 1,
			 p->total, p->cur, el, left);
	if (n >= width)
		n = width - 1;
	if (n < 0)
		n = 0;
	line[n] = 0;
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	p->drawn = 1;
}

void progress_clear(struct progress *p)
{
	if (p->on && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}

void run_warn(const char *fmt, ...)
{
	struct progress *p = progress_current;
	if (p)
		progress_clear(p);
	fflush(stdout);
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* One line, whatever the message holds (a label, a host: control characters shown). */
	fputs("plumb run: ", stderr);
	term_fputs(stderr, buf);
	fputc('\n', stderr);
	fflush(stderr);
	if (p && p->on)
		progress_draw(p);
}
