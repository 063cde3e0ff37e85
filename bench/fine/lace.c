/* lace.c - the "lace" system: the fine-grained programs in Lace (v1.4.2 API),
 * built against the Lace source tree that LACE_DIR names (mk/bench.mk). */
#include <lace.h>

#include "fine.h"

const char *const fine_system = "lace";

int fine_init(int workers)
{
    lace_start((unsigned)workers, 0); /* 0: Lace's default deque size */
    return 0;
}

void fine_fini(void) { lace_stop(); }

TASK_1(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    long a = SYNC(fib);
    return a + b;
}

/* Each program's root: the recursion as a direct call, counted under
 * callgrind on the worker that runs it (fine.h). */
TASK_1(long, fib_root, int, n)
{
    FINE_COUNT_TOGGLE();
    long r = CALL(fib, n);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_fib(int n) { return RUN(fib_root, n); }

TASK_1(long, dfs, int, depth)
{
    if (depth == 0)
        return 1;
    for (int i = 0; i < FINE_DFS_BREADTH; i++)
        SPAWN(dfs, depth - 1);
    long leaves = 0;
    for (int i = 0; i < FINE_DFS_BREADTH; i++)
        leaves += SYNC(dfs);
    return leaves;
}

TASK_1(long, dfs_root, int, depth)
{
    FINE_COUNT_TOGGLE();
    long r = CALL(dfs, depth);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_dfs(int depth) { return RUN(dfs_root, depth); }

TASK_4(long, knap, const fine_item *, e, long, c, int, n, long, v)
{
    if (c < 0)
        return FINE_KNAP_NONE;
    if (n == 0)
        return v;
    if (fine_knap_pruned(fine_knap_bound(e, c, v)))
        return FINE_KNAP_NONE;
    SPAWN(knap, e + 1, c, n - 1, v);
    long with = CALL(knap, e + 1, c - e->weight, n - 1, v + e->value);
    long without = SYNC(knap);
    long best = with > without ? with : without;
    fine_knap_offer(best);
    return best;
}

TASK_3(long, knap_root, const fine_item *, items, int, n, long, capacity)
{
    FINE_COUNT_TOGGLE();
    long r = CALL(knap, items, capacity, n, 0);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_knapsack(const fine_item *items, int n, long capacity) { return RUN(knap_root, items, n, capacity); }

TASK_2(long, pi_hits, uint64_t, first, long, count)
{
    if (count == 1)
        return fine_pi_hit(first);
    long half = count / 2;
    SPAWN(pi_hits, first, half);
    long b = CALL(pi_hits, first + (uint64_t)half, count - half);
    long a = SYNC(pi_hits);
    return a + b;
}

TASK_1(long, pi_root, long, samples)
{
    FINE_COUNT_TOGGLE();
    long r = CALL(pi_hits, 0, samples);
    FINE_COUNT_TOGGLE();
    return r;
}

long fine_pi(long samples) { return RUN(pi_root, samples); }
