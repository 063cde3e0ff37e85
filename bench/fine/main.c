/* main.c - main() of every fine-grained benchmark binary (see fine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fine.h"


long fine_knap_best;

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s fib|dfs|knapsack|pi SIZE WORKERS RUNS\n", argv0);
    exit(2);
}

/* ---- inputs and serial twins (untimed) ---- */

static long fib_iterative(long n)
{
    long a = 0, b = 1;
    for (long i = 0; i < n; i++) {
        long c = a + b;
        a = b;
        b = c;
    }
    return a;
}

static long power(long base, int exp)
{
    long r = 1;
    while (exp-- > 0)
        r *= base;
    return r;
}

/* Items with weights 20..99 and values close to their weights (a strongly
 * correlated instance, where bounds prune little), from a fixed seed, sorted
 * by value/weight, best first (ties by weight, then value, so the order is a
 * function of the items alone). */
static int cmp_ratio(const void *pa, const void *pb)
{
    const fine_item *a = pa, *b = pb;
    long l = a->value * b->weight, r = b->value * a->weight;
    if (l != r)
        return l > r ? -1 : 1;
    if (a->weight != b->weight)
        return a->weight < b->weight ? -1 : 1;
    return (a->value > b->value) - (a->value < b->value);
}

static fine_item *knapsack_input(int n, long *capacity)
{
    fine_item *items = malloc(sizeof *items * (size_t)n);
    if (!items)
        return NULL;
    uint64_t state = 12345;
    long total = 0;
    for (int i = 0; i < n; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        items[i].weight = 20 + (long)((state >> 33) % 80);
        items[i].value = items[i].weight + 5 + (long)((state >> 45) % 11);
        total += items[i].weight;
    }
    qsort(items, (size_t)n, sizeof *items, cmp_ratio);
    *capacity = total / 2;
    return items;
}

/* The optimum by dynamic programming over capacities: no shared code with the
 * branch and bound it checks. */
static long knapsack_dp(const fine_item *items, int n, long capacity)
{
    long *best = calloc((size_t)capacity + 1, sizeof *best);
    if (!best)
        return -2;
    for (int i = 0; i < n; i++)
        for (long c = capacity; c >= items[i].weight; c--) {
            long with = best[c - items[i].weight] + items[i].value;
            if (with > best[c])
                best[c] = with;
        }
    long r = best[capacity];
    free(best);
    return r;
}

static long pi_loop(long samples)
{
    long hits = 0;
    for (long i = 0; i < samples; i++)
        hits += fine_pi_hit((uint64_t)i);
    return hits;
}

/* ---- one timed run ---- */

static long run_once(const char *program, long size, const fine_item *items, long capacity)
{
    if (strcmp(program, "fib") == 0)
        return fine_fib((int)size);
    if (strcmp(program, "dfs") == 0)
        return fine_dfs((int)size);
    if (strcmp(program, "knapsack") == 0)
        return fine_knapsack(items, (int)size, capacity);
    return fine_pi(size);
}

/* Cores' worth of CPU the process uses while the runtime has no work: after a
 * settling pause (a runtime may spin a while before it sleeps), the process
 * CPU clock over a pause of the main thread. */
static double idle_cores(void)
{
    struct timespec settle = {0, 50 * 1000 * 1000}, window = {0, 200 * 1000 * 1000};
    nanosleep(&settle, NULL);
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
    nanosleep(&window, NULL);
    double c1 = now(CLOCK_PROCESS_CPUTIME_ID), w1 = now(CLOCK_MONOTONIC);
    return (c1 - c0) / (w1 - w0);
}

int main(int argc, char **argv)
{
    if (argc != 5)
        usage(argv[0]);
    const char *program = argv[1];
    long size = strtol(argv[2], NULL, 10);
    int workers = atoi(argv[3]), runs = atoi(argv[4]);
    if (size <= 0 || workers <= 0 || runs <= 0 || runs > 1000)
        usage(argv[0]);

    fine_item *items = NULL;
    long capacity = 0, expect = 0;
    if (strcmp(program, "fib") == 0) {
        if (size > 90)
            usage(argv[0]);
        expect = fib_iterative(size);
    } else if (strcmp(program, "dfs") == 0) {
        if (size > 20)
            usage(argv[0]);
        expect = power(FINE_DFS_BREADTH, (int)size);
    } else if (strcmp(program, "knapsack") == 0) {
        if (size > 1000)
            usage(argv[0]);
        items = knapsack_input((int)size, &capacity);
        if (!items) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        expect = knapsack_dp(items, (int)size, capacity);
    } else if (strcmp(program, "pi") == 0) {
        expect = pi_loop(size);
    } else {
        usage(argv[0]);
    }

    if (fine_init(workers) != 0) {
        fprintf(stderr, "%s: cannot start with %d workers\n", fine_system, workers);
        return 1;
    }
    double *secs = malloc(sizeof *secs * (size_t)runs);
    if (!secs) {
        fine_fini();
        return 1;
    }
    int all_ok = 1;
    double busy_cpu = 0, busy_wall = 0;
    for (int r = 0; r < runs; r++) {
        fine_knap_best = 0;
        double c0 = now(CLOCK_PROCESS_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);
        long v = run_once(program, size, items, capacity);
        double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
        secs[r] = t1 - t0;
        busy_cpu += c1 - c0;
        busy_wall += t1 - t0;
        int ok = v == expect;
        all_ok &= ok;
        printf("run %d %.6f %s\n", r + 1, secs[r], ok ? "verified" : "WRONG");
        if (!ok)
            fprintf(stderr, "%s %s %ld: got %ld, expected %ld\n", fine_system, program, size, v, expect);
        fflush(stdout);
    }
    /* BENCH_NO_IDLE: skip the idle pause (under valgrind it only costs time) */
    double idle = getenv("BENCH_NO_IDLE") ? 0.0 : idle_cores();
    fine_fini();
    qsort(secs, (size_t)runs, sizeof *secs, cmp_double);
    double median = runs % 2 ? secs[runs / 2] : 0.5 * (secs[runs / 2 - 1] + secs[runs / 2]);
    printf("RESULT,%s,%ld,%s,%d,%.6f,%.6f,%.6f,%d,%d\n", program, size, fine_system, workers, median, secs[0],
           secs[runs - 1], runs, all_ok);
    printf("CPU %.2f %.2f\n", busy_wall > 0 ? busy_cpu / busy_wall : 0.0, idle);
    free(secs);
    free(items);
    return all_ok ? 0 : 1;
}
