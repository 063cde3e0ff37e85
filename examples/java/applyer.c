/* applyer.c - the Applyer example of the RecursiveAction API documentation:
 * a sum of squares that decides its own granularity with
 * getSurplusQueuedTaskCount() and keeps its right-hand tasks in a linked list;
 * Applyer.java is the original.
 *
 *     double sumOfSquares(ForkJoinPool pool, double[] array) {
 *       int n = array.length;
 *       Applyer a = new Applyer(array, 0, n, null);
 *       pool.invoke(a);
 *       return a.result;
 *     }
 *     class Applyer extends RecursiveAction {
 *       final double[] array; final int lo, hi; double result;
 *       Applyer next; // keeps track of right-hand-side tasks
 *       double atLeaf(int l, int h) {
 *         double sum = 0;
 *         for (int i = l; i < h; ++i) // perform leftmost base step
 *           sum += array[i] * array[i];
 *         return sum;
 *       }
 *       protected void compute() {
 *         int l = lo; int h = hi; Applyer right = null;
 *         while (h - l > 1 && getSurplusQueuedTaskCount() <= 3) {
 *           int mid = (l + h) >>> 1;
 *           right = new Applyer(array, mid, h, right);
 *           right.fork();
 *           h = mid;
 *         }
 *         double sum = atLeaf(l, h);
 *         while (right != null) {
 *           if (right.tryUnfork()) // directly calculate if not stolen
 *             sum += right.atLeaf(right.lo, right.hi);
 *           else {
 *             right.join();
 *             sum += right.result;
 *           }
 *           right = right.next;
 *         }
 *         result = sum;
 *       }
 *     }
 *
 * The right-hand tasks outlive the loop that creates them, so they are heap
 * tasks (new Applyer); this frame joins or unforks each and then frees it.
 * The input holds whole numbers, so every summation order gives the exact
 * serial sum and the check is an equality. */
#include "port_util.h"

typedef struct applyer {
    FJ_RECURSIVE_ACTION;
    double *array;
    int lo, hi;
    double result;
    struct applyer *next;  /* keeps track of right-hand-side tasks */
} applyer;

static int applyer_compute(fj_task *task);

static applyer *new_applyer(double *array, int lo, int hi, applyer *next)
{
    applyer *a = malloc(sizeof *a);
    if (a)
        *a = (applyer){FJ_TASK_INIT(applyer_compute), array, lo, hi, 0.0, next};
    return a;
}

static double at_leaf(const applyer *this, int l, int h)
{
    double sum = 0;
    for (int i = l; i < h; ++i)  /* perform leftmost base step */
        sum += this->array[i] * this->array[i];
    return sum;
}

static int applyer_compute(fj_task *task)
{
    applyer *this = FJ_SELF(task, applyer);
    int l = this->lo, h = this->hi, rc = 0;
    applyer *right = NULL;
    while (h - l > 1 && fj_get_surplus_queued_task_count() <= 3) {
        int mid = (int)((unsigned)(l + h) >> 1);
        applyer *a = new_applyer(this->array, mid, h, right);
        if (!a) {
            rc = FJ_ENOMEM;  /* stop splitting; what is forked is still joined below */
            break;
        }
        right = a;
        fj_fork(&right->task);
        h = mid;
    }
    double sum = at_leaf(this, l, h);
    while (right != NULL) {
        if (fj_task_try_unfork(&right->task)) {  /* directly calculate if not stolen */
            sum += at_leaf(right, right->lo, right->hi);
        } else {
            rc = fj_first_error(rc, fj_join(&right->task));
            sum += right->result;
        }
        applyer *done = right;
        right = right->next;
        free(done);
    }
    this->result = sum;
    return rc;
}

/* double sumOfSquares(ForkJoinPool pool, double[] array) */
static int sum_of_squares(fj_pool *pool, double *array, int n, double *out)
{
    applyer a = {FJ_TASK_INIT(applyer_compute), array, 0, n, 0.0, NULL};
    int rc = fj_pool_invoke(pool, &a.task);
    *out = a.result;
    return rc;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 1000000, 1, 1L << 28);
    int n = (int)args.size;
    fj_pool *pool = port_pool(&args);
    double *array = malloc((size_t)n * sizeof *array);
    double expected = 0;
    for (int i = 0; i < n; i++) {
        array[i] = (double)(i % 1000);
        expected += array[i] * array[i];
    }
    int rc = 0;
    double sum = 0, best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        double t0 = port_seconds();
        rc = fj_first_error(rc, sum_of_squares(pool, array, n, &sum));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
    }
    char what[96];
    snprintf(what, sizeof what, "sum of squares of %d elements = %.0f", n, sum);
    int status = port_verdict("Applyer", what, rc == 0 && sum == expected, &args, best, pool);
    free(array);
    return status;
}
