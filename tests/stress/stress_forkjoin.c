/* stress_forkjoin.c - irregular random fork trees, joined in random orders,
 * with random yields that widen race windows (FJ_TEST_STRESS=1), from several
 * external threads at once.  Every tree's node count must match its serial
 * count exactly. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"

typedef struct tree_task {
    fj_task task;
    uint64_t seed;
    int depth;
    long nodes;
} tree_task;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int children_of(uint64_t seed, int depth) { return depth <= 0 ? 0 : (int)(mix(seed) % 5); }

static long tree_serial(uint64_t seed, int depth)
{
    long nodes = 1;
    int kids = children_of(seed, depth);
    for (int i = 0; i < kids; i++)
        nodes += tree_serial(mix(seed + (uint64_t)i + 1), depth - 1);
    return nodes;
}

static int tree_parallel(fj_task *t)
{
    tree_task *node = FJ_CONTAINER_OF(t, tree_task, task);
    unsigned jitter = (unsigned)node->seed;
    int kids = children_of(node->seed, node->depth);
    tree_task child[4];
    for (int i = 0; i < kids; i++) {
        child[i] = (tree_task){FJ_TASK_INIT(tree_parallel), mix(node->seed + (uint64_t)i + 1), node->depth - 1, 0};
        fj_fork(&child[i].task);
        check_jitter(&jitter);
    }
    node->nodes = 1;
    int first = kids ? (int)(node->seed % (uint64_t)kids) : 0;  /* join in a rotated order */
    for (int k = 0; k < kids; k++) {
        int i = (first + k) % kids;
        CHECK_RC(0, fj_join(&child[i].task));
        node->nodes += child[i].nodes;
        check_jitter(&jitter);
    }
    return 0;
}

typedef struct driver {
    fj_pool *pool;
    int trees;
    long errors;
} driver;

static void *driver_main(void *p)
{
    driver *d = p;
    for (int i = 0; i < d->trees; i++) {
        uint64_t seed = mix((uint64_t)i * 7919 + (uint64_t)(uintptr_t)d);
        int depth = 8 + (int)(seed % 4);
        tree_task root = {FJ_TASK_INIT(tree_parallel), seed, depth, 0};
        if (fj_pool_invoke(d->pool, &root.task) != 0 || root.nodes != tree_serial(seed, depth)) {
            fprintf(stderr, "tree %d (seed %llu): %ld nodes, expected %ld\n", i, (unsigned long long)seed, root.nodes,
                    tree_serial(seed, depth));
            d->errors++;
        }
    }
    return NULL;
}

static void random_trees_from_three_threads(void)
{
    fj_pool *pool = check_pool();
    driver drivers[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) {
        drivers[i] = (driver){pool, (int)check_size(4000, 60), 0};
        CHECK_EQ(0, pthread_create(&threads[i], NULL, driver_main, &drivers[i]));
    }
    for (int i = 0; i < 3; i++) {
        pthread_join(threads[i], NULL);
        CHECK_EQ(0, drivers[i].errors);
    }
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    CHECK_EQ(total.forks + 3 * drivers[0].trees, total.tasks_run);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"random_trees_from_three_threads", random_trees_from_three_threads, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
