/* execute.h - running a task a worker took (execute.c). */
#ifndef FJ_EXECUTE_H
#define FJ_EXECUTE_H

#include "task_state.h"

/* Runs a task this thread took from a deque or the injector (not the joiner's
 * own fast path) and publishes its completion with one CAS, waking its waiters.
 * After the CAS the task is never touched again: its joiner may free it. */
void task_execute(struct fj_worker *w, fj_task *t);

#endif
