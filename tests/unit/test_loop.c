/* test_loop.c - parallel for / for-each / reduce (runtime/loop.c).
 *
 * The central check: every index of [from, to) is visited exactly once, for
 * lengths 0, 1, workers-1, workers+1 and 10^7, near both ends of int64_t, and
 * for several grains.  Reduce equals the serial fold (integers exactly, and an
 * associative but non-commutative combine too); bad arguments get FJ_EINVAL
 * and a detail that names them;
 * loops nest inside loop bodies and forked tasks, and run from non-workers. */
#include <math.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../check.h"

/* ---- visit counting ---- */

typedef struct visits {
    int64_t from;
    unsigned char *count;  /* one byte per index: each is written by one body call */
} visits;

static void visit_index(int64_t i, void *ctx)
{
    visits *v = ctx;
    v->count[(uint64_t)i - (uint64_t)v->from]++;
}

static void visit_range(int64_t lo, int64_t hi, void *ctx)
{
    for (int64_t i = lo; i < hi; i++)
        visit_index(i, ctx);
}

/* Runs both loop flavours over [from, from + length) with `grain` and checks
 * that each index was visited exactly once. */
static void check_visits_once(fj_pool *pool, int64_t from, uint64_t length, int64_t grain)
{
    visits v = {from, calloc(length ? length : 1, 1)};
    CHECK(v.count != NULL);
    int64_t to = (int64_t)((uint64_t)from + length);
    for (int flavour = 0; flavour < 2; flavour++) {
        memset(v.count, 0, length);
        if (flavour == 0)
            CHECK_RC(0, fj_parallel_for_each(pool, from, to, grain, visit_index, &v));
        else
            CHECK_RC(0, fj_parallel_for(pool, from, to, grain, visit_range, &v));
        for (uint64_t k = 0; k < length; k++)
            if (v.count[k] != 1)
                CHECK_FAIL("index %" PRId64 " (+%" PRIu64 ") visited %u times, grain %" PRId64 ", length %" PRIu64,
                           from, k, v.count[k], grain, length);
    }
    free(v.count);
}

static const int64_t some_grains[] = {0, 1, 3, 1000};

static void visits_small_lengths(void)
{
    fj_pool *pool = check_pool();
    uint64_t lengths[] = {0, 1, check_workers - 1, check_workers + 1, 2 * check_workers, 1000};
    for (size_t g = 0; g < sizeof some_grains / sizeof some_grains[0]; g++)
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
            check_visits_once(pool, -3, lengths[k], some_grains[g]);
    fj_pool_destroy(pool);
}

static void visits_ten_million(void)
{
    fj_pool *pool = check_pool();
    check_visits_once(pool, 0, 10000000, 0);
    check_visits_once(pool, 5, (uint64_t)check_size(10000000, 100000), 1);
    fj_pool_destroy(pool);
}

static void visits_near_int64_limits(void)
{
    fj_pool *pool = check_pool();
    uint64_t spread = 3 * check_workers + 1;
    for (size_t g = 0; g < sizeof some_grains / sizeof some_grains[0]; g++) {
        check_visits_once(pool, INT64_MAX - 10, 10, some_grains[g]);
        check_visits_once(pool, INT64_MAX - (int64_t)spread, spread, some_grains[g]);
        check_visits_once(pool, INT64_MIN, 10, some_grains[g]);
        check_visits_once(pool, INT64_MIN, spread, some_grains[g]);
        check_visits_once(pool, -(int64_t)spread / 2, spread, some_grains[g]);
    }
    check_visits_once(pool, INT64_MAX - 100, 100, INT64_MAX);
    fj_pool_destroy(pool);
}

/* The whole int64_t range in three grains: the sub-ranges must tile it. */
typedef struct tiles {
    int count;
    int64_t lo[8], hi[8];
} tiles;

static void record_tile(int64_t lo, int64_t hi, void *ctx)
{
    tiles *t = ctx;
    int k = __atomic_fetch_add(&t->count, 1, __ATOMIC_RELAXED);
    if (k < 8) {
        t->lo[k] = lo;
        t->hi[k] = hi;
    }
}

static void whole_int64_range_is_tiled(void)
{
    fj_pool *pool = check_pool();
    tiles t = {0, {0}, {0}};
    CHECK_RC(0, fj_parallel_for(pool, INT64_MIN, INT64_MAX, INT64_MAX, record_tile, &t));
    CHECK_EQ(3, t.count);
    /* Sort the three tiles by lo, then check they chain from INT64_MIN to INT64_MAX. */
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (t.lo[b] < t.lo[a]) {
                int64_t lo = t.lo[a], hi = t.hi[a];
                t.lo[a] = t.lo[b], t.hi[a] = t.hi[b], t.lo[b] = lo, t.hi[b] = hi;
            }
    CHECK(t.lo[0] == INT64_MIN);
    CHECK(t.hi[0] == t.lo[1] && t.hi[1] == t.lo[2]);
    CHECK(t.hi[2] == INT64_MAX);
    fj_pool_destroy(pool);
}

/* ---- reduce ---- */

static void sum_squares(int64_t lo, int64_t hi, void *acc, void *ctx)
{
    uint64_t *sum = acc;
    for (int64_t i = lo; i < hi; i++)
        *sum += (uint64_t)i * (uint64_t)i;
}

static void add_u64(void *acc, const void *right, void *ctx) { *(uint64_t *)acc += *(const uint64_t *)right; }

static void reduce_integers_exactly(void)
{
    fj_pool *pool = check_pool();
    int64_t n = check_size(20000000, 100000);
    uint64_t serial = 0, zero = 0;
    sum_squares(-n / 3, n, &serial, NULL);
    for (size_t g = 0; g < sizeof some_grains / sizeof some_grains[0]; g++) {
        uint64_t parallel = 1;
        CHECK_RC(0, fj_parallel_reduce(pool, -n / 3, n, some_grains[g], &parallel, sizeof parallel, &zero, sum_squares,
                                       add_u64, NULL));
        CHECK_EQ(serial, parallel);
    }
    fj_pool_destroy(pool);
}

/* 2x2 matrices of uint64_t under multiplication mod 2^64: associative, not
 * commutative, so any combine out of index order would show. */
typedef struct mat2 {
    uint64_t a, b, c, d;
} mat2;

static mat2 mat2_mul(mat2 x, mat2 y)
{
    return (mat2){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
}

static mat2 mat2_of(int64_t i) { return (mat2){(uint64_t)i, 1, 1, (uint64_t)i * 3 + 7}; }

static void fold_matrices(int64_t lo, int64_t hi, void *acc, void *ctx)
{
    mat2 *m = acc;
    for (int64_t i = lo; i < hi; i++)
        *m = mat2_mul(*m, mat2_of(i));
}

static void mul_mat2(void *acc, const void *right, void *ctx) { *(mat2 *)acc = mat2_mul(*(mat2 *)acc, *(const mat2 *)right); }

static void reduce_in_index_order(void)
{
    fj_pool *pool = check_pool();
    int64_t n = check_size(2000000, 20000);
    const mat2 identity = {1, 0, 0, 1};
    mat2 serial = identity;
    fold_matrices(0, n, &serial, NULL);
    for (size_t g = 0; g < sizeof some_grains / sizeof some_grains[0]; g++) {
        mat2 parallel = {0, 0, 0, 0};
        CHECK_RC(0, fj_parallel_reduce(pool, 0, n, some_grains[g], &parallel, sizeof parallel, &identity,
                                       fold_matrices, mul_mat2, NULL));
        CHECK(memcmp(&serial, &parallel, sizeof serial) == 0);
    }
    fj_pool_destroy(pool);
}

static void sum_harmonic(int64_t lo, int64_t hi, void *acc, void *ctx)
{
    double *sum = acc;
    for (int64_t i = lo; i < hi; i++)
        *sum += 1.0 / (double)(i + 1);
}

static void add_double(void *acc, const void *right, void *ctx) { *(double *)acc += *(const double *)right; }

/* Floating point: equal to the serial sum up to the serial sum's own error
 * bound (n ulp of the total for positive terms), not bit for bit. */
static void reduce_doubles_within_bound(void)
{
    fj_pool *pool = check_pool();
    int64_t n = check_size(8000000, 100000);
    double serial = 0.0, zero = 0.0, parallel = -1.0;
    sum_harmonic(0, n, &serial, NULL);
    CHECK_RC(0, fj_parallel_reduce(pool, 0, n, 0, &parallel, sizeof parallel, &zero, sum_harmonic, add_double, NULL));
    double bound = (double)n * 2.220446049250313e-16 * serial;
    if (fabs(parallel - serial) > bound)
        CHECK_FAIL("parallel %.17g, serial %.17g, bound %.3g", parallel, serial, bound);
    fj_pool_destroy(pool);
}

static void reduce_of_empty_range_is_identity(void)
{
    fj_pool *pool = check_pool();
    uint64_t result = 99, identity = 42;
    CHECK_RC(0, fj_parallel_reduce(pool, 7, 7, 0, &result, sizeof result, &identity, sum_squares, add_u64, NULL));
    CHECK_EQ(42, result);
    fj_pool_destroy(pool);
}

/* ---- errors ---- */

/* A refused loop call: its code, and fj_last_error_detail() naming the
 * argument and its value. */
static void bad_arguments_are_refused(void)
{
    fj_pool *pool = check_pool();
    visits v = {0, NULL}; /* a body that ran would crash on the NULL array */
    uint64_t result = 0, zero = 0;
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_for_each: from=5 is above to=4 (expected from <= to)",
                  fj_parallel_for_each(pool, 5, 4, 0, visit_index, &v));
    CHECK_REFUSED(FJ_EINVAL,
                  "fj_parallel_for: from=9223372036854775807 is above to=-9223372036854775808 (expected from <= to)",
                  fj_parallel_for(pool, INT64_MAX, INT64_MIN, 0, visit_range, &v));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_for: grain=-1 (expected 0: chosen by fj, or indices per grain >= 1)",
                  fj_parallel_for(pool, 0, 10, -1, visit_range, &v));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_for: body is NULL", fj_parallel_for(pool, 0, 10, 0, NULL, &v));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_for_each: body is NULL", fj_parallel_for_each(pool, 0, 10, 0, NULL, &v));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: from=1 is above to=0 (expected from <= to)",
                  fj_parallel_reduce(pool, 1, 0, 0, &result, sizeof result, &zero, sum_squares, add_u64, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: result is NULL",
                  fj_parallel_reduce(pool, 0, 1, 0, NULL, sizeof result, &zero, sum_squares, add_u64, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: identity is NULL",
                  fj_parallel_reduce(pool, 0, 1, 0, &result, sizeof result, NULL, sum_squares, add_u64, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: size=0 (expected the accumulator's size in bytes)",
                  fj_parallel_reduce(pool, 0, 1, 0, &result, 0, &zero, sum_squares, add_u64, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: body is NULL",
                  fj_parallel_reduce(pool, 0, 1, 0, &result, sizeof result, &zero, NULL, add_u64, NULL));
    CHECK_REFUSED(FJ_EINVAL, "fj_parallel_reduce: combine is NULL",
                  fj_parallel_reduce(pool, 0, 1, 0, &result, sizeof result, &zero, sum_squares, NULL, NULL));
    /* The next call clears it: a success leaves no stale account. */
    CHECK_REFUSED(0, "", fj_parallel_for(pool, 0, 0, 0, visit_range, &v));
    fj_pool_destroy(pool);
}

/* Accumulators too large for the memory left: FJ_ENOMEM with the sizes
 * named, and no body runs.  Each worker reserves 65 accumulators before any
 * body runs (fj.h): 64 MiB ones need 4 GiB at one worker, and the address
 * space is capped at 1 GiB above what the process uses (setrlimit, lifted
 * after).  Not under a sanitizer, whose shadow memory needs the space. */
static void reduce_too_large_for_memory_is_refused(void)
{
#ifdef CHECK_SANITIZED
    printf("not run under a sanitizer (address-space limit)\n");
#else
    fj_pool *pool = check_pool();
    visits v = {0, NULL};
    size_t size = (size_t)64 << 20;
    char *identity = calloc(1, size), *result = malloc(size);
    CHECK(identity && result);
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    CHECK(statm && fscanf(statm, "%lu", &pages) == 1);
    fclose(statm);
    struct rlimit saved, capped;
    CHECK(getrlimit(RLIMIT_AS, &saved) == 0);
    capped = saved;
    capped.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
    if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < capped.rlim_cur)
        capped.rlim_cur = saved.rlim_cur;
    CHECK(setrlimit(RLIMIT_AS, &capped) == 0);
    int rc = fj_parallel_reduce(pool, 0, 10, 0, result, size, identity, sum_squares, add_u64, &v);
    CHECK(setrlimit(RLIMIT_AS, &saved) == 0);
    CHECK_RC(FJ_ENOMEM, rc);
    unsigned participants = check_workers < 10 ? (unsigned)check_workers : 10;
    char expected[160];
    snprintf(expected, sizeof expected,
             "fj_parallel_reduce: size=%zu: %u accumulators (65 per worker, %u workers) not allocated", size,
             65 * participants, participants);
    if (strcmp(fj_last_error_detail(), expected) != 0)
        CHECK_FAIL("detail \"%s\", expected \"%s\"", fj_last_error_detail(), expected);
    free(identity);
    free(result);
    fj_pool_destroy(pool);
#endif
}

static void shut_down_pool_refuses_loops(void)
{
    fj_pool *pool = check_pool();
    visits v = {0, NULL};
    fj_pool_shutdown(pool);
    CHECK_REFUSED(FJ_ESHUTDOWN, "fj_parallel_for_each: the pool is shut down (fj_pool_shutdown) and takes no more loops",
                  fj_parallel_for_each(pool, 0, 10, 0, visit_index, &v));
    fj_pool_destroy(pool);
}

/* ---- nesting and callers ---- */

enum { OUTER = 40, INNER = 1000 };

typedef struct nested {
    unsigned char *count;  /* OUTER * INNER cells */
    int64_t inner_grain;
} nested;

static void nested_inner(int64_t i, void *ctx)
{
    unsigned char *cell = ctx;
    cell[i]++;
}

static void nested_outer(int64_t i, void *ctx)
{
    nested *n = ctx;
    /* NULL pool: the worker's own pool. */
    CHECK_RC(0, fj_parallel_for_each(NULL, 0, INNER, n->inner_grain, nested_inner, n->count + i * INNER));
}

static void check_all_once(const unsigned char *count, size_t length)
{
    for (size_t k = 0; k < length; k++)
        if (count[k] != 1)
            CHECK_FAIL("cell %zu visited %u times", k, count[k]);
}

static void loops_nest_in_loop_bodies(void)
{
    fj_pool *pool = check_pool();
    int64_t inner_grains[] = {0, 1, 64};
    for (size_t g = 0; g < 3; g++) {
        nested n = {calloc(OUTER * INNER, 1), inner_grains[g]};
        CHECK_RC(0, fj_parallel_for_each(pool, 0, OUTER, 1, nested_outer, &n));
        check_all_once(n.count, OUTER * INNER);
        free(n.count);
    }
    fj_pool_destroy(pool);
}

typedef struct forked_loop {
    fj_task task;
    unsigned char *count;
    int depth;
} forked_loop;

/* A binary tree of forked tasks; each leaf runs a loop over its own slice, so
 * loops start inside tasks that may have been stolen. */
static int loop_in_task(fj_task *t)
{
    forked_loop *f = FJ_CONTAINER_OF(t, forked_loop, task);
    if (f->depth == 0) {
        CHECK_RC(0, fj_parallel_for_each(NULL, 0, INNER, 0, nested_inner, f->count));
        return 0;
    }
    forked_loop a = {FJ_TASK_INIT(loop_in_task), f->count, f->depth - 1};
    forked_loop b = {FJ_TASK_INIT(loop_in_task), f->count + (INNER << (f->depth - 1)), f->depth - 1};
    fj_fork(&a.task);
    loop_in_task(&b.task);
    CHECK_RC(0, fj_join(&a.task));
    return 0;
}

static void loops_run_inside_forked_tasks(void)
{
    fj_pool *pool = check_pool();
    int depth = 5;
    unsigned char *count = calloc((size_t)INNER << depth, 1);
    forked_loop root = {FJ_TASK_INIT(loop_in_task), count, depth};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    check_all_once(count, (size_t)INNER << depth);
    free(count);
    fj_pool_destroy(pool);
}

typedef struct caller_arg {
    fj_pool *pool;
    unsigned char *count;
    int rc;
} caller_arg;

static void *loop_from_thread(void *p)
{
    caller_arg *a = p;
    a->rc = fj_parallel_for_each(a->pool, 0, 100000, 0, nested_inner, a->count);
    return NULL;
}

/* Several threads that are not workers run loops on one pool at once. */
static void loops_from_non_worker_threads(void)
{
    fj_pool *pool = check_pool();
    enum { THREADS = 3 };
    pthread_t threads[THREADS];
    caller_arg args[THREADS];
    for (int k = 0; k < THREADS; k++) {
        args[k] = (caller_arg){pool, calloc(100000, 1), -1};
        CHECK(pthread_create(&threads[k], NULL, loop_from_thread, &args[k]) == 0);
    }
    for (int k = 0; k < THREADS; k++) {
        pthread_join(threads[k], NULL);
        CHECK_RC(0, args[k].rc);
        check_all_once(args[k].count, 100000);
        free(args[k].count);
    }
    fj_pool_destroy(pool);
}

static void null_pool_means_common_pool(void)
{
    visits v = {0, calloc(5000, 1)};
    CHECK_RC(0, fj_parallel_for_each(NULL, 0, 5000, 0, visit_index, &v));
    check_all_once(v.count, 5000);
    free(v.count);
}

static const check_case cases[] = {
    {"visits_small_lengths", visits_small_lengths, CHECK_PER_WORKERS},
    {"visits_ten_million", visits_ten_million, CHECK_PER_WORKERS},
    {"visits_near_int64_limits", visits_near_int64_limits, CHECK_PER_WORKERS},
    {"whole_int64_range_is_tiled", whole_int64_range_is_tiled, CHECK_PER_WORKERS},
    {"reduce_integers_exactly", reduce_integers_exactly, CHECK_PER_WORKERS},
    {"reduce_in_index_order", reduce_in_index_order, CHECK_PER_WORKERS},
    {"reduce_doubles_within_bound", reduce_doubles_within_bound, CHECK_PER_WORKERS},
    {"reduce_of_empty_range_is_identity", reduce_of_empty_range_is_identity, CHECK_ONCE},
    {"bad_arguments_are_refused", bad_arguments_are_refused, CHECK_ONCE},
    {"reduce_too_large_for_memory_is_refused", reduce_too_large_for_memory_is_refused, CHECK_PER_WORKERS},
    {"shut_down_pool_refuses_loops", shut_down_pool_refuses_loops, CHECK_ONCE},
    {"loops_nest_in_loop_bodies", loops_nest_in_loop_bodies, CHECK_PER_WORKERS},
    {"loops_run_inside_forked_tasks", loops_run_inside_forked_tasks, CHECK_PER_WORKERS},
    {"loops_from_non_worker_threads", loops_from_non_worker_threads, CHECK_PER_WORKERS},
    {"null_pool_means_common_pool", null_pool_means_common_pool, CHECK_ONCE},
};
CHECK_MAIN(cases)
