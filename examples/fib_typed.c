/* fib_typed.c - Fibonacci with typed tasks: the README's first example.
 *
 * FJ_TASK declares fib once, with its result and argument types; FJ_SPAWN
 * puts a frame with the argument on the worker's deque, FJ_CALL is a plain
 * call, FJ_SYNC takes the frame back and calls the body right there unless a
 * thief took it.  No cut-off: every call is a task, so this measures the cost
 * of a spawn + sync, which is about that of a function call (compare with
 * fib.c, the same program with fj_task structs).  The two lines that differ
 * from fib_serial are the spawn and the sync. */
#include "example_util.h"

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

FJ_TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib, n - 1);          /* serial: long a = fib_serial(n - 1); */
    long b = FJ_CALL(fib, n - 2);
    long a = FJ_SYNC(fib);         /* serial: nothing here */
    return a + b;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 32, 0, 92);
    fj_pool *pool = example_pool(&args);

    int rc = 0;
    double t0 = example_seconds();
    long result = FJ_RUN_RC(pool, &rc, fib, (int)args.size);
    double t1 = example_seconds();
    long expected = fib_serial((int)args.size);
    double t2 = example_seconds();

    printf("fib(%ld) = %ld on %u workers (typed tasks: their spawns and inline syncs keep no counters, so\n"
           "  FJ_STATS shows only their steals, leapfrogs and parks)\n",
           args.size, result, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    if (rc != 0)
        fprintf(stderr, "FJ_RUN: %s\n", fj_strerror(rc));
    return example_verdict("fib_typed", rc == 0 && result == expected, t1 - t0, t2 - t1);
}
