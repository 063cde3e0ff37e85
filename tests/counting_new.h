/* counting_new.h - every operator new of a C++ test program, counted, for the
 * cases that check a promise of no allocation (fj::join, with and without a
 * context).  Include it in one file of the program.  ThreadSanitizer's
 * runtime defines operator new itself (not weak), so that build leaves the
 * count out (COUNTS_ALLOCATIONS undefined), and the cases with it. */
#ifndef FJ_TESTS_COUNTING_NEW_H
#define FJ_TESTS_COUNTING_NEW_H

#include <atomic>
#include <cstdlib>
#include <new>

#include "fj.h"

#if !FJ__TSAN
#define COUNTS_ALLOCATIONS 1
static std::atomic<long> allocations{0};

void *operator new(std::size_t size)
{
    /* Relaxed: a count, read by the case only after the joins it measures
     * have returned (they order every side's allocations before the read). */
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(size ? size : 1))
        return p;
    std::abort(); /* the tests build with and without exceptions */
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
#endif

#endif
