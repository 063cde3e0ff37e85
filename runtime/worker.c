/* worker.c - how a worker finds work (the loop that runs it: scheduler.c).
 *
 * Order of search, cheapest and most local first:
 *   1. its own deque (LIFO: the newest task, still hot in cache);
 *   2. the pool's injector (external submissions, FIFO);
 *   3. `steal_attempts` random victims, never itself (FIFO end: the oldest,
 *      usually the largest piece of work). */
#include <sched.h>

#include "frame.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "task.h"
#include "worker.h"

__thread fj_worker *fj_self __attribute__((tls_model("initial-exec")));

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
        task_set_thief(t, (int)w->index);
        counter_add(&w->count.injector_takes, 1);
        HOOK(w, HOOK_INJECTOR_TAKE, t, -1);
    }
    return t;
}

/* Keeps the extra tasks of a batch steal in our own deque, where we run them
 * next (LIFO) unless other thieves take them first.  Only the scheduler loop
 * steals batches: a joiner's deque stays free of other workers' tasks. */
static void worker_keep_extras(fj_worker *w, fj_task **extras, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (deque_push(&w->deque, extras[i]) != DEQUE_PUSHED)
            task_execute(w, extras[i]);  /* out of memory: run it now, lose nothing */
    }
    /* As after a fork: a sleeper may now find work here (pairs with idle_park). */
    fence_light();
    if (count && idle_should_signal(&w->pool->idle))
        idle_signal_work(&w->pool->idle);
}

fj_task *worker_steal_random(fj_worker *w, bool wait, size_t batch)
{
    fj_pool *pool = w->pool;
    if (pool->count < 2)
        return NULL;
    unsigned v = (unsigned)(next_random(w) % (pool->count - 1));
    if (v >= w->index)
        v++;  /* never ourselves */
    fj_worker *victim = pool->workers[v];
    if (deque_size(&victim->deque) == 0)
        return NULL;
    void *taken[FJ_STEAL_BATCH_MAX];
    size_t got = deque_steal_batch(&victim->deque, wait, taken, batch < FJ_STEAL_BATCH_MAX ? batch : FJ_STEAL_BATCH_MAX);
    if (!got) {
        counter_add(&w->count.failed_steals, 1);
        return NULL;
    }
    for (size_t i = 0; i < got; i++) {
        task_set_thief(taken[i], (int)w->index);
        HOOK(w, HOOK_STEAL, deque_is_tagged_frame(taken[i]) ? frame_shadow(w, deque_tagged_frame(taken[i])) : taken[i],
             (int)v);
    }
    counter_add(&w->count.steals, got);
    worker_keep_extras(w, (fj_task **)taken + 1, got - 1);
    /* More left there: let a sleeper join in (ramps a pool up quickly). */
    if (deque_size(&victim->deque) > 0 && idle_should_signal(&pool->idle))
        idle_signal_work(&pool->idle);
    return taken[0];
}

fj_task *worker_find_work(fj_worker *w, unsigned attempts, bool wait)
{
    fj_task *t = deque_pop(&w->deque);
    if (!t)
        t = worker_take_injected(w);
    for (unsigned i = 0; !t && i < attempts; i++)
        t = worker_steal_random(w, wait, FJ_STEAL_BATCH_MAX);
    return t;
}

bool worker_pool_has_work(const fj_worker *w)
{
    const fj_pool *pool = w->pool;
    if (injector_size(&pool->injector) > 0)
        return true;
    for (unsigned i = 0; i < pool->count; i++)
        if (deque_size(&pool->workers[i]->deque) > 0)
            return true;
    return false;
}
