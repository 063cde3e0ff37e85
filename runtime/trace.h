/* trace.h - recording what each worker did (FJ_TRACE, fj_trace_start) and
 * writing it as a Chrome Trace Event file (Perfetto, chrome://tracing).
 *
 * Each worker appends fixed-size records to a buffer only it writes: no lock
 * and no read-modify-write on the hot path.  The buffers belong to a *session*
 * (one at a time per process); closing the session waits for every buffer's
 * writer to be outside an append (a flag handshake, trace.c), then writes the
 * file.  A full buffer stops recording and the file says how much was lost.
 */
#ifndef FJ_TRACE_H
#define FJ_TRACE_H

#include <stdbool.h>

#include "hooks.h"

/* Records per worker buffer unless FJ_TRACE_BUFFER=N says otherwise.  32 bytes
 * each, so 32 MiB of address space per worker, touched only as it fills. */
#define TRACE_DEFAULT_RECORDS (1u << 20)
_Static_assert(TRACE_DEFAULT_RECORDS >= 1024, "a trace must hold at least a short run");

/* `other` of a HOOK_FORK that serial elision ran at once instead of pushing. */
#define TRACE_FORK_ELIDED (-2)

/* At a worker's start: should it carry HOOKS_TRACE?  True once a session was
 * opened in this process, or when FJ_TRACE=path is set (which opens a session
 * the first time). */
bool trace_wanted(void);

/* Appends one event to w's buffer if a session is recording.  w's thread only. */
void trace_event(fj_worker *w, enum hook_event event, const struct fj_task *task, int other);

/* At a worker's exit: lets go of its buffer (the session keeps what it holds). */
void trace_worker_stop(fj_worker *w);

#endif
