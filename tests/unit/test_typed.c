/* test_typed.c - typed tasks (FJ_TASK, FJ_SPAWN, FJ_SYNC, FJ_CALL, FJ_RUN):
 * results against serial twins on every worker count, mixing with fj_task,
 * leftovers, forgotten syncs, refusal, serial elision and wide and deep trees. */
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fib_tasks.h"

static fj_pool *make_pool(void)
{
    fj_pool *pool;
    fj_config config;
    fj_config_init(&config);
    config.workers = check_workers;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    return pool;
}

static void fib_matches_serial(void)
{
    fj_pool *pool = make_pool();
    int n = 27 - (check_scale() > 1);
    for (int round = 0; round < 3; round++)
        CHECK_EQ(fib_serial(n), FJ_RUN(pool, fib, n));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* Three children per node, synced in LIFO order, two arguments. */
FJ_VOID_TASK(visit, int, depth, long *, count)
{
    if (depth == 0) {
        __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
        return;
    }
    FJ_SPAWN(visit, depth - 1, count);
    FJ_SPAWN(visit, depth - 1, count);
    FJ_CALL(visit, depth - 1, count);
    FJ_SYNC(visit);
    FJ_SYNC(visit);
}

static void void_tasks_visit_every_leaf(void)
{
    fj_pool *pool = make_pool();
    long count = 0;
    FJ_RUN(pool, visit, 10, &count);
    CHECK_EQ(59049, count);  /* 3^10 */
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* Six arguments of mixed sizes and a struct result make it through a frame,
 * whether the frame is run inline or by a thief. */
typedef struct { double sum; long product; } mixed;

FJ_TASK(mixed, combine, char, c, short, s, int, i, long, l, float, f, double, d)
{
    if (i > 0) {
        FJ_SPAWN(combine, c, s, i - 1, l, f, d);
        mixed below = FJ_SYNC(combine);
        below.sum += c + s + l + f + d;
        below.product += 1;
        return below;
    }
    mixed leaf = {0.0, 0};
    return leaf;
}

static void six_arguments_and_a_struct_result(void)
{
    fj_pool *pool = make_pool();
    mixed m = FJ_RUN(pool, combine, 1, 2, 100, 3L, 0.5f, 0.25);
    CHECK_EQ(100, m.product);
    CHECK(m.sum == 100 * (1 + 2 + 3 + 0.5 + 0.25));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* Many siblings spawned before any is synced, then synced newest first. */
FJ_TASK(long, square, long, x) { return x * x; }

FJ_TASK(long, sum_of_squares, long, n)
{
    for (long i = 1; i <= n; i++)
        FJ_SPAWN(square, i);
    long sum = 0;
    for (long i = 1; i <= n; i++)
        sum += FJ_SYNC(square);
    return sum;
}

static void wide_spawns_sync_in_lifo_order(void)
{
    fj_pool *pool = make_pool();
    long n = 20000;
    CHECK_EQ(n * (n + 1) * (2 * n + 1) / 6, FJ_RUN(pool, sum_of_squares, n));
    CHECK_RC(0, fj_pool_destroy(pool));
}

FJ_TASK(long, chain, int, n)
{
    if (n == 0)
        return 0;
    FJ_SPAWN(chain, n - 1);
    return FJ_SYNC(chain) + 1;
}

static void deep_chain(void)
{
    fj_pool *pool = make_pool();
    CHECK_EQ(5000, FJ_RUN(pool, chain, 5000));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- mixing with fj_task ---- */

typedef struct {
    fj_task task;
    int n;
    long result;
} classic_fib;

static int classic_fib_body(fj_task *t)
{
    classic_fib *f = FJ_CONTAINER_OF(t, classic_fib, task);
    f->result = FJ_RUN(NULL, fib, f->n);  /* on this worker */
    return 0;
}

FJ_TASK(long, forks_classic, int, n)
{
    classic_fib child = {FJ_TASK_INIT(classic_fib_body), n, 0};
    fj_fork(&child.task);
    FJ_SPAWN(fib, n);
    long typed = FJ_SYNC(fib);
    CHECK_RC(0, fj_join(&child.task));
    return typed + child.result;
}

static void typed_and_classic_tasks_mix(void)
{
    fj_pool *pool = make_pool();
    CHECK_EQ(2 * fib_serial(20), FJ_RUN(pool, forks_classic, 20));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A function called by a typed task forks an fj_task and leaves it for
 * someone else to join (allowed for fj_task): the sync looks past it. */
static classic_fib leftover;

static void fork_and_leave(int n)
{
    fj_task_init(&leftover.task, classic_fib_body);
    leftover.n = n;
    fj_fork(&leftover.task);
}

FJ_TASK(long, leaves_a_fork, int, n)
{
    FJ_SPAWN(fib, n);
    fork_and_leave(n);
    return FJ_SYNC(fib);
}

static void sync_looks_past_an_unjoined_fork(void)
{
    fj_pool *pool = make_pool();
    CHECK_EQ(fib_serial(18), FJ_RUN(pool, leaves_a_fork, 18));
    CHECK_RC(0, fj_join(&leftover.task));
    CHECK_EQ(fib_serial(18), leftover.result);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The same fj_task left by a callee before the task's next spawn: the spawn
 * must not write its frame over it (the task carries its own copy of top,
 * which the fork did not move; the spawn before it raised the spawn guard,
 * which the fork lowers); the fj_task runs, its join finds it done. */
FJ_TASK(long, spawns_over_an_unjoined_fork, int, n)
{
    FJ_SPAWN(fib, n - 2);
    fork_and_leave(n);
    FJ_SPAWN(fib, n);
    long b = FJ_CALL(fib, n - 1);
    long a = FJ_SYNC(fib);
    return a + b + FJ_SYNC(fib);
}

static void spawn_goes_above_an_unjoined_fork(void)
{
    fj_pool *pool = make_pool();
    CHECK_EQ(2 * fib_serial(18), FJ_RUN(pool, spawns_over_an_unjoined_fork, 18));
    CHECK_RC(0, fj_join(&leftover.task));
    CHECK_EQ(fib_serial(18), leftover.result);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* An fj_task forks a child and runs a typed task on its own worker, which
 * calls a function that joins the child: the join takes the frame just below
 * the typed task's copy of top, so the word is lower than the copy.  The
 * typed task's spawns must go where the word says, and nothing run twice. */
static classic_fib outer_child;
static int outer_child_runs;

static int count_and_fib(fj_task *t)
{
    __atomic_fetch_add(&outer_child_runs, 1, __ATOMIC_RELAXED);
    return classic_fib_body(t);
}

static void join_outer_child(void) { CHECK_RC(0, fj_join(&outer_child.task)); }

FJ_TASK(long, joins_below_its_top, int, n)
{
    join_outer_child();
    FJ_SPAWN(fib, n);
    FJ_SPAWN(fib, n - 1);
    long c = FJ_CALL(fib, n - 2);
    long b = FJ_SYNC(fib);
    return FJ_SYNC(fib) + b + c;
}

typedef struct {
    fj_task task;
    int n;
    long result;
} outer_task;

static int outer_body(fj_task *t)
{
    outer_task *o = FJ_CONTAINER_OF(t, outer_task, task);
    fj_task_init(&outer_child.task, count_and_fib);
    outer_child.n = o->n;
    CHECK_RC(0, fj_fork(&outer_child.task));
    o->result = FJ_RUN(NULL, joins_below_its_top, o->n);  /* on this worker */
    return 0;
}

/* A function called by a typed task forks an fj_task and leaves it, then runs
 * a typed task on this worker (FJ_RUN), whose spawns settle and raise the
 * spawn guard: the outer task, whose copy of top lies below the fj_task, must
 * still settle before its next spawn (the inner run lowers the guard as it
 * returns), or its frame would go over the fj_task's. */
static long fork_leave_and_run_fib(int n)
{
    fork_and_leave(n);
    return FJ_RUN(NULL, fib, n); /* on this worker, above the fj_task */
}

FJ_TASK(long, spawns_after_an_inner_run, int, n)
{
    long a = fork_leave_and_run_fib(n); /* a plain call, not FJ_CALL */
    FJ_SPAWN(fib, n);
    long b = FJ_CALL(fib, n - 1);
    return a + FJ_SYNC(fib) + b;
}

static void spawn_goes_above_a_fork_left_under_an_inner_run(void)
{
    fj_pool *pool = make_pool();
    CHECK_EQ(2 * fib_serial(18) + fib_serial(17), FJ_RUN(pool, spawns_after_an_inner_run, 18));
    CHECK_RC(0, fj_join(&leftover.task));
    CHECK_EQ(fib_serial(18), leftover.result);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void spawn_after_a_join_below_top(void)
{
    fj_pool *pool = make_pool();
    for (int round = 0; round < 50; round++) {
        outer_child_runs = 0;
        outer_task o = {FJ_TASK_INIT(outer_body), 16, 0};
        CHECK_RC(0, fj_pool_invoke(pool, &o.task));
        CHECK_EQ(fib_serial(16) + fib_serial(15) + fib_serial(14), o.result);
        CHECK_EQ(fib_serial(16), outer_child.result);
        CHECK_EQ(1, __atomic_load_n(&outer_child_runs, __ATOMIC_RELAXED));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- a forgotten sync ---- */

FJ_TASK(long, forgets, int, n)
{
    FJ_SPAWN(fib, n);
    FJ_SPAWN(fib, n);
    return FJ_SYNC(fib);  /* one spawn is never synced */
}

/* The callee forgets between the caller's spawn and sync. */
FJ_TASK(long, calls_forgetful, int, n)
{
    FJ_SPAWN(fib, n);
    long a = FJ_CALL(forgets, n);
    return a + FJ_SYNC(fib);
}

/* The callee forgets before the caller's spawn, which must not write its
 * frame over the leftover (the call left the caller's copy of top unsure). */
FJ_TASK(long, spawns_after_a_forgetful_call, int, n)
{
    long a = FJ_CALL(forgets, n);
    FJ_SPAWN(fib, n);
    return a + FJ_SYNC(fib);
}

/* The same, the forgetful task run by a sync (inline, or by a thief). */
FJ_TASK(long, spawns_after_a_forgetful_sync, int, n)
{
    FJ_SPAWN(forgets, n);
    long a = FJ_SYNC(forgets);
    FJ_SPAWN(fib, n);
    return a + FJ_SYNC(fib);
}

/* Runs `body` in a child process whose stderr goes to a file; returns the
 * child's wait status and leaves what it wrote to stderr in `text`. */
static int run_in_child(void (*body)(void), char *text, size_t size)
{
    FILE *err = tmpfile();
    CHECK(err != NULL);
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        if (dup2(fileno(err), STDERR_FILENO) < 0)
            _exit(5);
        body();
        _exit(3);
    }
    int status;
    CHECK_EQ(child, waitpid(child, &status, 0));
    rewind(err);
    size_t length = fread(text, 1, size - 1, err);
    text[length] = '\0';
    fclose(err);
    return status;
}

/* Checks that `body`, run in a child, stopped on SIGABRT after writing
 * `message` to stderr. */
static void expect_abort_saying(void (*body)(void), const char *message)
{
    char text[1024];
    int status = run_in_child(body, text, sizeof text);
    CHECK(WIFSIGNALED(status));
    CHECK_EQ(SIGABRT, WTERMSIG(status));
    if (!strstr(text, message))
        fprintf(stderr, "stderr of the child: \"%s\"\n", text);
    CHECK(strstr(text, message) != NULL);
}

typedef long (*forgetful_run)(fj_pool *pool, int n);
static long run_calls_forgetful(fj_pool *pool, int n) { return FJ_RUN(pool, calls_forgetful, n); }
static long run_spawns_after_a_forgetful_call(fj_pool *pool, int n) { return FJ_RUN(pool, spawns_after_a_forgetful_call, n); }
static long run_spawns_after_a_forgetful_sync(fj_pool *pool, int n) { return FJ_RUN(pool, spawns_after_a_forgetful_sync, n); }

static forgetful_run forgetful;  /* what the child below runs */

/* The child: exits 0 when the outer result holds and the runtime counted one
 * leftover (what NDEBUG builds promise); builds without NDEBUG stop first. */
static void run_forgetful(void)
{
    fj_pool *pool = make_pool();
    long r = forgetful(pool, 15);
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    fj_pool_destroy(pool);
    _exit(r == 2 * fib_serial(15) && total.unsynced == 1 ? 0 : 4);
}

/* With checks (no NDEBUG) the program stops with a message naming the task;
 * with NDEBUG the runtime syncs the leftover, counts it, and the outer
 * results hold. */
static void expect_one_forgotten_sync(forgetful_run run)
{
    forgetful = run;
    if (FJ__CHECK_SYNCS) {
        expect_abort_saying(run_forgetful, "fj: typed task forgets returned with 1 unsynced spawn(s)");
    } else {
        char text[1024];
        int status = run_in_child(run_forgetful, text, sizeof text);
        CHECK(WIFEXITED(status));
        CHECK_EQ(0, WEXITSTATUS(status));
    }
}

static void forgotten_sync_is_reported(void)
{
    expect_one_forgotten_sync(run_calls_forgetful);
    expect_one_forgotten_sync(run_spawns_after_a_forgetful_call);
    expect_one_forgotten_sync(run_spawns_after_a_forgetful_sync);
}

/* ---- a sync with nothing to sync ---- */

static int no_spawn_started;  /* set by the task once it runs, on a thief */

FJ_TASK(long, syncs_nothing, int, n)
{
    __atomic_store_n(&no_spawn_started, 1, __ATOMIC_RELEASE);
    return n + FJ_SYNC(fib);  /* no FJ_SPAWN before it */
}

FJ_TASK(long, lets_it_be_stolen, int, n)
{
    FJ_SPAWN(syncs_nothing, n);
    while (!__atomic_load_n(&no_spawn_started, __ATOMIC_ACQUIRE))
        sched_yield();  /* until a thief runs it, on its own empty deque */
    return FJ_SYNC(syncs_nothing);
}

/* What the program says when a sync finds no spawn of its task (the worker's
 * number, which comes before it, left out). */
static const char sync_without_spawn[] = "with no unsynced FJ_SPAWN in the task: FJ_SYNC(NAME) takes the "
                                         "task's newest unsynced spawn, which must be an FJ_SPAWN(NAME, ...)";

static fj_pool *pool_of(unsigned workers)
{
    fj_pool *pool;
    fj_config config;
    fj_config_init(&config);
    config.workers = workers;
    if (fj_pool_create(&pool, &config) != 0)
        _exit(4);
    return pool;
}

static void run_lets_it_be_stolen(void) { FJ_RUN(pool_of(2), lets_it_be_stolen, 1); }

/* A thief runs the task from an empty deque, so the sync's frame would lie
 * below the deque's first slot: the program stops with the message that
 * names the misuse, in release builds too, and reads nothing out of range. */
static void sync_without_spawn_is_reported(void)
{
    expect_abort_saying(run_lets_it_be_stolen, sync_without_spawn);
}

#if FJ__CHECK_SYNCS
/* FJ_SYNC names another task than its newest spawn's (fj.h: checked in builds
 * without NDEBUG only): the spawn is run as a forgotten sync, never read as
 * the named task's frame, and the sync, left with no spawn of its task, stops
 * the program with the same message. */
FJ_TASK(long, syncs_another_task, long, x)
{
    FJ_SPAWN(square, x);
    return FJ_SYNC(fib);
}

static void run_syncs_another_task(void) { FJ_RUN(pool_of(1), syncs_another_task, 7); }

static void sync_of_another_task_is_reported(void)
{
    expect_abort_saying(run_syncs_another_task, sync_without_spawn);
}
#endif

/* ---- refusal and serial elision ---- */

static void run_on_a_shut_down_pool_is_refused(void)
{
    fj_pool *pool = make_pool();
    CHECK_RC(0, fj_pool_shutdown(pool));
    int rc = 0;
    long r = FJ_RUN_RC(pool, &rc, fib, 10);
    CHECK_RC(FJ_ESHUTDOWN, rc);
    CHECK_EQ(0, r);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void serial_elision_runs_in_serial_order(void)
{
    setenv("FJ_SERIAL", "1", 1);
    fj_pool *pool = make_pool();
    CHECK_EQ(fib_serial(22), FJ_RUN(pool, fib, 22));
    long count = 0;
    FJ_RUN(pool, visit, 6, &count);
    CHECK_EQ(729, count);
    CHECK_RC(0, fj_pool_destroy(pool));
    unsetenv("FJ_SERIAL");
}

/* Steal stress (FJ_STRESS=1) with both kinds of task nested: a typed task
 * forks and joins an fj_task that forks and joins four more, and an fj_task
 * runs typed fib on its worker.  While a fork is held back, its worker runs
 * stolen tasks on top of it; an fj_task among them may leave a slot that a
 * thief emptied, which the held typed spawn must not take for its own frame
 * (a wrong sum, a spurious "unsynced spawn" stop or a crash in 9 runs of 10
 * before).  Each node of the walk counts one visit and four leaves. */
static long stress_leaves;

static int stress_leaf(fj_task *t)
{
    (void)t;
    __atomic_fetch_add(&stress_leaves, 1, __ATOMIC_RELAXED);
    return 0;
}

static int forks_four_leaves(fj_task *t)
{
    (void)t;
    fj_task leaves[4];
    for (int i = 0; i < 4; i++) {
        fj_task_init(&leaves[i], stress_leaf);
        CHECK_RC(0, fj_fork(&leaves[i]));
    }
    for (int i = 3; i >= 0; i--)
        CHECK_RC(0, fj_join(&leaves[i]));
    return 0;
}

FJ_TASK(long, stress_walk, int, n)
{
    if (n < 2)
        return 1;
    FJ_SPAWN(stress_walk, n - 1);
    fj_task child = FJ_TASK_INIT(forks_four_leaves);
    CHECK_RC(0, fj_fork(&child));
    CHECK_RC(0, fj_join(&child));
    long b = FJ_CALL(stress_walk, n - 2);
    return FJ_SYNC(stress_walk) + b;
}

static void steal_stress_with_both_kinds_nested(void)
{
    setenv("FJ_STRESS", "1", 1);
    fj_pool *pool = make_pool();
    int rounds = check_scale() > 1 ? 2 : 5;  /* the sanitizers' runs are slower */
    for (int round = 0; round < rounds; round++) {
        stress_leaves = 0;
        long nodes = FJ_RUN(pool, stress_walk, 12);
        CHECK_EQ(fib_serial(13), nodes);  /* walk(n) = walk(n - 1) + walk(n - 2), walk(0) = walk(1) = 1 */
        CHECK_EQ(4 * (nodes - 1), stress_leaves);  /* nodes - 1 inner nodes */
        classic_fib root = {FJ_TASK_INIT(classic_fib_body), 18, 0};
        CHECK_RC(0, fj_pool_invoke(pool, &root.task));
        CHECK_EQ(fib_serial(18), root.result);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    unsetenv("FJ_STRESS");
}

/* With a tiny deque, spawns beyond it run at once and their syncs still get
 * the right results, in LIFO order, on any worker count. */
static void full_deque_runs_spawns_at_once(void)
{
    setenv("FJ_DEQUE_FRAMES", "64", 1);
    fj_pool *pool = make_pool();
    unsetenv("FJ_DEQUE_FRAMES");
    long n = 5000;
    CHECK_EQ(n * (n + 1) * (2 * n + 1) / 6, FJ_RUN(pool, sum_of_squares, n));
    CHECK_EQ(fib_serial(22), FJ_RUN(pool, fib, 22));
    CHECK_EQ(3000, FJ_RUN(pool, chain, 3000));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The Spin model's counterexample (tests/model/deque.pml, run
 * deque-bug-overflow-result-order): a spawn that found the deque full ran at
 * once; a pop made room; the next spawn must not overtake it.  Each sync gets
 * its own spawn's result. */
static int empty_body(fj_task *t)
{
    (void)t;
    return 0;
}

FJ_TASK(long, ident, long, x) { return x; }

FJ_TASK(long, room_after_overflow, int, forks)
{
    fj_task *t = calloc((size_t)forks, sizeof *t);
    CHECK(t != NULL);
    for (int i = 0; i < forks; i++) {
        fj_task_init(&t[i], empty_body);
        CHECK_RC(0, fj_fork(&t[i]));
    }
    FJ_SPAWN(ident, 1);            /* full: runs at once, its result kept */
    CHECK_RC(0, fj_join(&t[forks - 1]));  /* a pop: one frame free */
    FJ_SPAWN(ident, 2);
    long second = FJ_SYNC(ident);
    long first = FJ_SYNC(ident);
    for (int i = forks - 2; i >= 0; i--)
        CHECK_RC(0, fj_join(&t[i]));
    free(t);
    return second * 10 + first;
}

static void spawns_stay_in_order_after_an_overflow(void)
{
    setenv("FJ_DEQUE_FRAMES", "64", 1);
    fj_pool *pool = make_pool();
    unsetenv("FJ_DEQUE_FRAMES");
    CHECK_EQ(21, FJ_RUN(pool, room_after_overflow, 64));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A typed task forks fj_tasks, spawns, and joins the fj_tasks before its
 * sync: the pop cannot reach them under the typed frame; with one worker
 * nobody else can take them either.  The join must still return (it runs
 * its own oldest frames, the typed one among them, as a thief would). */
FJ_TASK(long, joins_under_a_spawn, int, forks)
{
    fj_task t[8];
    for (int i = 0; i < forks; i++) {
        fj_task_init(&t[i], empty_body);
        CHECK_RC(0, fj_fork(&t[i]));
    }
    FJ_SPAWN(ident, 7);
    for (int i = forks - 1; i >= 0; i--)
        CHECK_RC(0, fj_join(&t[i]));
    return FJ_SYNC(ident);
}

static void join_under_an_unsynced_spawn(void)
{
    fj_pool *pool = make_pool();
    for (int round = 0; round < 100; round++)
        CHECK_EQ(7, FJ_RUN(pool, joins_under_a_spawn, 1 + round % 8));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- a sync helps the thief of an older spawn (frame.c, point 2) ----
 * The owner spawns `older`, waits until a thief runs it, spawns `newer`, waits
 * until another thief runs it, and syncs `newer`.  `newer` spawns nothing, so
 * its thief has nothing to leapfrog, and it ends only once the owner has run
 * one of the tasks `older` keeps offering: only helping the thief of the older
 * spawn can do that.  A sync that helps only its own frame's thief waits for
 * ever, and the suite's time limit fails the case. */
static struct {
    int owner;
    int older_thief, newer_thief;  /* worker index + 1, 0 until it runs */
    int owner_helped;
} older_help;

FJ_VOID_TASK(offered, int, unused)
{
    if (fj_current_worker_index() == older_help.owner)
        __atomic_store_n(&older_help.owner_helped, 1, __ATOMIC_RELEASE);
}

FJ_VOID_TASK(older, int, unused)
{
    __atomic_store_n(&older_help.older_thief, fj_current_worker_index() + 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&older_help.owner_helped, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < 64; i++)
            FJ_SPAWN(offered, 0);
        /* Time for the owner to take one before we sync them back; the loop,
         * not this wait, is what ends only when it has. */
        for (int k = 0; k < 64 && !__atomic_load_n(&older_help.owner_helped, __ATOMIC_ACQUIRE); k++)
            sched_yield();
        for (int i = 0; i < 64; i++)
            FJ_SYNC(offered);
    }
}

FJ_VOID_TASK(newer, int, unused)
{
    __atomic_store_n(&older_help.newer_thief, fj_current_worker_index() + 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&older_help.owner_helped, __ATOMIC_ACQUIRE))
        sched_yield();
}

FJ_VOID_TASK(older_and_newer, int, unused)
{
    older_help.owner = fj_current_worker_index();
    FJ_SPAWN(older, 0);
    while (!__atomic_load_n(&older_help.older_thief, __ATOMIC_ACQUIRE))
        sched_yield();
    FJ_SPAWN(newer, 0);
    while (!__atomic_load_n(&older_help.newer_thief, __ATOMIC_ACQUIRE))
        sched_yield();
    FJ_SYNC(newer);
    FJ_SYNC(older);
}

static void sync_helps_the_thief_of_an_older_spawn(void)
{
    fj_pool *pool;
    fj_config config;
    fj_config_init(&config);
    config.workers = 3;  /* the owner and one thief for each spawn */
    CHECK_RC(0, fj_pool_create(&pool, &config));
    FJ_RUN(pool, older_and_newer, 0);
    CHECK(older_help.owner_helped);
    CHECK(older_help.older_thief - 1 != older_help.owner);
    CHECK(older_help.newer_thief - 1 != older_help.owner);
    CHECK(older_help.newer_thief != older_help.older_thief);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A typed spawn wakes a parked worker, round after round.  Each round waits
 * until the other worker has parked again since it ran the last round's
 * child (its `parks` count moved past what the child read: it is parking, or
 * asleep), spawns, and waits for that worker to run the child before it
 * syncs: only a wake-up lets it.  So each round checks the spawn's wake hint:
 * set by the parking worker, seen by the spawn, cleared by the owner only
 * while nobody sleeps (runtime/idle.c, wake hints).  A lost wake-up waits for
 * ever: the suite's time limit fails the case. */
static struct {
    fj_pool *pool;
    int ran_on;                     /* worker index + 1 of the child's runner, 0 until it ran */
    unsigned long long runner_parks; /* the runner's parks count while it ran the child */
} wake;

static unsigned long long parks_of(int index)
{
    fj_worker_stats rows[2];
    CHECK_RC(2, fj_pool_stats(wake.pool, rows, 2, NULL));
    return rows[index].parks;
}

FJ_VOID_TASK(woken_child, int, unused)
{
    int me = fj_current_worker_index();
    /* Its own counter: exact.  Read before ran_on publishes it (release). */
    wake.runner_parks = parks_of(me);
    __atomic_store_n(&wake.ran_on, me + 1, __ATOMIC_RELEASE);
}

FJ_VOID_TASK(spawn_for_a_sleeper, int, rounds)
{
    int other = 1 - fj_current_worker_index();
    unsigned long long parks_seen = 0;  /* the pool parked every worker once before it ran us */
    for (int round = 0; round < rounds; round++) {
        while (parks_of(other) <= parks_seen)
            sched_yield();
        __atomic_store_n(&wake.ran_on, 0, __ATOMIC_RELAXED);
        FJ_SPAWN(woken_child, round);
        while (!__atomic_load_n(&wake.ran_on, __ATOMIC_ACQUIRE))
            sched_yield();
        FJ_SYNC(woken_child);
        CHECK_EQ(other + 1, wake.ran_on);
        /* Not parks_of(other) now: the runner may have parked again already,
         * and would then never move its count past ours. */
        parks_seen = wake.runner_parks;
    }
}

static void spawn_wakes_a_parked_worker(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;
    CHECK_RC(0, fj_pool_create(&wake.pool, &config));
    FJ_RUN(wake.pool, spawn_for_a_sleeper, 20);
    CHECK_RC(0, fj_pool_destroy(wake.pool));
}

/* A spawn under others stays private where membarrier is missing (the
 * split deque: runtime/deque.c, point 9) until a thief asks for it; the
 * owner's next spawn then publishes it.  Here the owner spawns `first` (the
 * first frame of an empty public part, public at once) and `second`, then
 * keeps spawning and syncing empty tasks until `second` has run on the other
 * worker: with no publish on request it would wait for ever.  Both modes. */
static struct {
    int owner;
    int second_ran_on;  /* worker index + 1 */
} asked;

FJ_VOID_TASK(nothing, int, unused) {}

FJ_VOID_TASK(first_of_two, int, unused) {}

FJ_VOID_TASK(second_of_two, int, unused)
{
    __atomic_store_n(&asked.second_ran_on, fj_current_worker_index() + 1, __ATOMIC_RELEASE);
}

FJ_VOID_TASK(spawn_until_taken, int, unused)
{
    asked.owner = fj_current_worker_index();
    FJ_SPAWN(first_of_two, 0);
    FJ_SPAWN(second_of_two, 0);
    while (!__atomic_load_n(&asked.second_ran_on, __ATOMIC_ACQUIRE)) {
        FJ_SPAWN(nothing, 0);
        FJ_SYNC(nothing);
        sched_yield();
    }
    FJ_SYNC(second_of_two);
    FJ_SYNC(first_of_two);
}

static void private_spawns_reach_a_thief(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;
    fj_pool *pool;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    for (int round = 0; round < 20; round++) {
        asked.second_ran_on = 0;
        FJ_RUN(pool, spawn_until_taken, 0);
        CHECK_EQ(1 - asked.owner + 1, asked.second_ran_on);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"join_under_an_unsynced_spawn", join_under_an_unsynced_spawn, CHECK_PER_WORKERS},
    {"spawns_stay_in_order_after_an_overflow", spawns_stay_in_order_after_an_overflow, CHECK_ONCE},
    {"full_deque_runs_spawns_at_once", full_deque_runs_spawns_at_once, CHECK_PER_WORKERS},
    {"fib_matches_serial", fib_matches_serial, CHECK_PER_WORKERS},
    {"void_tasks_visit_every_leaf", void_tasks_visit_every_leaf, CHECK_PER_WORKERS},
    {"six_arguments_and_a_struct_result", six_arguments_and_a_struct_result, CHECK_PER_WORKERS},
    {"wide_spawns_sync_in_lifo_order", wide_spawns_sync_in_lifo_order, CHECK_PER_WORKERS},
    {"deep_chain", deep_chain, CHECK_PER_WORKERS},
    {"typed_and_classic_tasks_mix", typed_and_classic_tasks_mix, CHECK_PER_WORKERS},
    {"sync_looks_past_an_unjoined_fork", sync_looks_past_an_unjoined_fork, CHECK_PER_WORKERS},
    {"spawn_goes_above_an_unjoined_fork", spawn_goes_above_an_unjoined_fork, CHECK_PER_WORKERS},
    {"spawn_goes_above_a_fork_left_under_an_inner_run", spawn_goes_above_a_fork_left_under_an_inner_run, CHECK_PER_WORKERS},
    {"spawn_after_a_join_below_top", spawn_after_a_join_below_top, CHECK_PER_WORKERS},
    {"forgotten_sync_is_reported", forgotten_sync_is_reported, CHECK_PER_WORKERS},
    {"run_on_a_shut_down_pool_is_refused", run_on_a_shut_down_pool_is_refused, CHECK_ONCE},
    {"serial_elision_runs_in_serial_order", serial_elision_runs_in_serial_order, CHECK_PER_WORKERS},
    {"steal_stress_with_both_kinds_nested", steal_stress_with_both_kinds_nested, CHECK_PER_WORKERS},
    {"sync_helps_the_thief_of_an_older_spawn", sync_helps_the_thief_of_an_older_spawn, CHECK_ONCE},
    {"sync_without_spawn_is_reported", sync_without_spawn_is_reported, CHECK_ONCE},
#if FJ__CHECK_SYNCS
    {"sync_of_another_task_is_reported", sync_of_another_task_is_reported, CHECK_ONCE},
#endif
    {"spawn_wakes_a_parked_worker", spawn_wakes_a_parked_worker, CHECK_ONCE},
    {"private_spawns_reach_a_thief", private_spawns_reach_a_thief, CHECK_ONCE},
};
CHECK_MAIN(cases)
