/* test_completer.c - Java's CountedCompleter (fj_java.h): pending counts,
 * the completion walk and its hooks, roots waited for inside and outside the
 * pool, exceptional completion, and heap completers freed by their parent's
 * on_completion (run it under ASan to check that freeing rule). */
#include <stdatomic.h>
#include <stdlib.h>

#include "../check.h"
#include "fj_java.h"

/* ---- pending-count arithmetic ---- */

static int no_compute(fj_counted_completer *self) { return 0; }

static void pending_count_arithmetic(void)
{
    fj_counted_completer c;
    fj_cc_init(&c, NULL, 3, no_compute);
    CHECK_EQ(3, fj_cc_get_pending_count(&c));
    fj_cc_add_to_pending_count(&c, 2);
    CHECK_EQ(5, fj_cc_get_pending_count(&c));
    fj_cc_add_to_pending_count(&c, -4);
    CHECK_EQ(1, fj_cc_get_pending_count(&c));
    CHECK_EQ(1, fj_cc_compare_and_set_pending_count(&c, 1, 4));
    CHECK_EQ(0, fj_cc_compare_and_set_pending_count(&c, 1, 0));
    CHECK_EQ(4, fj_cc_get_pending_count(&c));
    CHECK_EQ(4, fj_cc_decrement_pending_count_unless_zero(&c));
    CHECK_EQ(3, fj_cc_get_pending_count(&c));
    fj_cc_set_pending_count(&c, 0);
    CHECK_EQ(0, fj_cc_decrement_pending_count_unless_zero(&c));
    CHECK_EQ(0, fj_cc_get_pending_count(&c));
    /* firstComplete: decrements a nonzero count, returns the completer at zero */
    fj_cc_set_pending_count(&c, 1);
    CHECK(fj_cc_first_complete(&c) == NULL);
    CHECK_EQ(0, fj_cc_get_pending_count(&c));
    CHECK(fj_cc_first_complete(&c) == &c);
    CHECK(!fj_task_is_done(&c.task));
}

/* ---- the walk, on completers never forked (one thread, exact order) ---- */

typedef struct logged {
    fj_counted_completer cc;
    char name;
    char *log;  /* "name<caller>" per on_completion */
    int propagate_error;
} logged;

static void log_completion(fj_counted_completer *self, fj_counted_completer *caller)
{
    logged *l = FJ_CONTAINER_OF(self, logged, cc);
    size_t n = strlen(l->log);
    l->log[n] = l->name;
    l->log[n + 1] = FJ_CONTAINER_OF(caller, logged, cc)->name;
    l->log[n + 2] = '\0';
}

static int log_exceptional(fj_counted_completer *self, int error, fj_counted_completer *caller)
{
    logged *l = FJ_CONTAINER_OF(self, logged, cc);
    CHECK_EQ(-7, error);
    log_completion(self, caller);
    return l->propagate_error;
}

static void logged_init(logged *l, char name, logged *above, int pending, char *log)
{
    fj_cc_init(&l->cc, above ? &above->cc : NULL, pending, no_compute);
    l->cc.on_completion = log_completion;
    l->cc.on_exceptional_completion = log_exceptional;
    l->name = name;
    l->log = log;
    l->propagate_error = 1;
}

static void try_complete_walks_to_the_root_in_order(void)
{
    char log[64] = "";
    logged root, mid, leaf;
    logged_init(&root, 'r', NULL, 0, log);
    logged_init(&mid, 'm', &root, 1, log);
    logged_init(&leaf, 'l', &mid, 0, log);
    CHECK(fj_cc_get_completer(&leaf.cc) == &mid.cc && fj_cc_get_completer(&root.cc) == NULL);
    CHECK(fj_cc_get_root(&leaf.cc) == &root.cc && fj_cc_get_root(&root.cc) == &root.cc);

    fj_cc_try_complete(&leaf.cc);  /* leaf's hook, then mid's count 1 -> 0: stop */
    CHECK(strcmp(log, "ll") == 0);
    CHECK_EQ(0, fj_cc_get_pending_count(&mid.cc));
    CHECK(!fj_task_is_done(&root.cc.task));

    fj_cc_try_complete(&leaf.cc);  /* now every count is zero: up to the root */
    CHECK(strcmp(log, "llllmlrm") == 0);
    CHECK(fj_task_is_done(&root.cc.task));
    CHECK_EQ(0, fj_task_outcome(&root.cc.task));
    CHECK_RC(0, fj_join(&root.cc.task));  /* from outside the pool: complete already */
    /* As in Java, only the root is marked complete by the walk. */
    CHECK(!fj_task_is_done(&mid.cc.task) && !fj_task_is_done(&leaf.cc.task));
}

static void propagate_completion_skips_on_completion(void)
{
    char log[64] = "";
    logged root, leaf;
    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&leaf, 'l', &root, 0, log);
    fj_cc_propagate_completion(&leaf.cc);
    CHECK_EQ(0, fj_cc_get_pending_count(&root.cc));
    CHECK(!fj_task_is_done(&root.cc.task));
    fj_cc_propagate_completion(&leaf.cc);
    CHECK(fj_task_is_done(&root.cc.task));
    CHECK(strcmp(log, "") == 0);
}

static void complete_runs_the_hook_and_tries_the_completer(void)
{
    char log[64] = "";
    logged root, leaf;
    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&leaf, 'l', &root, 5, log);  /* complete ignores the count */
    fj_cc_complete(&leaf.cc);
    CHECK(strcmp(log, "ll") == 0);
    CHECK(fj_task_is_done(&leaf.cc.task));
    CHECK_EQ(0, fj_cc_get_pending_count(&root.cc));  /* the root's count was decremented */
    CHECK(!fj_task_is_done(&root.cc.task));
    fj_cc_complete(&leaf.cc);  /* already complete: its hook runs, the root's count is 0 */
    CHECK(fj_task_is_done(&root.cc.task));
    CHECK(strcmp(log, "llllrr") == 0);  /* Java: the completer's tryComplete starts at itself */
}

static void quietly_complete_root_and_next_complete(void)
{
    char log[64] = "";
    logged root, leaf;
    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&leaf, 'l', &root, 0, log);
    fj_cc_quietly_complete_root(&leaf.cc);
    CHECK(fj_task_is_done(&root.cc.task) && !fj_task_is_done(&leaf.cc.task));
    CHECK(strcmp(log, "") == 0);

    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&leaf, 'l', &root, 0, log);
    CHECK(fj_cc_next_complete(&leaf.cc) == NULL);  /* root's count 1 -> 0 */
    CHECK(fj_cc_next_complete(&leaf.cc) == &root.cc);
    CHECK(!fj_task_is_done(&root.cc.task));
    CHECK(fj_cc_next_complete(&root.cc) == NULL);  /* a root: marked complete */
    CHECK(fj_task_is_done(&root.cc.task));
    CHECK(strcmp(log, "") == 0);
}

static void complete_exceptionally_propagates_while_hooks_agree(void)
{
    char log[64] = "";
    logged root, mid, leaf;
    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&mid, 'm', &root, 1, log);
    logged_init(&leaf, 'l', &mid, 0, log);
    CHECK_RC(FJ_EINVAL, fj_cc_complete_exceptionally(&leaf.cc, 3));
    CHECK_RC(0, fj_cc_complete_exceptionally(&leaf.cc, -7));
    CHECK(strcmp(log, "llmlrm") == 0);
    CHECK_EQ(-7, fj_task_outcome(&leaf.cc.task));
    CHECK_EQ(-7, fj_task_outcome(&mid.cc.task));
    CHECK_EQ(-7, fj_task_outcome(&root.cc.task));
    CHECK_RC(-7, fj_join(&root.cc.task));
    CHECK_RC(FJ_EINVAL, fj_cc_complete_exceptionally(&leaf.cc, -7));  /* complete already */

    /* A hook that returns 0 stops the propagation above its completer. */
    log[0] = '\0';
    logged_init(&root, 'r', NULL, 1, log);
    logged_init(&mid, 'm', &root, 1, log);
    logged_init(&leaf, 'l', &mid, 0, log);
    mid.propagate_error = 0;
    CHECK_RC(0, fj_cc_complete_exceptionally(&leaf.cc, -7));
    CHECK(strcmp(log, "llml") == 0);
    CHECK_EQ(-7, fj_task_outcome(&mid.cc.task));
    CHECK(!fj_task_is_done(&root.cc.task));
}

/* ---- a recursive sum in a pool: heap nodes freed by their parent ---- */

enum { SUM_LEAF = 64 };

typedef struct sum_node {
    fj_counted_completer cc;
    const long *values;
    size_t lo, hi;
    long sum;
    struct sum_node *left, *right;
} sum_node;

static atomic_long nodes_allocated, nodes_freed;

static int sum_compute(fj_counted_completer *self);

static void sum_done(fj_counted_completer *self, fj_counted_completer *caller)
{
    sum_node *n = FJ_CONTAINER_OF(self, sum_node, cc);
    if (!n->left)
        return;  /* a leaf: its own sum is set */
    n->sum = n->left->sum + n->right->sum;
    free(n->left);  /* both finished their walks: the rule of fj_java.h */
    free(n->right);
    atomic_fetch_add(&nodes_freed, 2);
}

static void sum_init(sum_node *n, sum_node *above, const long *values, size_t lo, size_t hi)
{
    fj_cc_init(&n->cc, above ? &above->cc : NULL, 0, sum_compute);
    n->cc.on_completion = sum_done;
    n->values = values;
    n->lo = lo;
    n->hi = hi;
    n->sum = 0;
    n->left = n->right = NULL;
}

static sum_node *sum_new(sum_node *above, size_t lo, size_t hi)
{
    sum_node *n = malloc(sizeof *n);
    CHECK(n != NULL);
    atomic_fetch_add(&nodes_allocated, 1);
    sum_init(n, above, above->values, lo, hi);
    return n;
}

static int sum_compute(fj_counted_completer *self)
{
    sum_node *n = FJ_CONTAINER_OF(self, sum_node, cc);
    if (n->hi - n->lo <= SUM_LEAF) {
        long s = 0;
        for (size_t i = n->lo; i < n->hi; i++)
            s += n->values[i];
        n->sum = s;
        fj_cc_try_complete(self);
        return 0;
    }
    size_t mid = n->lo + (n->hi - n->lo) / 2;
    sum_node *left = sum_new(n, n->lo, mid);
    sum_node *right = sum_new(n, mid, n->hi);
    n->left = left;
    n->right = right;
    fj_cc_set_pending_count(self, 1);  /* two subtasks: the second to finish goes on up */
    fj_fork(&right->cc.task);
    /* From here n may be complete and freed: use only locals. */
    return left->cc.compute(&left->cc);
}

typedef struct sum_case {
    long *values;
    size_t count;
    long expected;
} sum_case;

static sum_case sum_case_new(void)
{
    sum_case sc;
    sc.count = (size_t)check_size(1L << 20, 1L << 14) + 13;  /* an odd split */
    sc.values = malloc(sc.count * sizeof *sc.values);
    CHECK(sc.values != NULL);
    sc.expected = 0;
    for (size_t i = 0; i < sc.count; i++) {
        sc.values[i] = (long)(i * 7919 % 1000) - 400;
        sc.expected += sc.values[i];
    }
    atomic_store(&nodes_allocated, 0);
    atomic_store(&nodes_freed, 0);
    return sc;
}

static void sum_case_check(sum_case *sc, const sum_node *root)
{
    CHECK_EQ(sc->expected, root->sum);
    CHECK(atomic_load(&nodes_allocated) > 2 * (long)(sc->count / SUM_LEAF) - 2);  /* many leaves */
    CHECK_EQ(atomic_load(&nodes_allocated), atomic_load(&nodes_freed));
    CHECK(fj_task_is_done(&root->cc.task) && fj_task_is_completed_normally(&root->cc.task));
    free(sc->values);
}

static void sum_invoked_from_outside(void)
{
    fj_pool *pool = check_pool();
    sum_case sc = sum_case_new();
    sum_node root;
    sum_init(&root, NULL, sc.values, 0, sc.count);
    CHECK_RC(0, fj_pool_invoke(pool, &root.cc.task));  /* submit, then a futex wait */
    sum_case_check(&sc, &root);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void sum_submitted_and_got_from_outside(void)
{
    fj_pool *pool = check_pool();
    sum_case sc = sum_case_new();
    sum_node root;
    sum_init(&root, NULL, sc.values, 0, sc.count);
    CHECK_RC(0, fj_pool_submit(pool, &root.cc.task));
    CHECK_RC(0, fj_task_get(&root.cc.task));
    sum_case_check(&sc, &root);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A worker forks the root and joins it: the join may pop it and run it
 * inline, and must then wait for its completion as for a stolen task. */
typedef struct driver {
    fj_task task;
    sum_node *root;
    int join_rc;
    int invoke_rc;
    sum_node *second;
} driver;

static int driver_run(fj_task *t)
{
    driver *d = FJ_CONTAINER_OF(t, driver, task);
    CHECK_RC(0, fj_fork(&d->root->cc.task));
    d->join_rc = fj_join(&d->root->cc.task);
    d->invoke_rc = fj_invoke(&d->second->cc.task);  /* run here, completes later */
    return 0;
}

static void sum_joined_by_a_worker(void)
{
    fj_pool *pool = check_pool();
    sum_case sc = sum_case_new();
    sum_node root, second;
    sum_init(&root, NULL, sc.values, 0, sc.count);
    sum_init(&second, NULL, sc.values, 0, sc.count);
    driver d = {FJ_TASK_INIT(driver_run), &root, 1, 1, &second};
    CHECK_RC(0, fj_pool_invoke(pool, &d.task));
    CHECK_RC(0, d.join_rc);
    CHECK_RC(0, d.invoke_rc);
    CHECK_EQ(sc.expected, second.sum);
    sum_case_check(&sc, &root);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- an error from compute completes the root exceptionally ---- */

typedef struct failing {
    fj_counted_completer cc;
    int depth;
    atomic_int *exceptional_hooks;
} failing;

static int failing_hook(fj_counted_completer *self, int error, fj_counted_completer *caller)
{
    failing *f = FJ_CONTAINER_OF(self, failing, cc);
    atomic_fetch_add(f->exceptional_hooks, 1);
    return 1;
}

static int failing_compute(fj_counted_completer *self)
{
    failing *f = FJ_CONTAINER_OF(self, failing, cc);
    if (f->depth == 0)
        return -1234;  /* Java: compute throws */
    fj_cc_set_pending_count(self, 1);
    failing *children = f + 1;  /* depth-first array: this node's child is next */
    fj_fork(&children->cc.task);
    return 0;  /* never try_complete: only the error completes the chain */
}

static void error_from_compute_completes_the_root(void)
{
    enum { DEPTH = 6 };
    fj_pool *pool = check_pool();
    atomic_int hooks = 0;
    failing chain[DEPTH + 1];
    for (int i = 0; i <= DEPTH; i++) {
        fj_cc_init(&chain[i].cc, i ? &chain[i - 1].cc : NULL, 0, failing_compute);
        chain[i].cc.on_exceptional_completion = failing_hook;
        chain[i].depth = DEPTH - i;
        chain[i].exceptional_hooks = &hooks;
    }
    CHECK_RC(0, fj_pool_submit(pool, &chain[0].cc.task));
    CHECK_RC(-1234, fj_task_get(&chain[0].cc.task));
    CHECK(fj_task_is_completed_abnormally(&chain[0].cc.task));
    CHECK_RC(0, fj_pool_destroy(pool));  /* every compute has returned */
    CHECK_EQ(DEPTH + 1, atomic_load(&hooks));
    for (int i = 0; i <= DEPTH; i++)
        CHECK_EQ(-1234, fj_task_outcome(&chain[i].cc.task));
}

/* ---- a completer settled while compute runs, then compute fails ---- */

/* compute settles its own completer (cancel, quiet completion or a plain
 * fj_task_fail), as a settle from another thread landing while it runs
 * would, then returns an error.  The settle only flags a running completer,
 * whose completion is still to come, and the error is that completion.
 * Before the fixes fj_cc_complete_exceptionally refused it (the task was
 * settled) and nothing ever published the completer: its get waited for
 * ever (the Spin model's counterexamples, tests/model/task.pml -DCC,
 * mk/model.mk task-mutant-cc-settled-error-lost and, for the plain fail,
 * task-mutant-cc-plain-fail-unpublished).  Java: the settle completed it,
 * and the exception after it changes nothing. */
enum settle_kind { SETTLE_QUIETLY, SETTLE_CANCEL, SETTLE_FAIL };
#define SETTLE_FAIL_ERROR (-1001)

typedef struct settling {
    fj_counted_completer cc;
    enum settle_kind kind;
} settling;

static int settle_as(fj_task *t, enum settle_kind kind)
{
    switch (kind) {
    case SETTLE_CANCEL:
        return fj_task_cancel(t);
    case SETTLE_FAIL:
        return fj_task_fail(t, SETTLE_FAIL_ERROR);
    default:
        return fj_task_quietly_complete(t);
    }
}

static int settles_itself_then_fails(fj_counted_completer *self)
{
    settling *s = FJ_CONTAINER_OF(self, settling, cc);
    CHECK_RC(0, settle_as(&self->task, s->kind));
    CHECK(!fj_task_is_done(&self->task));  /* compute still runs: it completes later */
    return -77;
}

static void completer_settled_while_compute_runs_completes_on_its_error(void)
{
    static const int expected_rc[] = {[SETTLE_QUIETLY] = 0, [SETTLE_CANCEL] = FJ_ECANCELED,
                                      [SETTLE_FAIL] = SETTLE_FAIL_ERROR};
    fj_pool *pool = check_pool();
    for (int kind = SETTLE_QUIETLY; kind <= SETTLE_FAIL; kind++) {
        settling s = {.kind = (enum settle_kind)kind};
        fj_cc_init(&s.cc, NULL, 0, settles_itself_then_fails);
        CHECK_RC(0, fj_pool_submit(pool, &s.cc.task));
        /* A time limit only to turn the old endless wait into a failure. */
        CHECK_RC(expected_rc[kind], fj_task_get_timed(&s.cc.task, 60 * 1000000000LL));
        CHECK(fj_task_is_done(&s.cc.task));
        CHECK_EQ(kind == SETTLE_CANCEL, fj_task_is_cancelled(&s.cc.task));
        CHECK_EQ(kind != SETTLE_QUIETLY, fj_task_is_completed_abnormally(&s.cc.task));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A pool of one worker: nothing forked there is stolen, so what runs where is
 * known. */
static fj_pool *one_worker_pool(void)
{
    unsigned saved = check_workers;
    check_workers = 1;
    fj_pool *pool = check_pool();
    check_workers = saved;
    return pool;
}

/* ---- completed exceptionally from outside before it ran ---- */

/* fj_java.h: on_exceptional_completion runs "before it is marked done".  A
 * completer queued behind a busy worker is completed exceptionally from the
 * test's thread; inside its hook the worker is let go and takes the
 * completer, and the hook waits until the pool is quiescent (the worker is
 * through with it).  The completer must still not be done then: the worker
 * skips its compute and leaves the publication to the hook's caller.  Before
 * the fix the worker published it as a settled task, so its joiner could
 * return (and free it) while the hook still ran. */
static atomic_int gate_entered, gate_open;

static int wait_at_gate(fj_task *t)
{
    (void)t;
    atomic_store(&gate_entered, 1);
    while (!atomic_load(&gate_open))
        ;  /* busy: keeps the only worker from the queued completer */
    return 0;
}

typedef struct hooked {
    fj_counted_completer cc;
    fj_pool *pool;
    int computes, hooks, done_in_hook;
} hooked;

static int counted_compute(fj_counted_completer *self)
{
    FJ_CONTAINER_OF(self, hooked, cc)->computes++;
    return 0;
}

static int hook_lets_worker_through(fj_counted_completer *self, int error, fj_counted_completer *caller)
{
    hooked *h = FJ_CONTAINER_OF(self, hooked, cc);
    CHECK_RC(SETTLE_FAIL_ERROR, error);
    CHECK(caller == self);
    CHECK(fj_task_is_completed_abnormally(&self->task));
    atomic_store(&gate_open, 1);
    CHECK_RC(0, fj_pool_await_quiescence(h->pool, FJ_NO_TIMEOUT));
    h->done_in_hook = fj_task_is_done(&self->task);
    h->hooks++;
    return 1;
}

static void completed_exceptionally_before_it_ran_is_done_after_its_hook(void)
{
    fj_pool *pool = one_worker_pool();
    atomic_store(&gate_entered, 0);
    atomic_store(&gate_open, 0);
    fj_task gate = FJ_TASK_INIT(wait_at_gate);
    hooked h = {.pool = pool};
    fj_cc_init(&h.cc, NULL, 0, counted_compute);
    h.cc.on_exceptional_completion = hook_lets_worker_through;
    CHECK_RC(0, fj_pool_execute(pool, &gate));
    while (!atomic_load(&gate_entered))
        ;  /* the only worker is in the gate from here on */
    CHECK_RC(0, fj_pool_execute(pool, &h.cc.task));  /* queued: nobody can run it */
    CHECK_RC(0, fj_cc_complete_exceptionally(&h.cc, SETTLE_FAIL_ERROR));
    CHECK_EQ(1, h.hooks);
    CHECK_EQ(0, h.done_in_hook);
    CHECK_EQ(0, h.computes);
    CHECK(fj_task_is_done(&h.cc.task));
    CHECK_RC(SETTLE_FAIL_ERROR, fj_task_get_timed(&h.cc.task, 60 * 1000000000LL));
    CHECK_RC(0, fj_task_get_timed(&gate, 60 * 1000000000LL));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- a forked completer completed before it ran is not run ---- */

static atomic_int counted_computes;

static int counting_compute(fj_counted_completer *self)
{
    atomic_fetch_add(&counted_computes, 1);
    fj_cc_try_complete(self);
    return 0;
}

typedef struct early_driver {
    fj_task task;
    fj_counted_completer *root;
    int join_rc;
} early_driver;

static int early_driver_run(fj_task *t)
{
    early_driver *d = FJ_CONTAINER_OF(t, early_driver, task);
    CHECK_RC(0, fj_fork(&d->root->task));  /* queued here: one worker, nobody steals it */
    fj_cc_quietly_complete_root(d->root);
    CHECK(fj_task_is_done(&d->root->task));
    d->join_rc = fj_join(&d->root->task);
    return 0;  /* the root stays queued until the scheduler takes it */
}

static void completed_before_it_ran_is_not_run(void)
{
    fj_pool *pool = one_worker_pool();
    atomic_store(&counted_computes, 0);
    fj_counted_completer root;
    fj_cc_init(&root, NULL, 0, counting_compute);
    early_driver d = {FJ_TASK_INIT(early_driver_run), &root, 1};
    CHECK_RC(0, fj_pool_invoke(pool, &d.task));
    CHECK_RC(0, d.join_rc);
    CHECK_RC(0, fj_pool_destroy(pool));  /* the worker has taken the root by now */
    CHECK_EQ(0, atomic_load(&counted_computes));
    CHECK_RC(0, fj_task_outcome(&root.task));
}

/* ---- completed exceptionally before it was ever forked ---- */

/* fj_java.h: on_exceptional_completion runs "before it is marked done", also
 * for a completer nobody forked (a root the caller completes exceptionally
 * before handing it out).  Before the fix the fail marked it done at once,
 * and the hook found it done. */
typedef struct unforked {
    fj_counted_completer cc;
    int hooks, done_in_hook, abnormal_in_hook;
} unforked;

static int unforked_compute(fj_counted_completer *self)
{
    (void)self;
    CHECK_FAIL("the compute of a completer never forked ran");
    return 0;
}

static int unforked_hook(fj_counted_completer *self, int error, fj_counted_completer *caller)
{
    unforked *u = FJ_CONTAINER_OF(self, unforked, cc);
    CHECK_RC(SETTLE_FAIL_ERROR, error);
    CHECK(caller == self);
    u->done_in_hook = fj_task_is_done(&self->task);
    u->abnormal_in_hook = fj_task_is_completed_abnormally(&self->task);
    u->hooks++;
    return 1;
}

static void unforked_completed_exceptionally_is_done_after_its_hook(void)
{
    unforked u = {0};
    fj_cc_init(&u.cc, NULL, 0, unforked_compute);
    u.cc.on_exceptional_completion = unforked_hook;
    CHECK_RC(0, fj_cc_complete_exceptionally(&u.cc, SETTLE_FAIL_ERROR));
    CHECK_EQ(1, u.hooks);
    CHECK_EQ(0, u.done_in_hook);
    CHECK_EQ(1, u.abnormal_in_hook);
    CHECK(fj_task_is_done(&u.cc.task));
    CHECK_RC(SETTLE_FAIL_ERROR, fj_task_outcome(&u.cc.task));
    CHECK_RC(FJ_EINVAL, fj_cc_complete_exceptionally(&u.cc, SETTLE_FAIL_ERROR));  /* complete: refused */
    CHECK_EQ(1, u.hooks);
}

/* ---- helpComplete runs the queued completers on the completion path ---- */

/* On one worker nobody steals: the root's compute forks an unrelated root
 * first, then leaves whose completer is the root, and helps in steps.  Each
 * step runs the newest leaves; the unrelated root stops the help and stays
 * queued; a help of the unrelated root runs it (a completer is on its own
 * path); once it is complete, a help of it runs nothing, though a completer
 * on its path is queued. */
enum { HELP_LEAVES = 6 };

typedef struct help_tree {
    fj_counted_completer root, unrelated, leaves[HELP_LEAVES], late;
    int leaves_ran, unrelated_ran;
    int order[HELP_LEAVES];
    int steps[5];
} help_tree;

static help_tree *help_tree_of_leaf(fj_counted_completer *leaf)
{
    /* The leaves' completer is the root, the first member. */
    return FJ_CONTAINER_OF(leaf->completer, help_tree, root);
}

static int help_leaf(fj_counted_completer *self)
{
    help_tree *h = help_tree_of_leaf(self);
    h->order[h->leaves_ran++] = (int)(self - h->leaves);
    fj_cc_try_complete(self);
    return 0;
}

static int help_unrelated(fj_counted_completer *self)
{
    FJ_CONTAINER_OF(self, help_tree, unrelated)->unrelated_ran++;
    fj_cc_try_complete(self);
    return 0;
}

static int help_must_not_run(fj_counted_completer *self)
{
    (void)self;
    CHECK_FAIL("a completer whose completion path holds only complete completers ran");
    return 0;
}

static int help_root(fj_counted_completer *self)
{
    help_tree *h = FJ_CONTAINER_OF(self, help_tree, root);
    fj_cc_init(&h->unrelated, NULL, 0, help_unrelated);
    CHECK_RC(0, fj_fork(&h->unrelated.task));
    fj_cc_set_pending_count(self, HELP_LEAVES);
    for (int i = 0; i < HELP_LEAVES; i++) {
        fj_cc_init(&h->leaves[i], self, 0, help_leaf);
        CHECK_RC(0, fj_fork(&h->leaves[i].task));
    }
    h->steps[0] = fj_cc_help_complete(self, 2);
    h->steps[1] = fj_cc_help_complete(self, 0);
    h->steps[2] = fj_cc_help_complete(self, 100);  /* stops at the unrelated root */
    CHECK_EQ(0, h->unrelated_ran);
    h->steps[3] = fj_cc_help_complete(&h->unrelated, 1);
    CHECK(fj_task_is_done(&h->unrelated.task));
    fj_cc_init(&h->late, &h->unrelated, 0, help_must_not_run);
    CHECK_RC(0, fj_fork(&h->late.task));
    h->steps[4] = fj_cc_help_complete(&h->unrelated, 1);  /* complete: nothing to do */
    CHECK(fj_poll_next_local_task() == &h->late.task);    /* still queued, unrun */
    CHECK_RC(0, fj_join(&h->unrelated.task));
    fj_cc_try_complete(self);  /* the leaves brought the count to zero: completes the root */
    return 0;
}

static void help_complete_runs_queued_completers_on_the_path(void)
{
    fj_pool *pool = one_worker_pool();
    help_tree h = {0};
    fj_cc_init(&h.root, NULL, 0, help_root);
    CHECK_RC(0, fj_pool_invoke(pool, &h.root.task));
    CHECK_EQ(2, h.steps[0]);
    CHECK_EQ(0, h.steps[1]);
    CHECK_EQ(HELP_LEAVES - 2, h.steps[2]);
    CHECK_EQ(1, h.steps[3]);
    CHECK_EQ(0, h.steps[4]);
    CHECK_EQ(HELP_LEAVES, h.leaves_ran);
    for (int i = 0; i < HELP_LEAVES; i++)
        CHECK_EQ(HELP_LEAVES - 1 - i, h.order[i]);  /* newest first */
    CHECK_EQ(1, h.unrelated_ran);
    CHECK(fj_task_is_done(&h.root.task));
    CHECK_EQ(0, fj_cc_help_complete(&h.root, 5));  /* not a worker: runs nothing */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- profiling a tree of completers that free themselves ---- */

/* The for-each shape: every completer but the root frees itself in its own
 * on_completion (fj_java.h, "Freeing").  With the profiler on, the end of a
 * body that completed later must not write into its task: it may be gone
 * (AddressSanitizer found the write). */
typedef struct visit_node {
    fj_counted_completer cc;
    long *cells;
    size_t lo, hi;
} visit_node;

static atomic_long visits_allocated, visits_freed;

static void visit_free_unless_root(fj_counted_completer *self, fj_counted_completer *caller)
{
    if (fj_cc_get_completer(self)) {
        free(FJ_CONTAINER_OF(self, visit_node, cc));
        atomic_fetch_add(&visits_freed, 1);
    }
}

static int visit_compute(fj_counted_completer *self);

static void visit_init(visit_node *n, visit_node *above, long *cells, size_t lo, size_t hi)
{
    fj_cc_init(&n->cc, above ? &above->cc : NULL, 0, visit_compute);
    n->cc.on_completion = visit_free_unless_root;
    n->cells = cells;
    n->lo = lo;
    n->hi = hi;
}

static int visit_compute(fj_counted_completer *self)
{
    visit_node *n = FJ_CONTAINER_OF(self, visit_node, cc);
    size_t lo = n->lo, hi = n->hi;
    while (hi - lo > SUM_LEAF) {
        size_t mid = lo + (hi - lo) / 2;
        visit_node *right = malloc(sizeof *right);
        CHECK(right != NULL);
        atomic_fetch_add(&visits_allocated, 1);
        visit_init(right, n, n->cells, mid, hi);
        fj_cc_add_to_pending_count(self, 1);
        fj_fork(&right->cc.task);
        hi = mid;
    }
    for (size_t i = lo; i < hi; i++)
        n->cells[i]++;
    fj_cc_try_complete(self);  /* n may be freed from here on */
    return 0;
}

static void self_freeing_completers_under_the_profiler(void)
{
    CHECK_RC(0, fj_profile_start());  /* before the pool: its workers are armed */
    fj_pool *pool = check_pool();
    size_t count = (size_t)check_size(1L << 18, 1L << 13);
    long *cells = calloc(count, sizeof *cells);
    CHECK(cells != NULL);
    atomic_store(&visits_allocated, 0);
    atomic_store(&visits_freed, 0);
    visit_node root;
    visit_init(&root, NULL, cells, 0, count);
    CHECK_RC(0, fj_pool_invoke(pool, &root.cc.task));
    fj_profile profile;
    CHECK_RC(0, fj_profile_stop(&profile));
    for (size_t i = 0; i < count; i++)
        CHECK_EQ(1, cells[i]);
    CHECK(atomic_load(&visits_allocated) >= (long)(count / SUM_LEAF) - 1);
    CHECK_EQ(atomic_load(&visits_allocated), atomic_load(&visits_freed));
    CHECK(profile.tasks >= 1);
    free(cells);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- a completer without compute ---- */

/* compute NULL is Java's empty compute(): a worker that runs the completer
 * does nothing (it does not jump to address 0), and the completer completes
 * when its count does.  The pool's quiescence means the worker ran it. */
static void completer_without_compute_only_counts(void)
{
    fj_pool *pool = check_pool();
    fj_counted_completer counter;
    fj_cc_init(&counter, NULL, 1, NULL);
    CHECK_RC(0, fj_pool_submit(pool, &counter.task));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK(!fj_task_is_done(&counter.task));
    fj_cc_try_complete(&counter);  /* 1 -> 0: not complete yet */
    CHECK(!fj_task_is_done(&counter.task));
    fj_cc_try_complete(&counter);
    CHECK_RC(0, fj_join(&counter.task));
    fj_pool_destroy(pool);
}

static const check_case cases[] = {
    {"completer_without_compute_only_counts", completer_without_compute_only_counts, CHECK_PER_WORKERS},
    {"pending_count_arithmetic", pending_count_arithmetic, CHECK_ONCE},
    {"try_complete_walks_to_the_root_in_order", try_complete_walks_to_the_root_in_order, CHECK_ONCE},
    {"propagate_completion_skips_on_completion", propagate_completion_skips_on_completion, CHECK_ONCE},
    {"complete_runs_the_hook_and_tries_the_completer", complete_runs_the_hook_and_tries_the_completer, CHECK_ONCE},
    {"quietly_complete_root_and_next_complete", quietly_complete_root_and_next_complete, CHECK_ONCE},
    {"complete_exceptionally_propagates_while_hooks_agree", complete_exceptionally_propagates_while_hooks_agree,
     CHECK_ONCE},
    {"sum_invoked_from_outside", sum_invoked_from_outside, CHECK_PER_WORKERS},
    {"sum_submitted_and_got_from_outside", sum_submitted_and_got_from_outside, CHECK_PER_WORKERS},
    {"sum_joined_by_a_worker", sum_joined_by_a_worker, CHECK_PER_WORKERS},
    {"error_from_compute_completes_the_root", error_from_compute_completes_the_root, CHECK_PER_WORKERS},
    {"completer_settled_while_compute_runs_completes_on_its_error",
     completer_settled_while_compute_runs_completes_on_its_error, CHECK_PER_WORKERS},
    {"completed_before_it_ran_is_not_run", completed_before_it_ran_is_not_run, CHECK_ONCE},
    {"unforked_completed_exceptionally_is_done_after_its_hook", unforked_completed_exceptionally_is_done_after_its_hook,
     CHECK_ONCE},
    {"help_complete_runs_queued_completers_on_the_path", help_complete_runs_queued_completers_on_the_path,
     CHECK_ONCE},
    {"completed_exceptionally_before_it_ran_is_done_after_its_hook",
     completed_exceptionally_before_it_ran_is_done_after_its_hook, CHECK_ONCE},
    {"self_freeing_completers_under_the_profiler", self_freeing_completers_under_the_profiler, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
