/* frame_run.c - a typed frame run by the thief that took it: in place in
 * its owner's deque, its thief's index and floor published first (where the
 * owner leapfrogs to: task.c, point 2), its completion published with a CAS
 * of the frame's state word (frame.h), which wakes a parked owner.  The
 * owner's side, the sync that waits for it, is frame.c's. */
#include "frame_observe.h"
#include "frame_run.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "worker.h"

void frame_ran_at_spawn(fj_worker *w, fj_frame *f)
{
    /* A thief never gets such a frame (head moves past it at once); a thief
     * that did would have nothing to run but the publication. */
    fj__frame_publish(w, f);
}

void fj__frame_publish(fj_worker *w, fj_frame *f)
{
    /* The end of a stolen task, before its completion (the profiler's stamps
     * travel with it; after it the owner may reuse the slot). */
    if (HOOKS_ON(w) && frame_observed(w))
        HOOK(w, HOOK_TASK_END, frame_shadow(w, f), -1);
    unsigned long old = frame_state_add(f, FRAME_DONE);
    /* From here on the owner may reuse the slot: only `old` is used. */
    unsigned long waiter = (old >> FRAME_WAITER_SHIFT) & FRAME_WAITER_MASK;
    if (waiter)
        parker_wake((unsigned)waiter - 1);
}

void frame_run_stolen(fj_worker *w, fj_frame *f)
{
    /* Where the owner leapfrogs to: our floor, then our index (an RMW, so a
     * release), both before the body can spawn (task.c, point 2). */
    size_t outer_floor = worker_enter_floor(w);
    if (worker_is_member(w))
        frame_state_add(f, ((unsigned long)w->index + 1) << FRAME_THIEF_SHIFT);
    if (HOOKS_ON(w) && frame_observed(w))
        HOOK(w, HOOK_TASK_BEGIN, frame_shadow(w, f), -1);
    f->fj_run(w, f);
    /* After the runner's CAS of FRAME_DONE (fj__frame_publish). */
    worker_leave_floor(w, outer_floor);
}
