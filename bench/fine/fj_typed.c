/* fj_typed.c - the "fj-typed" system: the fine-grained programs with fj's
 * typed tasks (FJ_TASK, FJ_SPAWN, FJ_CALL, FJ_SYNC), line for line the Lace
 * driver (lace.c).  Each run is one FJ_RUN from main(). */

#include "fine.h"
#include "fj.h"
#include "../fj_pool.h"

const char *const fine_system = "fj-typed";
static fj_pool *pool;

int fine_init(int workers) { return bench_fj_pool_create(&pool, (unsigned)workers); }

void fine_fini(void) { bench_fj_pool_destroy(pool); }

FJ_TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib, n - 1);
    long b = FJ_CALL(fib, n - 2);
    long a = FJ_SYNC(fib);
    return a + b;
}

/* Each program's root: the recursion as a direct call, counted under
 * callgrind on the worker that runs it (fine.h). */
FJ_TASK(long, fib_root, int, n)
{
    FINE_COUNT_TOGGLE();
    long r = FJ_CALL(fib, n);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_fib(int n) { return FJ_RUN(pool, fib_root, n); }

FJ_TASK(long, dfs, int, depth)
{
    if (depth == 0)
        return 1;
    for (int i = 0; i < FINE_DFS_BREADTH; i++)
        FJ_SPAWN(dfs, depth - 1);
    long leaves = 0;
    for (int i = 0; i < FINE_DFS_BREADTH; i++)
        leaves += FJ_SYNC(dfs);
    return leaves;
}

FJ_TASK(long, dfs_root, int, depth)
{
    FINE_COUNT_TOGGLE();
    long r = FJ_CALL(dfs, depth);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_dfs(int depth) { return FJ_RUN(pool, dfs_root, depth); }

FJ_TASK(long, knap, const fine_item *, e, long, c, int, n, long, v)
{
    if (c < 0)
        return FINE_KNAP_NONE;
    if (n == 0)
        return v;
    if (fine_knap_pruned(fine_knap_bound(e, c, v)))
        return FINE_KNAP_NONE;
    FJ_SPAWN(knap, e + 1, c, n - 1, v);
    long with = FJ_CALL(knap, e + 1, c - e->weight, n - 1, v + e->value);
    long without = FJ_SYNC(knap);
    long best = with > without ? with : without;
    fine_knap_offer(best);
    return best;
}

FJ_TASK(long, knap_root, const fine_item *, items, int, n, long, capacity)
{
    FINE_COUNT_TOGGLE();
    long r = FJ_CALL(knap, items, capacity, n, 0);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_knapsack(const fine_item *items, int n, long capacity) { return FJ_RUN(pool, knap_root, items, n, capacity); }

FJ_TASK(long, pi_hits, uint64_t, first, long, count)
{
    if (count == 1)
        return fine_pi_hit(first);
    long half = count / 2;
    FJ_SPAWN(pi_hits, first, half);
    long b = FJ_CALL(pi_hits, first + (uint64_t)half, count - half);
    long a = FJ_SYNC(pi_hits);
    return a + b;
}

FJ_TASK(long, pi_root, long, samples)
{
    FINE_COUNT_TOGGLE();
    long r = FJ_CALL(pi_hits, 0, samples);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_pi(long samples) { return FJ_RUN(pool, pi_root, samples); }
