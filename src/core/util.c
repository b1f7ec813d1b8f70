/* util.c — allocation, one-line errors and the strict number parsers behind every option. */
#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/escape.h"
#include "core/util.h"

const char *prog_name = "plumb";

static void oom(void)
{
	fprintf(stderr, "%s: out of memory\n", prog_name);
	exit(EXIT_MEASURE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return s;
}

/* A message is one line whatever it quotes (a label, a host, a file's bytes): written through
 * term_str, so a control character in it is shown, not acted on, and a value of megabytes is
 * cut. */
#define MSG_MAX 4096

static void message(const char *fmt, va_list ap)
{
	char *text = NULL, line[MSG_MAX];
	fflush(stdout);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	fprintf(stderr, "%s: %s\n", prog_name, term_str(text ? text : fmt, line, sizeof line));
	free(text);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	exit(code);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
}

long long parse_int(const char *s, long long min, long long max, const char *what)
{
	char *end;
	errno = 0;
	if (!s || !*s || isspace((unsigned char)*s))
		die(EXIT_USAGE, "%s: expected a whole number, got '%s'", what, s ? s : "");
	long long v = strtoll(s, &end, 10);
	if (*end || errno)
		die(EXIT_USAGE, "%s: expected a whole number, got '%s'", what, s);
	if (v < min || v > max)
		die(EXIT_USAGE, "%s: %lld is out of range (%lld to %lld)", what, v, min, max);
	return v;
}

int try_parse_size(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned long long mul = 1;
	switch (*end) {
	case 0: break;
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	default: return -1;
	}
	if (*end)
		return -1;
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

uint64_t parse_size(const char *s, uint64_t min, uint64_t max, const char *what)
{
	uint64_t v;
	if (try_parse_size(s, &v) < 0)
		die(EXIT_USAGE, "%s: '%s' is not a size (a number with an optional k, m or g suffix)",
		    what, s ? s : "");
	if (v < min || v > max)
		die(EXIT_USAGE, "%s: %s is out of range (%llu to %llu bytes)", what, s,
		    (unsigned long long)min, (unsigned long long)max);
	return v;
}

int read_in_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			errno = 0; /* end of file */
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int write_in_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Merge the sorted runs a[0..na) and a[na..n) through tmp back into a. */
static void merge_runs(char *a, size_t na, size_t n, size_t size, char *tmp,
		       int (*cmp)(const void *, const void *, void *), void *ctx)
{
	memcpy(tmp, a, n * size);
	size_t i = 0, j = na, k = 0;
	while (i < na && j < n) {
		/* the left run's element first on a tie: stable */
		if (cmp(tmp + j * size, tmp + i * size, ctx) < 0)
			memcpy(a + k++ * size, tmp + j++ * size, size);
		else
			memcpy(a + k++ * size, tmp + i++ * size, size);
	}
	memcpy(a + k * size, tmp + i * size, (na - i) * size);
	k += na - i;
	memcpy(a + k * size, tmp + j * size, (n - j) * size);
}

static void sort_range(char *a, size_t n, size_t size, char *tmp,
		       int (*cmp)(const void *, const void *, void *), void *ctx)
{
	if (n < 2)
		return;
	size_t na = n / 2;
	sort_range(a, na, size, tmp, cmp, ctx);
	sort_range(a + na * size, n - na, size, tmp, cmp, ctx);
	if (cmp(a + na * size, a + (na - 1) * size, ctx) < 0) /* not already in order */
		merge_runs(a, na, n, size, tmp, cmp, ctx);
}

void sort_with(void *base, size_t n, size_t size,
	       int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
	if (n < 2)
		return;
	char *tmp = xmalloc(n * size);
	sort_range(base, n, size, tmp, cmp, ctx);
	free(tmp);
}

const char *pct_str(double p, char buf[PCT_LEN])
{
	if (!isfinite(p))
		snprintf(buf, PCT_LEN, "n/a");
	else if (fabs(p) < 1e4)
		snprintf(buf, PCT_LEN, "%+.1f", p);
	else
		snprintf(buf, PCT_LEN, "%+.3g", p);
	return buf;
}
