/* fine.h - fine-grained programs of the Cilk-5 / BOTS tradition, written
 * once per system so that fj can be compared with Lace task for task.
 *
 * Each system's driver (serial.c, fj_classic.c, fj_typed.c, fjxx.cpp, lace.c)
 * defines the functions below (with C linkage: main.c is C) with the same
 * recursion, the same spawn order and the same leaves; main.c (shared) parses
 * `PROGRAM SIZE WORKERS RUNS`, builds the input and the expected result with
 * a serial twin (untimed), times RUNS calls, verifies each one and prints the
 * lines of bench/harness.h:
 *
 *     run 1 0.412345 verified
 *     RESULT,dfs,9,lace,2,<median_s>,<min_s>,<max_s>,<runs>,<verified 1|0>
 *     CPU <busy> <idle>
 *
 * CPU: cores' worth of CPU time the process used (user + sys over wall time)
 * while the runs were timed, and afterwards while the runtime sat idle with
 * no work (0.00: its workers sleep; 1.00 at 2 workers: one of them spins).
 *
 * Programs (SIZE in brackets), each node one fork+join unless said:
 *   fib N        [N]      fib(N) with no cut-off: fib(N+1)-1 fork+joins.
 *   dfs D        [depth]  a tree of empty tasks, FINE_DFS_BREADTH children per
 *                         inner node, all spawned then all synced; returns the
 *                         number of leaves, FINE_DFS_BREADTH^D.  (fj++
 *                         joins them in one fj::join of FINE_DFS_BREADTH
 *                         sides, the first run in place: FINE_DFS_BREADTH-1
 *                         forks per inner node.)
 *   knapsack N   [items]  0/1 knapsack by branch and bound (Cilk-5 knapsack.c's
 *                         algorithm): spawn "without this item", call "with
 *                         it", prune a subtree whose fractional bound cannot
 *                         beat the best value found so far (shared, relaxed).
 *                         The answer is checked against dynamic programming.
 *   pi N         [samples] Monte Carlo pi by recursive halving down to one
 *                         sample per leaf: N-1 fork+joins; sample i is a pure
 *                         function of i, so the hit count is exact.
 */
#ifndef BENCH_FINE_H
#define BENCH_FINE_H

#include <stdint.h>

#define FINE_DFS_BREADTH 8

/* A knapsack item; the input is sorted by value/weight, best first. */
typedef struct fine_item {
    long weight, value;
} fine_item;

/* The `system` column: serial, fj-classic, fj-typed, fj++, lace. */
extern const char *const fine_system;

/* Starts the runtime with `workers` workers; 0 on success. */
int fine_init(int workers);
void fine_fini(void);

long fine_fib(int n);
long fine_dfs(int depth);
long fine_knapsack(const fine_item *items, int n, long capacity);
long fine_pi(long samples);

/* 1 if sample i of pi falls inside the quarter circle: two 31-bit
 * coordinates from one splitmix64 step (Steele, Lea, Flood 2014). */
static inline long fine_pi_hit(uint64_t i)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    uint64_t x = z >> 33, y = z & 0x7fffffffu;
    return x * x + y * y < (1ULL << 62);
}

/* Knapsack's bound: value v so far plus the remaining capacity c filled at the
 * best ratio left (items[0]); an integer, so rounding down keeps it a bound. */
static inline long fine_knap_bound(const fine_item *e, long c, long v)
{
    return v + c * e->value / e->weight;
}

/* The best value found so far, shared by all workers: a racy hint in Cilk-5,
 * here relaxed atomics (a stale read only prunes less). */
extern long fine_knap_best;

static inline int fine_knap_pruned(long bound)
{
    return bound < __atomic_load_n(&fine_knap_best, __ATOMIC_RELAXED);
}

static inline void fine_knap_offer(long value)
{
    long seen = __atomic_load_n(&fine_knap_best, __ATOMIC_RELAXED);
    while (value > seen &&
           !__atomic_compare_exchange_n(&fine_knap_best, &seen, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Switches callgrind's collection of the calling thread on or off (make
 * bench-instructions runs with --collect-atstart=no).  Each driver's root
 * task calls it around the recursion, on the thread that runs it, so only
 * the recursion is counted: not the pool's start, the hand-over of the root,
 * nor a thread waiting or spinning meanwhile.  Outside valgrind: a few
 * instructions that do nothing, once per run. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define FINE_COUNT_TOGGLE() CALLGRIND_TOGGLE_COLLECT
#endif
#endif
#ifndef FINE_COUNT_TOGGLE
#define FINE_COUNT_TOGGLE() ((void)0)
#endif

/* What an overweight or pruned subtree returns: below every real value. */
#define FINE_KNAP_NONE (-1L)

#endif
