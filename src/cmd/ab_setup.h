/*
 * ab_setup.h — what a `plumb ab` session needs around it (ab_setup.c).
 */
#ifndef PLUMB_AB_SETUP_H
#define PLUMB_AB_SETUP_H

#include <stddef.h>

struct run;

/* Side A's command line: a (--a), else this binary (its path into self). */
const char *ab_side_a(const char *a, char *self, size_t size);
/* --label A,B split at its comma into *lab (A, malloc'd) and the returned B; a usage error
 * otherwise. */
char *ab_split_labels(const char *labels, char **lab);
/* The store db tried before the session: 0 writable (or no_store), 1 a build without SQLite;
 * one that cannot be written is a usage error at once, never replaced by another place. */
int ab_store_missing(int no_store, const char *db);
/* Both runs stored in db as one transaction: 1 stored (said), -1 failed (said). */
int ab_store_session(const char *db, struct run **run, const char *sid);
/* Both runs written as dir/A.json and dir/B.json (--json-dir): 0, or -1 (said). */
int ab_write_session(const char *dir, struct run **run);

#endif
