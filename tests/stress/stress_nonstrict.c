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

/* ---- the same with typed tasks: FJ_SPAWN / FJ_SYNC nodes and classic
 * sidekicks that join across the tree ----
 * A node forks one sidekick per child, then spawns the children.  A sidekick
 * joins some of its earlier siblings' sidekicks; a child joins some sidekicks
 * of its own and earlier siblings and of its parent's earlier siblings: all
 * forked before it starts, all finished at their forks in a serial execution.
 * A typed sync that waits also helps the thieves of its run's older frames
 * (runtime/frame.c, point 2), which here run nodes and sidekicks that join
 * across the tree: a helped task that could join one suspended below it would
 * hang the case. */
typedef struct typed_node {
    fj_task sidekick;
    uint64_t seed;
    int depth;
    struct typed_node *siblings;  /* the parent's children, this node among them */
    int index;                    /* siblings[0..index-1] come before us */
    struct typed_node *aunts;     /* the parent's siblings, NULL at the root */
    int aunt_count;               /* aunts[0..aunt_count-1] come before our parent */
} typed_node;

static void join_sidekicks(typed_node *nodes, int count, uint64_t choice)
{
    for (int j = 0; j < count; j++, choice >>= 1)
        if (choice & 1)
            CHECK_RC(0, fj_join(&nodes[j].sidekick));
}

static int sidekick_run(fj_task *t)
{
    typed_node *node = FJ_CONTAINER_OF(t, typed_node, sidekick);
    join_sidekicks(node->siblings, node->index, mix(node->seed ^ 0x3c6ef372u));
    return 0;
}

FJ_TASK(long, typed_dag, typed_node *, node)
{
    unsigned jitter = (unsigned)node->seed;
    uint64_t choice = mix(node->seed ^ 0x5bd1e995u);
    if (node->aunts) {  /* not the root: the parent forked our sidekick and our siblings' */
        join_sidekicks(node->siblings, node->index + 1, choice);
        join_sidekicks(node->aunts, node->aunt_count, choice >> 8);
    }
    int kids = children_of(node->seed, node->depth);
    typed_node child[DAG_FANOUT_MAX];
    for (int i = 0; i < kids; i++) {
        child[i] = (typed_node){FJ_TASK_INIT(sidekick_run), mix(node->seed + (uint64_t)i + 1), node->depth - 1,
                                child, i, node->siblings, node->index};
        CHECK_RC(0, fj_fork(&child[i].sidekick));
    }
    for (int i = 0; i < kids; i++) {
        FJ_SPAWN(typed_dag, &child[i]);
        check_jitter(&jitter);
    }
    long nodes = 1;
    for (int i = 0; i < kids; i++) {
        nodes += FJ_SYNC(typed_dag);
        check_jitter(&jitter);
    }
    /* Every sidekick is joined before `child` goes out of scope. */
    for (int i = 0; i < kids; i++)
        CHECK_RC(0, fj_join(&child[i].sidekick));
    return nodes;
}

static void typed_nodes_and_sidekicks_join_across(void)
{
    fj_pool *pool = check_pool();
    int dags = (int)check_size(4000, 100);
    for (int i = 0; i < dags; i++) {
        uint64_t seed = mix((uint64_t)i * 7919 + 0x2545f4914f6cdd1dull);
        int depth = 6 + (int)(seed % 4);
        typed_node root = {FJ_TASK_INIT(sidekick_run), seed, depth, NULL, 0, NULL, 0};
        root.siblings = &root;  /* the root's sidekick is neither forked nor joined */
        int rc = -1;
        long nodes = FJ_RUN_RC(pool, &rc, typed_dag, &root);
        CHECK_RC(0, rc);
        CHECK_EQ(dag_serial(seed, depth), nodes);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"sibling_and_aunt_joins_complete", sibling_and_aunt_joins_complete, CHECK_PER_WORKERS},
    {"sibling_and_aunt_joins_from_three_threads", sibling_and_aunt_joins_from_three_threads, CHECK_PER_WORKERS},
    {"typed_nodes_and_sidekicks_join_across", typed_nodes_and_sidekicks_join_across, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
