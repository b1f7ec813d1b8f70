/* sysinfo.c — `plumb sysinfo`: the system facts a run records, as text or JSON. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/json.h"
#include "core/sysinfo.h"
#include "core/util.h"

/* --format=json: what run and export call --json */
static void set_format(const char *arg, void *field)
{
	if (strcmp(arg, "json") != 0)
		die(EXIT_USAGE, "sysinfo: unknown argument '--format=%s' (only --json)", arg);
	*(int *)field = 1;
}

static const struct opt_action format_action = { set_format, 0 };

const struct opt sysinfo_options[] = {
	{ 0, "json", OPT_FLAG, 0, 0, 0, NULL, NULL, "the facts as a JSON object", NULL },
	{ 0, "format", OPT_CUSTOM, 0, 0, 0, "json", NULL, "the same as --json", &format_action },
	{ 0 },
};

__attribute__((noreturn)) static void sysinfo_bad(const char *cmd, const char *word, int missing)
{
	die(EXIT_USAGE, "sysinfo: unknown argument '%s' (only --json)", word);
}

int cmd_sysinfo(int argc, char **argv)
{
	int json = 0;
	static const struct command_options t = { "sysinfo", sysinfo_options, 0, sysinfo_bad, NULL };
	int first = command_parse(&t, argc, argv, &json);
	if (first < argc)
		sysinfo_bad("sysinfo", argv[first], 0);
	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		sysinfo_json(&j, NULL);
		return 0;
	}
	struct fact f[64];
	int n = sysinfo_facts(f, 64);
	for (int i = 0; i < n; i++)
		printf("%-16s %s\n", f[i].key, f[i].val);
	return 0;
}
