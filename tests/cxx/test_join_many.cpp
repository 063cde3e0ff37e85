// test_join_many.cpp - fj::join of three or more callables (include/fj.hpp):
// each result in its place, each side run once, the first exception in
// argument order rethrown after every side ran, outside a pool, and with the
// runtime running sides at their spawn (serial elision, a full deque).
// Also built with -fno-exceptions (test_join_many_noexcept), without the
// exception cases.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "check.h"
#include "fj.hpp"

// Every operator new of the program, counted (join promises no allocation).
#include "counting_new.h"

namespace {

// ---- which way each side is held, and what join returns ----

struct quad {
    long a, b, c, d;
};
struct five {
    long v[5];
};

long leaf_value(int d) { return d; }

void sides_are_held_as_join_of_two_holds_g()
{
    int d = 3;
    auto small = [d] { return leaf_value(d); };
    using Small = decltype(small);
    // A std::tuple of a lambda (which join of three makes) looks at its deleted
    // copy assignment; the lambda must still travel in its frame.
    static_assert(!std::is_copy_assignable_v<Small>);
    static_assert(fj::detail::g_in_frame_v<Small>, "a small temporary goes in the frame");
    static_assert(!fj::detail::g_in_frame_v<Small &>, "an lvalue does not");
    five pad{{1, 2, 3, 4, 5}};
    auto large = [pad] { return pad.v[0]; };
    static_assert(!fj::detail::g_in_frame_v<decltype(large)>, "40 bytes of captures do not");
    auto text = [] { return std::string("x"); };
    static_assert(!fj::detail::g_in_frame_v<decltype(text)>, "a non-trivial result does not");
    (void)small;
    (void)large;
    (void)text;
}

void join_returns_a_tuple_in_argument_order()
{
    fj::pool pool(check_workers);
    pool.invoke([] {
        int target = 9;
        bool ran = false;
        auto all = fj::join([] { return 1; }, [] { return std::string("two"); }, [&] { ran = true; },
                            [&]() -> int & { return target; }, [] { return quad{4, 4, 4, 4}; });
        static_assert(std::is_same_v<decltype(all), std::tuple<int, std::string, std::monostate, int &, quad>>);
        CHECK_EQ(1, std::get<0>(all));
        CHECK(std::get<1>(all) == "two");
        CHECK(ran);
        CHECK(&std::get<3>(all) == &target);
        CHECK_EQ(4, std::get<4>(all).d);
        // The same lvalue as four sides, which may run on four threads at once.
        std::atomic<int> count{0};
        auto bump = [&] { count.fetch_add(1); };
        static_assert(std::is_void_v<decltype(fj::join(bump, bump, bump))>);
        fj::join(bump, bump, bump, bump);
        CHECK_EQ(4, count.load());
    });
}

// ---- results of every shape, in trees of joins ----

// A node's children: one join of `Breadth` sides, leaf counts summed.
template <std::size_t... Child>
long count_leaves(int depth, std::index_sequence<Child...>);

long count_leaves_of(int depth)
{
    if (depth == 0)
        return 1;
    return count_leaves(depth - 1, std::make_index_sequence<8>{});
}

template <std::size_t Child>
auto leaves_below(int depth)
{
    return [depth] { return count_leaves_of(depth); };
}

template <std::size_t... Child>
long count_leaves(int depth, std::index_sequence<Child...>)
{
    auto each = fj::join(leaves_below<Child>(depth)...);
    return std::apply([](auto... leaves) { return (leaves + ...); }, each);
}

// The leaves' digits in index order, three children a node: two sides return
// strings (through the joiner's stack), the third a reference to the joiner's
// local.  Any result out of place shows.
std::string digits(int depth, long index)
{
    if (depth == 0)
        return std::string(1, (char)('0' + index % 10));
    std::string last;
    auto [first, middle, last_ref] = fj::join(
        [=] { return digits(depth - 1, 3 * index); },
        [=] { return digits(depth - 1, 3 * index + 1); },
        [&last, depth, index]() -> std::string & { return last = digits(depth - 1, 3 * index + 2); });
    CHECK(&last_ref == &last);
    return first + middle + last_ref;
}

// Sums of index, 2 index, 3 index, 4 index over the leaves, four children a
// node: a quad (in the frame), a five (by pointer), a long, and a void side
// that writes its part through a pointer.
quad quad_sums(int depth, long index)
{
    if (depth == 0)
        return {index, 2 * index, 3 * index, 4 * index};
    quad through_pointer{0, 0, 0, 0};
    quad *into = &through_pointer;
    auto [q0, f1, a2, nothing] = fj::join(
        [=] { return quad_sums(depth - 1, 4 * index); },
        [=] {
            quad q = quad_sums(depth - 1, 4 * index + 1);
            return five{{q.a, q.b, q.c, q.d, 0}};
        },
        [=] { return quad_sums(depth - 1, 4 * index + 2).a; },
        [=] { *into = quad_sums(depth - 1, 4 * index + 3); });
    static_assert(std::is_same_v<decltype(nothing), std::monostate>);
    (void)nothing;
    // Side 2 gave only its index sum; its multiples follow from it.
    return {q0.a + f1.v[0] + a2 + through_pointer.a, q0.b + f1.v[1] + 2 * a2 + through_pointer.b,
            q0.c + f1.v[2] + 3 * a2 + through_pointer.c, q0.d + f1.v[3] + 4 * a2 + through_pointer.d};
}

std::string expected_digits(long leaves)
{
    std::string expected;
    for (long i = 0; i < leaves; i++)
        expected += (char)('0' + i % 10);
    return expected;
}

void check_every_shape(fj::pool &pool, int depth8, int depth3, int depth4)
{
    long leaves8 = 1;
    for (int i = 0; i < depth8; i++)
        leaves8 *= 8;
    CHECK_EQ(leaves8, pool.invoke([=] { return count_leaves_of(depth8); }));
    long leaves3 = 1;
    for (int i = 0; i < depth3; i++)
        leaves3 *= 3;
    CHECK(pool.invoke([=] { return digits(depth3, 0); }) == expected_digits(leaves3));
    long leaves4 = 1L << (2 * depth4), index_sum = leaves4 * (leaves4 - 1) / 2;
    quad q = pool.invoke([=] { return quad_sums(depth4, 0); });
    CHECK_EQ(index_sum, q.a);
    CHECK_EQ(2 * index_sum, q.b);
    CHECK_EQ(3 * index_sum, q.c);
    CHECK_EQ(4 * index_sum, q.d);
}

void results_of_every_shape_reach_the_join()
{
    fj::pool pool(check_workers);
    if (check_stress())
        check_every_shape(pool, 6, 9, 7);
    else
        check_every_shape(pool, 5, 7, 5);
}

// ---- no allocation ----
#ifdef COUNTS_ALLOCATIONS

// Sides in their frames and by pointer (a 40-byte result), on every worker
// that takes them: no operator new anywhere while the joins run.
five spread(int depth)
{
    if (depth == 0)
        return five{{1, 1, 1, 1, 1}};
    auto [a, b, c] = fj::join([=] { return spread(depth - 1); }, [=] { return spread(depth - 1); },
                              [=] { return count_leaves_of(depth - 1); });
    return five{{a.v[0] + b.v[0] + c, a.v[1], b.v[2], a.v[3], b.v[4]}};
}

void join_allocates_nothing()
{
    fj::pool pool(check_workers);
    pool.invoke([] { return count_leaves_of(1); }); /* the workers have started */
    long probe_before = allocations.load();
    std::string probe(100, 'x'); /* the counter counts */
    CHECK(allocations.load() > probe_before);
    long before = allocations.load();
    long leaves = pool.invoke([] { return count_leaves_of(5); });
    five spread_out = pool.invoke([] { return spread(7); });
    long during = allocations.load() - before;
    CHECK_EQ(0, during);
    CHECK_EQ(32768, leaves);
    long expected = 1, eights = 1; /* s(d) = 2 s(d - 1) + 8^(d - 1) */
    for (int d = 1; d <= 7; d++, eights *= 8)
        expected = 2 * expected + eights;
    CHECK_EQ(expected, spread_out.v[0]);
    CHECK_EQ(1, spread_out.v[4]);
    CHECK(probe.size() == 100);
}
#endif

// ---- each side runs once ----

long count_calls(int depth, std::atomic<long> *calls, bool large)
{
    calls->fetch_add(1);
    if (depth == 0)
        return 1;
    if (large) {
        five pad{{depth, 0, 0, 0, 0}};
        auto [a, b, c] = fj::join([=] { return count_calls((int)pad.v[0] - 1, calls, large); },
                                  [=] { return count_calls((int)pad.v[0] - 1, calls, large); },
                                  [=] { return count_calls((int)pad.v[0] - 1, calls, large); });
        return a + b + c;
    }
    auto [a, b, c] = fj::join([=] { return count_calls(depth - 1, calls, large); },
                              [=] { return count_calls(depth - 1, calls, large); },
                              [=] { return count_calls(depth - 1, calls, large); });
    return a + b + c;
}

void each_side_runs_once()
{
    fj::pool pool(check_workers);
    const int depth = 8; // 3^8 leaves, (3^9 - 1) / 2 calls
    for (bool large : {false, true}) {
        std::atomic<long> calls{0};
        CHECK_EQ(6561, pool.invoke([&] { return count_calls(depth, &calls, large); }));
        CHECK_EQ(9841, calls.load());
    }
    // Lvalue sides run as the caller's objects: a mutable lambda's state is
    // the caller's after, on every worker that ran it.
    auto first = [calls = 0]() mutable { return ++calls; };
    auto second = [calls = 0]() mutable { return ++calls; };
    const int joins = 300;
    pool.invoke([&] {
        for (int i = 0; i < joins; i++)
            fj::join([] { return count_leaves_of(2); }, first, second);
    });
    CHECK_EQ(joins + 1, first());
    CHECK_EQ(joins + 1, second());
}

// From a thread that is not a worker: every side on the common pool, once.
void join_outside_a_pool_uses_the_common_pool()
{
    CHECK(fj_current_pool() == nullptr);
    std::atomic<long> calls{0};
    auto [a, b, c, pool_seen] =
        fj::join([&] { return count_calls(4, &calls, false); }, [&] { return count_calls(4, &calls, true); },
                 [] { return count_leaves_of(3); }, [] { return fj_current_pool(); });
    CHECK_EQ(81, a);
    CHECK_EQ(81, b);
    CHECK_EQ(512, c);
    CHECK_EQ(2 * 121, calls.load());
    CHECK(pool_seen == fj_common_pool());
    // Temporaries, which go to the common pool as copies.
    auto [x, y, z] = fj::join([] { return 1; }, [] { return 2; }, [] { return 3; });
    CHECK_EQ(6, x + y + z);
}

// ---- sides run at their spawn ----

// A chain of joins deeper than a 64-frame deque, three sides each.
long chain_of_joins(int n)
{
    if (n == 0)
        return 0;
    auto [rest, one, two] =
        fj::join([=] { return chain_of_joins(n - 1); }, [=] { return (long)n; }, [=] { return 2L * n; });
    return rest + one + two;
}

void results_survive_sides_run_at_their_spawn(const char *variable, const char *value)
{
    setenv(variable, value, 1);
    fj::pool pool(check_workers);
    unsetenv(variable);
    check_every_shape(pool, 4, 6, 4);
    const int n = 2000;
    CHECK_EQ(3L * n * (n + 1) / 2, pool.invoke([=] { return chain_of_joins(n); }));
}

void results_survive_serial_elision() { results_survive_sides_run_at_their_spawn("FJ_SERIAL", "1"); }
void results_survive_a_full_deque() { results_survive_sides_run_at_their_spawn("FJ_DEQUE_FRAMES", "64"); }

#if FJ_HPP_EXCEPTIONS
// ---- exceptions ----

// Throws std::runtime_error(`what`) when `really` (the compiler does not see
// a lambda that always throws).
long throw_if(bool really, const char *what)
{
    if (really)
        throw std::runtime_error(what);
    return 0;
}

// Four sides, those in `throwers` (a bit per side) throwing after some work,
// so that thieves take some of them.  Every side runs to its end; the one
// rethrown is the first thrower in argument order.
void first_thrower_in_argument_order_is_rethrown_for(fj::pool &pool, unsigned throwers)
{
    static const char *const names[4] = {"side 0", "side 1", "side 2", "side 3"};
    std::atomic<int> finished{0};
    std::string caught;
    pool.invoke([&] {
        auto side = [&](int k) {
            long work = count_leaves_of(5);
            finished.fetch_add(1);
            return work + throw_if(throwers & (1u << k), names[k]);
        };
        try {
            fj::join([&] { return side(0); }, [&] { return side(1); }, [&] { return side(2); },
                     [&] { return side(3); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
    });
    CHECK_EQ(4, finished.load());
    int first = 0;
    while (first < 4 && !(throwers & (1u << first)))
        first++;
    CHECK(caught == (first < 4 ? names[first] : ""));
}

void first_thrower_in_argument_order_is_rethrown()
{
    fj::pool pool(check_workers);
    for (int round = 0; round < 10; round++)
        for (unsigned throwers = 0; throwers < 16; throwers++)
            first_thrower_in_argument_order_is_rethrown_for(pool, throwers);
}

void first_thrower_under_serial_elision()
{
    setenv("FJ_SERIAL", "1", 1);
    fj::pool pool(check_workers);
    unsetenv("FJ_SERIAL");
    for (unsigned throwers = 0; throwers < 16; throwers++)
        first_thrower_in_argument_order_is_rethrown_for(pool, throwers);
}

// Through a full deque: the exception of a side run at its spawn comes back
// with its frame's bytes; the chain's other sides still all run.
long chain_throwing_at(int n, int bad, std::atomic<long> *ran)
{
    if (n == 0)
        return 0;
    auto [rest, one, two] = fj::join([=] { return chain_throwing_at(n - 1, bad, ran); },
                                     [=] {
                                         ran->fetch_add(1);
                                         return throw_if(n == bad, "deep side") + 1;
                                     },
                                     [=] {
                                         ran->fetch_add(1);
                                         return 1L;
                                     });
    return rest + one + two;
}

void exception_survives_a_full_deque()
{
    setenv("FJ_DEQUE_FRAMES", "64", 1);
    fj::pool pool(check_workers);
    unsetenv("FJ_DEQUE_FRAMES");
    const int n = 2000;
    for (int bad : {1, 700, n}) {
        std::atomic<long> ran{0};
        std::string caught;
        try {
            pool.invoke([&] { return chain_throwing_at(n, bad, &ran); });
        } catch (const std::runtime_error &e) {
            caught = e.what();
        }
        CHECK(caught == "deep side");
        CHECK_EQ(2L * n, ran.load());
    }
}
#endif

const check_case cases[] = {
    {"sides_are_held_as_join_of_two_holds_g", sides_are_held_as_join_of_two_holds_g, CHECK_ONCE},
    {"join_returns_a_tuple_in_argument_order", join_returns_a_tuple_in_argument_order, CHECK_PER_WORKERS},
    {"results_of_every_shape_reach_the_join", results_of_every_shape_reach_the_join, CHECK_PER_WORKERS},
#ifdef COUNTS_ALLOCATIONS
    {"join_allocates_nothing", join_allocates_nothing, CHECK_PER_WORKERS},
#endif
    {"each_side_runs_once", each_side_runs_once, CHECK_PER_WORKERS},
    {"join_outside_a_pool_uses_the_common_pool", join_outside_a_pool_uses_the_common_pool, CHECK_ONCE},
    {"results_survive_serial_elision", results_survive_serial_elision, CHECK_ONCE},
    {"results_survive_a_full_deque", results_survive_a_full_deque, CHECK_PER_WORKERS},
#if FJ_HPP_EXCEPTIONS
    {"first_thrower_in_argument_order_is_rethrown", first_thrower_in_argument_order_is_rethrown, CHECK_PER_WORKERS},
    {"first_thrower_under_serial_elision", first_thrower_under_serial_elision, CHECK_ONCE},
    {"exception_survives_a_full_deque", exception_survives_a_full_deque, CHECK_PER_WORKERS},
#endif
};

} // namespace

CHECK_MAIN(cases)
