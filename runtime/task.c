/* task.c - fork and join of fj_task beyond the inline fast path: their slow
 * paths, helping and parking.  The status word they work on is task_state.c's
 * (publishing, settling, completion later); running a taken task is
 * execute.c's.
 *
 * Design overview: join
 * =====================
 * Read first: Wagner and Calder, "Leapfrogging: a portable technique for
 * implementing efficient futures" (PPoPP'93); Doug Lea's ForkJoinPool
 * "Implementation Overview" (helpJoin); the Lace runtime's join.
 *
 * The ideal join, ignoring every race:
 *
 *     join(t):  if t is on top of my deque: pop it and run it here   (fast path)
 *               else: while t is not done: run some other task        (help)
 *
 * Complications, one at a time:
 *
 * 1. Joining out of order.  If t is in my deque but not on top, the tasks
 *    above it were forked after it.  The join takes t out of the middle
 *    (deque_remove leaves a tombstone that pops and steals pass over) and
 *    runs it here, as if it had been on top; the tasks above stay queued.
 *    Running them first instead would run later siblings before t, and a
 *    later sibling may join t (point 2).  A pop that took one of them is
 *    undone (deque_unpop).
 *
 * 2. Which work a joiner may run.  fj.h lets any task join any forked task,
 *    so "help with anything" can deadlock: a helped task that joins a task
 *    suspended below it on the same stack waits for ever (issue #13: a join
 *    that ran a later sibling, or a random steal, that joined an earlier one).
 *    The rule that excludes it rests on the serial order: the order of the
 *    program run with every fork executed at once.  A program fj accepts
 *    finishes that way, so every join waits for a task the serial run has
 *    finished by the join's point.  Each worker keeps a *run floor*: its
 *    deque's top when the task it runs now began as thief, helper or remover
 *    (worker_enter_floor; an inline pop keeps its parent's, which is the
 *    same point in the serial order).  A join of t may run only
 *      (a) t itself, taken from our deque (point 1), from the head of the
 *          deque of the worker that forked it, or from the pool's injector
 *          when a thread outside the pool submitted it;
 *      (b) a task at or above our run floor in our own deque: forked by the
 *          task we run, or by tasks nested above it, before this join, so
 *          the serial run finished it before this join's point;
 *      (c) a task at or above the run floor of t's thief, while t runs
 *          (leapfrogging): forked inside t's run, so finished serially
 *          before t ends, which is before this join's point;
 *      (d) for a typed sync (frame.c, point 2), the same as (c) for the
 *          thief of an older typed frame g of our run: g lies at or above
 *          our run floor and below t, so the task we run spawned it before
 *          t; the serial run finished g, and everything forked inside its
 *          run, at g's spawn, before this join's point.  (fj_task joins do
 *          not use it: a stolen task's slot no longer names it.)
 *    By induction up a stack, every frame the serial run finishes before the
 *    join point of the frame below it.  A frame G that joins a frame F below
 *    it would wait for F, which ends serially after its own join point, so
 *    after G's: the serial run would not finish G's join, and the program
 *    is not one fj accepts.  So no wait closes a cycle through one stack.
 *    Leapfrogging reads the thief's floor (relaxed) after the thief's index
 *    (acquire; the thief raised its floor first), and the steal confirms
 *    that t is still running after its barrier and its read of top
 *    (deque.c, point 8), so a floor of a later run is never used.  A
 *    scheduler loop at the bottom of a stack may run anything; a steal takes
 *    one task, never a batch (a batch's extras would lie below the floor of
 *    the task the thief runs, out of reach of their own joiners).
 *
 * 3. Bounding the stack.  help_depth counts join_help frames on this
 *    worker's stack; beyond FJ_HELP_DEPTH_MAX a join runs nothing but t and
 *    waits.  Every helped task is one whose completion this join's point
 *    depends on in the serial order, so a joiner returns at most one helped
 *    task after t is done, never an unrelated subtree (the join-lag bench).
 *
 * 4. Waiting without burning CPU.  With nothing it may run, the joiner
 *    spins, then registers its parker slot in t's status word (CAS)
 *    and parks, unlisted: a wake for new work must reach a worker that may
 *    take it (idle.c, point 5).  The executor of t wakes it on completion;
 *    work its thief forks meanwhile does not, so the park has a time limit
 *    (FJ_JOIN_PARK_NS_MIN, doubling to FJ_JOIN_PARK_NS_MAX) after which the
 *    joiner looks for work to leapfrog again.  No sched_yield between the
 *    spin and the park: with more workers than cores a yield hands the core
 *    to a worker with a whole leaf to run and the joiner comes back only at
 *    the next tick, and a woken thread that yielded has spent the credit the
 *    kernel gives sleepers; without it the join-lag bench's p50 at 4 workers
 *    on 2 cores fell from 2.0 to 1.0 ms and uts ran 5-12 % faster
 *    (docs/performance.md).
 *    The lost-wake-up argument is that of idle.c, with t's completion as the
 *    published "work": the executor either publishes DONE with a CAS that
 *    returns our registration, or stores the phase byte and, after
 *    fence_light, reloads the word, against our registration CAS and
 *    fence_heavy before the final check.
 *
 * 5. Waiting across workers: what is proved and what is not.  Suppose every
 *    worker waits in a join with nothing it may run, and J0 is the waiting
 *    join whose point comes first in the serial order.  J0 is on top of its
 *    worker's stack: a frame above it would hold a waiting join that point 2
 *    puts earlier.  J0's task t is not running: the waiting join on top of
 *    t's runner would come before t's end, so before J0.  So t is queued, and
 *    neither in our deque (point 1), nor at the head of its forker's deque,
 *    nor in the injector (point 2a): it sits behind another task (a
 *    tombstone does not hide it: deque.c point 8) in the deque of a worker
 *    whose floor is above it.  That no program fj accepts reaches such
 *    a state is not proved; tests/stress/stress_nonstrict.c (random
 *    non-strict DAGs, 1 to 8 workers, 1 and 3 submitting threads) has not
 *    produced one.  (A task submitted from outside and joined by a worker
 *    did, at any worker count, until point 2a took it from the injector:
 *    test_pool's worker_joins_submission_while_all_are_busy.)  Java's answer
 *    to what remains is a spare thread (tryCompensate).
 *
 * 6. Completion later (CountedCompleter, runtime/completer.c).  A body may
 *    return FJ__RAN_PENDING: it ran, and some thread completes the task later
 *    through task_complete_later.  The executor then publishes nothing and,
 *    since the completer may already have completed it (and its joiner freed
 *    it) before the body returned, never touches it again; the joiner that
 *    ran it inline waits as for a stolen task (point 4), helping above its
 *    floor, or leapfrogging on the deque of the worker that ran it (whose
 *    work above its floor is mostly the task's subtasks).  No wake-up is
 *    lost: task_complete_later publishes with a CAS, as task_publish does,
 *    and the CAS returns the word with every waiter registered before it (a
 *    parker slot or FUTEX_WAITERS); a waiter registering after it fails its
 *    own registration CAS or sees DONE in its final check.
 *    A plain task gets the same through fj_task_not_complete (Java's exec()
 *    returning false): before its body returns FJ__RAN_PENDING it sets
 *    STATUS_COMPLETES_LATER with a CAS, so the settle (quiet completion,
 *    fail, cancel) that comes later publishes DONE in its deciding CAS and
 *    wakes the waiters that CAS returns; a settle that came first (the flag
 *    is there when the body's CAS lands) is published by that CAS instead.
 *    Either way exactly one CAS moves the task to DONE.
 *    A completer failed by fj_cc_complete_exceptionally carries
 *    STATUS_FAILER_PUBLISHES beside FAILED: that call publishes it once its
 *    on_exceptional_completion has returned, so an executor that finds the
 *    flag before the body skips it and publishes nothing (the inline joiner
 *    waits as above), and cc_run leaves a compute error that the fail
 *    refused to it; after a plain fail, a cancel or a quiet completion of a
 *    running completer, cc_run publishes that refused error itself.
 *
 * Summary: 1. a join returns only when t is done, and everything t wrote is
 * visible (release on completion, acquire in join); 2. any join order that
 * the serial run finishes works, and no wait cycles through one stack;
 * 3. helping nests at most FJ_HELP_DEPTH_MAX deep, and runs only work the
 * join's point depends on; 4. a joiner parks only when there is nothing it
 * may run.
 */
#include <sched.h>
#include <time.h>

#include "fork_policy.h"
#include "task_inline.h"

/* The joiner's inline run with hooks on or t aborted (task_run_popped_by_joiner). */
int task_run_popped_slow(fj_worker *w, fj_task *t)
{
    HOOK(w, HOOK_INLINE_JOIN, t, -1);
    unsigned status = atomic_load_u32(task_status(t));
    int rc = 0;
    if (status & STATUS_SETTLED) {
        counter_add(&w->count.inline_skipped, 1);  /* joined inline, no body ran */
        /* Failed by fj_cc_complete_exceptionally, which publishes t after
         * its hook: wait for that as for a completion later (point 6). */
        if (status & STATUS_FAILER_PUBLISHES)
            rc = task_returns_later();
    } else {
        HOOK(w, HOOK_TASK_BEGIN, t, -1);
        rc = t->fn(t);
        HOOK(w, HOOK_TASK_END, t, -1);
    }
    return task_finish_popped_slow(w, t, rc);
}

/* After the joiner stored DONE into a task it ran inline: wake waiters and
 * report the outcome.  The joiner still holds t, so reading it is safe. */
int task_popped_aftermath(fj_task *t)
{
    /* A settle that saw us before our DONE is deciding (task_settle_forked):
     * its decision is our outcome.  It is a CAS, a barrier and a CAS away. */
    while (atomic_load_acquire_u32(task_status(t)) & STATUS_SETTLE_PENDING)
        cpu_relax();
    unsigned status = atomic_load_u32(task_status(t));
    if (status >> STATUS_WAITER_SHIFT)
        parker_wake((status >> STATUS_WAITER_SHIFT) - 1);
    if (status & STATUS_FUTEX_WAITERS)
        futex_wake(task_status(t), INT_MAX);
    return task_outcome_of(t, task_status_acquire(t));
}

/* Completes a task the joiner ran inline when its body reported an error or
 * it took the slow path in. */
int task_finish_popped_slow(fj_worker *w, fj_task *t, int rc)
{
    if (task_body_completes_later(rc)) {  /* completed later (point 6): wait as for a stolen task */
        counter_add(&w->count.inline_joins, 1);
        task_join_help(w, t);
        return task_outcome_of(t, task_status_acquire(t));
    }
    unsigned char phase = PHASE_DONE;
    if (rc != 0) {  /* DONE_ERROR even if a fail recorded first: see task_execute */
        task_record_error(t, rc);
        phase = PHASE_DONE_ERROR;
    }
    counter_add(&w->count.inline_joins, 1);
    /* Release and StoreLoad: as in task_run_popped_by_joiner. */
    atomic_store_release_u8(task_phase_byte(t), phase);
    fence_light();
    return task_popped_aftermath(t);
}

int task_fork_wake(fj_worker *w)
{
    idle_signal_work(&w->pool->idle);
    return 0;
}

/* The rest of a fork once its task is pushed (`pushed`, deque_push's answer):
 * the wake-up test of task_fork; or, out of memory (nothing pushed), run t
 * inline (a fork never fails).  True when t was pushed. */
static bool task_fork_wake_or_run(fj_worker *w, fj_task *t, int pushed)
{
    if (pushed != DEQUE_PUSHED) {
        task_execute(w, t);
        return false;
    }
    fence_light();  /* as in task_fork */
    if (idle_should_signal(&w->pool->idle))
        idle_signal_work(&w->pool->idle);
    return true;
}

/* The rest of task_fork once its inline push declined (every frame up to the
 * item limit in use, or split mode): straight to deque_push_slow. */
int task_fork_grow(fj_worker *w, fj_task *t)
{
    (void)task_fork_wake_or_run(w, t, deque_push_slow(&w->deque, t));
    return 0;
}

int task_fork_slow(fj_worker *w, fj_task *t)
{
    counter_add(&w->count.forks, 1);  /* elided or not: the program's fork */
    if ((w->hooks & HOOKS_SERIAL) && fork_policy_elide(w, t))
        return 0;
    HOOK(w, HOOK_FORK, t, -1);
    fork_policy_after_push(w, t, task_fork_wake_or_run(w, t, deque_push(&w->deque, t)));
    return 0;
}

/* ---- helping ---- */

/* Leapfrogging (point 2): one task from the deque of t's thief v, taken
 * only at or above the floor of v's current run and only while t is still
 * running, so that it is work of t's run. */
static bool join_still_waiting(void *ctx) { return !status_is_done(task_status_acquire(ctx)); }

static fj_task *join_leapfrog(fj_worker *w, int v, fj_task *t)
{
    fj_worker *victim = w->pool->workers[v];
    deque_steal_rule rule = {worker_run_floor(victim), NULL, join_still_waiting, t};
    fj_task *x = deque_steal_ruled(&victim->deque, &rule);
    if (x) {
        counter_add(&w->count.leapfrogs, 1);
        HOOK(w, HOOK_LEAPFROG, x, v);
    }
    return x;
}

/* t is queued in the deque of another worker that forked it (a join by a
 * task that did not fork t): take it if it is the oldest frame there. */
static fj_task *join_take_queued(fj_worker *w, fj_task *t)
{
    const fj_worker *owner = t->fj_owner;
    if (!owner || owner == w || owner->pool != w->pool)
        return NULL;
    deque_steal_rule rule = {NULL, t, NULL, NULL};
    return deque_steal_ruled(&((fj_worker *)owner)->deque, &rule);
}

/* t was submitted from outside and is still in the pool's injector: take it
 * out and run it (point 2a; a joiner takes no other submission). */
static fj_task *join_take_submitted(fj_worker *w, fj_task *t)
{
    if (t->fj_owner || task_pool(t) != w->pool || !injector_remove(&w->pool->injector, t))
        return NULL;
    counter_add(&w->count.injector_takes, 1);
    return t;
}

/* One attempt at finding a task to run while waiting for t (points 2, 3). */
static fj_task *join_find_help(fj_worker *w, fj_task *t)
{
    if (w->help_depth > FJ_HELP_DEPTH_MAX)
        return NULL;
    int thief = task_thief(t);
    if (thief >= 0 && thief != (int)w->index && task_pool(t) == w->pool) {
        fj_task *x = join_leapfrog(w, thief, t);
        if (x)
            return x;
    } else if (thief < 0) {
        fj_task *x = join_take_queued(w, t);
        if (!x)
            x = join_take_submitted(w, t);
        if (x)
            return x;
    }
    fj_task *x = deque_pop_above(&w->deque, worker_run_floor(w));
    if (x)
        counter_add(&w->count.helps, 1);
    return x;
}

typedef struct join_wait {
    fj_worker *w;
    fj_task *t;
} join_wait;

static bool join_task_done(void *ctx)
{
    const join_wait *jw = ctx;
    return status_is_done(task_status_acquire(jw->t));
}

static bool join_has_work(void *ctx)
{
    const join_wait *jw = ctx;
    if (join_task_done(ctx))
        return true;
    int thief = task_thief(jw->t);
    if (thief >= 0 && thief != (int)jw->w->index && deque_size(&jw->w->pool->workers[thief]->deque) > 0)
        return true;
    if (thief < 0 && !jw->t->fj_owner && injector_size(&jw->w->pool->injector) > 0)
        return true;  /* perhaps t itself, submitted and not taken yet */
    return deque_top(&jw->w->deque) > worker_run_floor(jw->w) && deque_size(&jw->w->deque) > 0;
}

/* Registers w as t's waiter.  Returns 1 if registered, 0 if t is done, -1 if
 * another worker holds the waiter field (then we wait on the task word). */
static int join_register(fj_worker *w, fj_task *t)
{
    atomic_u32 *status = task_status(t);
    unsigned mine = w->slot + 1;
    for (;;) {
        unsigned s = atomic_load_u32(status);
        if (status_is_done(s))
            return 0;
        unsigned holder = s >> STATUS_WAITER_SHIFT;
        if (holder == mine)
            return 1;
        if (holder != 0)
            return -1;
        /* Full: orders the registration before our final check (with the
         * fence_heavy in idle_park); pairs with the executor's CAS or byte store. */
        if (atomic_cas_full_u32(status, s, s | (mine << STATUS_WAITER_SHIFT)) == s)
            return 1;
    }
}

/* Parks unlisted (point 4): a joiner may not take just any work, so a wake
 * meant for an idle worker must not land on it (idle.c, point 5). */
static void join_park(fj_worker *w, fj_task *t, long timeout_ns)
{
    int registered = join_register(w, t);
    if (registered == 0)
        return;
    counter_add(&w->count.parks, 1);
    HOOK(w, HOOK_PARK, t, -1);
    join_wait jw = {w, t};
    if (registered < 0)
        task_wait_external(t, task_monotonic_ns() + 1000000);  /* poll: 1 ms */
    else {
        pool_count_parked_joiner(w->pool, 1);
        idle_park_unlisted(w->slot, join_has_work, &jw, timeout_ns);
        pool_count_parked_joiner(w->pool, -1);
    }
    counter_add(&w->count.wakeups, 1);
    HOOK(w, HOOK_WAKE, t, -1);
}

void task_join_help(fj_worker *w, fj_task *t)
{
    worker_publish(w);  /* split mode: no wait may depend on a private frame (deque.c, point 9) */
    w->help_depth++;
    HOOK(w, HOOK_JOIN_BEGIN, t, -1);
    unsigned idle_rounds = 0;
    long park_ns = FJ_JOIN_PARK_NS_MIN;
    while (!status_is_done(task_status_acquire(t))) {
        fj_task *x = join_find_help(w, t);
        if (x) {
            task_execute(w, x);
            idle_rounds = 0;
            park_ns = FJ_JOIN_PARK_NS_MIN;
        } else if (++idle_rounds < FJ_JOIN_SPIN_ROUNDS) {
            cpu_relax();
        } else {
            join_park(w, t, park_ns);
            park_ns = park_ns < FJ_JOIN_PARK_NS_MAX / 2 ? 2 * park_ns : FJ_JOIN_PARK_NS_MAX;
        }
    }
    HOOK(w, HOOK_JOIN_END, t, -1);
    w->help_depth--;
}

int task_help_queued(const fj_task *until, bool (*helps)(const fj_task *x, const void *ctx), const void *ctx,
                     int max_tasks)
{
    fj_worker *w = fj__self;
    int ran = 0;
    if (!w)
        return 0;
    while (ran < max_tasks && w->help_depth <= FJ_HELP_DEPTH_MAX &&
           !status_is_done(task_status_acquire(until))) {
        /* Only above our run floor, as a joiner helps (point 2b): the caller's
         * task, or tasks nested above it, forked these. */
        fj_task *x = deque_pop_above(&w->deque, worker_run_floor(w));
        if (!x)
            break;
        if (!helps(x, ctx)) {
            deque_unpop(&w->deque);  /* not one to help with: back on top, untouched */
            break;
        }
        counter_add(&w->count.helps, 1);
        w->help_depth++;  /* a helping frame, bounded as join_help's (point 3) */
        task_execute(w, x);
        w->help_depth--;
        ran++;
    }
    return ran;
}

/* t is in our deque under newer frames (point 1): take it out and run it
 * here, above a floor of its own, as if it had been on top. */
static int join_run_removed(fj_worker *w, fj_task *t)
{
    size_t outer_floor = worker_enter_floor(w);
    int rc = task_run_popped_by_joiner(w, t, atomic_load_u32(task_status(t)));
    worker_leave_floor(w, outer_floor);
    return rc;
}

int task_join_slow(fj_worker *w, fj_task *t, fj_task *popped)
{
    /* The inline pop took a newer task, not t: it goes back on top (point 1). */
    if (popped)
        deque_unpop(&w->deque);
    unsigned status = task_status_acquire(t);
    if (status_is_done(status)) {
        HOOK(w, HOOK_JOIN_DONE, t, -1);  /* the profiler's join of a finished child */
        return task_outcome_of(t, status);
    }
    if (task_phase(status) == PHASE_NEW)
        return (status & STATUS_CANCELLED) ? FJ_ECANCELED : FJ_ENOTFORKED;
    if (t->fj_owner == w && deque_remove(&w->deque, t))
        return join_run_removed(w, t);
    task_join_help(w, t);
    return task_outcome_of(t, task_status_acquire(t));
}

/* ---- the public task operations ---- */

int fj_invoke(fj_task *t)
{
    if (!TASK_RUNNABLE(t))
        return task_refuse_unrunnable(__func__, t);
    /* Acquire: an abort before the invoke keeps the task complete (it does
     * not run); pairs with the abort's CAS, so its fj_error is visible. */
    unsigned old = task_status_acquire(t);
    if (task_phase(old) == PHASE_FORKED)
        return FJ_EBUSY;
    if (old & STATUS_SETTLED)
        return task_outcome_of(t, old);
    atomic_store_u32(task_status(t), PHASE_FORKED);
    t->fj_error = 0;
    t->fj_owner = fj__self;
    t->fj_thief = -1;
    t->fj_flags = 0;
    fj_worker *w = fj__self;
    task_execute(w, t);
    /* A body that returned FJ__RAN_PENDING completes later (point 6). */
    if (!status_is_done(task_status_acquire(t))) {
        if (w)
            task_join_help(w, t);
        else
            task_wait_external(t, -1);
    }
    return task_outcome_of(t, task_status_acquire(t));
}

typedef struct pair_task {
    fj_task task;
    void (*fn)(void *);
    void *arg;
} pair_task;

static int pair_run(fj_task *t)
{
    pair_task *p = FJ_CONTAINER_OF(t, pair_task, task);
    p->fn(p->arg);
    return 0;
}

void fj_pair(void (*a)(void *), void *arg_a, void (*b)(void *), void *arg_b)
{
    fj_worker *w = fj__self;
    if (!w) {
        a(arg_a);
        b(arg_b);
        return;
    }
    pair_task forked = {FJ_TASK_INIT(pair_run), a, arg_a};
    task_fork(w, &forked.task);
    b(arg_b);
    task_join(w, &forked.task);
}

int task_wait_helping(fj_worker *w, fj_task *t, long long deadline_ns)
{
    /* A worker keeps helping while it waits, but only with what it may run. */
    while (!status_is_done(task_status_acquire(t))) {
        if (task_monotonic_ns() >= deadline_ns)
            return FJ_ETIMEDOUT;
        w->help_depth++;
        fj_task *x = join_find_help(w, t);
        if (x)
            task_execute(w, x);
        w->help_depth--;
        if (!x)
            sched_yield();
    }
    return 0;
}

int fj_task_try_unfork(fj_task *t)
{
    fj_worker *w = fj__self;
    if (!w || t->fj_owner != w || deque_peek_newest(&w->deque) != t)
        return 0;
    fj_task *popped = deque_pop(&w->deque);
    if (popped != t)
        return 0;  /* only we push, so it is NULL: a thief took t first */
    task_take_back(t);
    HOOK(w, HOOK_UNFORK, t, -1);  /* the profiler: t's body runs here now, as the fork it was */
    return 1;
}

