/* stress_loop.c - many loops of random shape and skewed cost, with random
 * yields in the bodies (FJ_TEST_STRESS=1) to widen the owner/thief races on
 * the last grain, nested loops, and several outside threads at once.  Each
 * round checks that every index ran exactly once and that a reduce equals its
 * serial value. */
#include <pthread.h>

#include "../check.h"

typedef struct round_ctx {
    int64_t from;
    unsigned char *count;
    int heavy_third;   /* which third of the range is expensive: 0, 1, 2 */
} round_ctx;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

/* Skewed cost: indices in the heavy third spin a little; a rare yield in
 * stress mode lets thieves catch an owner in the middle of a grain. */
static void stress_body(int64_t lo, int64_t hi, void *ctx)
{
    round_ctx *r = ctx;
    unsigned seed = (unsigned)mix((uint64_t)lo);
    for (int64_t i = lo; i < hi; i++) {
        uint64_t k = (uint64_t)i - (uint64_t)r->from;
        r->count[k]++;
        if ((int)(k % 3) == r->heavy_third) {
            volatile uint64_t sink = k;
            for (int s = 0; s < 50; s++)
                sink = mix(sink);
        }
        check_jitter(&seed);
    }
}

static void stress_sum(int64_t lo, int64_t hi, void *acc, void *ctx)
{
    uint64_t *sum = acc;
    unsigned seed = (unsigned)lo;
    for (int64_t i = lo; i < hi; i++) {
        *sum += mix((uint64_t)i);
        check_jitter(&seed);
    }
}

static void add_u64(void *acc, const void *right, void *ctx) { *(uint64_t *)acc += *(const uint64_t *)right; }

/* One random loop on `pool`; returns after checking it. */
static void one_round(fj_pool *pool, uint64_t *rng)
{
    *rng = mix(*rng + 0x9e3779b97f4a7c15ULL);
    uint64_t length = *rng % 20000;
    int64_t from = (*rng >> 20) % 4 == 0 ? INT64_MAX - (int64_t)length : (int64_t)(*rng >> 40) - 1000;
    int64_t grain = (int64_t)((*rng >> 16) % 4 == 0 ? 0 : (*rng >> 24) % 64 + 1);
    round_ctx r = {from, calloc(length ? length : 1, 1), (int)((*rng >> 8) % 3)};
    CHECK(r.count != NULL);
    CHECK_RC(0, fj_parallel_for(pool, from, (int64_t)((uint64_t)from + length), grain, stress_body, &r));
    for (uint64_t k = 0; k < length; k++)
        if (r.count[k] != 1)
            CHECK_FAIL("index +%" PRIu64 " of [%" PRId64 ", +%" PRIu64 ") ran %u times (grain %" PRId64 ")", k, from,
                       length, r.count[k], grain);
    free(r.count);

    uint64_t serial = 0, parallel = 0, zero = 0;
    stress_sum(from, (int64_t)((uint64_t)from + length), &serial, NULL);
    CHECK_RC(0, fj_parallel_reduce(pool, from, (int64_t)((uint64_t)from + length), grain, &parallel, sizeof parallel,
                                   &zero, stress_sum, add_u64, NULL));
    CHECK_EQ(serial, parallel);
}

static void random_loops(void)
{
    fj_pool *pool = check_pool();
    long rounds = check_size(4000, 40);
    uint64_t rng = 12345;
    for (long k = 0; k < rounds; k++)
        one_round(pool, &rng);
    fj_pool_destroy(pool);
}

/* ---- nested loops with random shapes ---- */

typedef struct nest_ctx {
    unsigned char *count;
    int64_t inner;
    int64_t inner_grain;
} nest_ctx;

static void nest_inner(int64_t lo, int64_t hi, void *ctx)
{
    unsigned char *cell = ctx;
    unsigned seed = (unsigned)lo;
    for (int64_t i = lo; i < hi; i++) {
        cell[i]++;
        check_jitter(&seed);
    }
}

static void nest_outer(int64_t i, void *ctx)
{
    nest_ctx *n = ctx;
    CHECK_RC(0, fj_parallel_for(NULL, 0, n->inner, n->inner_grain, nest_inner, n->count + i * n->inner));
}

static void random_nested_loops(void)
{
    fj_pool *pool = check_pool();
    long rounds = check_size(400, 8);
    uint64_t rng = 777;
    for (long k = 0; k < rounds; k++) {
        rng = mix(rng + 1);
        int64_t outer = (int64_t)(rng % 50) + 1, inner = (int64_t)((rng >> 8) % 2000);
        nest_ctx n = {calloc((size_t)(outer * inner) + 1, 1), inner, (int64_t)((rng >> 20) % 5)};
        CHECK_RC(0, fj_parallel_for_each(pool, 0, outer, (int64_t)((rng >> 30) % 3), nest_outer, &n));
        for (int64_t c = 0; c < outer * inner; c++)
            if (n.count[c] != 1)
                CHECK_FAIL("nested cell %" PRId64 " ran %u times", c, n.count[c]);
        free(n.count);
    }
    fj_pool_destroy(pool);
}

/* ---- several outside threads ---- */

typedef struct thread_arg {
    fj_pool *pool;
    uint64_t seed;
    long rounds;
} thread_arg;

static void *rounds_from_thread(void *p)
{
    thread_arg *a = p;
    for (long k = 0; k < a->rounds; k++)
        one_round(a->pool, &a->seed);
    return NULL;
}

static void loops_from_many_threads(void)
{
    fj_pool *pool = check_pool();
    enum { THREADS = 4 };
    pthread_t threads[THREADS];
    thread_arg args[THREADS];
    for (int k = 0; k < THREADS; k++) {
        args[k] = (thread_arg){pool, (uint64_t)k * 1000 + 1, check_size(800, 10)};
        CHECK(pthread_create(&threads[k], NULL, rounds_from_thread, &args[k]) == 0);
    }
    for (int k = 0; k < THREADS; k++)
        pthread_join(threads[k], NULL);
    fj_pool_destroy(pool);
}

static const check_case cases[] = {
    {"random_loops", random_loops, CHECK_PER_WORKERS},
    {"random_nested_loops", random_nested_loops, CHECK_PER_WORKERS},
    {"loops_from_many_threads", loops_from_many_threads, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
