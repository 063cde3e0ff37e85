/* port_util.h - what every ported Java program shares: its command line
 * ("[--workers N] [--reps R] [SIZE]", as the Java originals take
 * "procs size reps"), a clock, the pool, and the closing verdict line.
 * Default sizes are small, because `make test` runs every example on 1-8
 * workers under the sanitizers too; `make bench-java-ports` passes the
 * benchmark inputs of the jsr166 programs.
 *
 * The verdict line is the same for every port, so that `make demo-java` and
 * `make bench-java-ports` can read it:
 *     NAME: <what was computed>: correct (best of R: 0.123 s, 2 workers)
 * and the Java originals print "... best of R: 0.123 s" the same way. */
#ifndef FJ_PORT_UTIL_H
#define FJ_PORT_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fj_java.h"

typedef struct port_args {
    unsigned workers;  /* 0: one per CPU, like new ForkJoinPool() */
    long size;         /* the program's problem size */
    int reps;          /* timed repetitions; the best is reported */
    int policy;        /* --policy P, for programs with variants (Integrate) */
} port_args;

static inline port_args port_parse(int argc, char **argv, long default_size)
{
    port_args a = {0, default_size, 1, 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            a.workers = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            a.reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
            a.policy = atoi(argv[++i]);
        else if (argv[i][0] != '-')
            a.size = strtol(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--workers N] [--reps R] [--policy P] [SIZE]\n", argv[0]);
            exit(2);
        }
    }
    if (a.reps < 1)
        a.reps = 1;
    return a;
}

static inline double port_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* new ForkJoinPool(procs) */
static inline fj_pool *port_pool(const port_args *a)
{
    fj_pool *pool;
    int rc = fj_pool_create_with_parallelism(&pool, a->workers);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_create_with_parallelism: %s\n", fj_strerror(rc));
        exit(1);
    }
    return pool;
}

/* Prints the verdict line, destroys the pool, returns the exit status. */
static inline int port_verdict(const char *name, const char *what, int correct, const port_args *a, double best_s,
                               fj_pool *pool)
{
    printf("%s: %s: %s (best of %d: %.4f s, %u workers)\n", name, what, correct ? "correct" : "WRONG", a->reps, best_s,
           fj_pool_get_parallelism(pool));
    fj_pool_destroy(pool);
    return correct ? 0 : 1;
}

#endif
