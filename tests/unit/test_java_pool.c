/* test_java_pool.c - the ForkJoinPool members of fj_java.h: execute, submit,
 * shutdown, shutdownNow, awaitTermination, awaitQuiescence, the queries, the
 * common pool and managed blocking, checked as the JDK's ForkJoinPool tests do:
 * against work that is gated (held running until the test opens a flag), so
 * that every expected state is certain, never a matter of timing. */
#include <stdatomic.h>

#include "../check.h"
#include "fj_java.h"

typedef struct counted {
    FJ_RECURSIVE_TASK(long);
    int n;
    atomic_int *runs;
} counted;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static int counted_compute(fj_task *t)
{
    counted *c = FJ_SELF(t, counted);
    c->result = fib_serial(c->n);
    atomic_fetch_add(c->runs, 1);
    return 0;
}

/* Holds a worker until the gate opens; counts how many are held. */
typedef struct gated {
    FJ_RECURSIVE_ACTION;
    atomic_int *gate;
    atomic_int *started;
} gated;

static int gated_compute(fj_task *t)
{
    gated *g = FJ_SELF(t, gated);
    atomic_fetch_add(g->started, 1);
    while (!atomic_load(g->gate))
        sched_yield();
    return 0;
}

/* Submits one gated task per worker and returns when all of them run, so that
 * every later submission stays queued until the gate opens. */
static gated *hold_every_worker(fj_pool *pool, atomic_int *gate, atomic_int *started)
{
    unsigned n = fj_pool_get_parallelism(pool);
    gated *held = calloc(n, sizeof *held);
    for (unsigned i = 0; i < n; i++) {
        held[i] = (gated){FJ_TASK_INIT(gated_compute), gate, started};
        CHECK_RC(0, fj_pool_submit(pool, &held[i].task));
    }
    while ((unsigned)atomic_load(started) < n)
        sched_yield();
    return held;
}

static void release_held(fj_pool *pool, gated *held, atomic_int *gate)
{
    atomic_store(gate, 1);
    for (unsigned i = 0; i < fj_pool_get_parallelism(pool); i++)
        CHECK_RC(0, fj_task_get(&held[i].task));
    free(held);
}

/* ---- creation, parallelism, common pool ---- */

static void create_with_parallelism(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, check_workers));
    CHECK_EQ(check_workers, fj_pool_get_parallelism(pool));
    CHECK_EQ(check_workers, fj_pool_get_pool_size(pool));
    CHECK_EQ(0, fj_pool_is_shutdown(pool));
    CHECK_EQ(0, fj_pool_is_terminated(pool));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK_EQ(1, fj_pool_is_quiescent(pool));
    CHECK_EQ(0, fj_pool_get_active_thread_count(pool));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void common_pool_is_shared_and_survives_shutdown_now(void)
{
    fj_pool *common = fj_common_pool();
    CHECK(common != NULL && common == fj_common_pool());
    CHECK_EQ(fj_pool_worker_count(common), fj_common_pool_parallelism());
    CHECK_RC(0, fj_pool_shutdown_now(common));  /* no effect, as in Java */
    CHECK_EQ(0, fj_pool_is_shutdown(common));
    atomic_int runs = 0;
    counted c = {FJ_TASK_INIT(counted_compute), 0, 15, &runs};
    CHECK_RC(0, fj_pool_submit(common, &c.task));
    CHECK_RC(0, fj_task_get(&c.task));
    CHECK_EQ(fib_serial(15), c.result);
    CHECK_RC(0, fj_pool_await_termination(common, FJ_NO_TIMEOUT));  /* common pool: quiescence */
}

/* ---- execute, submit, awaitQuiescence ---- */

static void execute_runs_and_await_quiescence_waits(void)
{
    fj_pool *pool = check_pool();
    enum { N = 40 };
    atomic_int runs = 0;
    counted *tasks = calloc(N, sizeof *tasks);  /* executed: ours until done */
    for (int i = 0; i < N; i++) {
        tasks[i] = (counted){FJ_TASK_INIT(counted_compute), 0, 10 + i % 8, &runs};
        CHECK_RC(0, fj_pool_execute(pool, &tasks[i].task));
    }
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK_EQ(N, atomic_load(&runs));  /* nothing queued or running: all ran */
    for (int i = 0; i < N; i++) {
        CHECK(fj_task_is_completed_normally(&tasks[i].task));
        CHECK_EQ(fib_serial(10 + i % 8), tasks[i].result);
    }
    CHECK_EQ(1, fj_pool_is_quiescent(pool));
    CHECK_EQ(0, fj_pool_get_queued_task_count(pool));
    CHECK_EQ(0, fj_pool_get_queued_submission_count(pool));
    free(tasks);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void await_quiescence_times_out_while_running(void)
{
    fj_pool *pool = check_pool();
    atomic_int gate = 0, started = 0;
    gated g = {FJ_TASK_INIT(gated_compute), &gate, &started};
    CHECK_RC(0, fj_pool_execute(pool, &g.task));
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_await_quiescence(pool, 1000000));
    CHECK_EQ(0, fj_pool_is_quiescent(pool));
    atomic_store(&gate, 1);
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK(fj_task_is_completed_normally(&g.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A task that executes children into its own pool without waiting for them:
 * quiescence must still wait for the grandchildren. */
typedef struct spawner {
    FJ_RECURSIVE_ACTION;
    int depth;
    atomic_int *runs;
} spawner;

static int spawner_compute(fj_task *t);
static spawner spawned[1 << 7];
static atomic_int spawned_next;

static int spawner_compute(fj_task *t)
{
    spawner *s = FJ_SELF(t, spawner);
    atomic_fetch_add(s->runs, 1);
    for (int i = 0; i < 2 && s->depth > 0; i++) {
        spawner *child = &spawned[atomic_fetch_add(&spawned_next, 1)];
        *child = (spawner){FJ_TASK_INIT(spawner_compute), s->depth - 1, s->runs};
        fj_fork(&child->task);  /* never joined */
    }
    return 0;
}

static void await_quiescence_sees_unjoined_forks(void)
{
    fj_pool *pool = check_pool();
    atomic_int runs = 0;
    atomic_store(&spawned_next, 0);
    spawner top = {FJ_TASK_INIT(spawner_compute), 6, &runs};
    CHECK_RC(0, fj_pool_execute(pool, &top.task));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK_EQ((1 << 7) - 1, atomic_load(&runs));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- shutdown, awaitTermination ---- */

static void after_shutdown_submissions_fail_and_accepted_work_completes(void)
{
    fj_pool *pool = check_pool();
    atomic_int gate = 0, started = 0;
    gated *held = hold_every_worker(pool, &gate, &started);
    atomic_int runs = 0;
    counted queued = {FJ_TASK_INIT(counted_compute), 0, 12, &runs};
    CHECK_RC(0, fj_pool_submit(pool, &queued.task));  /* accepted, still queued */
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_EQ(1, fj_pool_is_shutdown(pool));
    counted late = {FJ_TASK_INIT(counted_compute), 0, 12, &runs};
    CHECK_RC(FJ_ESHUTDOWN, fj_pool_execute(pool, &late.task));
    CHECK_RC(FJ_ESHUTDOWN, fj_pool_submit(pool, &late.task));
    CHECK_EQ(0, fj_pool_is_terminated(pool));
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_await_termination(pool, 1000000));
    atomic_store(&gate, 1);
    CHECK_RC(0, fj_pool_await_termination(pool, FJ_NO_TIMEOUT));
    CHECK_EQ(1, fj_pool_is_terminated(pool));
    CHECK_RC(0, fj_task_get(&queued.task));
    CHECK_EQ(fib_serial(12), queued.result);
    CHECK_EQ(1, atomic_load(&runs));  /* the late task never ran */
    release_held(pool, held, &gate);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void await_termination_times_out_without_shutdown(void)
{
    fj_pool *pool = check_pool();
    CHECK_RC(FJ_ETIMEDOUT, fj_pool_await_termination(pool, 1000000));
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(0, fj_pool_await_termination(pool, FJ_NO_TIMEOUT));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void shutdown_now_cancels_queued_work(void)
{
    fj_pool *pool = check_pool();
    atomic_int gate = 0, started = 0;
    gated *held = hold_every_worker(pool, &gate, &started);
    enum { QUEUED = 10 };
    atomic_int runs = 0;
    counted queued[QUEUED];
    for (int i = 0; i < QUEUED; i++) {
        queued[i] = (counted){FJ_TASK_INIT(counted_compute), 0, 5, &runs};
        CHECK_RC(0, fj_pool_submit(pool, &queued[i].task));
    }
    CHECK_EQ(QUEUED, fj_pool_get_queued_submission_count(pool));
    CHECK_EQ(1, fj_pool_has_queued_submissions(pool));
    CHECK_EQ(fj_pool_get_parallelism(pool), fj_pool_get_active_thread_count(pool));
    CHECK_EQ(QUEUED, fj_pool_shutdown_now(pool));
    CHECK_EQ(1, fj_pool_is_shutdown(pool));
    CHECK_EQ(0, fj_pool_has_queued_submissions(pool));
    for (int i = 0; i < QUEUED; i++) {
        CHECK_RC(FJ_ECANCELED, fj_task_get(&queued[i].task));
        CHECK(fj_task_is_cancelled(&queued[i].task));
    }
    CHECK_EQ(0, atomic_load(&runs));
    release_held(pool, held, &gate);  /* running work finishes normally */
    CHECK_RC(0, fj_pool_await_termination(pool, FJ_NO_TIMEOUT));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- queries ---- */

typedef struct forker {
    FJ_RECURSIVE_ACTION;
    atomic_int *gate;
    long queued_seen;
} forker;

static int forker_compute(fj_task *t)
{
    forker *f = FJ_SELF(t, forker);
    atomic_int runs = 0;
    counted kids[5];
    for (int i = 0; i < 5; i++) {
        kids[i] = (counted){FJ_TASK_INIT(counted_compute), 0, 3, &runs};
        fj_fork(&kids[i].task);
    }
    f->queued_seen = fj_pool_get_queued_task_count(fj_get_pool());
    for (int i = 5; i-- > 0;)
        fj_join(&kids[i].task);
    return 0;
}

static void queued_task_count_sees_local_forks(void)
{
    /* One worker: nobody steals, so the count is exact. */
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, 1));
    forker f = {FJ_TASK_INIT(forker_compute), NULL, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &f.task));
    CHECK_EQ(5, f.queued_seen);
    CHECK_RC(0, fj_pool_destroy(pool));
}

typedef struct fib_task {
    FJ_RECURSIVE_TASK(long);
    int n;
} fib_task;

static int fib_compute(fj_task *t)
{
    fib_task *f = FJ_SELF(t, fib_task);
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_compute), 0, f->n - 1}, b = {FJ_TASK_INIT(fib_compute), 0, f->n - 2};
    int rc = fj_invoke_all2(&a.task, &b.task);
    f->result = a.result + b.result;
    return rc;
}

static void steal_count_matches_statistics(void)
{
    fj_pool *pool = check_pool();
    int n = (int)check_size(26, 16);
    fib_task f = {FJ_TASK_INIT(fib_compute), 0, n};
    CHECK_RC(0, fj_pool_invoke(pool, &f.task));
    CHECK_EQ(fib_serial(n), f.result);
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    CHECK_EQ(total.steals + total.leapfrogs, fj_pool_get_steal_count(pool));
    if (check_workers == 1)
        CHECK_EQ(0, fj_pool_get_steal_count(pool));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- managed blocking ---- */

/* A latch in the style of Java's CountDownLatch, awaited through a blocker. */
typedef struct latch_blocker {
    fj_managed_blocker blocker;
    atomic_int *count;
    int blocks;
} latch_blocker;

static int latch_is_releasable(fj_managed_blocker *b)
{
    return atomic_load(FJ_CONTAINER_OF(b, latch_blocker, blocker)->count) == 0;
}

static int latch_block(fj_managed_blocker *b)
{
    latch_blocker *l = FJ_CONTAINER_OF(b, latch_blocker, blocker);
    l->blocks++;
    sched_yield();  /* a real blocker would sleep on a condition here */
    return atomic_load(l->count) == 0;
}

typedef struct count_down {
    FJ_RECURSIVE_ACTION;
    atomic_int *count;
    unsigned pool_size_seen;
} count_down;

static int count_down_compute(fj_task *t)
{
    count_down *c = FJ_SELF(t, count_down);
    c->pool_size_seen = fj_pool_get_pool_size(fj_get_pool());
    atomic_fetch_sub(c->count, 1);
    return 0;
}

typedef struct waiter {
    FJ_RECURSIVE_ACTION;
    atomic_int *count;
    count_down child;
} waiter;

static int waiter_compute(fj_task *t)
{
    waiter *w = FJ_SELF(t, waiter);
    w->child = (count_down){FJ_TASK_INIT(count_down_compute), w->count, 0};
    fj_fork(&w->child.task);  /* the task that will release us, queued behind us */
    latch_blocker l = {{latch_block, latch_is_releasable}, w->count, 0};
    int rc = fj_managed_block(&l.blocker);
    fj_join(&w->child.task);
    return rc;
}

static void managed_block_keeps_a_lone_worker_pool_going(void)
{
    /* One worker blocks on a latch that only its own queued child opens: without
     * a spare worker this deadlocks. */
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, 1));
    atomic_int count = 1;
    waiter w = {FJ_TASK_INIT(waiter_compute), &count, {FJ_TASK_INIT(count_down_compute), NULL, 0}};
    CHECK_RC(0, fj_pool_invoke(pool, &w.task));
    CHECK_EQ(0, atomic_load(&count));
    CHECK_EQ(2, w.child.pool_size_seen);  /* the spare ran it */
    CHECK_EQ(1, fj_pool_get_pool_size(pool));  /* and is gone again */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The same with typed tasks.  The spawn that opens the latch lies above
 * another, so where membarrier is missing it is private (the split deque:
 * runtime/deque.c, point 9) and no thief may take it; the block publishes it
 * first, so the spare can.  Both modes. */
FJ_VOID_TASK(typed_nothing, int, unused) {}

FJ_VOID_TASK(typed_count_down, atomic_int *, count) { atomic_fetch_sub(count, 1); }

FJ_TASK(int, typed_waiter, atomic_int *, count)
{
    FJ_SPAWN(typed_nothing, 0);
    FJ_SPAWN(typed_count_down, count);
    latch_blocker l = {{latch_block, latch_is_releasable}, count, 0};
    int rc = fj_managed_block(&l.blocker);
    FJ_SYNC(typed_count_down);
    FJ_SYNC(typed_nothing);
    return rc;
}

static void managed_block_frees_a_typed_spawn(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, 1));
    for (int round = 0; round < 10; round++) {
        atomic_int count = 1;
        CHECK_RC(0, FJ_RUN(pool, typed_waiter, &count));
        CHECK_EQ(0, atomic_load(&count));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void managed_block_on_every_worker(void)
{
    /* Every worker blocks until all children ran: needs spares or idle workers. */
    fj_pool *pool = check_pool();
    unsigned n = check_workers;
    atomic_int count = (int)n;
    waiter *waiters = calloc(n, sizeof *waiters);
    for (unsigned i = 0; i < n; i++) {
        waiters[i] = (waiter){FJ_TASK_INIT(waiter_compute), &count, {FJ_TASK_INIT(count_down_compute), NULL, 0}};
        CHECK_RC(0, fj_pool_submit(pool, &waiters[i].task));
    }
    for (unsigned i = 0; i < n; i++)
        CHECK_RC(0, fj_task_get(&waiters[i].task));
    CHECK_EQ(0, atomic_load(&count));
    free(waiters);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static int failing_block(fj_managed_blocker *b) { return -1500; }
static int never_releasable(fj_managed_blocker *b) { return 0; }
static int always_releasable(fj_managed_blocker *b) { return 1; }

static void managed_block_returns_errors_and_skips_releasable(void)
{
    fj_managed_blocker failing = {failing_block, never_releasable};
    CHECK_RC(-1500, fj_managed_block(&failing));
    fj_managed_blocker releasable = {failing_block, always_releasable};
    CHECK_RC(0, fj_managed_block(&releasable));  /* block never called */
    fj_managed_blocker none = {NULL, NULL};
    CHECK_RC(FJ_EINVAL, fj_managed_block(&none));
    CHECK_RC(FJ_EINVAL, fj_managed_block(NULL));
}

/* ---- misuse ---- */

typedef struct self_wait {
    FJ_RECURSIVE_ACTION;
    int rc;
} self_wait;

static int self_wait_compute(fj_task *t)
{
    FJ_SELF(t, self_wait)->rc = fj_pool_await_termination(fj_get_pool(), 0);
    return 0;
}

static void await_termination_from_own_worker_is_refused(void)
{
    fj_pool *pool = check_pool();
    self_wait s = {FJ_TASK_INIT(self_wait_compute), 0};
    CHECK_RC(0, fj_pool_invoke(pool, &s.task));
    CHECK_RC(FJ_EDEADLK, s.rc);
    CHECK_RC(FJ_EINVAL, fj_pool_shutdown_now(NULL));
    CHECK_RC(FJ_EINVAL, fj_pool_await_quiescence(NULL, 0));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- NULL tasks and tasks without a body ---- */

#define NO_BODY "fn is NULL (fj_task_init or FJ_TASK_INIT gave it no body)"

/* A list with a task that has no body, or a NULL one, is refused before
 * any task of it runs (Java: NullPointerException before anything is
 * forked); the lone-task calls refuse a NULL task with its name. */
static int refuse_bad_lists(fj_task *t)
{
    atomic_int runs = 0;
    counted first = {FJ_TASK_INIT(counted_compute), 0, 10, &runs};
    fj_task bodiless = FJ_TASK_INIT(NULL);
    fj_task *with_bodiless[] = {&first.task, &bodiless};
    fj_task *with_null[] = {&first.task, NULL};
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke_all: task 1's " NO_BODY, fj_invoke_all(with_bodiless, 2));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke_all: task 1 is NULL", fj_invoke_all(with_null, 2));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke_all: tasks is NULL", fj_invoke_all(NULL, 1));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke_all2: task 0's " NO_BODY, fj_invoke_all2(&bodiless, &first.task));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke_all2: task 1 is NULL", fj_invoke_all2(&first.task, NULL));
    CHECK_EQ(0, atomic_load(&runs));
    CHECK_RC(FJ_ENOTFORKED, fj_join(&first.task));
    return 0;
}

static void null_and_bodiless_tasks_are_refused(void)
{
    fj_pool *pool = check_pool();
    fj_task on_worker = FJ_TASK_INIT(refuse_bad_lists);
    CHECK_RC(0, fj_pool_invoke(pool, &on_worker));

    atomic_int runs = 0;
    counted first = {FJ_TASK_INIT(counted_compute), 0, 10, &runs};
    fj_task bodiless = FJ_TASK_INIT(NULL);
    fj_task *with_bodiless[] = {&first.task, &bodiless};
    fj_task *with_null[] = {&first.task, NULL};
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_execute: the task's " NO_BODY, fj_pool_execute(pool, &bodiless));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_execute: pool is NULL", fj_pool_execute(NULL, &first.task));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke_all: task 1's " NO_BODY, fj_pool_invoke_all(pool, with_bodiless, 2));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke_all_timed: task 1 is NULL",
                  fj_pool_invoke_all_timed(pool, with_null, 2, 1000000000));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke_any: task 1's " NO_BODY,
                  fj_pool_invoke_any(pool, with_bodiless, 2, FJ_NO_TIMEOUT));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke_any: count=0 (Java's invokeAny of no task)",
                  fj_pool_invoke_any(pool, with_bodiless, 0, FJ_NO_TIMEOUT));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke_all: pool is NULL", fj_pool_invoke_all(NULL, with_bodiless, 2));
    CHECK_EQ(0, atomic_load(&runs));
    CHECK_RC(FJ_ENOTFORKED, fj_join(&first.task));

    CHECK_REFUSED(FJ_EINVAL, "fj_task_get: task is NULL", fj_task_get(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_get_timed: task is NULL", fj_task_get_timed(NULL, 0));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_reinitialize: task is NULL", fj_task_reinitialize(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_quietly_complete: task is NULL", fj_task_quietly_complete(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_cc_complete_exceptionally: c is NULL", fj_cc_complete_exceptionally(NULL, -5));
    CHECK_REFUSED(FJ_EINVAL, "fj_cc_help_complete: c is NULL", fj_cc_help_complete(NULL, 5));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_shutdown: pool is NULL", fj_pool_shutdown(NULL));
    CHECK_RC(0, fj_pool_shutdown(fj_common_pool()));  /* Java: no effect on the common pool */
    CHECK(!fj_pool_is_shutdown(fj_common_pool()));
    CHECK_RC(0, fj_pool_submit(fj_common_pool(), &first.task));
    CHECK_RC(0, fj_task_get(&first.task));
    CHECK_EQ(1, atomic_load(&runs));
    fj_pool_destroy(pool);
}

static const check_case cases[] = {
    {"null_and_bodiless_tasks_are_refused", null_and_bodiless_tasks_are_refused, CHECK_PER_WORKERS},
    {"create_with_parallelism", create_with_parallelism, CHECK_PER_WORKERS},
    {"common_pool_is_shared_and_survives_shutdown_now", common_pool_is_shared_and_survives_shutdown_now, CHECK_ONCE},
    {"execute_runs_and_await_quiescence_waits", execute_runs_and_await_quiescence_waits, CHECK_PER_WORKERS},
    {"await_quiescence_times_out_while_running", await_quiescence_times_out_while_running, CHECK_PER_WORKERS},
    {"await_quiescence_sees_unjoined_forks", await_quiescence_sees_unjoined_forks, CHECK_PER_WORKERS},
    {"after_shutdown_submissions_fail_and_accepted_work_completes",
     after_shutdown_submissions_fail_and_accepted_work_completes, CHECK_PER_WORKERS},
    {"await_termination_times_out_without_shutdown", await_termination_times_out_without_shutdown, CHECK_ONCE},
    {"shutdown_now_cancels_queued_work", shutdown_now_cancels_queued_work, CHECK_PER_WORKERS},
    {"queued_task_count_sees_local_forks", queued_task_count_sees_local_forks, CHECK_ONCE},
    {"steal_count_matches_statistics", steal_count_matches_statistics, CHECK_PER_WORKERS},
    {"managed_block_keeps_a_lone_worker_pool_going", managed_block_keeps_a_lone_worker_pool_going, CHECK_ONCE},
    {"managed_block_frees_a_typed_spawn", managed_block_frees_a_typed_spawn, CHECK_ONCE},
    {"managed_block_on_every_worker", managed_block_on_every_worker, CHECK_PER_WORKERS},
    {"managed_block_returns_errors_and_skips_releasable", managed_block_returns_errors_and_skips_releasable,
     CHECK_ONCE},
    {"await_termination_from_own_worker_is_refused", await_termination_from_own_worker_is_refused, CHECK_ONCE},
};
CHECK_MAIN(cases)
