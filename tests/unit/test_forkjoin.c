/* test_forkjoin.c - fork and join on real pools: results, join orders,
 * stolen children and helping, wide forks, pairs, cancellation, errors. */
#include <pthread.h>

#include "check.h"
#include "atomics.h"

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static int fib_compute(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_compute), f->n - 1, 0};
    fib_task b = {FJ_TASK_INIT(fib_compute), f->n - 2, 0};
    fj_fork(&a.task);
    fib_compute(&b.task);
    CHECK_RC(0, fj_join(&a.task));
    f->result = a.result + b.result;
    return 0;
}

static void fib_20_to_30_is_right(void)
{
    fj_pool *pool = check_pool();
    for (int n = 20; n <= 30; n++) {
        fib_task root = {FJ_TASK_INIT(fib_compute), n, -1};
        CHECK_RC(0, fj_pool_invoke(pool, &root.task));
        CHECK_EQ(fib_serial(n), root.result);
    }
    fj_worker_stats total;
    CHECK_EQ(check_workers, fj_pool_stats(pool, NULL, 0, &total));
    CHECK(total.forks > 0);
    CHECK_EQ(total.forks + 11, total.tasks_run);  /* every fork runs once, plus 11 roots */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- many forks, joined in an arbitrary order ---- */

typedef struct square_task {
    fj_task task;
    long input, output;
} square_task;

static int square_compute(fj_task *t)
{
    square_task *s = FJ_CONTAINER_OF(t, square_task, task);
    s->output = s->input * s->input;
    return 0;
}

typedef struct wide_task {
    fj_task task;
    long children;
    int order;  /* 0: forward, 1: reverse, 2: shuffled */
    long sum;
} wide_task;

static int wide_compute(fj_task *t)
{
    wide_task *w = FJ_CONTAINER_OF(t, wide_task, task);
    square_task *kids = calloc((size_t)w->children, sizeof *kids);
    long *order = calloc((size_t)w->children, sizeof *order);
    CHECK(kids && order);
    for (long i = 0; i < w->children; i++) {
        kids[i] = (square_task){FJ_TASK_INIT(square_compute), i, -1};
        CHECK_RC(0, fj_fork(&kids[i].task));
        order[i] = w->order == 1 ? w->children - 1 - i : i;
    }
    unsigned seed = 12345;
    for (long i = w->children - 1; w->order == 2 && i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        long j = (long)((seed >> 8) % (unsigned long)(i + 1)), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    w->sum = 0;
    for (long i = 0; i < w->children; i++) {
        CHECK_RC(0, fj_join(&kids[order[i]].task));
        w->sum += kids[order[i]].output;
    }
    free(kids);
    free(order);
    return 0;
}

static void joins_in_any_order(void)
{
    fj_pool *pool = check_pool();
    for (int order = 0; order < 3; order++) {
        for (long n = 1; n <= 5000; n *= 7) {
            wide_task root = {FJ_TASK_INIT(wide_compute), n, order, 0};
            CHECK_RC(0, fj_pool_invoke(pool, &root.task));
            CHECK_EQ((n - 1) * n * (2 * n - 1) / 6, root.sum);
        }
    }
    fj_pool_destroy(pool);
}

static void thousands_of_children_at_once(void)
{
    fj_pool *pool = check_pool();
    long n = 20000;  /* more than the deque's initial array: it must grow */
    wide_task root = {FJ_TASK_INIT(wide_compute), n, 0, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ((n - 1) * n * (2 * n - 1) / 6, root.sum);
    fj_pool_destroy(pool);
}

/* ---- a stolen child: the joiner must help ---- */

typedef struct stolen_child {
    fj_task task;
    atomic_word started_elsewhere;  /* set when it runs on a worker other than its forker */
    atomic_word forker_helped;      /* set when a grandchild ran on the forker's worker */
    int forker;
    long sum, forked;
} stolen_child;

typedef struct grandchild {
    fj_task task;
    stolen_child *parent;
    long value;
} grandchild;

static int grandchild_compute(fj_task *t)
{
    grandchild *g = FJ_CONTAINER_OF(t, grandchild, task);
    if (fj_current_worker_index() == g->parent->forker)
        atomic_store_release(&g->parent->forker_helped, 1);
    g->value = fib_serial(10);
    return 0;
}

enum { GRANDCHILDREN_ROUND = 1024 };

/* Runs on a thief.  Offers grandchildren, a round of them at a time, until the
 * forker, blocked in its join of this task, has run one of them: only helping
 * can do that.  No cap on the rounds: the other idle workers compete for the
 * same grandchildren, and on a loaded machine the forker may lose many rounds
 * before it wins one; a forker that never helps keeps this going until the
 * suite's time limit fails the case. */
static int stolen_child_compute(fj_task *t)
{
    stolen_child *c = FJ_CONTAINER_OF(t, stolen_child, task);
    int elsewhere = fj_current_worker_index() != c->forker;
    if (elsewhere)
        atomic_store_release(&c->started_elsewhere, 1);
    grandchild *kids = calloc(GRANDCHILDREN_ROUND, sizeof *kids);
    CHECK(kids != NULL);
    c->forked = 0;
    c->sum = 0;
    do {
        for (long i = 0; i < GRANDCHILDREN_ROUND; i++) {
            kids[i] = (grandchild){FJ_TASK_INIT(grandchild_compute), c, 0};
            fj_fork(&kids[i].task);
            if (i % 64 == 63)
                sched_yield();
        }
        for (long i = GRANDCHILDREN_ROUND - 1; i >= 0; i--) {
            fj_join(&kids[i].task);
            c->sum += kids[i].value;
        }
        c->forked += GRANDCHILDREN_ROUND;
    } while (elsewhere && !atomic_load_acquire(&c->forker_helped));
    free(kids);
    return 0;
}

typedef struct steal_root {
    fj_task task;
    stolen_child child;
} steal_root;

static int steal_root_compute(fj_task *t)
{
    steal_root *r = FJ_CONTAINER_OF(t, steal_root, task);
    r->child.forker = fj_current_worker_index();
    fj_fork(&r->child.task);
    if (fj_pool_worker_count(fj_current_pool()) > 1)
        while (!atomic_load_acquire(&r->child.started_elsewhere))
            sched_yield();  /* until a thief has it: the join below is the slow path */
    return fj_join(&r->child.task);
}

static void stolen_child_join_helps(void)
{
    fj_pool *pool = check_pool();
    steal_root root = {FJ_TASK_INIT(steal_root_compute), {FJ_TASK_INIT(stolen_child_compute), 0, 0, -1, 0, 0}};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(root.child.forked * fib_serial(10), root.child.sum);
    fj_worker_stats total, *per = check_pool_stats(pool, &total);
    int forker = root.child.forker;
    if (check_workers == 1) {
        CHECK_EQ(0, total.steals + total.leapfrogs);
        free(per);
        return (void)fj_pool_destroy(pool);
    }
    CHECK(atomic_load_acquire(&root.child.forker_helped));
    CHECK(total.steals >= 1);
    CHECK(per[forker].leapfrogs + per[forker].helps >= 1);
    if (check_workers == 2)
        CHECK(per[forker].leapfrogs >= 1);  /* its only way to the grandchildren */
    free(per);
    fj_pool_destroy(pool);
}

/* ---- fj_pair ---- */

typedef struct range_sum {
    long from, to, sum;
} range_sum;

static void range_sum_compute(void *p)
{
    range_sum *r = p;
    if (r->to - r->from <= 64) {
        r->sum = 0;
        for (long i = r->from; i < r->to; i++)
            r->sum += i;
        return;
    }
    long mid = r->from + (r->to - r->from) / 2;
    range_sum left = {r->from, mid, 0}, right = {mid, r->to, 0};
    fj_pair(range_sum_compute, &left, range_sum_compute, &right);
    r->sum = left.sum + right.sum;
}

typedef struct pair_root {
    fj_task task;
    range_sum range;
} pair_root;

static int pair_root_compute(fj_task *t)
{
    range_sum_compute(&FJ_CONTAINER_OF(t, pair_root, task)->range);
    return 0;
}

static void pair_runs_both(void)
{
    fj_pool *pool = check_pool();
    long n = 1000003;
    pair_root root = {FJ_TASK_INIT(pair_root_compute), {0, n, 0}};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(n * (n - 1) / 2, root.range.sum);
    range_sum outside = {0, 1000, 0};  /* not a worker: runs serially */
    range_sum_compute(&outside);
    CHECK_EQ(1000 * 999 / 2, outside.sum);
    fj_pool_destroy(pool);
}

/* ---- outcomes: errors and cancellation ---- */

static int fails_with_42(fj_task *t) { return -1042; }

typedef struct counted_task {
    fj_task task;
    atomic_word runs;
} counted_task;

static int count_run(fj_task *t)
{
    counted_task *c = FJ_CONTAINER_OF(t, counted_task, task);
    atomic_store(&c->runs, atomic_load(&c->runs) + 1);
    return 0;
}

typedef struct outcome_root {
    fj_task task;
} outcome_root;

static int outcome_root_compute(fj_task *t)
{
    fj_task failing = FJ_TASK_INIT(fails_with_42);
    fj_fork(&failing);
    CHECK_RC(-1042, fj_join(&failing));
    CHECK_RC(-1042, fj_join(&failing));  /* joining twice: the same outcome */
    CHECK(fj_task_is_completed_abnormally(&failing));

    /* Cancel a queued task.  On one worker nobody can start it first, so it
     * must not run; elsewhere a thief may have started it, which Java allows:
     * either way the join reports the cancellation. */
    counted_task cancelled = {FJ_TASK_INIT(count_run), 0};
    fj_fork(&cancelled.task);
    int cancel_rc = fj_task_cancel(&cancelled.task);
    if (cancel_rc == 0) {
        CHECK(fj_task_is_cancelled(&cancelled.task));
        CHECK_RC(FJ_ECANCELED, fj_join(&cancelled.task));
        CHECK(atomic_load(&cancelled.runs) <= 1);
    } else {  /* a thief ran it to completion first: cancel must say so */
        CHECK_RC(FJ_EINVAL, cancel_rc);
        CHECK_RC(0, fj_join(&cancelled.task));
        CHECK_EQ(1, atomic_load(&cancelled.runs));
    }
    if (fj_pool_worker_count(fj_current_pool()) == 1) {
        CHECK_RC(0, cancel_rc);
        CHECK_EQ(0, atomic_load(&cancelled.runs));
    }
    /* Again: true (0) if it is cancelled, as Java's cancel(); refused if it completed. */
    CHECK_RC(cancel_rc == 0 ? 0 : FJ_EINVAL, fj_task_cancel(&cancelled.task));

    counted_task never_forked = {FJ_TASK_INIT(count_run), 0};
    CHECK_RC(0, fj_task_cancel(&never_forked.task));
    CHECK(fj_task_is_done(&never_forked.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&never_forked.task));
    CHECK_EQ(0, atomic_load(&never_forked.runs));

    counted_task failed_early = {FJ_TASK_INIT(count_run), 0};
    fj_fork(&failed_early.task);
    if (fj_task_fail(&failed_early.task, -2000) == 0) {
        CHECK_RC(-2000, fj_join(&failed_early.task));
        CHECK(fj_task_is_completed_abnormally(&failed_early.task));
    } else {  /* a thief completed it first: the failure must not stick */
        CHECK_RC(0, fj_join(&failed_early.task));
        CHECK(fj_task_is_completed_normally(&failed_early.task));
        CHECK_EQ(1, atomic_load(&failed_early.runs));
    }
    return 0;
}

static void errors_and_cancellation_are_reported(void)
{
    fj_pool *pool = check_pool();
    outcome_root root = {FJ_TASK_INIT(outcome_root_compute)};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    fj_task failing = FJ_TASK_INIT(fails_with_42);
    CHECK_RC(-1042, fj_pool_invoke(pool, &failing));
    CHECK_RC(-1042, fj_invoke(&failing));
    fj_pool_destroy(pool);
}

/* ---- a body that returns 1 ---- */

/* fj.h asks a body for 0 or a negative code; 1 is also the runtime's private
 * "ran, completes later" (fj_task_not_complete).  A body that returns 1 by
 * mistake must be reported, never waited for. */
typedef struct returns_one {
    fj_task task;
    int runs;
} returns_one;

static int returns_one_run(fj_task *t)
{
    FJ_CONTAINER_OF(t, returns_one, task)->runs++;
    return 1;
}

typedef struct one_forker {
    fj_task task;
    int child_rc;
    int child_runs;
} one_forker;

static int one_forker_run(fj_task *t)
{
    one_forker *f = FJ_CONTAINER_OF(t, one_forker, task);
    returns_one child = {FJ_TASK_INIT(returns_one_run), 0};
    CHECK_RC(0, fj_fork(&child.task));
    f->child_rc = fj_join(&child.task);
    f->child_runs = child.runs;
    return 0;
}

static void body_returning_one_is_reported(void)
{
    returns_one outside = {FJ_TASK_INIT(returns_one_run), 0};
    CHECK_EQ(1, fj_invoke(&outside.task));  /* no pool at all */
    CHECK_EQ(1, outside.runs);
    fj_pool *pool = check_pool();
    one_forker forker = {FJ_TASK_INIT(one_forker_run), 0, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &forker.task));
    CHECK_EQ(1, forker.child_rc);
    CHECK_EQ(1, forker.child_runs);
    returns_one root = {FJ_TASK_INIT(returns_one_run), 0};
    CHECK_EQ(1, fj_pool_invoke(pool, &root.task));
    returns_one submitted = {FJ_TASK_INIT(returns_one_run), 0};
    CHECK_RC(0, fj_pool_submit(pool, &submitted.task));
    CHECK_EQ(1, fj_join(&submitted.task));
    CHECK_EQ(1, root.runs);
    CHECK_EQ(1, submitted.runs);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- a join takes its task from another worker's deque past tombstones ---- */

/* Worker P forks x then t and joins x out of order: deque_remove leaves a
 * tombstone where x was, at the head, with t just above it.  Worker Q joins t,
 * which sits below P's floor while x runs, so only Q can run it; x waits (not
 * a join) until Q's join has returned.  t is the oldest task in its forker's
 * deque, which fj.h promises a joiner takes. */
typedef struct behind_tomb {
    atomic_word arrived;     /* P and Q each running, on different workers */
    fj_task *t;              /* published by P once forked */
    atomic_word q_joined;    /* Q's join of t returned */
    int t_ran;
} behind_tomb;

static behind_tomb tomb_case;

static int tomb_t_run(fj_task *t)
{
    tomb_case.t_ran++;
    return 0;
}

static int tomb_x_run(fj_task *t)
{
    while (!atomic_load_acquire(&tomb_case.q_joined))
        sched_yield();
    return 0;
}

static void tomb_meet(void)
{
    atomic_fetch_add_full(&tomb_case.arrived, 1);
    while (atomic_load_acquire(&tomb_case.arrived) < 2)
        sched_yield();
}

static int tomb_p_run(fj_task *self)
{
    tomb_meet();
    fj_task x = FJ_TASK_INIT(tomb_x_run), t = FJ_TASK_INIT(tomb_t_run);
    CHECK_RC(0, fj_fork(&x));
    CHECK_RC(0, fj_fork(&t));
    __atomic_store_n(&tomb_case.t, &t, __ATOMIC_RELEASE);
    CHECK_RC(0, fj_join(&x));  /* not on top: taken out of the middle */
    CHECK_RC(0, fj_join(&t));
    return 0;
}

static int tomb_q_run(fj_task *self)
{
    tomb_meet();
    fj_task *t;
    while (!(t = __atomic_load_n(&tomb_case.t, __ATOMIC_ACQUIRE)))
        sched_yield();
    int rc = fj_join(t);
    atomic_store_release(&tomb_case.q_joined, 1);
    return rc;
}

static void join_takes_task_behind_a_tombstone(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;  /* no third worker whose plain steals would take t */
    fj_pool *pool;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    fj_task p = FJ_TASK_INIT(tomb_p_run), q = FJ_TASK_INIT(tomb_q_run);
    CHECK_RC(0, fj_pool_submit(pool, &p));
    CHECK_RC(0, fj_pool_submit(pool, &q));
    CHECK_RC(0, fj_join(&q));
    CHECK_RC(0, fj_join(&p));
    CHECK_EQ(1, tomb_case.t_ran);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"fib_20_to_30_is_right", fib_20_to_30_is_right, CHECK_PER_WORKERS},
    {"joins_in_any_order", joins_in_any_order, CHECK_PER_WORKERS},
    {"thousands_of_children_at_once", thousands_of_children_at_once, CHECK_PER_WORKERS},
    {"stolen_child_join_helps", stolen_child_join_helps, CHECK_PER_WORKERS},
    {"pair_runs_both", pair_runs_both, CHECK_PER_WORKERS},
    {"errors_and_cancellation_are_reported", errors_and_cancellation_are_reported, CHECK_PER_WORKERS},
    {"join_takes_task_behind_a_tombstone", join_takes_task_behind_a_tombstone, CHECK_ONCE},
    {"body_returning_one_is_reported", body_returning_one_is_reported, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
