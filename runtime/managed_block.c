/* managed_block.c - ForkJoinPool.managedBlock: keeping parallelism up while a
 * task blocks.
 *
 * Design overview
 * ===============
 * The ideal, as in Java's tryCompensate:
 *
 *     managed_block(b):  if b is releasable: return
 *                        if some worker is idle: wake it for our queued tasks
 *                        else: start a spare worker
 *                        block until b says done
 *                        retire the spare
 *
 * Complications:
 * 1. The pool's worker array is fixed at creation (pool_lifecycle.c) and thieves pick
 *    victims from it, so a spare cannot be listed there without changing the
 *    core.  A spare is instead an fj_worker of its own, outside the array,
 *    that *borrows the blocked worker's index*.  Tasks it runs name no thief
 *    (worker_is_member is false for it), so their joiners do not leapfrog on
 *    the blocked worker's deque, which the spare drains first anyway.  Its own deque is private: only it
 *    pops from it (every join of its own forks is a fast-path pop), and it
 *    empties it before it stops.
 * 2. A spare never parks listed in the pool's idle stack (that stack has room
 *    for the pool's workers only): in a join it parks unlisted, as every
 *    joiner does (task.c, point 4), and with nothing to do in its own loop it
 *    polls with a short timed futex wait on its stop word.
 * 3. Stopping.  When block() returns, the blocked thread sets the stop word and
 *    joins the spare's thread.  The spare finishes the task it is running and
 *    the tasks still in its own deque (so none is stranded), then exits.  The
 *    caller therefore returns after that task: in a fully strict program it
 *    cannot wait on the caller (the caller is blocked in pthread_join, not
 *    holding anything a task of the pool could need).
 * 4. Memory.  A task forked by a spare keeps a pointer to the spare's fj_worker
 *    (fj_owner) for as long as the task exists, so spare structs are never
 *    freed: they go to a free list and are reused, like Java's spare threads.
 * Summary: 1. every task a spare took or forked is run before it stops; 2. the
 * blocked worker's queued tasks are taken first; 3. a spare never overflows
 * the pool's idle bookkeeping; 4. no spare memory is freed under a task.
 */
#include <stdlib.h>
#include <string.h>

#include "../include/fj_java.h"
#include "futex.h"
#include "idle.h"
#include "java.h"
#include "task.h"
#include "worker.h"

typedef struct spare {
    fj_worker *worker;     /* aligned like the pool's workers, reused */
    fj_worker *blocked;    /* the worker it stands in for */
    atomic_u32 stop;       /* futex word: 1 = finish up and exit */
    pthread_t thread;
    struct spare *next;    /* free list */
} spare;

static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static spare *spare_free_list;

/* Java's bound on compensation threads (ForkJoinPool MAX_SPARES). */
#define SPARES_MAX_PER_POOL 256u

static spare *spare_new(void)
{
    spare *s = calloc(1, sizeof *s);
    size_t size = (sizeof(fj_worker) + FJ_CACHE_LINE - 1) / FJ_CACHE_LINE * FJ_CACHE_LINE;
    fj_worker *w = s ? aligned_alloc(FJ_CACHE_LINE, size) : NULL;
    if (!w || (memset(w, 0, sizeof *w), deque_init(&w->deque, 0) != 0)) {
        free(w);
        free(s);
        return NULL;
    }
    if (parker_slots_reserve(1, &w->slot) != 0) {
        deque_destroy(&w->deque);
        free(w);
        free(s);
        return NULL;
    }
    s->worker = w;
    return s;
}

static spare *spare_get(void)
{
    pthread_mutex_lock(&spare_lock);
    spare *s = spare_free_list;
    if (s)
        spare_free_list = s->next;
    pthread_mutex_unlock(&spare_lock);
    return s ? s : spare_new();
}

static void spare_put(spare *s)
{
    pthread_mutex_lock(&spare_lock);
    s->next = spare_free_list;
    spare_free_list = s;
    pthread_mutex_unlock(&spare_lock);
}

/* Makes the spare's worker stand in for `blocked` (point 1, 2). */
static void spare_prepare(spare *s, fj_worker *blocked)
{
    fj_worker *w = s->worker;
    s->blocked = blocked;
    atomic_store_u32(&s->stop, 0);
    w->pool = blocked->pool;
    deque_set_idle(&w->deque, (const volatile unsigned long *)&w->pool->idle.sleepers);
    w->index = blocked->index;
    w->hooks = 0;
    w->help_depth = 0;
    w->rng = blocked->rng ^ 0x94d049bb133111ebull;
    if (!w->rng)
        w->rng = 1;
    atomic_store(&w->run_floor, (size_t)deque_top(&w->deque));
}

/* Acquire: pairs with the release in spare_retire. */
static bool spare_stopping(spare *s) { return atomic_load_acquire_u32(&s->stop) != 0; }

/* Work for a spare: its own deque, then the blocked worker's queued tasks,
 * then the usual search (injector, random victims).  Once stopping, only its
 * own deque, which must be emptied. */
static fj_task *spare_find_work(spare *s)
{
    fj_worker *w = s->worker;
    fj_task *t = deque_pop(&w->deque);
    if (t || spare_stopping(s))
        return t;
    t = deque_steal(&s->blocked->deque, false);
    if (t)
        return t;
    return worker_find_work(w, w->pool->config.steal_attempts, false);
}

static void spare_idle(spare *s, unsigned round)
{
    if (round < 64) {
        cpu_relax();
        return;
    }
    /* A short timed sleep: nobody wakes a spare for new work (it is not on the
     * idle stack), so it polls; the stop store wakes it at once. */
    struct timespec pause = {0, 200000};
    futex_wait(&s->stop, 0, &pause);
}

static void *spare_main(void *arg)
{
    spare *s = arg;
    fj_worker *w = s->worker;
    fj__self = w;
    deque_set_owner(&w->deque, pthread_self());
    unsigned round = 0;
    for (;;) {
        fj_task *t = spare_find_work(s);
        if (t) {
            task_execute(w, t);
            round = 0;
        } else if (spare_stopping(s)) {
            break;
        } else {
            spare_idle(s, round++);
        }
    }
    fj__self = NULL;
    return NULL;
}

/* Starts a spare for blocked worker `w`, or returns NULL when an idle worker
 * can take over instead, the spare limit is reached, or no thread starts. */
static spare *compensate(fj_worker *w)
{
    fj_pool *pool = w->pool;
    if (atomic_load(&pool->idle_workers) > 0) {
        /* A parked worker can take our queued tasks: wake one for them. */
        if (deque_size(&w->deque) > 0) {
            fence_full();  /* our queued tasks before the sleeper test; pairs with idle_park */
            idle_signal_work(&pool->idle);
        }
        return NULL;
    }
    if (java_count_get(pool, JAVA_SPARES) >= SPARES_MAX_PER_POOL)
        return NULL;
    spare *s = spare_get();
    if (!s)
        return NULL;
    spare_prepare(s, w);
    /* Counted before it starts, so that getPoolSize() seen by a task the
     * spare runs includes the spare. */
    java_count_add(pool, JAVA_SPARES, 1);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, pool->config.stack_size);
    int rc = pthread_create(&s->thread, &attr, spare_main, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        java_count_add(pool, JAVA_SPARES, -1);
        spare_put(s);
        return NULL;
    }
    return s;
}

static void spare_retire(spare *s)
{
    /* Release: pairs with the acquire in spare_stopping. */
    atomic_store_release_u32(&s->stop, 1);
    futex_wake(&s->stop, 1);
    pthread_join(s->thread, NULL);
    java_count_add(s->worker->pool, JAVA_SPARES, -1);
    spare_put(s);
}

static bool releasable(fj_managed_blocker *b) { return b->is_releasable && b->is_releasable(b); }

int fj_managed_block(fj_managed_blocker *blocker)
{
    if (!blocker || !blocker->block)
        return FJ_EINVAL;
    if (releasable(blocker))
        return 0;
    fj_worker *w = fj__self;
    if (w)
        worker_publish(w);  /* split mode: a frame the blocker waits for may be private */
    spare *s = w ? compensate(w) : NULL;
    if (w)
        java_count_add(w->pool, JAVA_BLOCKED, 1);
    int rc;
    do {
        rc = blocker->block(blocker);
    } while (rc == 0 && !releasable(blocker));
    if (w)
        java_count_add(w->pool, JAVA_BLOCKED, -1);
    if (s)
        spare_retire(s);
    return rc < 0 ? rc : 0;
}
