/* frame.h - the slow halves of typed spawn and sync, and FJ_RUN (frame.c);
 * their fast halves are inline in include/fj.h. */
#ifndef FJ_FRAME_H
#define FJ_FRAME_H

#include "../include/fj.h"

struct fj_worker;
/* Runs the typed task `runner` on w, in place on its deque's top frame: its
 * arguments from `data` (args_size bytes), its result back into `data`
 * (result_size bytes).  The inside of FJ_RUN (dispatch.c). */
void frame_run_here(struct fj_worker *w, fj_frame_fn runner, void *data, size_t args_size, size_t result_size);

#endif
