/* completer.c - Java's CountedCompleter (fj_java.h): pending counts and the
 * completion walk up the chain of completers.
 *
 * A completer's task body runs compute and returns FJ__RAN_PENDING: the body
 * ran, its completion comes later (task.c, point 6).  The walk that finds a
 * root's pending count zero publishes its completion with
 * task_complete_later, which wakes whoever joins or gets it.
 *
 * Ordering: every change of a pending count is a full CAS, and the walk reads
 * the count with acquire.  A walk that finds zero therefore sees everything
 * written before each decrement that brought the count there (the subtasks'
 * results, read by on_completion), and the root's publication releases all
 * of it to the root's joiner.
 *
 * Freeing: the walk reads a completer's fields (pending count, callbacks,
 * completer) only before it moves on to the completer above, and touches a
 * root last in task_complete_later's CAS; fj_java.h states the rule users
 * get from this. */
#include "../include/fj_java.h"
#include "error.h"
#include "task.h"

static atomic_u32 *cc_pending(const fj_counted_completer *c) { return (atomic_u32 *)&c->fj_pending; }

static int cc_run(fj_task *t)
{
    fj_counted_completer *c = FJ_COMPLETER_OF(t);
    /* No compute: Java's empty compute(), for a completer that only counts. */
    int rc = c->compute ? c->compute(c) : 0;
    /* Java: an exception thrown from compute. */
    if (rc < 0 && fj_cc_complete_exceptionally(c, rc) != 0) {
        /* Refused: c is complete, or was settled while compute ran.  A cancel,
         * a quiet completion or a plain fj_task_fail only flags a running
         * completer and leaves its publication to the completion still to
         * come (task_settle: no COMPLETES_LATER here), and this error was that
         * completion; nothing else settles c now (a settled task refuses every
         * settle), so without us nothing would publish c and its joiners
         * would wait for ever (tests/model/task.pml -DCC).  Publish it, its
         * flag deciding the outcome.  Not when FAILER_PUBLISHES is set: that
         * fail is an fj_cc_complete_exceptionally of another thread, which
         * publishes c itself once its on_exceptional_completion has returned
         * (c's joiner may free c as soon as it is published). */
        unsigned status = task_status_acquire(t);
        if (!status_is_done(status) && (status & STATUS_SETTLED) && !(status & STATUS_FAILER_PUBLISHES))
            task_complete_later(t, rc);
    }
    /* From here on c may be complete and freed: the executor must not touch it. */
    return task_returns_later();
}

void fj_cc_init(fj_counted_completer *c, fj_counted_completer *completer, int initial_pending,
                int (*compute)(fj_counted_completer *self))
{
    fj_task_init(&c->task, cc_run);
    c->completer = completer;
    c->compute = compute;
    c->on_completion = NULL;
    c->on_exceptional_completion = NULL;
    atomic_store_u32(cc_pending(c), (unsigned)initial_pending);
}

int fj_cc_get_pending_count(const fj_counted_completer *c)
{
    /* Acquire: pairs with the full CAS of the decrement that set the count. */
    return (int)atomic_load_acquire_u32(cc_pending(c));
}

void fj_cc_set_pending_count(fj_counted_completer *c, int count)
{
    /* Release: what the caller wrote before (its subtasks' setup) is seen by
     * the walk that later acquires the count. */
    atomic_store_release_u32(cc_pending(c), (unsigned)count);
}

void fj_cc_add_to_pending_count(fj_counted_completer *c, int delta)
{
    /* Full: a read-modify-write ordered like every other change of the count. */
    (void)atomic_fetch_add_full_u32(cc_pending(c), (unsigned)delta);
}

int fj_cc_compare_and_set_pending_count(fj_counted_completer *c, int expected, int count)
{
    /* Full: as every change of the count (see the file comment). */
    return atomic_cas_full_u32(cc_pending(c), (unsigned)expected, (unsigned)count) == (unsigned)expected;
}

int fj_cc_decrement_pending_count_unless_zero(fj_counted_completer *c)
{
    /* Acquire: a zero read here comes with the writes of every decrement
     * that brought the count there (a failed full CAS below orders as much). */
    unsigned n = atomic_load_acquire_u32(cc_pending(c));
    while (n != 0) {
        /* Full: a decrement releases the caller's writes to the walk that
         * finds the count zero (see the file comment). */
        unsigned seen = atomic_cas_full_u32(cc_pending(c), n, n - 1);
        if (seen == n)
            break;
        n = seen;
    }
    return (int)n;
}

/* Decrements a's nonzero pending count and returns 1, or returns 0 if it is
 * zero (then with the writes of every decrement before it). */
static int cc_decrement_or_zero(fj_counted_completer *a) { return fj_cc_decrement_pending_count_unless_zero(a) != 0; }

/* The walk of tryComplete (with_hook) and propagateCompletion. */
static void cc_walk(fj_counted_completer *a, int with_hook)
{
    fj_counted_completer *caller = a;
    for (;;) {
        if (cc_decrement_or_zero(a))
            return;
        /* Read before the hook: the runtime's last access to an inner a, so
         * that its on_completion may free it (fj_java.h, "Freeing"). */
        fj_counted_completer *above = a->completer;
        if (with_hook && a->on_completion)
            a->on_completion(a, caller);
        if (!above) {
            task_complete_later(&a->task, 0);
            return;
        }
        caller = a;
        a = above;
    }
}

void fj_cc_try_complete(fj_counted_completer *c) { cc_walk(c, 1); }

void fj_cc_propagate_completion(fj_counted_completer *c) { cc_walk(c, 0); }

void fj_cc_complete(fj_counted_completer *c)
{
    if (c->on_completion)
        c->on_completion(c, c);
    fj_counted_completer *above = c->completer;  /* read before c may be freed */
    task_complete_later(&c->task, 0);
    if (above)
        fj_cc_try_complete(above);
}

int fj_cc_complete_exceptionally(fj_counted_completer *c, int error)
{
    if (!c)
        return error_null(__func__, "c");
    if (error >= 0)
        return FJ_EINVAL;
    /* Marked failed first (is_completed_abnormally is true in the hook, as in
     * Java), marked complete after the hook (then its joiner may free it). */
    /* FAILER_PUBLISHES: we publish c below, after its hook; cc_run must not. */
    if (task_fail(&c->task, error, STATUS_FAILED | STATUS_FAILER_PUBLISHES) != 0)
        return FJ_EINVAL;  /* complete or settled already: Java leaves it as it is */
    fj_counted_completer *a = c, *caller = c;
    for (;;) {
        int propagate = a->on_exceptional_completion ? a->on_exceptional_completion(a, error, caller) : 1;
        fj_counted_completer *above = a->completer;
        task_complete_later(&a->task, error);
        if (!propagate || !above || task_fail(&above->task, error, STATUS_FAILED | STATUS_FAILER_PUBLISHES) != 0)
            return 0;
        caller = a;
        a = above;
    }
}

/* Whether completer c lies on the completion path of task x: x is a
 * completer, and c is x or one of the completers above it.  x is queued in
 * our deque, so x and the completers it will walk to are alive. */
static bool cc_on_completion_path(const fj_task *x, const void *c)
{
    if (x->fn != cc_run)
        return false;
    for (const fj_counted_completer *a = FJ_COMPLETER_OF((fj_task *)x); a; a = a->completer)
        if (a == c)
            return true;
    return false;
}

int fj_cc_help_complete(fj_counted_completer *c, int max_tasks)
{
    if (!c)
        return error_null(__func__, "c");
    if (max_tasks <= 0)
        return 0;
    return task_help_queued(&c->task, cc_on_completion_path, c, max_tasks);
}

void fj_cc_quietly_complete_root(fj_counted_completer *c)
{
    task_complete_later(&fj_cc_get_root(c)->task, 0);
}

fj_counted_completer *fj_cc_get_completer(const fj_counted_completer *c) { return c->completer; }

fj_counted_completer *fj_cc_get_root(fj_counted_completer *c)
{
    while (c->completer)
        c = c->completer;
    return c;
}

fj_counted_completer *fj_cc_first_complete(fj_counted_completer *c)
{
    return cc_decrement_or_zero(c) ? NULL : c;
}

fj_counted_completer *fj_cc_next_complete(fj_counted_completer *c)
{
    if (c->completer)
        return fj_cc_first_complete(c->completer);
    task_complete_later(&c->task, 0);
    return NULL;
}
