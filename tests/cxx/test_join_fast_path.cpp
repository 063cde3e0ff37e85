// test_join_fast_path.cpp - fj::join (include/fj.hpp) held to the promises of
// the fast path it forks through, as tests/unit/test_fast_path.c holds typed
// tasks: joins make the runtime allocate nothing, on any worker count; on one
// worker they take no lock and call the runtime at most twice a run, however
// many joins (tests/call_count.h says which two).  fj::join of two, of eight,
// and through an fj::context.  operator new is counted by test_join_context
// and test_join_many; this counts what the library itself calls.
#include "check.h"
#include "fj.hpp"

#include "call_count.h"
#include "fib_joins.h"
#include "fib_tasks.h"

namespace {

// A tree of eight-way joins: 8^depth leaves, 7 forks per inner node.
long leaves(int depth)
{
    if (depth == 0)
        return 1;
    auto side = [depth] { return leaves(depth - 1); };
    auto [a, b, c, d, e, f, g, h] = fj::join(side, side, side, side, side, side, side, side);
    return a + b + c + d + e + f + g + h;
}

int fib_n() { return 22 - (check_scale() > 1) * 2; }

// fib(n) - 1 joins of two for fib(n).
long fib_joins(int n) { return fib_serial(n + 1) - 1; }

fj::pool pool_without_hooks()
{
    clear_hook_switches();
    return fj::pool(check_workers);
}

// Runs `work` on the pool inside the counting window; returns its result.
template <typename F>
long counted(fj::pool &pool, F work)
{
    return pool.invoke([&work] {
        window_open();
        long r = work();
        window_close();
        return r;
    });
}

template <typename F>
long counted_with_context(fj::pool &pool, F work)
{
    return pool.invoke([&work](fj::context cx) {
        window_open();
        long r = work(cx);
        window_close();
        return r;
    });
}

void joins_make_the_runtime_allocate_nothing()
{
    fj::pool pool = pool_without_hooks();
    int n = fib_n();
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(fib_serial(n), counted(pool, [n] { return fib_plain(n); }));
        CHECK_EQ(0, count_of(&allocations));
        CHECK_EQ(fib_serial(n), counted_with_context(pool, [n](fj::context cx) { return fib_in_context(cx, n); }));
        CHECK_EQ(0, count_of(&allocations));
        CHECK_EQ(4096, counted(pool, [] { return leaves(4); }));
        CHECK_EQ(0, count_of(&allocations));
    }
}

// One worker: no join locks, and the runtime is called a bounded number of
// times a run, for fib(n) and fib(n + 4) alike (6.9 times the joins).
void one_worker_joins_take_no_lock_and_stay_inline()
{
    check_workers = 1;
    fj::pool pool = pool_without_hooks();
    for (int n = fib_n(); n <= fib_n() + 4; n += 4) {
        CHECK_EQ(fib_serial(n), counted(pool, [n] { return fib_plain(n); }));
        CHECK_EQ(0, count_of(&locks));
        check_few_slow_calls(pool.native_handle(), "fj::join fib", fib_joins(n));
        CHECK_EQ(fib_serial(n), counted_with_context(pool, [n](fj::context cx) { return fib_in_context(cx, n); }));
        CHECK_EQ(0, count_of(&locks));
        check_few_slow_calls(pool.native_handle(), "fj::join(cx) fib", fib_joins(n));
    }
    CHECK_EQ(32768, counted(pool, [] { return leaves(5); }));
    CHECK_EQ(0, count_of(&locks));
    check_few_slow_calls(pool.native_handle(), "eight-way fj::join", 32768 - 1); /* 7 forks x (8^5 - 1) / 7 nodes */
}

} // namespace

static const check_case cases[] = {
    {"joins_make_the_runtime_allocate_nothing", joins_make_the_runtime_allocate_nothing, CHECK_PER_WORKERS},
    {"one_worker_joins_take_no_lock_and_stay_inline", one_worker_joins_take_no_lock_and_stay_inline, CHECK_ONCE},
};
CHECK_MAIN(cases)
