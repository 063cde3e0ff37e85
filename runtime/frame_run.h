/* frame_run.h - a typed frame run by the thief that took it (frame_run.c). */
#ifndef FJ_FRAME_RUN_H
#define FJ_FRAME_RUN_H

#include "frame_state.h"

/* The runner of a frame whose task ran at its spawn: a marker, never called. */
void frame_ran_at_spawn(fj_worker *w, fj_frame *f);
#define FRAME_RAN_AT_SPAWN frame_ran_at_spawn

/* A thief runs a typed frame it took (tagged, from deque_steal_batch). */
void frame_run_stolen(fj_worker *w, fj_frame *f);

#endif
