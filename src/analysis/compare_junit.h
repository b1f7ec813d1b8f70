/*
 * compare_junit.h — `plumb compare --format junit`: the compare table as a JUnit XML report, the
 * format Jenkins, GitLab and most CI systems show natively (schema: tests/junit.xsd).
 */
#ifndef PLUMB_COMPARE_JUNIT_H
#define PLUMB_COMPARE_JUNIT_H

#include <stdio.h>
#include "analysis/compare.h"

/* One <testsuite> per compared side (against the baseline), one <testcase> per row: a
 * <failure> when the row is significantly worse, <skipped> when it could not be tested. */
void cmp_print_junit(FILE *f, const struct cmp_table *t);

#endif
