// fib.cpp - examples/fib.c in C++ through fj.hpp: two lambdas and fj::join
// instead of a task struct, fj_fork and fj_join.
//
// fib(n) runs fib(n-1) and fib(n-2) in parallel: fj::join forks the second
// lambda, runs the first here, joins, and returns both results.  No cut-off:
// every call is a join, so this measures the cost of the C++ face's fork +
// join.  Then the same recursion through an fj::context, the form that
// costs what a typed task in C costs; and an exception thrown in a task,
// caught at the join.
#include <cstdio>
#include <stdexcept>

#include "example_util.h"
#include "fj.hpp"

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib_parallel(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib_parallel(n - 1); }, [n] { return fib_parallel(n - 2); });
    return a + b;
}

// The same, each call given an fj::context that it passes on: fj::join(cx,
// ...) hands each side the context to use for its own joins, so no join looks
// up the worker or the top of its deque (a typed task carries them the same
// way, examples/fib_typed.c).  The sides' parameter is `c`: a lambda
// parameter named `cx` would hide the function's own.
static long fib_context(fj::context cx, int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join(cx, [n](fj::context c) { return fib_context(c, n - 1); },
                           [n](fj::context c) { return fib_context(c, n - 2); });
    return a + b;
}

// fib again, but a task refuses n == `bad`: the throw happens on whichever
// worker ran that task and is rethrown by the joins above it, up to here.
static long fib_refusing(int n, int bad)
{
    if (n == bad)
        throw std::domain_error("fib refuses n == " + std::to_string(bad));
    if (n < 2)
        return n;
    auto [a, b] = fj::join([=] { return fib_refusing(n - 1, bad); }, [=] { return fib_refusing(n - 2, bad); });
    return a + b;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 32, 0, 92);
    int n = (int)args.size;
    fj::pool pool(args.workers);

    double t0 = example_seconds();
    long result = pool.invoke([n] { return fib_parallel(n); });
    double t1 = example_seconds();
    long expected = fib_serial(n);
    double t2 = example_seconds();
    std::printf("fib(%d) = %ld on %u workers\n", n, result, pool.workers());
    long through_context = pool.invoke([n](fj::context cx) { return fib_context(cx, n); });
    std::printf("fib(%d) = %ld through fj::context\n", n, through_context);

    bool caught = false;
    try {
        pool.invoke([n] { return fib_refusing(n, n / 2); });
    } catch (const std::domain_error &e) {
        caught = true;
        std::printf("caught at the join: %s\n", e.what());
    }
    return example_verdict("fib_cxx", result == expected && through_context == expected && caught, t1 - t0, t2 - t1);
}
