/* hooks.c - dispatches scheduler events to the observers that are switched on
 * (trace.c, profile.c) and implements the two teaching modes: serial elision
 * and steal stress.
 *
 * With everything off, fj_worker.hooks stays 0 and the call sites in the
 * scheduler reduce to a not-taken branch on a byte the worker itself owns.
 * The byte is fixed when the worker starts (hooks_worker_start): nobody else
 * ever writes it, so reading it needs no atomic and costs nothing to share.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "profile.h"
#include "task_state.h"
#include "trace.h"
#include "worker.h"

/* A non-negative number from the environment, 0 if unset or unreadable. */
unsigned long hooks_env_unsigned(const char *name)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return 0;
    char *end;
    unsigned long value = strtoul(text, &end, 10);
    return *end ? 0 : value;
}

/* Serial elision: FJ_SERIAL=1, or a pool of one worker asked for with
 * FJ_WORKERS=1 (the class-room switch: "run it as the serial program"). */
static bool serial_wanted(const fj_worker *w)
{
    if (hooks_env_unsigned("FJ_SERIAL"))
        return true;
    return w->pool->count == 1 && hooks_env_unsigned("FJ_WORKERS") == 1;
}

void hooks_worker_start(fj_worker *w)
{
    unsigned char bits = 0;
    w->trace = NULL;
    w->profile = NULL;
    if (trace_wanted())
        bits |= HOOKS_TRACE;
    if (profile_wanted())
        bits |= HOOKS_PROFILE;
    if (serial_wanted(w))
        bits |= HOOKS_SERIAL;
    if (hooks_env_unsigned("FJ_STRESS") && w->pool->count > 1)
        bits |= HOOKS_STRESS;  /* the policy itself: fork_policy.c */
    w->hooks = bits;
}

void hooks_worker_stop(fj_worker *w)
{
    if (w->hooks & HOOKS_TRACE)
        trace_worker_stop(w);
    if (w->hooks & HOOKS_PROFILE)
        profile_worker_stop(w);
}

void hooks_event(fj_worker *w, enum hook_event event, struct fj_task *task, int other)
{
    unsigned bits = w->hooks;
    /* The profiler reads its clock first and restarts it last, so the other
     * observers' time is not counted as the program's work. */
    if (bits & HOOKS_PROFILE)
        profile_event(w, event, task, other);
    if (bits & HOOKS_TRACE)
        trace_event(w, event, task, other);
    if (bits & HOOKS_PROFILE)
        profile_resume(w);
}

void hooks_loop(fj_worker *w, enum hook_loop_event event, struct profile_loop *loop, unsigned long long grains)
{
    /* Only the profiler looks at loops: the trace draws the participants. */
    if (w->hooks & HOOKS_PROFILE) {
        profile_loop_event(w, event, loop, grains);
        profile_resume(w);
    }
}
