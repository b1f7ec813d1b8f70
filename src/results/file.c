/*
 * file.c — runs in files: format detection, reading (whole file into memory, bounded), and
 * atomic writing (a temporary file in the same directory, fsync, rename), so an interrupted or
 * failed write never leaves a half-written results file behind.
 *
 * Detection: a document whose first non-blank character is '{' is plumb JSON; anything else is
 * read as lmbench 3 text, which must hold a "[lmbench3." block with a recognisable result.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/outfile.h"
#include "core/util.h"
#include "results/formats.h"
#include "results/io.h"

/* Results files are text of a few MB at most; refuse anything absurd before reading it. */
#define MAX_FILE_BYTES (256u << 20)

static int is_json(const char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3; /* UTF-8 byte order mark */
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i < len && buf[i] == '{';
}

int runs_parse(const char *buf, size_t len, const char *name, struct run ***runs, size_t *n,
	       char *err, size_t errlen)
{
	if (!buf || len == 0) {
		snprintf(err, errlen, "%s: empty file", name);
		return -1;
	}
	size_t before = *n;
	if (is_json(buf, len)) {
		struct run *r = json_parse_run(buf, len, name, err, errlen);
		if (!r)
			return -1;
		run_array_push(runs, n, r);
	} else if (lmbench_parse(buf, len, name, runs, n, err, errlen)) {
		return -1;
	}
	/* the check every reader applies: a file holding a run plumb cannot show is refused whole,
	 * in one line naming it (a 100 MB label is never imported, nor printed) */
	for (size_t i = before; i < *n; i++) {
		char why[256], what[96];
		if (run_check((*runs)[i], why, sizeof why) == 0)
			continue;
		if (*n - before > 1)
			snprintf(what, sizeof what, "run %zu of %zu", i - before + 1, *n - before);
		else
			run_what((*runs)[i], what, sizeof what);
		snprintf(err, errlen, "%s: %s: %s", name, what, why);
		for (size_t k = before; k < *n; k++)
			run_free((*runs)[k]);
		*n = before;
		return -1;
	}
	/* a run that came without an identity is known by its content (run_uid.c) */
	for (size_t i = before; i < *n; i++)
		if (!(*runs)[i]->uid)
			run_set_content_uid((*runs)[i]);
	return 0;
}

struct run *run_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
	struct run **v = NULL;
	size_t n = 0;
	if (runs_parse(buf, len, name, &v, &n, err, errlen))
		return NULL;
	/* one run wanted: the first block of a file that holds several */
	for (size_t i = 1; i < n; i++)
		run_free(v[i]);
	struct run *r = v[0];
	free(v);
	return r;
}

struct run *run_parse_step(const char *buf, size_t len, char *err, size_t errlen)
{
	if (!buf || len == 0 || !is_json(buf, len)) {
		snprintf(err, errlen, "step: not a JSON document");
		return NULL;
	}
	return json_parse_run(buf, len, "step", err, errlen);
}

/* The whole file into a malloc'd buffer. NULL with err set. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		close(fd);
		return NULL;
	}
	size_t cap = 65536, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap >= MAX_FILE_BYTES) {
				snprintf(err, errlen, "%s: larger than %u MiB, not a results file", path,
					 MAX_FILE_BYTES >> 20);
				free(buf);
				close(fd);
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

int runs_read_file(const char *path, struct run ***runs, size_t *n, char *err, size_t errlen)
{
	size_t len = 0;
	char *buf = slurp(path, &len, err, errlen);
	if (!buf)
		return -1;
	int rc = runs_parse(buf, len, path, runs, n, err, errlen);
	free(buf);
	return rc;
}

struct run *run_read_file(const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	char *buf = slurp(path, &len, err, errlen);
	if (!buf)
		return NULL;
	struct run *r = run_parse(buf, len, path, err, errlen);
	free(buf);
	return r;
}

enum run_format run_format_for_path(const char *path, enum run_format dflt)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (dot && !strcmp(dot, ".json"))
		return FMT_JSON;
	if (dot && (!strcmp(dot, ".txt") || !strcmp(dot, ".lmbench")))
		return FMT_LMBENCH;
	if (dot && !strcmp(dot, ".csv"))
		return FMT_CSV;
	return dflt;
}

int run_write(const struct run *r, FILE *f, enum run_format fmt)
{
	return fmt == FMT_JSON ? run_write_json(r, f) : fmt == FMT_CSV ? run_write_csv(r, f)
	       : fmt == FMT_LAVA ? run_write_lava(r, f) : run_write_lmbench(r, f);
}

int run_save_file(const struct run *r, const char *path, enum run_format fmt, char *err,
		  size_t errlen)
{
	struct outfile of;
	if (outfile_open(&of, path, err, errlen))
		return -1;
	if (run_write(r, of.f, fmt) != 0) {
		int e = errno;
		outfile_abandon(&of);
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(e ? e : EIO));
		return -1;
	}
	return outfile_commit(&of, err, errlen);
}
