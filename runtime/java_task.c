/* java_task.c - the ForkJoinTask members fj.h does not already have.
 *
 * Almost all are thin: invokeAll is fork/invoke/join in Java's order, get is
 * a join, reinitialize is fj_task_init, quietlyComplete is a settle of the
 * status word (task_state.c), the poll/peek members are a deque pop or peek plus
 * the take-back that tryUnfork does.  The two with logic of their own are
 * getSurplusQueuedTaskCount (Java's estimate, from the deque size and the
 * pool's idle count) and helpQuiesce (run work until the pool is quiescent).
 */
#include <sched.h>
#include <string.h>

#include "../include/fj_java.h"
#include "error.h"
#include "java.h"
#include "task.h"
#include "worker.h"

int fj_result_copy(int outcome, const void *result, void *out, size_t size)
{
    if (outcome == 0 && out)
        memcpy(out, result, size);
    return outcome;
}

/* Cancels and waits for tasks that were forked but will not be joined for
 * their outcome: they may live on the caller's stack, so they must be done
 * (and no thread still running them) before the caller's frame goes away. */
static void cancel_and_wait(fj_task *const *tasks, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        fj_task_cancel(tasks[i]);
        (void)fj_join(tasks[i]);
    }
}

/* fj_invoke_all as `call`: the name its refusals give. */
static int invoke_all_as(const char *call, fj_task *const *tasks, size_t count)
{
    if (!tasks)
        return count ? error_null(call, "tasks") : 0;
    if (count == 0)
        return 0;
    /* Java throws NullPointerException for a null element; we refuse before
     * anything is forked, so no task is left running or half cancelled. */
    for (size_t i = 0; i < count; i++)
        if (!TASK_RUNNABLE(tasks[i]))
            return tasks[i] ? error_refuse(FJ_EINVAL, "%s: task %zu's fn is NULL (fj_task_init or FJ_TASK_INIT gave it no body)", call, i)
                            : error_refuse(FJ_EINVAL, "%s: task %zu is NULL", call, i);
    /* Fork the last first, so that tasks[1] is the newest in our deque and
     * its join below takes the fast path (Java forks in the same order). */
    for (size_t i = count; i-- > 1;) {
        int rc = fj_fork(tasks[i]);
        if (rc != 0) {
            cancel_and_wait(tasks, i + 1, count);
            return rc;
        }
    }
    int first = fj_invoke(tasks[0]);
    for (size_t i = 1; i < count; i++) {
        if (first != 0)  /* Java cancels the rest once one has failed */
            fj_task_cancel(tasks[i]);
        first = fj_first_error(first, fj_join(tasks[i]));
    }
    return first;
}

int fj_invoke_all(fj_task *const *tasks, size_t count) { return invoke_all_as(__func__, tasks, count); }

int fj_invoke_all2(fj_task *a, fj_task *b)
{
    fj_task *both[2] = {a, b};
    return invoke_all_as(__func__, both, 2);
}

int fj_task_get(fj_task *task) { return task ? fj_join(task) : error_null(__func__, "task"); }

/* A task never forked (or reinitialised, or taken back by tryUnfork) may be
 * forked by another thread while we wait, as in Java, where its timed get
 * simply times out if nobody does.  We poll until it leaves PHASE_NEW. */
static int wait_until_forked(const fj_task *task, long long deadline_ns)
{
    for (unsigned round = 0;; round++) {
        unsigned s = task_status_acquire(task);
        if (task_phase(s) != PHASE_NEW)
            return 0;
        if (task_monotonic_ns() >= deadline_ns)
            return FJ_ETIMEDOUT;
        java_backoff(round, deadline_ns);
    }
}

int fj_task_get_timed(fj_task *task, long long timeout_ns)
{
    if (!task)
        return error_null(__func__, "task");
    long long deadline = java_deadline_after(timeout_ns);
    if (deadline < 0)
        return fj_join(task);
    if (wait_until_forked(task, deadline) != 0)
        return FJ_ETIMEDOUT;
    /* fj_task_wait's own convention is "< 0: forever": never pass it one. */
    long long left = deadline - task_monotonic_ns();
    return fj_task_wait(task, left < 0 ? 0 : left);
}

void fj_task_quietly_join(fj_task *task) { (void)fj_join(task); }

void fj_task_quietly_invoke(fj_task *task) { (void)fj_invoke(task); }

int fj_task_reinitialize(fj_task *task)
{
    if (!task)
        return error_null(__func__, "task");
    /* FORKED means queued or running (also when cancelled while queued: it
     * still sits in a deque until someone takes it and publishes DONE). */
    if (task_phase(task_status_acquire(task)) == PHASE_FORKED)
        return FJ_EBUSY;
    fj_task_init(task, task->fn);
    return 0;
}

/* ---- tags (Java's ForkJoinTask tag): an atomic 16-bit word of the task ---- */

short fj_task_get_tag(const fj_task *task)
{
    /* Acquire: pairs with the CAS below, so the setter's earlier writes are
     * visible to whoever reads its tag. */
    return (short)atomic_load_acquire_u16(&task->fj_tag);
}

short fj_task_set_tag(fj_task *task, short tag)
{
    unsigned short old = atomic_load_acquire_u16(&task->fj_tag);
    for (;;) {
        /* Full: a tag set is the publication point of what the setter wrote. */
        unsigned short seen = atomic_cas_full_u16(&task->fj_tag, old, (unsigned short)tag);
        if (seen == old)
            return (short)old;
        old = seen;
    }
}

int fj_task_compare_and_set_tag(fj_task *task, short expect, short tag)
{
    /* Full, as fj_task_set_tag. */
    return atomic_cas_full_u16(&task->fj_tag, (unsigned short)expect, (unsigned short)tag) == (unsigned short)expect;
}

/* Java's reserve for thieves: with most workers busy, every queued task is
 * surplus; with many idle, keep a few back for them to steal (ForkJoinTask.
 * getSurplusQueuedTaskCount, JDK 8-21). */
static size_t thief_reserve(size_t parallelism, size_t active)
{
    if (active > parallelism / 2)
        return 0;
    if (active > parallelism / 4)
        return 1;
    if (active > parallelism / 8)
        return 2;
    if (active > parallelism / 16)
        return 4;
    return 8;
}

int fj_get_surplus_queued_task_count(void)
{
    fj_worker *w = fj__self;
    if (!w)
        return 0;
    size_t queued = deque_size(&w->deque);
    if (queued == 0)
        return 0;
    const fj_pool *pool = w->pool;
    size_t parked = atomic_load(&pool->idle_workers);
    size_t active = pool->count > parked ? pool->count - parked : 1;  /* we are active */
    size_t reserve = thief_reserve(pool->count, active);
    return queued > reserve ? (int)(queued - reserve) : 0;
}

int fj_get_queued_task_count(void)
{
    fj_worker *w = fj__self;
    return w ? (int)deque_size(&w->deque) : 0;
}

/* The worker's search order outside a join: own deque, injector, victims;
 * then the typed frames in its own deque, which no pop takes (only their
 * sync does, and that sync waits below us on this thread): taken from the
 * oldest, as a thief takes them, run in place, and their syncs find them
 * done.  Without this a typed task that called fj_help_quiesce with a spawn
 * unsynced waited for ever on one worker, where no thief can come.  The
 * steal is a thief's, under the lock, and no pop of ours is in flight, so
 * the deque's protocol holds as for any thief (tests/model: OWNER_STEALS). */
static fj_task *quiesce_find_work(fj_worker *w)
{
    fj_task *t = worker_find_work(w, w->pool->config.steal_attempts, false);
    /* Relaxed looks, as in deque_take_oldest: a look that comes out empty
     * by a thief's passing claim sends us to the quiescence test below as
     * any fruitless search does; it reads the queues again. */
    if (t || deque_top(&w->deque) <= deque_head(&w->deque))
        return t;
    worker_publish(w);  /* split mode: typed frames are private until published */
    return deque_steal(&w->deque, true);
}

void fj_help_quiesce(void)
{
    fj_worker *w = fj__self;
    if (!w) {
        fj_pool *common = fj_common_pool();
        if (common)
            (void)java_await_quiescent(common, -1);
        return;
    }
    /* We count as quiescing only while we found nothing and back off, so that
     * two workers both helping to quiesce excuse each other and neither waits
     * forever; we are uncounted again before we look for (and take) work, so a
     * task we take is never hidden from another worker's quiescence test. */
    for (unsigned round = 0;;) {
        fj_task *t = quiesce_find_work(w);
        if (t) {
            task_execute(w, t);
            round = 0;
            continue;
        }
        java_count_add(w->pool, JAVA_QUIESCING, 1);
        bool quiet = java_pool_quiescent(w->pool);
        if (!quiet)
            java_backoff(round++, -1);
        java_count_add(w->pool, JAVA_QUIESCING, -1);
        if (quiet)
            return;
    }
}

int fj_in_pool(void) { return fj__self != NULL; }

fj_pool *fj_get_pool(void) { return fj_current_pool(); }

int fj_task_quietly_complete(fj_task *task) { return task ? task_settle(task, STATUS_FORCED) : error_null(__func__, "task"); }

int fj_task_not_complete(fj_task *task) { return task_mark_completes_later(task); }

fj_task *fj_peek_next_local_task(void)
{
    fj_worker *w = fj__self;
    return w ? worker_peek_local(w) : NULL;
}

fj_task *fj_poll_next_local_task(void)
{
    fj_worker *w = fj__self;
    fj_task *t = w ? worker_take_local(w) : NULL;
    if (t)
        task_take_back(t);
    return t;
}

fj_task *fj_poll_task(void)
{
    fj_worker *w = fj__self;
    if (!w)
        return NULL;
    fj_task *t = fj_poll_next_local_task();
    if (t)
        return t;
    /* Another worker's oldest queued task, if one is there (Java: a task
     * forked by some other thread).  Submissions stay in the injector: one
     * taken out would never be uncounted, and destroy would wait for it. */
    for (unsigned i = 0; !t && i < w->pool->count; i++)
        t = worker_steal_random(w, false);
    if (t)
        task_take_back(t);
    return t;
}
