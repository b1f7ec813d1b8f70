/* list.c — `plumb list`: every benchmark with its family and one line of what it measures;
 * `plumb list --metrics`: docs/metrics.md, every metric's method, from the registry. */
#include <stdio.h>
#include <string.h>
#include "bench/tool.h"
#include "cmd/commands.h"
#include "core/metrics.h"
#include "core/util.h"

int cmd_list(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--metrics") == 0) {
		if (metrics_doc(stdout) != 0)
			die(EXIT_MEASURE, "list: a metric has no description in metrics_method.def");
		return 0;
	}
	int names = argc > 1 && strcmp(argv[1], "--names") == 0;
	if (argc > 2 || (argc > 1 && !names))
		die(EXIT_USAGE, "list: unknown argument '%s' (--names or --metrics)", argv[argc - 1]);
	if (!names)
		printf("%-18s %-10s %-8s %s\n", "NAME", "FAMILY", "SUBSET", "MEASURES");
	for (int f = 0; families[f]; f++)
		for (const struct tool *t = families[f]->tools; t->name; t++) {
			if (names)
				printf("%s\n", t->name);
			else
				printf("%-18s %-10s %-8s %s\n", t->name, families[f]->name,
				       families[f]->subset == SUBSET_HW ? "hardware" : "os", t->summary);
		}
	return 0;
}
