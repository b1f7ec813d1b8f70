/* io_stub.c — placeholder until the readers and writers land (replaced by json_*.c and
 * lmbench_*.c). Every function fails cleanly. */
#include <stdio.h>
#include "results/io.h"

int run_write_json(const struct run *r, FILE *f) { (void)r; (void)f; return -1; }
int run_write_lmbench(const struct run *r, FILE *f) { (void)r; (void)f; return -1; }

int run_save_file(const struct run *r, const char *path, enum run_format fmt, char *err,
		  size_t errlen)
{
	(void)r; (void)fmt;
	snprintf(err, errlen, "%s: writing runs is not implemented yet", path);
	return -1;
}

struct run *run_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
	(void)buf; (void)len;
	snprintf(err, errlen, "%s: reading runs is not implemented yet", name);
	return NULL;
}

struct run *run_read_file(const char *path, char *err, size_t errlen)
{
	return run_parse(NULL, 0, path, err, errlen);
}
