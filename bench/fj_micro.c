/* fj_micro.c - microbenchmarks of fj's four basic costs.
 *
 *   forkjoin  fork + join of an empty task that nobody steals (the fast path),
 *             on a worker, in batches of 100000; ns per pair.
 *   steal     a worker forks a task and spins (does not join) until another,
 *             idle-searching worker has started it: push-to-start latency.
 *   wake      a pool whose workers all parked (slept 5 ms idle) gets an
 *             external submit: submit-to-start latency.
 *   invoke    fj_pool_invoke of an empty task from main(), back to back: the
 *             external round trip (injector, wake, run, complete, wake caller).
 *   idle-cpu  CPU time the process uses while the pool sits idle for 1 s.
 *
 * Each prints `MICRO,<name>,<workers>,<median>,<p10>,<p90>,<samples>,<unit>`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "fj.h"
#include "kernels.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, unsigned workers, double *v, int n, const char *unit)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    printf("MICRO,%s,%u,%.1f,%.1f,%.1f,%d,%s\n", name, workers, v[n / 2], v[n / 10], v[n * 9 / 10], n, unit);
    fflush(stdout);
}

static fj_pool *make_pool_spin(unsigned workers, unsigned spin_rounds)
{
    fj_config c;
    fj_config_init(&c);
    c.workers = workers;
    c.spin_rounds = spin_rounds;
    fj_pool *p;
    if (fj_pool_create(&p, &c) != 0) {
        fprintf(stderr, "fj_pool_create failed\n");
        exit(1);
    }
    return p;
}

static fj_pool *make_pool(unsigned workers) { return make_pool_spin(workers, 0); }

/* ---- fork + join, nobody steals ---- */

static int empty_run(fj_task *t) { return 0; }

typedef struct forkjoin_root {
    fj_task task;
    int batches;
    double *ns;
} forkjoin_root;

#define FJ_BATCH 100000

static int forkjoin_run(fj_task *t)
{
    forkjoin_root *r = FJ_CONTAINER_OF(t, forkjoin_root, task);
    for (int b = 0; b < r->batches; b++) {
        double t0 = kern_now();
        for (int i = 0; i < FJ_BATCH; i++) {
            fj_task child = FJ_TASK_INIT(empty_run);
            fj_fork(&child);
            fj_join(&child);
        }
        r->ns[b] = (kern_now() - t0) * 1e9 / FJ_BATCH;
    }
    return 0;
}

static void bench_forkjoin(unsigned workers, int batches)
{
    fj_pool *p = make_pool(workers);
    double ns[256];
    forkjoin_root root = {FJ_TASK_INIT(forkjoin_run), batches, ns};
    fj_pool_invoke(p, &root.task);
    report("forkjoin", workers, ns, batches, "ns");
    fj_pool_destroy(p);
}

/* ---- steal latency ---- */

typedef struct stamp_task {
    fj_task task;
    volatile double started;
} stamp_task;

static int stamp_run(fj_task *t)
{
    stamp_task *s = FJ_CONTAINER_OF(t, stamp_task, task);
    s->started = kern_now();
    return 0;
}

typedef struct steal_root {
    fj_task task;
    int n, got;
    double *ns;
} steal_root;

static int steal_run(fj_task *t)
{
    steal_root *r = FJ_CONTAINER_OF(t, steal_root, task);
    r->got = 0;
    for (int i = 0; i < r->n; i++) {
        stamp_task s = {FJ_TASK_INIT(stamp_run), 0.0};
        double t0 = kern_now();
        fj_fork(&s.task);
        while (s.started == 0.0 && kern_now() - t0 < 1e-3)
            ;
        double started = s.started;
        fj_join(&s.task);
        if (started != 0.0)
            r->ns[r->got++] = (started - t0) * 1e9;
    }
    return 0;
}

/* spin_rounds 0: the defaults (the thief may have parked between pushes);
 * a huge value keeps the thief searching, so this is the steal alone. */
static void bench_steal(const char *name, unsigned workers, int n, unsigned spin_rounds)
{
    fj_pool *p = make_pool_spin(workers, spin_rounds);
    double *ns = malloc(sizeof *ns * (size_t)n);
    steal_root root = {FJ_TASK_INIT(steal_run), n, 0, ns};
    fj_pool_invoke(p, &root.task);
    if (root.got > 0)
        report(name, workers, ns, root.got, "ns");
    if (root.got < n)
        printf("# %s: %d of %d pushes not taken by a thief within 1 ms (joined by the owner)\n", name, n - root.got, n);
    free(ns);
    fj_pool_destroy(p);
}

/* ---- wake-up from a parked pool, and idle CPU ---- */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec * 1e-6;
}

static void bench_wake(unsigned workers, int n)
{
    fj_pool *p = make_pool(workers);
    double *us = malloc(sizeof *us * (size_t)n);
    int done = 0;
    for (int i = 0; i < n; i++) {
        sleep_ms(5);
        stamp_task s = {FJ_TASK_INIT(stamp_run), 0.0};
        double t0 = kern_now();
        if (fj_pool_submit(p, &s.task) != 0)
            break;
        fj_join(&s.task);
        us[done++] = (s.started - t0) * 1e6;
    }
    report("wake", workers, us, done, "us");
    /* Idle CPU: let everyone park, then measure a second of idleness. */
    sleep_ms(50);
    double c0 = cpu_seconds(), w0 = kern_now();
    sleep_ms(1000);
    double cpu = cpu_seconds() - c0, wall = kern_now() - w0;
    double idle_ms[1] = {cpu / wall * 1e3};
    report("idle-cpu", workers, idle_ms, 1, "ms-cpu-per-s");
    free(us);
    fj_pool_destroy(p);
}

/* ---- external invoke round trip ---- */

static void bench_invoke(unsigned workers, int n)
{
    fj_pool *p = make_pool(workers);
    double *us = malloc(sizeof *us * (size_t)n);
    for (int i = 0; i < n; i++) {
        fj_task t = FJ_TASK_INIT(empty_run);
        double t0 = kern_now();
        fj_pool_invoke(p, &t);
        us[i] = (kern_now() - t0) * 1e6;
    }
    report("invoke", workers, us, n, "us");
    free(us);
    fj_pool_destroy(p);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    unsigned maxw = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    for (unsigned w = 1; w <= maxw; w = w == 1 ? 2 : (w == maxw ? maxw + 1 : maxw)) {
        bench_forkjoin(w, quick ? 21 : 101);
        if (w > 1) {
            bench_steal("steal-spinning", w, quick ? 2000 : 20000, 1u << 30);
            bench_steal("steal-default", w, quick ? 2000 : 20000, 0);
        }
        bench_wake(w, quick ? 100 : 300);
        bench_invoke(w, quick ? 20000 : 100000);
    }
    return 0;
}
