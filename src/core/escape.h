/*
 * escape.h — text from runs written for the medium it goes to, one function per medium.
 *
 * A label, a host name, a fact, a metric name: any bytes a results file or a shared database
 * held, kept as given (results/run.h). Nothing of it reaches a terminal, a table or a document
 * raw: a control character (ESC, CR, LF, the rest of C0 and C1, DEL) or a bidirectional
 * override is shown visibly ("\x1b", "\r", "\n", "\u202e"), a byte that is not UTF-8 as "\xNN",
 * so an escape sequence cannot drive the terminal and a LF cannot forge a table row. Every
 * printer of stored text calls one of these; none escapes on its own.
 */
#ifndef PLUMB_ESCAPE_H
#define PLUMB_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Terminal and plain text (tables, messages, lmbench's text format): every control character
 * and tab shown visibly. */
void term_fputs(FILE *f, const char *s);
/* The same into buf (len bytes), cut at a character when it does not fit, the cut marked with
 * "..." — for fixed-width columns and messages that name a value of any length. Returns buf. */
const char *term_str(const char *s, char *buf, size_t len);
/* One CSV field (RFC 4180): controls shown as term_fputs shows them, then quoted when it holds
 * a comma or a quote (quotes doubled); a field a spreadsheet would run as a formula (starting
 * with = + - @ tab or CR) is quoted with a ' before it, so it stays text. */
void csv_fputs(FILE *f, const char *s);
/* One cell of a markdown table: as term_fputs, and '|' written "\|" so it cannot split the
 * row, '<' as "&lt;" so it cannot open HTML, * ~ ` [ ] \ and a word-boundary _ behind a
 * backslash so a label cannot make emphasis, code or a link ([x](javascript:...)). */
void md_fputs(FILE *f, const char *s);
/* text, line by line, each line an escaped markdown paragraph (md_fputs, then a blank line). */
void md_paragraphs(FILE *f, const char *text);
/* XML, HTML and SVG text or attribute values: & < > " ' as entities, controls shown as
 * term_fputs shows them but tab and LF kept (whitespace to XML, never a forged element). */
void xml_fputs(FILE *f, const char *s);
/* A JSON string literal, quotes included: controls, DEL, C1 and bidi overrides as \uXXXX,
 * bytes that are not UTF-8 as U+FFFD (the output is always valid JSON). */
void json_fputs(FILE *f, const char *s);
/* Text already made for a terminal (a whole table printed through a buffer) as valid UTF-8:
 * bytes that are not UTF-8 become U+FFFD, everything else goes out as it is. */
void utf8_fputs(FILE *f, const char *s);

/* What one of the writers above makes of s, malloc'd. */
char *esc_dup(void (*put)(FILE *, const char *), const char *s);

#endif
