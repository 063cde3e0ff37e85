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
// dfs: an inner node's FINE_DFS_BREADTH children are one join of that many
// sides: the first runs here and the other 7 are forked, so 7 fork+joins per
// inner node where fj_typed.c spawns all 8 (8^D - 1 in all for depth D:
// bench/instructions.sh counts them so).  As with FJ_SYNC, the sides are
// joined newest first, and a thief takes the oldest.
//
// The driver (the pool, fine_init, fine_fini, run_root): fjxx_pool.h.
#include <cstdint>
#include <tuple>
#include <utility>

#include "fjxx_pool.h"

extern "C" const char *const fine_system = "fj++";

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

// The children of a node, one join of FINE_DFS_BREADTH sides.
template <std::size_t... Child>
static long dfs_children(int depth, std::index_sequence<Child...>)
{
    auto leaves = fj::join(((void)Child, [depth] { return dfs(depth); })...);
    return std::apply([](auto... each) { return (each + ...); }, leaves);
}

static long dfs(int depth)
{
    if (depth == 0)
        return 1;
    return dfs_children(depth - 1, std::make_index_sequence<FINE_DFS_BREADTH>{});
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
