/*
 * json_write.c — a run as plumb JSON ("kind": "run", docs/json-schema.md): the run's own fields
 * and options under "run", the system/build/lmbench facts under "system", every result with every
 * sample. Numbers are written with %.17g (core/json.c), so reading the file back gives exactly
 * the same doubles; NaN (a missing value) is written as null and reads back as NaN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "core/metrics.h"
#include "core/out.h"
#include "results/io.h"
#include "buildinfo.h"

void run_json_fields(struct json *j, const struct run *r)
{
	if (r->id > 0)
		json_int(j, "id", r->id);
	else
		json_null(j, "id");
	json_str(j, "uid", r->uid);
	json_str(j, "label", r->label);
	json_str(j, "host", r->host);
	json_str(j, "profile", r->profile);
	json_str(j, "source", r->source);
	json_str(j, "started", r->started);
	json_str(j, "ended", r->ended);
	json_bool(j, "incomplete", r->incomplete);
	json_int(j, "rounds", r->rounds);
}

int run_write_json(const struct run *r, FILE *f)
{
	struct json j;
	json_init(&j, f, 1);
	json_doc_begin(&j, "run");
	json_obj_begin(&j, "run");
	run_json_fields(&j, r);
	json_obj_begin(&j, "options");
	for (size_t i = 0; i < r->facts.n; i++)
		if (!strncmp(r->facts.v[i].key, "opt.", 4))
			json_scalar(&j, r->facts.v[i].key + 4, r->facts.v[i].val);
	json_obj_end(&j);
	json_obj_end(&j);
	json_obj_begin(&j, "system");
	for (size_t i = 0; i < r->facts.n; i++)
		if (strncmp(r->facts.v[i].key, "opt.", 4))
			json_scalar(&j, r->facts.v[i].key, r->facts.v[i].val);
	json_obj_end(&j);
	json_arr_begin(&j, "results");
	for (size_t i = 0; i < r->results.n; i++)
		json_result(&j, &r->results.v[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
