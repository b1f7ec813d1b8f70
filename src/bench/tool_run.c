/* tool_run.c — a tool's context, set up once, and the mode operand (see tool_run.h). */
#include <stdio.h>
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
}

void tool_ctx_free(struct tool_ctx *c)
{
	result_list_free(&c->results);
	free(c->header_info);
	c->header_info = NULL;
}

static const char *mode_name(const void *modes, size_t size, size_t i)
{
	return *(const char *const *)((const char *)modes + i * size);
}

size_t tool_mode(struct tool_ctx *c, struct operands args, const void *modes, size_t n, size_t size)
{
	char names[256];
	size_t len = 0;
	for (size_t i = 0; i < n && len < sizeof names; i++)
		len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
					i == 0 ? "" : i + 1 < n ? ", " : " or ", mode_name(modes, size, i));
	if (args.n == 0)
		usage_error(c, "missing mode (%s)", names);
	for (size_t i = 0; i < n; i++)
		if (strcmp(args.v[0], mode_name(modes, size, i)) == 0)
			return i;
	usage_error(c, "unknown mode '%s' (%s)", args.v[0], names);
}
