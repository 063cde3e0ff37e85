/* serial.c - the "serial" system of the fine-grained programs: each driver's
 * recursion with plain calls where the others fork and join. */
#include "fine.h"

const char *const fine_system = "serial";

int fine_init(int workers) { return workers == 1 ? 0 : -1; }
void fine_fini(void) {}

/* The root of each program: the recursion, counted under callgrind. */
#define COUNTED(call)                                                                                                  \
    do {                                                                                                               \
        FINE_COUNT_TOGGLE();                                                                                           \
        long counted_result = (call);                                                                                  \
        FINE_COUNT_TOGGLE();                                                                                           \
        return counted_result;                                                                                         \
    } while (0)

static long fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

long fine_fib(int n) { COUNTED(fib(n)); }

static long dfs(int depth)
{
    if (depth == 0)
        return 1;
    long leaves = 0;
    for (int i = 0; i < FINE_DFS_BREADTH; i++)
        leaves += dfs(depth - 1);
    return leaves;
}

long fine_dfs(int depth) { COUNTED(dfs(depth)); }

static long knap(const fine_item *e, long c, int n, long v)
{
    if (c < 0)
        return FINE_KNAP_NONE;
    if (n == 0)
        return v;
    if (fine_knap_pruned(fine_knap_bound(e, c, v)))
        return FINE_KNAP_NONE;
    /* the order of a 1-worker run of the others: the called "with" branch
     * first, then the spawned "without" one at its sync */
    long with = knap(e + 1, c - e->weight, n - 1, v + e->value);
    long without = knap(e + 1, c, n - 1, v);
    long best = with > without ? with : without;
    fine_knap_offer(best);
    return best;
}

long fine_knapsack(const fine_item *items, int n, long capacity) { COUNTED(knap(items, capacity, n, 0)); }

static long pi_hits(uint64_t first, long count)
{
    if (count == 1)
        return fine_pi_hit(first);
    long half = count / 2;
    return pi_hits(first, half) + pi_hits(first + (uint64_t)half, count - half);
}

long fine_pi(long samples) { COUNTED(pi_hits(0, samples)); }
