/* suite_test.c — plumb run's step isolation: the result protocol (the tool's JSON document)
 * round-trips (escapes, NaN, every sample), rounds merge into one result with their tags, and a child that crashes, hangs
 * or dies after recording is handled as the suite promises. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "suite/plan.h"
#include "suite/step.h"
#include "core/out.h"
#include "core/util.h"
#include "results/run.h"
#include "test.h"

static void fill(struct tool_ctx *c)
{
	memset(c, 0, sizeof *c);
	struct result *r = result_list_add(&c->results, "lat_syscall.null", "", NAN);
	r->unit = xstrdup("us");
	r->version = 1;
	r->info = xstrdup("odd=a\tb\\c\nd");
	r->value = 0.25;
	for (int i = 0; i < 3; i++)
		result_add_sample(r, (struct sample){ .value = 0.2 + 0.05 * i, .iters = 1000 + (uint64_t)i,
						      .elapsed_ns = 5e6 + i, .round = 0 });
	r = result_list_add(&c->results, "lat_select.file", "n=100", 3.5);
	r->unit = xstrdup("us");
	r->version = 2;
	r->value = 1.5;
	result_add_sample(r, (struct sample){ .value = 1.5, .iters = 7, .elapsed_ns = 1e6 });
	c->header_info = xstrdup("page_size=4096");
}

static void feed(struct run *run, const struct tool_ctx *c, int round)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	proto_write(f, c);
	fclose(f);
	/* it is the documented JSON a tool prints with --json */
	CHECK(strstr(buf, "\"schema\": \"plumb/") || strstr(buf, "\"schema\":\"plumb/"));
	size_t n = 0;
	CHECK(proto_merge(buf, len, round, run, &n, NULL) == 0);
	CHECK(n == 2);
	/* cut short (a child killed while writing): nothing merged */
	struct run *other = run_new();
	CHECK(proto_merge(buf, len / 2, round, other, &n, NULL) != 0 && other->results.n == 0);
	run_free(other);
	free(buf);
}

/* A step's value no machine gives (a zero time, a non-finite one) is left out where it enters
 * the run, and counted with its why: the run says so in a line of its own. */
TEST(suite_protocol_leaves_out_impossible_values)
{
	struct tool_ctx c;
	fill(&c);
	c.results.v[0].samples[1].value = 0;     /* one zero sample of three */
	c.results.v[1].samples[0].value = 1e308; /* the only sample: the result goes */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	proto_write(f, &c);
	fclose(f);
	struct run *run = run_new();
	struct step_outcome oc;
	memset(&oc, 0, sizeof oc);
	size_t n = 0;
	CHECK(proto_merge(buf, len, 0, run, &n, &oc) == 0);
	CHECK(run->results.n == 1);
	CHECK(run->results.v[0].nsamples == 2);
	CHECK_NEAR(run->results.v[0].value, 0.25, 1e-9); /* the median of 0.2 and 0.3 */
	CHECK(oc.nrefused == 2);
	CHECK(oc.refused && strstr(oc.refused, "lat_syscall.null: value 0"));
	char why[256];
	CHECK(run_check(run, why, sizeof why) == 0);
	step_outcome_free(&oc);
	run_free(run);
	free(buf);
	result_list_free(&c.results);
	free(c.header_info);
}

TEST(suite_protocol_roundtrip_and_rounds)
{
	struct tool_ctx c;
	fill(&c);
	struct run *run = run_new();
	feed(run, &c, 0);
	CHECK(run->results.n == 2);
	struct result *a = &run->results.v[0], *b = &run->results.v[1];
	CHECK_STR(a->metric, "lat_syscall.null");
	CHECK(isnan(a->x));
	CHECK_NEAR(a->value, 0.25, 1e-12);
	CHECK_STR(a->unit, "us");
	CHECK(a->info && strstr(a->info, "odd=a\tb\\c\nd") && strstr(a->info, "page_size=4096"));
	CHECK(a->nsamples == 3);
	CHECK(a->samples[2].iters == 1002);
	CHECK_NEAR(a->samples[1].value, 0.25, 1e-12);
	CHECK_STR(b->params, "n=100");
	CHECK_NEAR(b->x, 3.5, 0);
	CHECK(b->version == 2);
	/* Two more rounds: the same results gain samples tagged 1 and 2. */
	feed(run, &c, 1);
	feed(run, &c, 2);
	CHECK(run->results.n == 2);
	a = &run->results.v[0];
	CHECK(a->nsamples == 9);
	int seen[3] = { 0 };
	for (size_t i = 0; i < a->nsamples; i++)
		if (a->samples[i].round >= 0 && a->samples[i].round < 3)
			seen[a->samples[i].round]++;
	CHECK(seen[0] == 3 && seen[1] == 3 && seen[2] == 3);
	CHECK_NEAR(a->value, 0.25, 1e-12); /* the median over every round */
	run_free(run);
	result_list_free(&c.results);
	free(c.header_info);
}

/* ---- children ------------------------------------------------------------------------------- */

static int tool_crash(struct tool_ctx *c, int argc, char **argv)
{
	fprintf(stderr, "about to crash\n");
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core); /* no core file from a test */
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return 0;
}

static int tool_hang(struct tool_ctx *c, int argc, char **argv)
{
	for (;;)
		pause();
	return 0;
}

static int tool_record_then_die(struct tool_ctx *c, int argc, char **argv)
{
	struct sample s = { .value = 4.0, .iters = 1, .elapsed_ns = 4000 };
	record_values(c, "lat_pipe.latency", "", NAN, &s, 1);
	die(EXIT_MEASURE, "second half cannot be measured here");
}

static const struct tool fake[] = {
	{ "crash", tool_crash, 0, NULL, "", "", NULL },
	{ "hang", tool_hang, 0, NULL, "", "", NULL },
	{ "halfway", tool_record_then_die, 0, NULL, "", "", NULL },
};

static int run1(const struct tool *t, char *arg1, double timeout, struct run *run,
		struct step_outcome *o, int round)
{
	char *av[4] = { (char *)t->name, arg1, NULL, NULL };
	char dir[] = "/tmp/plumb-suite-test.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct step_env env = { .tmpdir = dir, .fsdir = dir, .round = round, .timeout_s = timeout };
	int rc = step_exec(t, arg1 ? 2 : 1, av, &env, run, o);
	rmdir(dir);
	return rc;
}

TEST(suite_step_real_tool_rounds)
{
	const struct tool *t = tool_find("lat_syscall", NULL);
	CHECK(t != NULL);
	if (!t)
		return;
	struct run *run = run_new();
	struct step_outcome o;
	CHECK(run1(t, "null", 60, run, &o, 0) == 0);
	step_outcome_free(&o);
	CHECK(run1(t, "null", 60, run, &o, 1) == 0);
	/* the batch mean and its steady figure */
	CHECK(o.complete && o.nresults == 2);
	step_outcome_free(&o);
	CHECK(run->results.n == 2);
	if (run->results.n == 2) {
		CHECK_STR(run->results.v[1].metric, "lat_syscall.null.steady");
		CHECK(run->results.v[1].nsamples == run->results.v[0].nsamples);
		struct result *r = &run->results.v[0];
		CHECK_STR(r->metric, "lat_syscall.null");
		CHECK(r->nsamples >= 2);
		CHECK(r->samples[0].round == 0 && r->samples[r->nsamples - 1].round == 1);
		CHECK(r->value > 0);
	}
	run_free(run);
}

TEST(suite_step_crash_hang_die)
{
	struct run *run = run_new();
	struct step_outcome o;
	CHECK(run1(&fake[0], NULL, 30, run, &o, 0) != 0);
	CHECK(o.status >= 0 && WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGSEGV);
	/* qemu-user adds its own line about the signal: the tool's line comes first */
	CHECK(o.nlines >= 1 && strcmp(o.lines[0], "about to crash") == 0);
	step_outcome_free(&o);

	CHECK(run1(&fake[1], NULL, 0.3, run, &o, 0) != 0);
	CHECK(o.timed_out);
	CHECK(o.seconds < 5);
	step_outcome_free(&o);

	CHECK(run1(&fake[2], NULL, 30, run, &o, 3) != 0);
	CHECK(o.status >= 0 && WIFEXITED(o.status) && WEXITSTATUS(o.status) == EXIT_MEASURE);
	CHECK(o.complete); /* sent from the exit hook */
	CHECK(run->results.n == 1);
	if (run->results.n == 1) {
		CHECK_STR(run->results.v[0].metric, "lat_pipe.latency");
		CHECK(run->results.v[0].nsamples == 1 && run->results.v[0].samples[0].round == 3);
	}
	CHECK(o.nlines == 1 && o.lines[0] && strstr(o.lines[0], "second half"));
	step_outcome_free(&o);
	run_free(run);
}

TEST(suite_plan_profiles)
{
	struct plan_cfg c = { .profile = PROF_QUICK, .mem_bytes = 128ull << 20, .file_bytes = 16ull << 20,
			      .line = 64, .file = "/d/XXX", .fsdir = "/d", .copies = 2,
			      .sample_scale = 1 };
	struct plan q, d, f;
	plan_build(&q, &c);
	c.profile = PROF_DEFAULT;
	plan_build(&d, &c);
	c.profile = PROF_FULL;
	plan_build(&f, &c);
	CHECK(q.n < d.n && d.n < f.n);
	/* mhz first; lat_syscall with lmbench's $P; lat_ops without it; lat_mem_rd -t last. */
	CHECK_STR(q.v[0].argv[0], "mhz");
	int saw_p = 0, ops_p = 0, ctx96 = 0;
	for (size_t i = 0; i < f.n; i++) {
		if (!strcmp(f.v[i].label, "lat_syscall -P 2 null"))
			saw_p = 1;
		if (!strcmp(f.v[i].argv[0], "lat_ops") && f.v[i].argc > 1)
			ops_p = 1;
		if (!strcmp(f.v[i].argv[0], "lat_ctx") && !strcmp(f.v[i].argv[f.v[i].argc - 1], "96"))
			ctx96++;
	}
	CHECK(saw_p && !ops_p);
	CHECK(ctx96 == 6); /* every size with every count up to 96 */
	CHECK_STR(f.v[f.n - 1].label, "lat_mem_rd -P 2 -t 128 16");
	char s[32];
	plan_size_str(512, s, sizeof s);
	CHECK_STR(s, "512");
	plan_size_str(64 << 10, s, sizeof s);
	CHECK_STR(s, "64k");
	plan_size_str(8 << 20, s, sizeof s);
	CHECK_STR(s, "8m");
	plan_free(&q);
	plan_free(&d);
	plan_free(&f);
}
