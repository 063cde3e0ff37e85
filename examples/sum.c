/* sum.c - a parallel reduce: the sum of a large array of integers.
 *
 * fj_parallel_reduce hands each worker runs of grains; `add_values` folds a
 * run into that worker's partial sum, starting from the identity (0), and
 * `add_sums` combines the partial sums in index order.  Integer addition is
 * associative, so the result is exactly the serial one whatever the schedule.
 * Compare sum_parallel with sum_serial: the loop body is the same code.
 * The default size (16 million) makes the work about 100 times the longest
 * grain that a preempted thread may show, so FJ_PROFILE reports the same
 * parallelism on every worker count on a busy machine too. */
#include <inttypes.h>

#include "example_util.h"

typedef struct input {
    const int64_t *values;
} input;

/* The body: folds values[lo..hi) into *acc. */
static void add_values(int64_t lo, int64_t hi, void *acc, void *ctx)
{
    const input *in = ctx;
    int64_t sum = *(int64_t *)acc;
    for (int64_t i = lo; i < hi; i++)
        sum += in->values[i];
    *(int64_t *)acc = sum;
}

/* The combine: acc = acc + right. */
static void add_sums(void *acc, const void *right, void *ctx) { *(int64_t *)acc += *(const int64_t *)right; }

static int64_t sum_serial(const int64_t *values, int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += values[i];
    return sum;
}

/* A fixed number of grains, not the default (which grows with the worker
 * count): the program, and so the work and span FJ_PROFILE reports, is then
 * the same on any number of workers. */
#define SUM_GRAINS 1024

static int sum_parallel(fj_pool *pool, const int64_t *values, int64_t n, int64_t *sum)
{
    const int64_t zero = 0;
    input in = {values};
    int64_t grain = n / SUM_GRAINS > 0 ? n / SUM_GRAINS : 1;
    return fj_parallel_reduce(pool, 0, n, grain, sum, sizeof *sum, &zero, add_values, add_sums, &in);
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 16000000, 1, 1L << 30);
    int64_t n = args.size;
    int64_t *values = malloc((size_t)n * sizeof *values);
    if (!values) {
        fprintf(stderr, "sum: cannot allocate %ld values\n", args.size);
        return 1;
    }
    for (int64_t i = 0; i < n; i++)
        values[i] = (i * 7919) % 1000003 - 500000;
    fj_pool *pool = example_pool(&args);

    int64_t parallel = 0;
    double t0 = example_seconds();
    int rc = sum_parallel(pool, values, n, &parallel);
    double t1 = example_seconds();
    int64_t expected = sum_serial(values, n);
    double t2 = example_seconds();

    printf("sum of %" PRId64 " values = %" PRId64 " on %u workers\n", n, parallel, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    free(values);
    if (rc != 0)
        fprintf(stderr, "fj_parallel_reduce: %s\n", fj_strerror(rc));
    return example_verdict("sum", rc == 0 && parallel == expected, t1 - t0, t2 - t1);
}
