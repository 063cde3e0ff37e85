/* mergesort.c - sort an array of random integers with parallel merge sort.
 *
 * Sort both halves in parallel (fork the left, sort the right here, join),
 * then merge them through a scratch buffer.  Below a cut-off the halves are
 * sorted serially: tasks that small cost more to schedule than to run. */
#include <stdint.h>

#include "example_util.h"

enum { SERIAL_BELOW = 2048 };

typedef struct sort_task {
    fj_task task;
    int32_t *data, *scratch;
    long n;
} sort_task;

static void merge(int32_t *data, int32_t *scratch, long mid, long n)
{
    long i = 0, j = mid, k = 0;
    while (i < mid && j < n)
        scratch[k++] = data[i] <= data[j] ? data[i++] : data[j++];
    while (i < mid)
        scratch[k++] = data[i++];
    while (j < n)
        scratch[k++] = data[j++];
    memcpy(data, scratch, (size_t)n * sizeof *data);
}

static void sort_serial(int32_t *data, int32_t *scratch, long n)
{
    if (n < 2)
        return;
    long mid = n / 2;
    sort_serial(data, scratch, mid);
    sort_serial(data + mid, scratch + mid, n - mid);
    merge(data, scratch, mid, n);
}

static int sort_parallel(fj_task *t)
{
    sort_task *s = FJ_CONTAINER_OF(t, sort_task, task);
    if (s->n < SERIAL_BELOW) {
        sort_serial(s->data, s->scratch, s->n);
        return 0;
    }
    long mid = s->n / 2;
    sort_task left = {FJ_TASK_INIT(sort_parallel), s->data, s->scratch, mid};
    sort_task right = {FJ_TASK_INIT(sort_parallel), s->data + mid, s->scratch + mid, s->n - mid};
    fj_fork(&left.task);
    sort_parallel(&right.task);
    fj_join(&left.task);
    merge(s->data, s->scratch, mid, s->n);
    return 0;
}

static void fill_random(int32_t *data, long n)
{
    uint64_t x = 0x2545f4914f6cdd1dull;  /* fixed seed: every run sorts the same input */
    for (long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data[i] = (int32_t)(x >> 32);
    }
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 1L << 22, 1, 1L << 30);
    long n = args.size;
    int32_t *parallel = malloc((size_t)n * sizeof *parallel), *serial = malloc((size_t)n * sizeof *serial);
    int32_t *scratch = malloc((size_t)n * sizeof *scratch);
    if (!parallel || !serial || !scratch) {
        fprintf(stderr, "mergesort: out of memory for %ld elements\n", n);
        return 1;
    }
    fill_random(parallel, n);
    memcpy(serial, parallel, (size_t)n * sizeof *serial);

    fj_pool *pool = example_pool(&args);
    sort_task root = {FJ_TASK_INIT(sort_parallel), parallel, scratch, n};
    double t0 = example_seconds();
    int rc = fj_pool_invoke(pool, &root.task);
    double t1 = example_seconds();
    sort_serial(serial, scratch, n);
    double t2 = example_seconds();

    int matches = rc == 0 && memcmp(parallel, serial, (size_t)n * sizeof *serial) == 0;
    for (long i = 1; matches && i < n; i++)
        matches = parallel[i - 1] <= parallel[i];
    printf("mergesort of %ld ints on %u workers\n", n, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    free(parallel);
    free(serial);
    free(scratch);
    return example_verdict("mergesort", matches, t1 - t0, t2 - t1);
}
