// fjxx_pool.h - the driver half of the fj++ and fj++cx systems
// (bench/fine/fjxx.cpp, fjxx_context.cpp): the pool, fine_init, fine_fini and
// each program's root.  Included by one C++ file per binary.
//
// The pool: an fj::pool made from an fj_config as bench_fj_pool_create
// (bench/fj_pool.h) makes it, fj_config_init then the worker count, so the
// other settings come from FJ_* in the environment as for every fj driver; a
// refusal is printed with fj_last_error_detail(), and the counters at the end
// when BENCH_FJ_STATS is set, through native_handle().  fj::pool can express
// all of it, so fj_pool.h itself is not used (its C calls would bypass the
// face being measured only at start and end anyway).
#ifndef BENCH_FINE_FJXX_POOL_H
#define BENCH_FINE_FJXX_POOL_H

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <type_traits>

#include "fj.hpp"

extern "C" {
#include "fine.h"
}

static std::optional<fj::pool> pool;

extern "C" int fine_init(int workers)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = (unsigned)workers;
    try {
        pool.emplace(config);
    } catch (const fj::error &e) {
        std::fprintf(stderr, "fj::pool: %s (%s)\n", e.what(), fj_last_error_detail());
        return e.code();
    }
    return 0;
}

extern "C" void fine_fini(void)
{
    if (std::getenv("BENCH_FJ_STATS"))
        fj_pool_print_stats(pool->native_handle(), stderr);
    pool.reset();
}

// Each program's root: the recursion as a direct call, given the worker's
// fj::context when it takes one, counted under callgrind on the worker that
// runs it (fine.h).  A pool that refuses the root ends the program, as
// fj_classic.c's invoke() does.
template <class F>
static long run_root(F recursion)
{
    try {
        if constexpr (std::is_invocable_v<F &>) {
            return pool->invoke([&recursion] {
                FINE_COUNT_TOGGLE();
                long r = recursion();
                FINE_COUNT_TOGGLE();
                return r;
            });
        } else {
            return pool->invoke([&recursion](fj::context cx) {
                FINE_COUNT_TOGGLE();
                long r = recursion(cx);
                FINE_COUNT_TOGGLE();
                return r;
            });
        }
    } catch (const fj::error &e) {
        std::fprintf(stderr, "fj::pool::invoke: %s\n", e.what());
        std::exit(1);
    }
}

#endif
