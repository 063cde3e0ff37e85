/* worker.c - how a worker finds work (the loop that runs it: scheduler.c).
 *
 * Order of search, cheapest and most local first:
 *   1. its own deque (LIFO: the newest task, still hot in cache; in a pool
 *      created in Java's asyncMode, FIFO: the oldest, see worker_take_local);
 *   2. the pool's injector (external submissions, FIFO);
 *   3. `steal_attempts` random victims, never itself (FIFO end: the oldest,
 *      usually the largest piece of work). */
#include <sched.h>

#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "task_state.h"
#include "worker.h"

__thread fj_worker *fj__self __attribute__((tls_model("initial-exec")));

fj_pool *fj_current_pool(void) { return fj__self ? fj__self->pool : NULL; }

fj_worker *fj__current_worker(void) { return fj__self; }

int fj_current_worker_index(void) { return fj__self ? (int)fj__self->index : -1; }

static uint64_t next_random(fj_worker *w)
{
    uint64_t x = w->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return w->rng = x;
}

fj_task *worker_take_injected(fj_worker *w)
{
    fj_task *t = injector_take(&w->pool->injector);
    if (t) {
        counter_add(&w->count.injector_takes, 1);
        HOOK(w, HOOK_INJECTOR_TAKE, t, -1);
    }
    return t;
}

fj_task *worker_steal_random(fj_worker *w, bool wait)
{
    fj_pool *pool = w->pool;
    if (pool->count < 2)
        return NULL;
    unsigned v = (unsigned)(next_random(w) % (pool->count - 1));
    if (v >= w->index)
        v++;  /* never ourselves */
    fj_worker *victim = pool->workers[v];
    if (deque_size(&victim->deque) == 0) {
        deque_ask_if_private(&victim->deque);
        return NULL;
    }
    /* One task, never a batch: extras kept in our deque would lie below the
     * floor of the task we run, where neither our joins nor their joiners
     * could reach them while we wait (task.c, point 2). */
    void *taken = deque_steal(&victim->deque, wait);
    if (!taken) {
        counter_add(&w->count.failed_steals, 1);
        return NULL;
    }
    HOOK(w, HOOK_STEAL, deque_is_tagged_frame(taken) ? deque_shadow(&victim->deque, deque_tagged_frame(taken)) : taken,
         (int)v);
    counter_add(&w->count.steals, 1);
    /* More left there: let a sleeper join in (ramps a pool up quickly). */
    if (deque_size(&victim->deque) > 0 && idle_should_signal(&pool->idle))
        idle_signal_work(&pool->idle);
    return taken;
}

void worker_publish(fj_worker *w)
{
    if (!deque_publish(&w->deque))
        return;
    /* StoreLoad between the publish and the sleeper test: pairs with
     * idle_park's fence_heavy(), a full fence in this mode (idle.c, point 1). */
    fence_full();
    if (idle_should_signal(&w->pool->idle))
        idle_signal_work(&w->pool->idle);
}

/* The worker's own next task outside a join: its newest, or in a pool created
 * in Java's asyncMode (for event-style tasks that nobody joins, which should
 * run in the order they were forked) its oldest.  Joins still take their child back from
 * the top (task.c).  A typed frame is never taken from below (deque.c, point
 * 10): when one is oldest (a typed task called fj_help_quiesce), the items
 * above it come newest first, so none of them is left behind. */
fj_task *worker_take_local(fj_worker *w)
{
    if (!pool_local_fifo(w->pool))
        return deque_pop(&w->deque);
    fj_task *t = deque_take_oldest(&w->deque);
    if (!t && deque_top(&w->deque) > deque_head(&w->deque))
        t = deque_pop(&w->deque);
    return t;
}

fj_task *worker_peek_local(const fj_worker *w)
{
    const deque *d = &w->deque;
    if (!pool_local_fifo(w->pool))
        return deque_peek_newest(d);
    fj_task *t = deque_peek_oldest(d);
    return t ? t : deque_peek_newest(d);
}

fj_task *worker_find_work(fj_worker *w, unsigned attempts, bool wait)
{
    fj_task *t = worker_take_local(w);
    if (!t)
        t = worker_take_injected(w);
    for (unsigned i = 0; !t && i < attempts; i++)
        t = worker_steal_random(w, wait);
    return t;
}

bool worker_pool_has_work(const fj_worker *w) { return worker_queues_have_work(w->pool); }

bool worker_queues_have_work(const fj_pool *pool)
{
    if (injector_size(&pool->injector) > 0)
        return true;
    for (unsigned i = 0; i < pool->count; i++)
        if (deque_size(&pool->workers[i]->deque) > 0)
            return true;
    return false;
}
