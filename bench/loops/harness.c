/* harness.c - see harness.h.  The dynamic-schedule chunk (the `grain` passed
 * to each system) is n / (workers * 256), the grain fj picks by itself. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench_one(const loop_system *s, loop_input *in, int runs, uint64_t expected)
{
    double times[64];
    int verified = 1;
    int64_t grain = in->n / ((int64_t)in->workers * 256);
    if (grain < 1)
        grain = 1;
    s->run(in, grain); /* warm-up: threads started, caches and pages touched */
    for (int r = 0; r < runs; r++) {
        memset(in->out, 0, (size_t)in->n * sizeof *in->out);
        double t0 = now_s();
        s->run(in, grain);
        times[r] = now_s() - t0;
        verified &= loop_checksum(in) == expected;
    }
    qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
    double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
    printf("%s,%lld,%s,%u,%.6f,%.6f,%.6f,%d,%s\n", loop_program_names[in->program], (long long)in->n, s->name,
           in->workers, median, times[0], times[runs - 1], runs, verified ? "yes" : "no");
    fflush(stdout);
}

int loop_bench_main(int argc, char **argv, const loop_system *systems, int count, void (*setup)(unsigned workers))
{
    long long size = 1000000;
    unsigned workers = 2;
    int runs = 5;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--size") == 0)
            size = atoll(argv[i + 1]);
        else if (strcmp(argv[i], "--workers") == 0)
            workers = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--program") == 0)
            only = argv[i + 1];
    }
    if (runs < 1 || runs > 64 || size < 1 || workers < 1) {
        fprintf(stderr, "usage: %s --size N --workers W --runs R(1..64) [--program NAME]\n", argv[0]);
        return 2;
    }
    if (setup)
        setup(workers);
    loop_input in = {0, size, workers, malloc((size_t)size * sizeof(uint64_t))};
    if (!in.out)
        return 1;
    for (int p = 0; p < PROGRAM_COUNT; p++) {
        if (only && strcmp(only, loop_program_names[p]) != 0)
            continue;
        in.program = p;
        loop_leaf(&in, 0, in.n);
        uint64_t expected = loop_checksum(&in);
        for (int k = 0; k < count; k++)
            bench_one(&systems[k], &in, runs, expected);
    }
    free(in.out);
    return 0;
}
