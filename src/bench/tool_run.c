/* tool_run.c — a tool's context, set up once (see tool_run.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "bench/tool_run.h"
#include "core/util.h"

void tool_ctx_init(struct tool_ctx *c, const struct tool *t, int argc, char **argv,
		   int via_symlink)
{
	memset(c, 0, sizeof *c);
	c->tool = t->name;
	c->opts = t->opts;
	c->via_symlink = via_symlink;
	c->out = via_symlink && !t->lm_stdout ? stderr : stdout;
	c->argc = argc - 1;
	c->argv = argv + 1;
	timing_ctx_init(&c->timing);
	prog_name = t->name;
	optind = 0; /* full getopt reset (glibc) */
}

void tool_ctx_free(struct tool_ctx *c)
{
	result_list_free(&c->results);
	free(c->header_info);
	c->header_info = NULL;
}
