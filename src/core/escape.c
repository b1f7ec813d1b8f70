/* escape.c — stored text written for each medium (escape.h). One rule decides what a character
 * looks like when it must not act (visible()); each medium adds its own quoting around it. */
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "core/util.h"

#define REP_MAX 16

size_t utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* also stops at the terminating NUL */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) || /* overlong, surrogate */
	    (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))    /* overlong, > U+10FFFF */
		return 0;
	return n;
}

/* The code point of the well-formed n-byte UTF-8 sequence at p. */
static unsigned decode(const unsigned char *p, size_t n)
{
	if (n == 1)
		return p[0];
	unsigned cp = p[0] & (0xff >> (n + 1));
	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

/* Characters that are valid UTF-8 and still act: C1 controls (a terminal's CSI and OSC among
 * them), bidirectional embeddings and overrides (they reorder what follows on screen), the
 * line and paragraph separators, and the two non-characters XML forbids. */
static int acts(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0x200e ||
	       cp == 0x200f || cp == 0xfffe || cp == 0xffff;
}

/* The visible form of the character at p into out (NUL-terminated); returns how many bytes of
 * the input it stands for. keep_ws: tab and LF go out as they are. */
static size_t visible(const unsigned char *p, char out[REP_MAX], int keep_ws)
{
	size_t n = utf8_seq(p);
	unsigned c = p[0];
	if (n == 0) {
		snprintf(out, REP_MAX, "\\x%02x", c);
		return 1;
	}
	if (n == 1 && (c < 0x20 || c == 0x7f) && !(keep_ws && (c == '\t' || c == '\n'))) {
		snprintf(out, REP_MAX, c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
			 : "\\x%02x", c);
		return 1;
	}
	unsigned cp = decode(p, n);
	if (n > 1 && acts(cp)) {
		snprintf(out, REP_MAX, "\\u%04x", cp);
		return n;
	}
	memcpy(out, p, n);
	out[n] = 0;
	return n;
}

static const unsigned char *bytes(const char *s)
{
	return (const unsigned char *)(s ? s : "");
}

void term_fputs(FILE *f, const char *s)
{
	char rep[REP_MAX];
	for (const unsigned char *p = bytes(s); *p;) {
		p += visible(p, rep, 0);
		fputs(rep, f);
	}
}

const char *term_str(const char *s, char *buf, size_t len)
{
	char rep[REP_MAX];
	if (!len)
		return buf;
	/* whole when it fits (the scan stops as soon as it cannot: a 10 MB value costs nothing) */
	size_t need = 0;
	const unsigned char *p = bytes(s);
	while (*p && need < len) {
		p += visible(p, rep, 0);
		need += strlen(rep);
	}
	size_t room = need < len && !*p ? len - 1 : len > 4 ? len - 4 : 0, used = 0;
	for (p = bytes(s); *p;) {
		size_t k = visible(p, rep, 0), r = strlen(rep);
		if (used + r > room)
			break;
		memcpy(buf + used, rep, r);
		used += r;
		p += k;
	}
	if (*p && len > 4) {
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	buf[used] = 0;
	return buf;
}

/* A cell a spreadsheet would run as a formula: = + - @ (OWASP's CSV injection list), or a tab
 * or CR before one. */
static int formula_start(const char *s)
{
	return s && *s && strchr("=+-@\t\r", *s);
}

void csv_fputs(FILE *f, const char *s)
{
	char *e = esc_dup(term_fputs, s);
	int formula = formula_start(s);
	if (!formula && !strpbrk(e, ",\"")) {
		fputs(e, f);
	} else {
		/* quoted, and a formula's first character behind a ' so it is text */
		fputs(formula ? "\"'" : "\"", f);
		for (const char *p = e; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	}
	free(e);
}

static int word_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c >= 0x80;
}

/* Whether the ASCII character c at p (after prev) would act in markdown: emphasis (* _ ~),
 * code (`), a link or image ([ ] then (url)), an escape (\\). An underscore inside a word
 * (lat_mem_rd) cannot open emphasis in CommonMark and is kept as it is. */
static int md_acts(unsigned char prev, const unsigned char *p)
{
	if (*p == '_')
		return !(word_char(prev) && word_char(p[1]));
	return *p && strchr("*~`[]\\", *p) != NULL;
}

void md_fputs(FILE *f, const char *s)
{
	char rep[REP_MAX];
	unsigned char prev = 0;
	for (const unsigned char *p = bytes(s); *p;) {
		if (md_acts(prev, p))
			fputc('\\', f);
		prev = *p;
		p += visible(p, rep, 0);
		fputs(!strcmp(rep, "|") ? "\\|" : !strcmp(rep, "<") ? "&lt;" : rep, f);
	}
}

void xml_fputs(FILE *f, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	char rep[REP_MAX];
	for (const unsigned char *p = bytes(s); *p;) {
		p += visible(p, rep, 1);
		const char *e = rep[0] && !rep[1] ? strchr(special, rep[0]) : NULL;
		fputs(e ? entity[e - special] : rep, f);
	}
}

void json_fputs(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = bytes(s); *p;) {
		size_t n = utf8_seq(p);
		if (n == 0) { /* JSON is UTF-8: a byte that is not becomes U+FFFD */
			fputs(UTF8_REPLACEMENT, f);
			p++;
			continue;
		}
		unsigned cp = decode(p, n);
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else if (cp < 0x20 || cp == 0x7f || (n > 1 && acts(cp)))
			fprintf(f, "\\u%04x", cp);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void utf8_fputs(FILE *f, const char *s)
{
	for (const unsigned char *p = bytes(s); *p;) {
		size_t n = utf8_seq(p);
		if (n)
			fwrite(p, 1, n, f);
		else
			fputs(UTF8_REPLACEMENT, f);
		p += n ? n : 1;
	}
}

/* util.c's errors print through term_str(), so this file sits below it and says its own
 * one line when memory runs out. */
static void *need(void *p)
{
	if (!p) {
		fputs("plumb: out of memory\n", stderr);
		exit(EXIT_MEASURE);
	}
	return p;
}

char *esc_dup(void (*put)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = need(open_memstream(&buf, &len));
	put(m, s);
	if (fclose(m) != 0)
		buf = NULL;
	return need(buf);
}

void md_paragraphs(FILE *f, const char *text)
{
	char *buf = need(strdup(text));
	for (char *l = buf; *l;) {
		size_t k = strcspn(l, "\n");
		char c = l[k];
		l[k] = 0;
		md_fputs(f, l);
		fputs("\n\n", f);
		l += k + (c != 0);
	}
	free(buf);
}
