/* stress_nonstrict.c - random non-strict fork/join DAGs: tasks join tasks that
 * other tasks forked (earlier siblings, earlier siblings of their parent), as
 * include/fj.h allows ("Tasks may be joined in any order, and by a thread
 * other than the forker").  Every join targets a task that a serial execution
 * (each fork runs at once) would already have finished, so the program cannot
 * deadlock by itself; a hang is the scheduler's fault.  Before the helping
 * policy of task.c was restricted, a joiner helped with unrelated work and that
 * work could join a task below it on the same stack: this test hung (it fails
 * through the time limit of tests/run-tests.sh).  Every DAG's node count must
 * match its serial count exactly. */ 
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"

#define DAG_FANOUT_MAX 5

typedef struct dag_node {
    fj_task task;
    uint64_t seed;
    int depth;
    struct dag_node *siblings;  /* the array this node lives in (its parent's children) */
    int index;                  /* our place in it: siblings[0..index-1] were forked before us */
    struct dag_node *aunts;     /* the parent's siblings array, NULL at the root */
    int aunt_count;             /* aunts[0..aunt_count-1] were forked before our parent */
    long nodes;
} dag_node;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int children_of(uint64_t seed, int depth) { return depth <= 0 ? 0 : (int)(mix(seed) % (DAG_FANOUT_MAX + 1)); }

static long dag_serial(uint64_t seed, int depth)
{
    long nodes = 1;
    int kids = children_of(seed, depth);
    for (int i = 0; i < kids; i++)
        nodes += dag_serial(mix(seed + (uint64_t)i + 1), depth - 1);
    return nodes;
}

/* Joins some earlier siblings and some earlier siblings of the parent: tasks
 * this node did not fork, which a serial execution has finished by now. */
static void join_relatives(const dag_node *node, uint64_t choice)
{
    for (int j = 0; j < node->index; j++, choice >>= 1)
        if (choice & 1)
            CHECK_RC(0, fj_join(&node->siblings[j].task));
    for (int j = 0; j < node->aunt_count; j++, choice >>= 2)
        if ((choice & 3) == 0)
            CHECK_RC(0, fj_join(&node->aunts[j].task));
}

static int dag_run(fj_task *t)
{
    dag_node *node = FJ_CONTAINER_OF(t, dag_node, task);
    unsigned jitter = (unsigned)node->seed;
    uint64_t choice = mix(node->seed ^ 0x5bd1e995u);
    int kids = children_of(node->seed, node->depth);
    bool relatives_first = choice & 1;
    if (relatives_first)
        join_relatives(node, choice >> 1);
    dag_node child[DAG_FANOUT_MAX];
    for (int i = 0; i < kids; i++) {
        child[i] = (dag_node){FJ_TASK_INIT(dag_run), mix(node->seed + (uint64_t)i + 1), node->depth - 1, child, i,
                              node->siblings, node->index, 0};
        CHECK_RC(0, fj_fork(&child[i].task));
        check_jitter(&jitter);
    }
    if (!relatives_first)
        join_relatives(node, choice >> 1);
    /* Every child is joined here before `child` goes out of scope (a sibling
     * may have joined it already: joining a finished task again is allowed). */
    node->nodes = 1;
    int first = kids ? (int)(node->seed % (uint64_t)kids) : 0;
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
    int dags;
    uint64_t salt;
    long errors;
} driver;

static void *driver_main(void *p)
{
    driver *d = p;
    for (int i = 0; i < d->dags; i++) {
        uint64_t seed = mix((uint64_t)i * 7919 + d->salt);
        int depth = 6 + (int)(seed % 4);
        dag_node root = {FJ_TASK_INIT(dag_run), seed, depth, NULL, 0, NULL, 0, 0};
        root.siblings = &root;
        int rc = fj_pool_invoke(d->pool, &root.task);
        if (rc != 0 || root.nodes != dag_serial(seed, depth)) {
            fprintf(stderr, "dag %d (seed %llu): rc %d, %ld nodes, expected %ld\n", i, (unsigned long long)seed, rc,
                    root.nodes, dag_serial(seed, depth));
            d->errors++;
        }
    }
    return NULL;
}

static void run_drivers(int threads)
{
    fj_pool *pool = check_pool();
    driver drivers[4];
    pthread_t ids[4];
    for (int i = 0; i < threads; i++) {
        drivers[i] = (driver){pool, (int)check_size(4000, 100), (uint64_t)(i + 1) * 0x2545f4914f6cdd1dull, 0};
        CHECK_EQ(0, pthread_create(&ids[i], NULL, driver_main, &drivers[i]));
    }
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        CHECK_EQ(0, drivers[i].errors);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void sibling_and_aunt_joins_complete(void) { run_drivers(1); }

static void sibling_and_aunt_joins_from_three_threads(void) { run_drivers(3); }

static const check_case cases[] = {
    {"sibling_and_aunt_joins_complete", sibling_and_aunt_joins_complete, CHECK_PER_WORKERS},
    {"sibling_and_aunt_joins_from_three_threads", sibling_and_aunt_joins_from_three_threads, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
