/* run.c — `plumb run`: the whole suite, unattended; it lives in src/suite/ (suite.c). */
#include "cmd/commands.h"
#include "suite/run.h"

int cmd_run(int argc, char **argv)
{
	return suite_main(argc, argv);
}
