/* test_pool.c - pools from the outside: external invokes from many threads,
 * two pools at once, a chain of submissions, shutdown racing submitters, an
 * idle pool's CPU use, and every documented misuse. */
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "atomics.h"
#include "fj_java.h"

typedef struct sum_task {
    fj_task task;
    long from, to, sum;
} sum_task;

static int sum_compute(fj_task *t)
{
    sum_task *s = FJ_CONTAINER_OF(t, sum_task, task);
    if (s->to - s->from <= 1000) {
        s->sum = 0;
        for (long i = s->from; i < s->to; i++)
            s->sum += i;
        return 0;
    }
    long mid = s->from + (s->to - s->from) / 2;
    sum_task left = {FJ_TASK_INIT(sum_compute), s->from, mid, 0};
    sum_task right = {FJ_TASK_INIT(sum_compute), mid, s->to, 0};
    fj_fork(&left.task);
    sum_compute(&right.task);
    fj_join(&left.task);
    s->sum = left.sum + right.sum;
    return 0;
}

static long triangle(long n) { return n * (n - 1) / 2; }

/* ---- external threads ---- */

typedef struct invoker {
    fj_pool *pool;
    long rounds, errors;
} invoker;

static void *invoker_main(void *p)
{
    invoker *inv = p;
    for (long r = 0; r < inv->rounds; r++) {
        long n = 10000 + r * 37;
        sum_task root = {FJ_TASK_INIT(sum_compute), 0, n, 0};
        if (fj_pool_invoke(inv->pool, &root.task) != 0 || root.sum != triangle(n))
            inv->errors++;
    }
    return NULL;
}

static void four_external_threads_invoke_at_once(void)
{
    fj_pool *pool = check_pool();
    pthread_t threads[4];
    invoker invokers[4];
    for (int i = 0; i < 4; i++) {
        invokers[i] = (invoker){pool, check_size(2000, 50), 0};
        CHECK_EQ(0, pthread_create(&threads[i], NULL, invoker_main, &invokers[i]));
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK_EQ(0, invokers[i].errors);
    }
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    CHECK_EQ(4 * invokers[0].rounds, total.injector_takes);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void two_pools_at_once(void)
{
    fj_pool *a = check_pool(), *b = check_pool();
    pthread_t threads[2];
    invoker invokers[2] = {{a, check_size(1000, 40), 0}, {b, check_size(1000, 40), 0}};
    for (int i = 0; i < 2; i++)
        CHECK_EQ(0, pthread_create(&threads[i], NULL, invoker_main, &invokers[i]));
    for (int i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
        CHECK_EQ(0, invokers[i].errors);
    }
    CHECK_RC(0, fj_pool_destroy(a));
    CHECK_RC(0, fj_pool_destroy(b));
}

/* A task of one pool invoking a root task on another pool: the worker waits
 * for the other pool (its own kept running: fj_join), and both finish. */
typedef struct cross_task {
    fj_task task;
    fj_pool *other;
    long sum;
} cross_task;

static int cross_compute(fj_task *t)
{
    cross_task *c = FJ_CONTAINER_OF(t, cross_task, task);
    sum_task inner = {FJ_TASK_INIT(sum_compute), 0, 100000, 0};
    int rc = fj_pool_invoke(c->other, &inner.task);
    c->sum = inner.sum;
    return rc;
}

static void a_task_invokes_another_pool(void)
{
    fj_pool *a = check_pool(), *b = check_pool();
    cross_task root = {FJ_TASK_INIT(cross_compute), b, 0};
    CHECK_RC(0, fj_pool_invoke(a, &root.task));
    CHECK_EQ(triangle(100000), root.sum);
    fj_pool_destroy(a);
    fj_pool_destroy(b);
}

/* Tasks that call into the other pool and back: a worker of pool A waits for
 * a task of pool B, whose worker waits for one of A.  With one worker each,
 * A's only worker used to wait for ever, since it may help with none of B's
 * work and nothing else ran A's (the runner's time limit failed the test);
 * the wait now keeps A's parallelism up with a spare, as Java's join does. */
static fj_pool *ping_pools[2];

FJ_TASK(long, ping, int, hops)
{
    if (hops == 0)
        return 1;
    /* Into the other pool: this task runs on a worker of pool hops % 2. */
    return 1 + FJ_RUN(ping_pools[(hops + 1) % 2], ping, hops - 1);
}

static fj_pool *one_worker_pool(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 1;
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    return pool;
}

static void calls_between_two_one_worker_pools_finish(void)
{
    ping_pools[0] = one_worker_pool();
    ping_pools[1] = one_worker_pool();
    for (int hops = 1; hops <= 6; hops++) {
        int rc = 1;
        long visited = FJ_RUN_RC(ping_pools[hops % 2], &rc, ping, hops);
        CHECK_RC(0, rc);
        CHECK_EQ(hops + 1, visited);
    }
    CHECK_RC(0, fj_pool_destroy(ping_pools[0]));
    CHECK_RC(0, fj_pool_destroy(ping_pools[1]));
}

/* The same through the classic calls: a task of pool A submits to pool B and
 * joins there a task that invokes one back on A (cross_compute). */
typedef struct away_task {
    fj_task task;
    fj_pool *away;
    cross_task back;
} away_task;

static int go_away(fj_task *t)
{
    away_task *a = FJ_CONTAINER_OF(t, away_task, task);
    int rc = fj_pool_submit(a->away, &a->back.task);
    return rc ? rc : fj_join(&a->back.task);
}

static void submit_and_join_across_one_worker_pools(void)
{
    fj_pool *home = one_worker_pool(), *away = one_worker_pool();
    away_task root = {FJ_TASK_INIT(go_away), away, {FJ_TASK_INIT(cross_compute), home, 0}};
    CHECK_RC(0, fj_pool_invoke(home, &root.task));
    CHECK_EQ(triangle(100000), root.back.sum);
    CHECK_RC(0, fj_pool_destroy(home));
    CHECK_RC(0, fj_pool_destroy(away));
}

/* The common pool is torn down at exit once its accepted tasks have finished
 * (fj_common_pool; Java's System.exit ends them instead).  In a child: a task
 * still has work to do when main has gone; the atexit handler registered
 * before the pool existed runs after its teardown, and exits 0 only if the
 * task finished.  The work after main_left is not a synchronisation: the wait
 * in the teardown is; the work only leaves an exit that did not wait no way
 * to see the task done. */
static int main_left, task_finished;

static int finish_after_main(fj_task *t)
{
    (void)t;
    /* Acquire/release: plain flags between threads, ordered for TSan's sake. */
    while (!__atomic_load_n(&main_left, __ATOMIC_ACQUIRE))
        sched_yield();
    volatile unsigned long work = 0;
    for (unsigned long i = 0; i < 10000000ul; i++)
        work += i;
    (void)work;
    __atomic_store_n(&task_finished, 1, __ATOMIC_RELEASE);
    return 0;
}

static void note_main_left(void) { __atomic_store_n(&main_left, 1, __ATOMIC_RELEASE); }

static void report_after_teardown(void) { _exit(__atomic_load_n(&task_finished, __ATOMIC_ACQUIRE) ? 0 : 3); }

static void exit_waits_for_the_common_pools_tasks(void)
{
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        atexit(report_after_teardown);  /* registered first: runs last, after the pool's teardown */
        static fj_task task = FJ_TASK_INIT(finish_after_main);
        if (fj_pool_submit(fj_common_pool(), &task) != 0)
            _exit(4);
        atexit(note_main_left);  /* registered last: runs first */
        exit(0);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK_EQ(0, WEXITSTATUS(status));
}

/* Each submission waits for the previous one: if a wake-up were ever lost,
 * the chain would stall (and the runner's time limit would fail the test). */
static int increment(fj_task *t);
typedef struct counter_task {
    fj_task task;
    long value;
} counter_task;
static int increment(fj_task *t)
{
    FJ_CONTAINER_OF(t, counter_task, task)->value++;
    return 0;
}

static void chain_of_submissions_never_stalls(void)
{
    fj_pool *pool = check_pool();
    counter_task c = {FJ_TASK_INIT(increment), 0};
    long n = check_size(40000, 2000);
    for (long i = 0; i < n; i++) {
        CHECK_RC(0, fj_pool_submit(pool, &c.task));
        CHECK_RC(0, fj_join(&c.task));
    }
    CHECK_EQ(n, c.value);
    fj_pool_destroy(pool);
}

/* ---- a worker joins a submitted task while every worker is busy ---- */

/* Each worker runs one of these; once all have arrived, the test submits one
 * task per joiner from outside and each joins its own.  No worker is left in
 * its scheduler loop to take the submissions, so the joins must take them
 * (before the fix every join waited for ever). */
typedef struct submission_joiner {
    fj_task task;
    counter_task *awaited;  /* published by the test after fj_pool_submit */
    atomic_word *arrived;
} submission_joiner;

static int join_own_submission(fj_task *t)
{
    submission_joiner *j = FJ_CONTAINER_OF(t, submission_joiner, task);
    atomic_fetch_add_full(j->arrived, 1);
    counter_task *awaited;
    while (!(awaited = __atomic_load_n(&j->awaited, __ATOMIC_ACQUIRE)))
        sched_yield();
    return fj_join(&awaited->task);
}

static void worker_joins_submission_while_all_are_busy(void)
{
    enum { MAX_JOINERS = 16 };
    fj_pool *pool = check_pool();
    unsigned n = check_workers < MAX_JOINERS ? check_workers : MAX_JOINERS;
    atomic_word arrived = 0;
    submission_joiner joiners[MAX_JOINERS];
    counter_task awaited[MAX_JOINERS];
    for (unsigned i = 0; i < n; i++) {
        joiners[i] = (submission_joiner){FJ_TASK_INIT(join_own_submission), NULL, &arrived};
        CHECK_RC(0, fj_pool_submit(pool, &joiners[i].task));
    }
    while (atomic_load_acquire(&arrived) < n)  /* every worker is now in a joiner */
        sched_yield();
    for (unsigned i = 0; i < n; i++) {
        awaited[i] = (counter_task){FJ_TASK_INIT(increment), 0};
        CHECK_RC(0, fj_pool_submit(pool, &awaited[i].task));
        __atomic_store_n(&joiners[i].awaited, &awaited[i], __ATOMIC_RELEASE);
    }
    for (unsigned i = 0; i < n; i++) {
        CHECK_RC(0, fj_join(&joiners[i].task));
        CHECK_EQ(1, awaited[i].value);
    }
    fj_pool_destroy(pool);
}

/* ---- shutdown racing submitters ---- */

enum { SUBMITTERS = 3, PER_SUBMITTER = 4000 };

typedef struct flagged_task {
    fj_task task;
    atomic_word ran;
} flagged_task;

static int mark_ran(fj_task *t)
{
    flagged_task *f = FJ_CONTAINER_OF(t, flagged_task, task);
    atomic_store(&f->ran, atomic_load(&f->ran) + 1);
    return 0;
}

typedef struct submitter {
    fj_pool *pool;
    flagged_task *tasks;
    int *accepted;
    atomic_word *go;
} submitter;

static void *submitter_main(void *p)
{
    submitter *s = p;
    while (!atomic_load_acquire(s->go))
        sched_yield();
    for (int i = 0; i < PER_SUBMITTER; i++) {
        int rc = fj_pool_submit(s->pool, &s->tasks[i].task);
        CHECK(rc == 0 || rc == FJ_ESHUTDOWN);
        s->accepted[i] = rc == 0;
    }
    return NULL;
}

static void shutdown_races_submissions(void)
{
    fj_pool *pool = check_pool();
    flagged_task *tasks = calloc(SUBMITTERS * PER_SUBMITTER, sizeof *tasks);
    int *accepted = calloc(SUBMITTERS * PER_SUBMITTER, sizeof *accepted);
    CHECK(tasks && accepted);
    for (int i = 0; i < SUBMITTERS * PER_SUBMITTER; i++)
        fj_task_init(&tasks[i].task, mark_ran);
    atomic_word go = 0;
    pthread_t threads[SUBMITTERS];
    submitter subs[SUBMITTERS];
    for (int i = 0; i < SUBMITTERS; i++) {
        subs[i] = (submitter){pool, tasks + i * PER_SUBMITTER, accepted + i * PER_SUBMITTER, &go};
        CHECK_EQ(0, pthread_create(&threads[i], NULL, submitter_main, &subs[i]));
    }
    atomic_store_release(&go, 1);
    /* Shut down while submissions are in flight: after some have been taken. */
    fj_worker_stats total;
    do {
        fj_pool_stats(pool, NULL, 0, &total);
        sched_yield();
    } while (total.injector_takes < 100);
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(FJ_ESHUTDOWN, fj_pool_submit(pool, &(flagged_task){FJ_TASK_INIT(mark_ran), 0}.task));
    for (int i = 0; i < SUBMITTERS; i++)
        pthread_join(threads[i], NULL);
    CHECK_RC(0, fj_pool_destroy(pool));  /* waits for every accepted task */
    long ran = 0, refused = 0;
    for (int i = 0; i < SUBMITTERS * PER_SUBMITTER; i++) {
        if (accepted[i]) {
            CHECK_EQ(1, atomic_load(&tasks[i].ran));  /* accepted: ran exactly once */
            CHECK(fj_task_is_done(&tasks[i].task));
            ran++;
        } else {
            CHECK_EQ(0, atomic_load(&tasks[i].ran));  /* refused: never ran */
            CHECK(!fj_task_is_done(&tasks[i].task));
            refused++;
        }
    }
    printf("%ld accepted and ran, %ld refused after shutdown\n", ran, refused);
    CHECK(ran >= 100);
    free(tasks);
    free(accepted);
}

/* ---- an idle pool uses no CPU ---- */

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec * 1e-6;
}

static void idle_pool_uses_no_cpu(void)
{
    fj_pool *pool = check_pool();
    sum_task root = {FJ_TASK_INIT(sum_compute), 0, 1000000, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    /* Wait (yielding, not sleeping) until every worker has parked after the work. */
    for (;;) {
        fj_worker_stats *per = check_pool_stats(pool, NULL);
        unsigned parked = 0;
        for (unsigned i = 0; i < check_workers; i++)
            parked += per[i].parks > per[i].wakeups;
        free(per);
        if (parked == check_workers)
            break;
        sched_yield();
    }
    double before = cpu_seconds();
    struct timespec half = {0, 600 * 1000 * 1000};  /* the measuring window, not synchronisation */
    nanosleep(&half, NULL);
    double used = cpu_seconds() - before;
    printf("idle pool of %u workers used %.4f s CPU in 0.6 s\n", check_workers, used);
    CHECK(used < 0.05 * 0.6);
    fj_pool_destroy(pool);
}

/* ---- misuse ---- */

static int destroy_own_pool(fj_task *t)
{
    return fj_pool_destroy(fj_current_pool());
}

static int add_one(fj_task *t)
{
    FJ_CONTAINER_OF(t, counter_task, task)->value++;
    return 0;
}

static int fork_twice(fj_task *t)
{
    counter_task child = {FJ_TASK_INIT(add_one), 0};
    CHECK_RC(0, fj_fork(&child.task));
    int rc = fj_fork(&child.task);  /* FJ_EBUSY while queued or running */
    CHECK(rc == FJ_EBUSY || rc == 0);
    CHECK_RC(0, fj_join(&child.task));
    /* Refused: it ran once.  Accepted (a thief had already finished it, which
     * makes the second fork a legal re-fork): it ran twice. */
    CHECK_EQ(rc == 0 ? 2 : 1, child.value);
    return rc;
}

static void misuse_gets_documented_errors(void)
{
    fj_config config;
    fj_config_init(&config);
    fj_pool *pool = NULL;
    config.workers = 100000;
    CHECK_RC(FJ_EINVAL, fj_pool_create(&pool, &config));
    CHECK(pool == NULL);
    CHECK_RC(FJ_EINVAL, fj_pool_create(NULL, &config));
    config.workers = 0;  /* one per online CPU */
    CHECK_RC(0, fj_pool_create(&pool, &config));
    CHECK(fj_pool_worker_count(pool) >= 1);
    CHECK_RC(0, fj_pool_destroy(pool));

    pool = check_pool();
    counter_task never = {FJ_TASK_INIT(add_one), 0};
    CHECK_RC(FJ_ENOTFORKED, fj_join(&never.task));             /* never forked, from outside */
    fj_task destroyer = FJ_TASK_INIT(destroy_own_pool);
    CHECK_RC(FJ_EDEADLK, fj_pool_invoke(pool, &destroyer));    /* destroy from its own worker */
    fj_task forker = FJ_TASK_INIT(fork_twice);
    int twice = fj_pool_invoke(pool, &forker);
    CHECK(twice == FJ_EBUSY || twice == 0);                     /* 0 only if the child already finished */
    counter_task c = {FJ_TASK_INIT(add_one), 0};
    CHECK_RC(0, fj_pool_invoke(pool, &c.task));
    CHECK_RC(0, fj_join(&c.task));                              /* joining twice */
    CHECK_EQ(1, c.value);
    CHECK_RC(FJ_EINVAL, fj_pool_invoke(NULL, &c.task));
    CHECK_RC(FJ_EINVAL, fj_pool_destroy(NULL));
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(0, fj_pool_shutdown(pool));                        /* idempotent */
    CHECK_RC(FJ_ESHUTDOWN, fj_pool_invoke(pool, &c.task));
    CHECK_EQ(1, c.value);                                        /* refused: untouched */
    CHECK_RC(0, fj_pool_destroy(pool));

    /* Fork and join outside any pool: the common pool runs it. */
    counter_task outside = {FJ_TASK_INIT(add_one), 0};
    CHECK_RC(0, fj_fork(&outside.task));
    CHECK_RC(0, fj_join(&outside.task));
    CHECK_EQ(1, outside.value);
    CHECK(fj_common_pool() != NULL);
    CHECK_RC(FJ_EINVAL, fj_pool_destroy(fj_common_pool()));     /* torn down at exit instead */

    /* Every code has its own description. */
    for (int code = FJ_EBUSY; code <= 0; code++)
        for (int other = code + 1; other <= 0; other++)
            CHECK(strcmp(fj_strerror(code), fj_strerror(other)) != 0);
}

/* ---- NULL tasks and tasks without a body ---- */

#define NO_BODY "the task's fn is NULL (fj_task_init or FJ_TASK_INIT gave it no body)"

/* Every call that would queue or run a task refuses one with no body, at the
 * call, and leaves it unforked; every call that returns a code refuses a
 * NULL task.  On a worker and off one alike. */
static void refuse_null_tasks(fj_pool *pool)
{
    fj_task bodiless = FJ_TASK_INIT(NULL);
    CHECK_REFUSED(FJ_EINVAL, "fj_fork: " NO_BODY, fj_fork(&bodiless));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke: " NO_BODY, fj_invoke(&bodiless));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_submit: " NO_BODY, fj_pool_submit(pool, &bodiless));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke: " NO_BODY, fj_pool_invoke(pool, &bodiless));
    CHECK_RC(FJ_ENOTFORKED, fj_join(&bodiless));   /* nothing was queued */
    CHECK(!fj_task_is_done(&bodiless));

    CHECK_REFUSED(FJ_EINVAL, "fj_fork: task is NULL", fj_fork(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_join: task is NULL", fj_join(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_invoke: task is NULL", fj_invoke(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_wait: task is NULL", fj_task_wait(NULL, 0));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_cancel: task is NULL", fj_task_cancel(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_fail: task is NULL", fj_task_fail(NULL, -5));
    CHECK_REFUSED(FJ_EINVAL, "fj_task_outcome: task is NULL", fj_task_outcome(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_submit: task is NULL", fj_pool_submit(pool, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke: task is NULL", fj_pool_invoke(pool, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_submit: pool is NULL", fj_pool_submit(NULL, &bodiless));
    CHECK_REFUSED(FJ_EINVAL, "fj_pool_invoke: pool is NULL", fj_pool_invoke(NULL, &bodiless));
}

static int refuse_null_tasks_on_a_worker(fj_task *t)
{
    refuse_null_tasks(fj_current_pool());
    return 0;
}

static void null_and_bodiless_tasks_are_refused(void)
{
    fj_pool *pool = check_pool();
    refuse_null_tasks(pool);
    fj_task on_worker = FJ_TASK_INIT(refuse_null_tasks_on_a_worker);
    CHECK_RC(0, fj_pool_invoke(pool, &on_worker));
    fj_pool_destroy(pool);
}

static atomic_word gate;

static int wait_for_gate(fj_task *t)
{
    while (!atomic_load_acquire(&gate))
        sched_yield();
    return 0;
}

/* Workers that search for a very long time before parking (spin_rounds
 * 2^30: hours): creating the pool waits for every worker to park, which they
 * did only after a first search, so fj_pool_create never returned within the
 * time limit; work submitted later still runs. */
static void long_searching_pool_is_created_and_runs_work(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = check_workers;
    config.spin_rounds = 1u << 30;
    fj_pool *pool;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    CHECK(fj_pool_is_quiescent(pool));
    sum_task root = {FJ_TASK_INIT(sum_compute), 0, 100000, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(triangle(100000), root.sum);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void timed_wait_times_out(void)
{
    fj_pool *pool = check_pool();
    /* A task gated on a flag we control: the wait must time out, then succeed. */
    atomic_store(&gate, 0);
    fj_task task = FJ_TASK_INIT(wait_for_gate);
    CHECK_RC(0, fj_pool_submit(pool, &task));
    CHECK_RC(FJ_ETIMEDOUT, fj_task_wait(&task, 20 * 1000 * 1000));
    CHECK(!fj_task_is_done(&task));
    atomic_store_release(&gate, 1);
    CHECK_RC(0, fj_task_wait(&task, -1));
    CHECK(fj_task_is_done(&task));
    fj_pool_destroy(pool);
}

static const check_case cases[] = {
    {"four_external_threads_invoke_at_once", four_external_threads_invoke_at_once, CHECK_PER_WORKERS},
    {"two_pools_at_once", two_pools_at_once, CHECK_PER_WORKERS},
    {"a_task_invokes_another_pool", a_task_invokes_another_pool, CHECK_PER_WORKERS},
    {"calls_between_two_one_worker_pools_finish", calls_between_two_one_worker_pools_finish, CHECK_ONCE},
    {"submit_and_join_across_one_worker_pools", submit_and_join_across_one_worker_pools, CHECK_ONCE},
    {"exit_waits_for_the_common_pools_tasks", exit_waits_for_the_common_pools_tasks, CHECK_ONCE},
    {"chain_of_submissions_never_stalls", chain_of_submissions_never_stalls, CHECK_PER_WORKERS},
    {"worker_joins_submission_while_all_are_busy", worker_joins_submission_while_all_are_busy, CHECK_PER_WORKERS},
    {"shutdown_races_submissions", shutdown_races_submissions, CHECK_PER_WORKERS},
    {"idle_pool_uses_no_cpu", idle_pool_uses_no_cpu, CHECK_PER_WORKERS},
    {"misuse_gets_documented_errors", misuse_gets_documented_errors, CHECK_PER_WORKERS},
    {"timed_wait_times_out", timed_wait_times_out, CHECK_PER_WORKERS},
    {"null_and_bodiless_tasks_are_refused", null_and_bodiless_tasks_are_refused, CHECK_PER_WORKERS},
    {"long_searching_pool_is_created_and_runs_work", long_searching_pool_is_created_and_runs_work, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
