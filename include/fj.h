/** @file
 * fj.h - the public interface of fj, a work-stealing fork/join runtime for C.
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
 * ask it to, or the common pool cannot start: fj_common_pool) and never calls
 * exit().
 *
 * Words used throughout: the *owner* of a deque is the worker it belongs to; a
 * *thief* takes work from a *victim*'s deque (a *steal*); a joiner whose child
 * was stolen *helps* by running other work, first *leapfrogging* (stealing back
 * from the thief, work that belongs to the child); a worker with nothing to do
 * *parks* until woken.
 */
#ifndef FJ_H
#define FJ_H
#pragma GCC visibility push(default) /* libfj exports what its headers declare */
/* The inline code of this header names its parameters as any code would; a
 * program built with -Wshadow whose globals have those names is not warned
 * about code it did not write (the Makefile's header-check builds one). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @{ */
/** The version of this header: major, then minor (the Makefile reads it for the library's version). */
#define FJ_VERSION_MAJOR 0
#define FJ_VERSION_MINOR 1
/** @} */

/* ======================================================================== */
/* Errors                                                                   */
/* ======================================================================== */

/** The outcomes of fj's calls: 0 for success, a negative FJ_E* code for a failure (fj_strerror names it). */
enum fj_error {
    FJ_OK = 0,           /**< success */
    FJ_EINVAL = -1,      /**< an argument is out of range or NULL */
    FJ_ENOMEM = -2,      /**< memory could not be allocated */
    FJ_ESHUTDOWN = -3,   /**< the pool no longer accepts submissions */
    FJ_ENOTFORKED = -4,  /**< join/wait on a task that was never forked or submitted */
    FJ_ECANCELED = -5,   /**< the task was cancelled */
    FJ_ETIMEDOUT = -6,   /**< a timed wait ran out */
    FJ_EDEADLK = -7,     /**< the call would wait for itself (e.g. destroy from its own worker) */
    FJ_ENOTWORKER = -8,  /**< the call is only valid on a worker thread of a pool */
    FJ_ESYSTEM = -9,     /**< the system refused (thread creation, CPU pinning) */
    FJ_EBUSY = -10       /**< the object is in use (e.g. fork of a task already queued) */
};

/** Describes an FJ_E* code (or any int) in a static English string.  Any thread. */
const char *fj_strerror(int error);

/* ======================================================================== */
/* Tasks                                                                    */
/* ======================================================================== */

/** A task: embed it in your own struct (see struct fj_task). */
typedef struct fj_task fj_task;
/** A pool of worker threads (opaque): fj_pool_create, fj_common_pool. */
typedef struct fj_pool fj_pool;

/** A task's body.  Returns 0, or a negative code that join reports (the Java
 * counterpart of throwing from compute()).  Codes should be FJ_E* values or
 * your own values below -1000.  A positive return is a mistake that join
 * reports as it is (fj_task_outcome's 1 is then also "not complete":
 * fj_task_is_done tells the two apart). */
typedef int (*fj_task_fn)(fj_task *task);

/** A task, embedded in your own struct; initialise it with FJ_TASK_INIT or fj_task_init. */
struct fj_task {
    /** public: set before fork (FJ_TASK_INIT / fj_task_init) */
    fj_task_fn fn;
    /** @name private: the runtime's, described in runtime/task.h; do not touch */
    /** @{ */
    volatile unsigned int fj_status;  /**< phase, abort flags, waiter (a futex word) */
    volatile int fj_error;            /**< first error reported for the task */
    volatile int fj_thief;            /**< parker slot of the worker that stole it, or -1 */
    unsigned short fj_flags;          /**< how the task was started (external, ...) */
    unsigned short fj_tag;            /**< Java's ForkJoinTask tag (fj_java.h), 0 after init */
    void *fj_owner;                   /**< worker that forked it, NULL if none */
    void *fj_pool;                    /**< pool it was submitted to from outside */
    unsigned long long fj_tool[2];    /**< scratch for the profiler (FJ_PROFILE) */
    /** @} */
};

/** Static initialiser: `fj_task t = FJ_TASK_INIT(my_compute);` */
#define FJ_TASK_INIT(fn) {(fn), 0u, 0, -1, 0u, 0u, NULL, NULL, {0u, 0u}}

/** From a pointer to the embedded fj_task back to your struct. */
#define FJ_CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/** Prepares `task` to run `fn`; the run-time counterpart of FJ_TASK_INIT.  Also
 * resets a completed task so it can be forked again (Java's reinitialize()).
 * Any thread, but not while the task is queued or running. */
void fj_task_init(fj_task *task, fj_task_fn fn);

/** Pushes `task` on the current worker's deque, so that a thief may run it.
 * Worker of any pool: returns 0.  It never fails for lack of memory: if the
 * deque cannot grow, the task is run at once, inline, and 0 is returned.
 * A thread that is not a worker: the task is submitted to the common pool (as
 * Java's fork() does) and 0 is returned, or FJ_ESHUTDOWN / FJ_ENOMEM, or the
 * common pool's code if it cannot start (fj_common_pool).
 * FJ_EBUSY: the task is already forked and not yet complete (nothing done).
 * FJ_EINVAL: task is NULL or has no fn (nothing done; so do fj_invoke,
 * fj_pool_submit and fj_pool_invoke, rather than a crash on a worker later).
 * A task that completed is forked again as a new run: its body runs again
 * (fj_fork, fj_invoke and fj_pool_submit alike; Java's done task does not run
 * again, see docs/porting-from-java.md).  One cancelled, failed or quietly
 * completed before the call stays complete and does not run.
 * Ordering: everything the caller wrote before fj_fork happens-before the task
 * starts, on whichever thread runs it. */
int fj_fork(fj_task *task);

/** Waits for `task` to complete and returns its outcome: 0, the error its fn
 * returned or fj_task_fail() recorded (the first one), or FJ_ECANCELED.
 * Worker: if the task is still in this worker's deque it is taken out (from
 * under newer tasks too) and run inline; so is a task that a thread outside
 * this worker's pool submitted to it and that is still queued (fj_pool_submit,
 * or fj_fork off a worker for the common pool), and one that is the oldest in
 * its forker's deque; if a thief took it, the worker helps
 * until it completes, running only work that completion depends on: what the
 * thief forked while running it (leapfrogging) and what the joining task
 * itself forked before this join (to a bounded depth), and parks when there
 * is none.
 * Tasks may be joined in any order that the serial program (every fork run
 * at once) completes in, and by a thread other than the forker: no such join
 * waits on a task suspended below it on its own worker's stack
 * (runtime/task.c, point 2).
 * A task of another pool (fj_pool_submit, fj_pool_invoke, FJ_RUN into it): the
 * worker helps with none of that pool's work, and a wait that outlasts a
 * short spin is a managed block (fj_managed_block in fj_java.h, as Java's join
 * compensates): an idle worker of its own pool is woken, or a spare started,
 * so that its pool keeps running, for the task it waits for may need it (an
 * FJ_RUN back into this pool).
 * Not a worker: blocks (futex) until the task completes.
 * Joining a completed task again returns the same outcome at once.
 * FJ_ENOTFORKED: the task was never forked, invoked or submitted.
 * Ordering: everything the task wrote happens-before fj_join returns, on every
 * architecture (release when it completes, acquire here). */
int fj_join(fj_task *task);

/** Runs `task` now, in the calling thread, and returns its outcome as fj_join
 * does (Java's invoke()).  Any thread; no pool is needed. */
int fj_invoke(fj_task *task);

/** The commonest case without declaring a task: runs a(arg_a) and b(arg_b) in
 * parallel (a is forked, b runs here, then a is joined) and returns when both
 * are done.  On a thread that is not a worker both run serially, a first.
 * Ordering: both functions' writes happen-before fj_pair returns. */
void fj_pair(void (*a)(void *), void *arg_a, void (*b)(void *), void *arg_b);

/** True once the task completed, normally or not (Java's isDone()).  A task
 * cancelled or failed while queued or running is done once it is out of its
 * queue and no thread runs it (then it may be freed): one still queued becomes
 * done when a worker takes it from the queue and skips its body, so its join
 * waits until then (Java: done at once); one aborted before its fork is done
 * at once.  Any thread.
 * A true answer is an acquire: the task's writes are then visible. */
int fj_task_is_done(const fj_task *task);

/** @{ */
/** True if cancelled (isCancelled()), or completed abnormally (error or cancel). */
int fj_task_is_cancelled(const fj_task *task);
int fj_task_is_completed_abnormally(const fj_task *task);
/** @} */
/** True once the task completed with outcome 0 (Java's isCompletedNormally()).  Any thread. */
int fj_task_is_completed_normally(const fj_task *task);

/** Cancels a task that has not completed (Java's cancel()): if it has not
 * started it will not run; if it is running, it finishes but joins report
 * FJ_ECANCELED.  Returns 0 (also if it was cancelled already), or FJ_EINVAL
 * if it had completed otherwise.  A task cancelled or failed before its fork,
 * invoke or submission stays complete: that call does not run it.  Joins
 * of a cancelled task still wait until no thread is running it, so that a task
 * on the stack is never freed under a running body.  Any thread. */
int fj_task_cancel(fj_task *task);

/** Records `error` (< 0) as the task's outcome unless it already completed or
 * has an error (the first wins), and suppresses it if it has not started
 * (Java's completeExceptionally()).  Returns 0 or FJ_EINVAL.  Any thread. */
int fj_task_fail(fj_task *task, int error);

/** The outcome a join would return now, or 1 if the task is not complete.  Any
 * thread; does not wait. */
int fj_task_outcome(const fj_task *task);

/** Waits for a task from a thread that is not a worker (or a worker, which then
 * helps as fj_join does), at most `timeout_ns` nanoseconds (< 0: forever).
 * Returns the outcome, or FJ_ETIMEDOUT (the task is unaffected). */
int fj_task_wait(fj_task *task, long long timeout_ns);

/** Owner only: takes `task` back if it is the newest task in this worker's deque
 * and not started (Java's tryUnfork()).  Returns 1 if taken back (it will not
 * run unless forked again), 0 otherwise. */
int fj_task_try_unfork(fj_task *task);

/* ======================================================================== */
/* Pools                                                                    */
/* ======================================================================== */

/** Pool settings.  Zero in any field means "the default"; fj_config_init fills
 * the defaults in.  Environment variables override some fields at creation:
 * @code{.unparsed}
 *   FJ_WORKERS=N      workers (0 or unset: one per CPU the creating thread
 *                     may run on, its affinity mask: as taskset, mpirun or a
 *                     cpuset left it, not every CPU of the machine)
 *   FJ_SPIN=N, FJ_YIELD=N, FJ_STEAL_ATTEMPTS=N   the idle knobs (attempts:
 *                     1..4096 victims per round)
 *   FJ_PIN=1          pin worker i to the (i mod n)-th of the n CPUs in the
 *                     creating thread's affinity mask
 *   FJ_SEED=N         victim-selection seed (0..2^64-1)
 *   FJ_STATS=1        print a per-worker table on stderr at fj_pool_destroy,
 *                     headed by the fence mode in use
 *   FJ_FENCE=full     do not use membarrier (see runtime/atomics.h); auto (the
 *                     default) uses it where the kernel has it.  Read once, at
 *                     the first pool of the process.
 * @endcode
 */
typedef struct fj_config {
    unsigned workers;          /**< 1..1024; 0 = one per CPU of the creator's affinity mask */
    unsigned long long seed;   /**< victim selection RNG; 0 = fixed default */
    unsigned spin_rounds;      /**< idle rounds spent spinning before yielding */
    unsigned yield_rounds;     /**< idle rounds that yield before parking */
    unsigned steal_attempts;   /**< victims tried per idle round, 1..4096 */
    int pin_workers;           /**< 0 or 1: pin worker i to the (i mod n)-th of the creator's n CPUs */
    size_t stack_size;         /**< worker thread stack, bytes; 0 = 8 MiB */
} fj_config;

/** Fills `config` with the defaults (workers = 0: one per CPU the creating
 * thread may run on).  Any thread. */
void fj_config_init(fj_config *config);

/** Creates a pool and starts its workers.  `config` may be NULL (defaults).
 * Returns 0 and sets *pool, or FJ_EINVAL (more than 1024 workers, more than
 * 4096 alive in the process's pools together, a setting out of its range, a
 * stack size below the system's minimum, NULL pool), FJ_ENOMEM, FJ_ESYSTEM (a
 * thread could not be started, e.g. with a stack larger than the system can
 * map, or pinned with pin_workers; none is left running).
 * Any thread, including a worker of another pool. */
int fj_pool_create(fj_pool **pool, const fj_config *config);

/** After fj_pool_create failed with FJ_EINVAL on this thread: which setting was
 * wrong, its value and the accepted range, e.g. "FJ_WORKERS=two: not a whole
 * number (expected 0..1024)"; after FJ_ESYSTEM: the worker count, the stack
 * size and the system's reason a thread was not created (or the worker and
 * CPU a pin was refused for); after FJ_ENOMEM for a
 * deque's reservation: FJ_DEQUE_FRAMES and the system's reason.  Empty after a
 * success.  The loop calls (fj_parallel_for and the like) set it the same way
 * for their own failures, and clear it when called.  The task calls (fj_fork,
 * fj_join, fj_pool_submit, fj_java.h's get and invoke_all, ...) set it when
 * they refuse a NULL task, a task with no fn or a NULL pool ("fj_join: task
 * is NULL"); on success they leave it as it was.  The library does not
 * print it; the caller may (the common pool, which no caller creates, is the
 * exception: see fj_common_pool).  Also set by a call that needed the common
 * pool and found it could not be created.  Calling thread only (thread-local). */
const char *fj_last_error_detail(void);

/** Stops accepting external submissions; accepted work still runs to the end.
 * Later fj_pool_invoke / fj_pool_submit return FJ_ESHUTDOWN.  Idempotent.
 * Returns 0, or FJ_EINVAL for a NULL pool.  On the common pool it does nothing
 * and returns 0 (Java's commonPool().shutdown() has no effect).  Any thread,
 * including the pool's own workers. */
int fj_pool_shutdown(fj_pool *pool);

/** Shuts the pool down, waits for every accepted submission to finish, joins
 * the workers and frees the pool.  Returns 0, or FJ_EDEADLK when called from
 * one of the pool's own workers (nothing is done), FJ_EINVAL for NULL.  A
 * wait through another pool is not detected: destroying pool A from a task of
 * pool B that a task of A is waiting for (FJ_RUN from A into B) waits for ever.
 * Destroying the common pool is refused with FJ_EINVAL (it is torn down at exit). */
int fj_pool_destroy(fj_pool *pool);

/** Runs `task` as a root task of `pool` and returns its outcome when done.
 * Not a worker of `pool`: submits through the pool's injector and blocks (a
 * worker of another pool joins it as fj_join says: its own pool keeps running).
 * A worker of `pool`: runs the task inline (as fj_invoke).
 * Returns the outcome, or FJ_ESHUTDOWN, FJ_ENOMEM, FJ_EBUSY (task queued).
 * Ordering: the caller's writes happen-before the task runs; the task's writes
 * happen-before this returns. */
int fj_pool_invoke(fj_pool *pool, fj_task *task);

/** Submits `task` and returns at once; wait with fj_join or fj_task_wait.  The
 * task must stay valid until it completes (see "Task lifetime" below).
 * Returns 0, FJ_ESHUTDOWN, FJ_ENOMEM, FJ_EBUSY.  Any thread. */
int fj_pool_submit(fj_pool *pool, fj_task *task);

/** The common pool (Java's ForkJoinPool.commonPool()): created on first use with
 * FJ_WORKERS or one worker per CPU the creating thread may run on, shut down and destroyed at exit,
 * once the tasks it accepted have finished (Java's System.exit ends them
 * instead): a task that never ends keeps the process from exiting.
 * Returns NULL only if it cannot be created: a bad FJ_* variable in the
 * environment, no memory or no threads.  Then it is never created in this
 * process; the first attempt prints one line on stderr saying why (e.g. "fj:
 * the common pool cannot start: FJ_WORKERS=two: not a whole number (expected
 * 0..1024)"), each call that needed it (FJ_RUN and a loop or an fj_fork outside
 * any pool, fj.hpp's joins) returns or throws the code fj_pool_create returned
 * (FJ_EINVAL for a bad variable), and fj_last_error_detail() on the calling
 * thread says what fj_pool_create said. */
fj_pool *fj_common_pool(void);

/** Number of workers of the pool.  Any thread. */
unsigned fj_pool_worker_count(const fj_pool *pool);

/** The pool whose worker is running this thread, or NULL.  Any thread. */
fj_pool *fj_current_pool(void);

/** This worker's index in its pool (0..workers-1), or -1 on other threads. */
int fj_current_worker_index(void);

/* ======================================================================== */
/* Statistics                                                               */
/* ======================================================================== */

/** Per-worker counters.  Each is written only by its own worker (no shared
 * cache-line traffic on the fast path) and read racily by a snapshot.  Typed
 * tasks keep no counter on their fast path: their spawns, inline syncs and
 * bodies are not in tasks_run, forks, inline_joins or helps; their steals,
 * leapfrogs and parks are counted as an fj_task's. */
typedef struct fj_worker_stats {
    unsigned long long tasks_run;       /**< fj_task bodies started by this worker */
    unsigned long long forks;           /**< fj_fork calls (also those serial elision ran at once) */
    unsigned long long inline_joins;    /**< fj_joins whose task was taken back and run inline */
    unsigned long long steals;          /**< tasks taken from another worker's deque */
    unsigned long long failed_steals;   /**< steal attempts on a non-empty-looking victim that got nothing */
    unsigned long long leapfrogs;       /**< steals from the thief of a task being joined */
    unsigned long long helps;           /**< other tasks run while waiting in a join */
    unsigned long long injector_takes;  /**< tasks taken from the external queue */
    unsigned long long parks;           /**< times the worker parked */
    unsigned long long wakeups;         /**< times it came back from parking */
    unsigned long long unsynced;        /**< typed spawns left unsynced, synced by the runtime (NDEBUG) */
} fj_worker_stats;

/** Copies up to `capacity` per-worker rows into `per_worker` (may be NULL) and
 * their sum into `total` (may be NULL).  Returns the number of workers, or
 * FJ_EINVAL.  Any thread; a snapshot, exact once the pool is idle. */
int fj_pool_stats(const fj_pool *pool, fj_worker_stats *per_worker, unsigned capacity, fj_worker_stats *total);

/** Prints the per-worker table (the one FJ_STATS=1 prints) to `out`, after a
 * line naming the fence mode: "fences: membarrier (...)", or "fences: full on
 * both sides, " and why (FJ_FENCE=full, or what the kernel refused).  Returns
 * 0, FJ_EINVAL (NULL argument) or FJ_ESYSTEM (a write failed: the stream is
 * flushed to find out).  Any thread. */
int fj_pool_print_stats(const fj_pool *pool, FILE *out);

/* ======================================================================== */
/* Parallel loops (runtime/loop.c)                                          */
/* ======================================================================== */
/** @page fj_loops Parallel loops
 * Loops over [from, to) of int64_t, on work-stealing ranges: each worker starts
 * on one contiguous chunk and runs it from the low end one grain (a run of
 * `grain` indices) at a time, keeping the top quarter stealable; idle workers
 * steal it and share it in turn.  docs/loops.md has the details.
 *
 * Common to the three calls:
 * @code{.unparsed}
 *   pool   the pool to run on; NULL: the caller's pool if it is a worker,
 *          else the common pool.  From a worker of that pool the loop runs
 *          in place (nested loops, loops inside forked tasks and inside other
 *          loops' bodies are fine and cannot deadlock); from any other thread
 *          it is submitted as with fj_pool_invoke, and the caller blocks.
 *   grain  indices per grain, the unit handed out and the most one body call
 *          gets; 0: automatic (about 256 grains per worker).
 *   Ordering: everything the caller wrote before the call happens-before
 *          every body call; every body write happens-before the call returns.
 *   Returns 0; FJ_EINVAL if from > to, grain < 0, a pointer is NULL or a
 *          reduce's size is 0 (nothing runs); FJ_ENOMEM if the loop's bookkeeping could not be
 *          allocated (a reduce reserves 65 accumulators of `size` bytes per
 *          worker before any body runs: keep large accumulators behind a
 *          pointer); the common pool's code if it cannot start
 *          (fj_common_pool; FJ_EINVAL for a bad FJ_* variable); FJ_ESHUTDOWN
 *          when submitting to a pool that was shut down (then nothing runs).
 *          An empty range returns 0 at once.  Bodies cannot fail a loop:
 *          record errors in your context.  After a failure,
 *          fj_last_error_detail() names the call, the argument and its value
 *          (or the sizes that could not be allocated); a call clears it.
 * @endcode
 * Every index in [from, to) is passed to exactly one body call, in any order,
 * concurrently with others: bodies must not depend on an order.
 */

/** A body over a sub-range [lo, hi) of at most `grain` indices. */
typedef void (*fj_range_fn)(int64_t lo, int64_t hi, void *ctx);
/** A body over one index. */
typedef void (*fj_index_fn)(int64_t i, void *ctx);
/** A reduce body: folds the indices [lo, hi) into `acc` (which holds the
 * identity or earlier indices of the same run), left to right. */
typedef void (*fj_reduce_fn)(int64_t lo, int64_t hi, void *acc, void *ctx);
/** acc = acc (+) right, where `right` covers the indices just after acc's. */
typedef void (*fj_combine_fn)(void *acc, const void *right, void *ctx);

/** Calls body(lo, hi, ctx) on sub-ranges that together cover [from, to) once.
 * Any thread. */
int fj_parallel_for(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_range_fn body, void *ctx);

/** Calls body(i, ctx) once for every i in [from, to).  Any thread. */
int fj_parallel_for_each(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_index_fn body, void *ctx);

/** Reduces [from, to) into `result` (`size` bytes): each run of grains one
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
/** @page fj_observe Tracing, profiling and teaching modes
 * Three aids to see what the scheduler did, each free when off (the fast path
 * tests one byte per worker, fixed when the worker starts):
 *
 * @code{.unparsed}
 *   FJ_TRACE=out.json   record every worker's events into a Chrome Trace Event
 *                       file (open it in https://ui.perfetto.dev or
 *                       chrome://tracing; `fj_timeline out.json > out.svg`
 *                       draws it).  Written at exit, or by fj_trace_stop().
 *   FJ_TRACE_BUFFER=N   events kept per worker (default 1048576); beyond it
 *                       the file says "trace buffer full" and how many were lost.
 *   FJ_PROFILE=1        measure work, span and parallelism of the program's
 *                       DAG (the same on any worker count; threads' CPU
 *                       time); the table of speedup bounds for 1..64 workers
 *                       is printed on stderr at exit.
 *   FJ_WORKERS=1        besides one worker: serial elision, every fork runs its
 *                       task at once, so the program runs in the order of its
 *                       serial twin.  FJ_SERIAL=1 forces it for any pool size.
 *   FJ_STRESS=N         steal stress: after 1 in N forks (N=1: every fork) the
 *                       forker waits (up to 2 ms, stealing other holders'
 *                       forks meanwhile) until a thief takes the task, and the
 *                       workers are pinned to distinct CPUs, so a race in your
 *                       program shows up quickly.  Fully strict programs only:
 *                       a holder runs stolen forks on top of its own.
 * @endcode
 *
 * Which workers the API reaches.  A worker is armed for tracing (profiling)
 * when it starts, if a trace (profile) session was opened before in this
 * process or FJ_TRACE (FJ_PROFILE) is set.  Armed workers follow every later
 * start and stop.  So: start the first session before creating the pool, or
 * set the variable; a pool created before either records nothing, by design,
 * to keep its fast path free (its workers never look).
 */

/** Opens the process's trace session, writing to `path` (created or truncated
 * now, filled when the session stops).  Armed workers record from their next
 * event on.  Any thread.  Returns 0, FJ_EINVAL (NULL or empty path), FJ_EBUSY
 * (a session is open; also the one FJ_TRACE opened), FJ_ESYSTEM (the file
 * cannot be opened; errno says why), FJ_ENOMEM; after a refusal
 * fj_last_error_detail() says which and why ("fj_trace_start: PATH: cannot
 * open the file: No such file or directory"). */
int fj_trace_start(const char *path);

/** Stops recording, waits until no worker is in the middle of recording an
 * event, and writes the file: one track per worker (pid = pool, tid = worker
 * index), task slices named by how the task was obtained (task:inline,
 * task:stolen, task:leapfrog, task:local, task:injected, task:serial), join
 * waits, parked time, and arrows from victim to thief for every steal and
 * leapfrog.  Every event recorded before this call is in the file; for
 * fj_tasks the counts match fj_pool_stats for work done while the session was
 * open (typed spawns and syncs are in the trace, not in the statistics; under
 * serial elision a fork of either kind is a "fork:serial").  Any thread,
 * including a worker.  A stop while tasks still run (e.g. at exit with work
 * pending) writes what was recorded and marks the file partial.  Until a
 * session stops its file holds a placeholder that says it is incomplete.
 * The file may be a device or a pipe (FJ_TRACE=/dev/stdout).
 * Returns 0, FJ_EINVAL (no session open), FJ_ENOMEM,
 * FJ_ESYSTEM (writing failed); after a failure fj_last_error_detail() names
 * the file and the system's reason, which the stop at exit of a session still
 * open prints on stderr ("fj: fj_trace_stop: writing PATH failed: No space
 * left on device"). */
int fj_trace_stop(void);

/** 1 while a trace session is open, else 0.  Any thread; a racy snapshot. */
int fj_trace_is_on(void);

/** The result of a profile session.  Amounts are in clock units: nanoseconds
 * by default, or whatever the clock given to fj_profile_set_clock counts. */
typedef struct fj_profile {
    unsigned long long work;   /**< T1: the sum of all strands' durations */
    unsigned long long span;   /**< Tinf: the longest chain of dependent strands */
    unsigned long long tasks;  /**< task bodies measured */
    double parallelism;        /**< work / span; 0 if span is 0 */
    int clock_is_ns;           /**< 1 if amounts are nanoseconds */
    unsigned long long burdened_span;  /**< span with `burden` charged on every fork's child edge */
    double burdened_parallelism;       /**< work / burdened_span: what survives real fork costs */
    unsigned long long burden;         /**< clock units charged per fork (fj_profile_set_burden) */
} fj_profile;

/** Opens the process's profile session: armed workers measure the task bodies
 * that begin after it opened.  Start it before the work to measure: tasks
 * forked earlier count as roots, and a body already running when it opens
 * (the one that calls it, say) is not measured: the tasks it forks
 * afterwards are, as roots (to measure part of a task, open the session
 * before its root and use fj_profile_region_begin).  Any thread.  Returns 0, or FJ_EBUSY if one is open. */
int fj_profile_start(void);

/** Closes the session and stores its totals in *result (may be NULL).  Exact
 * when no task is running (e.g. after fj_pool_invoke returned); otherwise a
 * snapshot.  Any thread.  Returns 0, or FJ_EINVAL if no session is open. */
int fj_profile_stop(fj_profile *result);

/** Prints work, span, parallelism and, for P = 1, 2, 4, ..., 64 workers, the
 * greedy-scheduler bounds max(T1/P, Tinf) <= T_P <= T1/P + Tinf with the
 * speedups they imply.  Any thread.  Returns 0, FJ_EINVAL (NULL argument),
 * FJ_ESYSTEM (a write failed: the stream is flushed to find out). */
int fj_profile_print(const fj_profile *profile, FILE *out);

/** Replaces the profiler's clock (NULL: CLOCK_MONOTONIC nanoseconds).  `clock`
 * is called on worker threads and must measure the calling thread's progress
 * (e.g. a per-thread counter of units of work: deterministic profiles).  Any
 * thread, only while no profile session is open.  Returns 0 or FJ_EBUSY. */
int fj_profile_set_clock(unsigned long long (*clock)(void));

/** @{ */
/** Per-region profiling, as Cilkscale's probes: begin and end around one part
 * of the program, on the same thread, inside an open session.  The region's
 * span is the chain from begin to end on that thread's strand (inside a task,
 * or from outside the pool: the invocations made in between); its work is all
 * the work measured meanwhile, so measure one region at a time.  `tasks` is 0.
 * Returns 0, or FJ_EINVAL (NULL, no session, or another session's region). */
typedef struct fj_profile_region {
    /** @{ */
    /** private: the work and the spans measured at begin */
    unsigned long long work, path, burdened;
    /** @} */
    size_t session;                           /**< private: the session the region began in */
} fj_profile_region;
int fj_profile_region_begin(fj_profile_region *region);
int fj_profile_region_end(const fj_profile_region *region, fj_profile *result);
/** @} */

/** What each fork adds to the burdened span, in clock units; -1 for the default
 * (2000 ns with the default clock, 0 with a custom one).  Only while no
 * session is open.  Returns 0, FJ_EINVAL (below -1), FJ_EBUSY. */
int fj_profile_set_burden(long long units);

/* ======================================================================== */
/* Typed tasks: fork and join at the cost of a function call                */
/* ======================================================================== */
/** @page fj_typed Typed tasks: fork and join at the cost of a function call
 * Declare a task once, with its result type and its arguments; then spawn,
 * sync and call it by name inside other typed tasks.  Serial recursion turns
 * parallel with two lines (the spawn and the sync):
 *
 *     FJ_TASK(long, fib, int, n)
 *     {
 *         if (n < 2)
 *             return n;
 *         FJ_SPAWN(fib, n - 1);              serial: long a = fib(n - 1);
 *         long b = FJ_CALL(fib, n - 2);      a direct call, no task
 *         long a = FJ_SYNC(fib);             serial: nothing here
 *         return a + b;
 *     }
 *     ...  long r = FJ_RUN(pool, fib, 40);   from main, or any thread
 *
 * @code{.unparsed}
 * FJ_TASK(RT, NAME, T1, a1, ..., T6, a6)  defines task NAME (0 to 6 arguments),
 *     result type RT; the braces that follow are its body.  FJ_VOID_TASK(NAME,
 *     T1, a1, ...) is the same without a result.  The task is `static`: use it in
 *     the file that defines it.
 * FJ_SPAWN(NAME, args...)  inside a typed task: pushes a frame holding NAME and
 *     its arguments on this worker's deque, where a thief may take it.
 * FJ_SYNC(NAME)  the result of this task's newest unsynced spawn, which must be
 *     of NAME: if nobody took the frame it calls NAME's body right here with the
 *     arguments from the frame; if a thief took it, it helps the thief
 *     (leapfrogging) until the result is there.  Syncs pair with spawns in LIFO
 *     order, within the task that spawned.
 * FJ_CALL(NAME, args...)  a plain call of NAME's body, on this worker.
 * FJ_RUN(pool, NAME, args...)  from any thread: runs NAME on `pool` (NULL: the
 *     current worker's pool on a worker, else the common pool) and returns its
 *     result once it is complete.  If the pool refuses (shut down, out of
 *     memory, a common pool that cannot start) it returns a zero result;
 *     FJ_RUN_RC(pool, &rc, NAME, args...) also stores 0 or the FJ_E* code in rc.
 * @endcode
 *
 * Observers: FJ_TRACE and FJ_PROFILE see typed tasks as they see fj_tasks
 * (forks, steals, leapfrogs, inline and waiting syncs, exact work and span);
 * FJ_SERIAL and FJ_STRESS apply to them.  While one is on, spawns and syncs
 * take their slow paths.
 *
 * Guarantees: everything a spawned task wrote happens-before its FJ_SYNC
 * returns.  A spawn and a sync that nobody interferes with take no lock, no
 * atomic read-modify-write, no library call and no counter.  Frames live in the
 * deque (64 bytes each, arguments and result at most FJ_FRAME_DATA_SIZE bytes,
 * checked at compile time); a task never allocates.  Idle workers park.  Typed
 * tasks mix with fj_task: a typed task may fork and join fj_tasks, and a
 * fj_task body may FJ_RUN a typed task on its own worker; an fj_task that a
 * typed task (or a function it called) forked and has not joined yet may run
 * at the task's next spawn or sync (its join then finds it done).
 * FJ_SYNC(g) for a spawn of another task f is a misuse that the fast path does
 * not check with NDEBUG (it would call g's body on f's arguments); builds
 * without NDEBUG compare the frame's runner and treat f's frame as a
 * forgotten sync.
 *
 * A forgotten sync is reported, never silent: in a build without NDEBUG, a
 * typed task that returns with unsynced spawns stops the program with a message
 * naming the task.  With NDEBUG it is found at the next spawn or sync of the
 * task that called it, or when the task a thief or FJ_RUN started returns: the runtime
 * then syncs the leftover frames itself (runs them, or waits for their
 * thieves), drops their results and counts them (fj_worker_stats.unsynced).
 * Memory is never reused while a thief may still write into it.
 *
 * Limits: FJ_DEQUE_FRAMES (environment, default 1048576) frames per worker are
 * reserved as address space, 64 KiB of it writable at first and the rest made
 * writable as spawns reach it (no memory is charged for depth not used, even
 * where the kernel accounts strictly).  A spawn or an
 * fj_fork that finds them all in use runs its task at once, inline, as the
 * serial program would; the sync still returns its result.
 */

/** A worker thread of a pool (opaque); a typed task's body receives the one running it. */
typedef struct fj_worker fj_worker;
/** One deque slot (struct fj_frame): a spawned typed task, its arguments and its result. */
typedef struct fj_frame fj_frame;
/** Runs a frame's task (a thief, or the runtime in place) and publishes its result. */
typedef void (*fj_frame_fn)(fj_worker *worker, fj_frame *frame);

/** The most bytes of arguments, and of result, a typed task may have (checked at compile time). */
#define FJ_FRAME_DATA_SIZE 48

/** One deque slot.  private: the fields are the runtime's (runtime/frame.h). */
struct fj_frame {
    /** @name private */
    /** @{ */
    fj_frame_fn fj_run;            /**< the task's runner; a marker for fj_task frames */
    unsigned long fj_state;        /**< 0 while queued or run by its owner; else stolen/done/waiter */
    unsigned char fj_data[FJ_FRAME_DATA_SIZE] __attribute__((aligned(16)));  /**< arguments, then result */
    /** @} */
} __attribute__((aligned(64)));

/** private: the owner's end of a worker's deque, the first bytes of every
 * worker, laid out here so that spawn and sync can be inline.  See
 * runtime/deque.h for who writes what. */
typedef struct fj_deque_ends {
    /** @name private */
    /** @{ */
    fj_frame *fj_top;                       /**< next free frame (THE tail); owner writes */
    fj_frame *fj_limit;                     /**< spawn leaves the fast path here */
    const volatile unsigned long *fj_idle;  /**< {sleepers, searching} of the pool */
    unsigned long fj_wake_hint;             /**< non-zero: a worker of the pool may be parked (runtime/idle.c) */
    uintptr_t fj_spawn_guard;               /**< a typed spawn at or above it settles first: limit, or 0 */
    char fj_pad_owner[64 - 4 * sizeof(void *) - sizeof(unsigned long)];  /**< keeps head off the owner's cache line */
    uintptr_t fj_head;                      /**< thieves' end | FJ__HEAD_FENCED; under the lock */
    /** @} */
} fj_deque_ends;

#define FJ__HEAD_FENCED ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/* private: the slow halves of the inline paths below (runtime/frame.c). */
__attribute__((cold)) fj_frame *fj__spawn_settle(fj_worker *w, fj_frame *top);
__attribute__((cold)) fj_frame *fj__spawn_guarded(fj_worker *w, fj_frame *top);
__attribute__((cold)) void fj__spawn_slow(fj_worker *w);
__attribute__((cold)) void fj__spawn_wake(fj_worker *w);
fj_frame *fj__sync_slow(fj_worker *w, fj_frame *mine, fj_frame_fn run);
void fj__frame_publish(fj_worker *w, fj_frame *frame);
void fj__unsynced(fj_worker *w, fj_frame *entry_top, const char *task, int fatal);
/* fj.hpp's fj::join through a context (worker w, copy of top `top`), in
 * builds without NDEBUG: stops the program when w is not this thread's worker,
 * top is not in its deque, or top lies below typed frames. */
void fj__context_check(fj_worker *w, fj_frame *top);
int fj__run(fj_pool *pool, fj_frame_fn run, void *data, size_t args_size, size_t result_size);
/* The common pool in *pool and 0, or NULL and why it could not be created
 * (fj_common_pool), with fj_last_error_detail() set on this thread. */
int fj__common_pool(fj_pool **pool);
/* private: the worker running on this thread, NULL on other threads
 * (runtime/worker.c).  fj.hpp's join reads it inline: initial-exec TLS is one
 * load at a fixed offset from the thread pointer, even from the shared library,
 * where a call to the library cost fj::join a call and a return per fork+join.
 * fj__current_worker() returns the same; programs built with an earlier fj.hpp
 * call it. */
extern __thread fj_worker *fj__self __attribute__((tls_model("initial-exec")));
fj_worker *fj__current_worker(void);

#if defined(__cplusplus)
#define FJ__STATIC_ASSERT(cond, msg) static_assert(cond, msg)
} /* extern "C": a template has C++ linkage */
template <class T> struct fj__is_void { enum { value = 0 }; };
template <> struct fj__is_void<void> { enum { value = 1 }; };
extern "C" {
#define FJ__IS_VOID(T) (fj__is_void<T>::value != 0)
#else
#define FJ__STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define FJ__IS_VOID(T) __builtin_types_compatible_p(T, void)
#endif
#ifdef NDEBUG
#define FJ__CHECK_SYNCS 0
#else
#define FJ__CHECK_SYNCS 1
#endif
#define FJ__INLINE static inline __attribute__((always_inline))
/* What FJ_TASK defines: a task need not use all of it (a leaf never spawns). */
#define FJ__GENERATED static inline __attribute__((always_inline, unused))
#define FJ__LIKELY(x) __builtin_expect(!!(x), 1)
#define FJ__UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The cold calls of the inline spawn, as the fast path calls them: with every
 * register but the result kept for the caller where the compiler allows it.
 * Values live across an ordinary call need callee-saved registers, and a
 * typed task's body pays their push and pop pairs in every call, on the path
 * that never takes the cold call (knapsack's body: five pushed registers and a
 * stack frame where three suffice, docs/performance.md).
 *
 * Under clang on x86-64 each call goes through a small function of the
 * program's own with clang's preserve_most convention, which saves and
 * restores what the library's ordinary call clobbers, on the cold path only. */
#if defined(__clang__) && defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(preserve_most)
#define FJ__COLD_STUBS 1
#endif
#endif
/* gcc has no such convention, so on x86-64 (ELF, the System V ABI) the
 * program makes it by hand: each cold call is an asm statement that calls a
 * naked function of the program's own (FJ__KEEP_STUB), which saves the
 * caller-saved integer registers, aligns the stack, calls the library and
 * restores them.  The asm names RAX (the result), RSI (FJ__KEEP_CALL says
 * why), the flags, memory and the vector (FJ__KEEP_VECTOR_DECL: as outputs),
 * mask and x87 registers as changed, so the compiler keeps only integer
 * values in registers across it.  The classic Intel compiler (it defines
 * __GNUC__), targets where those register sets
 * differ (no SSE2, MMX or x87; APX's extra registers; AMX tiles; AVX10
 * without AVX-512's names) and the large code model call the library
 * directly. */
#if !defined(__clang__) && !defined(__INTEL_COMPILER) && defined(__GNUC__) && __GNUC__ >= 8 &&    \
    defined(__x86_64__) && defined(__LP64__) && defined(__ELF__) && defined(__SSE2__) &&            \
    defined(__MMX__) && !defined(_SOFT_FLOAT) && !defined(__APX_F__) && !defined(__AMX_TILE__) && \
    !(defined(__AVX10_1__) && !defined(__AVX512F__)) && !defined(__code_model_large__)
#define FJ__KEEP_CALLS 1
#endif
#ifdef FJ__COLD_STUBS
#define FJ__COLD_STUB static __attribute__((preserve_most, noinline, cold, unused))
/* Returns nothing: clang 14 restores RAX, the return register, at the end of a
 * preserve_most function.  The caller reads the frame fj__spawn_settle returns
 * from the word top instead, which is where it lies. */
FJ__COLD_STUB void fj__spawn_settle_cold(fj_worker *w, fj_frame *top) { (void)fj__spawn_settle(w, top); }
FJ__COLD_STUB void fj__spawn_guarded_cold(fj_worker *w, fj_frame *top) { (void)fj__spawn_guarded(w, top); }
FJ__COLD_STUB void fj__spawn_slow_cold(fj_worker *w) { fj__spawn_slow(w); }
FJ__COLD_STUB void fj__spawn_wake_cold(fj_worker *w) { fj__spawn_wake(w); }
#elif defined(FJ__KEEP_CALLS)
#ifdef __GCC_HAVE_DWARF2_CFI_ASM
#define FJ__CFI(directives) directives "\n\t"
#else
#define FJ__CFI(directives)
#endif
/* The options that put code into every function (-pg's mcount call,
 * -finstrument-functions' hooks, coverage callbacks, -fsplit-stack's check)
 * would put it into a naked function too, where it clobbers registers the
 * stub must keep: each is switched off for the stubs, on a declaration before
 * the definition (g++ refuses no_split_stack on a definition). */
#if __has_attribute(no_sanitize_coverage)
#define FJ__NO_COVERAGE , no_sanitize_coverage
#else
#define FJ__NO_COVERAGE
#endif
#define FJ__KEEP_STUB_ATTRS                                                                              \
    naked, noinline, cold, unused, no_instrument_function, no_profile_instrument_function, no_split_stack \
        FJ__NO_COVERAGE
/* A naked function that calls `target` (arguments in RDI and RSI, result in
 * RAX) and keeps every other register.  FJ__KEEP_CALL enters it with the
 * caller's stack pointer 136 bytes up (the red zone, the return address);
 * its unwind information says so and where it saved each register, so a
 * debugger's backtrace passes through it. */
#define FJ__KEEP_STUB(name, target)                                                                     \
    static void name(void) __attribute__((FJ__KEEP_STUB_ATTRS));                                        \
    static void name(void)                                                                              \
    {                                                                                                   \
        __asm__(FJ__CFI(".cfi_def_cfa_offset 136\n\t.cfi_offset %rip, -136")                            \
                "push %rbp\n\t" FJ__CFI(".cfi_adjust_cfa_offset 8\n\t.cfi_offset %rbp, -144")           \
                "mov %rsp, %rbp\n\t" FJ__CFI(".cfi_def_cfa_register %rbp")                               \
                "push %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n\t"                                     \
                "push %r8\n\tpush %r9\n\tpush %r10\n\tpush %r11\n\t"                                       \
                FJ__CFI(".cfi_offset %rcx, -152\n\t.cfi_offset %rdx, -160\n\t.cfi_offset %rsi, -168\n\t" \
                        ".cfi_offset %rdi, -176\n\t.cfi_offset %r8, -184\n\t.cfi_offset %r9, -192\n\t"   \
                        ".cfi_offset %r10, -200\n\t.cfi_offset %r11, -208")                             \
                "and $-16, %rsp\n\t" /* the ABI's alignment at a call */                                 \
                "call " #target "@PLT\n\t"                                                               \
                "lea -64(%rbp), %rsp\n\t"                                                                \
                "pop %r11\n\tpop %r10\n\tpop %r9\n\tpop %r8\n\t"                                           \
                "pop %rdi\n\tpop %rsi\n\tpop %rdx\n\tpop %rcx\n\t"                                         \
                "pop %rbp\n\t" FJ__CFI(".cfi_restore %rbp\n\t.cfi_def_cfa %rsp, 136")                    \
                "ret");                                                                                 \
    }
FJ__KEEP_STUB(fj__spawn_settle_keep, fj__spawn_settle)
FJ__KEEP_STUB(fj__spawn_guarded_keep, fj__spawn_guarded)
FJ__KEEP_STUB(fj__spawn_slow_keep, fj__spawn_slow)
FJ__KEEP_STUB(fj__spawn_wake_keep, fj__spawn_wake)
#ifdef __AVX512F__
#define FJ__EVEX_CLOBBERS                                                                                          \
    , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", \
        "xmm28", "xmm29", "xmm30", "xmm31", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#else
#define FJ__EVEX_CLOBBERS
#endif
/* Calls stub with w in RDI (and top in RSI, the two-argument form) and puts
 * RAX in `result`.  The call first steps over the red zone: the compiler may
 * keep data in the 128 bytes below the stack pointer, and a call writes there.
 * RSI is named as changed although the stub keeps it: kept, it held the copy
 * of top across dfs's spawns, and gcc then laid out dfs's sync loop with a
 * taken branch on every leaf (dfs 9 at 1 worker 0.83 of Lace's time instead
 * of 0.76; docs/performance.md, "Changes that paid"). */
#define FJ__KEEP_CALL_ASM                                                                                 \
    "lea -128(%%rsp), %%rsp\n\tcall %P[fn]\n\tlea 128(%%rsp), %%rsp"
/* The two-argument form moves top into RSI inside the asm, on the cold path
 * (the assembler leaves the move out where top is in RSI already): with top
 * tied to RSI as an input, gcc computed each spawn's new top into RSI (the
 * lea in fj__spawn_publish) and copied it to a callee-saved register for the
 * rest of the body, one mov more per spawn on fj++'s dfs. */
#define FJ__KEEP_CALL2_ASM                                                                            \
    "lea -128(%%rsp), %%rsp\n\t.ifnc %[top],%%rsi\n\tmov %[top], %%rsi\n\t.endif\n\t"                \
    "call %P[fn]\n\tlea 128(%%rsp), %%rsp"
#define FJ__KEEP_CLOBBERS                                                                                  \
    "memory", "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0", "mm1", "mm2", \
        "mm3", "mm4", "mm5", "mm6", "mm7" FJ__EVEX_CLOBBERS
/* xmm0-15 are named as outputs (of type double), not as clobbers: with them
 * among the clobbers, gcc 12 building for AVX takes the registers' upper
 * halves for dirty after the asm and puts a vzeroupper before every later
 * call and return of the task body (two per fork+join on fib).  An output
 * writes the whole register just the same, so no value of any width lives
 * in it across the call.  Clobbering xmm16-31 (AVX-512) adds no vzeroupper
 * (tests/fast-path-code.sh reads the body's code). */
#define FJ__KEEP_VECTOR_DECL                                                                          \
    register double fj_x0_ __asm__("xmm0"), fj_x1_ __asm__("xmm1"), fj_x2_ __asm__("xmm2"),           \
        fj_x3_ __asm__("xmm3"), fj_x4_ __asm__("xmm4"), fj_x5_ __asm__("xmm5"), fj_x6_ __asm__("xmm6"),   \
        fj_x7_ __asm__("xmm7"), fj_x8_ __asm__("xmm8"), fj_x9_ __asm__("xmm9"), fj_x10_ __asm__("xmm10"), \
        fj_x11_ __asm__("xmm11"), fj_x12_ __asm__("xmm12"), fj_x13_ __asm__("xmm13"),                    \
        fj_x14_ __asm__("xmm14"), fj_x15_ __asm__("xmm15")
#define FJ__KEEP_VECTOR_OUTPUTS                                                                          \
    "=x"(fj_x0_), "=x"(fj_x1_), "=x"(fj_x2_), "=x"(fj_x3_), "=x"(fj_x4_), "=x"(fj_x5_), "=x"(fj_x6_),     \
        "=x"(fj_x7_), "=x"(fj_x8_), "=x"(fj_x9_), "=x"(fj_x10_), "=x"(fj_x11_), "=x"(fj_x12_),             \
        "=x"(fj_x13_), "=x"(fj_x14_), "=x"(fj_x15_)
#define FJ__KEEP_VECTOR_SPENT                                                                         \
    ((void)fj_x0_, (void)fj_x1_, (void)fj_x2_, (void)fj_x3_, (void)fj_x4_, (void)fj_x5_, (void)fj_x6_, \
     (void)fj_x7_, (void)fj_x8_, (void)fj_x9_, (void)fj_x10_, (void)fj_x11_, (void)fj_x12_,             \
     (void)fj_x13_, (void)fj_x14_, (void)fj_x15_)
#define FJ__KEEP_CALL(stub, result, w)                                                                     \
    do {                                                                                                    \
        void *fj_spent_;                                                                                    \
        FJ__KEEP_VECTOR_DECL;                                                                               \
        __asm__ volatile(FJ__KEEP_CALL_ASM                                                                  \
                         : "=a"(result), "=S"(fj_spent_), FJ__KEEP_VECTOR_OUTPUTS                           \
                         : "D"(w), [fn] "i"(stub)                                                           \
                         : FJ__KEEP_CLOBBERS);                                                              \
        (void)fj_spent_;                                                                                    \
        FJ__KEEP_VECTOR_SPENT;                                                                              \
    } while (0)
#define FJ__KEEP_CALL2(stub, result, w, top)                                                               \
    do {                                                                                                    \
        void *fj_spent_;                                                                                    \
        FJ__KEEP_VECTOR_DECL;                                                                               \
        __asm__ volatile(FJ__KEEP_CALL2_ASM                                                                 \
                         : "=a"(result), "=S"(fj_spent_), FJ__KEEP_VECTOR_OUTPUTS                           \
                         : "D"(w), [top] "r"(top), [fn] "i"(stub)                                           \
                         : FJ__KEEP_CLOBBERS);                                                              \
        (void)fj_spent_;                                                                                    \
        FJ__KEEP_VECTOR_SPENT;                                                                              \
    } while (0)
FJ__INLINE fj_frame *fj__spawn_settle_cold(fj_worker *w, fj_frame *top)
{
    fj_frame *f;
    FJ__KEEP_CALL2(fj__spawn_settle_keep, f, w, top);
    return f;
}
FJ__INLINE fj_frame *fj__spawn_guarded_cold(fj_worker *w, fj_frame *top)
{
    fj_frame *f;
    FJ__KEEP_CALL2(fj__spawn_guarded_keep, f, w, top);
    return f;
}
FJ__INLINE void fj__spawn_slow_cold(fj_worker *w)
{
    void *ignored;
    FJ__KEEP_CALL(fj__spawn_slow_keep, ignored, w);
    (void)ignored;
}
FJ__INLINE void fj__spawn_wake_cold(fj_worker *w)
{
    void *ignored;
    FJ__KEEP_CALL(fj__spawn_wake_keep, ignored, w);
    (void)ignored;
}
#else
#define fj__spawn_slow_cold fj__spawn_slow
#define fj__spawn_wake_cold fj__spawn_wake
#endif

/* The calling worker's own top (a plain load: only it writes top). */
FJ__INLINE fj_frame *fj__top(fj_worker *w) { return ((fj_deque_ends *)(void *)w)->fj_top; }

/* Sends the calling worker's next typed spawn through fj__spawn_guarded
 * (fj__spawn_begin_guarded says when).  A plain store: only it writes the word. */
FJ__INLINE void fj__spawn_guard_lower(fj_worker *w) { ((fj_deque_ends *)(void *)w)->fj_spawn_guard = 0; }

/* Whether the word top differs from the caller's copy t.  The compiler must
 * not learn from the test that the two are equal: it would then take the
 * frame's address from the word it loaded (a store-to-load chain through every
 * spawn and sync, see fj__spawn_begin) instead of the copy.  On x86-64 the test
 * is an asm goto, which tells it nothing; elsewhere, plain C. */
FJ__INLINE int fj__top_moved(const fj_deque_ends *d, const fj_frame *t)
{
#if defined(__x86_64__)
    /* A plain load of top: only this thread writes it. */
    __asm__ goto("cmpq %[t], %[top]\n\tjne %l[moved]" : : [top] "m"(d->fj_top), [t] "r"(t) : "cc" : moved);
    return 0;
moved:
    return 1;
#else
    return d->fj_top != t;
#endif
}

#if defined(__SANITIZE_THREAD__)
#define FJ__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FJ__TSAN 1
#endif
#endif
#ifndef FJ__TSAN
#define FJ__TSAN 0
#endif

/* Whether the thieves' end lies above frame f (the sync's THE test), an
 * acquire load of head.  On x86-64 a plain load is an acquire load (TSO), and
 * a compare with its operand in memory is one instruction where the atomic
 * load and the compare are two (gcc never folds an atomic load into an
 * operand): one instruction of every sync (docs/performance.md).  The
 * compiler barriers after it keep later accesses to the slot after the load,
 * as acquire does.  ThreadSanitizer builds keep the atomic load, whose
 * happens-before edge it must see. */
FJ__INLINE int fj__head_above(const fj_deque_ends *d, const fj_frame *f)
{
#if defined(__x86_64__) && !FJ__TSAN
    __asm__ goto("cmpq %[f], %[head]\n\tja %l[above]" : : [head] "m"(d->fj_head), [f] "r"(f) : "cc" : above);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return 0;
above:
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return 1;
#else
    return __atomic_load_n(&d->fj_head, __ATOMIC_ACQUIRE) > (uintptr_t)f;
#endif
}

/* Whether a word is non-zero, a relaxed load; on x86-64 one compare with the
 * word in memory, as for fj__head_above (one instruction of every spawn). */
FJ__INLINE int fj__word_nonzero(const unsigned long *word)
{
#if defined(__x86_64__) && !FJ__TSAN
    __asm__ goto("cmpq $0, %[word]\n\tjne %l[nonzero]" : : [word] "m"(*word) : "cc" : nonzero);
    return 0;
nonzero:
    return 1;
#else
    return __atomic_load_n(word, __ATOMIC_RELAXED) != 0;
#endif
}

/* The spawn's cold call: fj__spawn_settle, or with `raise_guard`
 * fj__spawn_guarded; returns where the frame goes. */
FJ__INLINE fj_frame *fj__spawn_settle_call(fj_worker *w, fj_frame *t, int raise_guard)
{
#ifdef FJ__COLD_STUBS
    if (raise_guard)
        fj__spawn_guarded_cold(w, t);
    else
        fj__spawn_settle_cold(w, t);
    return ((fj_deque_ends *)(void *)w)->fj_top;  /* what both return (a plain load: only we write top) */
#elif defined(FJ__KEEP_CALLS)
    return raise_guard ? fj__spawn_guarded_cold(w, t) : fj__spawn_settle_cold(w, t);
#else
    return raise_guard ? fj__spawn_guarded(w, t) : fj__spawn_settle(w, t);
#endif
}

/* Spawn: write the frame into the next slot, then publish it by moving top.
 * The slot at top is always writable (one spare frame lies past the end), so
 * the frame is written first and the slow path finds it there.
 *
 * *tp is the caller's copy of top, carried through the recursion in a
 * register (fj_t_, a hidden parameter of every typed body, as Lace carries
 * its deque head): a typed call returns with top where it found it, so the
 * copy equals the word in memory, and no spawn or sync loads the word into
 * its frame's address.  Loading it would chain every spawn and sync of the
 * whole run through a store and a load of one word (store-to-load forwarding,
 * about 5 cycles each), which made typed tasks 2.4x Lace's time on dfs with
 * the same instruction count (docs/performance.md, "Typed tasks against
 * Lace").  The word is still compared, not used: frames may lie above the
 * copy (an fj_task the task or a function it called forked and has not
 * joined, or a callee's forgotten sync), or a join may have taken the frame
 * below it; fj__spawn_settle deals with them first (runtime/frame.c, point 4).
 * This spawn compares it every time (fj.hpp's joins through a context); a
 * typed task's spawn, fj__spawn_begin_guarded, only when its copy is unsure.
 * The spawn's first half: the frame at the copy of top, its runner written. */
FJ__INLINE fj_frame *fj__spawn_begin(fj_worker *w, fj_frame *t, fj_frame_fn run)
{
    fj_deque_ends *d = (fj_deque_ends *)(void *)w;
    /* No instruction (a compiler barrier: no memory access moves across the
     * start of a spawn), but a call when gcc predicts the branches: a task whose
     * path to its spawn starts with a call is predicted to take its early
     * return (a leaf test) more often, and gcc then splits the leaf test off
     * into the callers (partial inlining), so a leaf costs no call, as Lace's
     * do.  Without it fib's leaves are called: 12.4 instructions more per
     * fork+join when it was measured (47.0 against 34.6), and slower
     * (docs/performance.md). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    fj_frame *f = t;
    if (FJ__UNLIKELY(fj__top_moved(d, f)))
        f = fj__spawn_settle_call(w, f, 0);
    f->fj_run = run;
    return f;  /* the caller writes the arguments into f->fj_data */
}

/* A typed task's spawn, first half: fj__spawn_begin without the load of top
 * while the task's copy is sure (`unsure` is its fj_unsure_).  The load cost
 * pi 8 % of its time and fib 4 %: the word was stored by the sync ten
 * instructions before (docs/performance.md, typed finding 6).  What can move
 * top under a typed task's copy leaves a mark this spawn reads for free:
 *  - a typed call that returned (FJ_CALL, or the body a sync ran inline) may
 *    have forgotten a sync: it sets the caller's fj_unsure_, a register, and
 *    the spawn compares the word, as fj__spawn_begin does;
 *  - an fj_task's fork or join, and every other move of top by the runtime's
 *    deque, set the spawn guard to 0 (runtime/deque.h, deque_guard_lower);
 *  - a typed task the runtime ran (a thief, FJ_RUN) sets it to 0 when it
 *    returns (NAME_fj_run): its own spawns raised the guard again, which says
 *    nothing about the copies of the typed tasks below it on this thread.
 * So, with a sure copy, one compare with the guard decides, a word on top's
 * line that no fast path stores.  The guard is also at or below limit, so a
 * full deque or a hook fails it too: fj__spawn_guarded settles (as
 * fj__spawn_settle), raises the guard to limit and returns where the frame
 * goes; *settled then sends the second half through fj__spawn_end's test. */
FJ__INLINE fj_frame *fj__spawn_begin_guarded(fj_worker *w, fj_frame *t, int unsure, fj_frame_fn run, int *settled)
{
    fj_deque_ends *d = (fj_deque_ends *)(void *)w;
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* as in fj__spawn_begin */
    fj_frame *f = t;
    /* A plain load of the guard: only this thread writes it. */
    if (FJ__UNLIKELY(unsure && fj__top_moved(d, f)) || FJ__UNLIKELY((uintptr_t)f >= d->fj_spawn_guard)) {
        f = fj__spawn_settle_call(w, f, 1);
        *settled = 1;
    }
    f->fj_run = run;
    return f;  /* the caller writes the arguments into f->fj_data */
}

/* The spawn's end on the fast path: frame f is published, *tp moves past it,
 * and a parked worker is woken if the hint says one may be. */
FJ__INLINE void fj__spawn_publish(fj_worker *w, fj_frame **tp, fj_frame *f)
{
    fj_deque_ends *d = (fj_deque_ends *)(void *)w;
    /* t = f + 1, computed where the compiler cannot see it: it then does not
     * hold f alive beside t until the sync (which takes f back as t - 1), one
     * callee-saved register less.  On x86-64 the asm is the lea itself, so
     * the compiler picks t's register freely (an empty asm on t cost two
     * register moves per spawn in a task with four arguments). */
#if defined(__x86_64__)
    fj_frame *t;
    __asm__("lea %c2(%1), %0" : "=r"(t) : "r"(f), "i"(sizeof *f));
#else
    fj_frame *t = f + 1;
    __asm__("" : "+r"(t));
#endif
    *tp = t;
    /* Release: the frame is written before a thief that acquires top (in
     * deque_steal_batch) reads it. */
    __atomic_store_n(&d->fj_top, t, __ATOMIC_RELEASE);
    /* StoreLoad between publishing the frame and the sleeper test, as a
     * compiler barrier only: pairs with fence_heavy() in idle_park (a worker
     * going to sleep sees this frame, or we see its wake hint).  Where
     * membarrier is missing, the frame is private (runtime/deque.c, point 9)
     * and the hint asks for a publish: fj__spawn_wake publishes, fences and
     * tests the sleepers; the idle words then say nobody searches.
     * The hint lies on this line, which spawn has in its cache already: the
     * pool's sleeper count behind a pointer cost a dependent load per spawn
     * (docs/performance.md, typed finding 5).  A worker about to park sets
     * every worker's hint; fj__spawn_wake clears ours when none sleeps. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* Atomic loads, not volatile ones, which the compiler may fold into the test. */
    /* (A name of ours: a local named like a user's global would warn under -Wshadow.) */
    if (FJ__UNLIKELY(fj__word_nonzero(&d->fj_wake_hint)) &&
        __atomic_load_n(&((const unsigned long *)d->fj_idle)[1], __ATOMIC_RELAXED) == 0)
        fj__spawn_wake_cold(w);
}

/* The spawn's second half, once frame f (from fj__spawn_begin) is written. */
FJ__INLINE void fj__spawn_end(fj_worker *w, fj_frame **tp, fj_frame *f)
{
    fj_deque_ends *d = (fj_deque_ends *)(void *)w;
    /* limit is the end of the reserved range, or the base while a teaching or
     * observing hook is on (every spawn then takes the slow path), which may
     * leave top anywhere (a spawn run at once leaves it unmoved).  A plain
     * load: only this thread writes it. */
    if (FJ__UNLIKELY(f >= d->fj_limit)) {
        fj__spawn_slow_cold(w);
        *tp = d->fj_top;
        return;
    }
    fj__spawn_publish(w, tp, f);
}

/* The first half of fj__spawn_at_top: the frame at the word top, its runner
 * written.  The caller writes its data, then calls fj__spawn_end. */
FJ__INLINE fj_frame *fj__spawn_begin_at_top(fj_worker *w, fj_frame_fn run)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* as in fj__spawn_begin */
    fj_frame *f = fj__top(w);
    f->fj_run = run;
    return f;
}

/* A spawn whose arguments are `size` bytes at `args`, for a caller that
 * carries no copy of top (fj.hpp's join, called from any function): the frame
 * goes at the word top itself, above which nothing lies, so there is nothing
 * to settle (fj__spawn_begin's test).  Returns the copy of top for the sync. */
FJ__INLINE fj_frame *fj__spawn_at_top(fj_worker *w, fj_frame_fn run, const void *args, size_t size)
{
    fj_frame *f = fj__spawn_begin_at_top(w, run), *t;
    __builtin_memcpy(f->fj_data, args, size);
    fj__spawn_end(w, &t, f);
    return t;
}

/* Sync, first half: take the caller's newest frame back, the one below its
 * copy of top *tp (see fj__spawn_begin), which becomes that frame.  True when
 * nobody stole it: the caller calls the body with its arguments.  False: the
 * caller goes to the slow path, fj__sync_slow through the task's
 * NAME_fj_sync_take, out of line so that the fast path keeps nothing alive
 * for it across the calls around the sync.
 * No check of the frame's runner: the copy of top says where the caller's
 * spawn put its frame, and the word in memory equal to it says that nothing
 * lies above (what a callee left takes the slow path).  A sync of another
 * task than the spawn's (FJ_SYNC(g) after FJ_SPAWN(f)) is caught in builds
 * without NDEBUG. */
FJ__INLINE int fj__sync_pop_at(fj_worker *w, fj_frame **tp, fj_frame_fn run)
{
    fj_deque_ends *d = (fj_deque_ends *)(void *)w;
    fj_frame *t = *tp, *f = t - 1;
    if (FJ__UNLIKELY(fj__top_moved(d, t)))
        return 0;
    /* THE protocol: claim the frame before looking at head. */
    __atomic_store_n(&d->fj_top, f, __ATOMIC_RELAXED);
    /* StoreLoad as a compiler barrier only: pairs with the thief's
     * fence_heavy() in deque_steal_batch (runtime/deque.c, points 2 and 7).
     * A set FJ__HEAD_FENCED bit (fenced pops) makes head compare above every
     * frame, so those pops take the slow path.  Where membarrier is missing
     * the word is the split instead (runtime/deque.c, point 9): above f
     * says f is public, and the slow path fences.
     * Acquire (fj__head_above): a thief that looked at this frame and
     * gave it back released head after its look, so our later writes to the
     * slot come after it (deque_steal_batch). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (FJ__UNLIKELY(fj__head_above(d, f)) ||
        (FJ__CHECK_SYNCS && FJ__UNLIKELY(f->fj_run != run)))
        return 0;
    *tp = f;
    return 1;
}

FJ__INLINE fj_frame *fj__sync_frame(fj_frame *f) { return (fj_frame *)((uintptr_t)f & ~(uintptr_t)1); }

/* The end of a runner: publish the result if a thief ran the frame. */
FJ__INLINE void fj__frame_finish(fj_worker *w, fj_frame *f)
{
    if (FJ__UNLIKELY(__atomic_load_n(&f->fj_state, __ATOMIC_RELAXED) != 0))
        fj__frame_publish(w, f);
}

/* ---- argument lists, by arity: fields, parameters, names, unpacking ----
 * The typed-task macros carry a task's name and its type, name pairs as one
 * list, never an empty one: ISO C (before C23) wants at least one argument
 * for a `...`, and GNU's `, ##__VA_ARGS__`, which would drop the comma before
 * an empty one, is an extension that -std=c11 keeps only in part and clang's
 * -Wpedantic reports.  So every macro here counts the name too, and the
 * by-arity macros take it first and ignore it. */
#define FJ__PICK(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define FJ__NPAIRS(...) FJ__PICK(__VA_ARGS__, 6, X, 5, X, 4, X, 3, X, 2, X, 1, X, 0, ~)
#define FJ__CAT(a, b) FJ__CAT_(a, b)
#define FJ__CAT_(a, b) a##b
/* 1 when a task's argument list is 0 to 6 type, name pairs, else 0 (counted
 * up to 16 arguments): FJ_TASK's first check, so that a wrong list gets a
 * message that says so before the errors of the code built from it. */
#define FJ__PICK16(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define FJ__PAIRS_OK(...) FJ__PICK16(__VA_ARGS__, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, ~)
#define FJ__CHECK_ARGUMENTS(NAME, ...)                                                         \
    FJ__STATIC_ASSERT(FJ__PAIRS_OK(__VA_ARGS__),                                               \
                      "typed task " #NAME ": the arguments must be 0 to 6 type, name pairs")
/* A call's task name, and its arguments after a comma (up to 7, one more
 * than a task takes, so that one too many is the compiler's "too many
 * arguments" to the generated function). */
#define FJ__HEAD(...) FJ__HEAD_(__VA_ARGS__, ~)
#define FJ__HEAD_(first, ...) first
#define FJ__COUNT(...) FJ__PICK16(__VA_ARGS__, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define FJ__TAIL(...) FJ__CAT(FJ__TAIL_, FJ__COUNT(__VA_ARGS__))(__VA_ARGS__)
#define FJ__TAIL_1(name)
#define FJ__TAIL_2(name, a1) , a1
#define FJ__TAIL_3(name, a1, a2) , a1, a2
#define FJ__TAIL_4(name, a1, a2, a3) , a1, a2, a3
#define FJ__TAIL_5(name, a1, a2, a3, a4) , a1, a2, a3, a4
#define FJ__TAIL_6(name, a1, a2, a3, a4, a5) , a1, a2, a3, a4, a5
#define FJ__TAIL_7(name, a1, a2, a3, a4, a5, a6) , a1, a2, a3, a4, a5, a6
#define FJ__TAIL_8(name, a1, a2, a3, a4, a5, a6, a7) , a1, a2, a3, a4, a5, a6, a7

#define FJ__FIELDS_0(name) char fj_none_;
#define FJ__FIELDS_1(name, T1, a1) T1 a1;
#define FJ__FIELDS_2(name, T1, a1, T2, a2) T1 a1; T2 a2;
#define FJ__FIELDS_3(name, T1, a1, T2, a2, T3, a3) T1 a1; T2 a2; T3 a3;
#define FJ__FIELDS_4(name, T1, a1, T2, a2, T3, a3, T4, a4) T1 a1; T2 a2; T3 a3; T4 a4;
#define FJ__FIELDS_5(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) T1 a1; T2 a2; T3 a3; T4 a4; T5 a5;
#define FJ__FIELDS_6(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) T1 a1; T2 a2; T3 a3; T4 a4; T5 a5; T6 a6;
#define FJ__PARAMS_0(name)
#define FJ__PARAMS_1(name, T1, a1) , T1 a1
#define FJ__PARAMS_2(name, T1, a1, T2, a2) , T1 a1, T2 a2
#define FJ__PARAMS_3(name, T1, a1, T2, a2, T3, a3) , T1 a1, T2 a2, T3 a3
#define FJ__PARAMS_4(name, T1, a1, T2, a2, T3, a3, T4, a4) , T1 a1, T2 a2, T3 a3, T4 a4
#define FJ__PARAMS_5(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5
#define FJ__PARAMS_6(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6
#define FJ__NAMES_0(name)
#define FJ__NAMES_1(name, T1, a1) , a1
#define FJ__NAMES_2(name, T1, a1, T2, a2) , a1, a2
#define FJ__NAMES_3(name, T1, a1, T2, a2, T3, a3) , a1, a2, a3
#define FJ__NAMES_4(name, T1, a1, T2, a2, T3, a3, T4, a4) , a1, a2, a3, a4
#define FJ__NAMES_5(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) , a1, a2, a3, a4, a5
#define FJ__NAMES_6(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) , a1, a2, a3, a4, a5, a6
#define FJ__INIT_0(name) {0}
#define FJ__INIT_1(name, T1, a1) {a1}
#define FJ__INIT_2(name, T1, a1, T2, a2) {a1, a2}
#define FJ__INIT_3(name, T1, a1, T2, a2, T3, a3) {a1, a2, a3}
#define FJ__INIT_4(name, T1, a1, T2, a2, T3, a3, T4, a4) {a1, a2, a3, a4}
#define FJ__INIT_5(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) {a1, a2, a3, a4, a5}
#define FJ__INIT_6(name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) {a1, a2, a3, a4, a5, a6}
#define FJ__STORE_0(p, name)
#define FJ__STORE_1(p, name, T1, a1) p->a1 = a1;
#define FJ__STORE_2(p, name, T1, a1, T2, a2) p->a1 = a1; p->a2 = a2;
#define FJ__STORE_3(p, name, T1, a1, T2, a2, T3, a3) p->a1 = a1; p->a2 = a2; p->a3 = a3;
#define FJ__STORE_4(p, name, T1, a1, T2, a2, T3, a3, T4, a4) p->a1 = a1; p->a2 = a2; p->a3 = a3; p->a4 = a4;
#define FJ__STORE_5(p, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) p->a1 = a1; p->a2 = a2; p->a3 = a3; p->a4 = a4; p->a5 = a5;
#define FJ__STORE_6(p, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) p->a1 = a1; p->a2 = a2; p->a3 = a3; p->a4 = a4; p->a5 = a5; p->a6 = a6;
#define FJ__UNPACK_0(s, name)
#define FJ__UNPACK_1(s, name, T1, a1) , s.a1
#define FJ__UNPACK_2(s, name, T1, a1, T2, a2) , s.a1, s.a2
#define FJ__UNPACK_3(s, name, T1, a1, T2, a2, T3, a3) , s.a1, s.a2, s.a3
#define FJ__UNPACK_4(s, name, T1, a1, T2, a2, T3, a3, T4, a4) , s.a1, s.a2, s.a3, s.a4
#define FJ__UNPACK_5(s, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) , s.a1, s.a2, s.a3, s.a4, s.a5
#define FJ__UNPACK_6(s, name, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) , s.a1, s.a2, s.a3, s.a4, s.a5, s.a6

#define FJ__LIST(kind, ...) FJ__CAT(FJ__##kind##_, FJ__NPAIRS(__VA_ARGS__))(__VA_ARGS__)
#define FJ__UNPACK(s, ...) FJ__CAT(FJ__UNPACK_, FJ__NPAIRS(__VA_ARGS__))(s, __VA_ARGS__)
#define FJ__STORE(p, ...) FJ__CAT(FJ__STORE_, FJ__NPAIRS(__VA_ARGS__))(p, __VA_ARGS__)

/** `FJ_TASK(RT, NAME, T1, a1, ...)`: defines the typed task NAME, result type RT, with 0 to 6
 * arguments as type, name pairs (the `...` holds NAME and them); the braces that follow are its
 * body.  The task is `static`: use it in the file that defines it. */
#define FJ_TASK(RT, ...) FJ__TASK_NAMED(RT, FJ__HEAD(__VA_ARGS__), __VA_ARGS__)
/* NAME, expanded here, can be pasted and quoted below; the list after it
 * still starts with the name (see the argument lists above). */
#define FJ__TASK_NAMED(RT, NAME, ...) FJ__TASK_DEFINE(RT, NAME, __VA_ARGS__)
#define FJ__TASK_DEFINE(RT, NAME, ...)                                                         \
    FJ__CHECK_ARGUMENTS(NAME, __VA_ARGS__);                                                  \
    FJ__STATIC_ASSERT(!FJ__IS_VOID(RT), "typed task " #NAME                                    \
                      ": a task without a result is declared with FJ_VOID_TASK(" #NAME ", ...)"); \
    /* may_alias: the arguments are read and written in place in fj_data. */                 \
    typedef struct __attribute__((may_alias)) { FJ__LIST(FIELDS, __VA_ARGS__) } NAME##_fj_args; \
    FJ__STATIC_ASSERT(sizeof(NAME##_fj_args) <= FJ_FRAME_DATA_SIZE,                            \
                      "typed task " #NAME ": arguments exceed FJ_FRAME_DATA_SIZE bytes");      \
    FJ__STATIC_ASSERT(sizeof(RT) <= FJ_FRAME_DATA_SIZE,                                        \
                      "typed task " #NAME ": result exceeds FJ_FRAME_DATA_SIZE bytes");        \
    static RT NAME##_fj_body(fj_worker *fj_w_, fj_frame *fj_t_ FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_);\
    FJ__GENERATED RT NAME##_fj_call(fj_worker *fj_w_, fj_frame *fj_t_ FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_)\
    {                                                                                          \
        if (!FJ__CHECK_SYNCS)                                                                  \
            return NAME##_fj_body(fj_w_, fj_t_ FJ__LIST(NAMES, __VA_ARGS__), fj_unsure_);                       \
        fj_frame *fj_entry_ = fj_t_;                                                           \
        RT fj_r_ = NAME##_fj_body(fj_w_, fj_t_ FJ__LIST(NAMES, __VA_ARGS__), fj_unsure_);                       \
        if (FJ__UNLIKELY(fj__top(fj_w_) != fj_entry_))                                         \
            fj__unsynced(fj_w_, fj_entry_, #NAME, 1);                                          \
        return fj_r_;                                                                          \
    }                                                                                          \
    /* FJ_CALL: the callee may have forgotten a sync, so the caller's copy of */             \
    /* top is unsure afterwards (fj__spawn_begin_guarded). */                                 \
    FJ__GENERATED RT NAME##_fj_call_in(fj_worker *fj_w_, fj_frame *fj_t_, int *fj_unsurep_    \
                                       FJ__LIST(PARAMS, __VA_ARGS__))                        \
    {                                                                                          \
        RT fj_r_ = NAME##_fj_call(fj_w_, fj_t_ FJ__LIST(NAMES, __VA_ARGS__), *fj_unsurep_);  \
        *fj_unsurep_ = 1;                                                                      \
        return fj_r_;                                                                          \
    }                                                                                          \
    static __attribute__((unused)) void NAME##_fj_run(fj_worker *fj_w_, fj_frame *fj_f_)       \
    {                                                                                          \
        NAME##_fj_args fj_a_;                                                                  \
        __builtin_memcpy(&fj_a_, fj_f_->fj_data, sizeof fj_a_);                                \
        fj_frame *fj_entry_ = fj__top(fj_w_);                                                  \
        RT fj_r_ = NAME##_fj_body(fj_w_, fj_entry_ FJ__UNPACK(fj_a_, __VA_ARGS__), 0);                     \
        if (FJ__UNLIKELY(fj__top(fj_w_) != fj_entry_))                                         \
            fj__unsynced(fj_w_, fj_entry_, #NAME, FJ__CHECK_SYNCS);                            \
        fj__spawn_guard_lower(fj_w_);                                                          \
        __builtin_memcpy(fj_f_->fj_data, &fj_r_, sizeof fj_r_);                                \
        fj__frame_finish(fj_w_, fj_f_);                                                        \
    }                                                                                          \
    FJ__GENERATED void NAME##_fj_spawn(fj_worker *fj_w_, fj_frame **fj_tp_, int *fj_unsurep_ FJ__LIST(PARAMS, __VA_ARGS__))\
    {                                                                                          \
        int fj_settled_ = 0;                                                                   \
        fj_frame *fj_f_ = fj__spawn_begin_guarded(fj_w_, *fj_tp_, *fj_unsurep_, NAME##_fj_run, &fj_settled_); \
        *fj_unsurep_ = 0; /* the spawn settled, or found top where the copy says */          \
        /* Field by field, as the body's arguments arrive: one store each, which  */          \
        /* the sync's loads forward from.  Built on the stack and copied, they  */            \
        /* were read back in one vector load that no store could forward to. */              \
        NAME##_fj_args *fj_a_ __attribute__((unused)) = (NAME##_fj_args *)(void *)fj_f_->fj_data; \
        FJ__STORE(fj_a_, __VA_ARGS__)                                                        \
        if (FJ__UNLIKELY(fj_settled_))                                                         \
            fj__spawn_end(fj_w_, fj_tp_, fj_f_);                                               \
        else                                                                                   \
            fj__spawn_publish(fj_w_, fj_tp_, fj_f_);                                           \
    }                                                                                          \
    /* The sync's slow half, out of line so that the fast path keeps nothing  */             \
    /* alive for it: t is the caller's copy of top (fj__sync_pop_at). */                      \
    static __attribute__((noinline, cold, unused)) fj_frame *NAME##_fj_sync_take(fj_worker *fj_w_, \
                                                                                 fj_frame *fj_t_) \
    {                                                                                          \
        return fj__sync_slow(fj_w_, fj_t_ - 1, NAME##_fj_run);                                 \
    }                                                                                          \
    static inline __attribute__((unused)) RT NAME##_fj_sync_core(fj_worker *fj_w_, fj_frame **fj_tp_);\
    /* The caller's copy of top goes through a local: its own address is  */               \
    /* never taken, so it stays a register that partial inlining can pass. */              \
    /* Afterwards the copy is unsure: the sync may have run the body, which */             \
    /* may have forgotten a sync (fj__spawn_begin_guarded). */                              \
    FJ__GENERATED RT NAME##_fj_sync(fj_worker *fj_w_, fj_frame **fj_tp_, int *fj_unsurep_) \
    {                                                                                      \
        fj_frame *fj_copy_ = *fj_tp_;                                                      \
        RT fj_r_ = NAME##_fj_sync_core(fj_w_, &fj_copy_);                                  \
        *fj_tp_ = fj_copy_;                                                                \
        *fj_unsurep_ = 1;                                                                  \
        return fj_r_;                                                                      \
    }                                                                                      \
    /* Not always_inline: inlined early, its call of the body would be a  */               \
    /* tail call when the task ends in `return FJ_SYNC(..) + x`, and the */                \
    /* early tail-recursion pass would turn the recursion into a loop    */                \
    /* before partial inlining splits the leaf test off (leaves called); */                \
    /* inlined late, as Lace's SYNC is, both happen: one call less per   */                \
    /* fork+join (docs/performance.md, "Typed tasks against Lace").      */                \
    static inline __attribute__((unused)) RT NAME##_fj_sync_core(fj_worker *fj_w_, fj_frame **fj_tp_)\
    {                                                                                          \
        if (FJ__UNLIKELY(!fj__sync_pop_at(fj_w_, fj_tp_, NAME##_fj_run))) {                    \
            fj_frame *fj_f_ = NAME##_fj_sync_take(fj_w_, *fj_tp_);                                       \
            *fj_tp_ = fj__top(fj_w_); /* the frame taken back, or where a spawn run at once left top */ \
            if (((uintptr_t)fj_f_) & 1u) {                                                     \
                RT fj_r_;                                                                      \
                __builtin_memcpy(&fj_r_, fj__sync_frame(fj_f_)->fj_data, sizeof fj_r_);        \
                return fj_r_;                                                                  \
            }                                                                                  \
        }                                                                                      \
        NAME##_fj_args *fj_a_ __attribute__((unused)) = (NAME##_fj_args *)(void *)(*fj_tp_)->fj_data; \
        return NAME##_fj_call(fj_w_, *fj_tp_ FJ__UNPACK((*fj_a_), __VA_ARGS__), 0);         \
    }                                                                                          \
    static inline __attribute__((unused)) RT NAME##_fj_run_on(fj_pool *fj_pool_, int *fj_rc_   \
                                                              FJ__LIST(PARAMS, __VA_ARGS__)) \
    {                                                                                          \
        union { NAME##_fj_args args; RT result; } fj_d_;                                       \
        NAME##_fj_args fj_a_ = FJ__LIST(INIT, __VA_ARGS__);                                  \
        __builtin_memset(&fj_d_, 0, sizeof fj_d_);                                             \
        fj_d_.args = fj_a_;                                                                    \
        int fj_e_ = fj__run(fj_pool_, NAME##_fj_run, &fj_d_, sizeof fj_a_, sizeof(RT));        \
        if (fj_rc_)                                                                            \
            *fj_rc_ = fj_e_;                                                                   \
        return fj_d_.result;                                                                   \
    }                                                                                          \
    static RT NAME##_fj_body(fj_worker *fj_w_ __attribute__((unused)), fj_frame *fj_t_ __attribute__((unused)) \
                             FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_ __attribute__((unused)))

/** `FJ_VOID_TASK(NAME, T1, a1, ...)`: FJ_TASK without a result, with 0 to 6 arguments as type, name
 * pairs. */
#define FJ_VOID_TASK(...) FJ__VOID_TASK_NAMED(FJ__HEAD(__VA_ARGS__), __VA_ARGS__)
#define FJ__VOID_TASK_NAMED(NAME, ...) FJ__VOID_TASK_DEFINE(NAME, __VA_ARGS__)
#define FJ__VOID_TASK_DEFINE(NAME, ...)                                                        \
    FJ__CHECK_ARGUMENTS(NAME, __VA_ARGS__);                                                  \
    /* may_alias: the arguments are read and written in place in fj_data. */                 \
    typedef struct __attribute__((may_alias)) { FJ__LIST(FIELDS, __VA_ARGS__) } NAME##_fj_args; \
    FJ__STATIC_ASSERT(sizeof(NAME##_fj_args) <= FJ_FRAME_DATA_SIZE,                            \
                      "typed task " #NAME ": arguments exceed FJ_FRAME_DATA_SIZE bytes");      \
    static void NAME##_fj_body(fj_worker *fj_w_, fj_frame *fj_t_ FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_);\
    FJ__GENERATED void NAME##_fj_call(fj_worker *fj_w_, fj_frame *fj_t_ FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_)\
    {                                                                                          \
        fj_frame *fj_entry_ = fj_t_;                            \
        NAME##_fj_body(fj_w_, fj_t_ FJ__LIST(NAMES, __VA_ARGS__), fj_unsure_);                                  \
        if (FJ__CHECK_SYNCS && FJ__UNLIKELY(fj__top(fj_w_) != fj_entry_))                      \
            fj__unsynced(fj_w_, fj_entry_, #NAME, 1);                                          \
    }                                                                                          \
    FJ__GENERATED void NAME##_fj_call_in(fj_worker *fj_w_, fj_frame *fj_t_, int *fj_unsurep_  \
                                         FJ__LIST(PARAMS, __VA_ARGS__))                      \
    {                                                                                          \
        NAME##_fj_call(fj_w_, fj_t_ FJ__LIST(NAMES, __VA_ARGS__), *fj_unsurep_);             \
        *fj_unsurep_ = 1; /* as in FJ_TASK's */                                                \
    }                                                                                          \
    static __attribute__((unused)) void NAME##_fj_run(fj_worker *fj_w_, fj_frame *fj_f_)       \
    {                                                                                          \
        NAME##_fj_args fj_a_;                                                                  \
        __builtin_memcpy(&fj_a_, fj_f_->fj_data, sizeof fj_a_);                                \
        fj_frame *fj_entry_ = fj__top(fj_w_);                                                  \
        NAME##_fj_body(fj_w_, fj_entry_ FJ__UNPACK(fj_a_, __VA_ARGS__), 0);                                \
        if (FJ__UNLIKELY(fj__top(fj_w_) != fj_entry_))                                         \
            fj__unsynced(fj_w_, fj_entry_, #NAME, FJ__CHECK_SYNCS);                            \
        fj__spawn_guard_lower(fj_w_);                                                          \
        fj__frame_finish(fj_w_, fj_f_);                                                        \
    }                                                                                          \
    FJ__GENERATED void NAME##_fj_spawn(fj_worker *fj_w_, fj_frame **fj_tp_, int *fj_unsurep_ FJ__LIST(PARAMS, __VA_ARGS__))\
    {                                                                                          \
        int fj_settled_ = 0;                                                                   \
        fj_frame *fj_f_ = fj__spawn_begin_guarded(fj_w_, *fj_tp_, *fj_unsurep_, NAME##_fj_run, &fj_settled_); \
        *fj_unsurep_ = 0; /* the spawn settled, or found top where the copy says */          \
        /* Field by field, as the body's arguments arrive: one store each, which  */          \
        /* the sync's loads forward from.  Built on the stack and copied, they  */            \
        /* were read back in one vector load that no store could forward to. */              \
        NAME##_fj_args *fj_a_ __attribute__((unused)) = (NAME##_fj_args *)(void *)fj_f_->fj_data; \
        FJ__STORE(fj_a_, __VA_ARGS__)                                                        \
        if (FJ__UNLIKELY(fj_settled_))                                                         \
            fj__spawn_end(fj_w_, fj_tp_, fj_f_);                                               \
        else                                                                                   \
            fj__spawn_publish(fj_w_, fj_tp_, fj_f_);                                           \
    }                                                                                          \
    static __attribute__((noinline, cold, unused)) fj_frame *NAME##_fj_sync_take(fj_worker *fj_w_, \
                                                                                 fj_frame *fj_t_) \
    {                                                                                          \
        return fj__sync_slow(fj_w_, fj_t_ - 1, NAME##_fj_run);                                 \
    }                                                                                          \
    static inline __attribute__((unused)) void NAME##_fj_sync_core(fj_worker *fj_w_, fj_frame **fj_tp_);\
    /* The caller's copy of top goes through a local: its own address is  */               \
    /* never taken, so it stays a register that partial inlining can pass. */              \
    FJ__GENERATED void NAME##_fj_sync(fj_worker *fj_w_, fj_frame **fj_tp_, int *fj_unsurep_) \
    {                                                                                      \
        fj_frame *fj_copy_ = *fj_tp_;                                                      \
        NAME##_fj_sync_core(fj_w_, &fj_copy_);                                             \
        *fj_tp_ = fj_copy_;                                                                \
        *fj_unsurep_ = 1; /* as in FJ_TASK's */                                            \
    }                                                                                      \
    /* Not always_inline: inlined early, its call of the body would be a  */               \
    /* tail call when the task ends in `return FJ_SYNC(..) + x`, and the */                \
    /* early tail-recursion pass would turn the recursion into a loop    */                \
    /* before partial inlining splits the leaf test off (leaves called); */                \
    /* inlined late, as Lace's SYNC is, both happen: one call less per   */                \
    /* fork+join (docs/performance.md, "Typed tasks against Lace").      */                \
    static inline __attribute__((unused)) void NAME##_fj_sync_core(fj_worker *fj_w_, fj_frame **fj_tp_)\
    {                                                                                          \
        if (FJ__UNLIKELY(!fj__sync_pop_at(fj_w_, fj_tp_, NAME##_fj_run))) {                    \
            fj_frame *fj_f_ = NAME##_fj_sync_take(fj_w_, *fj_tp_);                             \
            *fj_tp_ = fj__top(fj_w_); /* the frame taken back, or where a spawn run at once left top */ \
            if (((uintptr_t)fj_f_) & 1u)                                                       \
                return;                                                                        \
        }                                                                                      \
        NAME##_fj_args *fj_a_ __attribute__((unused)) = (NAME##_fj_args *)(void *)(*fj_tp_)->fj_data; \
        NAME##_fj_call(fj_w_, *fj_tp_ FJ__UNPACK((*fj_a_), __VA_ARGS__), 0);                    \
    }                                                                                          \
    static inline __attribute__((unused)) void NAME##_fj_run_on(fj_pool *fj_pool_, int *fj_rc_ \
                                                                FJ__LIST(PARAMS, __VA_ARGS__)) \
    {                                                                                          \
        NAME##_fj_args fj_a_ = FJ__LIST(INIT, __VA_ARGS__);                                  \
        int fj_e_ = fj__run(fj_pool_, NAME##_fj_run, &fj_a_, sizeof fj_a_, 0);                 \
        if (fj_rc_)                                                                            \
            *fj_rc_ = fj_e_;                                                                   \
    }                                                                                          \
    static void NAME##_fj_body(fj_worker *fj_w_ __attribute__((unused)), fj_frame *fj_t_ __attribute__((unused)) \
                             FJ__LIST(PARAMS, __VA_ARGS__), int fj_unsure_ __attribute__((unused)))

/** `FJ_SPAWN(NAME, a1, ...)`, inside a typed task: pushes a frame holding NAME and its arguments
 * on this worker's deque, where a thief may take it. */
#define FJ_SPAWN(...) FJ__CAT(FJ__HEAD(__VA_ARGS__), _fj_spawn)(fj_w_, &fj_t_, &fj_unsure_ FJ__TAIL(__VA_ARGS__))
/** Inside a typed task: the result of this task's newest unsynced spawn, which must be of NAME.
 * If nobody took the frame it calls NAME's body right here; if a thief took it, it helps that
 * thief, and the thieves of this task's older unsynced spawns, until the result is there.
 * Everything the spawned task wrote happens-before it returns. */
#define FJ_SYNC(NAME) NAME##_fj_sync(fj_w_, &fj_t_, &fj_unsure_)
/** `FJ_CALL(NAME, a1, ...)`, inside a typed task: a plain call of NAME's body, on this worker. */
#define FJ_CALL(...) FJ__CAT(FJ__HEAD(__VA_ARGS__), _fj_call_in)(fj_w_, fj_t_, &fj_unsure_ FJ__TAIL(__VA_ARGS__))
/** `FJ_RUN(pool, NAME, a1, ...)`, from any thread: runs NAME on `pool` (NULL: the current
 * worker's pool on a worker, else the common pool) and returns its result once it is complete; a zero result if the pool refuses. */
#define FJ_RUN(pool, ...) FJ__CAT(FJ__HEAD(__VA_ARGS__), _fj_run_on)((pool), (int *)0 FJ__TAIL(__VA_ARGS__))
/** `FJ_RUN_RC(pool, rc, NAME, a1, ...)`: FJ_RUN that also stores 0 or the FJ_E* code in *rc. */
#define FJ_RUN_RC(pool, rc, ...) FJ__CAT(FJ__HEAD(__VA_ARGS__), _fj_run_on)((pool), (rc) FJ__TAIL(__VA_ARGS__))

/* ======================================================================== */
/* Misuse and what it gets                                                  */
/* ======================================================================== */
/** @page fj_misuse Misuse and what it gets
 * @code{.unparsed}
 *   joining a task twice              the same outcome again, at once
 *   joining a task never forked       FJ_ENOTFORKED (task must have been initialised)
 *   forking a task already queued     FJ_EBUSY, nothing changes
 *   forking outside any pool          goes to the common pool (as in Java)
 *   a bad FJ_* variable, common pool  it never starts: one line on stderr naming the
 *                                     variable; calls that need it return FJ_EINVAL,
 *                                     FJ_RUN a zero result (see fj_common_pool)
 *   joining outside any pool          blocks until the task completes
 *   a pool of 0 workers               one worker per CPU the creator may run on
 *   a pool of 100000 workers          FJ_EINVAL (the limit is 1024 per pool)
 *   destroying a pool from its worker FJ_EDEADLK, nothing is done
 *   submitting after shutdown         FJ_ESHUTDOWN, the task is untouched
 *   out of memory while a deque grows the forked task runs inline; nothing lost
 *   out of memory in the injector     FJ_ENOMEM from submit/invoke
 *   an uninitialised fj_task          undefined: use FJ_TASK_INIT or fj_task_init
 *   a NULL task, or one with a NULL fn, to a call that returns a code
 *                                     FJ_EINVAL, named in fj_last_error_detail;
 *                                     nothing is queued or run
 *   a NULL task to a call that returns no code (fj_task_init, fj_task_is_*,
 *   the tags, fj_cc_* but complete_exceptionally and help_complete), or a
 *   NULL function to fj_pair         undefined (a crash at the call)
 *   owner-only call off its worker    assertion failure in debug builds
 *   FJ_TASK(void, NAME, ...)          compile error: "typed task NAME: a task without a
 *                                     result is declared with FJ_VOID_TASK(NAME, ...)"
 *   a typed task's arguments not 0 to 6 type, name pairs
 *                                     compile error: "typed task NAME: the arguments
 *                                     must be 0 to 6 type, name pairs"
 *   arguments or result over FJ_FRAME_DATA_SIZE bytes
 *                                     compile error naming the task
 *   FJ_SYNC with no FJ_SPAWN of its task left unsynced in the task
 *                                     the program stops: "fj: FJ_SYNC on worker N with
 *                                     no unsynced FJ_SPAWN in the task: ..."
 *   FJ_SYNC(g) after FJ_SPAWN(f)      the same stop in builds without NDEBUG; unchecked
 *                                     with NDEBUG (see "Typed tasks")
 *   a typed task returning with unsynced spawns
 *                                     builds without NDEBUG stop, naming the task; with
 *                                     NDEBUG the runtime syncs them (see "Typed tasks")
 * @endcode
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

#pragma GCC diagnostic pop
#pragma GCC visibility pop
#endif /* FJ_H */
