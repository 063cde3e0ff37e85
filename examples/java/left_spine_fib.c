/* left_spine_fib.c - jsr166's ForkJoin benchmark LeftSpineFib, ported from
 * LeftSpineFib.java: walk down the left spine of the Fibonacci tree, forking
 * fib(n-2) at each step into a linked list, compute the bottom sequentially,
 * then walk the list back, taking each task back with tryUnfork() (and
 * computing it here) or joining it if it was stolen.
 *
 *     public final void compute() {
 *         int n = number;
 *         if (n > 1) {
 *             LeftSpineFib rt = null;
 *             while (n > sequentialThreshold) {
 *                 (rt = new LeftSpineFib(n - 2, rt)).fork();
 *                 n -= 1;
 *             }
 *             int r = seqFib(n);
 *             while (rt != null) {
 *                 if (rt.tryUnfork()) rt.compute(); else rt.join();
 *                 r += rt.number;
 *                 rt = rt.next;
 *             }
 *             number = r;
 *         }
 *     }
 *
 * The list tasks are heap tasks (new LeftSpineFib), freed by this frame
 * after their join.  Checked against the serial recursion.
 *
 * Usage: left_spine_fib [--workers N] [--reps R] [N]  (jsr166 default 45;
 * ours 27 for the test suite, the benchmark passes 38). */
#include "port_util.h"

enum { SEQUENTIAL_THRESHOLD = 13 };

typedef struct left_spine_fib {
    FJ_RECURSIVE_ACTION;
    int number;  /* initialized with argument; replaced with result */
    struct left_spine_fib *next;
} left_spine_fib;

static int seq_fib(int n) { return n <= 1 ? n : seq_fib(n - 1) + seq_fib(n - 2); }

static int left_spine_fib_compute(fj_task *task)
{
    left_spine_fib *this = FJ_SELF(task, left_spine_fib);
    int n = this->number, rc = 0;
    if (n <= 1)
        return 0;
    left_spine_fib *rt = NULL;
    while (n > SEQUENTIAL_THRESHOLD) {
        left_spine_fib *t = malloc(sizeof *t);
        if (!t) {
            rc = FJ_ENOMEM;  /* compute the rest of the spine here */
            break;
        }
        *t = (left_spine_fib){FJ_TASK_INIT(left_spine_fib_compute), n - 2, rt};
        rt = t;
        fj_fork(&rt->task);
        n -= 1;
    }
    int r = rc ? 0 : seq_fib(n);
    if (rc) {
        left_spine_fib rest = {FJ_TASK_INIT(left_spine_fib_compute), n, NULL};
        rc = fj_invoke(&rest.task);
        r = rest.number;
    }
    while (rt != NULL) {
        if (fj_task_try_unfork(&rt->task))
            rc = fj_first_error(rc, fj_invoke(&rt->task));  /* rt.compute() */
        else
            rc = fj_first_error(rc, fj_join(&rt->task));
        r += rt->number;
        left_spine_fib *done = rt;
        rt = rt->next;
        free(done);
    }
    this->number = r;
    return rc;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 27, 0, 46);
    int num = (int)args.size;
    fj_pool *pool = port_pool(&args);
    int rc = 0, answer = 0;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        left_spine_fib f = {FJ_TASK_INIT(left_spine_fib_compute), num, NULL};
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &f.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        answer = f.number;  /* getAnswer() */
    }
    char what[64];
    snprintf(what, sizeof what, "Fib: Size: %d Answer: %d", num, answer);
    return port_verdict("LeftSpineFib", what, rc == 0 && answer == seq_fib(num), &args, best, pool);
}
