/* opts_test.c — the options tables (core/opts.c): every command declares one, its --help has
 * one line per declared option, groups and custom rows parse into the right fields, every kind
 * of row takes its good values and refuses a bad one with one line and exit 2, and the shared
 * options' help is generated from their table. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/opts.h"
#include "core/util.h"
#include "test.h"

/* Rows of a table, groups expanded. */
static int rows(const struct opt *t)
{
	int n = 0;
	for (const struct opt *o = t; o->kind; o++)
		n += o->kind == OPTK_GROUP ? rows(o->group) : 1;
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
		OPT_BOOL('f', "flag", struct group_test, flag, "f"),
		OPT_GROUP(struct group_test, ca, compare_group),
		OPT_STRING(0, "word", struct group_test, word, "W", "w"),
		OPT_END,
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
		OPT_INT('a', NULL, struct x, a, "N", 0, 9, NULL, "a number"),
		OPT_STRING(0, "bee", struct x, b, "B", "a word"),
		OPT_IGNORED('c', "sea", "ignored"),
		OPT_END,
	};
	const struct tool_options t = { .opts = o };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	options_help(f, &t);
	fclose(f);
	const char *own = "\nOptions:\n"
			  "  -a N             a number\n"
			  "  --bee B          a word\n"
			  "  -c, --sea        ignored\n"
			  "\nOptions of every tool:\n"; /* then the shared rows */
	CHECK(!strncmp(buf, own, strlen(own)));
	free(buf);
}


/* ---- every kind of row: good values, and a bad one's single line ------------------------- */

struct kinds {
	int flag, number, choice, called, noarg_called;
	long long big;
	uint64_t size;
	const char *word;
	struct { int inner; } group;
};

static void set_called(const char *arg, void *field)
{
	if (strcmp(arg, "ok") != 0)
		die(EXIT_USAGE, "--call: '%s' is not ok", arg);
	*(int *)field = 1;
}

static void set_noarg(const char *arg, void *field)
{
	*(int *)field = arg == NULL ? 7 : -1; /* a row without a value gets no argument */
}

static const struct opt inner_rows[] = {
	OPT_INT(0, "inner", struct { int inner; }, inner, "N", 0, 5, NULL, "a grouped number"),
	OPT_END,
};

static void show_help(void)
{
	printf("HELP\n");
}

/* One row of every kind; the command's table adds an OPT_HELP row (a tool has the shared one). */
#define KIND_ROWS                                                                                  \
	OPT_BOOL('f', "flag", struct kinds, flag, "a flag"),                                       \
	OPT_INT('n', "number", struct kinds, number, "N", -3, 1000, "a count", "a number"),        \
	OPT_INT(0, "big", struct kinds, big, "N", 0, 5000000000LL, NULL, "past an int"),           \
	OPT_SIZE('s', "size", struct kinds, size, "SIZE", 1, 1ll << 40, "a size", "a size"),       \
	OPT_CHOICE('c', "choice", struct kinds, choice, "a|b|c", OPT_CHOICES("a", "b", "c"),     \
		   "one of"),                                                                      \
	OPT_STRING('w', "word", struct kinds, word, "W", "any text"),                              \
	OPT_IGNORED('i', "ignored", "accepted"),                                                   \
	OPT_CALLBACK(0, "call", struct kinds, called, "X", set_called, "its own parser"),          \
	OPT_CALLBACK_NOARG(0, "noarg", struct kinds, noarg_called, set_noarg, "no value"),         \
	OPT_GROUP(struct kinds, group, inner_rows)
static const struct opt kind_rows[] = { KIND_ROWS, OPT_END };
static const struct opt kind_cmd_rows[] = {
	KIND_ROWS, OPT_HELP('h', "help", show_help, "this help"), OPT_END
};

__attribute__((noreturn)) static void kinds_bad(const char *cmd, const char *arg, int missing)
{
	die(EXIT_USAGE, "%s: %s %s", cmd, missing ? "option needs a value:" : "unknown option",
	    arg);
}

static const struct command_options kinds_cmd = { "kinds", kind_cmd_rows, 0, kinds_bad, NULL };
static const struct tool_options kinds_tool = { .opts = kind_rows };

static int count_words(char **argv)
{
	int n = 0;
	while (argv[n])
		n++;
	return n;
}

TEST(opt_kinds_good_values)
{
	char *argv[] = { "kinds", "-f", "--number=-3", "--big", "4000000000", "-s", "2m",
			 "-c", "b", "--word", "x y", "-i", "--call", "ok", "--noarg", "--inner",
			 "5", "op", NULL };
	struct kinds k = { 0 };
	int first = command_parse(&kinds_cmd, count_words(argv), argv, &k);
	CHECK(k.flag == 1 && k.number == -3 && k.big == 4000000000LL);
	CHECK(k.size == 2u << 20 && k.choice == 1 && k.called == 1 && k.noarg_called == 7);
	CHECK_STR(k.word, "x y");
	CHECK(k.group.inner == 5);
	CHECK(first == 17 && !strcmp(argv[first], "op"));
	optind = 0;
}

/* The shared options land in the tool's context (the user's values, converted). */
TEST(opt_shared_good_values)
{
	char *argv[] = { "kinds", "-P", "3", "-W", "3600000000", "-N", "7", "--min-sample", "250",
			 "--json", "--fsdir", "/d", "-n", "9", NULL };
	struct kinds k = { 0 };
	struct tool_ctx c = { .tool = "kinds", .opts = &kinds_tool };
	optind = 0;
	options_parse(&c, count_words(argv), argv, &k);
	const struct timing_opts *t = &c.timing.opts;
	CHECK(t->parallel == 3 && t->warmup_us == 3600000000ULL && t->repetitions == 7);
	CHECK_NEAR(t->min_sample_ns, 250e3, 0);
	CHECK(c.json == 1);
	CHECK_STR(c.fsdir, "/d");
	CHECK(k.number == 9);
	optind = 0;
}

/* The operands come back in their order, the options around them parsed (GNU style), and
 * everything after "--" is an operand. */
TEST(opt_operands_returned)
{
	char *argv[] = { "kinds", "first", "-n", "9", "second", "--", "-n", NULL };
	struct kinds k = { 0 };
	struct tool_ctx c = { .tool = "kinds", .opts = &kinds_tool };
	struct operands a = options_parse(&c, count_words(argv), argv, &k);
	CHECK(k.number == 9);
	CHECK(a.n == 3);
	CHECK_STR(a.v[0], "first");
	CHECK_STR(a.v[1], "second");
	CHECK_STR(a.v[2], "-n");
	CHECK(a.v[3] == NULL);
	char *none[] = { "kinds", "-n", "4", NULL };
	a = options_parse(&c, count_words(none), none, &k);
	CHECK(a.n == 0 && a.v[0] == NULL && k.number == 4);
}

/* argv parsed in a child (stdout to /dev/null, stderr kept): its exit status, *err its stderr. */
static int parse_in_child(int tool, char **argv, char *err, size_t n)
{
	int fd[2];
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		if (!freopen("/dev/null", "w", stdout))
			_exit(99);
		struct kinds k = { 0 };
		struct tool_ctx c = { .tool = "kinds", .opts = &kinds_tool };
		prog_name = "kinds";
		optind = 0;
		if (tool)
			options_parse(&c, count_words(argv), argv, &k);
		else
			command_parse(&kinds_cmd, count_words(argv), argv, &k);
		exit(0);
	}
	close(fd[1]);
	size_t len = 0;
	ssize_t r;
	while (len + 1 < n && (r = read(fd[0], err + len, n - 1 - len)) > 0)
		len += (size_t)r;
	err[len] = 0;
	close(fd[0]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Each bad value: exit 2 and one line naming the option (tools and commands alike). */
TEST(opt_kinds_bad_values_one_line)
{
	static const struct { char *args[3]; const char *says; } bad[] = {
		{ { "-n", "x" }, "a count): expected a whole number, got 'x'" },
		{ { "-n", "1001" }, "1001 is out of range (-3 to 1000)" },
		{ { "--big", "-1" }, "-1 is out of range (0 to 5000000000)" },
		{ { "-s", "0" }, "a size" },
		{ { "-s", "3q" }, "a size" },
		{ { "-c", "d" }, "'d' is not a, b or c" },
		{ { "--call", "no" }, "--call: 'no' is not ok" },
		{ { "--inner", "6" }, "--inner: 6 is out of range (0 to 5)" },
		{ { "-n" }, "-n" },
		{ { "--bogus" }, "--bogus" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		for (int tool = 0; tool < 2; tool++) {
			char *argv[] = { "kinds", bad[i].args[0], bad[i].args[1], NULL };
			char err[512];
			int st = parse_in_child(tool, argv, err, sizeof err);
			char *nl = strchr(err, '\n');
			int ok = st == EXIT_USAGE && nl && nl[1] == 0 && strstr(err, bad[i].says);
			if (!ok)
				printf("# %s %s %s: exit %d, \"%s\"\n", tool ? "tool" : "command",
				       bad[i].args[0], bad[i].args[1] ? bad[i].args[1] : "", st,
				       err);
			CHECK(ok);
		}
	/* the shared options refuse theirs the same way */
	static const struct { char *args[3]; const char *says; } shared[] = {
		{ { "-P", "0" }, "kinds: -P (parallel copies): 0 is out of range (1 to 4096)\n" },
		{ { "-W", "-1" },
		  "kinds: -W (warm-up microseconds): -1 is out of range (0 to 3600000000)\n" },
		{ { "-N", "1001" }, "kinds: -N (repetitions): 1001 is out of range (1 to 1000)\n" },
		{ { "--min-sample", "0" },
		  "kinds: --min-sample (microseconds): 0 is out of range (1 to 100000000)\n" },
		{ { "--cpu", "x" },
		  "kinds: --cpu: 'x' is not a CPU list (e.g. 1 or 0,1 or 0-3, or none)\n" },
		{ { "--fsdir" }, "kinds: option --fsdir needs a value (try 'kinds --help')\n" },
		{ { "-Q" }, "kinds: unknown option -Q (try 'kinds --help')\n" },
	};
	for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
		char *argv[] = { "kinds", shared[i].args[0], shared[i].args[1], NULL };
		char err[512];
		int st = parse_in_child(1, argv, err, sizeof err);
		if (st != EXIT_USAGE || strcmp(err, shared[i].says))
			printf("# %s: exit %d, \"%s\"\n", shared[i].args[0], st, err);
		CHECK(st == EXIT_USAGE);
		CHECK_STR(err, shared[i].says);
	}
	/* an OPT_HELP row prints its help and exits 0 */
	char *help[] = { "kinds", "-h", NULL };
	char err[64];
	CHECK(parse_in_child(0, help, err, sizeof err) == 0 && err[0] == 0);
}

/* Every command's table is well formed: each field fits its kind, no letter or name twice. */
TEST(opt_every_command_table_parses)
{
	for (int i = 0; commands[i].name; i++) {
		int fd[2];
		CHECK(pipe(fd) == 0);
		pid_t pid = fork();
		if (pid == 0) {
			dup2(fd[1], 2);
			static char dst[4096] __attribute__((aligned(16)));
			char *argv[] = { (char *)commands[i].name, NULL };
			const struct command_options t = { commands[i].name, commands[i].opts,
							   0, kinds_bad, NULL };
			command_parse(&t, 1, argv, dst);
			exit(0);
		}
		close(fd[1]);
		char err[256] = "";
		ssize_t r = read(fd[0], err, sizeof err - 1);
		err[r > 0 ? r : 0] = 0;
		close(fd[0]);
		int st;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			printf("# %s: %s", commands[i].name, err);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	optind = 0;
}

/* The shared options' help and usage are printed from their table, as they always read. */
TEST(opt_shared_help_from_table)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	options_help(f, NULL);
	options_usage(f, "lat_select", "[-n N] file|tcp");
	fclose(f);
	CHECK_STR(buf,
		  "\nOptions of every tool:\n"
		  "  -P copies        run that many copies at once (lmbench's parallelism)\n"
		  "  -W warmup_us     run the operation this long before timing it\n"
		  "  -N samples       number of timed samples (lmbench's repetitions)\n"
		  "  --cpu LIST|none  CPUs to pin the processes to (default one fixed CPU), none: "
		  "unpinned\n"
		  "  --json           one JSON document with every sample instead of lmbench's "
		  "lines\n"
		  "  --fsdir DIR      where file benchmarks create their private directory\n"
		  "  --min-sample US  shortest time a sample may take (the loop runs more "
		  "iterations)\n"
		  "  -h, --help       this help\n"
		  "usage: lat_select [-P copies] [-W warmup_us] [-N samples] [--cpu LIST|none] "
		  "[--json]\n"
		  "                  [--fsdir DIR] [--min-sample US] [-n N] file|tcp");
	free(buf);
}
