/* sysinfo.c — `plumb sysinfo`: the system facts a run records, as text or JSON. With --measure
 * it first measures the latency knee as plumb run does (when no cache size is reported or the
 * last level's is too large to believe: a guest shown its host's L3), so cache_llc_effective is
 * what a run would use; without, the caches as reported, at once. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/mem/mem_common.h"
#include "cmd/commands.h"
#include "core/json.h"
#include "core/sysinfo.h"
#include "core/util.h"

struct sysinfo_opts {
	int json, measure;
};

/* --format=json: what run and export call --json */
static void set_format(const char *arg, void *field)
{
	if (strcmp(arg, "json") != 0)
		die(EXIT_USAGE, "unknown argument '--format=%s' (only --json)", arg);
	*(int *)field = 1;
}

const struct opt sysinfo_options[] = {
	OPT_BOOL(0, "json", struct sysinfo_opts, json, "the facts as a JSON object"),
	OPT_CALLBACK(0, "format", struct sysinfo_opts, json, "json", set_format,
		"the same as --json"),
	OPT_BOOL(0, "measure", struct sysinfo_opts, measure,
		"measure the latency knee when plumb run would (a second or more): "
		"the effective LLC"),
	OPT_END,
};

__attribute__((noreturn)) static void sysinfo_bad(const char *cmd, const char *word, int missing)
{
	die(EXIT_USAGE, "unknown argument '%s' (only --json, --measure)", word);
}

int cmd_sysinfo(int argc, char **argv)
{
	struct sysinfo_opts o = { 0 };
	static const struct command_options t = { "sysinfo", sysinfo_options, 0, sysinfo_bad, NULL };
	int first = command_parse(&t, argc, argv, &o);
	if (first < argc)
		sysinfo_bad("sysinfo", argv[first], 0);
	uint64_t llc = sys_llc_bytes();
	if (o.measure && mem_needs_knee(llc))
		mem_knee(llc); /* handed to the facts in PLUMB_MEM_KNEE */
	if (o.json) {
		struct json j;
		json_init(&j, stdout, 1);
		sysinfo_json(&j, NULL);
		return 0;
	}
	struct fact *f = xcalloc(SYSINFO_MAX_FACTS, sizeof *f);
	int n = sysinfo_facts(f, SYSINFO_MAX_FACTS);
	for (int i = 0; i < n; i++)
		printf("%-16s %s\n", f[i].key, f[i].val);
	free(f);
	return 0;
}
