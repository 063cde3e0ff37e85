/* sort_task.c - the SortTask example of the RecursiveAction API documentation
 * (a parallel mergesort), ported line by line; SortTask.java is the original.
 *
 *     static class SortTask extends RecursiveAction {
 *       final long[] array; final int lo, hi;
 *       protected void compute() {
 *         if (hi - lo < THRESHOLD)
 *           sortSequentially(lo, hi);
 *         else {
 *           int mid = (lo + hi) >>> 1;
 *           invokeAll(new SortTask(array, lo, mid),
 *                     new SortTask(array, mid, hi));
 *           merge(lo, mid, hi);
 *         }
 *       }
 *       static final int THRESHOLD = 1000;
 *       void sortSequentially(int lo, int hi) { Arrays.sort(array, lo, hi); }
 *       void merge(int lo, int mid, int hi) {
 *         long[] buf = Arrays.copyOfRange(array, lo, mid);
 *         for (int i = 0, j = lo, k = mid; i < buf.length; j++)
 *           array[j] = (k == hi || buf[i] < array[k]) ? buf[i++] : array[k++];
 *       }
 *     }
 *
 * Java's exception for a failed allocation (OutOfMemoryError) becomes
 * FJ_ENOMEM returned by compute and reported by invoke.  Checked by comparing
 * with qsort of the same input. */
#include "port_util.h"

enum { THRESHOLD = 1000 };

typedef struct sort_task {
    FJ_RECURSIVE_ACTION;
    long *array;
    int lo, hi;
} sort_task;

static int sort_task_compute(fj_task *task);
#define SORT_TASK(array, lo, hi) {FJ_TASK_INIT(sort_task_compute), (array), (lo), (hi)}

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void sort_sequentially(sort_task *this, int lo, int hi)
{
    qsort(this->array + lo, (size_t)(hi - lo), sizeof(long), compare_longs);  /* Arrays.sort */
}

static int merge(sort_task *this, int lo, int mid, int hi)
{
    long *array = this->array;
    int length = mid - lo;
    long *buf = malloc((size_t)length * sizeof *buf);  /* Arrays.copyOfRange */
    if (!buf)
        return FJ_ENOMEM;
    memcpy(buf, array + lo, (size_t)length * sizeof *buf);
    for (int i = 0, j = lo, k = mid; i < length; j++)
        array[j] = (k == hi || buf[i] < array[k]) ? buf[i++] : array[k++];
    free(buf);
    return 0;
}

static int sort_task_compute(fj_task *task)
{
    sort_task *this = FJ_SELF(task, sort_task);
    if (this->hi - this->lo < THRESHOLD) {
        sort_sequentially(this, this->lo, this->hi);
        return 0;
    }
    int mid = (int)((unsigned)(this->lo + this->hi) >> 1);
    sort_task left = SORT_TASK(this->array, this->lo, mid);
    sort_task right = SORT_TASK(this->array, mid, this->hi);
    int rc = fj_invoke_all2(&left.task, &right.task);
    return rc ? rc : merge(this, this->lo, mid, this->hi);
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 100000, 1, 1L << 28);
    int n = (int)args.size;
    fj_pool *pool = port_pool(&args);
    long *input = malloc((size_t)n * sizeof *input), *array = malloc((size_t)n * sizeof *array);
    long *expected = malloc((size_t)n * sizeof *expected);
    unsigned long long x = 88172645463325252ull;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        input[i] = (long)(x % 1000000007ull) - 500000000;
    }
    memcpy(expected, input, (size_t)n * sizeof *input);
    qsort(expected, (size_t)n, sizeof *expected, compare_longs);
    int rc = 0, correct = 1;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        memcpy(array, input, (size_t)n * sizeof *input);
        sort_task all = SORT_TASK(array, 0, n);   /* new SortTask(array) */
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &all.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        correct = correct && memcmp(array, expected, (size_t)n * sizeof *array) == 0;
    }
    char what[64];
    snprintf(what, sizeof what, "sorted %d longs", n);
    int status = port_verdict("SortTask", what, rc == 0 && correct, &args, best, pool);
    free(input), free(array), free(expected);
    return status;
}
