/* scheduler.c - a worker's loop: find work, run it, park when there is none.
 *
 *     loop:  t = find work (own deque, injector, random victims: worker.c)
 *            if none: search a while (spin, then yield), then park (idle.c)
 *            run t (task.c, frame.c); repeat until the pool stops and is drained
 *
 * worker.c finds tasks and frames and never runs one; this file is the only
 * place a worker runs work outside a join (floor 5 of docs/design.md). */
#include <sched.h>

#include "fork_policy.h"
#include "frame_observe.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "scheduler.h"
#include "task.h"
#include "worker.h"

/* Spin, then yield, looking for work; NULL when it is time to park. */
static fj_task *worker_search(fj_worker *w)
{
    fj_pool *pool = w->pool;
    unsigned spin = pool->config.spin_rounds, yield = pool->config.yield_rounds;
    fj_task *t = NULL;
    idle_search_begin(&pool->idle);
    for (unsigned round = 0; round < spin + yield && !t; round++) {
        bool patient = round >= spin;
        t = worker_find_work(w, pool->config.steal_attempts, patient);
        if (t || pool_stopping(pool))
            break;
        if (patient)
            sched_yield();
        else
            for (int i = 0; i < 32; i++)
                cpu_relax();
    }
    idle_search_end(&pool->idle);
    return t;
}

static bool worker_should_wake(void *ctx)
{
    fj_worker *w = ctx;
    return pool_stopping(w->pool) || worker_pool_has_work(w);
}

static void worker_park(fj_worker *w)
{
    fj_pool *pool = w->pool;
    counter_add(&w->count.parks, 1);
    HOOK(w, HOOK_PARK, NULL, -1);
    /* Full (both): the quiescence test (java.c) reads idle_workers with
     * acquire; counting ourselves idle must not pass our last task's effects,
     * and counting ourselves active again must precede the work we take. */
    atomic_fetch_add_full(&pool->idle_workers, 1);
    /* A wake with nothing to take leaves us idle: a joiner's registration in
     * a task's status word outlives its timed park (task.c, point 4), so the
     * task's completion may wake this slot after it went idle.  Counting
     * ourselves active for it would make a quiescent pool look busy. */
    do
        idle_park(&pool->idle, w->slot, worker_should_wake, w);
    while (!worker_should_wake(w));
    atomic_fetch_add_full(&pool->idle_workers, (size_t)-1);
    counter_add(&w->count.wakeups, 1);
    HOOK(w, HOOK_WAKE, NULL, -1);
}

void *worker_main(void *arg)
{
    fj_worker *w = arg;
    fj_pool *pool = w->pool;
    fj__self = w;
    deque_set_owner(&w->deque, pthread_self());
    hooks_worker_start(w);
    fork_policy_worker_start(w);
    /* Hooks see every typed spawn: with one on, spawns take the slow path. */
    deque_set_spawn_slow(&w->deque, w->hooks != 0);
    frame_observe_start(w);
    /* Park before the first search: fj_pool_create waits until every worker
     * has parked (pool_lifecycle.c), and nothing can be submitted before it
     * returns.  Searching first held pool creation for the whole search, hours with a
     * large spin_rounds (bench/fj_micro.c's steal-spinning pool hung there). */
    worker_park(w);
    for (;;) {
        fj_task *t = worker_find_work(w, pool->config.steal_attempts, false);
        if (!t)
            t = worker_search(w);
        if (t) {
            task_execute(w, t);
            continue;
        }
        /* Stop only when nothing is left: destroy drained submissions first,
         * and non-strict leftovers in deques still get run. */
        if (pool_stopping(pool))
            break;
        worker_park(w);
    }
    hooks_worker_stop(w);
    fj__self = NULL;
    return NULL;
}
