/* fj.h - the public interface of fj, a work-stealing fork/join runtime for C.
 *
 * A task is a small struct you embed in your own struct (as a Java class
 * extends RecursiveTask) and normally keep on the caller's stack.  fj_fork()
 * pushes it on the current worker's deque; fj_join() takes it back and runs it
 * inline if no thief took it, or helps with other work until the thief is done.
 *
 *     typedef struct { fj_task task; int n; long result; } fib_task;
 *
 *     static int fib_compute(fj_task *t)
 *     {
 *         fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
 *         if (f->n < 2) { f->result = f->n; return 0; }
 *         fib_task a = { FJ_TASK_INIT(fib_compute), f->n - 1, 0 };
 *         fib_task b = { FJ_TASK_INIT(fib_compute), f->n - 2, 0 };
 *         fj_fork(&a.task);            // a may now run on another worker
 *         fib_compute(&b.task);        // b runs here
 *         fj_join(&a.task);            // a's writes are visible after this
 *         f->result = a.result + b.result;
 *         return 0;
 *     }
 *
 * Conventions of this header.  Every declaration says what it does, who may
 * call it, what memory ordering it guarantees and what it returns on failure.
 * Functions that can fail return 0 or a negative FJ_E* code; fj_strerror()
 * names it.  The library never prints (unless FJ_STATS / FJ_TRACE / FJ_PROFILE
 * ask it to) and never calls exit().
 *
 * Words used throughout: the *owner* of a deque is the worker it belongs to; a
 * *thief* takes work from a *victim*'s deque (a *steal*); a joiner whose child
 * was stolen *helps* by running other work, first *leapfrogging* (stealing back
 * from the thief, work that belongs to the child); a worker with nothing to do
 * *parks* until woken.
 */
#ifndef FJ_H
#define FJ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FJ_VERSION_MAJOR 0
#define FJ_VERSION_MINOR 1

/* ======================================================================== */
/* Errors                                                                   */
/* ======================================================================== */

enum fj_error {
    FJ_OK = 0,
    FJ_EINVAL = -1,      /* an argument is out of range or NULL */
    FJ_ENOMEM = -2,      /* memory could not be allocated */
    FJ_ESHUTDOWN = -3,   /* the pool no longer accepts submissions */
    FJ_ENOTFORKED = -4,  /* join/wait on a task that was never forked or submitted */
    FJ_ECANCELED = -5,   /* the task was cancelled */
    FJ_ETIMEDOUT = -6,   /* a timed wait ran out */
    FJ_EDEADLK = -7,     /* the call would wait for itself (e.g. destroy from its own worker) */
    FJ_ENOTWORKER = -8,  /* the call is only valid on a worker thread of a pool */
    FJ_ESYSTEM = -9,     /* the system refused (thread creation, CPU pinning) */
    FJ_EBUSY = -10       /* the object is in use (e.g. fork of a task already queued) */
};

/* Describes an FJ_E* code (or any int) in a static English string.  Any thread. */
const char *fj_strerror(int error);

/* ======================================================================== */
/* Tasks                                                                    */
/* ======================================================================== */

typedef struct fj_task fj_task;
typedef struct fj_pool fj_pool;

/* A task's body.  Returns 0, or a negative code that join reports (the Java
 * counterpart of throwing from compute()).  Codes should be FJ_E* values or
 * your own values below -1000. */
typedef int (*fj_task_fn)(fj_task *task);

struct fj_task {
    /* public: set before fork (FJ_TASK_INIT / fj_task_init) */
    fj_task_fn fn;
    /* private: the runtime's, described in runtime/task.h; do not touch */
    volatile unsigned int fj_status;  /* phase, abort flags, waiter (a futex word) */
    volatile int fj_error;            /* first error reported for the task */
    volatile int fj_thief;            /* parker slot of the worker that stole it, or -1 */
    unsigned int fj_flags;            /* how the task was started (external, ...) */
    void *fj_owner;                   /* worker that forked it, NULL if none */
    void *fj_pool;                    /* pool it was submitted to from outside */
    unsigned long long fj_tool[2];    /* scratch for the profiler (FJ_PROFILE) */
};

/* Static initialiser: `fj_task t = FJ_TASK_INIT(my_compute);` */
#define FJ_TASK_INIT(fn) {(fn), 0u, 0, -1, 0u, NULL, NULL, {0u, 0u}}

/* From a pointer to the embedded fj_task back to your struct. */
#define FJ_CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Prepares `task` to run `fn`; the run-time counterpart of FJ_TASK_INIT.  Also
 * resets a completed task so it can be forked again (Java's reinitialize()).
 * Any thread, but not while the task is queued or running. */
void fj_task_init(fj_task *task, fj_task_fn fn);

/* Pushes `task` on the current worker's deque, so that a thief may run it.
 * Worker of any pool: returns 0.  It never fails for lack of memory: if the
 * deque cannot grow, the task is run at once, inline, and 0 is returned.
 * A thread that is not a worker: the task is submitted to the common pool (as
 * Java's fork() does) and 0 is returned, or FJ_ESHUTDOWN / FJ_ENOMEM.
 * FJ_EBUSY: the task is already forked and not yet complete (nothing done).
 * Ordering: everything the caller wrote before fj_fork happens-before the task
 * starts, on whichever thread runs it. */
int fj_fork(fj_task *task);

/* Waits for `task` to complete and returns its outcome: 0, the error its fn
 * returned or fj_task_fail() recorded (the first one), or FJ_ECANCELED.
 * Worker: if the task is still in this worker's deque it is taken back and run
 * inline (with any task forked after it that is still queued); if a thief took
 * it, the worker helps (leapfrogs, then runs other queued work, to a bounded
 * depth) until it completes, and parks only when nothing can be helped.
 * Tasks may be joined in any order, and by a thread other than the forker.
 * Not a worker: blocks (futex) until the task completes.
 * Joining a completed task again returns the same outcome at once.
 * FJ_ENOTFORKED: the task was never forked, invoked or submitted.
 * Ordering: everything the task wrote happens-before fj_join returns, on every
 * architecture (release when it completes, acquire here). */
int fj_join(fj_task *task);

/* Runs `task` now, in the calling thread, and returns its outcome as fj_join
 * does (Java's invoke()).  Any thread; no pool is needed. */
int fj_invoke(fj_task *task);

/* The commonest case without declaring a task: runs a(arg_a) and b(arg_b) in
 * parallel (a is forked, b runs here, then a is joined) and returns when both
 * are done.  On a thread that is not a worker both run serially, a first.
 * Ordering: both functions' writes happen-before fj_pair returns. */
void fj_pair(void (*a)(void *), void *arg_a, void (*b)(void *), void *arg_b);

/* True once the task completed, normally or not (Java's isDone()).  Any thread.
 * A true answer is an acquire: the task's writes are then visible. */
int fj_task_is_done(const fj_task *task);

/* True if cancelled (isCancelled()), or completed abnormally (error or cancel). */
int fj_task_is_cancelled(const fj_task *task);
int fj_task_is_completed_abnormally(const fj_task *task);
int fj_task_is_completed_normally(const fj_task *task);

/* Cancels a task that has not completed (Java's cancel()): if it has not
 * started it will not run; if it is running, it finishes but joins report
 * FJ_ECANCELED.  Returns 0, or FJ_EINVAL if it had already completed.  Joins
 * of a cancelled task still wait until no thread is running it, so that a task
 * on the stack is never freed under a running body.  Any thread. */
int fj_task_cancel(fj_task *task);

/* Records `error` (< 0) as the task's outcome unless it already completed or
 * has an error (the first wins), and suppresses it if it has not started
 * (Java's completeExceptionally()).  Returns 0 or FJ_EINVAL.  Any thread. */
int fj_task_fail(fj_task *task, int error);

/* The outcome a join would return now, or 1 if the task is not complete.  Any
 * thread; does not wait. */
int fj_task_outcome(const fj_task *task);

/* Waits for a task from a thread that is not a worker (or a worker, which then
 * helps as fj_join does), at most `timeout_ns` nanoseconds (< 0: forever).
 * Returns the outcome, or FJ_ETIMEDOUT (the task is unaffected). */
int fj_task_wait(fj_task *task, long long timeout_ns);

/* Owner only: takes `task` back if it is the newest task in this worker's deque
 * and not started (Java's tryUnfork()).  Returns 1 if taken back (it will not
 * run unless forked again), 0 otherwise. */
int fj_task_try_unfork(fj_task *task);

/* ======================================================================== */
/* Pools                                                                    */
/* ======================================================================== */

/* Pool settings.  Zero in any field means "the default"; fj_config_init fills
 * the defaults in.  Environment variables override some fields at creation:
 *   FJ_WORKERS=N      workers (0 or unset: one per online CPU)
 *   FJ_SPIN=N, FJ_YIELD=N, FJ_STEAL_ATTEMPTS=N   the idle knobs
 *   FJ_PIN=1          pin worker i to online CPU i mod ncpu
 *   FJ_SEED=N         victim-selection seed
 *   FJ_STATS=1        print a per-worker table on stderr at fj_pool_destroy
 *   FJ_FENCE=full     do not use membarrier (see runtime/atomics.h)
 */
typedef struct fj_config {
    unsigned workers;          /* 1..1024; 0 = one per online CPU */
    unsigned long long seed;   /* victim selection RNG; 0 = fixed default */
    unsigned spin_rounds;      /* idle rounds spent spinning before yielding */
    unsigned yield_rounds;     /* idle rounds that yield before parking */
    unsigned steal_attempts;   /* victims tried per idle round */
    int pin_workers;           /* 1: pin worker i to CPU i mod ncpu */
    size_t stack_size;         /* worker thread stack, bytes; 0 = 8 MiB */
} fj_config;

/* Fills `config` with the defaults (workers = 0: one per CPU).  Any thread. */
void fj_config_init(fj_config *config);

/* Creates a pool and starts its workers.  `config` may be NULL (defaults).
 * Returns 0 and sets *pool, or FJ_EINVAL (more than 1024 workers, NULL pool),
 * FJ_ENOMEM, FJ_ESYSTEM (a thread could not be started; none is left running).
 * Any thread, including a worker of another pool. */
int fj_pool_create(fj_pool **pool, const fj_config *config);

/* After fj_pool_create failed with FJ_EINVAL on this thread: which setting was
 * wrong, its value and the accepted range, e.g. "FJ_WORKERS=two: not a whole
 * number (expected 0..1024)".  Empty after a success.  The library does not
 * print it; the caller may.  Calling thread only (thread-local). */
const char *fj_last_error_detail(void);

/* Stops accepting external submissions; accepted work still runs to the end.
 * Later fj_pool_invoke / fj_pool_submit return FJ_ESHUTDOWN.  Idempotent.
 * Returns 0.  Any thread, including the pool's own workers. */
int fj_pool_shutdown(fj_pool *pool);

/* Shuts the pool down, waits for every accepted submission to finish, joins
 * the workers and frees the pool.  Returns 0, or FJ_EDEADLK when called from
 * one of the pool's own workers (nothing is done), FJ_EINVAL for NULL.
 * Destroying the common pool is refused with FJ_EINVAL (it is torn down at exit). */
int fj_pool_destroy(fj_pool *pool);

/* Runs `task` as a root task of `pool` and returns its outcome when done.
 * Not a worker of `pool`: submits through the pool's injector and blocks.
 * A worker of `pool`: runs the task inline (as fj_invoke).
 * Returns the outcome, or FJ_ESHUTDOWN, FJ_ENOMEM, FJ_EBUSY (task queued).
 * Ordering: the caller's writes happen-before the task runs; the task's writes
 * happen-before this returns. */
int fj_pool_invoke(fj_pool *pool, fj_task *task);

/* Submits `task` and returns at once; wait with fj_join or fj_task_wait.  The
 * task must stay valid until it completes (see "Task lifetime" below).
 * Returns 0, FJ_ESHUTDOWN, FJ_ENOMEM, FJ_EBUSY.  Any thread. */
int fj_pool_submit(fj_pool *pool, fj_task *task);

/* The common pool (Java's ForkJoinPool.commonPool()): created on first use with
 * FJ_WORKERS or one worker per online CPU, shut down and destroyed at exit.
 * Returns NULL only if it cannot be created (out of memory, no threads). */
fj_pool *fj_common_pool(void);

/* Number of workers of the pool.  Any thread. */
unsigned fj_pool_worker_count(const fj_pool *pool);

/* The pool whose worker is running this thread, or NULL.  Any thread. */
fj_pool *fj_current_pool(void);

/* This worker's index in its pool (0..workers-1), or -1 on other threads. */
int fj_current_worker_index(void);

/* ======================================================================== */
/* Statistics                                                               */
/* ======================================================================== */

/* Per-worker counters.  Each is written only by its own worker (no shared
 * cache-line traffic on the fast path) and read racily by a snapshot. */
typedef struct fj_worker_stats {
    unsigned long long tasks_run;       /* task bodies started by this worker */
    unsigned long long forks;           /* fj_fork calls */
    unsigned long long inline_joins;    /* joins whose task was taken back and run inline */
    unsigned long long steals;          /* tasks taken from another worker's deque */
    unsigned long long failed_steals;   /* steal attempts on a non-empty-looking victim that got nothing */
    unsigned long long leapfrogs;       /* steals from the thief of a task being joined */
    unsigned long long helps;           /* other tasks run while waiting in a join */
    unsigned long long injector_takes;  /* tasks taken from the external queue */
    unsigned long long parks;           /* times the worker parked */
    unsigned long long wakeups;         /* times it came back from parking */
} fj_worker_stats;

/* Copies up to `capacity` per-worker rows into `per_worker` (may be NULL) and
 * their sum into `total` (may be NULL).  Returns the number of workers, or
 * FJ_EINVAL.  Any thread; a snapshot, exact once the pool is idle. */
int fj_pool_stats(const fj_pool *pool, fj_worker_stats *per_worker, unsigned capacity, fj_worker_stats *total);

/* Prints the per-worker table (the one FJ_STATS=1 prints) to `out`.  Returns
 * 0 or FJ_EINVAL.  Any thread. */
int fj_pool_print_stats(const fj_pool *pool, FILE *out);

/* ======================================================================== */
/* Parallel loops (runtime/loop.c)                                          */
/* ======================================================================== */
/*
 * Loops over [from, to) of int64_t, on work-stealing ranges: each worker starts
 * on one contiguous chunk and runs it from the low end one grain (a run of
 * `grain` indices) at a time, keeping the top quarter stealable; idle workers
 * steal it and share it in turn.  docs/loops.md has the details.
 *
 * Common to the three calls:
 *   pool   the pool to run on; NULL: the caller's pool if it is a worker,
 *          else the common pool.  From a worker of that pool the loop runs
 *          in place (nested loops, loops inside forked tasks and inside other
 *          loops' bodies are fine and cannot deadlock); from any other thread
 *          it is submitted as with fj_pool_invoke, and the caller blocks.
 *   grain  indices per grain, the unit handed out and the most one body call
 *          gets; 0: automatic (about 256 grains per worker).
 *   Ordering: everything the caller wrote before the call happens-before
 *          every body call; every body write happens-before the call returns.
 *   Returns 0; FJ_EINVAL if from > to, grain < 0 or a function is NULL
 *          (nothing runs); FJ_ENOMEM if the loop's bookkeeping could not be
 *          allocated or the common pool could not be made; FJ_ESHUTDOWN when
 *          submitting to a pool that was shut down (then nothing runs).
 *          An empty range returns 0 at once.  Bodies cannot fail a loop:
 *          record errors in your context.
 * Every index in [from, to) is passed to exactly one body call, in any order,
 * concurrently with others: bodies must not depend on an order.
 */

/* A body over a sub-range [lo, hi) of at most `grain` indices. */
typedef void (*fj_range_fn)(int64_t lo, int64_t hi, void *ctx);
/* A body over one index. */
typedef void (*fj_index_fn)(int64_t i, void *ctx);
/* A reduce body: folds the indices [lo, hi) into `acc` (which holds the
 * identity or earlier indices of the same run), left to right. */
typedef void (*fj_reduce_fn)(int64_t lo, int64_t hi, void *acc, void *ctx);
/* acc = acc (+) right, where `right` covers the indices just after acc's. */
typedef void (*fj_combine_fn)(void *acc, const void *right, void *ctx);

/* Calls body(lo, hi, ctx) on sub-ranges that together cover [from, to) once.
 * Any thread. */
int fj_parallel_for(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_range_fn body, void *ctx);

/* Calls body(i, ctx) once for every i in [from, to).  Any thread. */
int fj_parallel_for_each(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_index_fn body, void *ctx);

/* Reduces [from, to) into `result` (`size` bytes): each run of grains one
 * worker takes starts from a copy of `identity` and is folded by `body`; the
 * partial values are then combined in index order, left to right, by the
 * caller's thread.  For an associative combine the result equals the serial
 * fold whatever the schedule (integers: exactly).  Floating point: the
 * grouping of the partial sums depends on the schedule, so results may differ
 * in the last bits from run to run and from the serial sum (the error bound is
 * that of a serial sum); see docs/loops.md.  An empty range stores the
 * identity.  `result` and `identity` may not overlap.  Any thread. */
int fj_parallel_reduce(fj_pool *pool, int64_t from, int64_t to, int64_t grain, void *result, size_t size,
                       const void *identity, fj_reduce_fn body, fj_combine_fn combine, void *ctx);

/* ======================================================================== */
/* Tracing, profiling and teaching modes (runtime/trace.c, profile.c)      */
/* ======================================================================== */
/*
 * Three aids to see what the scheduler did, each free when off (the fast path
 * tests one byte per worker, fixed when the worker starts):
 *
 *   FJ_TRACE=out.json   record every worker's events into a Chrome Trace Event
 *                       file (open it in https://ui.perfetto.dev or
 *                       chrome://tracing; `fj_timeline out.json > out.svg`
 *                       draws it).  Written at exit, or by fj_trace_stop().
 *   FJ_TRACE_BUFFER=N   events kept per worker (default 1048576); beyond it
 *                       the file says "trace buffer full" and how many were lost.
 *   FJ_PROFILE=1        measure work, span and parallelism; the table of
 *                       speedup bounds for 1..64 workers is printed on stderr
 *                       at exit.
 *   FJ_WORKERS=1        besides one worker: serial elision, every fork runs its
 *                       task at once, so the program runs in the order of its
 *                       serial twin.  FJ_SERIAL=1 forces it for any pool size.
 *   FJ_STRESS=N         steal stress: after 1 in N forks (N=1: every fork) the
 *                       forker waits briefly for a thief to take the task, so
 *                       a race in your program shows up quickly.
 *
 * Which workers the API reaches.  A worker is armed for tracing (profiling)
 * when it starts, if a trace (profile) session was opened before in this
 * process or FJ_TRACE (FJ_PROFILE) is set.  Armed workers follow every later
 * start and stop.  So: start the first session before creating the pool, or
 * set the variable; a pool created before either records nothing, by design,
 * to keep its fast path free (its workers never look).
 */

/* Opens the process's trace session, writing to `path` (created or truncated
 * now, filled when the session stops).  Armed workers record from their next
 * event on.  Any thread.  Returns 0, FJ_EINVAL (NULL or empty path), FJ_EBUSY
 * (a session is open; also the one FJ_TRACE opened), FJ_ESYSTEM (the file
 * cannot be opened), FJ_ENOMEM. */
int fj_trace_start(const char *path);

/* Stops recording, waits until no worker is in the middle of recording an
 * event, and writes the file: one track per worker (pid = pool, tid = worker
 * index), task slices named by how the task was obtained (task:inline,
 * task:stolen, task:leapfrog, task:local, task:injected, task:serial), join
 * waits, parked time, and arrows from victim to thief for every steal and
 * leapfrog.  Every event recorded before this call is in the file; the counts
 * match fj_pool_stats for work done while the session was open.  Any thread,
 * including a worker.  Returns 0, FJ_EINVAL (no session open), FJ_ENOMEM,
 * FJ_ESYSTEM (writing failed). */
int fj_trace_stop(void);

/* 1 while a trace session is open, else 0.  Any thread; a racy snapshot. */
int fj_trace_is_on(void);

/* The result of a profile session.  Amounts are in clock units: nanoseconds
 * by default, or whatever the clock given to fj_profile_set_clock counts. */
typedef struct fj_profile {
    unsigned long long work;   /* T1: the sum of all strands' durations */
    unsigned long long span;   /* Tinf: the longest chain of dependent strands */
    unsigned long long tasks;  /* task bodies measured */
    double parallelism;        /* work / span; 0 if span is 0 */
    int clock_is_ns;           /* 1 if amounts are nanoseconds */
} fj_profile;

/* Opens the process's profile session: armed workers measure from their next
 * event on.  Start it before forking the work to measure (tasks forked earlier
 * count as roots).  Any thread.  Returns 0, or FJ_EBUSY if one is open. */
int fj_profile_start(void);

/* Closes the session and stores its totals in *result (may be NULL).  Exact
 * when no task is running (e.g. after fj_pool_invoke returned); otherwise a
 * snapshot.  Any thread.  Returns 0, or FJ_EINVAL if no session is open. */
int fj_profile_stop(fj_profile *result);

/* Prints work, span, parallelism and, for P = 1, 2, 4, ..., 64 workers, the
 * greedy-scheduler bounds max(T1/P, Tinf) <= T_P <= T1/P + Tinf with the
 * speedups they imply.  Any thread.  Returns 0, FJ_EINVAL (NULL argument),
 * FJ_ESYSTEM (write error). */
int fj_profile_print(const fj_profile *profile, FILE *out);

/* Replaces the profiler's clock (NULL: CLOCK_MONOTONIC nanoseconds).  `clock`
 * is called on worker threads and must measure the calling thread's progress
 * (e.g. a per-thread counter of units of work: deterministic profiles).  Any
 * thread, only while no profile session is open.  Returns 0 or FJ_EBUSY. */
int fj_profile_set_clock(unsigned long long (*clock)(void));

/* ======================================================================== */
/* Misuse and what it gets                                                  */
/* ======================================================================== */
/*
 *   joining a task twice              the same outcome again, at once
 *   joining a task never forked       FJ_ENOTFORKED (task must have been initialised)
 *   forking a task already queued     FJ_EBUSY, nothing changes
 *   forking outside any pool          goes to the common pool (as in Java)
 *   joining outside any pool          blocks until the task completes
 *   a pool of 0 workers               one worker per online CPU
 *   a pool of 100000 workers          FJ_EINVAL (the limit is 1024 per pool)
 *   destroying a pool from its worker FJ_EDEADLK, nothing is done
 *   submitting after shutdown         FJ_ESHUTDOWN, the task is untouched
 *   out of memory while a deque grows the forked task runs inline; nothing lost
 *   out of memory in the injector     FJ_ENOMEM from submit/invoke
 *   an uninitialised fj_task          undefined: use FJ_TASK_INIT or fj_task_init
 *   owner-only call off its worker    assertion failure in debug builds
 *
 * Task lifetime.  A task on the stack is fine when the frame that forks it also
 * joins it (the common, "fully strict" case).  A task forked in one place and
 * joined in another, or submitted and waited for from outside, must stay valid
 * until it completes: heap-allocate it, and free it after a join/wait returned.
 * The runtime never touches a task after publishing its completion.
 */

#ifdef __cplusplus
}
#endif

#endif /* FJ_H */
