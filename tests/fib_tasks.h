/* fib_tasks.h - fib three ways, for the tests that need work of a known
 * result and shape: serial (the expected value), a typed task (FJ_TASK fib)
 * and an fj_task on the stack (fib_task, fib_classic: the shape of
 * examples/fib.c).  Include it in one file of a test program. */
#ifndef FJ_TESTS_FIB_TASKS_H
#define FJ_TESTS_FIB_TASKS_H

#include "fj.h"

static inline long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

FJ_TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib, n - 1);
    long b = FJ_CALL(fib, n - 2);
    long a = FJ_SYNC(fib);
    return a + b;
}

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

/* Forks fib(n - 1), runs fib(n - 2) itself, joins; the first error wins. */
static inline int fib_classic(fj_task *task)
{
    fib_task *self = FJ_CONTAINER_OF(task, fib_task, task);
    if (self->n < 2) {
        self->result = self->n;
        return 0;
    }
    fib_task left = {FJ_TASK_INIT(fib_classic), self->n - 1, 0};
    fib_task right = {FJ_TASK_INIT(fib_classic), self->n - 2, 0};
    int rc = fj_fork(&left.task);
    if (rc == 0)
        rc = fj_invoke(&right.task);
    int joined = fj_join(&left.task);
    self->result = left.result + right.result;
    return rc != 0 ? rc : joined;
}

#endif
