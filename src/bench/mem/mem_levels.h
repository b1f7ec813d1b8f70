/*
 * mem_levels.h — split a latency-by-size curve (random pointer chase) into the memory
 * hierarchy's levels: used by `cache`, and kept apart so its unit test can feed it curves.
 */
#ifndef PLUMB_MEM_LEVELS_H
#define PLUMB_MEM_LEVELS_H

#include <stdint.h>

struct level {
	uint64_t size;     /* the level's capacity: the last size before the rise to the next */
	double ns;         /* latency on the plateau (median of its points) */
	int first, last;   /* point indexes of the plateau */
};

/* sz[] ascending, ns[] the latency at each; n points. Fills at most max levels and returns how
 * many; the last one is whatever the curve ends on (main memory when it went far enough). */
int mem_find_levels(const uint64_t *sz, const double *ns, int n, struct level *lv, int max);

#endif
