/* profile.c - work (T1), span (T-infinity) and parallelism of a fork/join run.
 *
 * Design overview
 * ===============
 * Read first: Blumofe and Leiserson, "Scheduling multithreaded computations by
 * work stealing" (JACM 1999) for T1, T-infinity and the greedy bound
 * T_P <= T1/P + T-infinity; He, Leiserson, Leiserson, "The Cilkview
 * scalability analyzer" (SPAA 2010) for measuring them from a run.
 *
 * A fork/join run is a DAG of *strands*: the stretches of a task body between
 * two scheduler events (fork, join, begin, end).  T1 is the sum of all strand
 * times; the span is the longest path through the DAG.  We measure both on
 * the real, parallel run:
 *
 *     every event on worker w:  dt = clock() - last[w]
 *                               work += dt;  top(w).path += dt
 *     fork(child):              child.start = top.path
 *     begin(t):                 push frame { path = t.start }
 *     end(t):                   t.finish = frame.path; pop
 *     join(t) returns:          top.path = max(top.path, t.finish)
 *     span = max over tasks of t.finish
 *
 * `path` is the length of the longest chain of strands that ends at the
 * current point of the frame: the start of a forked child is its parent's
 * path at the fork, and a join continues from whichever is longer, the
 * parent's own path or the child's.  That is exactly the longest path of a
 * series-parallel DAG, whatever the join order, and whoever ran the child.
 *
 * Complications, one at a time:
 *
 * 1. Where the numbers live.  child.start and t.finish travel in the task
 *    itself (fj_task.fj_tool[0]), stamped in fj_tool[1] with the session id,
 *    so a task forked before the session is not mistaken for one of ours.
 *    The forker writes start before the push publishes the task; the thief
 *    writes finish before completion is published; the joiner reads it after
 *    it saw the completion: the deque and the task status order them.
 * 2. A worker's frames.  Tasks nest on a worker's stack (an inline join runs
 *    the child on top of its parent; a helping joiner runs other tasks on top
 *    of itself), so each worker keeps a stack of frames, the innermost on top.
 * 3. Waiting is not work.  Between JOIN_BEGIN and JOIN_END the joiner's frame
 *    is marked waiting: time then is charged only to tasks it helps with.
 * 4. Joins the scheduler does not report one by one.  A join that takes its
 *    child back inline reports INLINE_JOIN, then the child's begin and end:
 *    the max is applied at that end.  A join of a task already complete
 *    reports JOIN_DONE; one that waited reports JOIN_END.
 * 5. Tasks not forked.  A task run with fj_invoke inside another is a call:
 *    it starts at its caller's path and the caller continues from its finish.
 *    A root (from the injector) starts where the roots finished so far end
 *    (profile_roots): invocations from outside the pool one after the other
 *    are in series, as the serial program runs them; overlapping ones from
 *    several threads may be counted in series too (conservative).
 * 8. The DAG, not the schedule.  Three things the scheduler does differently
 *    from the program text are mapped back to the program:
 *    a. A parallel loop runs as P participants that split ranges of grains
 *       among themselves (loop.c).  The profiler ignores the participants
 *       (their own time is scheduling, marked waiting) and measures each grain
 *       as a child forked at the loop's start and joined at its end: the tree
 *       of grains a cilk_for builds, whose span is its longest grain (plus
 *       ceil(log2 grains) spawns when burdened), on any worker count.
 *    b. fj_task_try_unfork followed by running the task's work in place is
 *       the fork it was written as: an *unforked* frame starts at the fork's
 *       path and ends when its parent goes on (the parent's next join, its
 *       next unfork, or its end; joins of forks made inside the frame are
 *       the frame's own), and the parent continues from the longer chain.
 *    c. Steal stress (FJ_STRESS) holding a fork back is waiting, not work.
 * 9. Burdened span.  Each fork also costs `burden` (fj_profile_set_burden;
 *    by default PROFILE_BURDEN_NS) on the child's side of the DAG: a second
 *    longest path, `burdened`, is carried beside `path`.  Parallelism over
 *    the burdened span is what is usable when every steal costs that much:
 *    tiny tasks on a long chain of forks show it.  The child's burdened start
 *    travels in the task beside its path, as the difference, in fj_tool[1]
 *    above the stamp.
 * 6. The hooks' own cost.  The clock is read at the start of each hook and
 *    restarted at its end (profile_resume), so instrumentation, tracing and
 *    stress pauses are not counted.  Each measured interval still contains
 *    one clock read (about 20-60 ns, more than a fib task); the default clock
 *    measures that once per session (the median of back-to-back reads)
 *    and subtracts it from every interval.  What remains is the cost of the
 *    events themselves (a fork, a join), which is real work of the program.
 * 7. Time is noisy.  A preempted worker's strand would look longer on a wall
 *    clock, and the span, a maximum, is where that shows most.  The default
 *    clock is each thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which stops
 *    while the thread is descheduled.  Cache misses and frequency changes
 *    remain; for exact numbers install a deterministic clock with
 *    fj_profile_set_clock (the tests do).
 *
 * Summary: 1. work = sum of strands; 2. span = longest strand chain of the
 * series-parallel DAG, for any join order and any schedule; 3. waits and hook
 * overhead are not counted; 4. totals are exact once no task runs.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool.h"
#include "profile.h"

/* What each fork costs the burdened span by default (point 9): about what
 * moving a task to another core costs (a steal, its cache misses, a wake-up).
 * Cilkscale charges 15,000 instructions per spawn, of the same order. */
#define PROFILE_BURDEN_NS 2000ull

enum frame_kind { FRAME_ROOT, FRAME_FORKED, FRAME_CALLED, FRAME_UNFORKED, FRAME_GRAIN };

typedef struct profile_frame {
    const struct fj_task *task;  /* NULL for a grain */
    profile_loop *loop;          /* grains: the loop they belong to */
    unsigned long long path;     /* longest chain ending here, clock units */
    unsigned long long burdened; /* the same with every fork's burden (point 9) */
    unsigned waiting;            /* in a join of a stolen task, a loop's scheduling, a stress hold */
    unsigned open_forks;         /* unforked frames: forks made inside, not yet joined (8b) */
    enum frame_kind kind;
    bool joined_inline;          /* its joiner is the frame below (point 4) */
} profile_frame;

typedef struct profile_worker {
    struct profile_worker *next;  /* live list, under profile_lock */
    /* Written by the owner, read by fj_profile_stop. */
    atomic_word session;          /* id its totals belong to */
    atomic_word work, span, burdened_span, tasks;
    /* Owner only. */
    unsigned long long last;      /* clock when the previous hook ended */
    const struct fj_task *inline_next;
    profile_frame *frames;
    size_t depth, room, lost;     /* lost: frames not pushed for lack of memory */
} profile_worker;

typedef unsigned long long (*profile_clock_fn)(void);

/* id of the session being measured, 0 if none.  Written under profile_lock. */
static atomic_word profile_recording;
/* 1 once any session was opened: workers that start from then on are armed
 * (as in trace.c, point 3: a pool's threads may start after a short session). */
static atomic_word profile_ever_opened;
/* The clock (a profile_clock_fn), 0 for CLOCK_MONOTONIC ns.  Changed only
 * while no session is open. */
static atomic_word profile_clock;
/* What one clock read adds to a measured interval (point 6); set when a
 * session opens, before its id is published. */
static atomic_word profile_read_cost;
/* The burden per fork asked for (point 9), PROFILE_BURDEN_UNSET for the
 * default; and the one the open session uses, set before its id is published. */
#define PROFILE_BURDEN_UNSET ((size_t)-1)
static atomic_word profile_burden_asked = PROFILE_BURDEN_UNSET;
static atomic_word profile_burden;
/* Where the roots finished so far end (point 5), plain and burdened.  Reset
 * when a session opens; raised with atomic_max. */
static atomic_word profile_roots, profile_roots_burdened;

static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;
static profile_worker *profile_workers;  /* live, under profile_lock */
static fj_profile profile_retired;       /* workers that exited during the session */
static size_t profile_sessions;
static bool env_session_tried, profile_from_env;

/* The default clock: the calling thread's CPU time, so that a worker the OS
 * took off the CPU (other programs, our own threads on fewer cores) does not
 * lengthen the strand it was running (point 7). */
static unsigned long long thread_cpu_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
}

static unsigned long long profile_now(void)
{
    size_t fn = atomic_load(&profile_clock);
    return fn ? ((profile_clock_fn)fn)() : thread_cpu_ns();
}

/* fj_tool[1] (points 1 and 9): bits 0..15 say forked or finished in which
 * session (ids wrap at 32767; 0 is never a stamp, so a fresh task has none),
 * bits 16..63 hold burdened - path of the start (forked) or finish. */
#define STAMP_BITS 16
static unsigned long long stamp_of(size_t id, bool finished)
{
    return ((unsigned long long)(id % 32767 + 1) << 1) | finished;
}
static unsigned long long stamp(size_t id, bool finished, unsigned long long extra)
{
    return extra << STAMP_BITS | stamp_of(id, finished);
}
static bool stamped(const struct fj_task *t, size_t id, bool finished)
{
    return (t->fj_tool[1] & ((1ull << STAMP_BITS) - 1)) == stamp_of(id, finished);
}
static unsigned long long stamp_burdened(const struct fj_task *t) { return t->fj_tool[0] + (t->fj_tool[1] >> STAMP_BITS); }

static unsigned long long max_ull(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* *word = max(*word, value).  Atomicity only: the totals are read after the
 * joins (or the pool's quiescence) that order everything before them. */
static void atomic_max(atomic_word *word, size_t value)
{
    size_t seen = atomic_load(word);
    while (seen < value) {
        size_t before = atomic_cas_full(word, seen, value);
        if (before == seen)
            return;
        seen = before;
    }
}

/* ---- per-worker state ---- */

static profile_worker *profile_attach(fj_worker *w)
{
    profile_worker *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_lock(&profile_lock);
    p->next = profile_workers;
    profile_workers = p;
    pthread_mutex_unlock(&profile_lock);
    w->profile = p;
    return p;
}

/* Starts counting for session `id`: totals first, then the id (release), so
 * fj_profile_stop never sums a previous session's numbers as this one's. */
static void profile_reset(profile_worker *p, size_t id)
{
    p->depth = p->lost = 0;
    p->inline_next = NULL;
    atomic_store(&p->work, 0);
    atomic_store(&p->span, 0);
    atomic_store(&p->burdened_span, 0);
    atomic_store(&p->tasks, 0);
    /* Release: pairs with the acquire in profile_sum. */
    atomic_store_release(&p->session, id);
    p->last = profile_now();
}

/* w's state for the session being measured, or NULL if none. */
static profile_worker *profile_current(fj_worker *w)
{
    profile_worker *p = w->profile;
    size_t id = atomic_load(&profile_recording);
    if (!id)
        return NULL;
    if (!p && !(p = profile_attach(w)))
        return NULL;
    if (atomic_load(&p->session) != id)
        profile_reset(p, id);
    return p;
}

/* The top frame, or NULL when there is none or the stack is incomplete. */
static profile_frame *top_frame(profile_worker *p) { return p->depth && !p->lost ? &p->frames[p->depth - 1] : NULL; }

static void charge(profile_worker *p, unsigned long long dt)
{
    size_t read_cost = atomic_load(&profile_read_cost);
    dt = dt > read_cost ? dt - read_cost : 0;
    profile_frame *top = top_frame(p);
    if (!top || top->waiting)
        return;  /* idle, or waiting in a join: not work */
    top->path += dt;
    top->burdened += dt;
    counter_add(&p->work, dt);
}

static bool frame_room(profile_worker *p)
{
    if (p->depth < p->room)
        return true;
    size_t room = p->room ? 2 * p->room : 64;
    profile_frame *grown = realloc(p->frames, room * sizeof *grown);
    if (!grown)
        return false;
    p->frames = grown;
    p->room = room;
    return true;
}

static void frame_push(profile_worker *p, profile_frame frame)
{
    if (p->lost || !frame_room(p)) {
        p->lost++;  /* deeper frames are not measured; the stack stays consistent */
        return;
    }
    p->frames[p->depth++] = frame;
}

static profile_frame frame_at(const struct fj_task *t, enum frame_kind kind, unsigned long long path,
                              unsigned long long burdened)
{
    return (profile_frame){.task = t, .path = path, .burdened = burdened, .kind = kind};
}

/* Pops the top frame: its end is a candidate for the span. */
static profile_frame frame_pop(profile_worker *p)
{
    profile_frame done = p->frames[--p->depth];
    if (done.path > atomic_load(&p->span))
        atomic_store(&p->span, done.path);
    if (done.burdened > atomic_load(&p->burdened_span))
        atomic_store(&p->burdened_span, done.burdened);
    return done;
}

/* The frame below continues from the longer of its chain and `done`'s. */
static void frame_join(profile_frame *into, unsigned long long path, unsigned long long burdened)
{
    into->path = max_ull(into->path, path);
    into->burdened = max_ull(into->burdened, burdened);
}

/* Point 8b: ends the unforked frames that the top frame's parent went on
 * from.  A join-like event (join, unfork) first matches a fork made inside
 * the unforked frame, if one is open. */
static void settle_unforked(profile_worker *p, bool join_like)
{
    profile_frame *top;
    while ((top = top_frame(p)) && top->kind == FRAME_UNFORKED) {
        if (join_like && top->open_forks) {
            top->open_forks--;
            return;
        }
        profile_frame done = frame_pop(p);
        frame_join(top_frame(p), done.path, done.burdened);  /* an unforked frame always has a parent */
    }
}

/* ---- the events ---- */

static void on_task_begin(profile_worker *p, size_t id, const struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    bool joined_inline = p->inline_next == t;
    p->inline_next = NULL;
    counter_add(&p->tasks, 1);
    profile_frame frame;
    if (top && top->kind == FRAME_UNFORKED && top->task == t)
        frame = frame_at(t, FRAME_CALLED, top->path, top->burdened);  /* unforked, then invoked */
    else if (stamped(t, id, false))
        frame = frame_at(t, FRAME_FORKED, t->fj_tool[0], stamp_burdened(t));
    else if (top && !top->waiting)
        frame = frame_at(t, FRAME_CALLED, top->path, top->burdened);  /* point 5 */
    else
        frame = frame_at(t, FRAME_ROOT, atomic_load(&profile_roots), atomic_load(&profile_roots_burdened));
    frame.joined_inline = joined_inline;
    frame_push(p, frame);
}

static void on_task_end(profile_worker *p, size_t id, struct fj_task *t, bool task_is_ours)
{
    if (p->lost) {
        p->lost--;
        return;
    }
    profile_frame *top;
    while ((top = top_frame(p)) && top->kind == FRAME_UNFORKED && top->task != t)
        settle_unforked(p, false);
    if (!top || top->task != t)
        return;  /* began before the session */
    profile_frame done = frame_pop(p);
    /* Point 1: published with the task's completion, which follows this hook.
     * A task that completes later (a CountedCompleter) may be gone: its
     * joiner then sees no path, and the profile misses that span. */
    if (task_is_ours) {
        t->fj_tool[0] = done.path;
        t->fj_tool[1] = stamp(id, true, done.burdened - done.path);
    }
    profile_frame *caller = top_frame(p);
    if (caller && (done.kind == FRAME_CALLED || done.joined_inline))
        frame_join(caller, done.path, done.burdened);
    if (done.kind == FRAME_ROOT) {
        atomic_max(&profile_roots, done.path);
        atomic_max(&profile_roots_burdened, done.burdened);
    }
}

/* A join of t returns in the top frame: continue from the longer chain. */
static void on_joined(profile_worker *p, size_t id, const struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    if (top && stamped(t, id, true))
        frame_join(top, t->fj_tool[0], stamp_burdened(t));
}

static void on_fork(profile_worker *p, size_t id, struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    if (top && top->kind == FRAME_UNFORKED)
        top->open_forks++;
    unsigned long long path = top ? top->path : 0, burdened = top ? top->burdened : 0;
    /* Plain writes: the push that follows publishes them (point 1). */
    t->fj_tool[0] = path;
    t->fj_tool[1] = stamp(id, false, burdened - path + atomic_load(&profile_burden));
}

static void on_unfork(profile_worker *p, size_t id, const struct fj_task *t)
{
    settle_unforked(p, true);
    profile_frame *top = top_frame(p);
    if (!top)
        return;
    if (stamped(t, id, false))
        frame_push(p, frame_at(t, FRAME_UNFORKED, t->fj_tool[0], stamp_burdened(t)));
    else  /* forked before the session: in series, as a call */
        frame_push(p, frame_at(t, FRAME_UNFORKED, top->path, top->burdened));
}

static void wait_begin(profile_worker *p)
{
    profile_frame *top = top_frame(p);
    if (top)
        top->waiting++;
}

static void wait_end(profile_worker *p)
{
    profile_frame *top = top_frame(p);
    if (top && top->waiting)
        top->waiting--;
}

/* Charges the strand that ends now; NULL if w does not measure. */
static profile_worker *profile_enter(fj_worker *w, size_t *id)
{
    profile_worker *p = profile_current(w);
    if (!p)
        return NULL;
    *id = atomic_load(&p->session);
    unsigned long long now = profile_now();
    charge(p, now - p->last);
    p->last = now;
    return p;
}

void profile_event(fj_worker *w, enum hook_event event, struct fj_task *task, int other)
{
    size_t id;
    profile_worker *p = profile_enter(w, &id);
    if (!p)
        return;
    switch (event) {
    case HOOK_TASK_BEGIN:
        on_task_begin(p, id, task);
        break;
    case HOOK_TASK_END:
        on_task_end(p, id, task, other != HOOK_TASK_GONE);
        break;
    case HOOK_FORK:
        on_fork(p, id, task);
        break;
    case HOOK_INLINE_JOIN:
        settle_unforked(p, true);
        p->inline_next = task;
        break;
    case HOOK_JOIN_BEGIN:
        settle_unforked(p, true);
        wait_begin(p);
        break;
    case HOOK_JOIN_END:
        wait_end(p);
        on_joined(p, id, task);
        break;
    case HOOK_JOIN_DONE:
        settle_unforked(p, true);
        on_joined(p, id, task);
        break;
    case HOOK_UNFORK:
        on_unfork(p, id, task);
        break;
    case HOOK_STRESS_HOLD:
        wait_begin(p);
        break;
    case HOOK_STRESS_RELEASE:
        wait_end(p);
        break;
    default:
        break;  /* steals, parks: only the time is charged (to nobody, usually) */
    }
}

static unsigned tree_levels(unsigned long long grains)
{
    unsigned levels = 0;
    while ((1ull << levels) < grains && levels < 63)
        levels++;
    return levels;
}

/* Point 8a. */
void profile_loop_event(fj_worker *w, enum hook_loop_event event, profile_loop *loop, unsigned long long grains)
{
    size_t id;
    profile_worker *p = profile_enter(w, &id);
    if (!p)
        return;
    profile_frame *top = top_frame(p);
    bool ours = atomic_load(&loop->session) == id;
    switch (event) {
    case HOOK_LOOP_BEGIN: {
        unsigned long long path = top ? top->path : atomic_load(&profile_roots);
        unsigned long long burdened = top ? top->burdened : atomic_load(&profile_roots_burdened);
        /* Plain stores: the forks of the participants publish them. */
        atomic_store(&loop->start, path);
        atomic_store(&loop->burdened_start, burdened);
        atomic_store(&loop->finish, path);
        atomic_store(&loop->burdened_finish, burdened);
        atomic_store(&loop->depth, tree_levels(grains));
        atomic_store(&loop->session, id);
        break;
    }
    case HOOK_LOOP_END:
        if (top && ours)
            frame_join(top, atomic_load(&loop->finish), atomic_load(&loop->burdened_finish));
        break;
    case HOOK_PARTICIPANT_BEGIN:
        wait_begin(p);
        break;
    case HOOK_PARTICIPANT_END:
        wait_end(p);
        break;
    case HOOK_GRAIN_BEGIN: {
        if (!ours) {
            p->lost++;  /* a loop begun before the session: not measured */
            break;
        }
        counter_add(&p->tasks, 1);
        unsigned long long descent = atomic_load(&loop->depth) * atomic_load(&profile_burden);
        profile_frame frame = frame_at(NULL, FRAME_GRAIN, atomic_load(&loop->start),
                                       atomic_load(&loop->burdened_start) + descent);
        frame.loop = loop;
        frame_push(p, frame);
        break;
    }
    case HOOK_GRAIN_END: {
        if (p->lost) {
            p->lost--;
            break;
        }
        settle_unforked(p, false);
        top = top_frame(p);
        if (!top || top->loop != loop)
            break;
        profile_frame done = frame_pop(p);
        atomic_max(&loop->finish, done.path);
        atomic_max(&loop->burdened_finish, done.burdened);
        break;
    }
    }
}

void profile_resume(fj_worker *w)
{
    profile_worker *p = w->profile;
    if (p && atomic_load(&p->session) == atomic_load(&profile_recording))
        p->last = profile_now();
}

/* Adds p's totals for session `id` into *sum.  Caller holds profile_lock. */
static void profile_sum(const profile_worker *p, size_t id, fj_profile *sum)
{
    /* Acquire: pairs with the release in profile_reset. */
    if (atomic_load_acquire(&p->session) != id)
        return;
    sum->work += atomic_load(&p->work);
    sum->span = max_ull(sum->span, atomic_load(&p->span));
    sum->burdened_span = max_ull(sum->burdened_span, atomic_load(&p->burdened_span));
    sum->tasks += atomic_load(&p->tasks);
}

void profile_worker_stop(fj_worker *w)
{
    profile_worker *p = w->profile;
    if (!p)
        return;
    pthread_mutex_lock(&profile_lock);
    profile_sum(p, atomic_load(&profile_recording), &profile_retired);
    for (profile_worker **link = &profile_workers; *link; link = &(*link)->next)
        if (*link == p) {
            *link = p->next;
            break;
        }
    pthread_mutex_unlock(&profile_lock);
    free(p->frames);
    free(p);
    w->profile = NULL;
}

/* ---- sessions and the public API ---- */

static void profile_at_exit(void);

static int compare_ull(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

/* The typical (median) interval between two back-to-back reads of the default
 * clock; 0 for a custom clock (a unit counter costs nothing it would count). */
static size_t clock_read_cost(void)
{
    enum { SAMPLES = 1001 };
    unsigned long long gap[SAMPLES];
    if (atomic_load(&profile_clock))
        return 0;
    for (int i = 0; i < SAMPLES; i++) {
        unsigned long long a = thread_cpu_ns();
        gap[i] = thread_cpu_ns() - a;
    }
    qsort(gap, SAMPLES, sizeof gap[0], compare_ull);
    return (size_t)gap[SAMPLES / 2];
}

/* Caller holds profile_lock. */
static int profile_open(void)
{
    if (atomic_load(&profile_recording))
        return FJ_EBUSY;
    memset(&profile_retired, 0, sizeof profile_retired);
    atomic_store(&profile_read_cost, clock_read_cost());
    size_t burden = atomic_load(&profile_burden_asked);
    if (burden == PROFILE_BURDEN_UNSET)
        burden = atomic_load(&profile_clock) ? 0 : PROFILE_BURDEN_NS;
    atomic_store(&profile_burden, burden);
    atomic_store(&profile_roots, 0);
    atomic_store(&profile_roots_burdened, 0);
    atomic_store(&profile_ever_opened, 1);
    /* Release: the read cost, burden and roots above are set before a worker sees the new id.
     * Workers load the id relaxed; at worst their first interval uses the
     * previous cost, which only shifts the numbers by nanoseconds. */
    atomic_store_release(&profile_recording, ++profile_sessions);
    return 0;
}

bool profile_wanted(void)
{
    if (atomic_load(&profile_ever_opened))
        return true;
    const char *flag = getenv("FJ_PROFILE");
    if (!flag || !*flag || strcmp(flag, "0") == 0)
        return false;
    pthread_mutex_lock(&profile_lock);
    if (!env_session_tried) {
        env_session_tried = true;
        if (profile_open() == 0) {
            profile_from_env = true;
            atexit(profile_at_exit);
        }
    }
    pthread_mutex_unlock(&profile_lock);
    return true;
}

int fj_profile_start(void)
{
    pthread_mutex_lock(&profile_lock);
    int rc = profile_open();
    if (rc == 0)
        profile_from_env = false;
    pthread_mutex_unlock(&profile_lock);
    return rc;
}

static void profile_finish_totals(fj_profile *sum)
{
    sum->parallelism = sum->span ? (double)sum->work / (double)sum->span : 0.0;
    sum->burdened_parallelism = sum->burdened_span ? (double)sum->work / (double)sum->burdened_span : 0.0;
    sum->burden = atomic_load(&profile_burden);
    sum->clock_is_ns = atomic_load(&profile_clock) == 0;
}

int fj_profile_stop(fj_profile *result)
{
    fj_profile sum;
    pthread_mutex_lock(&profile_lock);
    size_t id = atomic_load(&profile_recording);
    if (!id) {
        pthread_mutex_unlock(&profile_lock);
        return FJ_EINVAL;
    }
    sum = profile_retired;
    for (const profile_worker *p = profile_workers; p; p = p->next)
        profile_sum(p, id, &sum);
    atomic_store(&profile_recording, 0);
    pthread_mutex_unlock(&profile_lock);
    profile_finish_totals(&sum);
    if (result)
        *result = sum;
    return 0;
}

int fj_profile_set_clock(unsigned long long (*clock)(void))
{
    pthread_mutex_lock(&profile_lock);
    int rc = FJ_EBUSY;
    if (!atomic_load(&profile_recording)) {
        atomic_store(&profile_clock, (size_t)clock);
        rc = 0;
    }
    pthread_mutex_unlock(&profile_lock);
    return rc;
}

int fj_profile_set_burden(long long units)
{
    if (units < -1)
        return FJ_EINVAL;
    pthread_mutex_lock(&profile_lock);
    int rc = FJ_EBUSY;
    if (!atomic_load(&profile_recording)) {
        atomic_store(&profile_burden_asked, units < 0 ? PROFILE_BURDEN_UNSET : (size_t)units);
        rc = 0;
    }
    pthread_mutex_unlock(&profile_lock);
    return rc;
}

/* ---- regions (Cilkscale's probes) ---- */

/* The work measured so far in session `id`, every worker's. */
static unsigned long long work_so_far(size_t id)
{
    fj_profile sum = {0};
    pthread_mutex_lock(&profile_lock);
    sum = profile_retired;
    for (const profile_worker *p = profile_workers; p; p = p->next)
        profile_sum(p, id, &sum);
    pthread_mutex_unlock(&profile_lock);
    return sum.work;
}

/* Where the calling strand's chain ends now: the top frame's path on a
 * worker inside a measured task, else the end of the roots so far (point 5). */
static void path_so_far(unsigned long long *path, unsigned long long *burdened)
{
    fj_worker *w = fj__self;
    size_t id;
    profile_worker *p = w && (w->hooks & HOOKS_PROFILE) ? profile_enter(w, &id) : NULL;
    profile_frame *top = p ? top_frame(p) : NULL;
    if (top && !top->waiting) {
        *path = top->path;
        *burdened = top->burdened;
    } else {
        *path = atomic_load(&profile_roots);
        *burdened = atomic_load(&profile_roots_burdened);
    }
    if (p)
        profile_resume(w);
}

int fj_profile_region_begin(fj_profile_region *region)
{
    if (!region)
        return FJ_EINVAL;
    size_t id = atomic_load(&profile_recording);
    if (!id)
        return FJ_EINVAL;
    region->session = id;
    path_so_far(&region->path, &region->burdened);
    region->work = work_so_far(id);
    return 0;
}

int fj_profile_region_end(const fj_profile_region *region, fj_profile *result)
{
    if (!region || !result)
        return FJ_EINVAL;
    size_t id = atomic_load(&profile_recording);
    if (!id || id != region->session)
        return FJ_EINVAL;
    fj_profile sum = {0};
    unsigned long long path, burdened;
    path_so_far(&path, &burdened);
    sum.work = work_so_far(id) - region->work;
    sum.span = path - region->path;
    sum.burdened_span = burdened - region->burdened;
    profile_finish_totals(&sum);
    *result = sum;
    return 0;
}

/* "12.3 ms" for nanoseconds, "12345 units" for a custom clock. */
static void format_amount(char *text, size_t size, double amount, int is_ns)
{
    if (!is_ns)
        snprintf(text, size, "%.0f units", amount);
    else if (amount >= 1e9)
        snprintf(text, size, "%.3f s", amount / 1e9);
    else if (amount >= 1e6)
        snprintf(text, size, "%.3f ms", amount / 1e6);
    else
        snprintf(text, size, "%.3f us", amount / 1e3);
}

int fj_profile_print(const fj_profile *p, FILE *out)
{
    if (!p || !out)
        return FJ_EINVAL;
    char work[32], span[32];
    format_amount(work, sizeof work, (double)p->work, p->clock_is_ns);
    format_amount(span, sizeof span, (double)p->span, p->clock_is_ns);
    fprintf(out, "fj profile: work T1 = %s, span Tinf = %s, parallelism T1/Tinf = %.2f (%llu tasks)\n", work, span,
            p->parallelism, p->tasks);
    if (p->burdened_span) {
        char burdened[32], burden[32];
        format_amount(burdened, sizeof burdened, (double)p->burdened_span, p->clock_is_ns);
        format_amount(burden, sizeof burden, (double)p->burden, p->clock_is_ns);
        fprintf(out, "  burdened span = %s (each fork charged %s), burdened parallelism = %.2f\n", burdened, burden,
                p->burdened_parallelism);
    }
    if (p->tasks && p->clock_is_ns) {
        double per_task = (double)p->work / (double)p->tasks;
        fprintf(out, "  work per task = %.0f ns on average%s\n", per_task,
                per_task < (double)p->burden ? ", less than a fork's burden: a cut-off (bigger leaves) would pay" : "");
    }
    fprintf(out, "  workers P   T_P at least      T_P at most       speedup T1/T_P\n");
    fprintf(out, "              max(T1/P, Tinf)   T1/P + Tinf       (greedy scheduler bounds)\n");
    for (unsigned workers = 1; workers <= 64; workers *= 2) {
        double t1 = (double)p->work, tinf = (double)p->span;
        double lower = t1 / workers > tinf ? t1 / workers : tinf;
        double upper = t1 / workers + tinf;
        char low_text[32], up_text[32];
        format_amount(low_text, sizeof low_text, lower, p->clock_is_ns);
        format_amount(up_text, sizeof up_text, upper, p->clock_is_ns);
        fprintf(out, "  %9u   %-16s  %-16s  %.2f .. %.2f\n", workers, low_text, up_text, upper > 0 ? t1 / upper : 0.0,
                lower > 0 ? t1 / lower : 0.0);
    }
    /* Flushed first: a buffered stream shows a failed write only then. */
    return fflush(out) != 0 || ferror(out) ? FJ_ESYSTEM : 0;
}

static void profile_at_exit(void)
{
    fj_profile result;
    /* Only the session FJ_PROFILE opened: an API session is its caller's. */
    if (profile_from_env && fj_profile_stop(&result) == 0)
        fj_profile_print(&result, stderr);
}
