/* stats.c - per-worker counters: snapshot, sum and the FJ_STATS table. */
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "worker.h"

static void snapshot(const fj_worker *w, fj_worker_stats *out)
{
    const worker_counters *c = &w->count;
    out->inline_joins = atomic_load(&c->inline_joins);
    out->tasks_run = atomic_load(&c->tasks_run) + out->inline_joins - atomic_load(&c->inline_skipped);
    out->forks = atomic_load(&c->forks);
    out->steals = atomic_load(&c->steals);
    out->failed_steals = atomic_load(&c->failed_steals);
    out->leapfrogs = atomic_load(&c->leapfrogs);
    out->helps = atomic_load(&c->helps);
    out->injector_takes = atomic_load(&c->injector_takes);
    out->parks = atomic_load(&c->parks);
    out->wakeups = atomic_load(&c->wakeups);
    out->unsynced = atomic_load(&c->unsynced);
}

static void accumulate(fj_worker_stats *sum, const fj_worker_stats *row)
{
    sum->tasks_run += row->tasks_run;
    sum->forks += row->forks;
    sum->inline_joins += row->inline_joins;
    sum->steals += row->steals;
    sum->failed_steals += row->failed_steals;
    sum->leapfrogs += row->leapfrogs;
    sum->helps += row->helps;
    sum->injector_takes += row->injector_takes;
    sum->parks += row->parks;
    sum->wakeups += row->wakeups;
    sum->unsynced += row->unsynced;
}

int fj_pool_stats(const fj_pool *pool, fj_worker_stats *per_worker, unsigned capacity, fj_worker_stats *total)
{
    if (!pool)
        return FJ_EINVAL;
    if (total)
        memset(total, 0, sizeof *total);
    for (unsigned i = 0; i < pool->count; i++) {
        fj_worker_stats row;
        snapshot(pool->workers[i], &row);
        if (per_worker && i < capacity)
            per_worker[i] = row;
        if (total)
            accumulate(total, &row);
    }
    return (int)pool->count;
}

static void print_row(FILE *out, const char *label, const fj_worker_stats *r)
{
    fprintf(out, "%-7s %11llu %11llu %11llu %9llu %9llu %9llu %9llu %8llu %7llu %7llu\n", label, r->tasks_run, r->forks,
            r->inline_joins, r->steals, r->failed_steals, r->leapfrogs, r->helps, r->injector_takes, r->parks, r->wakeups);
}

int fj_pool_print_stats(const fj_pool *pool, FILE *out)
{
    if (!pool || !out)
        return FJ_EINVAL;
    fprintf(out, "%s\n", fence_mode_description());
    fprintf(out, "%-7s %11s %11s %11s %9s %9s %9s %9s %8s %7s %7s\n", "worker", "tasks_run", "forks", "inline_join",
            "steals", "failed", "leapfrogs", "helps", "injector", "parks", "wakeups");
    fj_worker_stats total;
    memset(&total, 0, sizeof total);
    for (unsigned i = 0; i < pool->count; i++) {
        fj_worker_stats row;
        char label[16];
        snapshot(pool->workers[i], &row);
        accumulate(&total, &row);
        snprintf(label, sizeof label, "%u", i);
        print_row(out, label, &row);
    }
    print_row(out, "total", &total);
    /* Flushed first: a buffered stream shows a failed write only then. */
    return fflush(out) != 0 || ferror(out) ? FJ_ESYSTEM : 0;
}

void stats_print_if_asked(const fj_pool *pool)
{
    const char *flag = getenv("FJ_STATS");
    if (flag && strcmp(flag, "0") != 0 && *flag)
        fj_pool_print_stats(pool, stderr);
}
