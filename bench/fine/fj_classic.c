/* fj_classic.c - the "fj-classic" system: the fine-grained programs with fj's
 * classic API (a task struct on the stack, fj_fork / fj_join), the shape of
 * examples/fib.c.  Each run is one fj_pool_invoke of a root task. */
#include <stdio.h>
#include <stdlib.h>

#include "fine.h"
#include "fj.h"
#include "../fj_pool.h"

const char *const fine_system = "fj-classic";
static fj_pool *pool;

int fine_init(int workers) { return bench_fj_pool_create(&pool, (unsigned)workers); }

void fine_fini(void) { bench_fj_pool_destroy(pool); }

static void invoke(fj_task *root)
{
    int rc = fj_pool_invoke(pool, root);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_invoke: %s\n", fj_strerror(rc));
        exit(1);
    }
}

/* ---- fib ---- */

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

static int fib_run(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_run), f->n - 1, 0};
    fib_task b = {FJ_TASK_INIT(fib_run), f->n - 2, 0};
    fj_fork(&a.task);
    fib_run(&b.task);
    fj_join(&a.task);
    f->result = a.result + b.result;
    return 0;
}

/* Each program's root: the recursion as a direct call, counted under
 * callgrind on the worker that runs it (fine.h). */
static int fib_root(fj_task *t)
{
    FINE_COUNT_TOGGLE();
    fib_run(t);
    FINE_COUNT_TOGGLE();
    return 0;
}

long fine_fib(int n)
{
    fib_task root = {FJ_TASK_INIT(fib_root), n, 0};
    invoke(&root.task);
    return root.result;
}

/* ---- dfs: every child forked, then all joined, newest first ---- */

typedef struct dfs_task {
    fj_task task;
    int depth;
    long leaves;
} dfs_task;

static int dfs_run(fj_task *t)
{
    dfs_task *d = FJ_CONTAINER_OF(t, dfs_task, task);
    if (d->depth == 0) {
        d->leaves = 1;
        return 0;
    }
    dfs_task child[FINE_DFS_BREADTH];
    for (int i = 0; i < FINE_DFS_BREADTH; i++) {
        fj_task_init(&child[i].task, dfs_run);
        child[i].depth = d->depth - 1;
        child[i].leaves = 0;
        fj_fork(&child[i].task);
    }
    long leaves = 0;
    for (int i = FINE_DFS_BREADTH - 1; i >= 0; i--) {
        fj_join(&child[i].task);
        leaves += child[i].leaves;
    }
    d->leaves = leaves;
    return 0;
}

static int dfs_root(fj_task *t)
{
    FINE_COUNT_TOGGLE();
    dfs_run(t);
    FINE_COUNT_TOGGLE();
    return 0;
}

long fine_dfs(int depth)
{
    dfs_task root = {FJ_TASK_INIT(dfs_root), depth, 0};
    invoke(&root.task);
    return root.leaves;
}

/* ---- knapsack ---- */

typedef struct knap_task {
    fj_task task;
    const fine_item *e;
    long c, v;
    int n;
    long best;
} knap_task;

static int knap_run(fj_task *t)
{
    knap_task *k = FJ_CONTAINER_OF(t, knap_task, task);
    if (k->c < 0) {
        k->best = FINE_KNAP_NONE;
        return 0;
    }
    if (k->n == 0) {
        k->best = k->v;
        return 0;
    }
    if (fine_knap_pruned(fine_knap_bound(k->e, k->c, k->v))) {
        k->best = FINE_KNAP_NONE;
        return 0;
    }
    knap_task without = {FJ_TASK_INIT(knap_run), k->e + 1, k->c, k->v, k->n - 1, 0};
    knap_task with = {FJ_TASK_INIT(knap_run), k->e + 1, k->c - k->e->weight, k->v + k->e->value, k->n - 1, 0};
    fj_fork(&without.task);
    knap_run(&with.task);
    fj_join(&without.task);
    k->best = with.best > without.best ? with.best : without.best;
    fine_knap_offer(k->best);
    return 0;
}

static int knap_root(fj_task *t)
{
    FINE_COUNT_TOGGLE();
    knap_run(t);
    FINE_COUNT_TOGGLE();
    return 0;
}

long fine_knapsack(const fine_item *items, int n, long capacity)
{
    knap_task root = {FJ_TASK_INIT(knap_root), items, capacity, 0, n, 0};
    invoke(&root.task);
    return root.best;
}

/* ---- pi ---- */

typedef struct pi_task {
    fj_task task;
    uint64_t first;
    long count, hits;
} pi_task;

static int pi_run(fj_task *t)
{
    pi_task *p = FJ_CONTAINER_OF(t, pi_task, task);
    if (p->count == 1) {
        p->hits = fine_pi_hit(p->first);
        return 0;
    }
    long half = p->count / 2;
    pi_task a = {FJ_TASK_INIT(pi_run), p->first, half, 0};
    pi_task b = {FJ_TASK_INIT(pi_run), p->first + (uint64_t)half, p->count - half, 0};
    fj_fork(&a.task);
    pi_run(&b.task);
    fj_join(&a.task);
    p->hits = a.hits + b.hits;
    return 0;
}

static int pi_root(fj_task *t)
{
    FINE_COUNT_TOGGLE();
    pi_run(t);
    FINE_COUNT_TOGGLE();
    return 0;
}

long fine_pi(long samples)
{
    pi_task root = {FJ_TASK_INIT(pi_root), 0, samples, 0};
    invoke(&root.task);
    return root.hits;
}
