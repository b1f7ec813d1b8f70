/* opts_test.c — the options tables (core/opts.c): every command declares one, its --help has
 * one line per declared option, groups and custom rows parse into the right fields. */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/opts.h"
#include "test.h"

/* Rows of a table, groups expanded. */
static int rows(const struct opt *t)
{
	int n = 0;
	for (const struct opt *o = t; o->type; o++)
		n += o->type == OPT_GROUP ? rows(o->extra) : 1;
	return n;
}

/* Options in a help text, and how many lines start neither an option ("  -x" or "  --name")
 * nor continue one. */
static int option_lines(const char *text, int *bad)
{
	int n = 0;
	*bad = 0;
	for (const char *p = text; *p;) {
		/* a long text goes on over lines indented further: part of the option above */
		int more = n > 0 && strncmp(p, "      ", 6) == 0 && p[strspn(p, " ")] != '-';
		if (!more && strncmp(p, "  -", 3) != 0)
			(*bad)++;
		n += !more;
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	return n;
}

TEST(command_help_one_line_per_option)
{
	for (int i = 0; commands[i].name; i++) {
		const struct command *c = &commands[i];
		CHECK(c->opts != NULL);   /* every command parses with a table */
		CHECK(c->options == NULL);
		if (!c->opts)
			continue;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		command_options_help(f, c->opts);
		fclose(f);
		int bad, n = option_lines(buf, &bad);
		if (n != rows(c->opts) || bad)
			printf("# %s: %d help lines, %d rows, %d not an option\n", c->name, n,
			       rows(c->opts), bad);
		CHECK(n == rows(c->opts));
		CHECK(bad == 0);
		free(buf);
	}
}

struct group_test {
	int flag;
	struct compare_args ca;
	const char *word;
};

TEST(command_parse_groups_and_long_only)
{
	static const struct opt t[] = {
		{ 'f', "flag", OPT_FLAG, 0, 0, offsetof(struct group_test, flag), NULL, NULL, "f", NULL },
		{ 0, NULL, OPT_GROUP, 0, 0, offsetof(struct group_test, ca), NULL, NULL, NULL, compare_group },
		{ 0, "word", OPT_STRING, 0, 0, offsetof(struct group_test, word), "W", NULL, "w", NULL },
		{ 0 },
	};
	static const struct command_options cmd = { "test", t, 0, compare_bad_option, NULL };
	char *argv[] = { "test", "x", "--alpha", "0.01", "-f", "--db=s.db", "--correction", "holm",
			 "--word", "w1", "y", NULL };
	struct group_test g = { 0 };
	cmp_opts_default(&g.ca.o);
	int first = command_parse(&cmd, 11, argv, &g);
	CHECK(g.flag == 1);
	CHECK(g.ca.o.alpha == 0.01);
	CHECK(g.ca.o.corr == CORR_HOLM);
	CHECK(g.ca.o.min_effect == 3); /* untouched: its default */
	CHECK(g.ca.db && !strcmp(g.ca.db, "s.db"));
	CHECK(g.word && !strcmp(g.word, "w1"));
	CHECK(first == 9 && !strcmp(argv[9], "x") && !strcmp(argv[10], "y"));

	/* command_word: the words ab knows, the others left for run */
	char *w[] = { "ab", "--min-effect", "5", "--only", "mem", "--word=z", NULL };
	int used = 0;
	CHECK(command_word("ab", t, w, 6, 1, &g, &used) == 1 && used == 2);
	CHECK(g.ca.o.min_effect == 5);
	CHECK(command_word("ab", t, w, 6, 3, &g, &used) == 0);
	CHECK(command_word("ab", t, w, 6, 5, &g, &used) == 1 && used == 1);
	CHECK(!strcmp(g.word, "z"));
	optind = 0;
}

TEST(tool_help_one_line_per_option)
{
	struct x { int a; const char *b; };
	static const struct opt o[] = {
		{ 'a', NULL, OPT_INT, 0, 9, offsetof(struct x, a), "N", NULL, "a number", NULL },
		{ 0, "bee", OPT_STRING, 0, 0, offsetof(struct x, b), "B", NULL, "a word", NULL },
		{ 'c', "sea", OPT_IGNORED, 0, 0, 0, NULL, NULL, "ignored", NULL },
		{ 0 },
	};
	const struct tool_options t = { .opts = o };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	options_help(f, &t);
	fclose(f);
	CHECK(!strcmp(buf, "\nOptions:\n"
			   "  -a N             a number\n"
			   "  --bee B          a word\n"
			   "  -c, --sea        ignored\n"));
	free(buf);
}
