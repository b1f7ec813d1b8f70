/*
 * formats.h — private to src/results: the format parsers file.c dispatches to, and the few
 * helpers the readers and writers share. Every parser takes a buffer and its length (the buffer
 * need not be NUL-terminated) so it can be fuzzed directly.
 */
#ifndef PLUMB_RESULTS_FORMATS_H
#define PLUMB_RESULTS_FORMATS_H

#include <stddef.h>
#include "results/run.h"

/* Every "[lmbench3." block of an lmbench 3 raw results text, one run each. 0 with *runs / *n
 * set (n >= 1), or -1 with err set ("NAME: why"). */
int lmbench_parse(const char *buf, size_t len, const char *name, struct run ***runs, size_t *n,
		  char *err, size_t errlen);
/* A plumb JSON document ("kind": "run" or "tool"). NULL with err set. */
struct run *json_parse_run(const char *buf, size_t len, const char *name, char *err,
			   size_t errlen);

/* Append a run to a growing array. */
void run_array_push(struct run ***runs, size_t *n, struct run *r);

#endif
