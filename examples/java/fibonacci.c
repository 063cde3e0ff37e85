/* fibonacci.c - the Fibonacci example of the RecursiveTask API documentation,
 * ported line by line (the Java original is Fibonacci.java next to this file).
 *
 *     class Fibonacci extends RecursiveTask<Integer> {
 *       final int n;
 *       Fibonacci(int n) { this.n = n; }
 *       protected Integer compute() {
 *         if (n <= 1)
 *           return n;
 *         Fibonacci f1 = new Fibonacci(n - 1);
 *         f1.fork();
 *         Fibonacci f2 = new Fibonacci(n - 2);
 *         return f2.compute() + f1.join();
 *       }
 *     }
 *
 * As the documentation says, "this is a dumb way to compute Fibonacci
 * numbers": every call is a task, which is what makes it a test of fork/join
 * cost.  Checked against the serial recursion. */
#include "port_util.h"

typedef struct fibonacci {
    FJ_RECURSIVE_TASK(int);  /* extends RecursiveTask<Integer> */
    int n;
} fibonacci;

static int fibonacci_compute(fj_task *task);

/* new Fibonacci(n) */
#define FIBONACCI(n) {FJ_TASK_INIT(fibonacci_compute), 0, (n)}

static int fibonacci_compute(fj_task *task)
{
    fibonacci *this = FJ_SELF(task, fibonacci);
    if (this->n <= 1) {
        this->result = this->n;
        return 0;
    }
    fibonacci f1 = FIBONACCI(this->n - 1);
    fj_fork(&f1.task);
    fibonacci f2 = FIBONACCI(this->n - 2);
    int rc = fibonacci_compute(&f2.task);           /* f2.compute() */
    rc = fj_first_error(rc, fj_join(&f1.task));     /* f1.join(): always joined */
    this->result = f2.result + f1.result;
    return rc;
}

static int fib_serial(int n) { return n <= 1 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 24, 0, 46);
    fj_pool *pool = port_pool(&args);
    int value = 0, rc = 0;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        fibonacci f = FIBONACCI((int)args.size);
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &f.task));   /* pool.invoke(f) */
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        value = f.result;
    }
    char what[64];
    snprintf(what, sizeof what, "fib(%ld) = %d", args.size, value);
    return port_verdict("Fibonacci", what, rc == 0 && value == fib_serial((int)args.size), &args, best, pool);
}
