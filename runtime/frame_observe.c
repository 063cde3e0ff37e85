/* frame_observe.c - what the observers (trace, profile) see of typed tasks.
 *
 * The observers name a task by an fj_task: its address is the task's identity
 * and its fj_tool words carry the profiler's stamps from the fork to the
 * thief and to the join.  A typed frame has no fj_task, and no room for one,
 * so while an observer is on, each deque gets a parallel range of *shadow*
 * fj_tasks, one per frame slot, reserved like the frames and touched only
 * while observing: the shadow of slot i stands for the frame in slot i.
 *
 * Two rules keep identities apart:
 *   - a frame its owner runs itself (serial elision, or a sync that finds it
 *     not stolen) runs in place with top still at its slot, so its own spawns
 *     reuse that slot and its shadow; such a run is named by an fj_task on the
 *     C stack instead, which takes the fork's stamps from the shadow and gives
 *     the finished ones back;
 *   - a stolen frame keeps its slot until its sync lowers past it, so its
 *     shadow names it from the fork to the join.
 * While observing, every pop of the deque takes the slow path (head's fenced
 * bit stays set), so every typed sync comes to frame.c, where the events are.
 */
#include <string.h>
#include <sys/mman.h>

#include "frame_observe.h"
#include "hooks.h"
#include "pool.h"
#include "worker.h"

void frame_observe_start(fj_worker *w)
{
    deque *d = &w->deque;
    if (!frame_observed(w) || d->shadow)
        return;
    size_t bytes = (size_t)(d->reserved_end - d->base + 1) * sizeof(fj_task);
    void *range = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED)
        return;  /* typed tasks go unobserved; fj_tasks still are */
    d->shadow = range;
    d->shadow_bytes = bytes;
    d->pinned_fenced = true;
    pthread_mutex_lock(&d->lock);
    /* Under the lock, as in deque.c point 7; relaxed: only our pops read it. */
    atomic_store((atomic_word *)&d->ends.fj_head, deque_head_word(d) | FJ__HEAD_FENCED);
    pthread_mutex_unlock(&d->lock);
}

fj_task *frame_shadow(const fj_worker *w, const fj_frame *f)
{
    if (!frame_observed(w))
        return NULL;
    /* The frame lies in one of the pool's deques: a thief knows only the frame. */
    for (unsigned i = 0; i < w->pool->count; i++) {
        const deque *d = &w->pool->workers[i]->deque;
        if (d->shadow && f >= d->base && f <= d->reserved_end)
            return &d->shadow[f - d->base];
    }
    return NULL;
}

/* An fj_task on the caller's stack that stands for frame f run by its owner:
 * it carries the fork's stamps of f's shadow. */
void frame_stand_in(fj_task *stand_in, const fj_task *shadow)
{
    memset(stand_in, 0, sizeof *stand_in);
    if (shadow)
        memcpy(stand_in->fj_tool, shadow->fj_tool, sizeof stand_in->fj_tool);
}
