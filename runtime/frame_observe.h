/* frame_observe.h - what trace and profile see of typed frames (frame_observe.c). */
#ifndef FJ_FRAME_OBSERVE_H
#define FJ_FRAME_OBSERVE_H

#include <stdbool.h>

#include "../include/fj.h"
#include "hooks.h"
#include "worker.h"

/* Whether a trace or profile watches w: inline, as every sync without
 * membarrier asks (frame.c). */
static inline bool frame_observed(const struct fj_worker *w) { return (w->hooks & (HOOKS_TRACE | HOOKS_PROFILE)) != 0; }
/* At worker start, after its hooks are set: the shadows and fenced pops. */
void frame_observe_start(struct fj_worker *w);
/* The fj_task that stands for frame f in the observers' events, or NULL. */
fj_task *frame_shadow(const struct fj_worker *w, const fj_frame *f);
/* Fills an fj_task on the stack that stands for a frame its owner runs. */
void frame_stand_in(fj_task *stand_in, const fj_task *shadow);

#endif
