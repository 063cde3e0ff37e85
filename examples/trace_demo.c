/* trace_demo.c - fib with a cut-off, for seeing granularity (docs/tutorial.md).
 *
 *   trace_demo [--workers N] [--cutoff C] [N]
 *
 * Below the cut-off C the recursion runs serially, with no task: each task
 * then carries about fib(C) calls of work instead of one.  C = 0 (default)
 * makes every call a task, like examples/fib.  Run it under FJ_PROFILE=1 to
 * see how the cut-off trades parallelism for less overhead, and under
 * FJ_TRACE=out.json to see it (tools/fj_timeline). */
#include "example_util.h"

typedef struct fib_task {
    fj_task task;
    int n, cutoff;
    long result;
} fib_task;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static int fib_parallel(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2 || f->n <= f->cutoff) {  /* small enough: no more tasks */
        f->result = fib_serial(f->n);
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_parallel), f->n - 1, f->cutoff, 0};
    fib_task b = {FJ_TASK_INIT(fib_parallel), f->n - 2, f->cutoff, 0};
    fj_fork(&a.task);
    fib_parallel(&b.task);
    fj_join(&a.task);
    f->result = a.result + b.result;
    return 0;
}

int main(int argc, char **argv)
{
    int cutoff = 0;
    /* Takes --cutoff C out of argv; example_parse reads the rest. */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        long value;
        if (strcmp(argv[i], "--cutoff") == 0) {
            if (i + 1 == argc)
                example_bad_option(argv[0], argv[i], "[--cutoff C] " EXAMPLE_USAGE);
            if (!example_number(argv[++i], 0, 92, &value))
                example_refuse(argv[0], "--cutoff", argv[i], 0, 92, "[--cutoff C] " EXAMPLE_USAGE);
            cutoff = (int)value;
        } else
            argv[kept++] = argv[i];
    }
    example_args args = example_parse(kept, argv, 25, 0, 92);
    fj_pool *pool = example_pool(&args);

    fib_task root = {FJ_TASK_INIT(fib_parallel), (int)args.size, cutoff, 0};
    double t0 = example_seconds();
    int rc = fj_pool_invoke(pool, &root.task);
    double t1 = example_seconds();
    long expected = fib_serial((int)args.size);
    double t2 = example_seconds();

    printf("fib(%ld) = %ld with cut-off %d on %u workers\n", args.size, root.result, cutoff, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    if (rc != 0)
        fprintf(stderr, "fj_pool_invoke: %s\n", fj_strerror(rc));
    return example_verdict("trace_demo", rc == 0 && root.result == expected, t1 - t0, t2 - t1);
}
