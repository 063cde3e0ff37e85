/* profile.h - work and span of a fork/join program's DAG (FJ_PROFILE,
 * fj_profile_start), measured from the scheduler's hooks: what Cilkscale does,
 * without a special compiler.  The algorithm is described at the top of
 * profile.c. */
#ifndef FJ_PROFILE_H
#define FJ_PROFILE_H

#include <stdbool.h>

#include "hooks.h"

/* One parallel loop segment as the profiler sees it: the divide-and-conquer
 * tree of its grains that a cilk_for would be.  Lives in loop.c's loop record;
 * zeroed by the loop, written by the profiler only. */
typedef struct profile_loop {
    atomic_word start, burdened_start;    /* the caller's path where the loop began */
    atomic_word finish, burdened_finish;  /* the longest grain chain's end */
    atomic_word depth;                    /* levels of the grain tree: ceil(log2 grains) */
    atomic_word session;                  /* the session start was taken in; 0: none */
} profile_loop;

/* At a worker's start: should it carry HOOKS_PROFILE?  True once a session
 * was opened in this process, or when FJ_PROFILE is set (which opens one the
 * first time, printed at exit). */
bool profile_wanted(void);

/* The first thing a hook does: charges the time since the previous hook to
 * the strand that ran in between, then applies `event` to the span.  w only. */
void profile_event(fj_worker *w, enum hook_event event, struct fj_task *task, int other);

/* The same for a loop event (hooks.h); `grains` only for HOOK_LOOP_BEGIN. */
void profile_loop_event(fj_worker *w, enum hook_loop_event event, profile_loop *loop, unsigned long long grains);

/* The last thing a hook does: restarts the strand clock, so that the time the
 * hooks themselves took (tracing, stress) is not counted as work.  w only. */
void profile_resume(fj_worker *w);

/* At a worker's exit: folds its totals into the session and frees its state. */
void profile_worker_stop(fj_worker *w);

#endif
