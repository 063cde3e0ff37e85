/* spin_clock.h - the monotonic clock and the busy leaf shared by the join-lag
 * benchmarks (join_lag.c with fj, wake_lag.c without it), so that both spin
 * leaves of exactly the same kind. */
#ifndef FJ_BENCH_SPIN_CLOCK_H
#define FJ_BENCH_SPIN_CLOCK_H

#include <time.h>

static inline long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Busy for ns of wall-clock time: a leaf that never enters the kernel. */
static inline void spin_for(long long ns)
{
    long long end = now_ns() + ns;
    while (now_ns() < end) {
    }
}

#endif
