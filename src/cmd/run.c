/* run.c — `plumb run`: its options parsed here (run_opts.c), the whole suite unattended in
 * src/suite/ (suite.c). */
#include <string.h>
#include "cmd/commands.h"
#include "core/util.h"
#include "results/run.h"
#include "suite/run.h"
#include "suite/run_opts.h"

int cmd_run(int argc, char **argv)
{
	prog_name = "plumb run";
	/* --ab-worker=PATH: a side of `plumb ab` (not in --help: plumb ab passes it) */
	const char *ab_path = NULL;
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--ab-worker=", 12) == 0) {
			ab_path = argv[i] + 12;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof *argv);
			argc--;
			break;
		}
	struct run_opts o;
	memset(&o, 0, sizeof o);
	struct run *run = run_new();
	run_opts_parse(argc, argv, &o, run);
	return suite_main(&o, run, ab_path);
}
