/*
 * registry.c — the one table of benchmark families. Adding a family: write src/bench/NAME.c
 * ending in `const struct family fam_NAME`, add one line here.
 */
#include <string.h>
#include "bench/tool.h"

extern const struct family fam_syscall;
extern const struct family fam_select;
extern const struct family fam_signal;
extern const struct family fam_proc;
extern const struct family fam_ipc;
extern const struct family fam_ops;
extern const struct family fam_mhz;
extern const struct family fam_memsize;
extern const struct family fam_ctx;
extern const struct family fam_files;
extern const struct family fam_lmdd;
extern const struct family fam_disk;
extern const struct family fam_netlat;
extern const struct family fam_netbw;
extern const struct family fam_http;
extern const struct family fam_rpc;
extern const struct family fam_mem_bw;
extern const struct family fam_mem_lat;
extern const struct family fam_stream;
extern const struct family fam_mem_cache;

const struct family *const families[] = {
	&fam_syscall,
	&fam_select,
	&fam_signal,
	&fam_proc,
	&fam_ipc,
	&fam_ops,
	&fam_mhz,
	&fam_memsize,
	&fam_ctx,
	&fam_files,
	&fam_lmdd,
	&fam_disk,
	&fam_netlat,
	&fam_netbw,
	&fam_http,
	&fam_rpc,
	&fam_mem_bw,
	&fam_mem_lat,
	&fam_stream,
	&fam_mem_cache,
	NULL,
};

const struct tool *tool_find(const char *name, const struct family **fam)
{
	for (int f = 0; families[f]; f++)
		for (const struct tool *t = families[f]->tools; t->name; t++)
			if (strcmp(t->name, name) == 0) {
				if (fam)
					*fam = families[f];
				return t;
			}
	return NULL;
}
