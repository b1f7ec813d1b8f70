/* sysinfo.c — `plumb sysinfo`: the system facts a run records, as text or JSON. */
#include <stdio.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/json.h"
#include "core/sysinfo.h"
#include "core/util.h"

int cmd_sysinfo(int argc, char **argv)
{
	int json = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--format=json") == 0)
			json = 1;
		else
			die(EXIT_USAGE, "sysinfo: unknown argument '%s' (only --json)", argv[i]);
	}
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
