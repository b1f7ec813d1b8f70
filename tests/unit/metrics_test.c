/* metrics_test.c — the method registry (issue 14): every metric says what it is, and the
 * metrics whose operation is not lmbench's (or not plumb's former one) carry a method version
 * above lmbench's 1, so compare reports a method change, never a regression. */
#include <string.h>
#include "core/metrics.h"
#include "test.h"

TEST(metrics_every_metric_described_once)
{
	CHECK(metric_method_count == metric_count);
	for (int i = 0; i < metric_count; i++) {
		const struct metric_method *w = metric_method(metric_table[i].id);
		CHECK(w != NULL);
		if (!w)
			continue;
		CHECK(*w->work && *w->subtracted);
		/* the same order as metrics.def, so the two files read side by side */
		CHECK(i < metric_method_count && strcmp(metric_method_table[i].id, metric_table[i].id) == 0);
		/* every version above 1 says how it differs */
		if (metric_table[i].version > 1)
			CHECK(w->lmbench[0] != 0);
		/* nothing claims to subtract an empty loop */
		CHECK(!strstr(w->subtracted, "loop"));
	}
}

TEST(metrics_method_versions_differ_from_lmbench)
{
	/* operations that differ from lmbench's (or changed in plumb): issue 14's list */
	static const char *const changed[] = {
		"lat_mmap.latency", "lat_connect.latency", "lat_mem_rd.rand", "lat_pagefault.latency",
		"lat_proc.procedure", "lat_proc.fork", "lat_proc.exec", "lat_proc.shell",
		"stream.copy", "stream.copy_latency", "stream.scale", "stream.scale_latency",
		"stream.add", "stream.triad", "stream2.fill", "stream2.copy", "stream2.daxpy",
		"par_mem.parallelism",
	};
	for (size_t i = 0; i < sizeof changed / sizeof changed[0]; i++) {
		const struct metric_def *d = metric_find(changed[i]);
		CHECK(d != NULL);
		if (d && d->version < 2)
			test_fail(__FILE__, __LINE__, "%s has method version %d, lmbench's", changed[i],
				  d->version);
	}
}
