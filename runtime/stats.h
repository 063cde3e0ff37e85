/* stats.h - snapshots of the per-worker counters (worker.h) and their table. */
#ifndef FJ_STATS_H
#define FJ_STATS_H

#include "pool.h"

/* Prints the table on stderr if FJ_STATS=1 is set; called by pool teardown. */
void stats_print_if_asked(const fj_pool *pool);

#endif
