/* test_java_async.c - Java's asyncMode (fj_pool_create_with_async_mode): a
 * worker runs its own never-joined forks oldest first, peek and poll look at
 * that oldest task, joins still take their child back, and every task runs
 * exactly once while thieves take from the same end.  On one worker nobody
 * steals, so every order checked there is certain. */
#include <stdatomic.h>

#include "../check.h"
#include "../fib_tasks.h"
#include "fj_java.h"

/* ---- creation and getAsyncMode ---- */

static void async_mode_is_set_at_creation_and_reported(void)
{
    fj_pool *fifo = NULL, *lifo = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&fifo, check_workers, 1));
    CHECK_RC(0, fj_pool_create_with_async_mode(&lifo, check_workers, 0));
    CHECK_EQ(1, fj_pool_get_async_mode(fifo));
    CHECK_EQ(0, fj_pool_get_async_mode(lifo));
    CHECK_EQ(check_workers, fj_pool_get_parallelism(fifo));
    CHECK_EQ(0, fj_pool_get_async_mode(fj_common_pool()));  /* Java's common pool is LIFO */
    fj_pool *plain = check_pool();
    CHECK_EQ(0, fj_pool_get_async_mode(plain));
    CHECK_EQ(0, fj_pool_get_async_mode(NULL));
    CHECK_RC(0, fj_pool_destroy(plain));
    CHECK_RC(0, fj_pool_destroy(lifo));
    CHECK_RC(0, fj_pool_destroy(fifo));
}

static void async_mode_other_than_0_or_1_is_refused(void)
{
    fj_pool *pool = NULL;
    CHECK_REFUSED(FJ_EINVAL, "async_mode=2: expected 0 or 1", fj_pool_create_with_async_mode(&pool, 1, 2));
    CHECK(pool == NULL);
    CHECK_REFUSED(FJ_EINVAL, "async_mode=-1: expected 0 or 1", fj_pool_create_with_async_mode(&pool, 1, -1));
    CHECK(pool == NULL);
}

/* ---- the order of a worker's own never-joined forks ---- */

enum { ORDERED = 8 };

/* Writes its index into the next place of a shared log when it runs. */
typedef struct logged {
    FJ_RECURSIVE_ACTION;
    int index;
    atomic_int *next;
    int *log;
} logged;

static int logged_compute(fj_task *t)
{
    logged *l = FJ_SELF(t, logged);
    l->log[atomic_fetch_add(l->next, 1)] = l->index;
    return 0;
}

/* Forks ORDERED logged tasks, never joined; with `help`, runs them itself
 * through fj_help_quiesce before it returns, else leaves them to its worker's
 * loop once it returned. */
typedef struct forks_then {
    FJ_RECURSIVE_ACTION;
    int help;
    logged *kids;
} forks_then;

static int forks_then_compute(fj_task *t)
{
    forks_then *f = FJ_SELF(t, forks_then);
    for (int i = 0; i < ORDERED; i++)
        CHECK_RC(0, fj_fork(&f->kids[i].task));
    if (f->help)
        fj_help_quiesce();
    return 0;
}

/* The order in which a one-worker pool of `async_mode` runs the forks. */
static void run_order(int async_mode, int help, int *log)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, 1, async_mode));
    atomic_int next = 0;
    logged kids[ORDERED];
    for (int i = 0; i < ORDERED; i++)
        kids[i] = (logged){FJ_TASK_INIT(logged_compute), i, &next, log};
    forks_then root = {FJ_TASK_INIT(forks_then_compute), help, kids};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK_EQ(ORDERED, atomic_load(&next));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void async_worker_runs_its_forks_oldest_first(void)
{
    for (int help = 0; help <= 1; help++) {
        int fifo[ORDERED], lifo[ORDERED];
        run_order(1, help, fifo);
        run_order(0, help, lifo);
        for (int i = 0; i < ORDERED; i++) {
            CHECK_EQ(i, fifo[i]);
            CHECK_EQ(ORDERED - 1 - i, lifo[i]);
        }
    }
}

/* ---- peek, poll and join in async mode (one worker) ---- */

typedef struct peeker {
    FJ_RECURSIVE_ACTION;
    logged *kids;  /* three */
} peeker;

static int peeker_compute(fj_task *t)
{
    peeker *p = FJ_SELF(t, peeker);
    logged *a = &p->kids[0], *b = &p->kids[1], *c = &p->kids[2];
    CHECK(fj_peek_next_local_task() == NULL);
    CHECK_RC(0, fj_fork(&a->task));
    CHECK_RC(0, fj_fork(&b->task));
    CHECK_RC(0, fj_fork(&c->task));
    CHECK(fj_peek_next_local_task() == &a->task);
    CHECK(fj_poll_next_local_task() == &a->task);  /* unscheduled, not run */
    CHECK(fj_peek_next_local_task() == &b->task);
    CHECK(fj_poll_task() == &b->task);
    CHECK(fj_peek_next_local_task() == &c->task);
    CHECK_RC(0, fj_join(&c->task));  /* a join takes its child back from the top */
    CHECK(fj_peek_next_local_task() == NULL);
    CHECK(fj_poll_next_local_task() == NULL);
    CHECK(!fj_task_is_done(&a->task) && !fj_task_is_done(&b->task));
    return 0;
}

static void async_peek_and_poll_see_the_oldest_task(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, 1, 1));
    atomic_int next = 0;
    int log[3] = {-1, -1, -1};
    logged kids[3];
    for (int i = 0; i < 3; i++)
        kids[i] = (logged){FJ_TASK_INIT(logged_compute), i, &next, log};
    peeker p = {FJ_TASK_INIT(peeker_compute), kids};
    CHECK_RC(0, fj_pool_invoke(pool, &p.task));
    CHECK_EQ(1, atomic_load(&next));
    CHECK_EQ(2, log[0]);  /* only c ran */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- joins, classic and typed, on an async pool ---- */

static void async_pool_joins_classic_and_typed_tasks(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, check_workers, 1));
    int n = (int)check_size(24, 16);
    fib_task root = {FJ_TASK_INIT(fib_classic), n, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(fib_serial(n), root.result);
    int rc = -1;
    CHECK_EQ(fib_serial(n), FJ_RUN_RC(pool, &rc, fib, n));
    CHECK_RC(0, rc);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- fj_help_quiesce in a typed task with a spawn unsynced (one worker) ---- */

static int in_help_quiesce;  /* set around the call below; one worker, one thread */

FJ_TASK(int, ran_inside_help_quiesce)
{
    return in_help_quiesce ? 7 : 8;
}

/* Spawns a typed task, forks three items above it, and helps to quiesce: the
 * items run newest first (the typed frame is oldest, and the owner's FIFO
 * take never takes a typed frame from below), then the typed task, which
 * fj_help_quiesce runs as a thief would, as Java's helpQuiesce runs every
 * local task; its sync finds it done. */
FJ_TASK(int, spawn_then_help, logged *, kids)
{
    FJ_SPAWN(ran_inside_help_quiesce);
    for (int i = 0; i < 3; i++)
        CHECK_RC(0, fj_fork(&kids[i].task));
    in_help_quiesce = 1;
    fj_help_quiesce();
    in_help_quiesce = 0;
    return FJ_SYNC(ran_inside_help_quiesce);
}

static void help_quiesce_runs_typed_spawns_last(int async_mode)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, 1, async_mode));
    atomic_int next = 0;
    int log[3] = {-1, -1, -1};
    logged kids[3];
    for (int i = 0; i < 3; i++)
        kids[i] = (logged){FJ_TASK_INIT(logged_compute), i, &next, log};
    int rc = -1;
    CHECK_EQ(7, FJ_RUN_RC(pool, &rc, spawn_then_help, kids));  /* ran inside, its result kept */
    CHECK_RC(0, rc);
    CHECK_EQ(3, atomic_load(&next));  /* the items above the typed frame all ran, newest first */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(2 - i, log[i]);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void help_quiesce_runs_a_typed_task_s_unsynced_spawns(void)
{
    help_quiesce_runs_typed_spawns_last(1);
    help_quiesce_runs_typed_spawns_last(0);
}

/* ---- never-joined forks under thieves: each runs exactly once ---- */

/* Event cascades: a task below `depth` forks two children and returns. */
typedef struct event {
    FJ_RECURSIVE_ACTION;
    int depth;
    unsigned id;
    atomic_uchar *runs;  /* one per id, heap-ordered: children of i are 2i+1, 2i+2 */
    struct event *all;
} event;

static int event_compute(fj_task *t)
{
    event *e = FJ_SELF(t, event);
    atomic_fetch_add(&e->runs[e->id], 1);
    if (e->depth == 0)
        return 0;
    for (unsigned k = 1; k <= 2; k++) {
        event *child = &e->all[2 * e->id + k];
        *child = (event){FJ_TASK_INIT(event_compute), e->depth - 1, 2 * e->id + k, e->runs, e->all};
        CHECK_RC(0, fj_fork(&child->task));
    }
    return 0;
}

static void async_cascades_run_each_task_once(void)
{
    int depth = (int)check_size(15, 10);
    unsigned count = (1u << (depth + 1)) - 1;
    event *all = calloc(count, sizeof *all);
    atomic_uchar *runs = calloc(count, sizeof *runs);
    CHECK(all && runs);
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, check_workers, 1));
    for (int round = 0; round < 4; round++) {
        memset(runs, 0, count * sizeof *runs);
        all[0] = (event){FJ_TASK_INIT(event_compute), depth, 0, runs, all};
        CHECK_RC(0, fj_pool_submit(pool, &all[0].task));
        CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
        for (unsigned i = 0; i < count; i++)
            if (atomic_load(&runs[i]) != 1)
                CHECK_FAIL("round %d: event %u ran %u times", round, i, (unsigned)atomic_load(&runs[i]));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    free(runs);
    free(all);
}

/* A chain: each link forks the next and returns.  Taken oldest first, the
 * deque's two ends climb its range one frame per link; with 64 frames the
 * range is used up within a few dozen links, and only deque_compact bringing
 * it back down keeps forks from failing, which would run the next link
 * inside the fork, one level deeper each time. */
typedef struct link {
    FJ_RECURSIVE_ACTION;
    long left;
    atomic_long *ran;
    atomic_int *depth, *deepest;
    struct link *next;  /* storage for the next link */
} link;

static int link_compute(fj_task *t)
{
    link *l = FJ_SELF(t, link);
    int depth = atomic_fetch_add(l->depth, 1) + 1;
    if (depth > atomic_load(l->deepest))
        atomic_store(l->deepest, depth);
    atomic_fetch_add(l->ran, 1);
    if (l->left > 0) {
        *l->next = (link){FJ_TASK_INIT(link_compute), l->left - 1, l->ran, l->depth, l->deepest, l->next + 1};
        CHECK_RC(0, fj_fork(&l->next->task));
    }
    atomic_fetch_sub(l->depth, 1);
    return 0;
}

static void async_chain_reuses_the_deque_range(void)
{
    long length = check_size(20000, 2000);
    link *links = calloc((size_t)length + 2, sizeof *links);
    CHECK(links != NULL);
    /* The range is reserved at creation: 64 frames for this pool's worker. */
    CHECK(setenv("FJ_DEQUE_FRAMES", "64", 1) == 0);
    fj_pool *pool = NULL;
    int rc = fj_pool_create_with_async_mode(&pool, 1, 1);
    unsetenv("FJ_DEQUE_FRAMES");
    CHECK_RC(0, rc);
    atomic_long ran = 0;
    atomic_int depth = 0, deepest = 0;
    links[0] = (link){FJ_TASK_INIT(link_compute), length, &ran, &depth, &deepest, &links[1]};
    CHECK_RC(0, fj_pool_submit(pool, &links[0].task));
    CHECK_RC(0, fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT));
    CHECK_EQ(length + 1, atomic_load(&ran));
    CHECK_EQ(1, atomic_load(&deepest));  /* no fork ever ran its task inline */
    CHECK_RC(0, fj_pool_destroy(pool));
    free(links);
}

static const check_case cases[] = {
    {"async_mode_is_set_at_creation_and_reported", async_mode_is_set_at_creation_and_reported, CHECK_PER_WORKERS},
    {"async_mode_other_than_0_or_1_is_refused", async_mode_other_than_0_or_1_is_refused, CHECK_ONCE},
    {"async_worker_runs_its_forks_oldest_first", async_worker_runs_its_forks_oldest_first, CHECK_ONCE},
    {"async_peek_and_poll_see_the_oldest_task", async_peek_and_poll_see_the_oldest_task, CHECK_ONCE},
    {"async_pool_joins_classic_and_typed_tasks", async_pool_joins_classic_and_typed_tasks, CHECK_PER_WORKERS},
    {"help_quiesce_runs_a_typed_task_s_unsynced_spawns", help_quiesce_runs_a_typed_task_s_unsynced_spawns, CHECK_ONCE},
    {"async_cascades_run_each_task_once", async_cascades_run_each_task_once, CHECK_PER_WORKERS},
    {"async_chain_reuses_the_deque_range", async_chain_reuses_the_deque_range, CHECK_ONCE},
};
CHECK_MAIN(cases)
