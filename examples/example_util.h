/* example_util.h - the small shared part of every example: --workers N, a
 * clock, and the closing "matches serial" verdict.  Examples stay textbook
 * code; this keeps their option parsing out of the way. */
#ifndef FJ_EXAMPLE_UTIL_H
#define FJ_EXAMPLE_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fj.h"

typedef struct example_args {
    unsigned workers;  /* 0: the default (FJ_WORKERS or one per CPU) */
    long size;         /* the problem size, or the example's default */
} example_args;

/* fj_config.workers' limit (fj.h); 0 means one worker per CPU. */
#define EXAMPLE_MAX_WORKERS 1024

/* The whole number `text` in [min, max] into *value; 0 if it is not one. */
static inline int example_number(const char *text, long min, long max, long *value)
{
    char *end;
    errno = 0;
    long parsed = strtol(text, &end, 10);
    if (errno || end == text || *end || parsed < min || parsed > max)
        return 0;
    *value = parsed;
    return 1;
}

/* Refuses a value, naming what it was given for, then shows `usage` (the
 * arguments after the program's name): exits with status 2. */
static inline void example_refuse(const char *program, const char *what, const char *text, long min, long max,
                                  const char *usage)
{
    fprintf(stderr, "%s: %s %s: expected a whole number from %ld to %ld\n", program, what, text, min, max);
    fprintf(stderr, "usage: %s %s\n", program, usage);
    exit(2);
}

/* Whether argument `arg` is a value (a number, perhaps negative) rather than an option. */
static inline int example_is_value(const char *arg) { return arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9'); }

#define EXAMPLE_USAGE "[--workers N] [SIZE]"

/* Exits with status 2: `option` is not one of `usage`'s, or lacks its value. */
static inline void example_bad_option(const char *program, const char *option, const char *usage)
{
    char listed[64];  /* how usage lists an option that takes a value: "[--workers " */
    snprintf(listed, sizeof listed, "[%s ", option);
    fprintf(stderr, "%s: %s %s\nusage: %s %s\n", program, strstr(usage, listed) ? "a value must follow" : "unknown option",
            option, program, usage);
    exit(2);
}

/* Parses "[--workers N] [SIZE]", SIZE from min_size to max_size (default_size
 * when absent); exits with a message naming anything else. */
static inline example_args example_parse(int argc, char **argv, long default_size, long min_size, long max_size)
{
    example_args a = {0, default_size};
    for (int i = 1; i < argc; i++) {
        long value;
        if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) {
            if (!example_number(argv[++i], 0, EXAMPLE_MAX_WORKERS, &value))
                example_refuse(argv[0], "--workers", argv[i], 0, EXAMPLE_MAX_WORKERS, EXAMPLE_USAGE);
            a.workers = (unsigned)value;
        } else if (example_is_value(argv[i])) {
            if (!example_number(argv[i], min_size, max_size, &value))
                example_refuse(argv[0], "SIZE", argv[i], min_size, max_size, EXAMPLE_USAGE);
            a.size = value;
        } else {
            example_bad_option(argv[0], argv[i], EXAMPLE_USAGE);
        }
    }
    return a;
}

static inline double example_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline fj_pool *example_pool(const example_args *a)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = a->workers;
    fj_pool *pool;
    int rc = fj_pool_create(&pool, &config);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_create: %s: %s\n", fj_strerror(rc), fj_last_error_detail());
        exit(1);
    }
    return pool;
}

/* Prints the verdict line and returns the process exit status. */
static inline int example_verdict(const char *what, int matches, double parallel_s, double serial_s)
{
    printf("%s: %s serial (parallel %.3f s, serial %.3f s)\n", what, matches ? "matches" : "DOES NOT MATCH", parallel_s,
           serial_s);
    return matches ? 0 : 1;
}

#endif
