/*
 * outfile.h — every file plumb writes for the user (run -o, export -o, compare -o, trend -o,
 * report -o, plot's charts) is written whole or not at all: to a temporary beside it, flushed,
 * synced, then renamed into place. A full disk, an error or a stop leaves the old file (or none),
 * never a truncated one; the temporary is registered so a signal removes it (cleanup.h).
 */
#ifndef PLUMB_OUTFILE_H
#define PLUMB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	char *tmp;
	const char *path;
};

/* Open a temporary beside path (mode 0666 less the umask, as fopen would). 0, or -1 with err. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);
/* Flush, sync, close and rename into place; on any error the temporary is removed and path is
 * left as it was. 0, or -1 with err ("PATH: cannot write: ..."). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Close and remove the temporary: path is left as it was. */
void outfile_abandon(struct outfile *o);
/* The same, exiting with EXIT_USAGE and the message on error (commands' -o). */
FILE *outfile_open_or_die(struct outfile *o, const char *path);
void outfile_commit_or_die(struct outfile *o);

#endif
