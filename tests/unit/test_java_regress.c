/* test_java_regress.c - regression tests for the defects the JDK's ForkJoin
 * conformance tests (tests/tck/) found in the task state machine and the Java
 * layer (issue 12), one case per cause, each pinned to the interleaving that
 * broke, so that none depends on the scheduler's timing. */
#include <pthread.h>
#include <stdatomic.h>

#include "../check.h"
#include "fj_java.h"

/* runtime/task.h's first half of fj_task_fail (it cannot be included beside
 * <stdatomic.h>): records the task's first error, 1 if ours won. */
int task_record_error(fj_task *t, int error);

/* A task whose body counts its runs and returns `outcome`. */
typedef struct probe {
    FJ_RECURSIVE_TASK(int);
    int outcome;
    atomic_int runs;
} probe;

static int probe_compute(fj_task *t)
{
    probe *p = FJ_SELF(t, probe);
    atomic_fetch_add(&p->runs, 1);
    p->result = 42;
    return p->outcome;
}

static void probe_init(probe *p, int outcome)
{
    fj_task_init(&p->task, probe_compute);
    p->result = 0;
    p->outcome = outcome;
    atomic_init(&p->runs, 0);
}

/* A task that runs until the test opens its gate, then returns `outcome`. */
typedef struct gated {
    FJ_RECURSIVE_ACTION;
    atomic_int gate;
    atomic_int started;
    int outcome;
} gated;

static int gated_compute(fj_task *t)
{
    gated *g = FJ_SELF(t, gated);
    atomic_store(&g->started, 1);
    while (!atomic_load(&g->gate))
        sched_yield();
    return g->outcome;
}

static void gated_init(gated *g, int outcome)
{
    fj_task_init(&g->task, gated_compute);
    atomic_init(&g->gate, 0);
    atomic_init(&g->started, 0);
    g->outcome = outcome;
}

static void wait_started(gated *g)
{
    while (!atomic_load(&g->started))
        sched_yield();
}

typedef struct root {
    FJ_RECURSIVE_ACTION;
    void (*body)(void);
} root;

static int root_compute(fj_task *t)
{
    FJ_SELF(t, root)->body();
    return 0;
}

static void run_in_pool(void (*body)(void))
{
    fj_pool *pool = check_pool();
    root r = {FJ_TASK_INIT(root_compute), body};
    CHECK_RC(0, fj_pool_invoke(pool, &r.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- cause 2: an abort before fork / invoke / submit is kept ---- */

static void abort_before_fork_is_kept_body(void)
{
    probe c;
    probe_init(&c, 0);
    CHECK_RC(0, fj_task_cancel(&c.task));
    CHECK_RC(0, fj_fork(&c.task));  /* Java: fork() returns; the task is complete */
    CHECK_RC(FJ_ECANCELED, fj_join(&c.task));
    CHECK_EQ(0, atomic_load(&c.runs));
    CHECK(fj_task_is_done(&c.task) && fj_task_is_cancelled(&c.task));

    probe f;
    probe_init(&f, 0);
    CHECK_RC(0, fj_task_complete_exceptionally(&f.task, -77));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(-77, fj_join(&f.task));
    CHECK_EQ(0, atomic_load(&f.runs));

    probe i;
    probe_init(&i, 0);
    CHECK_RC(0, fj_task_cancel(&i.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&i.task));
    CHECK_RC(FJ_EINVAL, fj_task_complete_exceptionally(&i.task, -1));  /* complete already */
    CHECK_EQ(0, atomic_load(&i.runs));

    probe e;
    probe_init(&e, 0);
    CHECK_RC(0, fj_task_complete_exceptionally(&e.task, -78));
    CHECK_RC(-78, fj_invoke(&e.task));
    CHECK_EQ(0, atomic_load(&e.runs));

    /* A task that completed normally may still be forked again (it runs twice). */
    probe n;
    probe_init(&n, 0);
    CHECK_RC(0, fj_invoke(&n.task));
    CHECK_RC(0, fj_fork(&n.task));
    CHECK_RC(0, fj_join(&n.task));
    CHECK_EQ(2, atomic_load(&n.runs));
}
static void abort_before_fork_is_kept(void) { run_in_pool(abort_before_fork_is_kept_body); }

static void abort_before_submit_is_kept(void)
{
    fj_pool *pool = check_pool();
    probe c;
    probe_init(&c, 0);
    CHECK_RC(0, fj_task_cancel(&c.task));
    CHECK_RC(0, fj_pool_submit(pool, &c.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&c.task));
    CHECK_RC(FJ_ECANCELED, fj_pool_invoke(pool, &c.task));
    CHECK_EQ(0, atomic_load(&c.runs));
    CHECK_RC(0, fj_pool_destroy(pool));  /* the refused submission is not left counted */
}

static void abort_before_fork_from_outside_is_kept(void)
{
    probe c;
    probe_init(&c, 0);
    CHECK_RC(0, fj_task_cancel(&c.task));
    CHECK_RC(0, fj_fork(&c.task));  /* to the common pool */
    CHECK_RC(FJ_ECANCELED, fj_join(&c.task));
    CHECK_EQ(0, atomic_load(&c.runs));
}

/* Java's cancel() is true again on a cancelled task; false (EINVAL) on one
 * that completed otherwise. */
static void cancel_twice_is_true_twice(void)
{
    probe c;
    probe_init(&c, 0);
    CHECK_RC(0, fj_task_cancel(&c.task));
    CHECK_RC(0, fj_task_cancel(&c.task));
    probe f;
    probe_init(&f, 0);
    CHECK_RC(0, fj_task_fail(&f.task, -5));
    CHECK_RC(FJ_EINVAL, fj_task_cancel(&f.task));
    CHECK(!fj_task_is_cancelled(&f.task));
}

/* tryUnfork of a task cancelled while queued: it is complete (never runs). */
static void unfork_of_cancelled_task_completes_it_body(void)
{
    probe c;
    probe_init(&c, 0);
    CHECK_RC(0, fj_fork(&c.task));
    if (fj_task_cancel(&c.task) != 0) {  /* a thief ran it to completion first */
        CHECK_RC(0, fj_join(&c.task));
        CHECK_EQ(1, atomic_load(&c.runs));
        return;
    }
    if (fj_task_try_unfork(&c.task)) {
        CHECK(fj_task_is_done(&c.task));  /* no executor will ever publish it */
        CHECK_RC(FJ_ECANCELED, fj_join(&c.task));
        CHECK_EQ(0, atomic_load(&c.runs));
    } else {  /* a thief took it: it skips the body, or the body was running */
        CHECK_RC(FJ_ECANCELED, fj_join(&c.task));
        CHECK(atomic_load(&c.runs) <= 1);
    }
}
static void unfork_of_cancelled_task_completes_it(void) { run_in_pool(unfork_of_cancelled_task_completes_it_body); }

/* ---- cause 8: is_done stays false while a cancelled body runs ---- */

static void cancelled_running_task_is_not_done(void)
{
    fj_pool *pool = check_pool();
    gated g;
    gated_init(&g, 0);
    CHECK_RC(0, fj_pool_submit(pool, &g.task));
    wait_started(&g);
    CHECK_RC(0, fj_task_cancel(&g.task));
    CHECK(fj_task_is_cancelled(&g.task));
    CHECK(!fj_task_is_done(&g.task));  /* its body still runs: freeing it now is a use after free */
    CHECK_EQ(1, fj_task_outcome(&g.task));
    atomic_store(&g.gate, 1);
    CHECK_RC(FJ_ECANCELED, fj_task_get(&g.task));
    CHECK(fj_task_is_done(&g.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- cause 9: a fail's error recorded before the body's own error ---- */

static void fail_racing_body_error_is_reported(void)
{
    fj_pool *pool = check_pool();
    gated g;
    gated_init(&g, -100);
    CHECK_RC(0, fj_pool_submit(pool, &g.task));
    wait_started(&g);
    /* The first half of fj_task_fail (its error recorded, its flag not yet
     * set), then the body returns its own error and the executor publishes. */
    CHECK(task_record_error(&g.task, -200));
    atomic_store(&g.gate, 1);
    CHECK_RC(-200, fj_task_get(&g.task));  /* the first error; never 0 */
    CHECK_RC(FJ_EINVAL, fj_task_fail(&g.task, -300));  /* the second half finds it complete */
    CHECK_RC(-200, fj_join(&g.task));
    CHECK(fj_task_is_completed_abnormally(&g.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The same race, for real: fj_task_fail from outside while a body fails.
 * The join reports the fail's error exactly when the fail returned 0, and
 * the body's when it was refused: neither error is lost, and a refused fail
 * never becomes the outcome. */
static void fail_racing_body_error_never_joins_zero(void)
{
    fj_pool *pool = check_pool();
    long rounds = check_size(20000, 2000);
    for (long i = 0; i < rounds; i++) {
        probe p;
        probe_init(&p, -100);
        CHECK_RC(0, fj_pool_submit(pool, &p.task));
        int fail_rc = fj_task_fail(&p.task, -200);
        int rc = fj_task_get(&p.task);
        if ((fail_rc != 0 && fail_rc != FJ_EINVAL) || rc != (fail_rc == 0 ? -200 : -100))
            CHECK_FAIL("round %ld: join returned %d, fail returned %d", i, rc, fail_rc);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- cause 3: a NULL element in invokeAll ---- */

static void invoke_all_null_element_body(void)
{
    probe a, b;
    probe_init(&a, 0);
    probe_init(&b, 0);
    fj_task *tasks[3] = {&a.task, NULL, &b.task};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));
    CHECK_EQ(0, atomic_load(&a.runs));
    CHECK_EQ(0, atomic_load(&b.runs));
    CHECK_RC(FJ_EINVAL, fj_invoke_all2(&a.task, NULL));
    CHECK_RC(FJ_EINVAL, fj_invoke_all2(NULL, &b.task));
    CHECK_EQ(0, atomic_load(&a.runs) + atomic_load(&b.runs));
}
static void invoke_all_null_element_is_refused(void) { run_in_pool(invoke_all_null_element_body); }

/* ---- cause 1: timed get of a task not forked times out ---- */

static void timed_get_of_unforked_task_times_out(void)
{
    probe p;
    probe_init(&p, 0);
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&p.task, 1000000));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&p.task, 0));
    CHECK_RC(0, fj_invoke(&p.task));
    CHECK_RC(0, fj_task_get_timed(&p.task, 0));  /* complete: no wait needed */
    CHECK_RC(0, fj_task_reinitialize(&p.task));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&p.task, 1000000));
}

static void *fork_later(void *arg)
{
    CHECK_RC(0, fj_fork(arg));  /* to the common pool */
    return NULL;
}

static void timed_get_sees_a_fork_by_another_thread(void)
{
    probe p;
    probe_init(&p, 0);
    pthread_t forker;
    CHECK_RC(0, pthread_create(&forker, NULL, fork_later, &p.task));
    int value = 0;
    CHECK_RC(0, FJ_GET_RESULT_TIMED(&p, 60LL * 1000000000LL, &value));
    CHECK_EQ(42, value);
    pthread_join(forker, NULL);
}

/* ---- cause 5: a timeout <= 0 has already expired ---- */

static void nonpositive_timeouts_expire_at_once(void)
{
    fj_pool *pool = check_pool();
    gated g;
    gated_init(&g, 0);
    CHECK_RC(0, fj_pool_submit(pool, &g.task));
    wait_started(&g);
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&g.task, -1));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&g.task, 0));
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_await_quiescence(pool, -1));
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_await_termination(pool, -1));
    atomic_store(&g.gate, 1);
    CHECK_RC(0, fj_task_get_timed(&g.task, FJ_NO_TIMEOUT));
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(0, fj_pool_await_termination(pool, FJ_NO_TIMEOUT));
    CHECK_RC(0, fj_pool_await_termination(pool, -1));  /* terminated: true at once */
    CHECK_RC(0, fj_pool_await_quiescence(pool, 0));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- cause 4: the common pool ignores shutdown ---- */

static void common_pool_ignores_shutdown(void)
{
    fj_pool *common = fj_common_pool();
    CHECK(common != NULL);
    CHECK_RC(0, fj_pool_shutdown(common));
    CHECK(!fj_pool_is_shutdown(common));
    CHECK(!fj_pool_is_terminated(common));
    probe p;
    probe_init(&p, 0);
    CHECK_RC(0, fj_fork(&p.task));
    CHECK_RC(0, fj_join(&p.task));
    CHECK_RC(0, fj_pool_submit(common, &p.task));
    CHECK_RC(0, fj_task_get(&p.task));
    CHECK_EQ(2, atomic_load(&p.runs));
}

/* ---- causes 6 and 7: a fresh pool is quiescent; a terminated one has no threads ---- */

static void fresh_pool_is_quiescent(void)
{
    fj_pool *pool = check_pool();
    CHECK(fj_pool_is_quiescent(pool));
    CHECK_EQ(0u, fj_pool_get_active_thread_count(pool));
    CHECK_EQ(0u, fj_pool_get_running_thread_count(pool));
    CHECK_EQ(check_workers, fj_pool_get_pool_size(pool));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void terminated_pool_size_is_zero(void)
{
    fj_pool *pool = check_pool();
    probe p;
    probe_init(&p, 0);
    CHECK_RC(0, fj_pool_invoke(pool, &p.task));
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(0, fj_pool_await_termination(pool, FJ_NO_TIMEOUT));
    CHECK(fj_pool_is_terminated(pool));
    CHECK_EQ(0u, fj_pool_get_pool_size(pool));
    CHECK_EQ(0u, fj_pool_get_active_thread_count(pool));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- quietlyComplete of a running task: joins return 0, its error is dropped ---- */

static void quietly_complete_of_running_task(void)
{
    fj_pool *pool = check_pool();
    gated g;
    gated_init(&g, -100);
    CHECK_RC(0, fj_pool_submit(pool, &g.task));
    wait_started(&g);
    CHECK_RC(0, fj_task_quietly_complete(&g.task));
    CHECK(!fj_task_is_done(&g.task));  /* its body still runs */
    CHECK_RC(FJ_EINVAL, fj_task_cancel(&g.task));  /* settled already */
    atomic_store(&g.gate, 1);
    CHECK_RC(0, fj_task_get(&g.task));
    CHECK(fj_task_is_completed_normally(&g.task) && !fj_task_is_completed_abnormally(&g.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- the pool's invokeAll / invokeAny: the timeout paths the TCK does not reach ---- */

/* Opens a gated task's gate once it has been cancelled (the timed call's
 * doing), so the call's wait for the running body can end. */
static void *open_when_cancelled(void *arg)
{
    gated *g = arg;
    while (!fj_task_is_cancelled(&g->task))
        sched_yield();
    atomic_store(&g->gate, 1);
    return NULL;
}

static void invoke_all_timed_cancels_the_late_ones(void)
{
    fj_pool *pool = check_pool();
    probe quick;
    probe_init(&quick, 0);
    gated slow;
    gated_init(&slow, 0);
    pthread_t opener;
    CHECK_RC(0, pthread_create(&opener, NULL, open_when_cancelled, &slow));
    fj_task *tasks[] = {&quick.task, &slow.task};
    CHECK_RC(0, fj_pool_invoke_all_timed(pool, tasks, 2, 1000000));
    /* Returned only once no thread runs either: both are done. */
    CHECK(fj_task_is_done(&quick.task) && fj_task_is_done(&slow.task));
    /* quick may not have had a turn within the 1 ms on a loaded machine, and a
     * task not complete at the deadline is cancelled (Java's contract): either
     * outcome is right, and nothing else is.  slow cannot finish until it is
     * cancelled, so it must be. */
    int quick_rc = fj_task_get(&quick.task);
    if (quick_rc != 0 && quick_rc != FJ_ECANCELED)
        CHECK_FAIL("quick: expected 0 or FJ_ECANCELED, actual %d (%s)", quick_rc, fj_strerror(quick_rc));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&slow.task));
    pthread_join(opener, NULL);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void invoke_any_returns_a_success_after_failures(void)
{
    fj_pool *pool = check_pool();
    probe failing, succeeding;
    probe_init(&failing, -7);
    probe_init(&succeeding, 0);
    fj_task *tasks[] = {&failing.task, &succeeding.task};
    CHECK_RC(1, fj_pool_invoke_any(pool, tasks, 2, FJ_NO_TIMEOUT));
    CHECK_EQ(42, succeeding.result);
    probe f1, f2;
    probe_init(&f1, -7);
    probe_init(&f2, -8);
    fj_task *all_fail[] = {&f1.task, &f2.task};
    int rc = fj_pool_invoke_any(pool, all_fail, 2, FJ_NO_TIMEOUT);
    CHECK(rc == -7 || rc == -8);  /* the last error seen */
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void invoke_any_times_out_and_cancels(void)
{
    fj_pool *pool = check_pool();
    gated slow;
    gated_init(&slow, 0);
    pthread_t opener;
    CHECK_RC(0, pthread_create(&opener, NULL, open_when_cancelled, &slow));
    fj_task *tasks[] = {&slow.task};
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_invoke_any(pool, tasks, 1, 1000000));
    CHECK(fj_task_is_done(&slow.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&slow.task));
    pthread_join(opener, NULL);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"invoke_all_timed_cancels_the_late_ones", invoke_all_timed_cancels_the_late_ones, CHECK_PER_WORKERS},
    {"invoke_any_returns_a_success_after_failures", invoke_any_returns_a_success_after_failures, CHECK_PER_WORKERS},
    {"invoke_any_times_out_and_cancels", invoke_any_times_out_and_cancels, CHECK_PER_WORKERS},
    {"quietly_complete_of_running_task", quietly_complete_of_running_task, CHECK_PER_WORKERS},
    {"abort_before_fork_is_kept", abort_before_fork_is_kept, CHECK_PER_WORKERS},
    {"abort_before_submit_is_kept", abort_before_submit_is_kept, CHECK_PER_WORKERS},
    {"abort_before_fork_from_outside_is_kept", abort_before_fork_from_outside_is_kept, CHECK_ONCE},
    {"cancel_twice_is_true_twice", cancel_twice_is_true_twice, CHECK_ONCE},
    {"unfork_of_cancelled_task_completes_it", unfork_of_cancelled_task_completes_it, CHECK_PER_WORKERS},
    {"cancelled_running_task_is_not_done", cancelled_running_task_is_not_done, CHECK_PER_WORKERS},
    {"fail_racing_body_error_is_reported", fail_racing_body_error_is_reported, CHECK_PER_WORKERS},
    {"fail_racing_body_error_never_joins_zero", fail_racing_body_error_never_joins_zero, CHECK_PER_WORKERS},
    {"invoke_all_null_element_is_refused", invoke_all_null_element_is_refused, CHECK_PER_WORKERS},
    {"timed_get_of_unforked_task_times_out", timed_get_of_unforked_task_times_out, CHECK_ONCE},
    {"timed_get_sees_a_fork_by_another_thread", timed_get_sees_a_fork_by_another_thread, CHECK_ONCE},
    {"nonpositive_timeouts_expire_at_once", nonpositive_timeouts_expire_at_once, CHECK_PER_WORKERS},
    {"common_pool_ignores_shutdown", common_pool_ignores_shutdown, CHECK_ONCE},
    {"fresh_pool_is_quiescent", fresh_pool_is_quiescent, CHECK_PER_WORKERS},
    {"terminated_pool_size_is_zero", terminated_pool_size_is_zero, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
