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
 * 5. Tasks not forked.  A root (from the injector) starts at path 0; a task
 *    run with fj_invoke inside another is a call: it starts at its caller's
 *    path and the caller continues from its finish.
 * 6. The hooks' own cost.  The clock is read at the start of each hook and
 *    restarted at its end (profile_resume), so instrumentation, tracing and
 *    stress pauses are not counted.  Each measured interval still contains
 *    one clock read (about 20-60 ns, more than a fib task); the default clock
 *    measures that once per session (the median of back-to-back reads)
 *    and subtracts it from every interval.  What remains is the cost of the
 *    events themselves (a fork, a join), which is real work of the program.
 * 7. Time is noisy.  A preempted worker's strand looks longer.  Profile with
 *    FJ_WORKERS=1 (no preemption by our own threads), as Cilkscale does, or
 *    install a deterministic clock with fj_profile_set_clock (the tests do).
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

typedef struct profile_frame {
    const struct fj_task *task;
    unsigned long long path;  /* longest chain ending here, clock units */
    unsigned waiting;         /* in a join of a stolen task (point 3) */
    bool called;              /* started by fj_invoke in its caller (point 5) */
    bool joined_inline;       /* its joiner is the frame below (point 4) */
} profile_frame;

typedef struct profile_worker {
    struct profile_worker *next;  /* live list, under profile_lock */
    /* Written by the owner, read by fj_profile_stop. */
    atomic_word session;          /* id its totals belong to */
    atomic_word work, span, tasks;
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

static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;
static profile_worker *profile_workers;  /* live, under profile_lock */
static fj_profile profile_retired;       /* workers that exited during the session */
static size_t profile_sessions;
static bool env_session_tried, profile_from_env;

static unsigned long long monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
}

static unsigned long long profile_now(void)
{
    size_t fn = atomic_load(&profile_clock);
    return fn ? ((profile_clock_fn)fn)() : monotonic_ns();
}

/* fj_tool[1] stamps (point 1): forked in session s, finished in session s. */
static unsigned long long stamp_forked(size_t s) { return 2ull * s; }
static unsigned long long stamp_finished(size_t s) { return 2ull * s + 1; }

static unsigned long long max_ull(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

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

static profile_frame *top_frame(profile_worker *p) { return p->depth ? &p->frames[p->depth - 1] : NULL; }

static void charge(profile_worker *p, unsigned long long dt)
{
    size_t read_cost = atomic_load(&profile_read_cost);
    dt = dt > read_cost ? dt - read_cost : 0;
    profile_frame *top = top_frame(p);
    if (!top || top->waiting)
        return;  /* idle, or waiting in a join: not work */
    top->path += dt;
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

static void frame_push(profile_worker *p, const struct fj_task *t, unsigned long long start, bool called)
{
    bool joined_inline = p->inline_next == t;
    p->inline_next = NULL;
    if (p->lost || !frame_room(p)) {
        p->lost++;  /* deeper frames are not measured; the stack stays consistent */
        return;
    }
    p->frames[p->depth++] = (profile_frame){t, start, 0, called, joined_inline};
}

/* ---- the events ---- */

static void on_task_begin(profile_worker *p, size_t id, const struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    counter_add(&p->tasks, 1);
    if (t->fj_tool[1] == stamp_forked(id))
        frame_push(p, t, t->fj_tool[0], false);
    else if (top && !top->waiting && !p->lost)
        frame_push(p, t, top->path, true);  /* a call (point 5) */
    else
        frame_push(p, t, 0, false);  /* a root */
}

static void on_task_end(profile_worker *p, size_t id, struct fj_task *t)
{
    if (p->lost) {
        p->lost--;
        return;
    }
    profile_frame *top = top_frame(p);
    if (!top || top->task != t)
        return;  /* began before the session */
    profile_frame done = *top;
    p->depth--;
    if (done.path > atomic_load(&p->span))
        atomic_store(&p->span, done.path);
    /* Point 1: published with the task's completion, which follows this hook. */
    t->fj_tool[0] = done.path;
    t->fj_tool[1] = stamp_finished(id);
    profile_frame *caller = top_frame(p);
    if (caller && (done.called || done.joined_inline))
        caller->path = max_ull(caller->path, done.path);
}

/* A join of t returns in the top frame: continue from the longer chain. */
static void on_joined(profile_worker *p, size_t id, const struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    if (top && !p->lost && t->fj_tool[1] == stamp_finished(id))
        top->path = max_ull(top->path, t->fj_tool[0]);
}

static void on_fork(profile_worker *p, size_t id, struct fj_task *t)
{
    profile_frame *top = top_frame(p);
    /* Plain writes: the push that follows publishes them (point 1). */
    t->fj_tool[0] = top && !p->lost ? top->path : 0;
    t->fj_tool[1] = stamp_forked(id);
}

void profile_event(fj_worker *w, enum hook_event event, struct fj_task *task)
{
    profile_worker *p = profile_current(w);
    if (!p)
        return;
    size_t id = atomic_load(&p->session);
    unsigned long long now = profile_now();
    charge(p, now - p->last);
    p->last = now;
    profile_frame *top = top_frame(p);
    switch (event) {
    case HOOK_TASK_BEGIN:
        on_task_begin(p, id, task);
        break;
    case HOOK_TASK_END:
        on_task_end(p, id, task);
        break;
    case HOOK_FORK:
        on_fork(p, id, task);
        break;
    case HOOK_INLINE_JOIN:
        p->inline_next = task;
        break;
    case HOOK_JOIN_BEGIN:
        if (top && !p->lost)
            top->waiting++;
        break;
    case HOOK_JOIN_END:
        if (top && !p->lost && top->waiting)
            top->waiting--;
        on_joined(p, id, task);
        break;
    case HOOK_JOIN_DONE:
        on_joined(p, id, task);
        break;
    default:
        break;  /* steals, parks: only the time is charged (to nobody, usually) */
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
        unsigned long long a = monotonic_ns();
        gap[i] = monotonic_ns() - a;
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
    atomic_store(&profile_ever_opened, 1);
    /* Release: the read cost above is set before a worker sees the new id.
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
    sum.parallelism = sum.span ? (double)sum.work / (double)sum.span : 0.0;
    sum.clock_is_ns = atomic_load(&profile_clock) == 0;
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
    return ferror(out) ? FJ_ESYSTEM : 0;
}

static void profile_at_exit(void)
{
    fj_profile result;
    /* Only the session FJ_PROFILE opened: an API session is its caller's. */
    if (profile_from_env && fj_profile_stop(&result) == 0)
        fj_profile_print(&result, stderr);
}
