/* execute.c - runs a task a worker took from a deque or the injector, or
 * one a fork runs at once, and publishes its completion: an fj_task through
 * its body, a typed frame in place (frame_run.c).  It stands above the status
 * word (task_state.c), the pool's accounting (pool.c) and the frame runner,
 * and below everything that looks for work to run: the scheduler loop, the
 * joins (task.c, frame.c) and the fork policies. */
#include "execute.h"
#include "frame_run.h"
#include "hooks.h"
#include "pool.h"
#include "worker.h"

void task_execute(fj_worker *w, fj_task *t)
{
    if (deque_is_tagged_frame(t)) {
        frame_run_stolen(w, deque_tagged_frame(t));
        return;
    }
    /* Read before publishing: afterwards t may be gone. */
    unsigned flags = t->fj_flags;
    fj_pool *submitted_to = t->fj_pool;
    size_t outer_floor = 0;
    if (w) {
        /* Floor first, then our index as t's thief (release): a joiner that
         * reads the index leapfrogs only above this run's floor (point 2). */
        outer_floor = worker_enter_floor(w);
        task_set_thief(t, worker_is_member(w) ? (int)w->index : -1);
    }
    unsigned status = task_status_acquire(t);
    if (__builtin_expect(status_is_done(status) || (status & STATUS_FAILER_PUBLISHES), 0)) {
        /* Completed before it ran (a completer, by task_complete_later, point
         * 6): nothing to run, and publishing again could turn DONE_ERROR into
         * DONE.  Only a task that completes later can be done here.  Or
         * failed before it ran by fj_cc_complete_exceptionally, which
         * publishes t itself once its hook has run: t is not ours either. */
        if (w)
            worker_leave_floor(w, outer_floor);
        if (flags & TASK_FLAG_EXTERNAL)
            pool_retire(submitted_to);
        return;
    }
    unsigned char phase = PHASE_DONE;
    if (!(status & STATUS_SETTLED)) {
        if (w) {
            counter_add(&w->count.tasks_run, 1);
            HOOK(w, HOOK_TASK_BEGIN, t, -1);
        }
        int rc = t->fn(t);
        int later = task_body_completes_later(rc);
        if (w)
            HOOK(w, HOOK_TASK_END, t, later ? HOOK_TASK_GONE : -1);
        if (later) {  /* completed later, perhaps already: t is not ours (point 6) */
            if (w)
                worker_leave_floor(w, outer_floor);
            if (flags & TASK_FLAG_EXTERNAL)
                pool_retire(submitted_to);
            return;
        }
        /* DONE_ERROR whether our error or an fj_task_fail's came first: either
         * way fj_error holds the first one (a lost record CAS read it), and a
         * plain DONE would make join report 0 if that fail's flag CAS then
         * finds the task complete. */
        if (rc != 0) {
            task_record_error(t, rc);
            phase = PHASE_DONE_ERROR;
        }
    }
    task_publish(t, phase);
    if (w)
        worker_leave_floor(w, outer_floor);
    if (flags & TASK_FLAG_EXTERNAL)
        pool_retire(submitted_to);
}
