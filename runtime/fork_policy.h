/* fork_policy.h - serial elision and steal stress (fork_policy.c). */
#ifndef FJ_FORK_POLICY_H
#define FJ_FORK_POLICY_H

#include <stdbool.h>

#include "worker.h"

struct fj_task;

/* At worker start, after hooks_worker_start: reads FJ_STRESS, pins a
 * stressing worker to its own CPU. */
void fork_policy_worker_start(fj_worker *w);

/* Called instead of pushing when HOOKS_SERIAL is set: runs the task now.
 * Returns 1 (it ran the task). */
int fork_policy_elide(fj_worker *w, struct fj_task *task);

/* Called after a hooked fork's push (pushed = 1) or inline run (0): with
 * HOOKS_STRESS holds the fork back until a thief takes the task (steal
 * stress, for finding races); with HOOKS_PROFILE restarts the strand clock,
 * so that the push and the wake-up of a sleeper are not counted as work.
 * `task` is NULL for a typed frame. */
void fork_policy_after_push(fj_worker *w, struct fj_task *task, bool pushed);

#endif
