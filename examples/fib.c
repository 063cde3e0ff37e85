/* fib.c - Fibonacci with fork/join, the "hello world" of the field.
 *
 * fib(n) forks fib(n-1), computes fib(n-2) itself, then joins.  No cut-off:
 * every call is a task, so this measures the pure cost of fork + join.
 * Compare fib_parallel with fib_serial: the two-line difference is the fork
 * and the join. */
#include "example_util.h"

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static int fib_parallel(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_parallel), f->n - 1, 0};
    fib_task b = {FJ_TASK_INIT(fib_parallel), f->n - 2, 0};
    fj_fork(&a.task);        /* a may now be stolen */
    fib_parallel(&b.task);   /* b runs here */
    fj_join(&a.task);        /* a is done, and its result visible */
    f->result = a.result + b.result;
    return 0;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 32, 0, 92);
    fj_pool *pool = example_pool(&args);

    fib_task root = {FJ_TASK_INIT(fib_parallel), (int)args.size, 0};
    double t0 = example_seconds();
    int rc = fj_pool_invoke(pool, &root.task);
    double t1 = example_seconds();
    long expected = fib_serial((int)args.size);
    double t2 = example_seconds();

    printf("fib(%ld) = %ld on %u workers\n", args.size, root.result, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    if (rc != 0)
        fprintf(stderr, "fj_pool_invoke: %s\n", fj_strerror(rc));
    return example_verdict("fib", rc == 0 && root.result == expected, t1 - t0, t2 - t1);
}
