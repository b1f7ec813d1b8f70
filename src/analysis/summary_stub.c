/* summary_stub.c — placeholder until the summary tables land (replaced by summary.c). */
#include "analysis/summary.h"

void summary_print(FILE *f, struct run *const *runs, size_t n)
{
	(void)runs; (void)n;
	fprintf(f, "summary tables are not implemented yet\n");
}
