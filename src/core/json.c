/* json.c — streaming JSON writer: shortest round-trip numbers, strings as valid UTF-8 (invalid
 * bytes as U+FFFD), null for NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "core/escape.h"
#include "buildinfo.h"
#include "core/util.h"

void json_init(struct json *j, FILE *f, int pretty)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = 0;
	j->pretty = pretty;
}

static void indent(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void item(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = 1;
	if (j->depth > 0)
		indent(j);
	if (key) {
		json_fputs(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open_(struct json *j, const char *key, char c)
{
	item(j, key);
	fputc(c, j->f);
	if (j->depth < 63)
		j->depth++;
	j->need_comma[j->depth] = 0;
}

static void close_(struct json *j, char c)
{
	int had = j->need_comma[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_obj_begin(struct json *j, const char *key) { open_(j, key, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j, const char *key) { open_(j, key, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *key, const char *v)
{
	item(j, key);
	if (v)
		json_fputs(j->f, v);
	else
		fputs("null", j->f);
}

void json_num(struct json *j, const char *key, double v)
{
	item(j, key);
	char buf[32];
	if (isnan(v) || isinf(v))
		fputs("null", j->f);
	else
		fputs(json_fmt_num(v, buf, sizeof buf), j->f);
}

char *json_fmt_num(double v, char *buf, size_t len)
{
	/* %.17g always round-trips but prints 0.05 as 0.050000000000000003: take the fewest
	 * digits that read back as the same double */
	if (v == floor(v) && fabs(v) < 1e17) {
		snprintf(buf, len, "%.0f", v); /* whole numbers as integers: 20, not 2e+01 */
		return buf;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

void json_scalar(struct json *j, const char *key, const char *text)
{
	char *end, buf[32];
	double v = text && *text ? strtod(text, &end) : NAN;
	if (isfinite(v) && !*end && !strcmp(json_fmt_num(v, buf, sizeof buf), text)) {
		item(j, key);
		fputs(text, j->f);
	} else {
		json_str(j, key, text);
	}
}

void json_int(struct json *j, const char *key, long long v)
{
	item(j, key);
	fprintf(j->f, "%lld", v);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	item(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_bool(struct json *j, const char *key, int v)
{
	item(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	item(j, key);
	fputs("null", j->f);
}

void json_doc_begin(struct json *j, const char *kind)
{
	json_obj_begin(j, NULL);
	json_str(j, "schema", "plumb/2");
	json_str(j, "kind", kind);
	json_str(j, "plumb_version", PLUMB_VERSION);
}
