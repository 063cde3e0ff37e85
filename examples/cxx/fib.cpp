// fib.cpp - examples/fib.c in C++ through fj.hpp: two lambdas and fj::join
// instead of a task struct, fj_fork and fj_join.
//
// fib(n) runs fib(n-1) and fib(n-2) in parallel: fj::join forks the second
// lambda, runs the first here, joins, and returns both results.  No cut-off:
// every call is a join, so this measures the cost of the C++ face's fork +
// join.  It also shows an exception thrown in a task caught at the join.
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
    example_args args = example_parse(argc, argv, 32);
    int n = (int)args.size;
    fj::pool pool(args.workers);

    double t0 = example_seconds();
    long result = pool.invoke([n] { return fib_parallel(n); });
    double t1 = example_seconds();
    long expected = fib_serial(n);
    double t2 = example_seconds();
    std::printf("fib(%d) = %ld on %u workers\n", n, result, pool.workers());

    bool caught = false;
    try {
        pool.invoke([n] { return fib_refusing(n, n / 2); });
    } catch (const std::domain_error &e) {
        caught = true;
        std::printf("caught at the join: %s\n", e.what());
    }
    return example_verdict("fib_cxx", result == expected && caught, t1 - t0, t2 - t1);
}
