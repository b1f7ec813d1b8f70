/* main.c — run every registered unit test (or those named on the command line). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test.h"

static struct unit_test *head, **tail = &head;
static int failed_now;

void test_register(struct unit_test *t)
{
	*tail = t;
	tail = &t->next;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	if (!failed_now)
		printf("FAIL ");
	else
		printf("     ");
	failed_now = 1;
	printf("%s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* bin/unit-tests [--sims|--no-sims] [NAME...]: every test, or the simulations only, or all
 * but them, or those named. */
int main(int argc, char **argv)
{
	int failures = 0, sims = -1;
	if (argc > 1 && (!strcmp(argv[1], "--sims") || !strcmp(argv[1], "--no-sims"))) {
		sims = !strcmp(argv[1], "--sims");
		argv++;
		argc--;
	}
	for (struct unit_test *t = head; t; t = t->next) {
		if (sims >= 0 && t->sim != sims)
			continue;
		if (argc > 1) {
			int want = 0;
			for (int i = 1; i < argc; i++)
				want |= strcmp(argv[i], t->name) == 0;
			if (!want)
				continue;
		}
		failed_now = 0;
		fflush(stdout);
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		t->fn();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* a slow test is named, so the 5 minutes of make test stay visible */
		double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (s >= 0.5)
			printf("# unit/%s took %.1f s\n", t->name, s);
		if (failed_now) {
			printf("FAIL unit/%s\n", t->name);
			failures++;
		} else {
			printf("PASS unit/%s\n", t->name);
		}
		fflush(stdout);
	}
	return failures ? 1 : 0;
}
