/*
 * util.h — small helpers every layer uses: allocation that cannot return NULL, the one-line
 * error convention (exit 2 for usage/input errors, 3 for a measurement that could not be made).
 */
#ifndef PLUMB_UTIL_H
#define PLUMB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_USAGE 2
#define EXIT_MEASURE 3

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Name used in error messages ("lat_syscall", "plumb run", ...). */
extern const char *prog_name;
/* Print "prog: message" on stderr and exit with code. */
void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Print "prog: message" on stderr (a warning; the caller goes on). */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Move exactly n bytes through fd (git's read_in_full/write_in_full), retrying after EINTR and
 * short transfers: 0 when all n moved, -1 on an error or end of file (errno 0 at EOF). */
int read_in_full(int fd, void *buf, size_t n);
int write_in_full(int fd, const void *buf, size_t n);

/* Parse a whole decimal integer in [min, max]; on error exit 2 naming what. */
long long parse_int(const char *s, long long min, long long max, const char *what);
/* Parse a number of bytes with lmbench's suffixes (k/K = KiB, m/M = MiB; plumb adds g/G = GiB)
 * in [min, max]; on error exit 2 naming what. */
uint64_t parse_size(const char *s, uint64_t min, uint64_t max, const char *what);
/* The same, without exiting: 0 on success, -1 on malformed input or out of range. */
int try_parse_size(const char *s, uint64_t *out);
/* A percentage for a table, sign and no '%': "+12.3"; from 10,000 on in 3 significant digits
 * ("+1.23e+06": never more digits than a measured value holds); "n/a" when not finite. */
#define PCT_LEN 24
const char *pct_str(double p, char buf[PCT_LEN]);

/* Text as every writer emits it: labels and imported text are stored as given (any bytes), and
 * writers print them through core/escape.h. utf8_seq() is the length of the well-formed UTF-8
 * sequence at p (1..4; no overlongs, surrogates or code points above U+10FFFF), or 0 when the
 * byte at p starts none (defined in escape.c, below util.c: util.c's errors print through
 * escape.c). */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"
size_t utf8_seq(const unsigned char *p);

/* Sort n elements of size bytes with cmp(a, b, ctx): a stable merge sort, so the order of
 * equal elements is the input's on every libc (qsort has no context argument and no fixed order
 * for ties; qsort_r differs between libcs). */
void sort_with(void *base, size_t n, size_t size,
	       int (*cmp)(const void *a, const void *b, void *ctx), void *ctx);

#endif
