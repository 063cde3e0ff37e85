/* hooks.h - where the scheduler tells observers (trace, profile) and teaching
 * modes (serial elision, steal stress) what happened.
 *
 * Each call site is `HOOK(w, EVENT, task, other)`: one predictable branch on a
 * byte of the worker that is 0 unless one of FJ_TRACE, FJ_PROFILE, FJ_STRESS or
 * serial elision is on.  With all of them off, the fast path pays that test and
 * nothing else. */
#ifndef FJ_HOOKS_H
#define FJ_HOOKS_H

#include "worker.h"

struct fj_task;

/* HOOK_TASK_END's `other` when the body returned FJ__RAN_PENDING: the task
 * completes later, perhaps already has, and its joiner may have freed it, so a
 * hook may compare the pointer but not touch the task (task.c, point 6). */
#define HOOK_TASK_GONE 1

enum hook_event {
    HOOK_TASK_BEGIN,     /* a task body starts on w */
    HOOK_TASK_END,       /* ... and returns; other HOOK_TASK_GONE: task may be freed already */
    HOOK_FORK,           /* w pushed task */
    HOOK_INLINE_JOIN,    /* w's join took task back from its own deque */
    HOOK_JOIN_BEGIN,     /* w starts waiting for a stolen task (slow path) */
    HOOK_JOIN_END,       /* ... and the task is complete */
    HOOK_STEAL,          /* w stole task from worker `other` */
    HOOK_LEAPFROG,       /* w, joining, stole task from `other`, the thief's chain */
    HOOK_INJECTOR_TAKE,  /* w took task from the external queue */
    HOOK_PARK,           /* w parks */
    HOOK_WAKE,           /* w is back from parking */
    HOOK_JOIN_DONE,      /* w's join found task already complete (no wait) */
    HOOK_UNFORK,         /* w took task back (fj_task_try_unfork) to run it itself */
    HOOK_STRESS_HOLD,    /* w starts holding a fork back for a thief (FJ_STRESS) */
    HOOK_STRESS_RELEASE  /* ... and stops */
};

/* A parallel loop's events (loop.c), reported with hooks_loop. */
enum hook_loop_event {
    HOOK_LOOP_BEGIN,         /* the loop's first participant is about to be started */
    HOOK_LOOP_END,           /* ... and every participant was joined */
    HOOK_PARTICIPANT_BEGIN,  /* a participant starts: its own time is scheduling */
    HOOK_PARTICIPANT_END,
    HOOK_GRAIN_BEGIN,        /* one grain of the loop body starts */
    HOOK_GRAIN_END
};

struct profile_loop;

/* bits of fj_worker.hooks */
#define HOOKS_TRACE 0x1u
#define HOOKS_PROFILE 0x2u
#define HOOKS_SERIAL 0x4u
#define HOOKS_STRESS 0x8u

void hooks_event(fj_worker *w, enum hook_event event, struct fj_task *task, int other);

/* A loop event on w; `loop` is the loop's profiler record (profile.h). */
void hooks_loop(fj_worker *w, enum hook_loop_event event, struct profile_loop *loop, unsigned long long grains);

/* A non-negative number from the environment, 0 if unset or unreadable. */
unsigned long hooks_env_unsigned(const char *name);

/* Sets w->hooks from the pool's settings and the environment; at worker start. */
void hooks_worker_start(fj_worker *w);
/* Flushes per-worker observer state; at worker exit. */
void hooks_worker_stop(fj_worker *w);

/* -DFJ_NO_HOOKS compiles every call site out: the baseline against which the
 * cost of the hook test is measured (mk/trace.mk: make bench-hooks). */
#ifdef FJ_NO_HOOKS
#define HOOKS_ON(w) 0
#else
#define HOOKS_ON(w) __builtin_expect((w)->hooks != 0, 0)
#endif

#define HOOK(w, event, task, other)                                                            \
    do {                                                                                       \
        if (HOOKS_ON(w))                                                                       \
            hooks_event((w), (event), (task), (other));                                        \
    } while (0)

#endif
