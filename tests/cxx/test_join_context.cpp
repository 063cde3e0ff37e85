// test_join_context.cpp - fj::join through an fj::context (include/fj.hpp):
// fj::join(cx, f, g) and fj::join(cx, f0, ..., fn), whose sides take the
// context they pass on, fj::current_context() and pool.invoke of a lambda
// that takes a context.  What a user of the context form relies on, and what
// can go wrong only there (the worker and the deque's top travel by value
// instead of being read from the thread and from memory):
//   - results: fib and a halving sum against serial twins and closed forms, on
//     1, 2 and 4 workers; every return shape (a pair, std::monostate for a
//     void side, void, references, results too large or not trivially
//     copyable for the frame, captures too large for it), through thieves;
//   - each side invoked once, and an lvalue side invoked as the caller's
//     object (a mutable lambda's state is the caller's after);
//   - nesting through the contexts received, binary in n-ary and back, and
//     n-ary joins of 3, 4 and 8 sides in argument order;
//   - exceptions (f's, g's, both, the first in argument order, one deep in a
//     recursion after which every started side has finished), and the same
//     context and pool still joining right afterwards (the deque's top as the
//     context holds it must be where the throw found it);
//   - current_context() on a worker (pool.invoke, a plain join's lambda, a
//     typed task, an fj_task body) and its failure elsewhere;
//   - mixing with plain joins, fj_tasks forked and not yet joined across a
//     join through a context, and typed tasks (FJ_RUN on the worker);
//   - no allocation; sides run at their spawn (serial elision, a 64-frame
//     deque); a tree of ~130k joins on 4 workers;
//   - builds without NDEBUG: a context used on a thread that is not its
//     worker, and a side that joins through its parent's context, stop the
//     program with a message naming fj::context (in a child process).
// No case assumes a steal happens or a thief gets a turn.  Also built with
// -fno-exceptions (test_join_context_noexcept), without the exception cases.
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fj.hpp"

// Every operator new of the program, counted (join promises no allocation).
#include "counting_new.h"
#include "fib_joins.h"

namespace {

// ---- the recursions every case uses ----

long fib_serial(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long next = a + b;
        a = b;
        b = next;
    }
    return a;
}

// The sum of [lo, hi), halved down to single elements.
long sum_range(fj::context cx, long lo, long hi)
{
    if (hi - lo == 1)
        return lo;
    long mid = lo + (hi - lo) / 2;
    auto [left, right] = fj::join(cx, [=](fj::context c) { return sum_range(c, lo, mid); },
                                  [=](fj::context c) { return sum_range(c, mid, hi); });
    return left + right;
}

struct quad {
    long a, b, c, d;
};
struct five {
    long v[5];
};

} // namespace

// Typed tasks (fj.h), which mix with joins through contexts.
FJ_TASK(long, fib_typed, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib_typed, n - 1);
    long b = FJ_CALL(fib_typed, n - 2);
    return FJ_SYNC(fib_typed) + b;
}

// A typed spawn with joins through current_context() before its sync: their
// frames go above the typed one and are gone when the sync looks for it.
FJ_TASK(long, fib_typed_around_context_joins, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib_typed_around_context_joins, n - 1);
    long b = fib_in_context(fj::current_context(), n - 2);
    return FJ_SYNC(fib_typed_around_context_joins) + b;
}

namespace {

// Classic fj_tasks (fj.h): fib by fj_fork / fj_join, and one whose body joins
// through current_context().
struct classic_fib {
    fj_task task;
    int n;
    long result;
};

int classic_fib_run(fj_task *t)
{
    classic_fib *self = FJ_CONTAINER_OF(t, classic_fib, task);
    if (self->n < 2) {
        self->result = self->n;
        return 0;
    }
    classic_fib a = {FJ_TASK_INIT(classic_fib_run), self->n - 1, 0};
    classic_fib b = {FJ_TASK_INIT(classic_fib_run), self->n - 2, 0};
    CHECK_RC(0, fj_fork(&a.task));
    classic_fib_run(&b.task);
    CHECK_RC(0, fj_join(&a.task));
    self->result = a.result + b.result;
    return 0;
}

int context_fib_run(fj_task *t)
{
    classic_fib *self = FJ_CONTAINER_OF(t, classic_fib, task);
    self->result = fib_in_context(fj::current_context(), self->n);
    return 0;
}

int fib_size() { return check_stress() ? 30 : 22; }

// ---- results against serial twins ----

void fib_through_contexts_matches_serial_on_1_2_4_workers()
{
    const int largest = check_scale() > 1 ? 22 : 25;
    for (unsigned workers : {1u, 2u, 4u}) {
        fj::pool pool(workers);
        for (int n = 0; n <= largest; n++) {
            long parallel = pool.invoke([n](fj::context cx) { return fib_in_context(cx, n); });
            if (parallel != fib_serial(n))
                CHECK_FAIL("fib_in_context(%d) on %u workers: expected %ld, actual %ld", n, workers, fib_serial(n), parallel);
        }
    }
}

void halving_sum_matches_closed_form()
{
    fj::pool pool(check_workers);
    const long n = check_stress() ? 1L << 22 : check_scale() > 1 ? 1L << 18 : 1L << 20;
    CHECK_EQ(n * (n - 1) / 2, pool.invoke([n](fj::context cx) { return sum_range(cx, 0, n); }));
    // An odd length: halves of unequal sizes.
    const long odd = n - 12345;
    CHECK_EQ(odd * (odd - 1) / 2, pool.invoke([odd](fj::context cx) { return sum_range(cx, 0, odd); }));
}

// ---- every shape of result ----

void join_returns_each_shape_here()
{
    fj::pool pool(check_workers);
    pool.invoke([](fj::context cx) {
        auto values = fj::join(cx, [](fj::context) { return 1; }, [](fj::context) { return 2L; });
        static_assert(std::is_same_v<decltype(values), std::pair<int, long>>);
        CHECK_EQ(1, values.first);
        CHECK_EQ(2, values.second);

        bool left_ran = false, right_ran = false;
        auto left_void = fj::join(cx, [&](fj::context) { left_ran = true; }, [](fj::context) { return 7; });
        static_assert(std::is_same_v<decltype(left_void), std::pair<std::monostate, int>>);
        CHECK(left_ran);
        CHECK_EQ(7, left_void.second);
        auto right_void = fj::join(cx, [](fj::context) { return 8; }, [&](fj::context) { right_ran = true; });
        static_assert(std::is_same_v<decltype(right_void), std::pair<int, std::monostate>>);
        CHECK(right_ran);
        CHECK_EQ(8, right_void.first);

        int left = 0, right = 0;
        auto set_left = [&](fj::context c) { left = (int)fib_in_context(c, 10); };
        auto set_right = [&](fj::context c) { right = (int)fib_in_context(c, 11); };
        static_assert(std::is_void_v<decltype(fj::join(cx, set_left, set_right))>);
        fj::join(cx, set_left, set_right);
        CHECK_EQ(fib_serial(10), left);
        CHECK_EQ(fib_serial(11), right);

        int target = 5, other = 6;
        auto refs = fj::join(cx, [&](fj::context) -> int & { return target; },
                             [&](fj::context) -> int & { return other; });
        static_assert(std::is_same_v<decltype(refs), std::pair<int &, int &>>);
        CHECK(&refs.first == &target);
        CHECK(&refs.second == &other);
        auto mixed_ref = fj::join(cx, [](fj::context) { return 3L; }, [&](fj::context) -> int & { return target; });
        static_assert(std::is_same_v<decltype(mixed_ref), std::pair<long, int &>>);
        CHECK(&mixed_ref.second == &target);

        auto large = fj::join(cx, [](fj::context) { return std::string("left"); },
                              [](fj::context) { return five{{1, 2, 3, 4, 5}}; });
        static_assert(std::is_same_v<decltype(large), std::pair<std::string, five>>);
        CHECK(large.first == "left");
        CHECK_EQ(5, large.second.v[4]);
    });
}

// Which way a forked side travels (include/fj.hpp): a small trivially
// copyable temporary with a small result in its frame, anything else by a
// pointer to the joiner's stack.  The trees below go both ways.
long sample_weight(fj::context, long index) { return index; }
auto capturing_32 = [a = 1L, b = 2L, c = 3L, d = 4L](fj::context cx) { return sample_weight(cx, a + b + c + d); };
auto capturing_40 = [a = 1L, b = 2L, c = 3L, d = 4L, e = 5L](fj::context cx) { return sample_weight(cx, a + b + c + d + e); };
auto giving_string = [](fj::context) { return std::string("x"); };
auto giving_five = [](fj::context) { return five{{0, 0, 0, 0, 0}}; };
static_assert(fj::detail::context_calls::in_frame<decltype(capturing_32)>, "32 bytes of captures go in the frame");
static_assert(!fj::detail::context_calls::in_frame<decltype(capturing_40)>, "40 bytes of captures do not");
static_assert(!fj::detail::context_calls::in_frame<decltype(capturing_32) &>, "an lvalue stays the caller's");
static_assert(!fj::detail::context_calls::in_frame<decltype(giving_string)>, "a string result does not");
static_assert(!fj::detail::context_calls::in_frame<decltype(giving_five)>, "a 40-byte result does not");

// The leaves' digits in index order: a non-trivial result, and the order shows.
std::string digits(fj::context cx, int depth, long index)
{
    if (depth == 0)
        return std::string(1, (char)('0' + index % 10));
    auto [l, r] = fj::join(cx, [=](fj::context c) { return digits(c, depth - 1, 2 * index); },
                           [=](fj::context c) { return digits(c, depth - 1, 2 * index + 1); });
    return l + r;
}

std::string expected_digits(long leaves)
{
    std::string expected;
    for (long i = 0; i < leaves; i++)
        expected += (char)('0' + i % 10);
    return expected;
}

// A 40-byte result (by pointer) and a 32-byte one (in the frame).
five five_sums(fj::context cx, int depth, long index)
{
    if (depth == 0)
        return {{index, index + 1, index + 2, index + 3, index + 4}};
    auto [l, r] = fj::join(cx, [=](fj::context c) { return five_sums(c, depth - 1, 2 * index); },
                           [=](fj::context c) { return five_sums(c, depth - 1, 2 * index + 1); });
    five sum;
    for (int i = 0; i < 5; i++)
        sum.v[i] = l.v[i] + r.v[i];
    return sum;
}

quad quad_sums(fj::context cx, int depth, long index)
{
    if (depth == 0)
        return {index, 2 * index, 3 * index, 4 * index};
    auto [l, r] = fj::join(cx, [=](fj::context c) { return quad_sums(c, depth - 1, 2 * index); },
                           [=](fj::context c) { return quad_sums(c, depth - 1, 2 * index + 1); });
    return {l.a + r.a, l.b + r.b, l.c + r.c, l.d + r.d};
}

// g returns a reference to the joiner's local and captures 40 bytes on even
// levels (by pointer), 24 on odd ones (in the frame, a reference result).
long weigh(fj::context cx, int depth, long index, const long *weights)
{
    if (depth == 0)
        return weights[index % 7];
    long right = 0;
    long *into = &right;
    auto left_side = [=](fj::context c) { return weigh(c, depth - 1, 2 * index, weights); };
    long sum;
    if (depth % 2) {
        auto [l, r] = fj::join(cx, left_side, [=](fj::context c) -> long & {
            return *into = weigh(c, depth - 1, 2 * index + 1, weights);
        });
        CHECK(&r == &right);
        sum = l + r;
    } else {
        five pad{{index, depth, 0, 0, 0}};
        auto heavy = [=](fj::context c) -> long & {
            return *into = weigh(c, (int)pad.v[1] - 1, 2 * pad.v[0] + 1, weights);
        };
        static_assert(sizeof heavy > 32);
        auto [l, r] = fj::join(cx, left_side, std::move(heavy));
        CHECK(&r == &right);
        sum = l + r;
    }
    return sum;
}

void results_of_every_shape_come_back_through_thieves()
{
    fj::pool pool(check_workers);
    const int depth = check_stress() ? 16 : 12;
    const long leaves = 1L << depth, index_sum = leaves * (leaves - 1) / 2;
    CHECK(pool.invoke([=](fj::context cx) { return digits(cx, depth, 0); }) == expected_digits(leaves));
    five f = pool.invoke([=](fj::context cx) { return five_sums(cx, depth, 0); });
    for (int i = 0; i < 5; i++)
        CHECK_EQ(index_sum + i * leaves, f.v[i]);
    quad q = pool.invoke([=](fj::context cx) { return quad_sums(cx, depth, 0); });
    CHECK_EQ(index_sum, q.a);
    CHECK_EQ(2 * index_sum, q.b);
    CHECK_EQ(3 * index_sum, q.c);
    CHECK_EQ(4 * index_sum, q.d);
    static const long weights[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    long expected_weight = 0;
    for (long i = 0; i < leaves; i++)
        expected_weight += weights[i % 7];
    CHECK_EQ(expected_weight, pool.invoke([=](fj::context cx) { return weigh(cx, depth, 0, weights); }));
    // The lambdas asserted about above, as sides.
    pool.invoke([](fj::context cx) {
        CHECK_EQ(10, fj::join(cx, capturing_40, capturing_32).second);
        CHECK_EQ(15, fj::join(cx, capturing_32, capturing_40).second);
        CHECK_EQ(10, fj::join(cx, giving_string, [](fj::context c) { return capturing_32(c); }).second);
        CHECK(fj::join(cx, giving_five, giving_string).second == "x");
    });
}

// ---- each side invoked once ----

long count_calls(fj::context cx, int depth, std::atomic<long> *calls, bool large)
{
    calls->fetch_add(1);
    if (depth == 0)
        return 1;
    if (large) {
        five pad{{depth, 0, 0, 0, 0}};
        auto [a, b] = fj::join(cx, [=](fj::context c) { return count_calls(c, (int)pad.v[0] - 1, calls, large); },
                               [=](fj::context c) { return count_calls(c, (int)pad.v[0] - 1, calls, large); });
        return a + b;
    }
    auto [a, b] = fj::join(cx, [=](fj::context c) { return count_calls(c, depth - 1, calls, large); },
                           [=](fj::context c) { return count_calls(c, depth - 1, calls, large); });
    return a + b;
}

void each_side_is_invoked_once()
{
    fj::pool pool(check_workers);
    const int depth = 12;
    for (bool large : {false, true}) {
        std::atomic<long> calls{0};
        CHECK_EQ(1L << depth, pool.invoke([&](fj::context cx) { return count_calls(cx, depth, &calls, large); }));
        CHECK_EQ((2L << depth) - 1, calls.load());
    }
    // Lvalue sides are invoked as the caller's objects, wherever they run: a
    // copy run by a thief would lose its increments.
    auto first = [calls = 0L](fj::context c) mutable {
        (void)fib_in_context(c, 10);
        return ++calls;
    };
    auto second = [calls = 0L](fj::context c) mutable {
        (void)fib_in_context(c, 10);
        return ++calls;
    };
    const long joins = 300;
    pool.invoke([&](fj::context cx) {
        for (long i = 1; i <= joins; i++) {
            auto [a, b] = fj::join(cx, first, second);
            CHECK_EQ(i, a);
            CHECK_EQ(i, b);
        }
    });
    CHECK_EQ(joins + 1, pool.invoke(first)); /* invoke, too, calls the caller's object */
    CHECK_EQ(joins + 1, pool.invoke(second));
}

// ---- nesting through the contexts received ----

// Binary joins on even levels, joins of three on odd ones.
long alternating_leaves(fj::context cx, int depth)
{
    if (depth == 0)
        return 1;
    auto below = [depth](fj::context c) { return alternating_leaves(c, depth - 1); };
    if (depth % 2 == 0) {
        auto [x, y] = fj::join(cx, below, below);
        return x + y;
    }
    auto [x, y, z] = fj::join(cx, below, below, below);
    return x + y + z;
}

void nested_joins_pass_their_contexts_on()
{
    fj::pool pool(check_workers);
    // Four levels written out: binary, n-ary, binary, n-ary.
    long total = pool.invoke([](fj::context cx) {
        auto [left, right] = fj::join(
            cx,
            [](fj::context c1) {
                auto [a, b, c] = fj::join(
                    c1,
                    [](fj::context c2) {
                        auto [x, y] = fj::join(
                            c2, [](fj::context c3) { return fib_in_context(c3, 10); },
                            [](fj::context c3) {
                                auto [p, q, r] = fj::join(c3, [](fj::context c4) { return fib_in_context(c4, 5); },
                                                          [](fj::context c4) { return fib_in_context(c4, 6); },
                                                          [](fj::context) { return 1000L; });
                                return p + q + r;
                            });
                        return x + y;
                    },
                    [](fj::context c2) { return fib_in_context(c2, 11); }, [](fj::context) { return 100000L; });
                return a + b + c;
            },
            [](fj::context c1) {
                auto [x, y] = fj::join(c1, [](fj::context c2) { return fib_in_context(c2, 12); },
                                       [](fj::context c2) {
                                           auto [p, q, r, s] =
                                               fj::join(c2, [](fj::context c3) { return fib_in_context(c3, 7); },
                                                        [](fj::context c3) { return fib_in_context(c3, 8); },
                                                        [](fj::context c3) { return fib_in_context(c3, 9); },
                                                        [](fj::context) { return 10000000L; });
                                           return p + q + r + s;
                                       });
                return x + y;
            });
        return left * 1000000000L + right;
    });
    long left = fib_serial(10) + fib_serial(5) + fib_serial(6) + 1000 + fib_serial(11) + 100000;
    long right = fib_serial(12) + fib_serial(7) + fib_serial(8) + fib_serial(9) + 10000000;
    CHECK_EQ(left * 1000000000L + right, total);
    // Deep: 2^6 * 3^6 leaves, levels alternating.
    const int depth = 12;
    CHECK_EQ(46656, pool.invoke([](fj::context cx) { return alternating_leaves(cx, depth); }));
}

// ---- joins of three or more ----

template <std::size_t>
using long_for = long;

// Side k: counts its call, returns k * 1000 + fib(8 + k), a result out of
// place shows.
auto numbered_side(std::size_t k, std::atomic<int> *calls)
{
    return [k, calls](fj::context c) {
        calls[k].fetch_add(1);
        return (long)k * 1000 + fib_in_context(c, 8 + (int)k);
    };
}

template <std::size_t... K>
void check_numbered_join(fj::context cx, std::index_sequence<K...>)
{
    constexpr std::size_t sides = sizeof...(K);
    std::atomic<int> calls[sides]{};
    auto results = fj::join(cx, numbered_side(K, calls)...);
    static_assert(std::is_same_v<decltype(results), std::tuple<long_for<K>...>>);
    const long got[sides] = {std::get<K>(results)...};
    for (std::size_t k = 0; k < sides; k++) {
        if (got[k] != (long)k * 1000 + fib_serial(8 + (int)k))
            CHECK_FAIL("side %zu of %zu: expected %ld, actual %ld", k, sides, (long)k * 1000 + fib_serial(8 + (int)k),
                       got[k]);
        CHECK_EQ(1, calls[k].load());
    }
}

// Eight children a node, each a type of its own; calls counted.
long eight_way_leaves(fj::context cx, int depth, std::atomic<long> *calls);

template <std::size_t>
auto eight_way_child(int depth, std::atomic<long> *calls)
{
    return [depth, calls](fj::context c) { return eight_way_leaves(c, depth, calls); };
}

template <std::size_t... K>
long eight_way_children(fj::context cx, int depth, std::atomic<long> *calls, std::index_sequence<K...>)
{
    auto each = fj::join(cx, eight_way_child<K>(depth, calls)...);
    return std::apply([](auto... leaves) { return (leaves + ...); }, each);
}

long eight_way_leaves(fj::context cx, int depth, std::atomic<long> *calls)
{
    calls->fetch_add(1);
    if (depth == 0)
        return 1;
    return eight_way_children(cx, depth - 1, calls, std::make_index_sequence<8>{});
}

void n_ary_joins_return_in_argument_order()
{
    fj::pool pool(check_workers);
    pool.invoke([](fj::context cx) {
        for (int round = 0; round < 20; round++) {
            check_numbered_join(cx, std::make_index_sequence<3>{});
            check_numbered_join(cx, std::make_index_sequence<4>{});
            check_numbered_join(cx, std::make_index_sequence<8>{});
        }
        // Every shape in one tuple.
        int target = 9;
        bool ran = false;
        auto all = fj::join(cx, [](fj::context) { return 1; }, [](fj::context) { return std::string("two"); },
                            [&](fj::context) { ran = true; }, [&](fj::context) -> int & { return target; },
                            [](fj::context) { return five{{5, 5, 5, 5, 5}}; });
        static_assert(
            std::is_same_v<decltype(all), std::tuple<int, std::string, std::monostate, int &, five>>);
        CHECK_EQ(1, std::get<0>(all));
        CHECK(std::get<1>(all) == "two");
        CHECK(ran);
        CHECK(&std::get<3>(all) == &target);
        CHECK_EQ(5, std::get<4>(all).v[4]);
        // All void: nothing returned; one lvalue as every side, each call counted.
        std::atomic<int> count{0};
        auto bump = [&](fj::context) { count.fetch_add(1); };
        static_assert(std::is_void_v<decltype(fj::join(cx, bump, bump, bump))>);
        fj::join(cx, bump, bump, bump);
        fj::join(cx, bump, bump, bump, bump);
        CHECK_EQ(7, count.load());
    });
    const int depth = check_stress() ? 6 : 5;
    long leaves = 1, nodes = 0;
    for (int d = 0; d <= depth; d++, leaves *= 8)
        nodes += leaves;
    leaves /= 8;
    std::atomic<long> calls{0};
    CHECK_EQ(leaves, pool.invoke([&](fj::context cx) { return eight_way_leaves(cx, depth, &calls); }));
    CHECK_EQ(nodes, calls.load());
}

// ---- current_context() ----

void current_context_works_on_any_worker_code()
{
    fj::pool pool(check_workers);
    // In pool.invoke of a lambda with no argument.
    CHECK_EQ(fib_serial(18), pool.invoke([] { return fib_in_context(fj::current_context(), 18); }));
    // In the lambdas of a plain join, wherever they run (a thief's context).
    auto [a, b] = pool.invoke([] {
        return fj::join([] { return fib_in_context(fj::current_context(), 16); }, [] { return fib_in_context(fj::current_context(), 15); });
    });
    CHECK_EQ(fib_serial(16), a);
    CHECK_EQ(fib_serial(15), b);
    // Twice in a row on the same worker: both usable, one after the other.
    CHECK_EQ(fib_serial(14) + fib_serial(13), pool.invoke([] {
                 fj::context first = fj::current_context();
                 long x = fib_in_context(first, 14);
                 fj::context second = fj::current_context();
                 return x + fib_in_context(second, 13);
             }));
    // In a typed task's body, between a spawn and its sync.
    CHECK_EQ(fib_serial(fib_size()), FJ_RUN(pool.native_handle(), fib_typed_around_context_joins, fib_size()));
    // In an fj_task's body.
    classic_fib task = {FJ_TASK_INIT(context_fib_run), fib_size(), 0};
    CHECK_RC(0, fj_pool_invoke(pool.native_handle(), &task.task));
    CHECK_EQ(fib_serial(fib_size()), task.result);
}

// ---- pool.invoke of a lambda that takes a context ----

void pool_invoke_passes_a_context()
{
    fj::pool pool(check_workers);
    auto fib20 = [](fj::context cx) { return fib_in_context(cx, 20); };
    static_assert(std::is_same_v<decltype(pool.invoke(fib20)), long>);
    CHECK_EQ(fib_serial(20), pool.invoke(fib20));
    long stored = 0;
    auto store = [&](fj::context cx) { stored = fib_in_context(cx, 15); };
    static_assert(std::is_void_v<decltype(pool.invoke(store))>);
    pool.invoke(store);
    CHECK_EQ(fib_serial(15), stored);
    CHECK(pool.invoke([](fj::context cx) { return digits(cx, 4, 0); }) == expected_digits(16));
    int target = 0;
    int &ref = pool.invoke([&](fj::context) -> int & { return target; });
    CHECK(&ref == &target);
    // The worker the context names is the pool's.
    CHECK(pool.invoke([](fj::context) { return fj_current_pool(); }) == pool.native_handle());
}

// ---- mixing with plain joins, fj_tasks and typed tasks ----

// A join through a context on even n, a plain join (whose lambdas take
// current_context()) on odd n.
long fib_alternating(fj::context cx, int n)
{
    if (n < 2)
        return n;
    if (n % 2 == 0) {
        auto [a, b] = fj::join(cx, [n](fj::context c) { return fib_alternating(c, n - 1); },
                               [n](fj::context c) { return fib_alternating(c, n - 2); });
        return a + b;
    }
    auto [a, b] = fj::join([n] { return fib_alternating(fj::current_context(), n - 1); },
                           [n] { return fib_alternating(fj::current_context(), n - 2); });
    return a + b;
}

// In a side: an fj_task (and one whose body joins through current_context())
// forked and left pending across joins through the side's context, joined
// after; a typed task run on this worker; a plain join.
long mixes_everything(fj::context c, int n)
{
    classic_fib pending = {FJ_TASK_INIT(classic_fib_run), n, 0};
    classic_fib pending_context = {FJ_TASK_INIT(context_fib_run), n - 1, 0};
    CHECK_RC(0, fj_fork(&pending.task));
    CHECK_RC(0, fj_fork(&pending_context.task));
    long through_context = fib_in_context(c, n - 2);
    long typed = FJ_RUN(nullptr, fib_typed, n - 3);
    long after_typed = fib_in_context(c, n - 4);
    auto [plain, in_plain] = fj::join([n] { return fib_plain(n - 5); },
                                      [n] { return fib_in_context(fj::current_context(), n - 6); });
    CHECK_RC(0, fj_join(&pending_context.task));
    CHECK_RC(0, fj_join(&pending.task));
    return pending.result + pending_context.result + through_context + typed + after_typed + plain + in_plain;
}

long mixes_everything_expected(int n)
{
    long sum = 0;
    for (int k = 0; k <= 6; k++)
        sum += fib_serial(n - k);
    return sum;
}

void contexts_mix_with_plain_joins_fj_tasks_and_typed_tasks()
{
    fj::pool pool(check_workers);
    const int n = fib_size();
    CHECK_EQ(fib_serial(n), pool.invoke([n](fj::context cx) { return fib_alternating(cx, n); }));
    CHECK_EQ(fib_serial(n), pool.invoke([n] { return fib_alternating(fj::current_context(), n); }));
    const int m = 16;
    for (int round = 0; round < 5; round++) {
        auto [f, g] = pool.invoke([](fj::context cx) {
            return fj::join(cx, [](fj::context c) { return mixes_everything(c, m); },
                            [](fj::context c) { return mixes_everything(c, m - 1); });
        });
        CHECK_EQ(mixes_everything_expected(m), f);
        CHECK_EQ(mixes_everything_expected(m - 1), g);
    }
    // A typed task run by FJ_RUN(nullptr) inside a side, before and after joins
    // through the side's context.
    long typed = pool.invoke([](fj::context cx) {
        auto [x, y] = fj::join(
            cx,
            [](fj::context c) {
                long before = fib_in_context(c, 12);
                long run = FJ_RUN(nullptr, fib_typed, 15);
                return before + run + fib_in_context(c, 13);
            },
            [](fj::context c) { return FJ_RUN(nullptr, fib_typed_around_context_joins, 14) + fib_in_context(c, 11); });
        return x + y;
    });
    CHECK_EQ(fib_serial(12) + fib_serial(15) + fib_serial(13) + fib_serial(14) + fib_serial(11), typed);
}

// ---- no allocation ----
#ifdef COUNTS_ALLOCATIONS
void join_through_a_context_allocates_nothing()
{
    fj::pool pool(check_workers);
    auto fib20 = [](fj::context cx) { return fib_in_context(cx, 20); };
    CHECK_EQ(fib_serial(20), pool.invoke(fib20)); /* warm-up: the workers have started */
    long probe_before = allocations.load();
    std::string probe(100, 'x'); /* the counter counts */
    CHECK(allocations.load() > probe_before);
    long before = allocations.load();
    long result = pool.invoke(fib20);
    long five_way = pool.invoke([](fj::context cx) {
        auto [p, q, r, s, t] = fj::join(cx, [](fj::context c) { return fib_in_context(c, 12); },
                                        [](fj::context c) { return five_sums(c, 6, 0).v[4]; },
                                        [](fj::context c) { return fib_in_context(c, 11); }, [](fj::context) { return 1L; },
                                        [](fj::context c) { return quad_sums(c, 6, 0).d; });
        return p + q + r + s + t;
    });
    long during = allocations.load() - before;
    CHECK_EQ(0, during);
    CHECK_EQ(fib_serial(20), result);
    CHECK_EQ(fib_serial(12) + (2016 + 4 * 64) + fib_serial(11) + 1 + 4 * 2016, five_way);
    CHECK(probe.size() == 100);
}
#endif

// ---- contention ----

long count_leaves_into(fj::context cx, int depth, long index, std::atomic<long> *leaves)
{
    if (depth == 0) {
        /* Relaxed: only the count matters, and the root's join orders every
         * leaf's increment before the test reads it (a join acquires what the
         * joined side released). */
        leaves->fetch_add(1, std::memory_order_relaxed);
        return index;
    }
    auto [l, r] = fj::join(cx, [=](fj::context c) { return count_leaves_into(c, depth - 1, 2 * index, leaves); },
                           [=](fj::context c) { return count_leaves_into(c, depth - 1, 2 * index + 1, leaves); });
    return l + r;
}

void four_workers_share_a_tree_of_joins()
{
    fj::pool pool(4);
    const int depth = check_stress() ? 20 : check_scale() > 1 ? 15 : 17; /* 2^17 - 1 joins */
    const long leaf_count = 1L << depth;
    for (int round = 0; round < 3; round++) {
        std::atomic<long> leaves{0};
        long index_sum = pool.invoke([&](fj::context cx) { return count_leaves_into(cx, depth, 0, &leaves); });
        CHECK_EQ(leaf_count, leaves.load());
        CHECK_EQ(leaf_count * (leaf_count - 1) / 2, index_sum);
    }
}

// ---- exceptions ----
#if FJ_HPP_EXCEPTIONS

// Throws std::runtime_error(`what`) when `really` (the compiler does not see
// a side that always throws).
long throw_if(bool really, const char *what)
{
    if (really)
        throw std::runtime_error(what);
    return 0;
}

// f throws after some work; g, which works longer, ran to its end first.  The
// same context then joins on.
void check_f_throws(fj::pool &pool)
{
    std::atomic<long> g_result{0};
    std::string caught;
    long after = pool.invoke([&](fj::context cx) {
        try {
            fj::join(cx, [](fj::context c) { return throw_if(fib_in_context(c, 10) > 0, "from f"); },
                     [&](fj::context c) {
                         g_result.store(fib_in_context(c, 15));
                         return 1;
                     });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        return fib_in_context(cx, 16);
    });
    CHECK(caught == "from f");
    CHECK_EQ(fib_serial(15), g_result.load());
    CHECK_EQ(fib_serial(16), after);
}

void check_g_throws(fj::pool &pool)
{
    long f_result = 0;
    std::string caught;
    long after = pool.invoke([&](fj::context cx) {
        try {
            fj::join(cx, [&](fj::context c) { f_result = fib_in_context(c, 15); },
                     [](fj::context c) { return throw_if(fib_in_context(c, 5) > 0, "from g"); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        return fib_in_context(cx, 16);
    });
    CHECK(caught == "from g");
    CHECK_EQ(fib_serial(15), f_result);
    CHECK_EQ(fib_serial(16), after);
}

// Both throw, g at once and f after work: f's is rethrown.
void check_both_throw(fj::pool &pool)
{
    std::string caught;
    long after = pool.invoke([&](fj::context cx) {
        try {
            fj::join(cx, [](fj::context c) { return throw_if(fib_in_context(c, 14) > 0, "f"); },
                     [](fj::context) { return throw_if(true, "g"); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        return fib_in_context(cx, 12);
    });
    CHECK(caught == "f");
    CHECK_EQ(fib_serial(12), after);
}

// Four sides, those in `throwers` (a bit per side) throwing after some work.
// Every side finished; the one rethrown is the first thrower in argument order.
void check_first_thrower_of_four(fj::pool &pool, unsigned throwers)
{
    static const char *const names[4] = {"side 0", "side 1", "side 2", "side 3"};
    std::atomic<int> finished{0};
    std::string caught;
    long after = pool.invoke([&](fj::context cx) {
        auto side = [&](fj::context c, int k) {
            long work = fib_in_context(c, 11);
            finished.fetch_add(1);
            return work + throw_if(throwers & (1u << k), names[k]);
        };
        try {
            fj::join(cx, [&](fj::context c) { return side(c, 0); }, [&](fj::context c) { return side(c, 1); },
                     [&](fj::context c) { return side(c, 2); }, [&](fj::context c) { return side(c, 3); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        return fib_in_context(cx, 12);
    });
    CHECK_EQ(4, finished.load());
    int first = 0;
    while (first < 4 && !(throwers & (1u << first)))
        first++;
    if (caught != (first < 4 ? names[first] : ""))
        CHECK_FAIL("throwers %#x: expected \"%s\", caught \"%s\"", throwers, first < 4 ? names[first] : "",
                   caught.c_str());
    CHECK_EQ(fib_serial(12), after);
}

// Counts every call started and every call left (returned or unwound).
struct call_counts {
    std::atomic<long> entered{0}, left{0}, leaves{0};
};

struct leaves_when_done {
    call_counts *counts;
    ~leaves_when_done() { counts->left.fetch_add(1); }
};

// A tree whose leaf `bad` throws.
long leaves_throwing_at(fj::context cx, int depth, long index, long bad, call_counts *counts)
{
    counts->entered.fetch_add(1);
    leaves_when_done done{counts};
    if (depth == 0) {
        counts->leaves.fetch_add(1);
        return 1 + throw_if(index == bad, "leaf");
    }
    auto [l, r] = fj::join(cx, [=](fj::context c) { return leaves_throwing_at(c, depth - 1, 2 * index, bad, counts); },
                           [=](fj::context c) { return leaves_throwing_at(c, depth - 1, 2 * index + 1, bad, counts); });
    return l + r;
}

void check_deep_leaf_throws(fj::pool &pool, int depth)
{
    const long leaf_count = 1L << depth;
    for (long bad : {0L, leaf_count / 2 - 1, leaf_count - 1}) {
        call_counts counts;
        std::string caught;
        try {
            pool.invoke([&](fj::context cx) { return leaves_throwing_at(cx, depth, 0, bad, &counts); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        CHECK(caught == "leaf");
        CHECK_EQ(leaf_count, counts.leaves.load());
        CHECK_EQ(2 * leaf_count - 1, counts.entered.load());
        CHECK_EQ(counts.entered.load(), counts.left.load());
        // The same pool, afterwards, through contexts.
        CHECK_EQ(fib_serial(18), pool.invoke([](fj::context cx) { return fib_in_context(cx, 18); }));
    }
    // Caught inside the recursion: the catching side's context joins on.
    long caught_inside = pool.invoke([=](fj::context cx) {
        auto [x, y] = fj::join(
            cx,
            [=](fj::context c) {
                call_counts counts;
                try {
                    leaves_throwing_at(c, depth - 2, 0, 1, &counts);
                } catch (const std::runtime_error &) {
                }
                return fib_in_context(c, 15) + counts.leaves.load();
            },
            [](fj::context c) { return fib_in_context(c, 14); });
        return x + y + fib_in_context(cx, 13);
    });
    CHECK_EQ(fib_serial(15) + (leaf_count / 4) + fib_serial(14) + fib_serial(13), caught_inside);
}

void exception_in_f_is_rethrown_after_g()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 20; round++)
        check_f_throws(pool);
}

void exception_in_g_is_rethrown_after_f()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 20; round++)
        check_g_throws(pool);
}

void both_throw_f_is_rethrown()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 50; round++)
        check_both_throw(pool);
}

void first_thrower_in_argument_order_is_rethrown()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 5; round++)
        for (unsigned throwers = 0; throwers < 16; throwers++)
            check_first_thrower_of_four(pool, throwers);
}

void exception_deep_in_a_recursion_reaches_the_root()
{
    fj::pool pool(check_workers);
    check_deep_leaf_throws(pool, 10);
}

void current_context_off_a_worker_throws()
{
    CHECK(fj_current_pool() == nullptr);
    int code = 0;
    try {
        (void)fj::current_context();
    } catch (const fj::error &e) {
        code = e.code();
    }
    CHECK_EQ(FJ_ENOTWORKER, code);
}
#endif

// ---- sides run at their spawn ----

// Chains deeper than a 64-frame deque: two sides and three.
long chain_of_two(fj::context cx, int n)
{
    if (n == 0)
        return 0;
    auto [rest, digit] = fj::join(cx, [=](fj::context c) { return chain_of_two(c, n - 1); },
                                  [=](fj::context) { return quad{n, 2L * n, 0, 0}; });
    return rest + digit.a + digit.b;
}

long chain_of_three(fj::context cx, int n)
{
    if (n == 0)
        return 0;
    auto [rest, one, two] = fj::join(cx, [=](fj::context c) { return chain_of_three(c, n - 1); },
                                     [=](fj::context) { return (long)n; }, [=](fj::context) { return 2L * n; });
    return rest + one + two;
}

#if FJ_HPP_EXCEPTIONS
// Every side of the chain runs; the exception of the side at `bad` comes back.
long chain_throwing_at(fj::context cx, int n, int bad, std::atomic<long> *ran)
{
    if (n == 0)
        return 0;
    auto [rest, one, two] = fj::join(
        cx, [=](fj::context c) { return chain_throwing_at(c, n - 1, bad, ran); },
        [=](fj::context) {
            ran->fetch_add(1);
            return throw_if(n == bad, "deep side") + 1;
        },
        [=](fj::context) {
            ran->fetch_add(1);
            return 1L;
        });
    return rest + one + two;
}
#endif

void results_survive_sides_run_at_their_spawn(const char *variable, const char *value)
{
    setenv(variable, value, 1);
    fj::pool pool(check_workers);
    unsetenv(variable);
    for (int n = 0; n <= 20; n++)
        CHECK_EQ(fib_serial(n), pool.invoke([n](fj::context cx) { return fib_in_context(cx, n); }));
    const int depth = 10;
    const long leaves = 1L << depth;
    CHECK(pool.invoke([](fj::context cx) { return digits(cx, depth, 0); }) == expected_digits(leaves));
    CHECK_EQ(leaves * (leaves - 1) / 2 + 4 * leaves, pool.invoke([](fj::context cx) {
                 return five_sums(cx, depth, 0).v[4];
             }));
    CHECK_EQ(46656, pool.invoke([](fj::context cx) { return alternating_leaves(cx, 12); }));
    pool.invoke([](fj::context cx) {
        check_numbered_join(cx, std::make_index_sequence<3>{});
        check_numbered_join(cx, std::make_index_sequence<8>{});
    });
    std::atomic<long> calls{0};
    CHECK_EQ(4096, pool.invoke([&](fj::context cx) { return eight_way_leaves(cx, 4, &calls); }));
    CHECK_EQ(4681, calls.load());
    const int n = 2000;
    CHECK_EQ(3L * n * (n + 1) / 2, pool.invoke([](fj::context cx) { return chain_of_two(cx, n); }));
    CHECK_EQ(3L * n * (n + 1) / 2, pool.invoke([](fj::context cx) { return chain_of_three(cx, n); }));
    CHECK_EQ(mixes_everything_expected(14), pool.invoke([](fj::context cx) { return mixes_everything(cx, 14); }));
#if FJ_HPP_EXCEPTIONS
    check_f_throws(pool);
    check_g_throws(pool);
    check_both_throw(pool);
    for (unsigned throwers = 0; throwers < 16; throwers++)
        check_first_thrower_of_four(pool, throwers);
    check_deep_leaf_throws(pool, 8);
    for (int bad : {1, 700, n}) {
        std::atomic<long> ran{0};
        std::string caught;
        try {
            pool.invoke([&](fj::context cx) { return chain_throwing_at(cx, n, bad, &ran); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        CHECK(caught == "deep side");
        CHECK_EQ(2L * n, ran.load());
    }
    CHECK_EQ(3L * n * (n + 1) / 2, pool.invoke([](fj::context cx) { return chain_of_three(cx, n); }));
#endif
}

void results_survive_serial_elision() { results_survive_sides_run_at_their_spawn("FJ_SERIAL", "1"); }
void results_survive_a_full_deque() { results_survive_sides_run_at_their_spawn("FJ_DEQUE_FRAMES", "64"); }

// ---- misuse, stopped ----
#if !FJ__TSAN

// Runs `misuse` in a child process whose stderr is a pipe: the child must
// die of SIGABRT having said `names`.
template <class Misuse>
void check_misuse_stops_the_program(const char *what, const char *names, Misuse misuse,
                                    const char *must_not_say = nullptr)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        alarm(60); /* a misuse that is not caught may hang: SIGALRM, not SIGABRT */
        misuse();
        _exit(3);
    }
    close(fds[1]);
    std::string said;
    char buffer[512];
    for (;;) {
        ssize_t got = read(fds[0], buffer, sizeof buffer);
        if (got > 0)
            said.append(buffer, (size_t)got);
        else if (got == 0 || errno != EINTR)
            break;
    }
    close(fds[0]);
    int status = 0;
    CHECK_EQ(child, waitpid(child, &status, 0));
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
        CHECK_FAIL("%s: expected SIGABRT, status %#x (exit %d, signal %d); stderr: %s", what, status,
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : -1,
                   said.c_str());
    if (said.find(names) == std::string::npos)
        CHECK_FAIL("%s: stderr does not name %s: %s", what, names, said.c_str());
    if (must_not_say && said.find(must_not_say) != std::string::npos)
        CHECK_FAIL("%s: %s", what, said.c_str());
}

// A side that joins through its parent's context instead of its own: the
// join's spawn finds its copy of top below the parent's pending fork.
static void join_through_the_parents_context(int workers)
{
    fj::pool pool(workers); /* one worker: no thief, the parent's fork is still queued */
    long r = pool.invoke([](fj::context cx) {
        auto [a, b] = fj::join(
            cx,
            [cx](fj::context) {
                auto [x, y] = fj::join(cx, [](fj::context c) { return fib_in_context(c, 12); }, [](fj::context c) { return fib_in_context(c, 11); });
                return x + y;
            },
            [](fj::context c) { return fib_in_context(c, 14); });
        return a + b;
    });
    _exit(r == 233 + 377 ? 4 : 5);
}
#endif

#if !defined(NDEBUG) && !FJ__TSAN
// Builds without NDEBUG check the context at the join.

void context_used_off_its_worker_stops_the_program()
{
    check_misuse_stops_the_program("a context used on the main thread", "fj::context", [] {
        fj::pool pool(1);
        fj::context stored = pool.invoke([] { return fj::current_context(); });
        auto sides = fj::join(stored, [](fj::context) { return 1; }, [](fj::context) { return 2; });
        _exit(sides.first + sides.second == 3 ? 4 : 5);
    });
}

void side_using_its_parents_context_stops_the_program()
{
    for (int workers = 1; workers <= 4; workers *= 2)
        check_misuse_stops_the_program("a side joining through its parent's context", "fj::context",
                                       [workers] { join_through_the_parents_context(workers); });
}
#endif

#if defined(NDEBUG) && !FJ__TSAN
// Release builds do not check the context at the join (fj.hpp, fj::context).
// The misuse still writes over nothing: the join's spawn compares its copy of
// top with the word, the settle syncs the parent's pending fork first (run
// here, or waited for where a thief took it), and the parent's own sync then
// finds no frame of its own and stops the program.
void side_using_its_parents_context_stops_the_program_at_the_sync()
{
    for (int workers = 1; workers <= 4; workers *= 2)
        check_misuse_stops_the_program("a side joining through its parent's context", "FJ_SYNC",
                                       [workers] { join_through_the_parents_context(workers); });
}

// The same misuse while a thief has the parent's fork: the side waits (for a
// bounded time) until the thief has started it, then joins through the
// parent's context, whose copy of top is that fork's slot.  A spawn there
// without the settle would write the side's own g over the stolen frame, and
// the side's sync, finding the slot stolen, would take the slot's bytes for
// its result: the thief's 1000, or, where the thief had finished first, the
// copy of the side's own g (7), never the 21 that g returns.  The settle
// waits for the thief first, so the side's join returns 21; the parent's sync
// then stops the program.  Where the thief does not start in time (a loaded
// machine, or frames kept private without membarrier) the settle runs the
// fork itself and the check holds as well.
void stale_context_beside_a_thief_writes_over_nothing()
{
    check_misuse_stops_the_program(
        "a side joining through its parent's context while a thief runs the parent's fork", "FJ_SYNC",
        [] {
            /* A signal only, no data travels with it: release / acquire
             * for the reader's sake, relaxed would do. */
            static std::atomic<int> started{0};
            fj::pool pool(2);
            pool.invoke([](fj::context cx) {
                auto [a, b] = fj::join(
                    cx,
                    [cx](fj::context) {
                        for (long spins = 0; spins < 2000000000L && !started.load(std::memory_order_acquire); spins++)
                            ;
                        auto [x, y] = fj::join(cx, [](fj::context) { return 1L; },
                                               [seven = 7L](fj::context) { return seven * 3; });
                        if (y != 21)
                            fprintf(stderr, "the side's join returned %ld for its g\n", y);
                        return x + y;
                    },
                    [](fj::context) {
                        started.store(1, std::memory_order_release);
                        return 1000L;
                    });
                return a + b;
            });
            _exit(4);
        },
        "the side's join returned");
}
#endif

const check_case cases[] = {
    {"fib_through_contexts_matches_serial_on_1_2_4_workers", fib_through_contexts_matches_serial_on_1_2_4_workers,
     CHECK_ONCE},
    {"halving_sum_matches_closed_form", halving_sum_matches_closed_form, CHECK_PER_WORKERS},
    {"join_returns_each_shape_here", join_returns_each_shape_here, CHECK_ONCE},
    {"results_of_every_shape_come_back_through_thieves", results_of_every_shape_come_back_through_thieves,
     CHECK_PER_WORKERS},
    {"each_side_is_invoked_once", each_side_is_invoked_once, CHECK_PER_WORKERS},
    {"nested_joins_pass_their_contexts_on", nested_joins_pass_their_contexts_on, CHECK_PER_WORKERS},
    {"n_ary_joins_return_in_argument_order", n_ary_joins_return_in_argument_order, CHECK_PER_WORKERS},
    {"current_context_works_on_any_worker_code", current_context_works_on_any_worker_code, CHECK_PER_WORKERS},
    {"pool_invoke_passes_a_context", pool_invoke_passes_a_context, CHECK_ONCE},
    {"contexts_mix_with_plain_joins_fj_tasks_and_typed_tasks", contexts_mix_with_plain_joins_fj_tasks_and_typed_tasks,
     CHECK_PER_WORKERS},
#ifdef COUNTS_ALLOCATIONS
    {"join_through_a_context_allocates_nothing", join_through_a_context_allocates_nothing, CHECK_PER_WORKERS},
#endif
    {"results_survive_serial_elision", results_survive_serial_elision, CHECK_ONCE},
    {"results_survive_a_full_deque", results_survive_a_full_deque, CHECK_PER_WORKERS},
    {"four_workers_share_a_tree_of_joins", four_workers_share_a_tree_of_joins, CHECK_ONCE},
#if FJ_HPP_EXCEPTIONS
    {"exception_in_f_is_rethrown_after_g", exception_in_f_is_rethrown_after_g, CHECK_PER_WORKERS},
    {"exception_in_g_is_rethrown_after_f", exception_in_g_is_rethrown_after_f, CHECK_PER_WORKERS},
    {"both_throw_f_is_rethrown", both_throw_f_is_rethrown, CHECK_PER_WORKERS},
    {"first_thrower_in_argument_order_is_rethrown", first_thrower_in_argument_order_is_rethrown, CHECK_PER_WORKERS},
    {"exception_deep_in_a_recursion_reaches_the_root", exception_deep_in_a_recursion_reaches_the_root,
     CHECK_PER_WORKERS},
    {"current_context_off_a_worker_throws", current_context_off_a_worker_throws, CHECK_ONCE},
#endif
#if !defined(NDEBUG) && !FJ__TSAN
    {"context_used_off_its_worker_stops_the_program", context_used_off_its_worker_stops_the_program, CHECK_ONCE},
    {"side_using_its_parents_context_stops_the_program", side_using_its_parents_context_stops_the_program, CHECK_ONCE},
#endif
#if defined(NDEBUG) && !FJ__TSAN
    {"side_using_its_parents_context_stops_the_program_at_the_sync",
     side_using_its_parents_context_stops_the_program_at_the_sync, CHECK_ONCE},
    {"stale_context_beside_a_thief_writes_over_nothing", stale_context_beside_a_thief_writes_over_nothing, CHECK_ONCE},
#endif
};

} // namespace

CHECK_MAIN(cases)
