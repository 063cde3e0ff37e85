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
#include "task.h"
#include "trace.h"

/* Steal stress: how long a forker holds back for a thief (pause rounds, with a
 * yield every STRESS_YIELD_EVERY so that a thief sharing our CPU can run). */
#define STRESS_HOLD_ROUNDS 512
#define STRESS_YIELD_EVERY 64
_Static_assert(STRESS_YIELD_EVERY > 0 && STRESS_HOLD_ROUNDS >= STRESS_YIELD_EVERY, "hold at least one yield");

/* 1 in how many forks is held back (FJ_STRESS=N), 0 if off.  Read from the
 * environment by each worker at start; the same value for all. */
static unsigned long env_unsigned(const char *name)
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
    if (env_unsigned("FJ_SERIAL"))
        return true;
    return w->pool->count == 1 && env_unsigned("FJ_WORKERS") == 1;
}

static __thread unsigned long stress_every, stress_forks;

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
    stress_every = env_unsigned("FJ_STRESS");
    if (stress_every && w->pool->count > 1)
        bits |= HOOKS_STRESS;
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
        profile_event(w, event, task);
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

int hooks_fork_elided(fj_worker *w, struct fj_task *task)
{
    if (w->hooks & HOOKS_PROFILE)
        profile_event(w, HOOK_FORK, task);
    if (w->hooks & HOOKS_TRACE)
        trace_event(w, HOOK_FORK, task, TRACE_FORK_ELIDED);
    if (w->hooks & HOOKS_PROFILE)
        profile_resume(w);
    /* Not pushed, so no thief can have it: run it here, now, as the serial
     * program would at this call (task_fork already marked it FORKED). */
    task_execute(w, task);
    return 1;
}

void hooks_fork_pushed(fj_worker *w, struct fj_task *task)
{
    (void)task;
    if (++stress_forks % stress_every != 0)
        return;
    size_t queued = deque_size(&w->deque);
    /* The push and its fence_light are done (task_fork_slow): a parked thief
     * may be woken.  It may also be asleep for good reason; we only wait a
     * bounded time, and a wait is never needed for correctness. */
    idle_signal_work(&w->pool->idle);
    /* With every worker busy nobody can steal: holding back would only slow
     * the run down.  A racy look is enough for a heuristic. */
    if (atomic_load(&w->pool->idle.searching) == 0 && atomic_load(&w->pool->idle.sleepers) == 0)
        return;
    for (unsigned round = 1; round <= STRESS_HOLD_ROUNDS && deque_size(&w->deque) >= queued; round++) {
        if (round % STRESS_YIELD_EVERY == 0)
            sched_yield();
        else
            cpu_relax();
    }
}
