/* test_java_task.c - the ForkJoinTask / RecursiveTask members of fj_java.h,
 * checked the way the JDK's ForkJoinTask tests check them: each member against
 * a task that completes normally, one that fails, and one that is cancelled. */
#include <stdatomic.h>

#include "../check.h"
#include "fj_java.h"

/* ---- tasks used by several cases ---- */

typedef struct fibonacci {
    FJ_RECURSIVE_TASK(long);
    int n;
} fibonacci;

static int fibonacci_compute(fj_task *t);
#define FIBONACCI(n) {FJ_TASK_INIT(fibonacci_compute), 0, (n)}

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static int fibonacci_compute(fj_task *t)
{
    fibonacci *f = FJ_SELF(t, fibonacci);
    if (f->n <= 1) {
        f->result = f->n;
        return 0;
    }
    fibonacci f1 = FIBONACCI(f->n - 1);
    fj_fork(&f1.task);
    fibonacci f2 = FIBONACCI(f->n - 2);
    long r2 = 0, r1 = 0;
    int rc = FJ_INVOKE_RESULT(&f2, &r2);
    rc = fj_first_error(rc, FJ_JOIN_RESULT(&f1, &r1));
    f->result = r1 + r2;
    return rc;
}

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

/* A task that runs until the test opens its gate (a flag, not a sleep). */
typedef struct gated {
    FJ_RECURSIVE_ACTION;
    atomic_int *gate;
    atomic_int started;
} gated;

static int gated_compute(fj_task *t)
{
    gated *g = FJ_SELF(t, gated);
    atomic_store(&g->started, 1);
    while (!atomic_load(g->gate))
        sched_yield();
    return 0;
}

/* Runs `body(arg)` as a root task of a fresh pool of check_workers workers. */
typedef struct root {
    FJ_RECURSIVE_ACTION;
    void (*body)(void);
} root;

static int root_compute(fj_task *t)
{
    FJ_SELF(t, root)->body();
    return 0;
}

static void run_in_pool_of(unsigned workers, void (*body)(void))
{
    unsigned saved = check_workers;
    check_workers = workers;
    fj_pool *pool = check_pool();
    check_workers = saved;
    root r = {FJ_TASK_INIT(root_compute), body};
    CHECK_RC(0, fj_pool_invoke(pool, &r.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void run_in_pool(void (*body)(void)) { run_in_pool_of(check_workers, body); }

/* ---- RecursiveTask: compute, fork, join, invoke, typed results ---- */

static void fibonacci_body(void)
{
    int n = (int)check_size(27, 15);
    fibonacci f = FIBONACCI(n);
    long value = -1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&f, &value));
    CHECK_EQ(fib_serial(n), value);
    CHECK(fj_task_is_done(&f.task) && fj_task_is_completed_normally(&f.task));
    CHECK(!fj_task_is_completed_abnormally(&f.task) && !fj_task_is_cancelled(&f.task));
}
static void recursive_task_computes_fibonacci(void) { run_in_pool(fibonacci_body); }

static void join_of_failed_task_returns_its_error_body(void)
{
    probe p;
    probe_init(&p, -1234);
    CHECK_RC(0, fj_fork(&p.task));
    int value = -1;
    CHECK_RC(-1234, FJ_JOIN_RESULT(&p, &value));
    CHECK_EQ(-1, value);  /* no result is copied out of a failed task */
    CHECK_RC(-1234, fj_join(&p.task));  /* again: same outcome */
    CHECK_RC(-1234, fj_task_get(&p.task));
    CHECK(fj_task_is_done(&p.task) && fj_task_is_completed_abnormally(&p.task));
    CHECK(!fj_task_is_completed_normally(&p.task) && !fj_task_is_cancelled(&p.task));
}
static void join_of_failed_task_returns_its_error(void) { run_in_pool(join_of_failed_task_returns_its_error_body); }

static void join_of_cancelled_task_reports_cancellation_body(void)
{
    probe p;
    probe_init(&p, 0);
    CHECK_RC(0, fj_fork(&p.task));
    int cancel_rc = fj_task_cancel(&p.task);  /* FJ_EINVAL if a thief already finished it */
    int rc = fj_join(&p.task);
    if (cancel_rc == 0) {
        CHECK_RC(FJ_ECANCELED, rc);
        CHECK(fj_task_is_cancelled(&p.task) && fj_task_is_completed_abnormally(&p.task));
        CHECK(fj_task_is_done(&p.task) && !fj_task_is_completed_normally(&p.task));
    } else {
        CHECK_RC(FJ_EINVAL, cancel_rc);
        CHECK_RC(0, rc);
        CHECK_EQ(1, atomic_load(&p.runs));
    }
    /* Cancelling before any fork: the task never runs. */
    probe q;
    probe_init(&q, 0);
    CHECK_RC(0, fj_task_cancel(&q.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&q.task));
    CHECK_EQ(0, atomic_load(&q.runs));
    CHECK_RC(0, fj_task_cancel(&q.task));  /* cancelled already: Java's cancel() is true */
    CHECK_RC(FJ_EINVAL, fj_task_fail(&q.task, -1));  /* complete: nothing changes */
    CHECK_RC(FJ_ECANCELED, fj_join(&q.task));
}
static void join_of_cancelled_task_reports_cancellation(void)
{
    run_in_pool(join_of_cancelled_task_reports_cancellation_body);
}

static void complete_exceptionally_first_error_wins(void)
{
    probe p;
    probe_init(&p, 0);
    CHECK_RC(0, fj_task_complete_exceptionally(&p.task, -2000));
    CHECK_RC(FJ_EINVAL, fj_task_complete_exceptionally(&p.task, -2001));
    CHECK_RC(-2000, fj_join(&p.task));
    CHECK_RC(-2000, fj_task_get_timed(&p.task, 0));
    CHECK(fj_task_is_completed_abnormally(&p.task) && !fj_task_is_cancelled(&p.task));
    CHECK_EQ(0, atomic_load(&p.runs));
}

/* ---- invokeAll ---- */

static void invoke_all_runs_every_task_body(void)
{
    enum { N = 37 };
    probe tasks[N];
    fj_task *list[N];
    for (int i = 0; i < N; i++) {
        probe_init(&tasks[i], 0);
        list[i] = &tasks[i].task;
    }
    CHECK_RC(0, fj_invoke_all(list, N));
    for (int i = 0; i < N; i++) {
        CHECK_EQ(1, atomic_load(&tasks[i].runs));
        CHECK_EQ(42, tasks[i].result);
        CHECK(fj_task_is_completed_normally(list[i]));
    }
    CHECK_RC(0, fj_invoke_all(list, 0));
    CHECK_RC(FJ_EINVAL, fj_invoke_all(NULL, 3));
}
static void invoke_all_runs_every_task(void) { run_in_pool(invoke_all_runs_every_task_body); }

static void invoke_all_returns_the_first_error_body(void)
{
    enum { N = 8 };
    probe tasks[N];
    fj_task *list[N];
    for (int i = 0; i < N; i++) {
        probe_init(&tasks[i], i == 3 ? -3003 : i == 5 ? -5005 : 0);
        list[i] = &tasks[i].task;
    }
    CHECK_RC(-3003, fj_invoke_all(list, N));
    for (int i = 0; i < N; i++) {
        CHECK(fj_task_is_done(list[i]));
        CHECK(atomic_load(&tasks[i].runs) <= 1);
    }
    probe a, b;
    probe_init(&a, -1111);
    probe_init(&b, -2222);
    CHECK_RC(-1111, fj_invoke_all2(&a.task, &b.task));
    CHECK(fj_task_is_done(&b.task));
    probe_init(&a, 0);
    probe_init(&b, -2222);
    CHECK_RC(-2222, fj_invoke_all2(&a.task, &b.task));
    CHECK_EQ(1, atomic_load(&a.runs));
}
static void invoke_all_returns_the_first_error(void) { run_in_pool(invoke_all_returns_the_first_error_body); }

/* ---- get from outside the pool ---- */

static void get_from_outside_returns_result(void)
{
    fj_pool *pool = check_pool();
    fibonacci *f = malloc(sizeof *f);  /* joined from outside: heap (fj.h, Task lifetime) */
    *f = (fibonacci)FIBONACCI(20);
    CHECK_RC(0, fj_pool_submit(pool, &f->task));
    long value = 0;
    CHECK_RC(0, FJ_GET_RESULT(f, &value));
    CHECK_EQ(fib_serial(20), value);
    CHECK_RC(0, FJ_GET_RESULT_TIMED(f, 0, &value));  /* complete: no wait at all */
    free(f);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void get_timed_times_out_while_running(void)
{
    fj_pool *pool = check_pool();
    atomic_int gate = 0;
    gated g = {FJ_TASK_INIT(gated_compute), &gate, 0};
    CHECK_RC(0, fj_pool_submit(pool, &g.task));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&g.task, 1000000));  /* cannot finish: gate shut */
    CHECK(!fj_task_is_done(&g.task));
    atomic_store(&gate, 1);
    CHECK_RC(0, fj_task_get_timed(&g.task, FJ_NO_TIMEOUT));
    CHECK(fj_task_is_completed_normally(&g.task));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- quietlyJoin, quietlyInvoke ---- */

static void quietly_join_and_invoke_body(void)
{
    probe p;
    probe_init(&p, -77);
    fj_fork(&p.task);
    fj_task_quietly_join(&p.task);
    CHECK(fj_task_is_completed_abnormally(&p.task));
    CHECK_RC(-77, fj_task_outcome(&p.task));
    probe q;
    probe_init(&q, 0);
    fj_task_quietly_invoke(&q.task);
    CHECK(fj_task_is_completed_normally(&q.task));
    CHECK_EQ(1, atomic_load(&q.runs));
}
static void quietly_join_and_invoke(void) { run_in_pool(quietly_join_and_invoke_body); }

/* ---- tryUnfork ---- */

static void try_unfork_succeeds_only_while_unstarted_body(void)
{
    probe p;
    probe_init(&p, 0);
    fj_fork(&p.task);
    if (fj_task_try_unfork(&p.task)) {
        CHECK_EQ(0, atomic_load(&p.runs));  /* taken back before anyone ran it */
        CHECK(!fj_task_is_done(&p.task));
        CHECK_RC(0, fj_invoke(&p.task));
    } else {
        CHECK(check_workers > 1);  /* only a thief can beat us to it */
        CHECK_RC(0, fj_join(&p.task));
    }
    CHECK_EQ(1, atomic_load(&p.runs));
    CHECK_EQ(0, fj_task_try_unfork(&p.task));  /* completed: nothing to take back */
}
static void try_unfork_succeeds_only_while_unstarted(void)
{
    run_in_pool(try_unfork_succeeds_only_while_unstarted_body);
}

static void try_unfork_on_one_worker_body(void)
{
    probe a, b;
    probe_init(&a, 0);
    probe_init(&b, 0);
    fj_fork(&a.task);
    fj_fork(&b.task);
    CHECK_EQ(0, fj_task_try_unfork(&a.task));  /* not the newest */
    CHECK_EQ(1, fj_task_try_unfork(&b.task));
    CHECK_EQ(1, fj_task_try_unfork(&a.task));
    CHECK_EQ(0, atomic_load(&a.runs) + atomic_load(&b.runs));
}
static void try_unfork_on_one_worker(void) { run_in_pool_of(1, try_unfork_on_one_worker_body); }

/* ---- getSurplusQueuedTaskCount, getQueuedTaskCount ---- */

enum { SURPLUS_FORKS = 16 };

static void surplus_grows_with_local_forks_body(void)
{
    CHECK_EQ(0, fj_get_surplus_queued_task_count());  /* empty deque */
    CHECK_EQ(0, fj_get_queued_task_count());
    probe tasks[SURPLUS_FORKS];
    for (int i = 0; i < SURPLUS_FORKS; i++) {
        probe_init(&tasks[i], 0);
        fj_fork(&tasks[i].task);
        CHECK_EQ(i + 1, fj_get_surplus_queued_task_count());  /* one worker: no thieves to reserve for */
        CHECK_EQ(i + 1, fj_get_queued_task_count());
    }
    for (int i = SURPLUS_FORKS; i-- > 0;)
        CHECK_RC(0, fj_join(&tasks[i].task));
    CHECK_EQ(0, fj_get_surplus_queued_task_count());
}
static void surplus_grows_with_local_forks(void) { run_in_pool_of(1, surplus_grows_with_local_forks_body); }

static void surplus_is_bounded_by_local_forks_body(void)
{
    CHECK_EQ(0, fj_get_surplus_queued_task_count());
    probe tasks[SURPLUS_FORKS];
    for (int i = 0; i < SURPLUS_FORKS; i++) {
        probe_init(&tasks[i], 0);
        fj_fork(&tasks[i].task);
        int surplus = fj_get_surplus_queued_task_count();
        CHECK(surplus >= 0 && surplus <= i + 1);
    }
    for (int i = SURPLUS_FORKS; i-- > 0;)
        CHECK_RC(0, fj_join(&tasks[i].task));
    CHECK_EQ(0, fj_get_surplus_queued_task_count());
    CHECK_EQ(0, fj_get_queued_task_count());
}
static void surplus_is_bounded_by_local_forks(void) { run_in_pool(surplus_is_bounded_by_local_forks_body); }

static void surplus_is_zero_off_a_worker(void)
{
    CHECK_EQ(0, fj_get_surplus_queued_task_count());
    CHECK_EQ(0, fj_get_queued_task_count());
    CHECK_EQ(0, fj_in_pool());
    CHECK(fj_get_pool() == NULL);
}

/* ---- reinitialize ---- */

static void reinitialize_lets_a_task_run_again_body(void)
{
    probe p;
    probe_init(&p, 0);
    CHECK_RC(0, fj_task_reinitialize(&p.task));  /* never forked: fine */
    fj_fork(&p.task);
    CHECK_RC(FJ_EBUSY, fj_task_reinitialize(&p.task));  /* one worker: still queued */
    CHECK_RC(0, fj_join(&p.task));
    for (int round = 2; round <= 4; round++) {
        CHECK_RC(0, fj_task_reinitialize(&p.task));
        CHECK(!fj_task_is_done(&p.task));
        p.result = 0;
        fj_fork(&p.task);
        CHECK_RC(0, fj_join(&p.task));
        CHECK_EQ(round, atomic_load(&p.runs));
        CHECK_EQ(42, p.result);
    }
    /* A failed task, reinitialized, can complete normally. */
    p.outcome = -9;
    CHECK_RC(0, fj_task_reinitialize(&p.task));
    CHECK_RC(-9, fj_invoke(&p.task));
    p.outcome = 0;
    CHECK_RC(0, fj_task_reinitialize(&p.task));
    CHECK_RC(0, fj_invoke(&p.task));
    CHECK(fj_task_is_completed_normally(&p.task));
}
static void reinitialize_lets_a_task_run_again(void) { run_in_pool_of(1, reinitialize_lets_a_task_run_again_body); }

/* ---- tasks that are not fully strict ---- */

typedef struct producer {
    FJ_RECURSIVE_ACTION;
    fibonacci *_Atomic *slot;
} producer;

static int producer_compute(fj_task *t)
{
    producer *p = FJ_SELF(t, producer);
    fibonacci *f = malloc(sizeof *f);
    *f = (fibonacci)FIBONACCI(18);
    fj_fork(&f->task);  /* not joined here: the consumer joins and frees it */
    atomic_store(p->slot, f);
    return 0;
}

typedef struct consumer {
    FJ_RECURSIVE_TASK(long);
    fibonacci *_Atomic *slot;
} consumer;

static int consumer_compute(fj_task *t)
{
    consumer *c = FJ_SELF(t, consumer);
    fibonacci *f;
    while ((f = atomic_load(c->slot)) == NULL)
        sched_yield();  /* the producer is running on another worker, or already done */
    int rc = FJ_JOIN_RESULT(f, &c->result);
    free(f);  /* ours now: the join returned */
    return rc;
}

static void heap_task_joined_by_another_task_body(void)
{
    fibonacci *_Atomic slot = NULL;
    producer p = {FJ_TASK_INIT(producer_compute), &slot};
    consumer c = {FJ_TASK_INIT(consumer_compute), 0, &slot};
    /* The producer runs first (invoke), so the consumer never waits for a task
     * that cannot start, whatever the worker count. */
    CHECK_RC(0, fj_invoke(&p.task));
    CHECK_RC(0, fj_invoke(&c.task));
    CHECK_EQ(fib_serial(18), c.result);
}
static void heap_task_joined_by_another_task(void) { run_in_pool(heap_task_joined_by_another_task_body); }

static fibonacci *_Atomic escaped;

static void fork_and_leave_body(void)
{
    fibonacci *f = malloc(sizeof *f);
    *f = (fibonacci)FIBONACCI(19);
    fj_fork(&f->task);
    atomic_store(&escaped, f);  /* the outside thread joins and frees it */
}

static void heap_task_joined_from_outside(void)
{
    run_in_pool(fork_and_leave_body);  /* destroy runs the leftover before it returns */
    fibonacci *f = atomic_load(&escaped);
    long value = 0;
    CHECK_RC(0, FJ_JOIN_RESULT(f, &value));
    CHECK_EQ(fib_serial(19), value);
    free(f);
}

/* ---- fork off a worker, common pool, inForkJoinPool, getPool ---- */

typedef struct where {
    FJ_RECURSIVE_ACTION;
    fj_pool *pool;
    int in_pool;
} where;

static int where_compute(fj_task *t)
{
    where *w = FJ_SELF(t, where);
    w->pool = fj_get_pool();
    w->in_pool = fj_in_pool();
    return 0;
}

static void fork_off_a_worker_goes_to_the_common_pool(void)
{
    where w = {FJ_TASK_INIT(where_compute), NULL, 0};
    CHECK_RC(0, fj_fork(&w.task));
    CHECK_RC(0, fj_task_get(&w.task));
    CHECK(w.pool != NULL && w.pool == fj_common_pool());
    CHECK_EQ(1, w.in_pool);
    fibonacci f = FIBONACCI(16);
    fibonacci g = FIBONACCI(17);
    CHECK_RC(0, fj_invoke_all2(&f.task, &g.task));  /* from outside: g goes to the common pool */
    CHECK_EQ(fib_serial(16), f.result);
    CHECK_EQ(fib_serial(17), g.result);
}

static void get_pool_is_the_running_pool(void)
{
    fj_pool *pool = check_pool();
    where w = {FJ_TASK_INIT(where_compute), NULL, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &w.task));
    CHECK(w.pool == pool);
    CHECK_EQ(1, w.in_pool);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- helpQuiesce ---- */

enum { QUIESCE_TASKS = 64 };
static fibonacci quiesce_tasks[QUIESCE_TASKS];

static void help_quiesce_body(void)
{
    for (int i = 0; i < QUIESCE_TASKS; i++) {
        quiesce_tasks[i] = (fibonacci)FIBONACCI(12 + i % 6);
        fj_fork(&quiesce_tasks[i].task);  /* never joined */
    }
    fj_help_quiesce();
    for (int i = 0; i < QUIESCE_TASKS; i++) {
        CHECK(fj_task_is_completed_normally(&quiesce_tasks[i].task));
        CHECK_EQ(fib_serial(12 + i % 6), quiesce_tasks[i].result);
    }
    CHECK_EQ(0, fj_get_queued_task_count());
}
static void help_quiesce_runs_everything_queued(void) { run_in_pool(help_quiesce_body); }

/* ---- tags (getForkJoinTaskTag, setForkJoinTaskTag, compareAndSetForkJoinTaskTag) ---- */

static void tags_start_at_zero_and_survive_fork_and_join(void)
{
    fj_pool *pool = check_pool();
    probe p;
    probe_init(&p, 0);
    CHECK_EQ(0, fj_task_get_tag(&p.task));
    CHECK_EQ(0, fj_task_set_tag(&p.task, 5));
    CHECK_EQ(5, fj_task_set_tag(&p.task, -3));
    CHECK_EQ(-3, fj_task_get_tag(&p.task));
    CHECK_EQ(1, fj_task_compare_and_set_tag(&p.task, -3, 7));
    CHECK_EQ(0, fj_task_compare_and_set_tag(&p.task, -3, 9));  /* not -3 any more */
    CHECK_EQ(7, fj_task_get_tag(&p.task));
    CHECK_RC(0, fj_pool_invoke(pool, &p.task));                 /* completion leaves it */
    CHECK_EQ(7, fj_task_get_tag(&p.task));
    CHECK_RC(0, fj_task_reinitialize(&p.task));                 /* as Java's reinitialize */
    CHECK_EQ(0, fj_task_get_tag(&p.task));
    fj_task_set_tag(&p.task, 11);
    CHECK_RC(0, fj_task_cancel(&p.task));
    CHECK_EQ(11, fj_task_get_tag(&p.task));
    fj_task_init(&p.task, probe_compute);
    CHECK_EQ(0, fj_task_get_tag(&p.task));
    fj_task fresh = FJ_TASK_INIT(probe_compute);
    CHECK_EQ(0, fj_task_get_tag(&fresh));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* Leaves that race on one task's tag: every leaf adds TAG_ADDS to it with a
 * compare-and-set loop, and tries to claim a second task's tag from 0. */
enum { TAG_LEAVES = 64, TAG_ADDS = 200 };

typedef struct tag_leaf {
    fj_task task;
    fj_task *counter, *prize;
    int claimed;
} tag_leaf;

static int tag_leaf_run(fj_task *t)
{
    tag_leaf *leaf = FJ_CONTAINER_OF(t, tag_leaf, task);
    for (int i = 0; i < TAG_ADDS; i++) {
        short seen;
        do
            seen = fj_task_get_tag(leaf->counter);
        while (!fj_task_compare_and_set_tag(leaf->counter, seen, (short)(seen + 1)));
    }
    leaf->claimed = fj_task_compare_and_set_tag(leaf->prize, 0, 1);
    return 0;
}

typedef struct tag_race {
    fj_task task;
    tag_leaf leaves[TAG_LEAVES];
} tag_race;

static int tag_race_run(fj_task *t)
{
    tag_race *race = FJ_CONTAINER_OF(t, tag_race, task);
    for (int i = 0; i < TAG_LEAVES; i++)
        fj_fork(&race->leaves[i].task);
    for (int i = TAG_LEAVES - 1; i >= 0; i--)
        CHECK_RC(0, fj_join(&race->leaves[i].task));
    return 0;
}

static void tag_compare_and_set_is_atomic(void)
{
    fj_pool *pool = check_pool();
    fj_task counter = FJ_TASK_INIT(probe_compute), prize = FJ_TASK_INIT(probe_compute);
    static tag_race race;
    fj_task_init(&race.task, tag_race_run);
    for (int i = 0; i < TAG_LEAVES; i++)
        race.leaves[i] = (tag_leaf){FJ_TASK_INIT(tag_leaf_run), &counter, &prize, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &race.task));
    CHECK_EQ(TAG_LEAVES * TAG_ADDS, fj_task_get_tag(&counter));  /* no increment lost */
    int winners = 0;
    for (int i = 0; i < TAG_LEAVES; i++)
        winners += race.leaves[i].claimed;
    CHECK_EQ(1, winners);
    CHECK_EQ(1, fj_task_get_tag(&prize));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- tasks that complete later: fj_task_not_complete (Java's exec() false) ---- */

/* The TCK's AsyncFib, a BinaryAsyncAction: a node forks its two children and
 * returns not complete; the second child to complete (the first one only
 * marks the parent's tag) adds their numbers into the parent and completes it,
 * and so on up to the root.  The nodes live in an arena freed after the root
 * completed, since a leaf's body still returns after it completed itself. */
typedef struct async_fib {
    FJ_RECURSIVE_ACTION;
    struct async_fib *parent, *sibling;
    int n;
    long number;
} async_fib;

typedef struct async_arena {
    async_fib nodes[512];
    atomic_int used;
} async_arena;

static async_arena *arena;

static int async_fib_compute(fj_task *t);

static async_fib *async_fib_new(int n, async_fib *parent)
{
    int i = atomic_fetch_add(&arena->used, 1);
    CHECK(i < (int)(sizeof arena->nodes / sizeof arena->nodes[0]));
    async_fib *f = &arena->nodes[i];
    fj_task_init(&f->task, async_fib_compute);
    f->parent = parent;
    f->sibling = NULL;
    f->n = n;
    f->number = n;
    return f;
}

/* BinaryAsyncAction.complete(): completes a, then its parent if a's sibling
 * completed already (the tag CAS decides which of the two goes on). */
static void async_fib_complete(async_fib *a)
{
    for (;;) {
        async_fib *p = a->parent;
        CHECK_RC(0, fj_task_quietly_complete(&a->task));
        if (!p || fj_task_compare_and_set_tag(&p->task, 0, 1))
            return;
        p->number = a->number + a->sibling->number;  /* onComplete: the children's sum */
        a = p;
    }
}

static int async_fib_compute(fj_task *t)
{
    async_fib *f = FJ_SELF(t, async_fib);
    if (f->n <= 1) {
        async_fib_complete(f);  /* completes f itself while its body runs */
        return fj_task_not_complete(t);
    }
    async_fib *x = async_fib_new(f->n - 1, f), *y = async_fib_new(f->n - 2, f);
    x->sibling = y;
    y->sibling = x;
    CHECK_RC(0, fj_fork(&y->task));
    CHECK_RC(0, fj_fork(&x->task));
    return fj_task_not_complete(t);  /* f may be complete (and read) from here on */
}

static void async_fib_body(void)
{
    async_fib *f = async_fib_new(12, NULL);
    CHECK_RC(0, fj_invoke(&f->task));
    CHECK_EQ(144, f->number);
    CHECK(fj_task_is_done(&f->task) && fj_task_is_completed_normally(&f->task));
    CHECK_RC(0, fj_join(&f->task));
}

static void not_complete_task_is_completed_by_its_children(void)
{
    arena = calloc(1, sizeof *arena);
    run_in_pool(async_fib_body);
    free(arena);
}

static void outside_thread_waits_for_task_completed_later(void)
{
    arena = calloc(1, sizeof *arena);
    fj_pool *pool = check_pool();
    async_fib *f = async_fib_new(12, NULL);
    CHECK_RC(0, fj_pool_submit(pool, &f->task));
    CHECK_RC(0, fj_task_get(&f->task));
    CHECK_EQ(144, f->number);
    CHECK(fj_task_is_completed_normally(&f->task));
    CHECK_RC(0, fj_pool_destroy(pool));
    free(arena);
}

/* A body that returns not complete and leaves its completion to the test. */
static int left_pending_compute(fj_task *t) { return fj_task_not_complete(t); }

/* Submits such a task and waits until its body returned (the pool is
 * quiescent), then checks that it is not done and that waits wait. */
static void submit_left_pending(fj_pool *pool, fj_task *t)
{
    fj_task_init(t, left_pending_compute);
    CHECK_RC(0, fj_pool_submit(pool, t));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK(!fj_task_is_done(t));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(t, 1000000));
    CHECK_RC(FJ_EBUSY, fj_task_reinitialize(t));
}

static void task_completed_later_by_fail_or_cancel(void)
{
    fj_pool *pool = check_pool();
    fj_task failed, cancelled, completed;
    submit_left_pending(pool, &failed);
    CHECK_RC(0, fj_task_complete_exceptionally(&failed, -77));
    CHECK_RC(-77, fj_task_get(&failed));
    CHECK(fj_task_is_done(&failed) && fj_task_is_completed_abnormally(&failed));
    CHECK(!fj_task_is_cancelled(&failed));
    submit_left_pending(pool, &cancelled);
    CHECK_RC(0, fj_task_cancel(&cancelled));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&cancelled));
    CHECK(fj_task_is_done(&cancelled) && fj_task_is_cancelled(&cancelled));
    submit_left_pending(pool, &completed);
    CHECK_RC(0, fj_task_quietly_complete(&completed));
    CHECK_RC(0, fj_task_get(&completed));
    CHECK(fj_task_is_completed_normally(&completed));
    CHECK_RC(FJ_EINVAL, fj_task_cancel(&completed));  /* complete: stays normal */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A body that completes its own task (fail or cancel) and then returns not
 * complete: the completion came first, so the body's return publishes it. */
static int fails_itself_compute(fj_task *t)
{
    CHECK_RC(0, fj_task_complete_exceptionally(t, -55));
    CHECK(!fj_task_is_done(t));  /* the body still runs */
    return fj_task_not_complete(t);
}

static int cancels_itself_compute(fj_task *t)
{
    CHECK_RC(0, fj_task_cancel(t));
    CHECK(!fj_task_is_done(t));
    return fj_task_not_complete(t);
}

static void completed_while_running_body(void)
{
    fj_task failed, cancelled;
    fj_task_init(&failed, fails_itself_compute);
    fj_task_init(&cancelled, cancels_itself_compute);
    CHECK_RC(0, fj_fork(&failed));
    CHECK_RC(-55, fj_join(&failed));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&cancelled));
    CHECK(fj_task_is_completed_abnormally(&failed) && !fj_task_is_cancelled(&failed));
    CHECK(fj_task_is_cancelled(&cancelled));
}
static void task_completed_while_its_body_runs_is_published_by_its_return(void)
{
    run_in_pool(completed_while_running_body);
}

static const check_case cases[] = {
    {"tags_start_at_zero_and_survive_fork_and_join", tags_start_at_zero_and_survive_fork_and_join, CHECK_ONCE},
    {"tag_compare_and_set_is_atomic", tag_compare_and_set_is_atomic, CHECK_PER_WORKERS},
    {"recursive_task_computes_fibonacci", recursive_task_computes_fibonacci, CHECK_PER_WORKERS},
    {"join_of_failed_task_returns_its_error", join_of_failed_task_returns_its_error, CHECK_PER_WORKERS},
    {"join_of_cancelled_task_reports_cancellation", join_of_cancelled_task_reports_cancellation, CHECK_PER_WORKERS},
    {"complete_exceptionally_first_error_wins", complete_exceptionally_first_error_wins, CHECK_ONCE},
    {"invoke_all_runs_every_task", invoke_all_runs_every_task, CHECK_PER_WORKERS},
    {"invoke_all_returns_the_first_error", invoke_all_returns_the_first_error, CHECK_PER_WORKERS},
    {"get_from_outside_returns_result", get_from_outside_returns_result, CHECK_PER_WORKERS},
    {"get_timed_times_out_while_running", get_timed_times_out_while_running, CHECK_PER_WORKERS},
    {"quietly_join_and_invoke", quietly_join_and_invoke, CHECK_PER_WORKERS},
    {"try_unfork_succeeds_only_while_unstarted", try_unfork_succeeds_only_while_unstarted, CHECK_PER_WORKERS},
    {"try_unfork_on_one_worker", try_unfork_on_one_worker, CHECK_ONCE},
    {"surplus_grows_with_local_forks", surplus_grows_with_local_forks, CHECK_ONCE},
    {"surplus_is_bounded_by_local_forks", surplus_is_bounded_by_local_forks, CHECK_PER_WORKERS},
    {"surplus_is_zero_off_a_worker", surplus_is_zero_off_a_worker, CHECK_ONCE},
    {"reinitialize_lets_a_task_run_again", reinitialize_lets_a_task_run_again, CHECK_ONCE},
    {"heap_task_joined_by_another_task", heap_task_joined_by_another_task, CHECK_PER_WORKERS},
    {"heap_task_joined_from_outside", heap_task_joined_from_outside, CHECK_PER_WORKERS},
    {"fork_off_a_worker_goes_to_the_common_pool", fork_off_a_worker_goes_to_the_common_pool, CHECK_ONCE},
    {"get_pool_is_the_running_pool", get_pool_is_the_running_pool, CHECK_PER_WORKERS},
    {"help_quiesce_runs_everything_queued", help_quiesce_runs_everything_queued, CHECK_PER_WORKERS},
    {"not_complete_task_is_completed_by_its_children", not_complete_task_is_completed_by_its_children, CHECK_PER_WORKERS},
    {"outside_thread_waits_for_task_completed_later", outside_thread_waits_for_task_completed_later, CHECK_PER_WORKERS},
    {"task_completed_later_by_fail_or_cancel", task_completed_later_by_fail_or_cancel, CHECK_PER_WORKERS},
    {"task_completed_while_its_body_runs_is_published_by_its_return", task_completed_while_its_body_runs_is_published_by_its_return, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
