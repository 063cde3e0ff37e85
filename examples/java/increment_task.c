/* increment_task.c - the IncrementTask example of the RecursiveAction API
 * documentation, ported line by line; IncrementTask.java is the original.
 *
 *     class IncrementTask extends RecursiveAction {
 *       final long[] array; final int lo, hi;
 *       protected void compute() {
 *         if (hi - lo < THRESHOLD) {
 *           for (int i = lo; i < hi; ++i)
 *             array[i]++;
 *         }
 *         else {
 *           int mid = (lo + hi) >>> 1;
 *           invokeAll(new IncrementTask(array, lo, mid),
 *                     new IncrementTask(array, mid, hi));
 *         }
 *       }
 *     }
 *
 * Checked: after R invocations every element is its start value plus R. */
#include "port_util.h"

enum { THRESHOLD = 5000 };

typedef struct increment_task {
    FJ_RECURSIVE_ACTION;
    long *array;
    int lo, hi;
} increment_task;

static int increment_task_compute(fj_task *task);
#define INCREMENT_TASK(array, lo, hi) {FJ_TASK_INIT(increment_task_compute), (array), (lo), (hi)}

static int increment_task_compute(fj_task *task)
{
    increment_task *this = FJ_SELF(task, increment_task);
    if (this->hi - this->lo < THRESHOLD) {
        for (int i = this->lo; i < this->hi; ++i)
            this->array[i]++;
        return 0;
    }
    int mid = (int)((unsigned)(this->lo + this->hi) >> 1);
    increment_task left = INCREMENT_TASK(this->array, this->lo, mid);
    increment_task right = INCREMENT_TASK(this->array, mid, this->hi);
    return fj_invoke_all2(&left.task, &right.task);
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 1000000, 1, 1L << 28);
    int n = (int)args.size;
    fj_pool *pool = port_pool(&args);
    long *array = malloc((size_t)n * sizeof *array);
    for (int i = 0; i < n; i++)
        array[i] = i;
    int rc = 0;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        increment_task all = INCREMENT_TASK(array, 0, n);
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &all.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
    }
    int correct = 1;
    for (int i = 0; i < n; i++)
        correct = correct && array[i] == (long)i + args.reps;
    char what[64];
    snprintf(what, sizeof what, "%d elements incremented %d times", n, args.reps);
    int status = port_verdict("IncrementTask", what, rc == 0 && correct, &args, best, pool);
    free(array);
    return status;
}
