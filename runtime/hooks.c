/* hooks.c - dispatches scheduler events to the observers that are switched on.
 * The observers (trace, profile) and the teaching modes (serial elision, steal
 * stress) register here; with none on, fj_worker.hooks stays 0 and the call
 * sites in the scheduler reduce to a not-taken branch. */
#include "hooks.h"
#include "task.h"

void hooks_worker_start(fj_worker *w) { w->hooks = 0; }

void hooks_worker_stop(fj_worker *w) { (void)w; }

void hooks_event(fj_worker *w, enum hook_event event, struct fj_task *task, int other)
{
    (void)w;
    (void)event;
    (void)task;
    (void)other;
}

int hooks_fork_elided(fj_worker *w, struct fj_task *task)
{
    task_execute(w, task);
    return 1;
}
