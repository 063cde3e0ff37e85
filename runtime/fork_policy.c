/* fork_policy.c - the teaching modes that change what a fork does: serial
 * elision (FJ_SERIAL, FJ_WORKERS=1: run the task at its fork, as the serial
 * program would) and steal stress (FJ_STRESS=N: hold one fork in N back until
 * a thief takes it, so that races in the program show).  They run tasks, so
 * they stand beside the fork they change (floor 4 of docs/design.md); the
 * observers they report to are below, in hooks.c. */
#include <sched.h>

#include "cpus.h"
#include "fork_policy.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "profile.h"
#include "execute.h"
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

/* 1 in how many forks is held back (FJ_STRESS=N), and forks so far. */
static __thread unsigned long stress_every, stress_forks;

/* Steal stress pins worker i to the i-th CPU it may run on: a thief woken on
 * its victim's core (which Linux prefers on a busy machine) would run in turn
 * with it, not beside it, and a race would still hide.  Best effort: a
 * refusal leaves the worker where it was. */
static void stress_pin(const fj_worker *w)
{
    cpu_set_t allowed, mine;
    int count = cpus_allowed(&allowed);
    if (count < 2)
        return;
    CPU_ZERO(&mine);
    CPU_SET(cpus_nth(&allowed, count, w->index), &mine);
    (void)sched_setaffinity(0, sizeof mine, &mine);
}

void fork_policy_worker_start(fj_worker *w)
{
    stress_every = hooks_env_unsigned("FJ_STRESS");
    if (w->hooks & HOOKS_STRESS)
        stress_pin(w);
}

int fork_policy_elide(fj_worker *w, struct fj_task *task)
{
    if (w->hooks & HOOKS_PROFILE)
        profile_event(w, HOOK_FORK, task, -1);
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
 * of the fork, within the join's depth bound.  That is more than a join may
 * run (task.c, point 2): a stolen task that joins one suspended below it on
 * this stack would wait for ever, so steal stress is for fully strict
 * programs (README.md, FJ_STRESS).  The hold is waiting to the profiler, not work. */
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
        fj_task *other = worker_steal_random(w, false);
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

void fork_policy_after_push(fj_worker *w, struct fj_task *task, bool pushed)
{
    if (pushed && (w->hooks & HOOKS_STRESS))
        stress_hold(w, task);
    if (w->hooks & HOOKS_PROFILE)
        profile_resume(w);
}
