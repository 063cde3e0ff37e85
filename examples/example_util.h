/* example_util.h - the small shared part of every example: --workers N, a
 * clock, and the closing "matches serial" verdict.  Examples stay textbook
 * code; this keeps their option parsing out of the way. */
#ifndef FJ_EXAMPLE_UTIL_H
#define FJ_EXAMPLE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fj.h"

typedef struct example_args {
    unsigned workers;  /* 0: the default (FJ_WORKERS or one per CPU) */
    long size;         /* the problem size, or the example's default */
} example_args;

/* Parses "[--workers N] [SIZE]"; exits with a usage message on anything else. */
static inline example_args example_parse(int argc, char **argv, long default_size)
{
    example_args a = {0, default_size};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            a.workers = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-')
            a.size = strtol(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--workers N] [SIZE]\n", argv[0]);
            exit(2);
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
        fprintf(stderr, "fj_pool_create: %s\n", fj_strerror(rc));
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
