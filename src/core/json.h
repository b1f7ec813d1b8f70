/*
 * json.h — a small streaming JSON writer (no allocation; commas and escaping handled).
 * Reading JSON is the results layer's business (results/json_read.c).
 */
#ifndef PLUMB_JSON_H
#define PLUMB_JSON_H

#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	int depth;
	int need_comma[64];
	int pretty;
};

void json_init(struct json *j, FILE *f, int pretty);
void json_obj_begin(struct json *j, const char *key);   /* key NULL inside arrays / at top */
/* Open a plumb document: the top object with its schema, kind and plumb_version (one place). */
void json_doc_begin(struct json *j, const char *kind);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *v);   /* v NULL → null */
void json_num(struct json *j, const char *key, double v);        /* shortest; NaN/inf → null */
/* A text value that may be a number (a fact, a parameter): written as a JSON number when it is
 * one exactly as json_num would print it (so reading it back gives the same text: "2", "0.05"),
 * else as a string ("0.050", "2,4", "1e3"). */
void json_scalar(struct json *j, const char *key, const char *text);
void json_int(struct json *j, const char *key, long long v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
/* v with the fewest significant digits (1..17) that read back as exactly v ("0.05", "47427"). */
char *json_fmt_num(double v, char *buf, size_t len);

#endif
