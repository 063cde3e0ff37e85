// test_fj_hpp.cpp - the C++ face (include/fj.hpp): join, pool, task_group,
// parallel_for, parallel_reduce, and exceptions carried from a task to the
// join or wait that waits for it.  Also built with -fno-exceptions
// (test_fj_hpp_noexcept), without the exception cases.
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "check.h"
#include "fj.hpp"

namespace {

long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

long fib_join(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib_join(n - 1); }, [n] { return fib_join(n - 2); });
    return a + b;
}

} // namespace

// fj.h's typed tasks compiled as C++: the fastest path, for a C++ program's
// innermost recursion (README, "From C++").
FJ_TASK(long, fib_typed, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib_typed, n - 1);
    long b = FJ_CALL(fib_typed, n - 2);
    return FJ_SYNC(fib_typed) + b;
}

// A typed spawn with fj::joins between it and its sync: the joins' frames go
// above the typed one and are gone again when the sync looks for it.
FJ_TASK(long, fib_typed_around_joins, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib_typed_around_joins, n - 1);
    long b = fib_join(n - 2);
    return FJ_SYNC(fib_typed_around_joins) + b;
}

namespace {

int fib_size() { return check_stress() ? 30 : 22; }

void fib_join_matches_serial()
{
    fj::pool pool(check_workers);
    CHECK_EQ(check_workers, pool.workers());
    int n = fib_size();
    long parallel = pool.invoke([n] { return fib_join(n); });
    CHECK_EQ(fib_serial(n), parallel);
}

void typed_tasks_run_in_cxx()
{
    fj::pool pool(check_workers);
    int n = fib_size();
    CHECK_EQ(fib_serial(n), FJ_RUN(pool.native_handle(), fib_typed, n));
    CHECK_EQ(fib_serial(n), FJ_RUN(pool.native_handle(), fib_typed_around_joins, n));
}

void join_of_void_lambdas()
{
    fj::pool pool(check_workers);
    pool.invoke([] {
        int left = 0, right = 0;
        auto set_left = [&] { left = 1; };
        auto set_right = [&] { right = 2; };
        static_assert(std::is_void_v<decltype(fj::join(set_left, set_right))>);
        fj::join(set_left, set_right);
        CHECK_EQ(1, left);
        CHECK_EQ(2, right);
        // One side void: it appears as std::monostate, the other keeps its place.
        bool ran = false;
        auto mixed = fj::join([&] { ran = true; }, [] { return 7; });
        static_assert(std::is_same_v<decltype(mixed), std::pair<std::monostate, int>>);
        CHECK(ran);
        CHECK_EQ(7, mixed.second);
        // References stay references.
        int target = 5;
        auto refs = fj::join([&]() -> int & { return target; }, [] { return 1L; });
        static_assert(std::is_same_v<decltype(refs), std::pair<int &, long>>);
        CHECK(&refs.first == &target);
        // Rvalue references too, on either side and in either way of holding g.
        int other = 6;
        auto moved = fj::join([&]() -> int && { return std::move(target); },
                              [&]() -> int && { return std::move(other); });
        static_assert(std::is_same_v<decltype(moved), std::pair<int &&, int &&>>);
        CHECK(&moved.first == &target);
        CHECK(&moved.second == &other);
        auto give_other = [&]() -> int && { return std::move(other); };
        CHECK(&fj::join([] { return 0; }, give_other).second == &other);
    });
}

// What a forked g returns reaches the join whichever way its frame holds g
// (include/fj.hpp): a temporary, trivially copyable g with a small result is
// copied into the frame and its result comes back through it; anything else
// (a large or non-trivial result, a large capture, an lvalue g) goes through
// a pointer to the joiner's stack.  Trees of joins, so that thieves take g
// on every level at 2 or more workers; each result checked against the sum.
struct quad {
    long a, b, c, d;
};
struct five {
    long v[5];
};
static_assert(fj::detail::fits_frame<quad>(), "quad comes back through the frame");
static_assert(!fj::detail::fits_frame<five>(), "five comes back through the joiner's stack");
static_assert(!fj::detail::fits_frame<std::string>(), "a string comes back through the joiner's stack");

quad quad_tree(int depth, long index)
{
    if (depth == 0)
        return {index, 2 * index, 3 * index, 4 * index};
    auto [l, r] = fj::join([=] { return quad_tree(depth - 1, 2 * index); },
                           [=] { return quad_tree(depth - 1, 2 * index + 1); });
    return {l.a + r.a, l.b + r.b, l.c + r.c, l.d + r.d};
}

five five_tree(int depth, long index)
{
    if (depth == 0)
        return {{index, index + 1, index + 2, index + 3, index + 4}};
    auto [l, r] = fj::join([=] { return five_tree(depth - 1, 2 * index); },
                           [=] { return five_tree(depth - 1, 2 * index + 1); });
    five sum;
    for (int i = 0; i < 5; i++)
        sum.v[i] = l.v[i] + r.v[i];
    return sum;
}

// The leaves' digits in index order: a non-trivial result, and the order shows.
std::string digit_tree(int depth, long index)
{
    if (depth == 0)
        return std::string(1, (char)('0' + index % 10));
    auto [l, r] = fj::join([=] { return digit_tree(depth - 1, 2 * index); },
                           [=] { return digit_tree(depth - 1, 2 * index + 1); });
    return l + r;
}

// g returns a reference (to the joiner's local), capturing 32 bytes (in the
// frame) on odd levels and 40 (too many: through the stack) on even ones.
long weigh_tree(int depth, long index, const long *weights)
{
    if (depth == 0)
        return weights[index % 7];
    long right = 0;
    long *into = &right;
    auto left = [=] { return weigh_tree(depth - 1, 2 * index, weights); };
    long sum;
    if (depth % 2) {
        auto [l, r] = fj::join(left, [=]() -> long & {
            return *into = weigh_tree(depth - 1, 2 * index + 1, weights);
        });
        CHECK(&r == &right);
        sum = l + r;
    } else {
        five spare{{index, depth, 0, 0, 0}};
        auto [l, r] = fj::join(left, [=]() -> long & {
            return *into = weigh_tree((int)spare.v[1] - 1, 2 * spare.v[0] + 1, weights);
        });
        CHECK(&r == &right);
        sum = l + r;
    }
    return sum;
}

void join_results_of_every_shape_reach_the_join()
{
    fj::pool pool(check_workers);
    const int depth = check_stress() ? 16 : 12;
    const long leaves = 1L << depth, index_sum = leaves * (leaves - 1) / 2;
    quad q = pool.invoke([=] { return quad_tree(depth, 0); });
    CHECK_EQ(index_sum, q.a);
    CHECK_EQ(2 * index_sum, q.b);
    CHECK_EQ(3 * index_sum, q.c);
    CHECK_EQ(4 * index_sum, q.d);
    five f = pool.invoke([=] { return five_tree(depth, 0); });
    for (int i = 0; i < 5; i++)
        CHECK_EQ(index_sum + i * leaves, f.v[i]);
    std::string digits = pool.invoke([=] { return digit_tree(depth, 0); });
    std::string expected;
    for (long i = 0; i < leaves; i++)
        expected += (char)('0' + i % 10);
    CHECK(digits == expected);
    static const long weights[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    long weighed = pool.invoke([=] { return weigh_tree(depth, 0, weights); });
    long expected_weight = 0;
    for (long i = 0; i < leaves; i++)
        expected_weight += weights[i % 7];
    CHECK_EQ(expected_weight, weighed);
}

// Each side of a join is invoked once, whichever way its frame holds g, on
// a thief or here, when f throws, and outside a pool: counted over trees of
// joins whose g is a small temporary (in the frame) and a large one (by
// pointer).
#if FJ_HPP_EXCEPTIONS
int throw_if(bool really, const char *what);
#endif

long count_calls(int depth, std::atomic<long> *calls, bool large)
{
    calls->fetch_add(1);
    if (depth == 0)
        return 1;
    long sum;
    if (large) {
        five pad{{depth, 0, 0, 0, 0}};
        auto [a, b] = fj::join([=] { return count_calls(depth - 1, calls, large); },
                               [=] { return count_calls((int)pad.v[0] - 1, calls, large); });
        sum = a + b;
    } else {
        auto [a, b] = fj::join([=] { return count_calls(depth - 1, calls, large); },
                               [=] { return count_calls(depth - 1, calls, large); });
        sum = a + b;
    }
    return sum;
}

void each_side_runs_once()
{
    fj::pool pool(check_workers);
    const int depth = 12;
    for (bool large : {false, true}) {
        std::atomic<long> calls{0};
        CHECK_EQ(1L << depth, pool.invoke([&] { return count_calls(depth, &calls, large); }));
        CHECK_EQ((2L << depth) - 1, calls.load());
        // Outside a pool: the common pool runs both, each once.
        calls.store(0);
        auto [a, b] = fj::join([&] { return count_calls(6, &calls, large); },
                               [&] { return count_calls(6, &calls, large); });
        CHECK_EQ(128, a + b);
        CHECK_EQ(2 * ((2L << 6) - 1), calls.load());
    }
#if FJ_HPP_EXCEPTIONS
    // f throws: g still runs to the end, once.
    for (int round = 0; round < 50; round++) {
        std::atomic<long> g_calls{0};
        bool caught = false;
        pool.invoke([&] {
            try {
                fj::join([] { return throw_if(fib_join(12) > 0, "f"); },
                         [p = &g_calls] { return count_calls(8, p, false); });
            } catch (const std::runtime_error &) {
                caught = true;
            }
        });
        CHECK(caught);
        CHECK_EQ((2L << 8) - 1, g_calls.load());
    }
#endif
}

// An lvalue g runs as the caller's object, wherever it runs: a mutable
// lambda's state is the caller's afterwards (a copy run by a thief would
// lose its increments).
void lvalue_g_runs_in_the_callers_object()
{
    fj::pool pool(check_workers);
    const int joins = 500;
    auto count = [calls = 0]() mutable { return ++calls; };
    long last = pool.invoke([&] {
        long seen = 0;
        for (int i = 0; i < joins; i++)
            seen = fj::join([] { return fib_join(12); }, count).second;
        return seen;
    });
    CHECK_EQ(joins, last);
    CHECK_EQ(joins + 1, count());
}

// Any callable, whichever way the frame holds it: a function pointer (in the
// frame), a function reference, an empty lambda, a capture aligned to 32
// bytes (more than the frame's 16), and move-only lambdas.
long forty_two() { return 42; }

struct alignas(32) wide {
    long value;
};

void join_takes_any_callable()
{
    fj::pool pool(check_workers);
    pool.invoke([] {
        CHECK_EQ(43, fj::join([] { return 1L; }, &forty_two).first + 42);
        CHECK_EQ(42, fj::join([] { return 1L; }, forty_two).second);
        CHECK_EQ(7, fj::join(forty_two, [] { return 7; }).second);
        wide w{5};
        auto [x, y] = fj::join([w] { return w.value + 1; }, [w] { return w.value * 2; });
        CHECK_EQ(6, x);
        CHECK_EQ(10, y);
        auto [p, q] = fj::join([box = std::make_unique<int>(3)] { return *box; },
                               [box = std::make_unique<int>(4)] { return *box; });
        CHECK_EQ(3, p);
        CHECK_EQ(4, q);
        // Which g travels in its frame (README: a temporary capturing up to 32 bytes).
        auto capturing_32 = [a = 1L, b = 2L, c = 3L, d = 4L] { return a + b + c + d; };
        auto capturing_40 = [a = 1L, b = 2L, c = 3L, d = 4L, e = 5L] { return a + b + c + d + e; };
        auto capturing_string = [s = std::string("xy")] { return (long)s.size(); };
        static_assert(fj::detail::g_in_frame_v<decltype(capturing_32)>, "32 bytes of captures go in the frame");
        static_assert(!fj::detail::g_in_frame_v<decltype(capturing_40)>, "40 bytes of captures do not");
        static_assert(!fj::detail::g_in_frame_v<decltype(capturing_32) &>, "an lvalue stays the caller's");
        static_assert(!fj::detail::g_in_frame_v<decltype(capturing_string)>, "a non-trivial capture does not");
        CHECK_EQ(10, fj::join(capturing_40, std::move(capturing_32)).second);
        CHECK_EQ(15, fj::join(capturing_string, std::move(capturing_40)).second);
        CHECK_EQ(2, fj::join([] { return 0; }, std::move(capturing_string)).second);
    });
}

// Where the runtime runs g at its spawn (serial elision, FJ_SERIAL=1) or
// keeps its outcome beside the deque (a full deque, FJ_DEQUE_FRAMES=64: a
// join chain deeper than that), results of both shapes still reach their
// joins, in order.
long chain_of_joins(int n)
{
    if (n == 0)
        return 0;
    auto [rest, digit] = fj::join([=] { return chain_of_joins(n - 1); },
                                  [=] { return quad{n, 2L * n, 0, 0}; });
    return rest + digit.a + digit.b;
}

void results_survive_g_run_at_its_spawn(const char *variable, const char *value)
{
    setenv(variable, value, 1);
    fj::pool pool(check_workers);
    unsetenv(variable);
    const int depth = 10;
    const long leaves = 1L << depth, index_sum = leaves * (leaves - 1) / 2;
    CHECK_EQ(3 * index_sum, pool.invoke([=] { return quad_tree(depth, 0).c; }));
    CHECK_EQ(index_sum + 4 * leaves, pool.invoke([=] { return five_tree(depth, 0).v[4]; }));
    std::string expected;
    for (long i = 0; i < leaves; i++)
        expected += (char)('0' + i % 10);
    CHECK(pool.invoke([=] { return digit_tree(depth, 0); }) == expected);
    const int n = 3000;
    CHECK_EQ(3L * n * (n + 1) / 2, pool.invoke([=] { return chain_of_joins(n); }));
}

void results_survive_serial_elision() { results_survive_g_run_at_its_spawn("FJ_SERIAL", "1"); }
void results_survive_a_full_deque() { results_survive_g_run_at_its_spawn("FJ_DEQUE_FRAMES", "64"); }

void task_group_runs_1000_lambdas()
{
    fj::pool pool(check_workers);
    std::vector<int> ran(1000, 0);
    pool.invoke([&] {
        fj::task_group group;
        for (int i = 0; i < 1000; i++)
            group.run([&ran, i] { ran[(size_t)i]++; });
        group.wait();
    });
    for (int i = 0; i < 1000; i++)
        CHECK_EQ(1, ran[(size_t)i]);
    // A move-only lambda, in a group used a second time.
    int seen = pool.invoke([] {
        fj::task_group group;
        int value = 0;
        group.run([&value, box = std::make_unique<int>(3)] { value = *box; });
        group.wait();
        group.run([&value] { value *= 2; });
        group.wait();
        return value;
    });
    CHECK_EQ(6, seen);
}

void task_group_outside_a_pool_uses_the_common_pool()
{
    std::atomic<int> sum{0};
    fj::task_group group;
    for (int i = 1; i <= 100; i++)
        group.run([&sum, i] { sum.fetch_add(i); });
    group.wait();
    CHECK_EQ(5050, sum.load());
}

void parallel_for_visits_every_index_once()
{
    fj::pool pool(check_workers);
    const int64_t n = check_size(1 << 20, 10000);
    std::vector<int> seen((size_t)n, 0), seen_by_range((size_t)n, 0);
    pool.invoke([&] {
        fj::parallel_for(int64_t{0}, n, [&](int64_t i) { seen[(size_t)i]++; });
        fj::parallel_for(int64_t{0}, n, [&](int64_t lo, int64_t hi) {
            CHECK(hi - lo <= 7);
            for (int64_t i = lo; i < hi; i++)
                seen_by_range[(size_t)i]++;
        }, 7);
    });
    for (int64_t i = 0; i < n; i++) {
        CHECK_EQ(1, seen[(size_t)i]);
        CHECK_EQ(1, seen_by_range[(size_t)i]);
    }
    // Mixed index types (the body gets their common type), an empty range,
    // and a body that throws.
    std::vector<int> small(100, 0);
    fj::parallel_for(0, small.size(), [&](std::size_t i) { small[i]++; });
    for (int i = 0; i < 100; i++)
        CHECK_EQ(1, small[(size_t)i]);
    fj::parallel_for(5, 5, [](int i) { CHECK_FAIL("an empty range ran index %d", i); });
}

void parallel_reduce_is_exact_for_integers()
{
    fj::pool pool(check_workers);
    const int64_t n = check_size(1 << 22, 100000);
    int64_t serial = 0;
    for (int64_t i = 0; i < n; i++)
        serial += i * i % 1000003;
    auto plus = [](int64_t a, int64_t b) { return a + b; };
    int64_t by_index = pool.invoke([&] {
        return fj::parallel_reduce(int64_t{0}, n, int64_t{0}, [](int64_t acc, int64_t i) { return acc + i * i % 1000003; },
                                   plus);
    });
    int64_t by_range = pool.invoke([&] {
        return fj::parallel_reduce(
            int64_t{0}, n, int64_t{0},
            [](int64_t lo, int64_t hi, int64_t acc) {
                for (int64_t i = lo; i < hi; i++)
                    acc += i * i % 1000003;
                return acc;
            },
            plus, 3);
    });
    CHECK_EQ(serial, by_index);
    CHECK_EQ(serial, by_range);
    CHECK_EQ(42, fj::parallel_reduce(9, 9, 42, [](int acc, int) { return acc + 1; }, plus));
}

// A type that is not trivially copyable and a combine that is not commutative:
// the runs must be combined in index order.
void parallel_reduce_keeps_index_order_for_strings()
{
    fj::pool pool(check_workers);
    const int n = 3000;
    std::string serial;
    for (int i = 0; i < n; i++)
        serial += (char)('a' + i % 26);
    std::string parallel = pool.invoke([&] {
        return fj::parallel_reduce(
            0, n, std::string(), [](std::string acc, int i) { return acc += (char)('a' + i % 26); },
            [](std::string left, const std::string &right) { return left + right; }, 10);
    });
    CHECK(parallel == serial);
}

void pool_invoke_returns_the_value()
{
    fj::pool pool(check_workers);
    CHECK_EQ(42, pool.invoke([] { return 42; }));
    std::unique_ptr<int> moved = pool.invoke([] { return std::make_unique<int>(9); });
    CHECK_EQ(9, *moved);
    int target = 0;
    int &ref = pool.invoke([&]() -> int & { return target; });
    CHECK(&ref == &target);
    bool ran = false;
    pool.invoke([&] { ran = fj_current_pool() == pool.native_handle(); });
    CHECK(ran);
}

void nested_join_outside_a_pool_uses_the_common_pool()
{
    CHECK(fj_current_pool() == nullptr);
    auto [outer, pools] = fj::join(
        [] {
            auto [a, b] = fj::join([] { return fib_join(15); }, [] { return fib_join(14); });
            return a + b;
        },
        [] { return fj_current_pool(); });
    CHECK_EQ(fib_serial(16), outer);
    CHECK(pools == fj_common_pool());
}

#if FJ_HPP_EXCEPTIONS
// Exceptions: caught on the worker that ran the lambda, rethrown by the join,
// wait, loop or invoke that waits for it.

// Throws std::runtime_error(`what`) unless `really` is false (keeps the
// compiler from seeing a lambda that always throws and never returns).
int throw_if(bool really, const char *what)
{
    if (really)
        throw std::runtime_error(what);
    return 0;
}

void exception_in_f_is_rethrown_at_join()
{
    fj::pool pool(check_workers);
    std::atomic<int> g_done{0};
    std::string caught;
    pool.invoke([&] {
        try {
            fj::join([] { return throw_if(true, "from f"); },
                     [&] {
                         g_done.store(1);
                         return fib_join(12);
                     });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
    });
    CHECK(caught == "from f");
    CHECK_EQ(1, g_done.load());
}

void exception_in_g_is_rethrown_at_join()
{
    fj::pool pool(check_workers);
    long f_result = 0;
    std::string caught;
    pool.invoke([&] {
        try {
            fj::join([&] { f_result = fib_join(12); }, [] { return throw_if(true, "from g"); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
    });
    CHECK(caught == "from g");
    CHECK_EQ(fib_serial(12), f_result);
}

// When both throw, f's exception is the join's (as Rayon's join and Java's
// invokeAll(t1, t2) report their first operand's), whoever caught first: g
// throws at once, on a thief or (at the spawn) under serial elision, while f
// works first.
void both_throw_f_is_rethrown()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 50; round++) {
        std::string caught;
        pool.invoke([&] {
            try {
                fj::join([] { return throw_if(fib_join(14) > 0, "f"); }, [] { return throw_if(true, "g"); });
            } catch (const std::runtime_error &e) {
                caught = e.what();
            }
        });
        CHECK(caught == "f");
    }
}

void both_throw_f_is_rethrown_under_serial_elision()
{
    setenv("FJ_SERIAL", "1", 1);
    both_throw_f_is_rethrown();
    unsetenv("FJ_SERIAL");
}

// g's exception, from a g kept beside the deque (a join chain deeper than a
// 64-frame deque): the exception_ptr moves with the frame's bytes.
long chain_throwing_at(int n, int bad)
{
    if (n == 0)
        return 0;
    auto [rest, leaf] = fj::join([=] { return chain_throwing_at(n - 1, bad); },
                                 [=] { return throw_if(n == bad, "deep g") + 1; });
    return rest + leaf;
}

void exception_of_g_survives_a_full_deque()
{
    setenv("FJ_DEQUE_FRAMES", "64", 1);
    fj::pool pool(check_workers);
    unsetenv("FJ_DEQUE_FRAMES");
    for (int bad : {1, 500, 2999}) {
        std::string caught;
        try {
            pool.invoke([=] { return chain_throwing_at(3000, bad); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        CHECK(caught == "deep g");
    }
    CHECK_EQ(3000, pool.invoke([] { return chain_throwing_at(3000, -1); }));
}

// A tree of joins in which one leaf throws: wherever the leaf ran (stolen or
// not), the exception reaches the root, and every other leaf ran.
long count_leaves_throwing_at(int depth, long index, long bad, std::atomic<long> &leaves)
{
    if (depth == 0) {
        leaves.fetch_add(1);
        throw_if(index == bad, "leaf");
        return 1;
    }
    auto [a, b] = fj::join([&] { return count_leaves_throwing_at(depth - 1, 2 * index, bad, leaves); },
                           [&] { return count_leaves_throwing_at(depth - 1, 2 * index + 1, bad, leaves); });
    return a + b;
}

void exception_from_a_deep_leaf_reaches_the_root()
{
    fj::pool pool(check_workers);
    const int depth = 10;
    for (long bad : {0L, 511L, 1023L}) {
        std::atomic<long> leaves{0};
        std::string caught;
        try {
            pool.invoke([&] { return count_leaves_throwing_at(depth, 0, bad, leaves); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        CHECK(caught == "leaf");
        CHECK_EQ(1L << depth, leaves.load());
    }
}

void task_group_rethrows_and_is_reusable()
{
    fj::pool pool(check_workers);
    std::vector<int> ran(1000, 0);
    std::string caught;
    pool.invoke([&] {
        fj::task_group group;
        for (int i = 0; i < 1000; i++)
            group.run([&ran, i] {
                ran[(size_t)i]++;
                throw_if(i == 500, "task 500");
            });
        try {
            group.wait();
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        // Move-only lambdas, and a second round after the throw: nothing left over.
        auto box = std::make_unique<int>(3);
        int seen = 0;
        group.run([&seen, b = std::move(box)] { seen = *b; });
        group.wait();
        CHECK_EQ(3, seen);
    });
    CHECK(caught == "task 500");
    for (int i = 0; i < 1000; i++)
        CHECK_EQ(1, ran[(size_t)i]);
}

void parallel_for_rethrows_what_a_body_threw()
{
    fj::pool pool(check_workers);
    std::string caught;
    try {
        pool.invoke([] { fj::parallel_for(0, 1000, [](int i) { throw_if(i == 999, "index 999"); }); });
    } catch (const std::runtime_error &e) {
        caught = e.what();
    }
    CHECK(caught == "index 999");
    caught.clear();
    try {
        fj::parallel_reduce(0, 1000, 0, [](int acc, int i) { return acc + throw_if(i == 3, "index 3"); },
                            [](int a, int b) { return a + b; });
    } catch (const std::runtime_error &e) {
        caught = e.what();
    }
    CHECK(caught == "index 3");
}

void pool_invoke_rethrows()
{
    fj::pool pool(check_workers);
    std::string caught;
    try {
        pool.invoke([] { return throw_if(true, "from invoke"); });
    } catch (const std::runtime_error &e) {
        caught = e.what();
    }
    CHECK(caught == "from invoke");
}

void c_errors_become_fj_error()
{
    int code = 0;
    try {
        fj::pool too_big(100000);
    } catch (const fj::error &e) {
        code = e.code();
        CHECK(std::string(e.what()) == std::string(fj_strerror(FJ_EINVAL)) + ": workers=100000: over the limit (expected 0..1024, 0: one per CPU)");
    }
    CHECK_EQ(FJ_EINVAL, code);
    code = 0;
    try {
        fj::parallel_for(5, 1, [](int) {});
    } catch (const fj::error &e) {
        code = e.code();
    }
    CHECK_EQ(FJ_EINVAL, code);
}

/* The code and what() of the fj::error that `call` throws (0 and "" if none). */
template <class Call>
std::pair<int, std::string> error_of(Call call)
{
    try {
        call();
    } catch (const fj::error &e) {
        return {e.code(), e.what()};
    }
    return {0, ""};
}

void expect_error_naming(const std::pair<int, std::string> &error, const char *named)
{
    CHECK_EQ(FJ_EINVAL, error.first);
    if (error.second.find(named) == std::string::npos)
        CHECK_FAIL("what() \"%s\": expected it to name \"%s\"", error.second.c_str(), named);
}

/* A bad FJ_* variable: outside a pool, every call that needs the common pool
 * throws FJ_EINVAL naming it; a pool's constructor names it too. */
void bad_variable_is_named_by_fj_error()
{
    setenv("FJ_WORKERS", "two", 1);
    int ran = 0;
    expect_error_naming(error_of([&] { fj::join([&] { ran++; }, [&] { ran++; }); }), "FJ_WORKERS=two");
    expect_error_naming(error_of([&] { fj::parallel_for(0, 10, [&](int) { ran++; }); }), "FJ_WORKERS=two");
    expect_error_naming(error_of([&] {
                            fj::task_group group;
                            group.run([&] { ran++; });
                            group.wait();
                        }),
                        "FJ_WORKERS=two");
    CHECK_EQ(0, ran);
    unsetenv("FJ_WORKERS");
    setenv("FJ_SPIN", "-3", 1);
    expect_error_naming(error_of([] { fj::pool two(2); }), "FJ_SPIN=-3: out of range");
    unsetenv("FJ_SPIN");
}

/* A loop's bad argument: fj::error's what() names it and its value, as
 * fj_last_error_detail() does for the C call; nothing runs. */
void bad_loop_argument_is_named_by_fj_error()
{
    fj::pool pool(check_workers);
    int ran = 0;
    pool.invoke([&] {
        expect_error_naming(error_of([&] { fj::parallel_for(0, 10, [&](int) { ran++; }, -1); }),
                            "fj_parallel_for: grain=-1");
        expect_error_naming(error_of([&] { fj::parallel_for(10, 0, [&](int) { ran++; }); }),
                            "fj_parallel_for: from=10 is above to=0");
        expect_error_naming(
            error_of([&] { (void)fj::parallel_reduce(5, 4, 0L, [&](long acc, int) { return acc + ++ran; }, std::plus<long>()); }),
            "fj_parallel_reduce: from=5 is above to=4");
    });
    CHECK_EQ(0, ran);
}
#endif

const check_case cases[] = {
    {"fib_join_matches_serial", fib_join_matches_serial, CHECK_PER_WORKERS},
    {"join_of_void_lambdas", join_of_void_lambdas, CHECK_ONCE},
    {"join_results_of_every_shape_reach_the_join", join_results_of_every_shape_reach_the_join, CHECK_PER_WORKERS},
    {"lvalue_g_runs_in_the_callers_object", lvalue_g_runs_in_the_callers_object, CHECK_PER_WORKERS},
    {"join_takes_any_callable", join_takes_any_callable, CHECK_ONCE},
    {"each_side_runs_once", each_side_runs_once, CHECK_PER_WORKERS},
    {"results_survive_serial_elision", results_survive_serial_elision, CHECK_ONCE},
    {"results_survive_a_full_deque", results_survive_a_full_deque, CHECK_PER_WORKERS},
    {"typed_tasks_run_in_cxx", typed_tasks_run_in_cxx, CHECK_PER_WORKERS},
    {"task_group_runs_1000_lambdas", task_group_runs_1000_lambdas, CHECK_PER_WORKERS},
    {"task_group_outside_a_pool_uses_the_common_pool", task_group_outside_a_pool_uses_the_common_pool, CHECK_ONCE},
    {"parallel_for_visits_every_index_once", parallel_for_visits_every_index_once, CHECK_PER_WORKERS},
    {"parallel_reduce_is_exact_for_integers", parallel_reduce_is_exact_for_integers, CHECK_PER_WORKERS},
    {"parallel_reduce_keeps_index_order_for_strings", parallel_reduce_keeps_index_order_for_strings, CHECK_PER_WORKERS},
    {"pool_invoke_returns_the_value", pool_invoke_returns_the_value, CHECK_ONCE},
    {"nested_join_outside_a_pool_uses_the_common_pool", nested_join_outside_a_pool_uses_the_common_pool, CHECK_ONCE},
#if FJ_HPP_EXCEPTIONS
    {"exception_in_f_is_rethrown_at_join", exception_in_f_is_rethrown_at_join, CHECK_PER_WORKERS},
    {"exception_in_g_is_rethrown_at_join", exception_in_g_is_rethrown_at_join, CHECK_PER_WORKERS},
    {"both_throw_f_is_rethrown", both_throw_f_is_rethrown, CHECK_PER_WORKERS},
    {"both_throw_f_is_rethrown_under_serial_elision", both_throw_f_is_rethrown_under_serial_elision, CHECK_ONCE},
    {"exception_of_g_survives_a_full_deque", exception_of_g_survives_a_full_deque, CHECK_PER_WORKERS},
    {"exception_from_a_deep_leaf_reaches_the_root", exception_from_a_deep_leaf_reaches_the_root, CHECK_PER_WORKERS},
    {"task_group_rethrows_and_is_reusable", task_group_rethrows_and_is_reusable, CHECK_PER_WORKERS},
    {"parallel_for_rethrows_what_a_body_threw", parallel_for_rethrows_what_a_body_threw, CHECK_PER_WORKERS},
    {"pool_invoke_rethrows", pool_invoke_rethrows, CHECK_ONCE},
    {"c_errors_become_fj_error", c_errors_become_fj_error, CHECK_ONCE},
    {"bad_variable_is_named_by_fj_error", bad_variable_is_named_by_fj_error, CHECK_ONCE},
    {"bad_loop_argument_is_named_by_fj_error", bad_loop_argument_is_named_by_fj_error, CHECK_PER_WORKERS},
#endif
};

} // namespace

CHECK_MAIN(cases)
