/* test_config.c - pool settings the runtime refuses: fj_pool_create fails with
 * FJ_EINVAL and fj_last_error_detail() names the setting, its value and the
 * accepted range; nothing is printed.  The common pool, which nobody creates
 * by name, refuses the same settings: every call that needs it gets the code,
 * FJ_RUN a zero result, and stderr one line naming the setting.  Last, what a
 * pool reads of the creating thread's affinity mask: its default size and
 * where pinned workers go (docs/mpi.md: a rank bound to some of the cores). */
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void expect_contains(const char *what, const char *text, const char *word)
{
    if (!strstr(text, word))
        CHECK_FAIL("%s \"%s\": expected it to contain \"%s\"", what, text, word);
}

/* Creation must fail with FJ_EINVAL and a detail containing each of `words`. */
static void expect_refused(const fj_config *config, const char *word1, const char *word2)
{
    fj_pool *pool = NULL;
    CHECK_RC(FJ_EINVAL, fj_pool_create(&pool, config));
    CHECK(pool == NULL);
    const char *detail = fj_last_error_detail();
    if (!strstr(detail, word1) || !strstr(detail, word2))
        CHECK_FAIL("detail \"%s\": expected it to contain \"%s\" and \"%s\"", detail, word1, word2);
}

static void unparsable_worker_count_is_named(void)
{
    setenv("FJ_WORKERS", "two", 1);
    expect_refused(NULL, "FJ_WORKERS=two", "1024");
}

static void worker_count_over_the_limit_is_named(void)
{
    setenv("FJ_WORKERS", "5000", 1);
    expect_refused(NULL, "FJ_WORKERS=5000", "1024");
}

static void configured_worker_count_over_the_limit_is_named(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2000;
    expect_refused(&config, "workers=2000", "1024");
}

static void negative_spin_is_named(void)
{
    setenv("FJ_SPIN", "-3", 1);
    expect_refused(NULL, "FJ_SPIN=-3", "out of range");
}

static void every_numeric_variable_is_checked(void)
{
    static const char *const names[] = {"FJ_WORKERS", "FJ_SPIN", "FJ_YIELD",        "FJ_STEAL_ATTEMPTS", "FJ_SEED",
                                        "FJ_PIN",     "FJ_STRESS", "FJ_SERIAL", "FJ_DEQUE_FRAMES", "FJ_STATS",
                                        "FJ_PROFILE", "FJ_TRACE_BUFFER"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        setenv(names[i], "abc", 1);
        char expected[64];
        snprintf(expected, sizeof expected, "%s=abc", names[i]);
        expect_refused(NULL, expected, "not a whole number");
        unsetenv(names[i]);
    }
    /* Numbers out of range: the variable, its value and the range. */
    static const struct {
        const char *name, *value, *named, *range;
    } out_of_range[] = {
        {"FJ_PIN", "2", "FJ_PIN=2", "0..1"},
        {"FJ_SERIAL", "2", "FJ_SERIAL=2", "0..1"},
        {"FJ_DEQUE_FRAMES", "10", "FJ_DEQUE_FRAMES=10", "64.."},
        {"FJ_STATS", "2", "FJ_STATS=2", "0..1"},
        {"FJ_TRACE_BUFFER", "8", "FJ_TRACE_BUFFER=8", "16.."},
    };
    for (size_t i = 0; i < sizeof out_of_range / sizeof out_of_range[0]; i++) {
        setenv(out_of_range[i].name, out_of_range[i].value, 1);
        expect_refused(NULL, out_of_range[i].named, out_of_range[i].range);
        unsetenv(out_of_range[i].name);
    }
}

/* A number is all of the text: no leading space or '+', which strtol would
 * skip; one too large for a long is out of range, not "not a number". */
static void number_is_all_the_text(void)
{
    setenv("FJ_WORKERS", " 3", 1);
    expect_refused(NULL, "FJ_WORKERS= 3", "not a whole number");
    setenv("FJ_WORKERS", "+3", 1);
    expect_refused(NULL, "FJ_WORKERS=+3", "not a whole number");
    setenv("FJ_WORKERS", "99999999999999999999", 1);
    expect_refused(NULL, "FJ_WORKERS=99999999999999999999", "out of range");
    unsetenv("FJ_WORKERS");
    setenv("FJ_SEED", "18446744073709551616", 1);
    expect_refused(NULL, "FJ_SEED=18446744073709551616", "out of range (expected 0..18446744073709551615)");
    setenv("FJ_SEED", "18446744073709551615", 1);  /* fj_config.seed's whole range */
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, NULL));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* A round of 2^31 steal attempts held an idle worker off its park, and
 * fj_pool_destroy, for seconds; pin_workers is 0 or 1, as FJ_PIN. */
static void idle_knobs_and_pinning_out_of_range_are_named(void)
{
    setenv("FJ_STEAL_ATTEMPTS", "2147483647", 1);
    expect_refused(NULL, "FJ_STEAL_ATTEMPTS=2147483647", "1..4096");
    unsetenv("FJ_STEAL_ATTEMPTS");
    fj_config config;
    fj_config_init(&config);
    config.steal_attempts = 4294967295u;
    expect_refused(&config, "steal_attempts=4294967295", "0..4096");
    fj_config_init(&config);
    config.pin_workers = 2;
    expect_refused(&config, "pin_workers=2", "0 or 1");
}

/* The process's pools hold at most 4096 workers together (the parker
 * slots a waiter's 16-bit field names): the pool beyond is refused by name. */
static void workers_beyond_the_process_limit_are_named(void)
{
#ifdef CHECK_SANITIZED
    printf("not run under a sanitizer (4096 threads)\n");
#else
    setenv("FJ_DEQUE_FRAMES", "64", 1);
    fj_config config;
    fj_config_init(&config);
    config.workers = 1024;
    config.stack_size = 64 * 1024;
    fj_pool *pools[4];
    for (int i = 0; i < 4; i++)
        CHECK_RC(0, fj_pool_create(&pools[i], &config));
    config.workers = 1;
    expect_refused(&config, "workers=1", "more than 4096 workers");
    for (int i = 0; i < 4; i++)
        CHECK_RC(0, fj_pool_destroy(pools[i]));
    fj_pool *after = NULL;  /* the slots are free again */
    CHECK_RC(0, fj_pool_create(&after, &config));
    CHECK_RC(0, fj_pool_destroy(after));
#endif
}

/* A misspelt fence mode would otherwise mean the default, silently. */
static void unknown_fence_mode_is_named(void)
{
    setenv("FJ_FENCE", "ful", 1);
    expect_refused(NULL, "FJ_FENCE=ful", "full or auto");
    unsetenv("FJ_FENCE");
}

static void refused_stack_size_is_named(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;
    config.stack_size = 1;  /* below PTHREAD_STACK_MIN everywhere */
    expect_refused(&config, "stack_size=1", "refused");
}

/* A stack no system maps: the thread's creation fails, and the detail names
 * the settings that sized it, with the system's reason. */
static void unstartable_stack_size_is_named(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;
    config.stack_size = (size_t)1 << (sizeof(size_t) * 8 - 2);
    fj_pool *pool = NULL;
    CHECK_RC(FJ_ESYSTEM, fj_pool_create(&pool, &config));
    CHECK(pool == NULL);
    char named[128];
    snprintf(named, sizeof named, "workers=2, stack_size=%zu: worker 0's thread not created", config.stack_size);
    expect_contains("detail", fj_last_error_detail(), named);
}

/* A deque the address space cannot hold: FJ_ENOMEM, and the detail names
 * the setting that sized it.  (A sanitizer reserves terabytes of shadow
 * memory, which no address-space limit leaves room for: not run there.) */
static void unreservable_deque_is_named(void)
{
#ifdef CHECK_SANITIZED
    printf("not run under a sanitizer\n");
#else
    struct rlimit limit = {(rlim_t)1 << 30, (rlim_t)1 << 30};  /* 1 GiB of address space */
    CHECK(setrlimit(RLIMIT_AS, &limit) == 0);
    setenv("FJ_DEQUE_FRAMES", "1073741824", 1);  /* 64 GiB per worker */
    fj_config config;
    fj_config_init(&config);
    config.workers = 2;
    fj_pool *pool = NULL;
    CHECK_RC(FJ_ENOMEM, fj_pool_create(&pool, &config));
    CHECK(pool == NULL);
    expect_contains("detail", fj_last_error_detail(), "FJ_DEQUE_FRAMES=1073741824: worker 0's deque not reserved");
#endif
}

static void valid_settings_leave_no_detail(void)
{
    setenv("FJ_WORKERS", "2", 1);
    setenv("FJ_PIN", "0", 1);
    setenv("FJ_FENCE", "auto", 1);
    setenv("FJ_STATS", "0", 1);
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, NULL));
    CHECK_EQ(2u, fj_pool_worker_count(pool));
    CHECK_EQ(0u, strlen(fj_last_error_detail()));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* ---- the common pool under a bad setting ---- */

/* stderr sent to a file while the calls under test run; the checks come after
 * stderr_release, so that a failure is seen. */
typedef struct captured_stderr {
    int file, saved;
} captured_stderr;

static captured_stderr stderr_capture(void)
{
    char path[] = "/tmp/fj_test_config_XXXXXX";
    captured_stderr c = {mkstemp(path), dup(STDERR_FILENO)};
    CHECK(c.file >= 0 && c.saved >= 0);
    unlink(path);
    fflush(stderr);
    CHECK(dup2(c.file, STDERR_FILENO) == STDERR_FILENO);
    return c;
}

/* Puts stderr back; `text` gets what was written to it meanwhile. */
static void stderr_release(captured_stderr c, char *text, size_t size)
{
    fflush(stderr);
    CHECK(dup2(c.saved, STDERR_FILENO) == STDERR_FILENO);
    ssize_t n = pread(c.file, text, size - 1, 0);
    CHECK(n >= 0);
    text[n] = '\0';
    close(c.saved);
    close(c.file);
}

static size_t occurrences(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *at = strstr(text, word); at; at = strstr(at + 1, word))
        n++;
    return n;
}

FJ_TASK(long, doubled, long, x) { return 2 * x; }

/* What one FJ_RUN on the common pool gave. */
typedef struct typed_run_outcome {
    int rc;
    long result;
    char detail[256];
} typed_run_outcome;

static void *typed_run(void *out)
{
    typed_run_outcome *o = out;
    o->result = FJ_RUN_RC(NULL, &o->rc, doubled, 21);
    snprintf(o->detail, sizeof o->detail, "%s", fj_last_error_detail());
    return NULL;
}

static void expect_refused_run(const typed_run_outcome *o, const char *named)
{
    CHECK_RC(FJ_EINVAL, o->rc);
    CHECK_EQ(0, o->result);  /* FJ_RUN's zero result, not the argument left in the frame */
    expect_contains("detail", o->detail, named);
}

/* FJ_RUN from main with no pool: the common pool's creation fails once, says
 * so once on stderr, and every later call, on any thread, gets the code and
 * the detail. */
static void typed_run_on_a_common_pool_that_cannot_start(void)
{
    setenv("FJ_WORKERS", "two", 1);
    typed_run_outcome first, on_a_thread, again;
    pthread_t other;
    captured_stderr c = stderr_capture();
    typed_run(&first);
    int common_missing = fj_common_pool() == NULL;
    int created = pthread_create(&other, NULL, typed_run, &on_a_thread);
    if (created == 0)
        pthread_join(other, NULL);
    typed_run(&again);
    char text[1024];
    stderr_release(c, text, sizeof text);

    CHECK(common_missing);
    CHECK_EQ(0, created);
    expect_refused_run(&first, "FJ_WORKERS=two");
    expect_refused_run(&on_a_thread, "FJ_WORKERS=two");
    expect_refused_run(&again, "FJ_WORKERS=two");
    CHECK_EQ(1, occurrences(text, "fj: the common pool cannot start: FJ_WORKERS=two: not a whole number"));
    CHECK_EQ(1, occurrences(text, "\n"));
}

static int runs;

static int counted_run(fj_task *task)
{
    (void)task;
    runs++;
    return 0;
}

static void counted_loop(int64_t lo, int64_t hi, void *ctx)
{
    (void)lo, (void)hi, (void)ctx;
    runs++;
}

/* fj_fork and a loop outside any pool go to the common pool too: the same
 * code, nothing run, nothing left queued. */
static void fork_and_loop_on_a_common_pool_that_cannot_start(void)
{
    setenv("FJ_WORKERS", "5000", 1);
    fj_task task = FJ_TASK_INIT(counted_run);
    captured_stderr c = stderr_capture();
    int forked = fj_fork(&task);
    char detail[256];
    snprintf(detail, sizeof detail, "%s", fj_last_error_detail());
    int joined = fj_join(&task);
    int looped = fj_parallel_for(NULL, 0, 1000, 0, counted_loop, NULL);
    char text[1024];
    stderr_release(c, text, sizeof text);

    CHECK_RC(FJ_EINVAL, forked);
    expect_contains("detail", detail, "FJ_WORKERS=5000");
    CHECK_RC(FJ_ENOTFORKED, joined);
    CHECK_RC(FJ_EINVAL, looped);
    CHECK_EQ(0, runs);
    CHECK_EQ(1, occurrences(text, "FJ_WORKERS=5000: out of range (expected 0..1024)"));
}

/* ---- the creating thread's CPUs ---- */

/* The calling thread narrowed to the last CPU it may use, as mpirun or taskset
 * narrows a rank; *before gets the mask to restore.  Returns that CPU, or -1
 * where the thread has one CPU only and narrowing cannot be told apart. */
static int narrow_to_last_cpu(cpu_set_t *before)
{
    CHECK(sched_getaffinity(0, sizeof *before, before) == 0);
    if (CPU_COUNT(before) < 2) {
        printf("(one CPU allowed: nothing to narrow, not checked)\n");
        return -1;
    }
    int last = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, before))
            last = cpu;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(last, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    return last;
}

static void default_size_is_the_callers_cpus(void)
{
    unsetenv("FJ_WORKERS");
    cpu_set_t before;
    CHECK(sched_getaffinity(0, sizeof before, &before) == 0);
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, NULL));
    CHECK_EQ((unsigned)CPU_COUNT(&before), fj_pool_worker_count(pool));
    CHECK_RC(0, fj_pool_destroy(pool));
    if (narrow_to_last_cpu(&before) < 0)
        return;
    CHECK_RC(0, fj_pool_create(&pool, NULL));
    CHECK_EQ(1u, fj_pool_worker_count(pool));  /* the machine's online count before */
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK(sched_setaffinity(0, sizeof before, &before) == 0);
}

/* The one CPU the worker running it is pinned to, or -1 if it may run on more. */
FJ_TASK(long, pinned_cpu, long, unused)
{
    (void)unused;
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &mine))
            return cpu;
    return -1;
}

static void pinned_workers_stay_in_the_callers_cpus(void)
{
    unsetenv("FJ_WORKERS");
    unsetenv("FJ_PIN");
    cpu_set_t before;
    int last = narrow_to_last_cpu(&before);
    if (last < 0)
        return;
    fj_config config;
    fj_config_init(&config);
    config.workers = 1;
    config.pin_workers = 1;
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    CHECK(sched_setaffinity(0, sizeof before, &before) == 0);
    /* Worker 0 goes to the first CPU of its creator's mask: the last one of
     * the machine's, not CPU 0, which belongs to someone else. */
    CHECK_EQ((long)last, FJ_RUN(pool, pinned_cpu, 0));
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"unparsable_worker_count_is_named", unparsable_worker_count_is_named, CHECK_ONCE},
    {"worker_count_over_the_limit_is_named", worker_count_over_the_limit_is_named, CHECK_ONCE},
    {"configured_worker_count_over_the_limit_is_named", configured_worker_count_over_the_limit_is_named, CHECK_ONCE},
    {"negative_spin_is_named", negative_spin_is_named, CHECK_ONCE},
    {"every_numeric_variable_is_checked", every_numeric_variable_is_checked, CHECK_ONCE},
    {"unknown_fence_mode_is_named", unknown_fence_mode_is_named, CHECK_ONCE},
    {"number_is_all_the_text", number_is_all_the_text, CHECK_ONCE},
    {"idle_knobs_and_pinning_out_of_range_are_named", idle_knobs_and_pinning_out_of_range_are_named, CHECK_ONCE},
    {"workers_beyond_the_process_limit_are_named", workers_beyond_the_process_limit_are_named, CHECK_ONCE},
    {"refused_stack_size_is_named", refused_stack_size_is_named, CHECK_ONCE},
    {"unstartable_stack_size_is_named", unstartable_stack_size_is_named, CHECK_ONCE},
    {"unreservable_deque_is_named", unreservable_deque_is_named, CHECK_ONCE},
    {"valid_settings_leave_no_detail", valid_settings_leave_no_detail, CHECK_ONCE},
    {"typed_run_on_a_common_pool_that_cannot_start", typed_run_on_a_common_pool_that_cannot_start, CHECK_ONCE},
    {"fork_and_loop_on_a_common_pool_that_cannot_start", fork_and_loop_on_a_common_pool_that_cannot_start, CHECK_ONCE},
    {"default_size_is_the_callers_cpus", default_size_is_the_callers_cpus, CHECK_ONCE},
    {"pinned_workers_stay_in_the_callers_cpus", pinned_workers_stay_in_the_callers_cpus, CHECK_ONCE},
};
CHECK_MAIN(cases)
