/* harness.c - main() of every C/C++ benchmark binary (see harness.h). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "kernels.h"

/* Input arrays, aligned to 2 MiB and backed by huge pages where the kernel
 * gives them (THP in madvise mode).  With 4 KiB pages, which physical pages
 * back a 1024 x 1024 matrix (8 KiB rows) decides how its 64 x 64 blocks
 * collide in the physically indexed caches, and one process ran matmul in
 * 0.35 s, the next in 0.87 s, whatever the runtime.  Inside a huge page the
 * physical layout follows the virtual one, so every process gets the same. */
#define INPUT_ALIGN ((size_t)2 << 20)

static void *input_alloc(size_t bytes)
{
    size_t rounded = (bytes + INPUT_ALIGN - 1) / INPUT_ALIGN * INPUT_ALIGN;
    void *p = NULL;
    if (posix_memalign(&p, INPUT_ALIGN, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: 4 KiB pages still work */
#endif
    return p;
}

static double clock_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Cores' worth of CPU the process uses while the runtime has no work: after a
 * settling pause (a runtime may spin a while before it sleeps), the process
 * CPU clock over a pause of the main thread.  bench/fine/main.c measures the
 * same way. */
static double idle_cores(void)
{
    struct timespec settle = {0, 50 * 1000 * 1000}, window = {0, 200 * 1000 * 1000};
    nanosleep(&settle, NULL);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
    nanosleep(&window, NULL);
    double c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_s(CLOCK_MONOTONIC);
    return (c1 - c0) / (w1 - w0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s fib|fib-calls|nqueens|sort|matmul|integrate|uts SIZE WORKERS RUNS\n", argv0);
    exit(2);
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

    /* Inputs and references, untimed. */
    uint32_t *keys = NULL, *tmp = NULL;
    double *ma = NULL, *mb = NULL, *mc = NULL;
    long expect = 0;
    /* fib-calls: the serial system's call-for-call fib, a reference for fib. */
    int fib_calls = strcmp(program, "fib-calls") == 0;
    if (fib_calls && strcmp(drv_system, "serial") != 0) {
        fprintf(stderr, "%s: fib-calls is a reference of the serial system only\n", drv_system);
        return 2;
    }
    if (strcmp(program, "fib") == 0 || fib_calls) {
        long f0 = 0, f1 = 1;
        for (long i = 0; i < size; i++) {
            long f2 = f0 + f1;
            f0 = f1;
            f1 = f2;
        }
        expect = f0;
    } else if (strcmp(program, "nqueens") == 0) {
        if (size > KERN_NQ_MAX)
            usage(argv[0]);
        expect = kern_nqueens_expected((int)size);
    } else if (strcmp(program, "sort") == 0) {
        keys = input_alloc(sizeof *keys * (size_t)size);
        tmp = input_alloc(sizeof *tmp * (size_t)size);
    } else if (strcmp(program, "matmul") == 0) {
        if (size < KERN_MM_BASE || (size & (size - 1)) != 0)
            usage(argv[0]);
        size_t nn = (size_t)size * (size_t)size;
        ma = input_alloc(sizeof *ma * nn);
        mb = input_alloc(sizeof *mb * nn);
        mc = input_alloc(sizeof *mc * nn);
    } else if (strcmp(program, "uts") == 0) {
        expect = kern_uts_expected((int)size);
    } else if (strcmp(program, "integrate") != 0) {
        usage(argv[0]);
    }
    if ((strcmp(program, "sort") == 0 && (!keys || !tmp)) || (strcmp(program, "matmul") == 0 && (!ma || !mb || !mc))) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    if (drv_init(workers) != 0) {
        fprintf(stderr, "%s: cannot start with %d workers\n", drv_system, workers);
        return 1;
    }
    double *secs = malloc(sizeof *secs * (size_t)runs);
    int all_ok = secs != NULL;
    /* CPU of the process over the timed runs (their wall time, summed). */
    double busy_cpu = 0, busy_wall = 0;
    for (int r = 0; r < runs && secs; r++) {
        int ok = 0;
        double t0 = 0, t1 = 0, c0 = 0, c1 = 0;
        if (strcmp(program, "fib") == 0 || fib_calls) {
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            long v = fib_calls ? kern_fib_calls((int)size) : drv_fib((int)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = v == expect;
        } else if (strcmp(program, "nqueens") == 0) {
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            long v = drv_nqueens((int)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = v == expect;
        } else if (strcmp(program, "sort") == 0) {
            kern_sort_fill(keys, (size_t)size);
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            drv_sort(keys, tmp, (size_t)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = kern_sort_check(keys, (size_t)size);
        } else if (strcmp(program, "matmul") == 0) {
            kern_mm_fill(ma, mb, mc, (int)size);
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            drv_matmul(ma, mb, mc, (int)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = kern_mm_check(ma, mb, mc, (int)size);
        } else if (strcmp(program, "integrate") == 0) {
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            double v = drv_integrate(0.0, (double)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = kern_integrate_check((double)size, v);
        } else {
            c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = kern_now();
            long v = drv_uts((int)size);
            t1 = kern_now(), c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            ok = v == expect;
        }
        secs[r] = t1 - t0;
        all_ok &= ok;
        busy_wall += secs[r];
        busy_cpu += c1 - c0;
        printf("run %d %.6f %s\n", r + 1, secs[r], ok ? "verified" : "WRONG");
        fflush(stdout);
    }
    double idle = secs && !getenv("BENCH_NO_IDLE") ? idle_cores() : 0.0;
    drv_fini();
    if (!secs)
        return 1;
    qsort(secs, (size_t)runs, sizeof *secs, cmp_double);
    double median = runs % 2 ? secs[runs / 2] : 0.5 * (secs[runs / 2 - 1] + secs[runs / 2]);
    printf("RESULT,%s,%ld,%s,%d,%.6f,%.6f,%.6f,%d,%d\n", program, size, drv_system, workers, median, secs[0],
           secs[runs - 1], runs, all_ok);
    printf("CPU %.2f %.2f\n", busy_wall > 0 ? busy_cpu / busy_wall : 0.0, idle);
    free(secs);
    free(keys);
    free(tmp);
    free(ma);
    free(mb);
    free(mc);
    return all_ok ? 0 : 1;
}
