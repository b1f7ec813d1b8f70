/* escape_test.c — the writers of core/escape.h, one per medium, and run_check (results/run.h):
 * the limits and the physics every reader applies. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "core/util.h"
#include "results/run.h"
#include "test.h"

static const char evil[] = "a\x1b[2J\x1b]0;x\x07\r\n\tb|<&\"\x7f\xc2\x85\xe2\x80\xae\xff";

static int has_raw_control(const char *s, int allow_ws)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && !(allow_ws && (*p == '\n' || *p == '\t'))) || *p == 0x7f ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 1;
	return 0;
}

TEST(escape_term_shows_controls)
{
	char *s = esc_dup(term_fputs, evil);
	CHECK(!strcmp(s, "a\\x1b[2J\\x1b]0;x\\x07\\r\\n\\tb|<&\"\\x7f\\u0085\\u202e\\xff"));
	free(s);
	char buf[12];
	CHECK(!strcmp(term_str("abcdefghijklmnop", buf, sizeof buf), "abcdefgh..."));
	CHECK(!strcmp(term_str("short", buf, sizeof buf), "short"));
	CHECK(!strcmp(term_str("\x1b\x1b\x1b\x1b", buf, sizeof buf), "\\x1b\\x1b..."));
	/* a cut never splits a UTF-8 character */
	CHECK(!strcmp(term_str("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", buf, sizeof buf),
		      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..."));
}

TEST(escape_media)
{
	char *c = esc_dup(csv_fputs, "x,\"y\"\n");
	CHECK(!strcmp(c, "\"x,\"\"y\"\"\\n\""));
	free(c);
	char *m = esc_dup(md_fputs, evil);
	CHECK(!has_raw_control(m, 0) && !strstr(m, "b|") && strstr(m, "b\\|") && !strchr(m, '<'));
	free(m);
	char *x = esc_dup(xml_fputs, evil);
	CHECK(!has_raw_control(x, 1) && !strchr(x, '<') && !strchr(x, '"') && strstr(x, "&amp;"));
	free(x);
	char *j = esc_dup(json_fputs, evil);
	CHECK(!has_raw_control(j, 0) && strstr(j, "\\u001b") && strstr(j, "\\u0085") &&
	      strstr(j, UTF8_REPLACEMENT) && j[0] == '"' && j[strlen(j) - 1] == '"');
	free(j);
}

static struct run *good_run(void)
{
	struct run *r = run_new();
	r->label = xstrdup("nightly");
	r->host = xstrdup("board7");
	kv_set(&r->facts, "kernel", "6.8");
	struct result *p = result_list_add(&r->results, "lat_syscall.null", "", NAN);
	p->value = 0.3;
	result_add_sample(p, (struct sample){ .value = 0.3, .iters = 1000, .elapsed_ns = 3e5 });
	return r;
}

TEST(run_check_limits_and_physics)
{
	char why[256];
	struct run *r = good_run();
	CHECK(run_check(r, why, sizeof why) == 0);
	char *big = xcalloc(RUN_TEXT_MAX + 2, 1);
	memset(big, 'x', RUN_TEXT_MAX + 1);
	free(r->label);
	r->label = big;
	CHECK(run_check(r, why, sizeof why) < 0 && strstr(why, "label"));
	r->label[RUN_TEXT_MAX] = 0; /* exactly the limit */
	CHECK(run_check(r, why, sizeof why) == 0);
	r->rounds = -5;
	CHECK(run_check(r, why, sizeof why) < 0 && strstr(why, "rounds"));
	r->rounds = 1;
	struct sample *s = &r->results.v[0].samples[0];
	s->iters = 0;
	CHECK(run_check(r, why, sizeof why) < 0);
	s->iters = (uint64_t)-3; /* a negative count stored as its bit pattern */
	CHECK(run_check(r, why, sizeof why) < 0);
	s->iters = 0;
	s->elapsed_ns = NAN; /* lmbench's files: a value without a count or a time */
	CHECK(run_check(r, why, sizeof why) == 0);
	s->value = -1;
	CHECK(run_check(r, why, sizeof why) < 0 && strstr(why, "lat_syscall.null"));
	free(r->results.v[0].metric);
	r->results.v[0].metric = xstrdup("lat_ctx.switch"); /* a difference: may be negative */
	CHECK(run_check(r, why, sizeof why) == 0);
	s->value = INFINITY;
	CHECK(run_check(r, why, sizeof why) < 0);
	run_free(r);
}
