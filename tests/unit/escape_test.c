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
	/* a spreadsheet formula stays text; markdown emphasis, code and links do not act */
	c = esc_dup(csv_fputs, "=HYPERLINK(\"http://x\",\"y\")");
	CHECK(!strcmp(c, "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""));
	free(c);
	for (const char *f = "=+-@"; *f; f++) {
		char in[8] = { *f, '1', 0 };
		c = esc_dup(csv_fputs, in);
		CHECK(c[0] == '"' && c[1] == '\'' && c[2] == *f);
		free(c);
	}
	c = esc_dup(csv_fputs, "board-7");
	CHECK(!strcmp(c, "board-7"));
	free(c);
	m = esc_dup(md_fputs, "**x** [y](javascript:alert(1)) `z` _w_ lat_mem_rd");
	CHECK(!strcmp(m, "\\*\\*x\\*\\* \\[y\\](javascript:alert(1)) \\`z\\` \\_w\\_ lat_mem_rd"));
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
	/* impossible values (issue 34): zero, absurd magnitudes, NaN; a difference may be 0 */
	CHECK(value_check("lat_syscall.null", NULL, 0.3, why, sizeof why) == 0);
	CHECK(value_check("lat_syscall.null", NULL, 0, why, sizeof why) < 0 && strstr(why, "zero"));
	CHECK(value_check("lat_syscall.null", NULL, 1e308, why, sizeof why) < 0 &&
	      strstr(why, "1e+308"));
	CHECK(value_check("lat_syscall.null", NULL, 1e-300, why, sizeof why) < 0);
	CHECK(value_check("lat_syscall.null", NULL, NAN, why, sizeof why) < 0);
	CHECK(value_check("bw_mem.rd", NULL, 1e12, why, sizeof why) < 0); /* 1 EB/s */
	CHECK(value_check("lat_ctx.switch", NULL, 0, why, sizeof why) == 0);
	CHECK(value_check("lat_ctx.switch", NULL, -1e308, why, sizeof why) < 0);
	CHECK(value_check("someone.else", "furlongs", 42, why, sizeof why) == 0);
}
