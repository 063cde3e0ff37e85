/* java_pool.c - the ForkJoinPool members fj.h does not already have:
 * execute, shutdownNow, awaitTermination, awaitQuiescence and the queries.
 * The quiescence test and the polling waits are java.c's. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "../include/fj_java.h"
#include "error.h"
#include "java.h"
#include "task.h"

/* ---- quiescence ---- */

/* A worker of `pool` waiting for its own pool's quiescence runs work meanwhile
 * (Java: helpQuiescePool), within the deadline. */
static int help_quiesce_until(fj_pool *pool, long long deadline_ns)
{
    fj_worker *w = fj__self;
    for (unsigned round = 0;;) {
        fj_task *t = worker_find_work(w, pool->config.steal_attempts, false);
        if (t) {
            task_execute(w, t);
            round = 0;
            continue;
        }
        java_count_add(pool, JAVA_QUIESCING, 1);
        bool quiet = java_pool_quiescent(pool);
        if (!quiet && !java_deadline_passed(deadline_ns))
            java_backoff(round++, deadline_ns);
        java_count_add(pool, JAVA_QUIESCING, -1);
        if (quiet)
            return 0;
        if (java_deadline_passed(deadline_ns))
            return FJ_ETIMEDOUT;
    }
}

int fj_pool_await_quiescence(fj_pool *pool, long long timeout_ns)
{
    if (!pool)
        return FJ_EINVAL;
    long long deadline = java_deadline_after(timeout_ns);
    if (fj__self && fj__self->pool == pool)
        return help_quiesce_until(pool, deadline);
    return java_await_quiescent(pool, deadline);
}

int fj_pool_is_quiescent(const fj_pool *pool) { return pool && java_pool_quiescent(pool); }

/* ---- lifecycle ---- */

int fj_pool_create_with_parallelism(fj_pool **pool, unsigned parallelism)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = parallelism;
    return fj_pool_create(pool, &config);
}

int fj_pool_create_with_async_mode(fj_pool **pool, unsigned parallelism, int async_mode)
{
    if (async_mode < 0 || async_mode > 1)
        return error_refuse(FJ_EINVAL, "async_mode=%d: expected 0 or 1", async_mode);
    int rc = fj_pool_create_with_parallelism(pool, parallelism);
    /* Before the pool is handed out: every worker is parked and nothing can
     * be submitted yet, so the first task any worker takes sees it. */
    if (rc == 0)
        atomic_store(&(*pool)->local_fifo, (size_t)async_mode);
    return rc;
}

int fj_pool_get_async_mode(const fj_pool *pool) { return pool && pool_local_fifo(pool); }

unsigned fj_common_pool_parallelism(void) { return fj_pool_worker_count(fj_common_pool()); }

int fj_pool_execute(fj_pool *pool, fj_task *task)
{
    if (!pool)
        return error_null(__func__, "pool");
    return TASK_RUNNABLE(task) ? fj_pool_submit(pool, task) : task_refuse_unrunnable(__func__, task);
}

int fj_pool_is_shutdown(const fj_pool *pool)
{
    /* Acquire: pairs with shutdown's full CAS; a true answer sees what the
     * shutting-down thread wrote before it. */
    return pool && !(atomic_load_acquire(&pool->state) & STATE_ACCEPTING);
}

/* Shut down and every accepted submission retired (state is exactly 0). */
static bool pool_drained(const fj_pool *pool) { return atomic_load_acquire(&pool->state) == 0; }

int fj_pool_is_terminated(const fj_pool *pool)
{
    return pool && !pool->is_common && pool_drained(pool) && java_pool_quiescent(pool);
}

/* Runs a task taken out of a queue as cancelled: the executor skips the body
 * and publishes completion (waking joiners, uncounting a submission). */
static void run_cancelled(fj_task *t)
{
    fj_task_cancel(t);  /* FJ_EINVAL if it failed first: it is aborted anyway */
    task_execute(NULL, t);
}

int fj_pool_shutdown_now(fj_pool *pool)
{
    if (!pool)
        return FJ_EINVAL;
    if (pool->is_common)
        return 0;
    fj_pool_shutdown(pool);
    int cancelled = 0;
    fj_task *t;
    while ((t = injector_take(&pool->injector)) != NULL) {
        run_cancelled(t);
        cancelled++;
    }
    /* Thieves may take from any deque, and so may we: the deque's lock and the
     * THE protocol make a concurrent pop by the owner safe. */
    for (unsigned i = 0; i < pool->count; i++) {
        while ((t = deque_steal(&pool->workers[i]->deque, true)) != NULL) {
            run_cancelled(t);
            cancelled++;
        }
    }
    return cancelled;
}

/* Waits on pool->drained (broadcast by the last pool_retire after shutdown)
 * in slices, so that a shutdown that found nothing to drain (no broadcast)
 * is noticed too. */
static int wait_drained(fj_pool *pool, long long deadline_ns)
{
    int rc = 0;
    pthread_mutex_lock(&pool->lifecycle_lock);
    while (!pool_drained(pool)) {
        if (java_deadline_passed(deadline_ns)) {
            rc = FJ_ETIMEDOUT;
            break;
        }
        long long slice = 10000000;  /* 10 ms */
        if (deadline_ns >= 0 && deadline_ns - task_monotonic_ns() < slice)
            slice = deadline_ns - task_monotonic_ns();
        if (slice < 0)
            slice = 0;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);  /* the condvar's default clock */
        long long ns = until.tv_nsec + slice;
        until.tv_sec += ns / 1000000000LL;
        until.tv_nsec = ns % 1000000000LL;
        pthread_cond_timedwait(&pool->drained, &pool->lifecycle_lock, &until);
    }
    pthread_mutex_unlock(&pool->lifecycle_lock);
    return rc;
}

int fj_pool_await_termination(fj_pool *pool, long long timeout_ns)
{
    if (!pool)
        return FJ_EINVAL;
    if (fj__self && fj__self->pool == pool)
        return FJ_EDEADLK;
    long long deadline = java_deadline_after(timeout_ns);
    if (pool->is_common)
        return fj_pool_await_quiescence(pool, timeout_ns);
    int rc = wait_drained(pool, deadline);
    if (rc)
        return rc;
    long long left = deadline < 0 ? FJ_NO_TIMEOUT : deadline - task_monotonic_ns();
    return fj_pool_await_quiescence(pool, left < 0 ? 0 : left);
}

/* ---- queries ---- */

unsigned fj_pool_get_parallelism(const fj_pool *pool) { return pool ? pool->count : 0; }

unsigned fj_pool_get_pool_size(const fj_pool *pool)
{
    /* Java's workers exit once the pool terminated; ours stay parked until
     * fj_pool_destroy, but none will ever run a task again. */
    if (!pool || fj_pool_is_terminated(pool))
        return 0;
    return pool->count + java_count_get(pool, JAVA_SPARES);
}

unsigned fj_pool_get_active_thread_count(const fj_pool *pool)
{
    if (!pool)
        return 0;
    size_t parked = atomic_load(&pool->idle_workers);
    unsigned workers = fj_pool_get_pool_size(pool);
    return parked < workers ? workers - (unsigned)parked : 0;
}

unsigned fj_pool_get_running_thread_count(const fj_pool *pool)
{
    if (!pool)
        return 0;
    unsigned active = fj_pool_get_active_thread_count(pool);
    /* Joiners parked in a join or a sync, and managed blockers. */
    size_t waiting = atomic_load(&pool->joiners_parked) + java_count_get(pool, JAVA_BLOCKED);
    return active > waiting ? active - (unsigned)waiting : 0;
}

long fj_pool_get_queued_task_count(const fj_pool *pool)
{
    if (!pool)
        return 0;
    long n = 0;
    for (unsigned i = 0; i < pool->count; i++)
        n += (long)deque_size(&pool->workers[i]->deque);
    return n;
}

long fj_pool_get_queued_submission_count(const fj_pool *pool)
{
    return pool ? (long)injector_size(&pool->injector) : 0;
}

int fj_pool_has_queued_submissions(const fj_pool *pool) { return fj_pool_get_queued_submission_count(pool) > 0; }

unsigned long long fj_pool_get_steal_count(const fj_pool *pool)
{
    fj_worker_stats total;
    if (fj_pool_stats(pool, NULL, 0, &total) < 0)
        return 0;
    return total.steals + total.leapfrogs;
}

/* ---- invokeAll / invokeAny of a collection (ExecutorService's) ---- */

static int tasks_check(const char *call, fj_task *const *tasks, size_t count)
{
    if (!tasks)  /* Java's null collection; an empty one is a non-NULL array, count 0 */
        return error_null(call, "tasks");
    for (size_t i = 0; i < count; i++) {
        if (!tasks[i])
            return error_refuse(FJ_EINVAL, "%s: task %zu is NULL", call, i);
        if (!tasks[i]->fn)
            return error_refuse(FJ_EINVAL, "%s: task %zu's fn is NULL (fj_task_init or FJ_TASK_INIT gave it no body)",
                                call, i);
    }
    return 0;
}

/* Cancels every task from `from` on that is not done, then waits for each:
 * a cancelled task may be running, and it may live in the caller's frame. */
static void cancel_rest_and_wait(fj_task *const *tasks, size_t from, size_t count)
{
    for (size_t i = from; i < count; i++)
        if (!fj_task_is_done(tasks[i]))
            fj_task_cancel(tasks[i]);
    for (size_t i = from; i < count; i++)
        (void)fj_join(tasks[i]);
}

/* Submits them all; on a refusal, cancels and waits for those submitted. */
static int submit_all(fj_pool *pool, fj_task *const *tasks, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        int rc = fj_pool_submit(pool, tasks[i]);
        if (rc != 0) {
            cancel_rest_and_wait(tasks, 0, i);
            return rc;
        }
    }
    return 0;
}

/* fj_pool_invoke_all_timed as `call`: the name its refusals give. */
static int invoke_all_timed_as(const char *call, fj_pool *pool, fj_task *const *tasks, size_t count,
                               long long timeout_ns)
{
    int rc = pool ? tasks_check(call, tasks, count) : error_null(call, "pool");
    if (rc == 0)
        rc = submit_all(pool, tasks, count);
    if (rc != 0)
        return rc;
    long long deadline = java_deadline_after(timeout_ns);
    for (size_t i = 0; i < count; i++) {
        if (deadline < 0) {
            (void)fj_task_get(tasks[i]);
            continue;
        }
        long long left = deadline - task_monotonic_ns();
        if (fj_task_get_timed(tasks[i], left < 0 ? 0 : left) == FJ_ETIMEDOUT) {
            cancel_rest_and_wait(tasks, i, count);
            break;
        }
    }
    return 0;
}

int fj_pool_invoke_all_timed(fj_pool *pool, fj_task *const *tasks, size_t count, long long timeout_ns)
{
    return invoke_all_timed_as(__func__, pool, tasks, count, timeout_ns);
}

int fj_pool_invoke_all(fj_pool *pool, fj_task *const *tasks, size_t count)
{
    return invoke_all_timed_as(__func__, pool, tasks, count, FJ_NO_TIMEOUT);
}

/* Waits a slice for task i (helping, on a worker); its outcome, or 1 if it
 * is not done yet. */
static int any_poll(fj_task *t, long long deadline)
{
    long long slice = 100000;  /* 100 us, then the next task */
    if (deadline >= 0 && deadline - task_monotonic_ns() < slice)
        slice = deadline - task_monotonic_ns();
    int rc = fj_task_get_timed(t, slice < 0 ? 0 : slice);
    return rc == FJ_ETIMEDOUT ? 1 : rc;
}

int fj_pool_invoke_any(fj_pool *pool, fj_task *const *tasks, size_t count, long long timeout_ns)
{
    if (!pool)
        return error_null(__func__, "pool");
    if (count == 0)
        return error_refuse(FJ_EINVAL, "%s: count=0 (Java's invokeAny of no task)", __func__);
    int rc = tasks_check(__func__, tasks, count);
    if (rc == 0)
        rc = submit_all(pool, tasks, count);
    if (rc != 0)
        return rc;
    long long deadline = java_deadline_after(timeout_ns);
    int last_error = 0;
    size_t failed = 0;
    bool *seen = calloc(count, sizeof *seen);
    if (!seen) {
        cancel_rest_and_wait(tasks, 0, count);
        return FJ_ENOMEM;
    }
    for (;;) {
        for (size_t i = 0; i < count; i++) {
            if (seen[i])
                continue;
            int outcome = any_poll(tasks[i], deadline);
            if (outcome == 0) {
                free(seen);
                cancel_rest_and_wait(tasks, 0, count);
                return (int)i;
            }
            if (outcome < 0) {
                seen[i] = true;
                last_error = outcome;
                failed++;
            }
        }
        if (failed == count) {
            free(seen);
            return last_error;
        }
        if (java_deadline_passed(deadline)) {
            free(seen);
            cancel_rest_and_wait(tasks, 0, count);
            return FJ_ETIMEDOUT;
        }
    }
}
