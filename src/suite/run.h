/*
 * run.h — the suite's entry point: `plumb run ARGS` (argv[0] = "run"), called by the run
 * command (cmd/run.c). Returns the exit status; see suite.c and docs/suite.md.
 */
#ifndef PLUMB_SUITE_RUN_H
#define PLUMB_SUITE_RUN_H

int suite_main(int argc, char **argv);

#endif
