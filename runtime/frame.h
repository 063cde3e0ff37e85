/* frame.h - the private side of fj_frame: the state word of a typed frame.
 *
 * fj_frame.fj_state (include/fj.h) is 0 while the frame is queued or being run
 * by its owner, and stays 0 for every frame nobody steals: the fast paths never
 * write it.  Once a thief takes the frame:
 *
 *   bit 0        FRAME_STOLEN   set by the thief under the victim's lock
 *                               (deque_steal_batch), plain store
 *   bit 1        FRAME_DONE     set by the thief's CAS after the result is in
 *                               the slot (fj__frame_publish)
 *   bits 8-23    thief index + 1, added by the thief's CAS before it runs the
 *                frame (frame_run_stolen): where its owner leapfrogs to
 *   bits 32-47   parker slot + 1 of the owner parked in the sync, set by the
 *                owner's CAS (frame_park)
 *
 * Every change after the steal is a CAS of the whole word, so the thief's DONE
 * and the owner's parking registration cannot miss each other (frame.c).  The
 * owner resets the word to 0 when it lowers past the slot (deque_lower).
 * Frames whose task already ran at the spawn (serial elision) carry
 * FRAME_RAN_AT_SPAWN as their runner and their real runner in fj_state.
 */
#ifndef FJ_FRAME_H
#define FJ_FRAME_H

#include <stdbool.h>

#include "../include/fj.h"

#define FRAME_STOLEN 0x1ul
#define FRAME_DONE 0x2ul
#define FRAME_THIEF_SHIFT 8
#define FRAME_THIEF_MASK 0xfffful
#define FRAME_WAITER_SHIFT 32
#define FRAME_WAITER_MASK 0xfffful

/* The runner of a frame whose task ran at its spawn: a marker, never called. */
void frame_ran_at_spawn(fj_worker *w, fj_frame *f);
#define FRAME_RAN_AT_SPAWN frame_ran_at_spawn

struct fj_worker;
/* A thief runs a typed frame it took (tagged, from deque_steal_batch). */
void frame_run_stolen(struct fj_worker *w, fj_frame *f);

/* Runs the typed task `run` on w, in place on its deque's top frame: its
 * arguments from `data` (args_size bytes), its result back into `data`
 * (result_size bytes).  The inside of FJ_RUN (dispatch.c). */
void frame_run_here(struct fj_worker *w, fj_frame_fn run, void *data, size_t args_size, size_t result_size);

/* ---- observers (frame_observe.c) ---- */
/* Whether a trace or profile watches w. */
bool frame_observed(const struct fj_worker *w);
/* At worker start, after its hooks are set: the shadows and fenced pops. */
void frame_observe_start(struct fj_worker *w);
/* The fj_task that stands for frame f in the observers' events, or NULL. */
fj_task *frame_shadow(const struct fj_worker *w, const fj_frame *f);
/* Fills an fj_task on the stack that stands for a frame its owner runs. */
void frame_stand_in(fj_task *stand_in, const fj_task *shadow);

#endif
