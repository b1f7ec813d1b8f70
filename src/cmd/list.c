/* list.c — `plumb list [--names|--json|--metrics]`: every benchmark with its family, its alias
 * (bench/tool.h) and one line of what it measures; --names the
 * bare names (for scripts), --json the tools and the metric registry (id, unit, better
 * direction, statistic, method version) as one plumb/2 document; --metrics docs/metrics.md,
 * every metric's method, from the registry. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "bench/tool.h"
#include "cmd/commands.h"
#include "core/json.h"
#include "core/metrics.h"
#include "core/util.h"
#include "buildinfo.h"

/* A tool's own options, from its descriptor's table (groups expanded). */
static void json_opts(struct json *j, const struct opt *o)
{
	for (; o && o->kind; o++) {
		if (o->kind == OPTK_GROUP) {
			json_opts(j, o->group);
			continue;
		}
		char letter[2] = { o->letter, 0 };
		json_obj_begin(j, NULL);
		if (o->letter)
			json_str(j, "short", letter);
		if (o->name)
			json_str(j, "long", o->name);
		if (o->arg)
			json_str(j, "value", o->arg);
		json_str(j, "help", o->help ? o->help : "");
		json_obj_end(j);
	}
}

static void list_json(void)
{
	struct json j;
	json_init(&j, stdout, 1);
	json_doc_begin(&j, "list");
	json_arr_begin(&j, "tools");
	for (const struct registered *r = registry; r->file; r++)
		for (const struct tool *t = r->file->tools; t->name; t++) {
			json_obj_begin(&j, NULL);
			json_str(&j, "name", t->name);
			json_str(&j, "family", r->family);
			json_str(&j, "alias", r->file->alias);
			json_str(&j, "subset", subset_name(r->file->subset));
			json_str(&j, "measures", t->summary);
			json_str(&j, "usage", t->usage);
			json_arr_begin(&j, "options");
			json_opts(&j, t->opts ? t->opts->opts : NULL);
			json_arr_end(&j);
			json_obj_end(&j);
		}
	json_arr_end(&j);
	json_arr_begin(&j, "metrics");
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		json_obj_begin(&j, NULL);
		json_str(&j, "id", d->id);
		json_str(&j, "unit", d->unit);
		json_str(&j, "better", better_name(d->better));
		json_str(&j, "statistic", stat_name(d->stat));
		json_int(&j, "method_version", d->version);
		json_str(&j, "description", d->desc);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
}

struct list_cli {
	int names, json, metrics;
};

const struct opt list_options[] = {
	OPT_BOOL(0, "names", struct list_cli, names,
		"the bare tool names, one a line (for scripts)"),
	OPT_BOOL(0, "json", struct list_cli, json,
		"the tools and every metric of the registry as one JSON document"),
	OPT_BOOL(0, "metrics", struct list_cli, metrics,
		"docs/metrics.md: what each metric times, subtracts, "
		"and how it differs from lmbench"),
	OPT_END,
};

__attribute__((noreturn)) static void list_bad(const char *cmd, const char *word, int missing)
{
	die(EXIT_USAGE, "unknown argument '%s' (plumb list [--names|--json|--metrics])", word);
}

int cmd_list(int argc, char **argv)
{
	/* one word at most: the error names the second (before getopt reorders them) */
	if (argc > 2)
		die(EXIT_USAGE, "unknown argument '%s' (plumb list [--names|--json|--metrics])", argv[2]);
	struct list_cli a = { 0 };
	static const struct command_options t = { "list", list_options, 0, list_bad, NULL };
	if (command_parse(&t, argc, argv, &a) < argc)
		list_bad("list", argv[1], 0);
	if (a.metrics) {
		if (metrics_doc(stdout) != 0)
			die(EXIT_MEASURE, "list: a metric is declared without its method (src/bench/FAMILY/TOOL.c)");
		return 0;
	}
	int names = a.names, json = a.json;
	if (json) {
		list_json();
		return ferror(stdout) ? EXIT_USAGE : 0;
	}
	if (!names)
		printf("%-18s %-6s %-8s %-8s %s\n", "NAME", "FAMILY", "ALIAS", "SUBSET", "MEASURES");
	for (const struct registered *r = registry; r->file; r++)
		for (const struct tool *t = r->file->tools; t->name; t++) {
			if (names)
				printf("%s\n", t->name);
			else
				printf("%-18s %-6s %-8s %-8s %s\n", t->name, r->family, r->file->alias,
				       subset_name(r->file->subset), t->summary);
		}
	if (!names)
		printf("\nFAMILY is the folder the tool's source is in (src/bench/FAMILY/); ALIAS a narrower "
		       "name for its\nfile's tools. `plumb run --only/--skip` take both.\n");
	return 0;
}
