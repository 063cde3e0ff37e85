/* worker.h - a worker thread: its deque, its counters, how it finds work.
 *
 * Fields are grouped by the thread that writes them, with padding between the
 * groups, so that the owner's fast path never shares a cache line with a field
 * that other threads write (false sharing). */
#ifndef FJ_WORKER_H
#define FJ_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "atomics.h"
#include "config.h"
#include "deque.h"
#include "pool.h"

/* Counters written by their worker only (counter_add: no RMW), read racily.
 * To keep the fast path to one counter per join, bodies run by an inline join
 * are not counted in tasks_run: fj_worker_stats.tasks_run is
 * tasks_run + inline_joins - inline_skipped (joined inline but aborted). */
typedef struct worker_counters {
    atomic_word tasks_run, forks, inline_joins, inline_skipped, steals, failed_steals;
    atomic_word leapfrogs, helps, injector_takes, parks, wakeups, unsynced;
} worker_counters;

typedef struct fj_worker {
    /* First: inline spawn and sync (include/fj.h) find the deque's ends at
     * the worker's address.  The deque pads its own owner and thief halves. */
    deque deque;
    /* Written by the owner only. */
    struct fj_pool *pool;
    unsigned index;           /* 0..workers-1 in its pool */
    unsigned slot;            /* parker slot (idle.h), unique in the process */
    unsigned char hooks;      /* nonzero: trace / profile / serial / stress on */
    unsigned help_depth;      /* join_help frames on this worker's stack */
    uint64_t rng;             /* victim selection, xorshift64 */
    worker_counters count;
    fj_frame overflow_result; /* where a sync finds a result from deque.overflow */
    void *trace;              /* trace buffer (trace.c), when tracing */
    void *profile;            /* profiler state (profile.c), when profiling */
    pthread_t thread;
    char pad_owner[FJ_CACHE_LINE];
    /* Read by joiners that leapfrog on us: the frame our deque's top was at
     * when the task we run now began (as thief, helper or remover).  What
     * lies at or above it in our deque was forked by that task or by tasks
     * run above it on our stack (task.c, point 2). */
    atomic_word run_floor;
    char pad_shared[FJ_CACHE_LINE];
} fj_worker;

/* fj__self, the worker running on this thread (NULL on other threads), is
 * declared in include/fj.h: fj.hpp's join reads it inline. */

/* False for a spare that stands in for a blocked worker (managed_block.c): it
 * shares that worker's index, so it never names itself a task's thief. */
static inline bool worker_is_member(const fj_worker *w) { return w->pool->workers[w->index] == w; }

/* Owner only: the worker's own next task outside a join, taken (the newest;
 * the oldest in a pool created in Java's asyncMode: worker.c), or NULL. */
struct fj_task *worker_take_local(fj_worker *w);
/* Owner only: the task worker_take_local would take, left where it is. */
struct fj_task *worker_peek_local(const fj_worker *w);

/* One attempt at finding work for `w` outside any join: own deque, then the
 * injector, then `attempts` random victims.  Returns a task or NULL. */
struct fj_task *worker_find_work(fj_worker *w, unsigned attempts, bool wait);

/* Steals one task or frame from a random victim other than `w`; NULL if the
 * chosen one had nothing.  `wait`: wait for a busy victim lock instead of
 * moving on. */
struct fj_task *worker_steal_random(fj_worker *w, bool wait);

/* Split mode (no membarrier: deque.c, point 9): makes the worker's private
 * frames public and wakes a parked worker if one may be; nothing elsewhere.
 * Called by a spawn that found its hint set, and by an owner about to wait
 * (a join, a managed block), so that no wait can depend on a private frame. */
void worker_publish(fj_worker *w);

/* Takes from the injector, counting it; NULL if empty. */
struct fj_task *worker_take_injected(fj_worker *w);

/* True if any deque of the pool or its injector looks non-empty. */
bool worker_pool_has_work(const fj_worker *w);

/* The same for a pool, from any thread (a racy look, as above). */
bool worker_queues_have_work(const struct fj_pool *pool);

/* Where the task this worker starts now begins: raises run_floor to top and
 * returns the old floor for worker_leave_floor.  Relaxed: the worker that
 * runs the task publishes itself as its thief after this store, with release
 * (task_set_thief, frame_run_stolen), and a joiner reads the floor after it
 * acquires that index. */
static inline size_t worker_enter_floor(fj_worker *w)
{
    size_t old = atomic_load(&w->run_floor);
    atomic_store(&w->run_floor, (size_t)deque_top(&w->deque));
    return old;
}

/* After the task's completion is published (a full-fence RMW in task_state.c
 * and frame_run.c), so a joiner that still sees the task running read a floor of its
 * run, never this older one (deque.c, point 8). */
static inline void worker_leave_floor(fj_worker *w, size_t old) { atomic_store(&w->run_floor, old); }

static inline const fj_frame *worker_run_floor(const fj_worker *w)
{
    return (const fj_frame *)atomic_load((atomic_word *)&w->run_floor);
}

#endif
