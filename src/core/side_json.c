/* side_json.c — a result's side metrics in its JSON object (docs/json-schema.md, "side"). */
#include <math.h>
#include <string.h>
#include "core/out.h"
#include "core/side.h"

/* The name of cpuidle state k from r's info (idle_states=POLL,C1) into buf; NULL past the
 * last. */
static const char *state_name(const struct result *r, uint32_t k, char *buf, size_t len)
{
	char all[128];
	if (!param_get(r->info, "idle_states", all, sizeof all))
		return NULL;
	const char *p = all;
	for (uint32_t i = 0; i < k && p; i++)
		if ((p = strchr(p, ',')))
			p++;
	if (!p || !*p)
		return NULL;
	size_t l = strcspn(p, ",");
	if (l >= len)
		l = len - 1;
	memcpy(buf, p, l);
	buf[l] = 0;
	return buf;
}

static void idle_arrays(struct json *j, const struct result *r, uint32_t states)
{
	json_obj_begin(j, "idle");
	for (uint32_t k = 0; k < states && k < SIDE_IDLE_MAX; k++) {
		char name[64];
		if (!state_name(r, k, name, sizeof name))
			break;
		json_obj_begin(j, name);
		json_arr_begin(j, "usage");
		for (size_t i = 0; i < r->nsamples; i++)
			json_num(j, NULL, k < sample_side(&r->samples[i])->idle_states
					       ? sample_side(&r->samples[i])->idle_usage[k] : NAN);
		json_arr_end(j);
		json_arr_begin(j, "time_us");
		for (size_t i = 0; i < r->nsamples; i++)
			json_num(j, NULL, k < sample_side(&r->samples[i])->idle_states
					       ? sample_side(&r->samples[i])->idle_us[k] : NAN);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_obj_end(j);
}

void side_json(struct json *j, const struct result *r)
{
	uint32_t any = 0, states = 0;
	for (size_t i = 0; i < r->nsamples; i++) {
		any |= sample_side(&r->samples[i])->have;
		if (sample_side(&r->samples[i])->idle_states > states)
			states = sample_side(&r->samples[i])->idle_states;
	}
	if (!any)
		return;
	json_obj_begin(j, "side");
	json_arr_begin(j, "ops");
	for (size_t i = 0; i < r->nsamples; i++)
		json_num(j, NULL, sample_side(&r->samples[i])->ops > 0 ? sample_side(&r->samples[i])->ops : NAN);
	json_arr_end(j);
	for (int f = 0; f < SIDE_NFIELDS; f++) {
		if (!(any & (1u << f)))
			continue;
		json_arr_begin(j, side_field_name(f));
		for (size_t i = 0; i < r->nsamples; i++) {
			const struct side_sample *s = sample_side(&r->samples[i]);
			json_num(j, NULL, s->have & (1u << f) ? s->v[f] : NAN);
		}
		json_arr_end(j);
	}
	if (states)
		idle_arrays(j, r, states);
	json_obj_end(j);
}
