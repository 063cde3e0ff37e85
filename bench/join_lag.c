/* join_lag.c - how long a join stays busy after its stolen child finished.
 *
 * A filler keeps every worker supplied with unrelated work in 1 ms leaves (a
 * divide-and-conquer tree submitted again and again from its own thread).  A
 * measuring task forks a child of 1 ms, waits until another worker has taken
 * it (a handshake on a flag the child sets, no sleep), and joins it.  The lag
 * is the time from the child's last instruction to the join's return: what
 * helping with other work costs the joiner.  200 joins; p50 and p99 printed.
 * Usage: join_lag [--workers N] [--joins N] [--leaf-us N] [--histogram]
 * (issue #13's bar: p99 <= 5 ms).  --leaf-us changes the length of every leaf
 * and of the child (default 1000); --histogram prints how many lags fall in
 * each 0.1 ms bin, which shows what the joiner waited for (docs/performance.md:
 * with more workers than cores the lags come in multiples of the leaf length).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fj.h"
#include "spin_clock.h"

static long long leaf_ns = 1000000LL;

/* ---- the filler: unrelated work in 1 ms leaves ---- */

typedef struct range_task {
    fj_task task;
    int from, to;
} range_task;

static int range_run(fj_task *t)
{
    range_task *r = FJ_CONTAINER_OF(t, range_task, task);
    if (r->to - r->from <= 1) {
        spin_for(leaf_ns);
        return 0;
    }
    int mid = r->from + (r->to - r->from) / 2;
    range_task left = {FJ_TASK_INIT(range_run), r->from, mid};
    range_task right = {FJ_TASK_INIT(range_run), mid, r->to};
    fj_fork(&left.task);
    range_run(&right.task);
    return fj_join(&left.task);
}

typedef struct filler {
    fj_pool *pool;
    volatile int stop;
} filler;

static void *filler_main(void *arg)
{
    filler *f = arg;
    while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
        /* 16 leaves: a worker that ran a tree takes the next one from the
         * injector before it steals, so the measured child is stolen mostly
         * at the end of a tree; with 256-leaf trees a 2-worker run gave up
         * on its child (50 ms) 36 times per steal and took minutes. */
        range_task root = {FJ_TASK_INIT(range_run), 0, 16};
        if (fj_pool_invoke(f->pool, &root.task) != 0)
            break;
    }
    return NULL;
}

/* ---- the measured joins ---- */

typedef struct child_task {
    fj_task task;
    int started;            /* set by the child: it has been taken */
    long long finished_ns;  /* the child's last timestamp */
} child_task;

static int child_run(fj_task *t)
{
    child_task *c = FJ_CONTAINER_OF(t, child_task, task);
    __atomic_store_n(&c->started, 1, __ATOMIC_RELEASE);
    spin_for(leaf_ns);
    c->finished_ns = now_ns();
    return 0;
}

typedef struct measure_task {
    fj_task task;
    int joins;
    long long *lags;
    int stolen;
    unsigned long long helped;  /* tasks the measuring worker ran inside its joins */
} measure_task;

/* Tasks this worker ran while waiting in joins so far (helps + leapfrogs). */
static unsigned long long helped_so_far(void)
{
    fj_worker_stats per[64];
    int n = fj_pool_stats(fj_current_pool(), per, 64, NULL);
    int me = fj_current_worker_index();
    return me >= 0 && me < n && me < 64 ? per[me].helps + per[me].leapfrogs : 0;
}

static int measure_run(fj_task *t)
{
    measure_task *m = FJ_CONTAINER_OF(t, measure_task, task);
    for (int i = 0; i < m->joins; i++) {
        child_task c = {FJ_TASK_INIT(child_run), 0, 0};
        fj_fork(&c.task);
        /* Wait until a thief took it; give up after 50 ms and take it back
         * (then the join is inline and not counted). */
        long long give_up = now_ns() + 50 * 1000000LL;
        while (!__atomic_load_n(&c.started, __ATOMIC_ACQUIRE) && now_ns() < give_up) {
        }
        int was_stolen = __atomic_load_n(&c.started, __ATOMIC_ACQUIRE);
        unsigned long long helped_before = helped_so_far();
        fj_join(&c.task);
        long long returned = now_ns();
        if (was_stolen) {
            m->helped += helped_so_far() - helped_before;
            long long lag = returned - c.finished_ns;
            m->lags[m->stolen++] = lag > 0 ? lag : 0;
        } else {
            i--;  /* not stolen: measure again */
        }
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Sorted lags in 0.1 ms bins: "from-ms: count" for every bin that is not empty. */
static void print_histogram(const long long *sorted, int n)
{
    printf("lag histogram (0.1 ms bins):");
    for (int i = 0; i < n;) {
        long long bin = sorted[i] / 100000;
        int count = 0;
        while (i < n && sorted[i] / 100000 == bin) {
            count++;
            i++;
        }
        printf(" %.1f:%d", bin / 10.0, count);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    unsigned workers = 2;
    int joins = 200;
    bool histogram = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--histogram") == 0) {
            histogram = true;
            continue;
        }
        const char *name = argv[i], *value = i + 1 < argc ? argv[++i] : "0";
        if (strcmp(name, "--workers") == 0)
            workers = (unsigned)atoi(value);
        else if (strcmp(name, "--joins") == 0)
            joins = atoi(value);
        else if (strcmp(name, "--leaf-us") == 0)
            leaf_ns = atoll(value) * 1000LL;
        else {
            fprintf(stderr, "join_lag: unknown argument %s\n", name);
            return 2;
        }
    }
    if (workers < 1 || joins < 1 || leaf_ns < 1000) {
        fprintf(stderr, "join_lag: --workers, --joins and --leaf-us must be positive\n");
        return 2;
    }
    fj_config config;
    fj_config_init(&config);
    config.workers = workers;
    fj_pool *pool;
    int rc = fj_pool_create(&pool, &config);
    if (rc != 0) {
        fprintf(stderr, "join_lag: fj_pool_create: %s %s\n", fj_strerror(rc), fj_last_error_detail());
        return 1;
    }
    filler f = {pool, 0};
    pthread_t filler_thread;
    pthread_create(&filler_thread, NULL, filler_main, &f);
    long long *lags = calloc((size_t)joins, sizeof *lags);
    measure_task m = {FJ_TASK_INIT(measure_run), joins, lags, 0, 0};
    fj_pool_invoke(pool, &m.task);
    __atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
    pthread_join(filler_thread, NULL);
    fj_pool_destroy(pool);
    qsort(lags, (size_t)m.stolen, sizeof *lags, by_value);
    double p50 = lags[m.stolen / 2] / 1e6, p99 = lags[(m.stolen * 99) / 100] / 1e6, max = lags[m.stolen - 1] / 1e6;
    printf("join-lag workers=%u joins=%d p50=%.3f ms p99=%.3f ms max=%.3f ms (bar: p99 <= 5 ms: %s); "
           "tasks run inside the joins: %llu\n",
           workers, m.stolen, p50, p99, max, p99 <= 5.0 ? "met" : "NOT met", m.helped);
    if (histogram)
        print_histogram(lags, m.stolen);
    free(lags);
    return 0;
}
