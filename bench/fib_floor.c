/* fib_floor.c - the least a fork+join of fj's shape can cost, on one thread.
 *
 * fj's API puts the task on the caller's stack, pushes a pointer to it on a
 * deque and calls its body through a function pointer.  This program strips
 * that shape to the bone and times fib(n) with it, next to the same recursion
 * with plain calls:
 *
 *   calls   fib with one machine call per call (bench/kernels.c: kern_fib_calls)
 *   floor   a 24-byte task {fn, status, error, owner} on the stack; fork = mark
 *           it, store its pointer at the deque's tail, bump the tail; join =
 *           drop the tail, check head and the slot (the THE protocol's owner
 *           side, no fence: membarrier mode), call fn through the pointer,
 *           store DONE, look for waiters.  Nothing else: no statistics, no
 *           hooks, no wake-up test, no growth, no thieves.
 *
 * It is a measuring stick, not a runtime: one thread, no thief ever runs, and
 * every slow path aborts.  fj's real fast path (runtime/task_inline.h) does
 * all of the above plus what a runtime must (double-fork check, hooks, the
 * idle test, statistics).  Whatever fj does, its fib at 1 worker cannot beat
 * `floor`, so floor / calls bounds T1 / Tserial for this API on this machine.
 *
 *   make bench-floor   (or: cc -O2 -Ibench bench/fib_floor.c bench/kernels.c -lm)
 *   build/bench/fib_floor 40 5
 *   -> fib(40), median of 5: calls 0.4164 s  floor 0.7203 s  floor/calls 1.73
 *      (2026-11-22, the 2-core development machine)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernels.h"

typedef struct floor_task {
    int (*fn)(struct floor_task *);
    unsigned status; /* 0 new, 1 forked, 2 done; bytes above: waiters */
    int error;
    void *owner;
} floor_task;

typedef struct floor_deque {
    size_t tail, mask, limit;
    floor_task **slots;
    char pad[64]; /* head lives on the thieves' line, as in runtime/deque.h */
    volatile size_t head;
} floor_deque;

static floor_deque dq;

#define COMPILER_BARRIER() __asm__ __volatile__("" ::: "memory")

static __attribute__((noinline, noreturn)) void slow_path(const char *what)
{
    fprintf(stderr, "fib_floor: %s took a slow path, which this model does not have\n", what);
    abort();
}

static inline __attribute__((always_inline)) void floor_fork(floor_task *t)
{
    if (__builtin_expect(t->status == 1, 0))
        slow_path("fork");
    t->status = 1;
    t->owner = &dq;
    size_t tail = dq.tail;
    if (__builtin_expect(tail == dq.limit, 0))
        slow_path("fork");
    dq.slots[tail & dq.mask] = t;
    COMPILER_BARRIER(); /* the slot before the tail, as a release store orders them */
    dq.tail = tail + 1;
}

static inline __attribute__((always_inline)) int floor_join(floor_task *t)
{
    size_t tail = dq.tail - 1;
    dq.tail = tail;
    COMPILER_BARRIER(); /* membarrier mode: the thief's barrier is the StoreLoad */
    if (__builtin_expect((long)(dq.head - tail) > 0 || dq.slots[tail & dq.mask] != t, 0))
        slow_path("join");
    int rc = t->fn(t);
    ((volatile unsigned char *)&t->status)[0] = 2;
    COMPILER_BARRIER();
    const volatile unsigned char *above = (const volatile unsigned char *)&t->status + 1;
    if (__builtin_expect((above[0] | above[1] | above[2] | rc) != 0, 0))
        slow_path("join");
    return 0;
}

typedef struct fib_task {
    floor_task task;
    int n;
    long result;
} fib_task;

static int fib_run(floor_task *t)
{
    fib_task *f = (fib_task *)t;
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {{fib_run, 0, 0, NULL}, f->n - 1, 0};
    fib_task b = {{fib_run, 0, 0, NULL}, f->n - 2, 0};
    floor_fork(&a.task);
    fib_run(&b.task);
    floor_join(&a.task);
    f->result = a.result + b.result;
    return 0;
}

static double median_of(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 36, runs = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2 || n > 45 || runs < 1 || runs > 99) {
        fprintf(stderr, "usage: %s [N 2..45] [RUNS 1..99]\n", argv[0]);
        return 2;
    }
    dq.mask = 1023;
    dq.limit = dq.mask + 1;
    dq.slots = calloc(dq.mask + 1, sizeof *dq.slots);
    if (!dq.slots)
        return 1;
    double calls_s[99], floor_s[99];
    long want = kern_fib_calls(n);
    for (int r = 0; r < runs; r++) { /* alternate, so drift hits both alike */
        double t0 = kern_now();
        long got_calls = kern_fib_calls(n);
        double t1 = kern_now();
        fib_task root = {{fib_run, 0, 0, NULL}, n, 0};
        fib_run(&root.task);
        double t2 = kern_now();
        if (got_calls != want || root.result != want) {
            fprintf(stderr, "fib_floor: wrong result\n");
            return 1;
        }
        calls_s[r] = t1 - t0;
        floor_s[r] = t2 - t1;
    }
    double c = median_of(calls_s, runs), f = median_of(floor_s, runs);
    printf("fib(%d), median of %d: calls %.4f s  floor %.4f s  floor/calls %.2f\n", n, runs, c, f, f / c);
    return 0;
}
