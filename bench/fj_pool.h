/* fj_pool.h - the pool each fj driver of the benchmarks runs on (fj_bench.c,
 * fj_typed_bench.c, fine/fj_typed.c, fine/fj_classic.c, loops/loops_fj.c):
 * created with the worker count asked for and the library's other settings
 * (FJ_* in the environment); a refusal is printed with the setting it names,
 * and the counters at the end when BENCH_FJ_STATS is set. */
#ifndef BENCH_FJ_POOL_H
#define BENCH_FJ_POOL_H

#include <stdio.h>
#include <stdlib.h>

#include "fj.h"

static inline int bench_fj_pool_create(fj_pool **pool, unsigned workers)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = workers;
    int rc = fj_pool_create(pool, &config);
    if (rc != 0)
        fprintf(stderr, "fj_pool_create: %s (%s)\n", fj_strerror(rc), fj_last_error_detail());
    return rc;
}

/* Destroys the pool, printing its counters first when BENCH_FJ_STATS is set. */
static inline void bench_fj_pool_destroy(fj_pool *pool)
{
    if (getenv("BENCH_FJ_STATS"))
        fj_pool_print_stats(pool, stderr);
    fj_pool_destroy(pool);
}

#endif
