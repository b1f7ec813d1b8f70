/* secret.c — masking database passwords in what plumb prints and keeps (secret.h), and whether a
 * store's name is a URI: below store.c and its backends, it calls none of them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/util.h"
#include "results/secret.h"
#include "results/store.h"

/* A growing string. */
struct sbuf {
	char *s;
	size_t n, cap;
};

static void put(struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

/* The user part of a URI: [*start, *end) between "://" and the last '@' before the query.
 * 0 when there is none. */
static int user_part(const char *uri, const char **start, const char **end)
{
	if (!store_is_uri(uri))
		return 0;
	const char *a = strstr(uri, "://") + 3, *q = a + strcspn(a, "?"), *at = NULL;
	for (const char *p = a; p < q; p++)
		if (*p == '@')
			at = p;
	if (!at)
		return 0;
	*start = a;
	*end = at;
	return 1;
}

int store_is_uri(const char *s)
{
	return s && (!strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11));
}

char *uri_password(const char *uri)
{
	const char *a, *at;
	if (user_part(uri, &a, &at)) {
		const char *colon = memchr(a, ':', (size_t)(at - a));
		if (colon)
			return xasprintf("%.*s", (int)(at - colon - 1), colon + 1);
	}
	const char *q = uri ? strchr(uri, '?') : NULL;
	for (const char *p = q; p && *p; p++)
		if ((p[-1] == '?' || p[-1] == '&') && !strncasecmp(p, "password=", 9))
			return xasprintf("%.*s", (int)strcspn(p + 9, "&"), p + 9);
	return NULL;
}

int uri_two_passwords(const char *uri)
{
	const char *a, *at;
	if (!user_part(uri, &a, &at) || !memchr(a, ':', (size_t)(at - a)))
		return 0;
	for (const char *p = strchr(at, '?'); p && *p; p++)
		if ((p[-1] == '?' || p[-1] == '&') && !strncasecmp(p, "password=", 9))
			return 1;
	return 0;
}

char *uri_for_libpq(const char *uri)
{
	const char *a, *at;
	if (!user_part(uri, &a, &at))
		return xstrdup(uri);
	struct sbuf b = { 0 };
	put(&b, uri, (size_t)(a - uri));
	for (const char *p = a; p < at; p++) {
		if (*p == '@')
			put(&b, "%40", 3);
		else if (*p == '/')
			put(&b, "%2F", 3);
		else
			put(&b, p, 1);
	}
	put(&b, at, strlen(at));
	return b.s;
}

char *store_mask_uri(const char *uri, char *out, size_t outlen)
{
	mask_secrets(uri ? uri : "", NULL, out, outlen);
	return out;
}

/* Length of the longest prefix of s that is a substring of sec. */
static size_t in_secret(const char *s, const char *sec)
{
	size_t best = 0, sl = strlen(sec);
	for (size_t i = 0; i < sl; i++) {
		size_t k = 0;
		while (sec[i + k] && s[k] == sec[i + k])
			k++;
		if (k > best)
			best = k;
	}
	return best;
}

/* A password=VALUE starting at p (after a word boundary): the length of "password=" with its
 * blanks, and of VALUE, in *key and *val; 0 when p is not one. */
static int password_kv(const char *p, int in_query, size_t *key, size_t *val)
{
	if (strncasecmp(p, "password", 8))
		return 0;
	const char *e = p + 8;
	while (*e == ' ' || *e == '\t')
		e++;
	if (*e != '=')
		return 0;
	e++;
	while (!in_query && (*e == ' ' || *e == '\t'))
		e++;
	*key = (size_t)(e - p);
	const char *v = e;
	if (in_query) {
		v += strcspn(v, "&");
	} else if (*v == '\'' || *v == '"') {
		char quote = *v++;
		while (*v && *v != quote)
			v += v[0] == '\\' && v[1] ? 2 : 1;
		if (*v)
			v++;
	} else {
		while (*v && !isspace((unsigned char)*v) && *v != '&')
			v++;
	}
	*val = (size_t)(v - e);
	return 1;
}

void mask_secrets(const char *msg, const char *const *secrets, char *out, size_t outlen)
{
	struct sbuf b = { 0 };
	put(&b, "", 0);
	msg = msg ? msg : "";
	const char *ua = NULL, *uat = NULL, *colon = NULL;
	if (user_part(msg, &ua, &uat))
		colon = memchr(ua, ':', (size_t)(uat - ua));
	int in_query = 0;
	for (const char *p = msg; *p;) {
		if (colon && p == colon + 1) {
			put(&b, "***", 3); /* the URI's own password, up to its '@' */
			p = uat;
			continue;
		}
		size_t key, val;
		int boundary = p == msg || strchr(" \t?&;,(\"'", p[-1]);
		if (boundary && password_kv(p, in_query, &key, &val)) {
			put(&b, p, key);
			put(&b, "***", 3);
			p += key + val;
			continue;
		}
		size_t skip = 0;
		for (int k = 0; secrets && secrets[k]; k++) {
			if (!secrets[k][0])
				continue;
			size_t sl = strlen(secrets[k]), m = in_secret(p, secrets[k]);
			/* a short password whole, and as a word of its own (not every "p" of a text) */
			if (sl < 4 && (m < sl || (p > msg && isalnum((unsigned char)p[-1])) ||
				       isalnum((unsigned char)p[m])))
				continue;
			if (m >= (sl < 4 ? sl : 4) && m > skip)
				skip = m;
		}
		if (skip) {
			put(&b, "***", 3);
			p += skip;
			continue;
		}
		if (*p == '?' && store_is_uri(msg))
			in_query = 1;
		if (*p == '\n') {
			if (p[1])
				put(&b, "; ", 2);
		} else {
			put(&b, p, 1);
		}
		p++;
	}
	if (b.n < outlen)
		memcpy(out, b.s, b.n + 1);
	else if (outlen)
		snprintf(out, outlen, "%s", outlen > 40 ? "(a message too long to show masked)" : "");
	free(b.s);
}
