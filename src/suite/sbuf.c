/* sbuf.c — a growing list of words (suite.h), below suite.c and select.c, which both add to
 * one. */
#include <stdio.h>
#include <string.h>
#include "core/util.h"
#include "suite/suite.h"

void sb_add(struct sbuf *b, const char *sep, const char *s)
{
	size_t need = b->n + strlen(sep) + strlen(s) + 1;
	if (need > 65536)
		return; /* facts stay readable; the count says how many there were */
	if (need > b->cap) {
		b->cap = need * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	b->n += (size_t)sprintf(b->s + b->n, "%s%s", b->items ? sep : "", s);
	b->items++;
}
