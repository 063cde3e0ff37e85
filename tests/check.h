/* check.h - the test framework: cases, checks that print expected and actual,
 * and a main() that lists or runs cases.  Each case runs in its own process
 * (tests/run-tests.sh), on 1, 2, 4 and 8 workers when it depends on them.
 *
 *   static void deque_is_lifo(void) { ... CHECK_EQ(3, popped); ... }
 *   static const check_case cases[] = {
 *       {"deque_is_lifo", deque_is_lifo, CHECK_ONCE},
 *       {"fib_is_right", fib_is_right, CHECK_PER_WORKERS},
 *   };
 *   CHECK_MAIN(cases)
 *
 * Knobs: --workers N (set by the runner), FJ_TEST_SCALE=K divides the sizes of
 * heavy cases (sanitizer runs use 2-4), FJ_TEST_STRESS=1 enables the long
 * stress sizes and the random-yield race widener (check_jitter). */
#ifndef FJ_CHECK_H
#define FJ_CHECK_H

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fj.h"

enum { CHECK_ONCE = 0, CHECK_PER_WORKERS = 1 };

typedef struct check_case {
    const char *name;
    void (*run)(void);
    int per_workers;
} check_case;

static unsigned check_workers = 2;

#define CHECK_FAIL(...)                                                                        \
    do {                                                                                       \
        fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__);                          \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fprintf(stderr, " (workers=%u)\n", check_workers);                                     \
        exit(1);                                                                               \
    } while (0)

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond))                                                                           \
            CHECK_FAIL("%s", #cond);                                                           \
    } while (0)

/* Integers of any width: both sides are shown as signed 64-bit numbers. */
#define CHECK_EQ(expected, actual)                                                             \
    do {                                                                                       \
        long long check_e_ = (long long)(expected), check_a_ = (long long)(actual);            \
        if (check_e_ != check_a_)                                                              \
            CHECK_FAIL("%s == %s: expected %lld, actual %lld", #expected, #actual, check_e_,   \
                       check_a_);                                                              \
    } while (0)

/* An fj call that must return `expected` (an FJ_E* code); prints both names. */
#define CHECK_RC(expected, call)                                                               \
    do {                                                                                       \
        int check_rc_ = (call);                                                                \
        if (check_rc_ != (expected))                                                           \
            CHECK_FAIL("%s: expected %d (%s), actual %d (%s)", #call, (int)(expected),         \
                       fj_strerror(expected), check_rc_, fj_strerror(check_rc_));              \
    } while (0)

/* CHECK_RC, and fj_last_error_detail() afterwards must read `detail`. */
#define CHECK_REFUSED(code, detail, call)                                                      \
    do {                                                                                       \
        CHECK_RC(code, call);                                                                  \
        if (strcmp(fj_last_error_detail(), detail) != 0)                                       \
            CHECK_FAIL("%s: detail \"%s\", expected \"%s\"", #call, fj_last_error_detail(), detail); \
    } while (0)

/* CHECK_SANITIZED under a sanitizer: cases that need what its shadow memory,
 * address space or thread limits leave no room for are not run there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHECK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CHECK_SANITIZED 1
#endif
#endif

/* Divisor for heavy sizes (FJ_TEST_SCALE); 1 by default. */
static inline long check_scale(void)
{
    const char *s = getenv("FJ_TEST_SCALE");
    long k = s ? strtol(s, NULL, 10) : 1;
    return k > 0 ? k : 1;
}

static inline int check_stress(void)
{
    const char *s = getenv("FJ_TEST_STRESS");
    return s && *s && strcmp(s, "0") != 0;
}

/* `full` in stress mode, else full / (8 * scale), at least `floor`. */
static inline long check_size(long full, long floor)
{
    long n = check_stress() ? full : full / (8 * check_scale());
    return n < floor ? floor : n;
}

/* Widens race windows in stress mode: a rare sched_yield at the call site. */
static inline void check_jitter(unsigned *seed)
{
    if (!check_stress())
        return;
    *seed = *seed * 1103515245u + 12345u;
    if ((*seed >> 16) % 64 == 0)
        sched_yield();
}

static inline fj_pool *check_pool(void)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = check_workers;
    fj_pool *pool = NULL;
    int rc = fj_pool_create(&pool, &config);
    if (rc != 0)
        CHECK_FAIL("fj_pool_create(%u workers): %s", check_workers, fj_strerror(rc));
    return pool;
}

/* Every worker's statistics row, sized by check_workers (the command line
 * sets it: a fixed array overflows at more workers than it holds), and the
 * sum in *total when total is not NULL.  The caller frees the rows. */
static inline fj_worker_stats *check_pool_stats(const fj_pool *pool, fj_worker_stats *total)
{
    fj_worker_stats *rows = (fj_worker_stats *)calloc(check_workers, sizeof *rows);
    if (!rows)
        CHECK_FAIL("no memory for %u statistics rows", check_workers);
    int count = fj_pool_stats(pool, rows, check_workers, total);
    if (count != (int)check_workers)
        CHECK_FAIL("fj_pool_stats gave %d rows for %u workers", count, check_workers);
    return rows;
}

static inline int check_main(int argc, char **argv, const check_case *cases, size_t count)
{
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t c = 0; c < count; c++)
                printf("%s %d\n", cases[c].name, cases[c].per_workers);
            return 0;
        } else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) {
            check_workers = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            only = argv[i];
        }
    }
    int ran = 0;
    for (size_t c = 0; c < count; c++) {
        if (only && strcmp(only, cases[c].name) != 0)
            continue;
        cases[c].run();
        ran++;
    }
    if (only && !ran) {
        fprintf(stderr, "no case named %s\n", only);
        return 2;
    }
    return 0;
}

#define CHECK_MAIN(cases)                                                                      \
    int main(int argc, char **argv) { return check_main(argc, argv, cases, sizeof cases / sizeof cases[0]); }

#endif
