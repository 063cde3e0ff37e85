/* profile.h - work and span of a fork/join run (FJ_PROFILE, fj_profile_start),
 * measured from the scheduler's hooks: what Cilkscale does, without a special
 * compiler.  The algorithm is described at the top of profile.c. */
#ifndef FJ_PROFILE_H
#define FJ_PROFILE_H

#include <stdbool.h>

#include "hooks.h"

/* At a worker's start: should it carry HOOKS_PROFILE?  True once a session
 * was opened in this process, or when FJ_PROFILE is set (which opens one the
 * first time, printed at exit). */
bool profile_wanted(void);

/* The first thing a hook does: charges the time since the previous hook to
 * the strand that ran in between, then applies `event` to the span.  w only. */
void profile_event(fj_worker *w, enum hook_event event, struct fj_task *task);

/* The last thing a hook does: restarts the strand clock, so that the time the
 * hooks themselves took (tracing, stress) is not counted as work.  w only. */
void profile_resume(fj_worker *w);

/* At a worker's exit: folds its totals into the session and frees its state. */
void profile_worker_stop(fj_worker *w);

#endif
