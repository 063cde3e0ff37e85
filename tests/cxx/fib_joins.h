// fib_joins.h - fib through fj::join two ways, for the C++ tests that need
// work of a known result and shape: plain joins (fib_plain) and joins through
// an fj::context (fib_in_context), the README's C++ examples.  Include it in
// one file of a test program.
#ifndef FJ_TESTS_FIB_JOINS_H
#define FJ_TESTS_FIB_JOINS_H

#include "fj.hpp"

namespace {

long fib_plain(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join([n] { return fib_plain(n - 1); }, [n] { return fib_plain(n - 2); });
    return a + b;
}

long fib_in_context(fj::context cx, int n)
{
    if (n < 2)
        return n;
    auto [a, b] = fj::join(cx, [n](fj::context c) { return fib_in_context(c, n - 1); },
                           [n](fj::context c) { return fib_in_context(c, n - 2); });
    return a + b;
}

} // namespace

#endif
