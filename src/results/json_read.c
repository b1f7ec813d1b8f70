/*
 * json_read.c — a small, strict JSON parser (RFC 8259) and the reader of plumb JSON documents
 * (docs/json-schema.md) into runs.
 *
 * The parser builds a tree of nodes allocated in blocks as the values come (so memory follows
 * what the document holds, not a bound reserved from its size), takes a buffer plus length (no NUL needed, never read past it),
 * limits nesting to JSON_MAX_DEPTH (the only recursion), rejects anything RFC 8259 does not allow
 * (trailing commas, control characters in strings, leading zeros, lone surrogates, trailing
 * garbage) and reports the byte offset of the first error.
 *
 * A "kind": "run" document reads as that run; a "kind": "tool" document (one tool's --json) reads
 * as a run with profile "tool". Keys the reader does not know are ignored, as the schema requires.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "results/formats.h"

#define JSON_MAX_DEPTH 64

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	enum jtype type;
	char *key;      /* member name inside an object, else NULL */
	char *str;      /* J_STR: decoded text; J_NUM: the literal as written */
	double num;
	struct jnode *child, *next;
};

/* Nodes come in blocks that never move (the tree points into them). */
#define JBLOCK_NODES 4096
struct jblock {
	struct jblock *prev;
	size_t n;
	struct jnode v[JBLOCK_NODES];
};

struct jparser {
	const char *s;
	size_t len, pos;
	struct jblock *nodes; /* the newest block */
	char *text;      /* decoded strings, one arena */
	size_t ntext, textcap;
	const char *err;
	int oom; /* a block could not be allocated: the machine, not the file */
};

static struct jnode *new_node(struct jparser *p, enum jtype t)
{
	if (!p->nodes || p->nodes->n == JBLOCK_NODES) {
		struct jblock *b = malloc(sizeof *b);
		if (!b) {
			p->oom = 1;
			p->err = "out of memory";
			return NULL;
		}
		b->prev = p->nodes;
		b->n = 0;
		p->nodes = b;
	}
	struct jnode *n = &p->nodes->v[p->nodes->n++];
	memset(n, 0, sizeof *n);
	n->type = t;
	return n;
}

static void ws(struct jparser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int fail(struct jparser *p, const char *why)
{
	if (!p->err)
		p->err = why;
	return -1;
}

static void put(struct jparser *p, char c)
{
	if (p->ntext < p->textcap)
		p->text[p->ntext++] = c;
}

static void put_utf8(struct jparser *p, uint32_t c)
{
	if (c < 0x80) {
		put(p, (char)c);
	} else if (c < 0x800) {
		put(p, (char)(0xc0 | c >> 6));
		put(p, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		put(p, (char)(0xe0 | c >> 12));
		put(p, (char)(0x80 | ((c >> 6) & 0x3f)));
		put(p, (char)(0x80 | (c & 0x3f)));
	} else {
		put(p, (char)(0xf0 | c >> 18));
		put(p, (char)(0x80 | ((c >> 12) & 0x3f)));
		put(p, (char)(0x80 | ((c >> 6) & 0x3f)));
		put(p, (char)(0x80 | (c & 0x3f)));
	}
}

static int hex4(struct jparser *p, uint32_t *v)
{
	if (p->len - p->pos < 4)
		return fail(p, "truncated \\u escape");
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p->s[p->pos++];
		int d = isdigit((unsigned char)c) ? c - '0'
			: (c >= 'a' && c <= 'f') ? c - 'a' + 10
			: (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
		if (d < 0)
			return fail(p, "bad \\u escape");
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

/* A string literal at p->pos (on the opening quote); *out points into the text arena. The text
 * arena holds at most as many bytes as the input (escapes only shrink), plus a NUL per string. */
static int string(struct jparser *p, char **out)
{
	p->pos++;
	*out = p->text + p->ntext;
	for (;;) {
		if (p->pos >= p->len)
			return fail(p, "unterminated string");
		unsigned char c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(p, "control character in string");
		if (c != '\\') {
			put(p, (char)c);
			continue;
		}
		if (p->pos >= p->len)
			return fail(p, "unterminated string");
		char e = p->s[p->pos++];
		uint32_t u, lo;
		switch (e) {
		case '"': put(p, '"'); break;
		case '\\': put(p, '\\'); break;
		case '/': put(p, '/'); break;
		case 'b': put(p, '\b'); break;
		case 'f': put(p, '\f'); break;
		case 'n': put(p, '\n'); break;
		case 'r': put(p, '\r'); break;
		case 't': put(p, '\t'); break;
		case 'u':
			if (hex4(p, &u))
				return -1;
			if (u >= 0xdc00 && u <= 0xdfff)
				return fail(p, "lone surrogate in string");
			if (u >= 0xd800 && u <= 0xdbff) {
				if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
					return fail(p, "lone surrogate in string");
				p->pos += 2;
				if (hex4(p, &lo))
					return -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(p, "lone surrogate in string");
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (u == 0)
				return fail(p, "NUL in string");
			put_utf8(p, u);
			break;
		default:
			return fail(p, "bad escape in string");
		}
	}
	put(p, 0);
	return 0;
}

static int number(struct jparser *p, struct jnode *n)
{
	size_t st = p->pos;
	const char *s = p->s;
#define AT(i) ((i) < p->len ? s[i] : 0)
	if (AT(p->pos) == '-')
		p->pos++;
	if (AT(p->pos) == '0') {
		p->pos++;
	} else if (AT(p->pos) >= '1' && AT(p->pos) <= '9') {
		while (isdigit((unsigned char)AT(p->pos)))
			p->pos++;
	} else {
		return fail(p, "bad number");
	}
	if (AT(p->pos) == '.') {
		p->pos++;
		if (!isdigit((unsigned char)AT(p->pos)))
			return fail(p, "bad number");
		while (isdigit((unsigned char)AT(p->pos)))
			p->pos++;
	}
	if (AT(p->pos) == 'e' || AT(p->pos) == 'E') {
		p->pos++;
		if (AT(p->pos) == '+' || AT(p->pos) == '-')
			p->pos++;
		if (!isdigit((unsigned char)AT(p->pos)))
			return fail(p, "bad number");
		while (isdigit((unsigned char)AT(p->pos)))
			p->pos++;
	}
#undef AT
	size_t l = p->pos - st;
	if (l > 400)
		return fail(p, "number too long");
	n->str = p->text + p->ntext;
	for (size_t i = 0; i < l; i++)
		put(p, s[st + i]);
	put(p, 0);
	n->num = strtod(n->str, NULL);
	return 0;
}

static int literal(struct jparser *p, const char *w)
{
	size_t l = strlen(w);
	if (p->len - p->pos < l || memcmp(p->s + p->pos, w, l) != 0)
		return fail(p, "unexpected character");
	p->pos += l;
	return 0;
}

static int value(struct jparser *p, struct jnode **out, int depth);

/* An object (c '{') or an array (c '['), its members in order; p is at c. */
static int container(struct jparser *p, char c, struct jnode **out, int depth)
{
	struct jnode *n = new_node(p, c == '{' ? J_OBJ : J_ARR);
	if (!n)
		return fail(p, "out of memory");
	p->pos++;
	struct jnode **tail = &n->child;
	ws(p);
	if (p->pos < p->len && p->s[p->pos] == (c == '{' ? '}' : ']')) {
		p->pos++;
		*out = n;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		if (c == '{') {
			ws(p);
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, "expected a member name");
			if (string(p, &key))
				return -1;
			ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, "expected ':'");
			p->pos++;
		}
		struct jnode *v;
		if (value(p, &v, depth + 1))
			return -1;
		v->key = key;
		*tail = v;
		tail = &v->next;
		ws(p);
		if (p->pos >= p->len)
			return fail(p, "unexpected end of input");
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == (c == '{' ? '}' : ']')) {
			p->pos++;
			*out = n;
			return 0;
		}
		return fail(p, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int value(struct jparser *p, struct jnode **out, int depth)
{
	ws(p);
	if (p->pos >= p->len)
		return fail(p, "unexpected end of input");
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested too deeply");
	char c = p->s[p->pos];
	struct jnode *n;
	switch (c) {
	case '{':
	case '[':
		return container(p, c, out, depth);
	case '"':
		n = new_node(p, J_STR);
		if (!n || string(p, &n->str))
			return fail(p, "bad string");
		break;
	case 't':
		n = new_node(p, J_TRUE);
		if (!n || literal(p, "true"))
			return -1;
		break;
	case 'f':
		n = new_node(p, J_FALSE);
		if (!n || literal(p, "false"))
			return -1;
		break;
	case 'n':
		n = new_node(p, J_NULL);
		if (!n || literal(p, "null"))
			return -1;
		break;
	default:
		n = new_node(p, J_NUM);
		if (!n || number(p, n))
			return -1;
	}
	*out = n;
	return 0;
}

/* ---- the document ------------------------------------------------------------------------- */

static const struct jnode *get(const struct jnode *o, const char *key)
{
	if (!o || o->type != J_OBJ)
		return NULL;
	const struct jnode *found = NULL;
	for (const struct jnode *c = o->child; c; c = c->next)
		if (!strcmp(c->key, key))
			found = c; /* the last duplicate wins, as in most readers */
	return found;
}

static const char *get_str(const struct jnode *o, const char *key)
{
	const struct jnode *v = get(o, key);
	return v && v->type == J_STR ? v->str : NULL;
}

static double get_num(const struct jnode *o, const char *key, double dflt)
{
	const struct jnode *v = get(o, key);
	return v && v->type == J_NUM ? v->num : dflt;
}

/* An integer field, clamped: a hostile document must not make a double-to-int cast overflow. */
static int get_int(const struct jnode *o, const char *key, int dflt)
{
	double v = get_num(o, key, dflt);
	if (!(v >= -1e9 && v <= 1e9))
		return dflt;
	return (int)v;
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

/* A scalar as fact text: strings as they are, numbers as written, true/false. */
static const char *scalar_text(const struct jnode *v)
{
	switch (v->type) {
	case J_STR:
	case J_NUM: return v->str;
	case J_TRUE: return "true";
	case J_FALSE: return "false";
	default: return NULL;
	}
}

static void facts_from(struct run *r, const struct jnode *o, const char *prefix)
{
	if (!o || o->type != J_OBJ)
		return;
	for (const struct jnode *c = o->child; c; c = c->next) {
		const char *t = scalar_text(c);
		if (!t)
			continue;
		char *k = xasprintf("%s%s", prefix, c->key);
		kv_set(&r->facts, k, t);
		free(k);
	}
}

/* {"a": "1", "b": null} → "a=1 b" (a key without a value is kept as a bare word). */
static char *kv_string(const struct jnode *o)
{
	size_t cap = 64, n = 0;
	char *s = xmalloc(cap);
	s[0] = 0;
	if (!o || o->type != J_OBJ)
		return s;
	for (const struct jnode *c = o->child; c; c = c->next) {
		const char *t = scalar_text(c);
		size_t need = strlen(c->key) + (t ? strlen(t) + 1 : 0) + 2;
		if (n + need + 1 > cap) {
			cap = 2 * (n + need + 1);
			s = xrealloc(s, cap);
		}
		n += (size_t)sprintf(s + n, "%s%s%s%s", n ? " " : "", c->key, t ? "=" : "", t ? t : "");
	}
	return s;
}

/* The i-th number of array a into *v; 0 when it is one (null: not read). */
static int arr_num(const struct jnode *a, size_t i, double *v)
{
	const struct jnode *e = a && a->type == J_ARR ? a->child : NULL;
	for (; e && i; i--)
		e = e->next;
	if (!e || e->type != J_NUM)
		return -1;
	*v = e->num;
	return 0;
}

/* A result's "side" object (core/side.h): arrays parallel to its samples; unknown keys are
 * ignored. */
static void read_side(struct result *res, const struct jnode *side)
{
	if (!side || side->type != J_OBJ)
		return;
	const struct jnode *idle = get(side, "idle");
	for (size_t i = 0; i < res->nsamples; i++) {
		struct side_sample one = { 0 }, *ss = &one;
		double v;
		if (arr_num(get(side, "ops"), i, &v) == 0)
			ss->ops = v;
		for (int f = 0; f < SIDE_NFIELDS; f++)
			if (arr_num(get(side, side_field_name(f)), i, &v) == 0) {
				ss->v[f] = v;
				ss->have |= 1u << f;
			}
		uint32_t k = 0;
		for (const struct jnode *st = idle && idle->type == J_OBJ ? idle->child : NULL;
		     st && k < SIDE_IDLE_MAX; st = st->next, k++) {
			if (arr_num(get(st, "usage"), i, &ss->idle_usage[k]) != 0 ||
			    arr_num(get(st, "time_us"), i, &ss->idle_us[k]) != 0)
				break;
		}
		ss->idle_states = k;
		free(res->samples[i].side);
		res->samples[i].side = side_dup(ss);
	}
}

static int read_result(struct run *r, const struct jnode *o, char *why, size_t wl)
{
	const char *metric = get_str(o, "metric");
	if (!metric || !*metric) {
		snprintf(why, wl, "a result without \"metric\"");
		return -1;
	}
	char *params = kv_string(get(o, "params"));
	struct result *res = result_list_add(&r->results, metric, params, get_num(o, "x", NAN));
	free(params);
	res->value = get_num(o, "value", NAN);
	res->unit = dup_or_null(get_str(o, "unit"));
	res->version = get_int(o, "method_version", 0);
	const struct jnode *info = get(o, "info");
	if (info && info->type == J_OBJ && info->child)
		res->info = kv_string(info);
	const struct jnode *ss = get(o, "samples");
	if (ss && ss->type == J_ARR)
		for (const struct jnode *s = ss->child; s; s = s->next) {
			if (s->type != J_OBJ)
				continue;
			struct sample sm = { .value = get_num(s, "value", NAN),
					     .elapsed_ns = get_num(s, "elapsed_ns", NAN),
					     .round = get_int(s, "round", 0) };
			const struct jnode *it = get(s, "iters");
			if (it && it->type == J_NUM && strspn(it->str, "0123456789") == strlen(it->str))
				sm.iters = strtoull(it->str, NULL, 10); /* exact, beyond 2^53 */
			else if (it && it->type == J_NUM && it->num >= 0 && it->num < 1.8e19)
				sm.iters = (uint64_t)it->num;
			result_add_sample(res, sm);
		}
	read_side(res, get(o, "side"));
	return 0;
}

static struct run *doc_to_run(const struct jnode *doc, char *why, size_t wl)
{
	if (doc->type != J_OBJ) {
		snprintf(why, wl, "not a plumb JSON document (not an object)");
		return NULL;
	}
	const char *schema = get_str(doc, "schema");
	if (!schema || strncmp(schema, "plumb/", 6) != 0) {
		snprintf(why, wl, "not a plumb JSON document (no \"schema\": \"plumb/N\")");
		return NULL;
	}
	/* plumb/1 (facts as strings) and plumb/2 read the same way; "plumb/2.1" would be a
	 * compatible addition to 2. A major version this reader does not know may mean anything. */
	char *end;
	long major = strtol(schema + 6, &end, 10);
	if (end == schema + 6 || (*end && *end != '.') || major < 1 || major > 2) {
		snprintf(why, wl, "schema \"%.40s\" is not one this plumb reads (plumb/1, plumb/2): "
			 "a newer plumb wrote it", schema);
		return NULL;
	}
	const char *kind = get_str(doc, "kind");
	if (!kind || (strcmp(kind, "run") && strcmp(kind, "tool"))) {
		snprintf(why, wl, "plumb JSON of kind \"%.40s\", not a run or a tool's output",
			 kind ? kind : "(none)");
		return NULL;
	}
	const struct jnode *results = get(doc, "results");
	if (!results || results->type != J_ARR) {
		snprintf(why, wl, "no \"results\" array");
		return NULL;
	}
	struct run *r = run_new();
	const struct jnode *sys = get(doc, "system");
	facts_from(r, sys, "");
	if (!strcmp(kind, "run")) {
		const struct jnode *m = get(doc, "run");
		r->id = 0; /* a file's run is not in this store yet */
		const char *uid = get_str(m, "uid");
		if (uid && !uid_valid(uid)) {
			snprintf(why, wl, "\"uid\" is not %d lowercase hex digits", RUN_UID_LEN);
			run_free(r);
			return NULL;
		}
		r->uid = dup_or_null(uid); /* absent (plumb/1 before uids): runs_parse hashes */
		r->label = dup_or_null(get_str(m, "label"));
		r->host = dup_or_null(get_str(m, "host"));
		r->profile = dup_or_null(get_str(m, "profile"));
		r->source = dup_or_null(get_str(m, "source"));
		r->started = dup_or_null(get_str(m, "started"));
		r->ended = dup_or_null(get_str(m, "ended"));
		const struct jnode *inc = get(m, "incomplete");
		r->incomplete = inc && (inc->type == J_TRUE || (inc->type == J_NUM && inc->num != 0));
		r->rounds = get_int(m, "rounds", 1);
		facts_from(r, get(m, "options"), "opt.");
		facts_from(r, get(doc, "facts"), "");
	} else {
		/* one tool's --json: a run of one tool; its printed facts keep their names */
		const char *tool = get_str(doc, "tool");
		r->profile = xstrdup("tool");
		r->source = xasprintf("plumb:%s", tool ? tool : "tool");
		r->host = dup_or_null(kv_get(&r->facts, "hostname"));
		facts_from(r, get(doc, "facts"), "");
		if (tool)
			kv_set(&r->facts, "tool", tool);
	}
	if (!r->host)
		r->host = dup_or_null(kv_get(&r->facts, "hostname"));
	if (r->rounds < 1)
		r->rounds = 1;
	for (const struct jnode *c = results->child; c; c = c->next)
		if (c->type != J_OBJ || read_result(r, c, why, wl)) {
			if (c->type != J_OBJ)
				snprintf(why, wl, "a result that is not an object");
			run_free(r);
			return NULL;
		}
	return r;
}

struct run *json_parse_run(const char *buf, size_t len, const char *name, char *err,
			   size_t errlen)
{
	struct jparser p = { .s = buf, .len = len };
	/* every decoded byte comes from an input byte, plus a NUL per value */
	p.textcap = 2 * len + 16;
	p.text = malloc(p.textcap);
	if (!p.text) {
		snprintf(err, errlen, "%s: out of memory reading it (%zu bytes)", name, len);
		return NULL;
	}
	struct jnode *doc = NULL;
	int rc = value(&p, &doc, 0);
	if (!rc) {
		ws(&p);
		if (p.pos != p.len)
			rc = fail(&p, "garbage after the document");
	}
	struct run *r = NULL;
	if (rc && p.oom) {
		snprintf(err, errlen, "%s: out of memory reading it (at byte %zu of %zu)", name, p.pos,
			 len);
	} else if (rc) {
		snprintf(err, errlen, "%s: bad JSON at byte %zu: %s", name, p.pos,
			 p.err ? p.err : "not valid here");
	} else {
		char why[200];
		r = doc_to_run(doc, why, sizeof why);
		if (!r)
			snprintf(err, errlen, "%s: %s", name, why);
	}
	while (p.nodes) {
		struct jblock *b = p.nodes;
		p.nodes = b->prev;
		free(b);
	}
	free(p.text);
	return r;
}
