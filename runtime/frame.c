/* frame.c - the slow halves of typed spawn and sync (the fast halves are
 * inline in include/fj.h) and FJ_RUN; a thief's run of a typed frame is
 * frame_run.c's.
 *
 * Design overview
 * ===============
 * The ideal typed fork and join, ignoring every race:
 *
 *     spawn(run, args):  *top++ = {run, args}
 *     sync(run):         f = *--top;  return run's body (f.args)
 *     thief:             f = *head++; f.result = run's body (f.args); f.done = 1
 *
 * Complications, one at a time:
 *
 * 1. A thief took the frame.  The sync's pop sees head above it
 *    (deque.c, point 2).  The result will appear in the slot, so the owner
 *    waits for FRAME_DONE and helps meanwhile, then lowers head and top past
 *    the slot (deque.c, point 4) and reads the result.
 *
 * 2. Whom the waiting owner helps.  The thief, by leapfrogging: it steals
 *    from the thief's deque at or above the thief's run floor, while the
 *    frame is not done (task.c, point 2 (c), and deque.c, point 8), so every
 *    task it runs was forked inside the frame's run: the serial run finishes
 *    it before our sync.  With nothing there, the thieves of the older frames
 *    of our run, the same way (task.c, point 2 (d)): a typed frame between our
 *    run floor and the one we wait for was spawned by our run before it, so
 *    the serial run finished it, and everything forked inside its run, at its
 *    spawn, before our sync.  Either way no wait closes a cycle through our
 *    stack whatever the program's join order.  A task of the frame's own run
 *    is one its completion needs; one of an older frame's run is one our
 *    next syncs need, so the owner may return a task late (join lag), never
 *    with work its task did not wait for.

 * 3. Waiting without burning CPU.  With nothing to leapfrog, the owner spins,
 *    yields, then registers its parker slot in the frame's state with a CAS
 *    and parks, unlisted and for a limited time (task.c, point 4): the
 *    frame's completion wakes it, or the time limit sends it looking again.
 *    The thief publishes FRAME_DONE with a CAS that returns the registration
 *    and wakes it.  Two CASes on one word cannot miss each other: no lost
 *    wake-up.
 *
 * 4. What else can be on top.  A typed task carries its own copy of top in
 *    a register (include/fj.h, fj__spawn_begin), and its spawns and syncs only
 *    compare the word in memory with it (a spawn only when a mark says the
 *    word may differ: fj__spawn_begin_guarded).  The word is higher when something
 *    lies above the copy: an fj_task forked and not yet joined (allowed for
 *    fj_task), by the task itself or by a function it called, or a typed frame
 *    of a callee that forgot its sync.  The next spawn (fj__spawn_settle) or sync
 *    (fj__sync_slow) of the task, or its runner's end (fj__unsynced), syncs
 *    them first: an fj_task runs (its forking worker may run it at any time;
 *    its join then finds it done); a forgotten typed frame is synced (run, or
 *    waited for if a thief has it), its result dropped and counted, and
 *    debug builds report it.  So a spawn never writes over a frame that is
 *    queued or that a thief runs in place.  The word may also be lower: an
 *    fj_task of an outer task, just below the copy, joined by a callee; the
 *    spawn then goes where the word says.  A frame whose task already ran at
 *    its spawn (serial elision) has head above it, so its sync comes to the
 *    slow path, which finds its result ready.
 *
 * 5. A full deque.  A spawn that finds every reserved frame in use runs its
 *    task at once, as the serial program would, and keeps the result on the
 *    deque's overflow stack; while that stack is not empty, head's fenced bit
 *    stays set, so every sync takes the slow path, which hands the newest
 *    result out, and every spawn overflows too (even where a pop or a
 *    compaction made room), so that every overflowed spawn stays newer than
 *    every frame in the deque: syncs are LIFO, and the newest result is the
 *    sync's own.  Nothing is lost and no program stops.
 *
 * Summary: 1. a sync returns only when its frame's task is done, and
 * everything the task wrote is visible (the thief's CAS releases, our load
 * acquires); 2. a waiting owner runs only work forked inside its frame's run,
 * so no wait cycles through its stack; 3. nothing is lost or run twice
 * (deque.c); 4. no wake-up is lost (point 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fork_policy.h"
#include "frame.h"
#include "frame_observe.h"
#include "frame_run.h"
#include "hooks.h"
#include "idle.h"
#include "pool.h"
#include "task.h"
#include "trace.h"
#include "worker.h"

/* Runs frame f in place on its owner, observed: named by a stand-in on the
 * stack (frame_observe.c), whose finished stamps go back to f's shadow. */
static void frame_run_observed(fj_worker *w, fj_frame *f, enum hook_event before, int other)
{
    fj_task *shadow = frame_shadow(w, f), stand_in;
    frame_stand_in(&stand_in, shadow);
    HOOK(w, before, &stand_in, other);
    HOOK(w, HOOK_TASK_BEGIN, &stand_in, -1);
    f->fj_run(w, f);
    HOOK(w, HOOK_TASK_END, &stand_in, -1);
    if (shadow)
        memcpy(shadow->fj_tool, stand_in.fj_tool, sizeof shadow->fj_tool);
}

/* Sets or keeps the fenced bit of head, so that every pop comes to the slow
 * path while spawns that ran at once wait for their syncs (point 5). */
static void frame_force_slow_pops(deque *d)
{
    pthread_mutex_lock(&d->lock);
    /* Under the lock, as a thief's store of head (deque.c, point 7): no thief
     * is between its claim and its check.  Relaxed: our own later pops read it. */
    atomic_store((atomic_word *)&d->ends.fj_head, deque_head_word(d) | FJ__HEAD_FENCED);
    pthread_mutex_unlock(&d->lock);
}

/* The deque is full: run the spawned task now, as the serial program would,
 * and keep its result for its sync on the overflow stack (point 5). */
static void frame_spawn_overflowed(fj_worker *w, fj_frame *spare)
{
    deque *d = &w->deque;
    fj_frame task = *spare;  /* the spare frame is reused by the task's own spawns */
    task.fj_state = 0;
    task.fj_run(w, &task);
    if (d->overflow_count == d->overflow_room) {
        size_t room = d->overflow_room ? 2 * d->overflow_room : 64;
        void *grown = realloc(d->overflow, room * sizeof *d->overflow);
        if (!grown) {
            fprintf(stderr, "fj: typed spawn on worker %u: the deque is full (FJ_DEQUE_FRAMES=%zu) and no memory "
                            "is left for the results of spawns run at once\n",
                    w->index, (size_t)(d->reserved_end - d->base));
            abort();
        }
        d->overflow = grown;
        d->overflow_room = room;
    }
    memcpy(d->overflow[d->overflow_count++], task.fj_data, FJ_FRAME_DATA_SIZE);
    frame_force_slow_pops(d);
    /* Every later spawn overflows too until the stack is empty, so that its
     * results stay newer than every frame (point 5; the Spin model's
     * counterexample when room came back between two spawns). */
    deque_set_spawn_slow(d, true);
}

/* A sync while spawns that ran at once are outstanding: the newest is ours
 * (syncs are LIFO).  The inline pop's claim, if it made one, was undone. */
static fj_frame *frame_sync_overflowed(fj_worker *w)
{
    deque *d = &w->deque;
    memcpy(w->overflow_result.fj_data, d->overflow[--d->overflow_count], FJ_FRAME_DATA_SIZE);
    if (d->overflow_count == 0)
        deque_set_spawn_slow(d, w->hooks != 0);  /* back to the fast spawn */
    return (fj_frame *)((uintptr_t)&w->overflow_result | 1u);
}

/* ---- spawn ---- */

/* The spawn's four slow halves are `used`: under gcc on x86-64 the inline
 * spawn reaches them from asm (include/fj.h, FJ__KEEP_STUB), which link-time
 * optimisation of a program built together with these sources does not see. */
#define FRAME_CALLED_FROM_ASM __attribute__((used))

/* The spawn found its wake hint set and nobody searching (include/fj.h):
 * a worker may be parked or, where membarrier is missing, a thief asks for
 * a publish (deque.c, point 9). */
FRAME_CALLED_FROM_ASM void fj__spawn_wake(fj_worker *w)
{
    if (w->deque.split) {
        /* Where membarrier is missing the hint asks for a publish (deque.c,
         * point 9): a thief found nothing public, a worker is about to park,
         * or nothing was public.  Cleared first, so that a request made after
         * the clear stays set; one made before it is answered by the publish
         * below.  Relaxed: only advice, the publish orders what matters. */
        atomic_store(deque_wake_hint(&w->deque), 0);
        worker_publish(w);  /* fences, then tests the sleepers */
        return;
    }
    if (idle_hint_confirm(&w->pool->idle, deque_wake_hint(&w->deque)))
        idle_signal_work(&w->pool->idle);
}

static void frame_sync_leftovers(fj_worker *w, fj_frame *entry_top);

/* Returns the word top, where the spawn goes: the inline spawn under clang
 * reads it from there instead (include/fj.h, FJ__COLD_STUBS). */
FRAME_CALLED_FROM_ASM fj_frame *fj__spawn_settle(fj_worker *w, fj_frame *top)
{
    /* A function the spawning task called left frames above its copy of top
     * (include/fj.h, fj__spawn_begin): sync them now, so that the spawn goes
     * where its sync will look (point 4). */
    if (deque_top(&w->deque) > top)
        frame_sync_leftovers(w, top);
    return deque_top(&w->deque);
}

/* A typed task's spawn failed the guard (include/fj.h, fj__spawn_begin_guarded):
 * settle, then raise the guard to limit.  Last, after whatever the leftovers
 * ran: from here on the task's copy is exact, and what moves top lowers the
 * guard again. */
FRAME_CALLED_FROM_ASM fj_frame *fj__spawn_guarded(fj_worker *w, fj_frame *top)
{
    fj_frame *f = fj__spawn_settle(w, top);
    /* Both words are this worker's own (deque.h): a relaxed load and a plain
     * store, no ordering with other threads to keep. */
    w->deque.ends.fj_spawn_guard = atomic_load((const atomic_word *)&w->deque.ends.fj_limit);
    return f;
}

/* Serial elision: run the task now, as the serial program would, then leave
 * its frame with the result for the sync.  Head moves past the frame at
 * once, so no thief takes it. */
static void frame_spawn_elided(fj_worker *w, fj_frame *f, fj_frame_fn run)
{
    /* In place: top is still f, so its own spawns go above. */
    if (frame_observed(w))
        frame_run_observed(w, f, HOOK_FORK, TRACE_FORK_ELIDED);  /* "fork:serial", as an fj_task's */
    else
        f->fj_run(w, f);
    f->fj_run = FRAME_RAN_AT_SPAWN;
    /* Relaxed: read only by this worker's own sync (the frame is never stolen:
     * head moves past it under the lock below, before top publishes it). */
    atomic_store(frame_state(f), (size_t)run);
    deque_skip_to(&w->deque, f + 1);
}

/* Publishes frame f, written by the inline spawn, then the sleeper test.
 * Release: as in fj__spawn_end (include/fj.h).  StoreLoad before the test: a
 * full fence where membarrier is missing, else as in fj__spawn_end. */
static void frame_publish_spawned(fj_worker *w, fj_frame *f)
{
    atomic_store_release((atomic_word *)&w->deque.ends.fj_top, (size_t)(f + 1));
    (void)deque_publish(&w->deque);  /* split mode: public at once, as an item */
    fence_light();
    if (idle_should_signal(&w->pool->idle))
        idle_signal_work(&w->pool->idle);
}

FRAME_CALLED_FROM_ASM void fj__spawn_slow(fj_worker *w)
{
    deque *d = &w->deque;
    fj_frame *f = deque_top(d);  /* written by the inline spawn, not yet published */
    if (d->overflow_count > 0) {  /* results wait for their syncs: this one joins them */
        frame_spawn_overflowed(w, f);
        return;
    }
    if (f >= d->end && deque_compact(d)) {
        *deque_top(d) = *f;  /* out of the spare frame, into the room made */
        f = deque_top(d);
    } else if (f >= d->end) {
        (void)deque_extend(d);  /* the spare frame f becomes an ordinary one below the new end */
    }
    if (f >= d->end) {
        frame_spawn_overflowed(w, f);
        return;
    }
    if (w->hooks & HOOKS_SERIAL) {
        frame_spawn_elided(w, f, f->fj_run);
        return;
    }
    /* The fork's stamps go into the shadow before the frame is published. */
    if (frame_observed(w))
        HOOK(w, HOOK_FORK, frame_shadow(w, f), -1);
    frame_publish_spawned(w, f);
    fork_policy_after_push(w, NULL, true);
    /* Steal stress may have run other tasks on top of f while it held f back,
     * and an fj_task among them may leave item frames above f: one its join
     * found done after a thief took it (a dead slot nobody popped), or one it
     * forked and did not join.  The spawning task's copy of top becomes the
     * word (fj__spawn_end) and its sync takes the frame below the copy, so
     * they go now, as a settle's leftovers (point 4). */
    if (deque_top(d) > f + 1)
        frame_sync_leftovers(w, f + 1);
}

/* ---- sync ---- */

/* Steals one task for a waiting owner from its thief v: only at or above the
 * floor of v's current run, and only while f is not done (task.c, point 2). */
static bool frame_still_waiting(void *ctx) { return (atomic_load_acquire(frame_state(ctx)) & FRAME_DONE) == 0; }

static void *frame_leapfrog(fj_worker *w, int v, fj_frame *f)
{
    fj_worker *victim = w->pool->workers[v];
    deque_steal_rule rule = {worker_run_floor(victim), NULL, frame_still_waiting, f};
    void *x = deque_steal_ruled(&victim->deque, &rule);
    if (x) {
        counter_add(&w->count.leapfrogs, 1);
        HOOK(w, HOOK_LEAPFROG, deque_is_tagged_frame(x) ? frame_shadow(w, deque_tagged_frame(x)) : x, v);
    }
    return x;
}

/* The thief's index, from a state read with acquire (frame_thief_of): the
 * thief raised its run floor before it published the index. */
static int frame_thief(unsigned long state) { return (int)((state >> FRAME_THIEF_SHIFT) & FRAME_THIEF_MASK) - 1; }

/* The next frame below *g, down to our run floor and at most
 * FJ_LEAPFROG_OLDER_FRAMES below f, that a thief is still running: a typed
 * frame of our current run, spawned before f (the one we wait for) and not
 * yet synced (point 2, rule (d) of task.c, point 2).  Returns the thief's
 * index and leaves *g at the frame, or -1 when none is left.  Our own slots:
 * stolen frames stay pinned until we sync them, so reading them is safe; the
 * state is read with acquire, as for the frame we wait for. */
static int frame_older_thief(fj_worker *w, const fj_frame *f, fj_frame **g, int skip)
{
    const fj_frame *floor = worker_run_floor(w);
    if (floor < w->deque.base)
        floor = w->deque.base;
    if (f - floor > FJ_LEAPFROG_OLDER_FRAMES)
        floor = f - FJ_LEAPFROG_OLDER_FRAMES;
    for (fj_frame *o = *g - 1; o >= floor; o--) {
        if (deque_is_item_slot(o) || o->fj_run == FRAME_RAN_AT_SPAWN)
            continue;
        unsigned long state = atomic_load_acquire(frame_state(o));
        int thief = frame_thief(state);
        if ((state & FRAME_DONE) || thief < 0 || thief == (int)w->index || thief == skip)
            continue;
        *g = o;
        return thief;
    }
    return -1;
}

/* Leapfrogs on the thieves of the older frames of our run, nearest first, one
 * look per thief in a row (f's thief was looked at already). */
static void *frame_leapfrog_older(fj_worker *w, fj_frame *f, int f_thief)
{
    int last = f_thief;
    fj_frame *g = f;
    for (int thief; (thief = frame_older_thief(w, f, &g, last)) >= 0; last = thief) {
        void *x = frame_leapfrog(w, thief, g);
        if (x)
            return x;
    }
    return NULL;
}

typedef struct frame_wait {
    fj_worker *w;
    fj_frame *f;
} frame_wait;

/* Acquire: pairs with the thief's full CAS of FRAME_DONE (fj__frame_publish),
 * so the result it wrote into the slot is visible once we see DONE. */
static bool frame_is_done(fj_frame *f) { return (atomic_load_acquire(frame_state(f)) & FRAME_DONE) != 0; }

static bool frame_wait_has_work(void *ctx)
{
    frame_wait *fw = ctx;
    if (frame_is_done(fw->f))
        return true;
    int thief = frame_thief(atomic_load(frame_state(fw->f)));
    if (thief >= 0 && deque_size(&fw->w->pool->workers[thief]->deque) > 0)
        return true;
    fj_frame *g = fw->f;
    for (int older; (older = frame_older_thief(fw->w, fw->f, &g, thief)) >= 0; thief = older)
        if (deque_size(&fw->w->pool->workers[older]->deque) > 0)
            return true;
    return false;
}

/* Registers us as the frame's waiter and parks (point 3). */
static void frame_park(fj_worker *w, fj_frame *f, long timeout_ns)
{
    unsigned long s = atomic_load(frame_state(f));
    if (s & FRAME_DONE)
        return;
    if (!((s >> FRAME_WAITER_SHIFT) & FRAME_WAITER_MASK))
        frame_state_add(f, ((unsigned long)w->slot + 1) << FRAME_WAITER_SHIFT);
    counter_add(&w->count.parks, 1);
    HOOK(w, HOOK_PARK, NULL, -1);
    frame_wait fw = {w, f};
    /* Unlisted: an owner may take only its thief's work (task.c, point 4). */
    pool_count_parked_joiner(w->pool, 1);
    idle_park_unlisted(w->slot, frame_wait_has_work, &fw, timeout_ns);
    pool_count_parked_joiner(w->pool, -1);
    counter_add(&w->count.wakeups, 1);
    HOOK(w, HOOK_WAKE, NULL, -1);
}

/* Waits for the stolen frame f (top == f + 1, head == f + 1), helping its
 * thief, then frees the slot.  Returns the frame's runner (its result is in
 * the slot until the next push). */
static void frame_wait_stolen(fj_worker *w, fj_frame *f)
{
    unsigned idle_rounds = 0;
    long park_ns = FJ_JOIN_PARK_NS_MIN;
    worker_publish(w);  /* split mode: as every wait (deque.c, point 9) */
    fj_task *shadow = frame_observed(w) ? frame_shadow(w, f) : NULL;
    /* One read decides both the hook and its end: read twice, a thief that
     * finished in between left a JOIN_BEGIN without its JOIN_END, and the
     * profiler charged nothing more to this strand. */
    bool waited = shadow && !frame_is_done(f);
    if (shadow)
        HOOK(w, waited ? HOOK_JOIN_BEGIN : HOOK_JOIN_DONE, shadow, -1);
    while (!frame_is_done(f)) {
        int thief = frame_thief(atomic_load_acquire(frame_state(f)));
        void *x = NULL;
        if (thief >= 0 && thief != (int)w->index && w->help_depth <= FJ_HELP_DEPTH_MAX)
            x = frame_leapfrog(w, thief, f);
        if (!x && w->help_depth <= FJ_HELP_DEPTH_MAX)
            x = frame_leapfrog_older(w, f, thief);
        if (x) {
            task_execute(w, x);
            idle_rounds = 0;
            park_ns = FJ_JOIN_PARK_NS_MIN;
        } else if (++idle_rounds < FJ_JOIN_SPIN_ROUNDS) {
            cpu_relax();
        } else {
            frame_park(w, f, park_ns);  /* with a time limit, as join_park (task.c, point 4) */
            park_ns = park_ns < FJ_JOIN_PARK_NS_MAX / 2 ? 2 * park_ns : FJ_JOIN_PARK_NS_MAX;
        }
    }
    if (waited)
        HOOK(w, HOOK_JOIN_END, shadow, -1);
    /* fj_tasks that helped tasks forked and left above f: run them now (their
     * forking worker may), so that nothing is above f when it is lowered. */
    while (deque_top(&w->deque) > f + 1) {
        void *item = deque_pop(&w->deque);
        if (!item)
            break;
        task_execute(w, item);
    }
    deque_lower(&w->deque, f);
}

/* Reached when nothing of the calling task is left below the sync: no spawn
 * at all, or only spawns of other tasks (run as forgotten syncs on the way). */
static void frame_sync_without_spawn(fj_worker *w)
{
    fprintf(stderr,
            "fj: FJ_SYNC on worker %u with no unsynced FJ_SPAWN in the task: FJ_SYNC(NAME) takes the "
            "task's newest unsynced spawn, which must be an FJ_SPAWN(NAME, ...)\n",
            w->index);
    abort();
}

/* Takes the newest frame f, which the inline pop has claimed (top == f), back
 * for the sync of `run`, whatever happened to it.  Returns it, tagged when its
 * result is ready; NULL when it was a leftover the caller must look past. */
static fj_frame *frame_take_below_head(fj_worker *w, fj_frame *f, fj_frame_fn run);

static fj_frame *frame_take(fj_worker *w, fj_frame *f, fj_frame_fn run)
{
    deque *d = &w->deque;
    fj_frame *got = f;
    if (deque_pop_may_race(d, f))
        got = deque_pop_slow(d, f);
    if (got) {
        if (f->fj_run == run) {
            if (!frame_observed(w))
                return f;  /* the caller runs the body: the usual case without membarrier */
            frame_run_observed(w, f, HOOK_INLINE_JOIN, -1);  /* the body, seen by the observers */
            return (fj_frame *)((uintptr_t)f | 1u);
        }
        if (f->fj_run == DEQUE_ITEM_RUN) {  /* an unjoined fj_task: run it */
            task_execute(w, *(void **)(void *)f->fj_data);
            return NULL;
        }
        if (f->fj_run == DEQUE_TOMB_RUN)  /* an fj_task its join took out: nothing left */
            return NULL;
        /* Another task's frame: a forgotten sync.  Run it in place, drop it. */
        counter_add(&w->count.unsynced, 1);
        f->fj_run(w, f);
        return NULL;
    }
    return frame_take_below_head(w, f, run);
}

/* frame_take's second half: frame f lies below head (deque_pop_slow gave the
 * claim back), so a thief took it, or it ran at its spawn. */
static fj_frame *frame_take_below_head(fj_worker *w, fj_frame *f, fj_frame_fn run)
{
    deque *d = &w->deque;
    if (f < d->base)
        frame_sync_without_spawn(w);
    /* Below head: stolen, or ran at its spawn. */
    fj_frame_fn real = f->fj_run;
    if (real == FRAME_RAN_AT_SPAWN) {
        real = (fj_frame_fn)atomic_load(frame_state(f));
        if (frame_observed(w))
            HOOK(w, HOOK_JOIN_DONE, frame_shadow(w, f), -1);
        deque_lower(d, f);
    } else if (real == DEQUE_ITEM_RUN || real == DEQUE_TOMB_RUN) {
        deque_lower(d, f);
        return NULL;
    } else {
        frame_wait_stolen(w, f);
    }
    if (real == run)
        return (fj_frame *)((uintptr_t)f | 1u);
    counter_add(&w->count.unsynced, 1);
    return NULL;
}

/* Claims the frame below top, as the inline pop does. */
static void frame_claim_newest(fj_worker *w)
{
    /* Relaxed, then a compiler barrier: as in fj__sync_pop_at (include/fj.h). */
    atomic_store((atomic_word *)&w->deque.ends.fj_top, (size_t)(deque_top(&w->deque) - 1));
    compiler_barrier();
}

/* fj__sync_slow past its usual case without membarrier. */
static __attribute__((noinline)) fj_frame *frame_sync_slow_rest(fj_worker *w, fj_frame *mine, fj_frame_fn run)
{
    deque *d = &w->deque;
    /* The inline pop claimed `mine` unless top was not where the caller's
     * copy says: then a function the task called left frames above (point 4). */
    bool claimed = deque_top(d) == mine;
    if (d->overflow_count > 0) {
        if (claimed)
            /* Release: undoes the inline pop's claim, as deque_pop_slow does;
             * the frame below is unchanged, so thieves read what was
             * published before. */
            atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(mine + 1));
        return frame_sync_overflowed(w);
    }
    /* With no hook on and the caller's own frame claimed, the inline pop's
     * case first: head near it, or fenced (the bit set by a stream of steals).
     * A sync with no spawn, in a task run from an empty deque, would claim
     * the slot below the first: not read here, frame_take reports it. */
    if (claimed && w->hooks == 0 && mine >= d->base && mine->fj_run == run) {
        if (!deque_pop_may_race(d, mine) || deque_pop_slow(d, mine))
            return mine;  /* the caller runs the body */
        return frame_take_below_head(w, mine, run);
    }
    if (!claimed) {
        if (deque_top(d) > mine + 1)
            frame_sync_leftovers(w, mine + 1);
        frame_claim_newest(w);
    }
    for (;;) {
        fj_frame *f = deque_top(d);
        fj_frame *got = frame_take(w, f, run);
        if (got)
            return got;
        /* A leftover is gone: claim the next frame down, as the inline pop does. */
        frame_claim_newest(w);
    }
}

fj_frame *fj__sync_slow(fj_worker *w, fj_frame *mine, fj_frame_fn run)
{
    deque *d = &w->deque;
    /* Where membarrier is missing, a sync of a public frame comes here (the
     * split deque: deque.c, point 9).  Its usual case, the caller's own frame
     * claimed by the inline pop with no hook on and no results of spawns run
     * at once waiting, is the shrink (deque_pop_fenced), tested first and in a
     * function of its own, which saves no register: 13 instructions less per
     * fork+join than inside the general path (docs/performance.md, finding 12). */
    if (d->split && deque_top(d) == mine && d->overflow_count == 0 && w->hooks == 0 && mine >= d->base &&
        mine->fj_run == run) {
        if (deque_pop_fenced(d, mine))
            return mine;  /* the caller runs the body */
        return frame_take_below_head(w, mine, run);  /* a thief has it */
    }
    return frame_sync_slow_rest(w, mine, run);
}

static size_t typed_frames_above(const fj_worker *w, const fj_frame *entry_top)
{
    size_t typed = 0;
    for (const fj_frame *f = entry_top; f < deque_top(&w->deque); f++)
        typed += !deque_is_item_slot(f);
    return typed;
}

/* Syncs every frame above entry_top, dropping the results (point 4). */
static void frame_sync_leftovers(fj_worker *w, fj_frame *entry_top)
{
    while (deque_top(&w->deque) > entry_top) {
        frame_claim_newest(w);
        (void)frame_take(w, deque_top(&w->deque), NULL);
    }
}

void fj__unsynced(fj_worker *w, fj_frame *entry_top, const char *task, int fatal)
{
    /* Item frames above the entry are legal: fj_tasks forked and joined
     * elsewhere (run them now, their forking worker may), or joined already
     * after a thief took them (dead slots, lowered past).  Typed frames are
     * spawns nobody synced (point 4). */
    size_t unsynced = typed_frames_above(w, entry_top);
    if (unsynced && fatal) {
        fprintf(stderr, "fj: typed task %s returned with %zu unsynced spawn(s) (FJ_SPAWN without FJ_SYNC)\n", task,
                unsynced);
        abort();
    }
    frame_sync_leftovers(w, entry_top);
}

void fj__context_check(fj_worker *w, fj_frame *top)
{
    if (w != fj__self) {
        fprintf(stderr, "fj::context: a join through a context that is not this thread's (%s)\n",
                fj__self ? "it is another worker's" : "this thread is not a worker");
        abort();
    }
    /* The spare frame past the end is where a spawn into a full deque starts
     * (point 5), so a copy of top may be `end`. */
    if (top < w->deque.base || top > w->deque.end) {
        fprintf(stderr, "fj::context: a join through a context outside its worker's deque (not made by fj)\n");
        abort();
    }
    /* Item frames above the copy are fj_tasks forked and not yet joined (legal,
     * see fj__unsynced); a typed frame there is a pending fork of a join that
     * encloses this one, which a spawn at the copy would sync and drop. */
    size_t pending = typed_frames_above(w, top);
    if (pending) {
        fprintf(stderr, "fj::context: a join through a context below %zu pending fork(s): a side used the context of "
                        "the join that forked it instead of its own\n", pending);
        abort();
    }
}

/* ---- FJ_RUN ---- */

/* Runs `runner` on this worker, in place on its deque's top frame. */
void frame_run_here(fj_worker *w, fj_frame_fn runner, void *data, size_t args_size, size_t result_size)
{
    deque *d = &w->deque;
    fj_frame *f = deque_top(d);  /* at worst the spare frame past the end (point 5) */
    f->fj_run = runner;
    memcpy(f->fj_data, data, args_size);
    runner(w, f);  /* top is still f: the task's own spawns go above it */
    memcpy(data, f->fj_data, result_size);
}
