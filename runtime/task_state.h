/* task_state.h - the private side of fj_task: its status word (task_state.c).
 *
 * The status word (fj_task.fj_status, 32 bits, also a futex word) has one
 * writer discipline per byte, so the fork/join fast path needs no atomic
 * read-modify-write:
 *
 *   bits 0-7    phase: NEW, FORKED, DONE, DONE_ERROR.  Written by fork (the
 *               whole word, before the task is published) and by the executor
 *               (a release store of this byte alone, or a CAS of the word).
 *   bits 8-15   abort flags CANCELLED, FAILED and FUTEX_WAITERS.  Set by CAS of
 *               the whole word, by any thread, only while phase < DONE
 *               (FUTEX_WAITERS: at any time).
 *   bits 16-31  waiter: parker slot + 1 of one worker parked in a join of this
 *               task, 0 if none.  Set by that worker's CAS.
 *
 * A byte store and a word CAS on the same word never lose each other's update:
 * the CAS fails and retries if the byte changed under it (x86 and ARM alike).
 */
#ifndef FJ_TASK_STATE_H
#define FJ_TASK_STATE_H

#include "../include/fj.h"
#include "atomics.h"

enum task_phase { PHASE_NEW = 0, PHASE_FORKED = 1, PHASE_DONE = 2, PHASE_DONE_ERROR = 3 };

#define STATUS_PHASE_MASK 0xffu
#define STATUS_CANCELLED 0x100u
#define STATUS_FAILED 0x200u
#define STATUS_FORCED 0x400u  /* completed normally by fj_task_quietly_complete */
/* A settle (cancel, fail, quiet completion) of a forked task is deciding
 * whether it came before the task's completion (task_settle); readers that
 * need the final outcome wait until it is gone. */
#define STATUS_SETTLE_PENDING 0x800u
/* The body returned through fj_task_not_complete: no executor will publish
 * the task's completion, so the settle that decides a flag publishes it. */
#define STATUS_COMPLETES_LATER 0x1000u
/* With STATUS_FAILED: set by fj_cc_complete_exceptionally, whose caller
 * publishes the completion itself once its hooks have run; a plain fail
 * leaves it to the task's completion (runtime/completer.c, cc_run). */
#define STATUS_FAILER_PUBLISHES 0x2000u
#define STATUS_FUTEX_WAITERS 0x8000u
#define STATUS_ABORTED (STATUS_CANCELLED | STATUS_FAILED)
/* Settled before (or while) its body runs: the body is skipped if it has not
 * started, and a fork, invoke or submission leaves the task complete. */
#define STATUS_SETTLED (STATUS_ABORTED | STATUS_FORCED)
#define STATUS_WAITER_SHIFT 16

/* A body's private return code: it ran, and its completion comes later, from
 * task_complete_later (a CountedCompleter's compute, runtime/completer.c).
 * The executor then publishes nothing and never touches the task again; the
 * joiner that ran it inline waits for it as for a stolen task.  Positive, so
 * it never collides with an error, and only reached on the paths that already
 * leave the fast path for any rc != 0. */
#define FJ__RAN_PENDING 1

/* A user's body may return 1 by mistake (fj.h asks for 0 or a negative code),
 * so the value alone does not say "completes later": the two bodies that mean
 * it (fj_task_not_complete, a completer's run) also set this thread's flag as
 * their last act, and the executor that called the body, on the same thread,
 * takes it.  A 1 without the flag is an outcome like any other code. */
extern __thread unsigned char task_later_flag;

/* What those two bodies return: FJ__RAN_PENDING, the flag set. */
static inline int task_returns_later(void)
{
    task_later_flag = 1;
    return FJ__RAN_PENDING;
}

/* In the executor, right after the body returned `rc` on this thread: 1 if
 * the body completes later (and the flag is taken), else 0. */
static inline int task_body_completes_later(int rc)
{
    if (rc != FJ__RAN_PENDING || !task_later_flag)
        return 0;
    task_later_flag = 0;
    return 1;
}

/* fj_flags */
#define TASK_FLAG_EXTERNAL 0x1u  /* submitted through a pool's injector, counted in its state */

struct fj_worker;

static inline atomic_u32 *task_status(const fj_task *t) { return (atomic_u32 *)&t->fj_status; }

static inline unsigned task_phase(unsigned status) { return status & STATUS_PHASE_MASK; }
static inline int status_is_done(unsigned status) { return task_phase(status) >= PHASE_DONE; }

/* Reads the status word with acquire.  Pairs with the release that publishes
 * completion (the phase-byte store in task_run_popped_by_joiner and
 * task_finish_popped_slow, the CAS in task_publish) and with the CAS of an
 * abort (task_abort): a reader that sees DONE, CANCELLED or FAILED also sees
 * everything the task and the aborting thread wrote before it, fj_error
 * included. */
static inline unsigned task_status_acquire(const fj_task *t) { return atomic_load_acquire_u32(task_status(t)); }

/* The phase byte's address: byte 0 of the word in memory order. */
static inline volatile unsigned char *task_phase_byte(fj_task *t)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (volatile unsigned char *)&t->fj_status;
#else
    return (volatile unsigned char *)&t->fj_status + sizeof(unsigned) - 1;
#endif
}

/* Nonzero if any bit above the phase byte is set, read without touching the
 * phase byte itself.  The joiner calls this right after its byte store of DONE:
 * a 32-bit load overlapping that pending byte store cannot be served by store
 * forwarding and stalls until the store retires (about 15 cycles on x86, most
 * of an inline join), while loads of the other three bytes do not overlap it.
 * Each load is atomic on its own; the caller only needs to see a bit that was
 * set before its fence_light(), which every one of them does. */
static inline unsigned task_status_above_phase(fj_task *t)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const volatile unsigned char *bytes = (const volatile unsigned char *)&t->fj_status;
    return AO_char_load(bytes + 1) | AO_short_load((const volatile unsigned short *)(bytes + 2));
#else
    const volatile unsigned char *bytes = (const volatile unsigned char *)&t->fj_status;
    return AO_short_load((const volatile unsigned short *)bytes) | AO_char_load(bytes + 2);
#endif
}

/* The outcome of a completed task, from a status word read with acquire. */
static inline int task_outcome_of(const fj_task *t, unsigned status)
{
    if (status & STATUS_CANCELLED)
        return FJ_ECANCELED;
    if (status & STATUS_FORCED)
        return 0;  /* quietlyComplete won: a body's error is ignored */
    if ((status & STATUS_FAILED) || task_phase(status) == PHASE_DONE_ERROR)
        /* Atomic (relaxed; the caller's acquire of status ordered it after the
         * first record): a later fail's losing record CAS may touch the word
         * at the same time (TSan counts a failed CAS as a write). */
        return (int)atomic_load_u32((const atomic_u32 *)&t->fj_error);
    return 0;
}

/* fj_thief: pool-local index of the worker that took the task from a deque or
 * the injector, -1 before that.  Written by that worker, read by joiners. */
static inline int task_thief(const fj_task *t) { return (int)atomic_load_acquire_u32((atomic_u32 *)&t->fj_thief); }
static inline void task_set_thief(fj_task *t, int index)
{
    if ((uintptr_t)t & 1u)
        return;  /* a typed frame (deque.h): its thief is in its state word */
    /* Release: a joiner that reads our index may look at our deque at once. */
    atomic_store_release_u32((atomic_u32 *)&t->fj_thief, (unsigned)index);
}

/* Records the first error of a task (any thread).  Returns 1 if ours won. */
int task_record_error(fj_task *t, int error);

/* Sets one of CANCELLED, FAILED (with FAILER_PUBLISHES or not), FORCED on a
 * task not complete and not settled (a never-forked one becomes DONE at once).  Returns 0 (also for a
 * second cancel), or FJ_EINVAL. */
int task_settle(fj_task *t, unsigned flag);
/* fj_task_fail with `flags` (STATUS_FAILED, with STATUS_FAILER_PUBLISHES or
 * not) set by the settle: 0, or FJ_EINVAL (error >= 0, complete or settled). */
int task_fail(fj_task *t, int error, unsigned flags);

/* A task this worker took out of a deque without running it (tryUnfork,
 * pollNextLocalTask): back to NEW, or DONE if it was settled meanwhile. */
void task_take_back(fj_task *t);


/* Publishes the completion of a task whose body returned FJ__RAN_PENDING (or
 * of one never forked): DONE, or DONE_ERROR with `error` (< 0) recorded, and
 * wakes its waiters.  Returns 1 if this call completed it, 0 if it was
 * complete already.  After it returns 1 the task may be freed by its joiner. */
int task_complete_later(fj_task *t, int error);
/* Publishes the completion of a task whose body returned: `phase` (DONE or
 * DONE_ERROR) with one CAS, then wakes the waiters that CAS returned.  The
 * task may be freed as soon as the CAS lands. */
void task_publish(fj_task *t, unsigned char phase);

/* fj_task_not_complete: marks the running task (its body is about to return
 * FJ__RAN_PENDING) so that the settle that completes it publishes it, or
 * publishes it now if it was settled while the body ran.  Returns
 * FJ__RAN_PENDING.  The body must not touch t afterwards. */
int task_mark_completes_later(fj_task *t);

/* Waits until `t` is done, on the futex of its status word (a thread outside
 * the pool).  `deadline_ns` < 0: no limit; else an absolute CLOCK_MONOTONIC time.
 * Returns 0 when done, FJ_ETIMEDOUT otherwise. */
int task_wait_external(fj_task *t, long long deadline_ns);

long long task_monotonic_ns(void);

/* A task a call could queue or run: not NULL and with a body. */
#define TASK_RUNNABLE(t) ((t) != NULL && (t)->fn != NULL)
/* The refusal of a task that is not TASK_RUNNABLE, named after `call`: here,
 * at the call, rather than a crash on whichever worker would have run it. */
int task_refuse_unrunnable(const char *call, const fj_task *t);

#endif
