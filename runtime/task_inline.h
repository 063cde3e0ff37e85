/* task_inline.h - the fork/join fast path (the slow paths are in task.c).
 *
 * Path 1 of docs/design.md, a fork and its join on one worker:
 *   fj_fork(t):  mark t FORKED, push on the worker's deque, wake a sleeper only
 *                if one sleeps and nobody is searching.
 *   fj_join(t):  pop; it is t; run t's body inline; store DONE into t's phase
 *                byte; return.  No lock, no atomic read-modify-write on t.
 */
#ifndef FJ_TASK_INLINE_H
#define FJ_TASK_INLINE_H

#include <limits.h>

#include "futex.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "task.h"
#include "worker.h"

#define FJ_ALWAYS_INLINE static inline __attribute__((always_inline))

int task_fork_slow(fj_worker *w, fj_task *t);
int task_fork_grow(fj_worker *w, fj_task *t);
int task_fork_wake(fj_worker *w);
int task_join_slow(fj_worker *w, fj_task *t, fj_task *popped);
int task_run_popped_slow(fj_worker *w, fj_task *t);
int task_finish_popped_slow(fj_worker *w, fj_task *t, int rc);
int task_popped_aftermath(fj_task *t);

FJ_ALWAYS_INLINE int task_fork(fj_worker *w, fj_task *t)
{
    /* Queued or running: refused.  Settled and complete (cancelled, failed
     * or quietly completed before the fork): it stays complete and is not
     * queued, so the abort is not lost and the body never runs (Java's fork
     * of a cancelled task: its join reports the cancellation).  Relaxed: only
     * this thread forks t; an abort racing the fork aborts a queued task. */
    /* Acquire (a plain load on x86): a re-fork of a task whose executor
     * published DONE comes after that executor's last reads of the task
     * (task_execute reads fj_flags before its CAS); TSan found the race. */
    unsigned old = atomic_load_acquire_u32(task_status(t));
    if (__builtin_expect((task_phase(old) == PHASE_FORKED) | ((old & STATUS_SETTLED) != 0), 0))
        return task_phase(old) == PHASE_FORKED ? FJ_EBUSY : 0;
    /* Plain stores: nobody else can see t until the push below publishes it.
     * fj_thief is reset: a joiner leapfrogs on the worker it names, which
     * must be the one running this fork of t (task.c, point 2). */
    atomic_store_u32(task_status(t), PHASE_FORKED);
    atomic_store_u32((atomic_u32 *)&t->fj_thief, (unsigned)-1);
    if (__builtin_expect(t->fj_error != 0, 0))
        t->fj_error = 0;
    t->fj_owner = w;
    t->fj_flags = 0;
    if (__builtin_expect(w->hooks != 0, 0))
        return task_fork_slow(w, t);
    counter_add(&w->count.forks, 1);
    /* Every exit from here on is a tail call or a return, so the compiler can
     * keep the fast path free of a stack frame (shrink-wrapping). */
    if (__builtin_expect(!deque_push_fast(&w->deque, t), 0))
        return task_fork_grow(w, t);
    /* StoreLoad between the push (tail store) and the sleeper test: pairs with
     * fence_heavy() in idle_park, so a worker going to sleep sees this task or
     * we see it sleeping. */
    fence_light();
    if (__builtin_expect(idle_should_signal(&w->pool->idle), 0))
        return task_fork_wake(w);
    return 0;
}

/* Runs t, which this worker's join just popped, and publishes its completion
 * with a byte store.  Safe without a CAS because we are t's joiner: t stays
 * valid until we return, so reading its status after the store is fine.
 * Anything unusual (hooks on, t aborted, an error, a waiter registered, a
 * concurrent cancel) leaves the fast path for task.c. */
FJ_ALWAYS_INLINE int task_run_popped_by_joiner(fj_worker *w, fj_task *t, unsigned status)
{
    /* `status` was read before the pop.  An abort that lands after that read
     * is an abort of a running task, which join reports (ECANCELED / the
     * error) after the body, exactly as one landing a moment after the call. */
    if (__builtin_expect((status & STATUS_SETTLED) | w->hooks, 0))
        return task_run_popped_slow(w, t);
    int rc = t->fn(t);
    if (__builtin_expect(rc != 0, 0))
        return task_finish_popped_slow(w, t, rc);
    counter_add(&w->count.inline_joins, 1);
    /* Release: the body's writes happen-before any thread that acquires DONE. */
    atomic_store_release_u8(task_phase_byte(t), PHASE_DONE);
    /* StoreLoad: DONE vs a waiter's registration; pairs with fence_heavy() in
     * the waiters (task.c join_park, task_state.c task_wait_external). */
    fence_light();
    /* Any bit above the phase: a waiter to wake or an abort to report. */
    if (__builtin_expect(task_status_above_phase(t), 0))
        return task_popped_aftermath(t);
    return 0;
}

/* The pool t was forked in or submitted to (NULL if it never was). */
static inline fj_pool *task_pool(const fj_task *t)
{
    const fj_worker *owner = t->fj_owner;
    return owner ? owner->pool : (fj_pool *)t->fj_pool;
}

/* The join of t on worker w, with the case "t is not this worker's to pop"
 * (forked by another worker, submitted, never forked, or complete) handed to
 * `not_ours`: task_join_not_ours, or a caller's own way (fj_join's, for a
 * task of another pool: dispatch.c).  A constant function, so the call is a
 * direct one once inlined; the fast path is the same either way. */
FJ_ALWAYS_INLINE int task_join_or(fj_worker *w, fj_task *t, int (*not_ours)(fj_worker *, fj_task *))
{
    unsigned status = task_status_acquire(t);
    if (__builtin_expect(task_phase(status) != PHASE_FORKED || t->fj_owner != w, 0))
        return not_ours(w, t);
    fj_task *popped = deque_pop(&w->deque);
    if (__builtin_expect(popped == t, 1))
        return task_run_popped_by_joiner(w, t, status);
    return task_join_slow(w, t, popped);
}

static inline int task_join_not_ours(fj_worker *w, fj_task *t) { return task_join_slow(w, t, NULL); }

FJ_ALWAYS_INLINE int task_join(fj_worker *w, fj_task *t) { return task_join_or(w, t, task_join_not_ours); }

#endif
