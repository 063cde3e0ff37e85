/* stress_typed.c - irregular random trees of typed tasks, with fj_tasks forked
 * among them and joined out of order, spin leaves that give thieves time to
 * take frames, random yields that widen race windows (FJ_TEST_STRESS=1),
 * subtrees run at once by a nested FJ_RUN between the spawns, and several
 * external threads calling FJ_RUN at once.  Every tree's node count and
 * checksum must match its serial twin exactly: a frame lost, run twice, or
 * whose result is read before its thief published it, changes them. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int children_of(uint64_t seed, int depth) { return depth <= 0 ? 0 : (int)(mix(seed) % 6); }

typedef struct tally {
    long nodes;
    uint64_t sum;
} tally;

static tally tree_serial(uint64_t seed, int depth)
{
    tally t = {1, seed};
    int kids = children_of(seed, depth);
    for (int i = 0; i < kids; i++) {
        tally c = tree_serial(mix(seed + (uint64_t)i + 1), depth - 1);
        t.nodes += c.nodes;
        t.sum += c.sum * (uint64_t)(i + 1);
    }
    return t;
}

/* An fj_task forked among the typed spawns: counts a subtree serially. */
typedef struct side_task {
    fj_task task;
    uint64_t seed;
    int depth;
    tally result;
} side_task;

static int side_run(fj_task *t)
{
    side_task *s = FJ_CONTAINER_OF(t, side_task, task);
    s->result = tree_serial(s->seed, s->depth);
    return 0;
}

static void spin_a_little(uint64_t seed)
{
    for (unsigned i = (unsigned)(seed % 64); i > 0; i--)
        __asm__ volatile("" ::: "memory");
}

/* Children 1..kids-1 are spawned (or, one in four, forked as fj_tasks; or,
 * one in eight of the rest, run at once by a nested FJ_RUN, whose spawns raise
 * the spawn guard: the spawns after it must still go above the fj_tasks forked
 * before it), child 0 is called, then the spawns are synced newest first and
 * the fj_tasks joined oldest first (out of order). */
FJ_TASK(tally, tree, uint64_t, seed, int, depth)
{
    unsigned jitter = (unsigned)seed;
    int kids = children_of(seed, depth);
    tally t = {1, seed};
    if (kids == 0) {
        spin_a_little(seed);
        return t;
    }
    side_task side[6];
    int is_side[6] = {0};
    tally ran_now[6];
    int is_ran_now[6] = {0};
    for (int i = 1; i < kids; i++) {
        uint64_t child = mix(seed + (uint64_t)i + 1);
        if (mix(child) % 4 == 0) {
            is_side[i] = 1;
            side[i] = (side_task){FJ_TASK_INIT(side_run), child, depth - 1, {0, 0}};
            CHECK_RC(0, fj_fork(&side[i].task));
        } else if (mix(child) % 8 == 1) {
            is_ran_now[i] = 1;
            ran_now[i] = FJ_RUN(NULL, tree, child, depth - 1);
        } else {
            FJ_SPAWN(tree, child, depth - 1);
        }
        check_jitter(&jitter);
    }
    tally first = FJ_CALL(tree, mix(seed + 1), depth - 1);
    t.nodes += first.nodes;
    t.sum += first.sum;
    for (int i = kids - 1; i >= 1; i--) {
        if (is_side[i])
            continue;
        tally c = is_ran_now[i] ? ran_now[i] : FJ_SYNC(tree);
        t.nodes += c.nodes;
        t.sum += c.sum * (uint64_t)(i + 1);
        check_jitter(&jitter);
    }
    for (int i = 1; i < kids; i++) {
        if (!is_side[i])
            continue;
        CHECK_RC(0, fj_join(&side[i].task));
        t.nodes += side[i].result.nodes;
        t.sum += side[i].result.sum * (uint64_t)(i + 1);
    }
    return t;
}

static int tree_depth(void) { return check_stress() ? 15 : 13 - (check_scale() > 1) - (check_scale() > 2); }

static void random_trees_match_serial(void)
{
    fj_pool *pool = check_pool();
    int rounds = (int)check_size(400, 8);
    long nodes = 0;
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = mix((uint64_t)r + 7);
        tally want = tree_serial(seed, tree_depth());
        tally got = FJ_RUN(pool, tree, seed, tree_depth());
        CHECK_EQ(want.nodes, got.nodes);
        CHECK(want.sum == got.sum);
        nodes += got.nodes;
    }
    fj_worker_stats total;
    fj_pool_stats(pool, NULL, 0, &total);
    printf("%d trees, %ld nodes, %llu steals, %llu leapfrogs\n", rounds, nodes, total.steals, total.leapfrogs);
    CHECK_RC(0, fj_pool_destroy(pool));
}

typedef struct caller {
    fj_pool *pool;
    int first;
    int rounds;
} caller;

static void *caller_main(void *arg)
{
    caller *c = arg;
    for (int r = c->first; r < c->first + c->rounds; r++) {
        uint64_t seed = mix((uint64_t)r * 31 + 5);
        tally want = tree_serial(seed, tree_depth() - 1);
        tally got = FJ_RUN(c->pool, tree, seed, tree_depth() - 1);
        CHECK_EQ(want.nodes, got.nodes);
        CHECK(want.sum == got.sum);
    }
    return NULL;
}

/* Four outside threads submit typed trees to one pool at the same time. */
static void concurrent_runs_from_outside(void)
{
    fj_pool *pool = check_pool();
    pthread_t threads[4];
    caller callers[4];
    int rounds = (int)check_size(200, 4);
    for (int i = 0; i < 4; i++) {
        callers[i] = (caller){pool, i * rounds, rounds};
        CHECK_EQ(0, pthread_create(&threads[i], NULL, caller_main, &callers[i]));
    }
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], NULL);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"random_trees_match_serial", random_trees_match_serial, CHECK_PER_WORKERS},
    {"concurrent_runs_from_outside", concurrent_runs_from_outside, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
