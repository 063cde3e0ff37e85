/* dispatch.c - the public calls that decide where work runs: on a worker of
 * the pool, the task path (task_inline.h, frame.c); anywhere else, a
 * submission to a pool and a wait.  The floor above the pool (docs/design.md):
 * the task and frame layers below never call into a pool. */
#include <string.h>

#include "../include/fj_java.h"
#include "error.h"
#include "frame.h"
#include "task_inline.h"

/* fj_fork outside any worker: the task goes to the common pool. */
static __attribute__((noinline)) int task_fork_external(fj_task *t)
{
    fj_pool *common;
    int rc = fj__common_pool(&common);
    return rc ? rc : fj_pool_submit(common, t);
}

int fj_fork(fj_task *t)
{
    if (__builtin_expect(!TASK_RUNNABLE(t), 0))
        return task_refuse_unrunnable(__func__, t);
    fj_worker *w = fj__self;
    if (__builtin_expect(w != NULL, 1))
        return task_fork(w, t);
    return task_fork_external(t);
}

/* ---- a worker's join of a task of another pool ---- */

typedef struct task_blocker {
    fj_managed_blocker blocker;
    fj_task *t;
} task_blocker;

static int task_blocker_done(fj_managed_blocker *b)
{
    return status_is_done(task_status_acquire(((task_blocker *)b)->t));
}

static int task_blocker_wait(fj_managed_blocker *b)
{
    (void)task_wait_external(((task_blocker *)b)->t, -1);
    return 1;
}

/* t belongs to another pool, whose work this worker may not help with (task.c,
 * point 2), while its own pool's next task may be what t waits for: an FJ_RUN
 * into this pool from a task of that one (with one worker each, both waited
 * for ever).  So, as Java's join does, a wait that outlasts a short spin is a
 * managed block (managed_block.c): an idle worker of this pool is woken for
 * its queued tasks, or a spare started, for as long as the wait lasts.  Out
 * of line: fj_join's fast path keeps no room on the stack for the blocker. */
static __attribute__((noinline)) int join_not_ours(fj_worker *w, fj_task *t)
{
    unsigned status = task_status_acquire(t);
    if (task_pool(t) != w->pool && task_phase(status) != PHASE_NEW && !status_is_done(status) &&
        task_wait_external(t, task_monotonic_ns() + FJ_JOIN_PARK_NS_MIN) != 0) {
        task_blocker b = {{task_blocker_wait, task_blocker_done}, t};
        (void)fj_managed_block(&b.blocker);
    }
    return task_join_slow(w, t, NULL);  /* t's outcome, or the join as before */
}

int fj_join(fj_task *t)
{
    if (__builtin_expect(!t, 0))
        return error_null(__func__, "task");
    fj_worker *w = fj__self;
    if (__builtin_expect(w != NULL, 1))
        return task_join_or(w, t, join_not_ours);
    unsigned status = task_status_acquire(t);
    if (task_phase(status) == PHASE_NEW && !status_is_done(status))
        return (status & STATUS_CANCELLED) ? FJ_ECANCELED : FJ_ENOTFORKED;
    task_wait_external(t, -1);
    return task_outcome_of(t, task_status_acquire(t));
}

int fj_task_wait(fj_task *t, long long timeout_ns)
{
    if (!t)
        return error_null(__func__, "task");
    unsigned status = task_status_acquire(t);
    if (task_phase(status) == PHASE_NEW && !status_is_done(status))
        return (status & STATUS_CANCELLED) ? FJ_ECANCELED : FJ_ENOTFORKED;
    if (timeout_ns < 0)
        return fj_join(t);
    long long deadline = task_monotonic_ns() + timeout_ns;
    fj_worker *w = fj__self;
    int rc = w ? task_wait_helping(w, t, deadline) : task_wait_external(t, deadline);
    if (rc != 0)
        return FJ_ETIMEDOUT;
    return task_outcome_of(t, task_status_acquire(t));
}

/* A worker of `pool` runs t itself; any other thread submits it and waits
 * (a worker of another pool helps while it waits, in fj_join). */
int fj_pool_invoke(fj_pool *pool, fj_task *t)
{
    if (!pool)
        return error_null(__func__, "pool");
    if (!TASK_RUNNABLE(t))
        return task_refuse_unrunnable(__func__, t);
    fj_worker *self = fj__self;
    if (self && self->pool == pool)
        return fj_invoke(t);
    int rc = fj_pool_submit(pool, t);
    return rc ? rc : fj_join(t);
}

/* ---- FJ_RUN ---- */

typedef struct frame_root {
    fj_task task;
    fj_frame_fn run;
    void *data;
    size_t args_size, result_size;
} frame_root;

static int frame_root_run(fj_task *t)
{
    frame_root *r = FJ_CONTAINER_OF(t, frame_root, task);
    frame_run_here(fj__self, r->run, r->data, r->args_size, r->result_size);
    return 0;
}

int fj__run(fj_pool *pool, fj_frame_fn run, void *data, size_t args_size, size_t result_size)
{
    fj_worker *w = fj__self;
    if (w && (!pool || pool == w->pool)) {
        frame_run_here(w, run, data, args_size, result_size);
        return 0;
    }
    int rc = pool ? 0 : fj__common_pool(&pool);
    if (rc == 0) {
        frame_root root = {FJ_TASK_INIT(frame_root_run), run, data, args_size, result_size};
        rc = fj_pool_invoke(pool, &root.task);
    }
    if (rc != 0)
        memset(data, 0, result_size);  /* FJ_RUN's documented zero result */
    return rc;
}
