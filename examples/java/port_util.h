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

#include "../example_util.h"
#include "fj_java.h"

typedef struct port_args {
    unsigned workers;  /* 0: one per CPU, like new ForkJoinPool() */
    long size;         /* the program's problem size */
    int reps;          /* timed repetitions; the best is reported */
    int policy;        /* --policy P, for programs with variants (Integrate) */
} port_args;

#define PORT_USAGE "[--workers N] [--reps R] [--policy P] [SIZE]"

/* Parses PORT_USAGE, SIZE from min_size to max_size (default_size when
 * absent); exits with a message naming anything else (example_util.h). */
static inline port_args port_parse(int argc, char **argv, long default_size, long min_size, long max_size)
{
    port_args a = {0, default_size, 1, 0};
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i], *text = i + 1 < argc ? argv[i + 1] : NULL;
        long value, min = 0, max = 0;
        if (strcmp(option, "--workers") == 0 && text)
            max = EXAMPLE_MAX_WORKERS, i++;
        else if (strcmp(option, "--reps") == 0 && text)
            min = 1, max = 1000000, i++;
        else if (strcmp(option, "--policy") == 0 && text)
            min = -1, max = 1, i++;
        else if (example_is_value(option))
            text = option, option = "SIZE", min = min_size, max = max_size;
        else
            example_bad_option(argv[0], option, PORT_USAGE);
        if (!example_number(text, min, max, &value))
            example_refuse(argv[0], option, text, min, max, PORT_USAGE);
        if (strcmp(option, "--workers") == 0)
            a.workers = (unsigned)value;
        else if (strcmp(option, "--reps") == 0)
            a.reps = (int)value;
        else if (strcmp(option, "--policy") == 0)
            a.policy = (int)value;
        else
            a.size = value;
    }
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
        fprintf(stderr, "fj_pool_create_with_parallelism: %s: %s\n", fj_strerror(rc), fj_last_error_detail());
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
