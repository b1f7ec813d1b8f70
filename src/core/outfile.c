/* outfile.c — whole files or none (outfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/outfile.h"
#include "core/util.h"

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	o->path = path;
	o->tmp = xasprintf("%s.tmp.XXXXXX", path);
	o->f = NULL;
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	path_register(o->tmp, 0); /* removed if we are interrupted */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* mkstemp makes 0600; the file is the user's, as fopen's are */
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		path_forget(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int rc = 0, saved = 0;
	if (ferror(o->f) || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)
		rc = -1, saved = errno;
	if (fclose(o->f) != 0 && rc == 0)
		rc = -1, saved = errno;
	if (rc == 0 && rename(o->tmp, o->path) != 0)
		rc = -1, saved = errno;
	if (rc != 0) {
		unlink(o->tmp);
		snprintf(err, errlen, "%s: cannot write: %s", o->path, strerror(saved ? saved : EIO));
	}
	path_forget(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	o->f = NULL;
	return rc;
}

void outfile_abandon(struct outfile *o)
{
	fclose(o->f);
	unlink(o->tmp);
	path_forget(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	o->f = NULL;
}

FILE *outfile_open_or_die(struct outfile *o, const char *path)
{
	char err[512];
	if (outfile_open(o, path, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	return o->f;
}

void outfile_commit_or_die(struct outfile *o)
{
	char err[512];
	if (outfile_commit(o, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
}
