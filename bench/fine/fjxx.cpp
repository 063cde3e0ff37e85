// fjxx.cpp - the "fj++" system: the fine-grained programs through fj's C++
// face (include/fj.hpp), line for line fj_typed.c with fj::join in place of
// FJ_SPAWN / FJ_CALL / FJ_SYNC, so that what fj.hpp adds over the typed frames
// it forks through (the lambdas, the result slots, the catch-all that carries
// an exception to the join, the look-up of the current worker per join) shows
// next to fj-typed, fj-classic and Lace with the same compiler flags
// (FINE_CXXFLAGS, mk/bench.mk).  Each run is one fj::pool::invoke from main().
//
// fj::join(f, g) runs f here and forks g, so g is always the part fj_typed.c
// spawns (the one a thief may take) and f the part it calls.
//
// dfs: fj::join is binary, so an inner node's FINE_DFS_BREADTH children are
// split in halves by nested joins (the first half forked, the second run here,
// down to one child): 7 fork+joins per inner node instead of fj_typed.c's 8,
// 8^D - 1 in all for depth D instead of 8 (8^D - 1) / 7 (bench/instructions.sh
// counts them so).  A thief still takes the biggest piece first (half the
// children, where fj_typed.c's thief takes one), and the child run first here
// is the last, as FJ_SYNC's newest-first order runs it.
//
// The pool: an fj::pool made from an fj_config as bench_fj_pool_create
// (bench/fj_pool.h) makes it, fj_config_init then the worker count, so the
// other settings come from FJ_* in the environment as for every fj driver; a
// refusal is printed with fj_last_error_detail(), and the counters at the end
// when BENCH_FJ_STATS is set, through native_handle().  fj::pool can express
// all of it, so fj_pool.h itself is not used (its C calls would bypass the
// face being measured only at start and end anyway).
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "fj.hpp"

extern "C" {
#include "fine.h"
}

extern "C" const char *const fine_system = "fj++";
static std::optional<fj::pool> pool;

extern "C" int fine_init(int workers)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = (unsigned)workers;
    try {
        pool.emplace(config);
    } catch (const fj::error &e) {
        std::fprintf(stderr, "fj::pool: %s (%s)\n", e.what(), fj_last_error_detail());
        return e.code();
    }
    return 0;
}

extern "C" void fine_fini(void)
{
    if (std::getenv("BENCH_FJ_STATS"))
        fj_pool_print_stats(pool->native_handle(), stderr);
    pool.reset();
}

// Each program's root: the recursion as a direct call, counted under
// callgrind on the worker that runs it (fine.h).  A pool that refuses the
// root ends the program, as fj_classic.c's invoke() does.
template <class F>
static long run_root(F recursion)
{
    try {
        return pool->invoke([&recursion] {
            FINE_COUNT_TOGGLE();
            long r = recursion();
            FINE_COUNT_TOGGLE();
            return r;
        });
    } catch (const fj::error &e) {
        std::fprintf(stderr, "fj::pool::invoke: %s\n", e.what());
        std::exit(1);
    }
}

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [b, a] = fj::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

extern "C" long fine_fib(int n)
{
    return run_root([n] { return fib(n); });
}

static long dfs(int depth);

// `count` children of depth `depth`: count - 1 joins.
static long dfs_children(int depth, int count)
{
    if (count == 1)
        return dfs(depth);
    int half = count / 2;
    auto [last, first] = fj::join([=] { return dfs_children(depth, count - half); },
                                  [=] { return dfs_children(depth, half); });
    return first + last;
}

static long dfs(int depth)
{
    if (depth == 0)
        return 1;
    return dfs_children(depth - 1, FINE_DFS_BREADTH);
}

extern "C" long fine_dfs(int depth)
{
    return run_root([depth] { return dfs(depth); });
}

static long knap(const fine_item *e, long c, int n, long v)
{
    if (c < 0)
        return FINE_KNAP_NONE;
    if (n == 0)
        return v;
    if (fine_knap_pruned(fine_knap_bound(e, c, v)))
        return FINE_KNAP_NONE;
    auto [with, without] = fj::join([=] { return knap(e + 1, c - e->weight, n - 1, v + e->value); },
                                    [=] { return knap(e + 1, c, n - 1, v); });
    long best = with > without ? with : without;
    fine_knap_offer(best);
    return best;
}

extern "C" long fine_knapsack(const fine_item *items, int n, long capacity)
{
    return run_root([=] { return knap(items, capacity, n, 0); });
}

static long pi_hits(uint64_t first, long count)
{
    if (count == 1)
        return fine_pi_hit(first);
    long half = count / 2;
    auto [b, a] = fj::join([=] { return pi_hits(first + (uint64_t)half, count - half); },
                           [=] { return pi_hits(first, half); });
    return a + b;
}

extern "C" long fine_pi(long samples)
{
    return run_root([samples] { return pi_hits(0, samples); });
}
