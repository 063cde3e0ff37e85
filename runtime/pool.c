/* pool.c - what a pool's workers and its callers share: admission and
 * shutdown on the state word, and external submissions.  (Creating and
 * destroying pools, and the common pool: pool_lifecycle.c.)
 *
 * Path of an external fj_pool_invoke(pool, t):
 *   pool_admit (one CAS on the state word: accepting? then count it) ->
 *   injector_push -> fence -> idle_signal_work (wake one sleeper) ->
 *   fj_join(t) (dispatch.c: fj_pool_invoke) blocks on t's futex word (or helps,
 *   on a worker of another pool)
 *   -> the worker that ran t publishes DONE, wakes us, and pool_retire uncounts.
 */
#include "error.h"
#include "pool.h"
#include "task_state.h"

int pool_admit(fj_pool *pool)
{
    size_t s = atomic_load(&pool->state);
    for (;;) {
        if (!(s & STATE_ACCEPTING))
            return FJ_ESHUTDOWN;
        /* Full: the count and the accepting test change together; shutdown's
         * CAS on the same word orders every admission before or after it. */
        size_t seen = atomic_cas_full(&pool->state, s, s + STATE_ONE);
        if (seen == s)
            return 0;
        s = seen;
    }
}

void pool_stop_accepting(fj_pool *pool)
{
    size_t s = atomic_load(&pool->state);
    while (s & STATE_ACCEPTING) {
        /* Full, on the same word as pool_admit's CAS: every admission is
         * ordered before or after shutdown, never across it. */
        size_t seen = atomic_cas_full(&pool->state, s, s & ~STATE_ACCEPTING);
        if (seen == s)
            break;
        s = seen;
    }
}

int fj_pool_shutdown(fj_pool *pool)
{
    if (!pool)
        return error_null(__func__, "pool");
    /* Java ignores shutdown() of the common pool: it serves every later
     * fork from outside a pool, until the process exits. */
    if (!pool->is_common)
        pool_stop_accepting(pool);
    return 0;
}

void pool_wait_drained(fj_pool *pool)
{
    pthread_mutex_lock(&pool->lifecycle_lock);
    /* Acquire: pairs with the full decrement in pool_retire, so every
     * submission's writes happen-before destroy returns. */
    while (atomic_load_acquire(&pool->state) != 0)
        pthread_cond_wait(&pool->drained, &pool->lifecycle_lock);
    pthread_mutex_unlock(&pool->lifecycle_lock);
}

int fj_pool_submit(fj_pool *pool, fj_task *t)
{
    if (!pool)
        return error_null(__func__, "pool");
    if (!TASK_RUNNABLE(t))
        return task_refuse_unrunnable(__func__, t);
    /* Relaxed, as fork's test: the caller owns t until it is queued; an
     * abort racing the submission is an abort of a queued task. */
    unsigned old = atomic_load_u32(task_status(t));
    if (task_phase(old) == PHASE_FORKED)
        return FJ_EBUSY;
    int rc = pool_admit(pool);
    if (rc)
        return rc;
    if (old & STATUS_SETTLED) {
        /* Cancelled or failed before the submission: already complete, it is
         * not queued and does not run; its join reports the abort. */
        pool_retire(pool);
        return 0;
    }
    atomic_store_u32(task_status(t), PHASE_FORKED);
    t->fj_error = 0;
    t->fj_owner = NULL;
    t->fj_thief = -1;
    t->fj_flags = TASK_FLAG_EXTERNAL;
    t->fj_pool = pool;
    if (injector_push(&pool->injector, t) != 0) {
        atomic_store_u32(task_status(t), PHASE_NEW);
        pool_retire(pool);
        return FJ_ENOMEM;
    }
    /* StoreLoad between the queued task and the sleeper test; pairs with
     * fence_heavy() in idle_park.  Submissions are rare: a full fence is fine. */
    fence_full();
    idle_signal_work(&pool->idle);
    return 0;
}

unsigned fj_pool_worker_count(const fj_pool *pool) { return pool ? pool->count : 0; }
