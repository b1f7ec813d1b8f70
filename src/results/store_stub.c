/* store_stub.c — placeholder until the SQLite store lands (replaced by store.c). */
#include <stdio.h>
#include "results/store.h"

const char *store_default_path(void) { return "results.db"; }

struct store *store_open(const char *path, int create, char *err, size_t errlen)
{
	(void)create;
	snprintf(err, errlen, "%s: the results store is not implemented yet", path ? path : "store");
	return NULL;
}

void store_close(struct store *s) { (void)s; }
int store_save(struct store *s, struct run *r, char *err, size_t errlen)
{ (void)s; (void)r; snprintf(err, errlen, "store not implemented"); return -1; }
struct run *store_load(struct store *s, long id, char *err, size_t errlen)
{ (void)s; (void)id; snprintf(err, errlen, "store not implemented"); return NULL; }
int store_find_label(struct store *s, const char *label, long **ids)
{ (void)s; (void)label; (void)ids; return 0; }
int store_list(struct store *s, struct run ***runs, char *err, size_t errlen)
{ (void)s; (void)runs; snprintf(err, errlen, "store not implemented"); return -1; }
int store_delete(struct store *s, long id, char *err, size_t errlen)
{ (void)s; (void)id; snprintf(err, errlen, "store not implemented"); return -1; }
int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen)
{ (void)s; (void)id; (void)label; snprintf(err, errlen, "store not implemented"); return -1; }
int runs_resolve(const char *arg, const char *db, struct run ***runs, size_t *n, char *err,
		 size_t errlen)
{ (void)db; (void)runs; (void)n; snprintf(err, errlen, "%s: not implemented yet", arg); return -1; }
