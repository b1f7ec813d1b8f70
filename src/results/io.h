/*
 * io.h — reading and writing runs as files.
 *   plumb JSON (docs/json-schema.md, "kind": "run"; a "kind": "tool" document reads as a run
 *   with profile "tool"), and lmbench 3 raw results text (the file lmbench's suite writes,
 *   beginning "[lmbench3.0 results for ...]").
 * Writers never leave a half-written file: run_save_file() writes to a temporary name in the
 * same directory and renames it into place.
 */
#ifndef PLUMB_IO_H
#define PLUMB_IO_H

#include <stdio.h>
#include "results/run.h"

enum run_format { FMT_JSON, FMT_LMBENCH, FMT_CSV, FMT_LAVA };

int run_write_json(const struct run *r, FILE *f);
/* The run's own fields (id, uid, label, host, profile, source, started, ended, incomplete,
 * rounds) into the open JSON object j: the "run" object of a run, an entry of `plumb runs`. */
struct json;
void run_json_fields(struct json *j, const struct run *r);
int run_write_lmbench(const struct run *r, FILE *f);
/* One row per sample, for data tools (results/csv_write.c). */
int run_write_csv(const struct run *r, FILE *f);
/* One lava-test-case line per point, for a LAVA test shell (results/lava_write.c). */
int run_write_lava(const struct run *r, FILE *f);
/* The writer of a format. */
int run_write(const struct run *r, FILE *f, enum run_format fmt);
/* Write r to path atomically (temp + rename). 0, or -1 with err set. */
int run_save_file(const struct run *r, const char *path, enum run_format fmt, char *err,
		  size_t errlen);
/* Read a run from a buffer / a file, detecting the format. NULL with err set ("FILE: why") when
 * the input is not a plumb JSON document or has no lmbench header or no recognisable result. */
struct run *run_parse(const char *buf, size_t len, const char *name, char *err, size_t errlen);
struct run *run_read_file(const char *path, char *err, size_t errlen);
/* A tool's own JSON document, as a plumb run step sends it back, without run_check: the suite
 * checks each value where it merges it (suite/step.c) and leaves out the impossible ones one by
 * one, where run_parse would refuse the whole document. NULL with err set. */
struct run *run_parse_step(const char *buf, size_t len, char *err, size_t errlen);

/* Added by the results layer. A file may hold several runs (an lmbench text with several
 * "[lmbench3.0 results for" blocks, as forum threads do): these read them all, appending to
 * *runs / *n. run_parse / run_read_file return the first. 0, or -1 with err set. */
int runs_parse(const char *buf, size_t len, const char *name, struct run ***runs, size_t *n,
	       char *err, size_t errlen);
int runs_read_file(const char *path, struct run ***runs, size_t *n, char *err, size_t errlen);
/* The format a path's extension asks for (".json" JSON, ".txt" lmbench, ".csv" CSV), else dflt. */
enum run_format run_format_for_path(const char *path, enum run_format dflt);

#endif
