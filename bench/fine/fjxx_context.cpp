// fjxx_context.cpp - the "fj++cx" system: fjxx.cpp's programs line for line,
// with each join through an fj::context (include/fj.hpp): every function of
// the recursion takes the context and passes each side's on, as a typed
// task's body takes the worker and the deque's top (fj_typed.c), so no join
// reads either from memory or thread-local storage.  Beside fj++ it shows
// what carrying them costs or saves against looking them up per join.
//
// As in fjxx.cpp, fj::join(cx, f, g) runs f here and forks g, g being the part
// fj_typed.c spawns, and dfs joins a node's children in one join of
// FINE_DFS_BREADTH sides (7 forks per inner node).  Sides name their
// parameter apart from the enclosing function's `cx` (here `c`, knapsack's
// `k` beside its capacity c): -Wshadow would warn about a lambda parameter
// that hides it.
//
// The driver (the pool, fine_init, fine_fini, run_root): fjxx_pool.h.
#include <cstdint>
#include <tuple>
#include <utility>

#include "fjxx_pool.h"

extern "C" const char *const fine_system = "fj++cx";

static long fib(fj::context cx, int n)
{
    if (n < 2)
        return n;
    auto [b, a] = fj::join(cx, [n](fj::context c) { return fib(c, n - 2); }, [n](fj::context c) { return fib(c, n - 1); });
    return a + b;
}

extern "C" long fine_fib(int n)
{
    return run_root([n](fj::context cx) { return fib(cx, n); });
}

static long dfs(fj::context cx, int depth);

// The children of a node, one join of FINE_DFS_BREADTH sides.
template <std::size_t... Child>
static long dfs_children(fj::context cx, int depth, std::index_sequence<Child...>)
{
    auto leaves = fj::join(cx, ((void)Child, [depth](fj::context c) { return dfs(c, depth); })...);
    return std::apply([](auto... each) { return (each + ...); }, leaves);
}

static long dfs(fj::context cx, int depth)
{
    if (depth == 0)
        return 1;
    return dfs_children(cx, depth - 1, std::make_index_sequence<FINE_DFS_BREADTH>{});
}

extern "C" long fine_dfs(int depth)
{
    return run_root([depth](fj::context cx) { return dfs(cx, depth); });
}

static long knap(fj::context cx, const fine_item *e, long c, int n, long v)
{
    if (c < 0)
        return FINE_KNAP_NONE;
    if (n == 0)
        return v;
    if (fine_knap_pruned(fine_knap_bound(e, c, v)))
        return FINE_KNAP_NONE;
    auto [with, without] =
        fj::join(cx, [=](fj::context k) { return knap(k, e + 1, c - e->weight, n - 1, v + e->value); },
                 [=](fj::context k) { return knap(k, e + 1, c, n - 1, v); });
    long best = with > without ? with : without;
    fine_knap_offer(best);
    return best;
}

extern "C" long fine_knapsack(const fine_item *items, int n, long capacity)
{
    return run_root([=](fj::context cx) { return knap(cx, items, capacity, n, 0); });
}

static long pi_hits(fj::context cx, uint64_t first, long count)
{
    if (count == 1)
        return fine_pi_hit(first);
    long half = count / 2;
    auto [b, a] = fj::join(cx, [=](fj::context c) { return pi_hits(c, first + (uint64_t)half, count - half); },
                           [=](fj::context c) { return pi_hits(c, first, half); });
    return a + b;
}

extern "C" long fine_pi(long samples)
{
    return run_root([samples](fj::context cx) { return pi_hits(cx, 0, samples); });
}
