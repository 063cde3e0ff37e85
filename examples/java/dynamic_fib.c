/* dynamic_fib.c - jsr166's ForkJoin benchmark DynamicFib, ported from
 * DynamicFib.java: Fibonacci that stops forking when this worker already has
 * a surplus of queued tasks, and takes back its forked half with tryUnfork().
 *
 *     static int fib(int n) {
 *         int r;
 *         if (n <= 1) r = n;
 *         else if (getSurplusQueuedTaskCount() >= 4) r = seqFib(n);
 *         else {
 *             DynamicFib f2 = new DynamicFib(n - 2);
 *             f2.fork();
 *             r = fib(n - 1);
 *             if (f2.tryUnfork()) r += fib(n - 2);
 *             else { f2.quietlyJoin(); r += f2.number; }
 *         }
 *         return r;
 *     }
 *
 * Checked against the serial recursion.
 * Usage: dynamic_fib [--workers N] [--reps R] [N]  (jsr166 default 45;
 * ours 27 for the test suite, the benchmark passes 38). */
#include "port_util.h"

typedef struct dynamic_fib {
    FJ_RECURSIVE_ACTION;
    int number;  /* argument, replaced with the result */
} dynamic_fib;

static int seq_fib(int n) { return n <= 1 ? n : seq_fib(n - 1) + seq_fib(n - 2); }

static int fib(int n);

static int dynamic_fib_compute(fj_task *task)
{
    dynamic_fib *this = FJ_SELF(task, dynamic_fib);
    this->number = fib(this->number);
    return 0;
}

static int fib(int n)
{
    int r;
    if (n <= 1) {
        r = n;
    } else if (fj_get_surplus_queued_task_count() >= 4) {
        r = seq_fib(n);
    } else {
        dynamic_fib f2 = {FJ_TASK_INIT(dynamic_fib_compute), n - 2};
        fj_fork(&f2.task);
        r = fib(n - 1);
        if (fj_task_try_unfork(&f2.task)) {
            r += fib(n - 2);
        } else {
            fj_task_quietly_join(&f2.task);
            r += f2.number;
        }
    }
    return r;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 27, 0, 46);
    int num = (int)args.size;
    fj_pool *pool = port_pool(&args);
    int rc = 0, answer = 0;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        dynamic_fib f = {FJ_TASK_INIT(dynamic_fib_compute), num};
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &f.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        answer = f.number;
    }
    char what[64];
    snprintf(what, sizeof what, "Fib: Size: %d Answer: %d", num, answer);
    return port_verdict("DynamicFib", what, rc == 0 && answer == seq_fib(num), &args, best, pool);
}
