/* main.c — run every registered unit test (or those named on the command line). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	int failures = 0;
	for (struct unit_test *t = head; t; t = t->next) {
		if (argc > 1) {
			int want = 0;
			for (int i = 1; i < argc; i++)
				want |= strcmp(argv[i], t->name) == 0;
			if (!want)
				continue;
		}
		failed_now = 0;
		fflush(stdout);
		t->fn();
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
