/* frame_state.h - the private side of fj_frame: the state word of a typed frame.
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
 * and the owner's parking registration cannot miss each other (frame_run.c,
 * frame.c).  The
 * owner resets the word to 0 when it lowers past the slot (deque_lower).
 * Frames whose task already ran at the spawn (serial elision) carry
 * FRAME_RAN_AT_SPAWN as their runner and their real runner in fj_state.
 */
#ifndef FJ_FRAME_STATE_H
#define FJ_FRAME_STATE_H

#include "../include/fj.h"
#include "atomics.h"

#define FRAME_STOLEN 0x1ul
#define FRAME_DONE 0x2ul
#define FRAME_THIEF_SHIFT 8
#define FRAME_THIEF_MASK 0xfffful
#define FRAME_WAITER_SHIFT 32
#define FRAME_WAITER_MASK 0xfffful

static inline atomic_word *frame_state(fj_frame *f) { return (atomic_word *)&f->fj_state; }

/* Adds `bits` to a stolen frame's state with a CAS; returns the old state. */
static inline unsigned long frame_state_add(fj_frame *f, unsigned long bits)
{
    unsigned long s = atomic_load(frame_state(f));
    for (;;) {
        /* Full: as a release it publishes what we wrote before (the result,
         * for FRAME_DONE) to the owner's acquire; as an RMW it cannot lose the
         * other side's update (thief index / DONE against the waiter). */
        unsigned long seen = atomic_cas_full(frame_state(f), s, s | bits);
        if (seen == s)
            return s;
        s = seen;
    }
}

#endif
