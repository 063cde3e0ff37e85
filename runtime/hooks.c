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
#include "worker.h"

/* Steal stress: how long a forker holds back for a thief (rounds of a steal
 * attempt and a pause, with a yield every STRESS_YIELD_EVERY so that a thief
 * sharing our CPU can run). */
#define STRESS_HOLD_NS 2000000  /* a sleeping thief takes tens of microseconds to wake */
#define STRESS_YIELD_EVERY 1024  /* rarely: a holder that yields lets the thief run on its core, not beside it */
/* Tasks a holder steals run nested on its stack, as a joiner's help does: the
 * same bound keeps the stack within FJ_DEFAULT_STACK_SIZE. */
#define STRESS_DEPTH_MAX FJ_HELP_DEPTH_MAX
_Static_assert(STRESS_YIELD_EVERY > 0, "yield sometimes");

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

/* Steal stress pins worker i to the i-th CPU it may run on: a thief woken on
 * its victim's core (which Linux prefers on a busy machine) would run in turn
 * with it, not beside it, and a race would still hide.  Best effort: a
 * refusal leaves the worker where it was. */
static void stress_pin(const fj_worker *w)
{
    cpu_set_t allowed, mine;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    int count = CPU_COUNT(&allowed);
    if (count < 2)
        return;
    int want = (int)(w->index % (unsigned)count);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &allowed) && want-- == 0) {
            CPU_ZERO(&mine);
            CPU_SET(cpu, &mine);
            (void)sched_setaffinity(0, sizeof mine, &mine);
            return;
        }
    }
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
    stress_every = env_unsigned("FJ_STRESS");
    if (stress_every && w->pool->count > 1) {
        bits |= HOOKS_STRESS;
        stress_pin(w);
    }
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

/* Steal stress.  Held back after its push, the fork waits (bounded) until a
 * thief takes the task.  A worker that waits also steals: with every worker
 * forking, each holds a task for the others, and a holder that only waited
 * would leave the others waiting for it.  The stolen task runs here, on top
 * of the fork, as a joiner's help would (and within the same depth bound).
 * The hold is waiting to the profiler, not work. */
static void stress_hold(fj_worker *w, struct fj_task *task)
{
    if (++stress_forks % stress_every != 0 || w->help_depth >= STRESS_DEPTH_MAX)
        return;
    size_t queued = deque_size(&w->deque);
    hooks_event(w, HOOK_STRESS_HOLD, task, -1);
    /* The push and its fence_light are done (task_fork_slow): a parked thief
     * may be woken.  It may also be asleep for good reason; we only wait a
     * bounded time, and a wait is never needed for correctness. */
    idle_signal_work(&w->pool->idle);
    long long deadline = task_monotonic_ns() + STRESS_HOLD_NS;
    for (unsigned round = 1; deque_size(&w->deque) >= queued; round++) {
        if (round % 64 == 0 && task_monotonic_ns() > deadline)
            break;
        fj_task *other = worker_steal_random(w, false, 1);
        if (other) {
            w->help_depth++;
            task_execute(w, other);
            w->help_depth--;
        } else if (round % STRESS_YIELD_EVERY == 0) {
            sched_yield();
        } else {
            cpu_relax();
        }
    }
    hooks_event(w, HOOK_STRESS_RELEASE, task, -1);
}

void hooks_fork_done(fj_worker *w, struct fj_task *task, bool pushed)
{
    if (pushed && (w->hooks & HOOKS_STRESS))
        stress_hold(w, task);
    if (w->hooks & HOOKS_PROFILE)
        profile_resume(w);
}
