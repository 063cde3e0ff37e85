/* test_config.c - pool settings the runtime refuses: fj_pool_create fails with
 * FJ_EINVAL and fj_last_error_detail() names the setting, its value and the
 * accepted range.  Nothing is printed by the library. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

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

static const check_case cases[] = {
    {"unparsable_worker_count_is_named", unparsable_worker_count_is_named, CHECK_ONCE},
    {"worker_count_over_the_limit_is_named", worker_count_over_the_limit_is_named, CHECK_ONCE},
    {"configured_worker_count_over_the_limit_is_named", configured_worker_count_over_the_limit_is_named, CHECK_ONCE},
    {"negative_spin_is_named", negative_spin_is_named, CHECK_ONCE},
    {"every_numeric_variable_is_checked", every_numeric_variable_is_checked, CHECK_ONCE},
    {"unknown_fence_mode_is_named", unknown_fence_mode_is_named, CHECK_ONCE},
    {"refused_stack_size_is_named", refused_stack_size_is_named, CHECK_ONCE},
    {"valid_settings_leave_no_detail", valid_settings_leave_no_detail, CHECK_ONCE},
};
CHECK_MAIN(cases)
