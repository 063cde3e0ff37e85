/* call_count.h - counts a program's calls of the allocator, of the mutex
 * locks and of the slow halves of fj's inline spawn and sync, for the cases
 * that hold the fast path to its promises (tests/unit/test_fast_path.c,
 * tests/cxx/test_join_fast_path.cpp).
 *
 * The program is linked with the Makefile's FAST_PATH_WRAP: the linker's
 * --wrap sends every reference to those functions from libfj.a and from the
 * program to the wrappers below (libc's and libstdc++'s own calls are not
 * counted).  The count runs only between window_open and window_close, which
 * a root task calls around its work on the worker that runs it: the pool's
 * start, the hand-over of the root and the return of its result are outside.
 * Include it in one file of the program. */
#ifndef FJ_TESTS_CALL_COUNT_H
#define FJ_TESTS_CALL_COUNT_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int window;          /* 1 while the count runs */
static long allocations;    /* calls to the allocator in the window */
static long locks;          /* mutex locks taken or tried in the window */
static long slow_calls;     /* calls of the inline spawn and sync into the runtime */

static inline void window_open(void)
{
    /* Relaxed: the release store of the window below publishes the zeros. */
    __atomic_store_n(&allocations, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&locks, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slow_calls, 0, __ATOMIC_RELAXED);
    /* Release: the zeroed counts come before any count a thread makes after
     * seeing the window open (count's acquire load). */
    __atomic_store_n(&window, 1, __ATOMIC_RELEASE);
}

/* Relaxed: what orders the work of the window before a case reads its counts
 * is the root's return (the run's completion releases, its waiter acquires),
 * not this store.  A worker that has not seen it yet may still count: a thief
 * between steal attempts counts a lock after the root returned, which is why
 * the cases read `locks` only on one worker. */
static inline void window_close(void) { __atomic_store_n(&window, 0, __ATOMIC_RELAXED); }

static inline void count(long *counter)
{
    /* Acquire: pairs with window_open's release, so the increment lands on
     * the zeroed count, not on the one before it. */
    if (__atomic_load_n(&window, __ATOMIC_ACQUIRE))
        /* Relaxed: a tally; several threads may add at once (hence the RMW),
         * and nothing else is ordered by it. */
        __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* A count as a case reads it, after the root's run returned (window_close).
 * Relaxed: that return orders the counts the case relies on before this load;
 * an atomic load because a straggling thief may still add to `locks`. */
static inline long count_of(const long *counter) { return __atomic_load_n(counter, __ATOMIC_RELAXED); }

#ifdef __cplusplus
extern "C" {
#endif
/* NAME's wrapper: counts the call in `counter`, then makes it. */
#define COUNTED(counter, RT, NAME, PARAMS, ARGS)                                               \
    RT __real_##NAME PARAMS;                                                                   \
    RT __wrap_##NAME PARAMS;                                                                   \
    RT __wrap_##NAME PARAMS                                                                    \
    {                                                                                          \
        count(&counter);                                                                       \
        return __real_##NAME ARGS;                                                             \
    }

COUNTED(allocations, void *, malloc, (size_t size), (size))
COUNTED(allocations, void *, calloc, (size_t n, size_t size), (n, size))
COUNTED(allocations, void *, realloc, (void *p, size_t size), (p, size))
COUNTED(allocations, void *, aligned_alloc, (size_t alignment, size_t size), (alignment, size))
COUNTED(allocations, int, posix_memalign, (void **p, size_t alignment, size_t size), (p, alignment, size))
COUNTED(locks, int, pthread_mutex_lock, (pthread_mutex_t * m), (m))
COUNTED(locks, int, pthread_mutex_trylock, (pthread_mutex_t * m), (m))
/* The slow halves the inline typed spawn and sync call (include/fj.h). */
COUNTED(slow_calls, fj_frame *, fj__spawn_settle, (fj_worker * w, fj_frame *top), (w, top))
COUNTED(slow_calls, fj_frame *, fj__spawn_guarded, (fj_worker * w, fj_frame *top), (w, top))
COUNTED(slow_calls, void, fj__spawn_slow, (fj_worker * w), (w))
COUNTED(slow_calls, void, fj__spawn_wake, (fj_worker * w), (w))
COUNTED(slow_calls, fj_frame *, fj__sync_slow, (fj_worker * w, fj_frame *mine, fj_frame_fn run), (w, mine, run))
COUNTED(slow_calls, void, fj__frame_publish, (fj_worker * w, fj_frame *frame), (w, frame))
COUNTED(slow_calls, void, fj__unsynced, (fj_worker * w, fj_frame *entry_top, const char *task, int fatal),
        (w, entry_top, task, fatal))
#ifdef __cplusplus
}
#endif

/* Whether the pool runs without membarrier (FJ_FENCE=full, or a kernel that
 * lacks it): its deque splits (runtime/deque.c, point 9), and a spawn
 * publishes through the runtime whenever nothing of the worker's is public. */
static inline int pool_splits_its_deque(const fj_pool *pool)
{
    char text[4096] = {0};
    FILE *out = fmemopen(text, sizeof text - 1, "w");
    CHECK(out != NULL);
    CHECK_RC(0, fj_pool_print_stats(pool, out));
    fclose(out);
    return strncmp(text, "fences: membarrier", strlen("fences: membarrier")) != 0;
}

/* The promises hold with no hook on: clears the environment's switches that
 * send every spawn through the runtime (README: FJ_WORKERS=1 is the serial
 * elision, FJ_SERIAL, FJ_TRACE, FJ_PROFILE, FJ_STRESS).  Before a pool starts. */
static inline void clear_hook_switches(void)
{
    static const char *const switches[] = {"FJ_WORKERS", "FJ_SERIAL", "FJ_TRACE", "FJ_PROFILE", "FJ_STRESS"};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        unsetenv(switches[i]);
}

/* One worker's run of `spawns` spawns made `slow_calls` calls into the
 * runtime: at most 2 (the hand-over's spawn guard, and the wake hint the
 * worker left as it parked between runs), or, where the deque splits, fewer
 * than 1 in 100 (it publishes each time a sync has taken back everything
 * public, once or twice per level of a recursion). */
static inline void check_few_slow_calls(const fj_pool *pool, const char *what, long spawns)
{
    if (!pool_splits_its_deque(pool) && count_of(&slow_calls) > 2)
        CHECK_FAIL("%s: %ld calls into the runtime for its %ld spawns", what, count_of(&slow_calls), spawns);
    if (pool_splits_its_deque(pool) && count_of(&slow_calls) * 100 >= spawns)
        CHECK_FAIL("%s, split deque: %ld calls into the runtime for its %ld spawns", what, count_of(&slow_calls), spawns);
}

#endif
