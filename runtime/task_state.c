/* task_state.c - the status word of an fj_task (task_state.h): publishing a
 * completion, settling (cancel, fail, quiet completion), completion later,
 * the outcome, and waiting for completion from outside a pool.  Nothing here
 * runs a task or looks at a deque: the executor (execute.c) and the fork and
 * join paths (task_inline.h, task.c) stand above it.  The arguments for the
 * orderings are those of task.c's overview (points 4 to 6), which the Spin
 * model tests/model/task.pml checks. */
#include <time.h>

#include "error.h"
#include "futex.h"
#include "idle.h"
#include "task_state.h"

int task_refuse_unrunnable(const char *call, const fj_task *t)
{
    if (!t)
        return error_null(call, "task");
    return error_refuse(FJ_EINVAL, "%s: the task's fn is NULL (fj_task_init or FJ_TASK_INIT gave it no body)", call);
}

int task_record_error(fj_task *t, int error)
{
    /* Full: the first error wins, and it is stored before the phase or flag
     * that makes joiners read it (release/CAS of the status word after it). */
    return atomic_cas_full_u32((atomic_u32 *)&t->fj_error, 0, (unsigned)error) == 0;
}

long long task_monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Publishes completion and wakes waiters; t may be freed as soon as the CAS
 * lands, so everything after it uses only values read by the CAS. */
static void task_wake_waiters(atomic_u32 *status, unsigned old)
{
    if (old >> STATUS_WAITER_SHIFT)
        parker_wake((old >> STATUS_WAITER_SHIFT) - 1);
    if (old & STATUS_FUTEX_WAITERS)
        futex_wake(status, INT_MAX);  /* does not read t: safe after free */
}

/* Moves the phase to `phase` (DONE or DONE_ERROR) with one CAS and returns
 * the word it replaced in *old; with `unless_done`, writes nothing and
 * returns false if the task is done already. */
static bool task_cas_phase(atomic_u32 *status, unsigned char phase, bool unless_done, unsigned *old)
{
    /* Relaxed: only the CAS's first guess; a stale word makes the CAS fail
     * and return the current one, and the loop decides on that. */
    unsigned s = atomic_load_u32(status);
    for (;;) {
        if (unless_done && status_is_done(s))
            return false;
        unsigned desired = (s & ~STATUS_PHASE_MASK) | phase;
        /* Full: releases the writes of the task (its body; for a completer,
         * its completers' results and on_completion too) to whoever acquires
         * DONE, pairing with the acquire of every join, get and is_done.
         * Being a CAS, it returns the waiters registered before it (point 6),
         * and fails if one registers meanwhile. */
        unsigned seen = atomic_cas_full_u32(status, s, desired);
        if (seen == s) {
            *old = s;
            return true;
        }
        s = seen;
    }
}

void task_publish(fj_task *t, unsigned char phase)
{
    atomic_u32 *status = task_status(t);
    unsigned old;
    task_cas_phase(status, phase, false, &old);
    task_wake_waiters(status, old);  /* t may be gone now */
}

int task_complete_later(fj_task *t, int error)
{
    atomic_u32 *status = task_status(t);
    /* Relaxed: a done task never becomes undone and nothing of it is read
     * after this answer; "not done" is decided again by the CAS. */
    if (status_is_done(atomic_load_u32(status)))
        return 0;
    unsigned char phase = PHASE_DONE;
    if (error < 0) {
        task_record_error(t, error);  /* before the CAS that makes joiners read it */
        phase = PHASE_DONE_ERROR;
    }
    unsigned old;
    if (!task_cas_phase(status, phase, true, &old))
        return 0;
    task_wake_waiters(status, old);  /* t may be gone now */
    return 1;
}

int task_wait_external(fj_task *t, long long deadline_ns)
{
    atomic_u32 *status = task_status(t);
    /* Acquire loads of the status word throughout: see task_status_acquire. */
    for (unsigned spin = 0; spin < 256; spin++) {
        if (status_is_done(atomic_load_acquire_u32(status)))
            return 0;
        cpu_relax();
    }
    for (;;) {
        unsigned s = atomic_load_acquire_u32(status);
        if (status_is_done(s))
            return 0;
        if (!(s & STATUS_FUTEX_WAITERS)) {
            /* Full: the flag is visible before our final check below. */
            if (atomic_cas_full_u32(status, s, s | STATUS_FUTEX_WAITERS) != s)
                continue;
            s |= STATUS_FUTEX_WAITERS;
        }
        /* StoreLoad against the fast-path completion (store phase byte,
         * fence_light, load waiters) in task_run_popped_by_joiner. */
        fence_heavy();
        s = atomic_load_acquire_u32(status);
        if (status_is_done(s))
            return 0;
        struct timespec limit, *timeout = NULL;
        if (deadline_ns >= 0) {
            long long left = deadline_ns - task_monotonic_ns();
            if (left <= 0)
                return FJ_ETIMEDOUT;
            limit.tv_sec = left / 1000000000LL;
            limit.tv_nsec = left % 1000000000LL;
            timeout = &limit;
        }
        futex_wait(status, s, timeout);
    }
}

void fj_task_init(fj_task *t, fj_task_fn fn)
{
    t->fn = fn;
    atomic_store_u32(task_status(t), PHASE_NEW);
    t->fj_error = 0;
    t->fj_thief = -1;
    t->fj_flags = 0;
    t->fj_tag = 0;
    t->fj_owner = NULL;
    t->fj_pool = NULL;
    t->fj_tool[0] = t->fj_tool[1] = 0;
}

int fj_task_is_done(const fj_task *t)
{
    /* Only the phase: a task cancelled or failed while queued or running is
     * done once its executor published completion (no thread runs it then,
     * so it may be freed).  An abort of a task never forked sets DONE itself. */
    return status_is_done(task_status_acquire(t));
}

int fj_task_is_cancelled(const fj_task *t) { return (task_status_acquire(t) & STATUS_CANCELLED) != 0; }

int fj_task_is_completed_abnormally(const fj_task *t)
{
    unsigned s = task_status_acquire(t);
    return (s & STATUS_ABORTED) != 0 || (task_phase(s) == PHASE_DONE_ERROR && !(s & STATUS_FORCED));
}

int fj_task_is_completed_normally(const fj_task *t)
{
    unsigned s = task_status_acquire(t);
    return status_is_done(s) && task_outcome_of(t, s) == 0;
}

int fj_task_outcome(const fj_task *t)
{
    if (!t)
        return error_null(__func__, "task");
    unsigned s = task_status_acquire(t);
    if (!status_is_done(s))
        return 1;
    return task_outcome_of(t, s);
}

/* A forked task: announce the settle, then decide after a heavy fence
 * whether the task's completion came first.  The inline joiner stores DONE
 * with a plain byte store and then, after only fence_light, reads the flags
 * once (task_run_popped_by_joiner): a CAS that still saw FORKED could
 * otherwise land after the joiner had returned 0 (the Spin model's
 * counterexample, tests/model/task.pml).  With the announcement and the
 * barrier between it and our look at the phase (the pair of point 5 of the
 * overview): either the joiner's flag load comes after the barrier and sees
 * SETTLE_PENDING, so it waits for our decision and reports it, or its DONE
 * store came before the barrier and we see DONE, and the settle fails. */
static int task_settle_forked(fj_task *t, unsigned seen, unsigned flag)
{
    atomic_u32 *status = task_status(t);
    /* Full: the announcement is visible before the barrier below. */
    if (atomic_cas_full_u32(status, seen, seen | STATUS_SETTLE_PENDING) != seen)
        return 1;  /* the word changed: look again */
    fence_heavy();
    for (;;) {
        unsigned now = atomic_load_u32(status);
        unsigned decided = now | flag;
        if (status_is_done(now))
            decided = now;
        else if (task_phase(now) == PHASE_NEW)  /* taken back meanwhile (try_unfork): complete it */
            decided = (decided & ~STATUS_PHASE_MASK) | PHASE_DONE;
        else if (now & STATUS_COMPLETES_LATER)  /* its body returned: we publish (point 6) */
            decided = (decided & ~STATUS_PHASE_MASK) | PHASE_DONE;
        /* Full: releases fj_error (fj_task_fail) with the flag; a CAS, so
         * a completion published meanwhile by a CAS makes us look again.
         * Publishing DONE, it also returns the waiters to wake. */
        if (atomic_cas_full_u32(status, now, decided & ~STATUS_SETTLE_PENDING) == now) {
            if (status_is_done(now))
                return FJ_EINVAL;
            if (now & STATUS_COMPLETES_LATER)
                task_wake_waiters(status, now);  /* t may be gone now */
            return 0;
        }
    }
}

/* The status word once no settle is deciding (task_settle_forked holds
 * SETTLE_PENDING for a CAS, a barrier and a CAS: a few microseconds).
 * Relaxed: the caller's next step is a full CAS against this value, which
 * fails and looks again if the word moved. */
static unsigned status_load_undecided(atomic_u32 *status)
{
    unsigned s = atomic_load_u32(status);
    while (s & STATUS_SETTLE_PENDING) {
        cpu_relax();
        s = atomic_load_u32(status);
    }
    return s;
}

/* Sets `flag` (CANCELLED, FAILED or FORCED) while the task is not complete
 * and not settled otherwise.  A task never forked is marked
 * complete at the same time, since no executor will ever publish it. */
int task_settle(fj_task *t, unsigned flag)
{
    atomic_u32 *status = task_status(t);
    for (;;) {
        unsigned s = status_load_undecided(status);
        if ((s & STATUS_CANCELLED) && flag == STATUS_CANCELLED)
            return 0;  /* cancelled already: Java's cancel() is true again */
        if (status_is_done(s) || (s & STATUS_SETTLED))
            return FJ_EINVAL;
        if (task_phase(s) == PHASE_FORKED) {
            int rc = task_settle_forked(t, s, flag);
            if (rc != 1)
                return rc;
            continue;
        }
        /* Never forked: complete at once, unless the failer publishes it
         * itself after its hook (fj_cc_complete_exceptionally: the task stays
         * NEW, flagged, until then).  Full: a CAS, so a fork that published
         * FORKED meanwhile makes us look again; releases fj_error. */
        unsigned desired = ((s | flag) & ~STATUS_PHASE_MASK) | PHASE_DONE;
        if (flag & STATUS_FAILER_PUBLISHES)
            desired = s | flag;
        if (atomic_cas_full_u32(status, s, desired) == s)
            return 0;
    }
}

__thread unsigned char task_later_flag;

int task_mark_completes_later(fj_task *t)
{
    atomic_u32 *status = task_status(t);
    for (;;) {
        unsigned s = status_load_undecided(status);
        if (status_is_done(s))
            return task_returns_later();  /* not forked through us: nothing to mark */
        unsigned desired = s | STATUS_COMPLETES_LATER;
        if (s & STATUS_SETTLED)  /* settled while the body ran: nobody else will publish */
            desired = (desired & ~STATUS_PHASE_MASK) | PHASE_DONE;
        /* Full: a CAS, so a settle that announces itself meanwhile makes us
         * look again; publishing DONE, it releases the body's writes and
         * returns the waiters to wake (point 6). */
        if (atomic_cas_full_u32(status, s, desired) == s) {
            if (status_is_done(desired))
                task_wake_waiters(status, s);
            return task_returns_later();
        }
    }
}

int fj_task_cancel(fj_task *t) { return t ? task_settle(t, STATUS_CANCELLED) : error_null(__func__, "task"); }

int task_fail(fj_task *t, int error, unsigned flags)
{
    if (error >= 0)
        return FJ_EINVAL;
    if (status_is_done(task_status_acquire(t)))
        return FJ_EINVAL;
    /* The error is recorded before the flag that makes joins read it.  One
     * recorded before ours (a body's, its task about to be published, or
     * another fail's) is the outcome: the first wins, and this one is
     * refused, so that 0 always means "the outcome is this error". */
    if (!task_record_error(t, error))
        return FJ_EINVAL;
    int rc = task_settle(t, flags);
    /* Refused: the task completed meanwhile.  Its executor found our error
     * recorded (the body's own lost to it), so it completed with it and the
     * fail took effect: 0, as the outcome says.  Acquire: pairs with the
     * publishing CAS, as a join's read.  Not for a completer's fail, whose
     * caller goes on to publish and must not touch a completed task. */
    if (rc == FJ_EINVAL && !(flags & STATUS_FAILER_PUBLISHES)) {
        unsigned status = task_status_acquire(t);
        if (status_is_done(status) && task_outcome_of(t, status) == error)
            return 0;
    }
    return rc;
}

int fj_task_fail(fj_task *t, int error) { return t ? task_fail(t, error, STATUS_FAILED) : error_null(__func__, "task"); }

void task_take_back(fj_task *t)
{
    atomic_u32 *status = task_status(t);
    for (;;) {
        unsigned s = atomic_load_u32(status);
        /* A CAS only to keep a concurrent abort flag; we own t again, so no
         * ordering is needed beyond what the pop gave.  Aborted while queued:
         * it is complete now (DONE), as an abort of a task never forked is,
         * since no executor will ever publish it. */
        unsigned phase = (s & STATUS_SETTLED) ? PHASE_DONE : PHASE_NEW;
        if (atomic_cas_full_u32(status, s, (s & ~STATUS_PHASE_MASK) | phase) == s)
            return;
    }
}
