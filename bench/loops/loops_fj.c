/* loops_fj.c - fj_parallel_for with the automatic grain, called from the main
 * thread (not a worker), as a user would. */
#include <stdio.h>
#include <stdlib.h>

#include "fj.h"
#include "../fj_pool.h"
#include "harness.h"

static fj_pool *pool;

static void leaf_range(int64_t lo, int64_t hi, void *ctx) { loop_leaf(ctx, lo, hi); }

static void run_fj(const loop_input *in, int64_t grain)
{
    int rc = fj_parallel_for(pool, 0, in->n, 0, leaf_range, (void *)in);
    if (rc != 0) {
        fprintf(stderr, "fj_parallel_for: %s\n", fj_strerror(rc));
        exit(1);
    }
}

static void make_pool(unsigned workers)
{
    if (bench_fj_pool_create(&pool, workers) != 0)
        exit(1);
}

int main(int argc, char **argv)
{
    static const loop_system systems[] = {{"fj", run_fj}};
    int rc = loop_bench_main(argc, argv, systems, 1, make_pool);
    fj_pool_destroy(pool);
    return rc;
}
