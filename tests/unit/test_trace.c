/* test_trace.c - the trace (fj_trace_start/stop, FJ_TRACE) and the teaching
 * modes: the file is valid JSON, every worker's slices are balanced, its
 * counts equal fj_pool_stats of the same run, a full buffer says so, a
 * restarted session reaches the running workers; serial elision runs in
 * serial order; steal stress makes steals happen. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomics.h"
#include "check.h"
#include "../../tools/trace_json.h"

/* ---- a program with some parallelism: fib with a little work per leaf ---- */

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
        volatile unsigned spin = 0;
        for (unsigned i = 0; i < 200; i++)  /* a leaf worth stealing around */
            spin += i;
        (void)spin;
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

static void run_fib(fj_pool *pool, int n)
{
    fib_task root = {FJ_TASK_INIT(fib_compute), n, -1};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(fib_serial(n), root.result);
}

static int fib_size(void) { return check_scale() > 1 ? 14 : 18; }

/* ---- reading a trace back ---- */

typedef struct trace_counts {
    unsigned long tasks, steals, leapfrogs, forks, serial_forks, inline_joins, injector_takes, helps, dropped;
    unsigned long flow_starts, flow_ends, buffer_full;
} trace_counts;

static void temp_path(char *path, size_t size, const char *what)
{
    snprintf(path, size, "/tmp/fj-test-%s-%ld.json", what, (long)getpid());
}

static json_value *read_trace(const char *path)
{
    size_t length;
    char *text = json_read_file(path, &length);
    if (!text)
        CHECK_FAIL("cannot read %s", path);
    char error[128];
    json_value *root = json_parse(text, length, error, sizeof error);
    free(text);
    if (!root)
        CHECK_FAIL("%s is not valid JSON: %s", path, error);
    const json_value *events = json_get(root, "traceEvents");
    CHECK(events && events->type == JSON_ARRAY);
    return root;
}

/* Every (pool, worker) track: each E closes the innermost open B of the same
 * category, and nothing is left open at the end. */
static void check_balanced(const json_value *events)
{
    enum { TRACKS = 64, DEPTH = 4096 };
    static char open[TRACKS][DEPTH][8];
    size_t depth[TRACKS] = {0};
    for (size_t i = 0; i < events->count; i++) {
        const json_value *e = &events->items[i];
        const char *ph = json_text(json_get(e, "ph"));
        if (strcmp(ph, "B") != 0 && strcmp(ph, "E") != 0)
            continue;
        unsigned track = (unsigned)json_num(json_get(e, "pid"), 0) * 16 + (unsigned)json_num(json_get(e, "tid"), 0);
        CHECK(track < TRACKS);
        const char *cat = json_text(json_get(e, "cat"));
        if (ph[0] == 'B') {
            CHECK(depth[track] < DEPTH);
            snprintf(open[track][depth[track]++], 8, "%s", cat);
        } else {
            if (depth[track] == 0)
                CHECK_FAIL("event %zu: an end with nothing open on track %u", i, track);
            depth[track]--;
            if (strcmp(open[track][depth[track]], cat) != 0)
                CHECK_FAIL("event %zu: end of %s closes a %s", i, cat, open[track][depth[track]]);
        }
    }
    for (unsigned t = 0; t < TRACKS; t++)
        CHECK_EQ(0, depth[t]);
}

static trace_counts count_events(const json_value *root)
{
    const json_value *events = json_get(root, "traceEvents");
    trace_counts c = {0};
    for (size_t i = 0; i < events->count; i++) {
        const json_value *e = &events->items[i];
        const char *ph = json_text(json_get(e, "ph")), *name = json_text(json_get(e, "name"));
        const char *cat = json_text(json_get(e, "cat"));
        if (strcmp(ph, "B") == 0 && strcmp(cat, "task") == 0) {
            c.tasks++;
            c.helps += json_num(json_get(json_get(e, "args"), "help"), 0) != 0;
        } else if (strcmp(ph, "i") == 0) {
            c.steals += strcmp(name, "steal") == 0;
            c.leapfrogs += strcmp(name, "leapfrog") == 0;
            c.forks += strcmp(name, "fork") == 0;
            c.serial_forks += strcmp(name, "fork:serial") == 0;
            c.inline_joins += strcmp(name, "join:inline") == 0;
            c.injector_takes += strcmp(name, "injector:take") == 0;
            c.buffer_full += strcmp(name, "trace buffer full") == 0;
        } else if (strcmp(ph, "s") == 0) {
            c.flow_starts++;
        } else if (strcmp(ph, "f") == 0) {
            c.flow_ends++;
        }
    }
    c.dropped = (unsigned long)json_num(json_get(json_get(root, "otherData"), "dropped_events"), -1);
    return c;
}

static void check_counts_equal(const trace_counts *c, const fj_worker_stats *s)
{
    CHECK_EQ(0, c->dropped);
    CHECK_EQ(s->tasks_run, c->tasks);
    CHECK_EQ(s->steals, c->steals);
    CHECK_EQ(s->leapfrogs, c->leapfrogs);
    CHECK_EQ(s->forks, c->forks);
    CHECK_EQ(s->inline_joins, c->inline_joins);
    CHECK_EQ(s->injector_takes, c->injector_takes);
    CHECK_EQ(s->helps, c->helps);
    CHECK_EQ(c->steals + c->leapfrogs, c->flow_starts);  /* an arrow per steal */
    CHECK_EQ(c->flow_starts, c->flow_ends);
}

static fj_worker_stats stats_delta(const fj_worker_stats *after, const fj_worker_stats *before)
{
    fj_worker_stats d = *after;
    d.tasks_run -= before->tasks_run;
    d.steals -= before->steals;
    d.leapfrogs -= before->leapfrogs;
    d.forks -= before->forks;
    d.inline_joins -= before->inline_joins;
    d.injector_takes -= before->injector_takes;
    d.helps -= before->helps;
    return d;
}

/* ---- cases ---- */

static void trace_counts_equal_the_statistics(void)
{
    char path[128];
    temp_path(path, sizeof path, "counts");
    CHECK_RC(0, fj_trace_start(path));
    fj_pool *pool = check_pool();
    for (int round = 0; round < 3; round++)
        run_fib(pool, fib_size());
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);  /* exact: no task is running */
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_RC(0, fj_trace_stop());

    json_value *root = read_trace(path);
    check_balanced(json_get(root, "traceEvents"));
    trace_counts c = count_events(root);
    check_counts_equal(&c, &total);
    CHECK_EQ(3, c.injector_takes);
    json_free(root);
    unlink(path);
}

static void trace_restarted_reaches_running_workers(void)
{
    char path[128];
    temp_path(path, sizeof path, "restart");
    CHECK_RC(0, fj_trace_start(path));  /* arms the pool's workers */
    fj_pool *pool = check_pool();
    run_fib(pool, fib_size());
    CHECK_RC(0, fj_trace_stop());
    run_fib(pool, fib_size());  /* not recorded */
    fj_worker_stats before, after;
    fj_pool_stats(pool, NULL, 0, &before);
    CHECK_RC(0, fj_trace_start(path));
    run_fib(pool, fib_size());
    fj_pool_stats(pool, NULL, 0, &after);
    CHECK_RC(0, fj_trace_stop());
    CHECK_RC(0, fj_pool_destroy(pool));

    json_value *root = read_trace(path);
    check_balanced(json_get(root, "traceEvents"));
    trace_counts c = count_events(root);
    fj_worker_stats delta = stats_delta(&after, &before);
    check_counts_equal(&c, &delta);
    json_free(root);
    unlink(path);
}

static void trace_stopped_mid_run_is_balanced(void)
{
    char path[128];
    temp_path(path, sizeof path, "midrun");
    CHECK_RC(0, fj_trace_start(path));
    fj_pool *pool = check_pool();
    fib_task root = {FJ_TASK_INIT(fib_compute), fib_size() + 2, -1};
    CHECK_RC(0, fj_pool_submit(pool, &root.task));
    CHECK_RC(0, fj_trace_stop());  /* wherever the run is: slices still open get closed */
    CHECK_RC(0, fj_join(&root.task));
    CHECK_EQ(fib_serial(fib_size() + 2), root.result);
    CHECK_RC(0, fj_pool_destroy(pool));
    json_value *root_json = read_trace(path);
    check_balanced(json_get(root_json, "traceEvents"));
    json_free(root_json);
    unlink(path);
}

static void trace_full_buffer_says_so(void)
{
    char path[128];
    temp_path(path, sizeof path, "full");
    setenv("FJ_TRACE_BUFFER", "64", 1);
    CHECK_RC(0, fj_trace_start(path));
    fj_pool *pool = check_pool();
    run_fib(pool, fib_size());
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_RC(0, fj_trace_stop());
    json_value *root = read_trace(path);
    check_balanced(json_get(root, "traceEvents"));
    trace_counts c = count_events(root);
    CHECK(c.dropped > 0);
    CHECK(c.buffer_full >= 1);
    CHECK_EQ(64, json_num(json_get(json_get(root, "otherData"), "records_per_worker"), 0));
    json_free(root);
    unlink(path);
}


/* ---- ends that are not a clean stop: exit with work pending, a crash ---- */

/* A task that never finishes by itself: it runs until the process ends. */
static atomic_word endless_started;
static int endless(fj_task *t)
{
    (void)t;
    /* Atomicity only: the child process exits on seeing it; nothing else is
     * published.  Set after the task's begin was recorded. */
    atomic_store(&endless_started, 1);
    for (;;)  /* ended by the process's exit */
        sched_yield();
    return 0;
}

/* Runs `child` in a child process and returns its exit status (or 128 + the
 * signal).  The child must end the process itself. */
static int in_child(void (*child)(const char *), const char *path)
{
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        child(path);
        _exit(99);  /* not reached */
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        CHECK(errno == EINTR);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void exit_with_task_running(const char *path)
{
    if (fj_trace_start(path) != 0)
        _exit(2);
    fj_pool *pool;
    if (fj_pool_create(&pool, NULL) != 0)
        _exit(3);
    static fj_task never_done = FJ_TASK_INIT(endless);
    if (fj_pool_submit(pool, &never_done) != 0)
        _exit(4);
    while (!atomic_load(&endless_started))  /* no time limit here: the test runner has one */
        sched_yield();
    exit(0);  /* as a return from main with the task still running: exit runs the handlers */
}

static void trace_at_exit_with_work_pending_is_partial(void)
{
    char path[128];
    temp_path(path, sizeof path, "pending");
    CHECK_EQ(0, in_child(exit_with_task_running, path));
    json_value *root = read_trace(path);
    check_balanced(json_get(root, "traceEvents"));
    const json_value *other = json_get(root, "otherData");
    CHECK(json_get(other, "partial") != NULL && json_get(other, "partial")->type == JSON_TRUE);
    bool said_so = false;
    const json_value *events = json_get(root, "traceEvents");
    for (size_t i = 0; i < events->count; i++)
        said_so |= strcmp(json_text(json_get(&events->items[i], "name")), "trace stopped with work pending") == 0;
    CHECK(said_so);
    json_free(root);
    unlink(path);
}

static void crash_after_start(const char *path)
{
    if (fj_trace_start(path) != 0)
        _exit(2);
    signal(SIGABRT, SIG_DFL);
    abort();
}

static void trace_after_a_crash_says_incomplete(void)
{
    char path[128];
    temp_path(path, sizeof path, "crash");
    CHECK_EQ(128 + SIGABRT, in_child(crash_after_start, path));
    json_value *root = read_trace(path);  /* valid JSON, not 0 bytes */
    CHECK(strstr(json_text(json_get(json_get(root, "otherData"), "incomplete")), "ended before") != NULL);
    json_free(root);
    unlink(path);
}

/* A clean run: every worker that ran has "on CPU" samples, each 0..100. */
static void trace_has_cpu_time_samples(void)
{
    char path[128];
    temp_path(path, sizeof path, "cpu");
    CHECK_RC(0, fj_trace_start(path));
    fj_pool *pool = check_pool();
    run_fib(pool, fib_size());
    CHECK_RC(0, fj_trace_stop());
    CHECK_RC(0, fj_pool_destroy(pool));
    json_value *root = read_trace(path);
    const json_value *events = json_get(root, "traceEvents");
    size_t samples = 0;
    for (size_t i = 0; i < events->count; i++) {
        const json_value *e = &events->items[i];
        if (strcmp(json_text(json_get(e, "ph")), "C") != 0)
            continue;
        double percent = json_num(json_get(json_get(e, "args"), "percent"), -1);
        CHECK(percent >= 0 && percent <= 100);
        samples++;
    }
    CHECK(samples > 0);
    json_free(root);
    unlink(path);
}

static void trace_api_misuse(void)
{
    CHECK_REFUSED(FJ_EINVAL, "fj_trace_stop: no trace session is open", fj_trace_stop());
    CHECK_REFUSED(FJ_EINVAL, "fj_trace_start: path is NULL", fj_trace_start(NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_trace_start: path is empty", fj_trace_start(""));
    CHECK_REFUSED(FJ_ESYSTEM, "fj_trace_start: /nonexistent-dir/trace.json: cannot open the file: No such file or directory",
                  fj_trace_start("/nonexistent-dir/trace.json"));
    CHECK_EQ(ENOENT, errno);
    CHECK_EQ(0, fj_trace_is_on());
    char path[128];
    temp_path(path, sizeof path, "misuse");
    CHECK_RC(0, fj_trace_start(path));
    CHECK_EQ(1, fj_trace_is_on());
    CHECK_REFUSED(FJ_EBUSY, "fj_trace_start: a trace session is open already (fj_trace_stop closes it)",
                  fj_trace_start(path));
    CHECK_RC(0, fj_trace_stop());  /* an empty session is a valid, empty trace */
    json_value *root = read_trace(path);
    CHECK_EQ(0, count_events(root).tasks);
    json_free(root);
    unlink(path);
}

/* A file that takes no bytes (/dev/full, where the system has it): the
 * stop says which file and why, not only FJ_ESYSTEM. */
static void failed_trace_write_names_the_file_and_the_reason(void)
{
    if (access("/dev/full", W_OK) != 0) {
        printf("skipped: no writable /dev/full\n");
        return;
    }
    CHECK_RC(0, fj_trace_start("/dev/full"));
    CHECK_REFUSED(FJ_ESYSTEM, "fj_trace_stop: writing /dev/full failed: No space left on device", fj_trace_stop());
    CHECK_EQ(0, fj_trace_is_on());
}

/* ---- teaching modes ---- */

typedef struct visit_task {
    fj_task task;
    int depth;
    int label;
    int *order;
    int *next;
} visit_task;

/* Visits a binary tree: records its label, forks the left subtree, runs the
 * right one itself, joins.  The serial twin visits left before right. */
static int visit(fj_task *t)
{
    visit_task *v = FJ_CONTAINER_OF(t, visit_task, task);
    v->order[(*v->next)++] = v->label;  /* unsynchronised on purpose: serial only */
    if (v->depth == 0)
        return 0;
    visit_task left = {FJ_TASK_INIT(visit), v->depth - 1, 2 * v->label, v->order, v->next};
    visit_task right = {FJ_TASK_INIT(visit), v->depth - 1, 2 * v->label + 1, v->order, v->next};
    fj_fork(&left.task);
    visit(&right.task);
    return fj_join(&left.task);
}

static void visit_serial(int depth, int label, int *order, int *next)
{
    order[(*next)++] = label;
    if (depth == 0)
        return;
    visit_serial(depth - 1, 2 * label, order, next);
    visit_serial(depth - 1, 2 * label + 1, order, next);
}

/* The same fib as a typed task. */
FJ_TASK(long, typed_fib, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(typed_fib, n - 1);
    long b = FJ_CALL(typed_fib, n - 2);
    return FJ_SYNC(typed_fib) + b;
}

static unsigned long fib_forks(int n) { return n < 2 ? 0 : 1 + fib_forks(n - 1) + fib_forks(n - 2); }

/* Under serial elision (one worker) a fork of either kind is the program's
 * fork run at once: the trace names each "fork:serial", none plain "fork",
 * and an fj_task's fork still counts in the statistics. */
static void serial_forks_are_traced_alike_for_both_kinds(void)
{
    enum { N = 12 };
    setenv("FJ_WORKERS", "1", 1);
    char path[128];
    temp_path(path, sizeof path, "serial");
    CHECK_RC(0, fj_trace_start(path));
    fj_pool *pool = check_pool();
    run_fib(pool, N);
    CHECK_EQ(fib_serial(N), FJ_RUN(pool, typed_fib, N));
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_RC(0, fj_trace_stop());
    unsetenv("FJ_WORKERS");
    json_value *root = read_trace(path);
    check_balanced(json_get(root, "traceEvents"));
    trace_counts c = count_events(root);
    CHECK_EQ(fib_forks(N), total.forks);  /* the fj_task forks; typed spawns keep no counter */
    CHECK_EQ(2 * fib_forks(N), c.serial_forks);
    CHECK_EQ(0, c.forks);
    json_free(root);
    unlink(path);
}

static void one_worker_env_runs_in_serial_order(void)
{
    enum { DEPTH = 6, NODES = (1 << (DEPTH + 1)) - 1 };
    int expected[NODES], actual[NODES], n_expected = 0, n_actual = 0;
    visit_serial(DEPTH, 1, expected, &n_expected);
    setenv("FJ_WORKERS", "1", 1);
    fj_pool *pool = check_pool();
    CHECK_EQ(1, fj_pool_worker_count(pool));
    visit_task root = {FJ_TASK_INIT(visit), DEPTH, 1, actual, &n_actual};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_EQ(NODES, n_actual);
    for (int i = 0; i < NODES; i++)
        if (expected[i] != actual[i])
            CHECK_FAIL("visit %d: serial order has node %d, the run had %d", i, expected[i], actual[i]);
    CHECK_EQ((NODES - 1) / 2, total.forks);      /* every fj_fork call counts, elided or not ... */
    CHECK_EQ(1 + total.forks, total.tasks_run);  /* ... and each ran: the root and each left child */
}

/* FJ_STRESS=1 holds every fork back until a thief takes it (bounded), so at
 * least a third of the forks must be stolen.  A run in which the OS gave the
 * thieves no turn for a whole hold is possible on a loaded machine; a bounded
 * number of runs gives them every chance, without timing. */
static void stress_mode_makes_steals_happen(void)
{
    setenv("FJ_STRESS", "1", 1);
    fj_pool *pool = check_pool();
    fj_worker_stats before = {0}, after;
    unsigned long long best_stolen = 0, best_forks = 1;
    for (int round = 0; round < 20; round++) {
        run_fib(pool, fib_size());
        fj_pool_stats(pool, NULL, 0, &after);
        unsigned long long forks = after.forks - before.forks;
        unsigned long long stolen = after.steals + after.leapfrogs - before.steals - before.leapfrogs;
        before = after;
        if (stolen * best_forks > best_stolen * forks) {
            best_stolen = stolen;
            best_forks = forks;
        }
        if (3 * stolen >= forks)
            break;
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    if (check_workers > 1)  /* one worker has nobody to steal; stress is off */
        CHECK(3 * best_stolen >= best_forks);
}

static const check_case cases[] = {
    {"trace_at_exit_with_work_pending_is_partial", trace_at_exit_with_work_pending_is_partial, CHECK_ONCE},
    {"trace_after_a_crash_says_incomplete", trace_after_a_crash_says_incomplete, CHECK_ONCE},
    {"trace_has_cpu_time_samples", trace_has_cpu_time_samples, CHECK_PER_WORKERS},
    {"trace_counts_equal_the_statistics", trace_counts_equal_the_statistics, CHECK_PER_WORKERS},
    {"trace_restarted_reaches_running_workers", trace_restarted_reaches_running_workers, CHECK_PER_WORKERS},
    {"trace_stopped_mid_run_is_balanced", trace_stopped_mid_run_is_balanced, CHECK_PER_WORKERS},
    {"trace_full_buffer_says_so", trace_full_buffer_says_so, CHECK_ONCE},
    {"failed_trace_write_names_the_file_and_the_reason", failed_trace_write_names_the_file_and_the_reason, CHECK_ONCE},
    {"trace_api_misuse", trace_api_misuse, CHECK_ONCE},
    {"one_worker_env_runs_in_serial_order", one_worker_env_runs_in_serial_order, CHECK_ONCE},
    {"serial_forks_are_traced_alike_for_both_kinds", serial_forks_are_traced_alike_for_both_kinds, CHECK_ONCE},
    {"stress_mode_makes_steals_happen", stress_mode_makes_steals_happen, CHECK_PER_WORKERS},
};

CHECK_MAIN(cases)
