/* task.h - the fork and join of fj_task beyond the inline fast path
 * (task_inline.h): the slow paths, helping and waiting on a worker (task.c).
 * The status word they work on is task_state.h's. */
#ifndef FJ_TASK_H
#define FJ_TASK_H

#include "execute.h"
#include "task_state.h"

void task_join_help(struct fj_worker *w, fj_task *t);
/* fj_task_wait's timed wait on a worker: helps as a join does (task.c,
 * point 2) until t is done (0) or the clock passes deadline_ns
 * (FJ_ETIMEDOUT). */
int task_wait_helping(struct fj_worker *w, fj_task *t, long long deadline_ns);
/* Runs, one after the other, up to max_tasks of the tasks on top of the
 * calling worker's deque above its run floor while `helps` accepts the newest
 * and `until` is not done; the first one it refuses stays queued.  Returns how
 * many ran (0 off a worker).  Java's helpComplete (runtime/completer.c). */
int task_help_queued(const fj_task *until, bool (*helps)(const fj_task *x, const void *ctx), const void *ctx,
                     int max_tasks);

#endif
