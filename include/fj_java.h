/** @file
 * fj_java.h - Java ForkJoin names for fj, so that a port reads like the original.
 *
 * Everything in fj.h keeps working; this header adds the members of
 * RecursiveTask, RecursiveAction, ForkJoinTask, ForkJoinPool and
 * ForkJoinPool.ManagedBlocker that fj.h has no counterpart for, under names
 * that spell the Java member: getSurplusQueuedTaskCount() is
 * fj_get_surplus_queued_task_count(), pool.awaitQuiescence(t, unit) is
 * fj_pool_await_quiescence(pool, ns).  docs/porting-from-java.md has the full
 * table and the idioms side by side.
 *
 *     // Java                                   // C
 *     class Fibonacci                           typedef struct fibonacci {
 *         extends RecursiveTask<Integer> {          FJ_RECURSIVE_TASK(int);  // task + result
 *       final int n;                                int n;
 *       protected Integer compute() {           } fibonacci;
 *         if (n <= 1) return n;                 static int fibonacci_compute(fj_task *t) {
 *         Fibonacci f1 = new Fibonacci(n - 1);      fibonacci *f = FJ_SELF(t, fibonacci);
 *         f1.fork();                                if (f->n <= 1) { f->result = f->n; return 0; }
 *         Fibonacci f2 = new Fibonacci(n - 2);      fibonacci f1 = FIBONACCI(f->n - 1);
 *         return f2.compute() + f1.join();          fj_fork(&f1.task);
 *       }                                           fibonacci f2 = FIBONACCI(f->n - 2);
 *     }                                             int rc = fj_invoke(&f2.task);
 *                                                   rc = fj_first_error(rc, fj_join(&f1.task));
 *                                                   f->result = f2.result + f1.result;
 *                                                   return rc;
 *                                               }
 *
 * Exceptions are error codes.  compute() returns 0 or a negative code; join,
 * invoke, get and invoke_all return it (the first one, as Java rethrows the
 * first exception).  A task that failed or was cancelled has no result.
 *
 * Generics are a typed field.  FJ_RECURSIVE_TASK(type) declares the task and a
 * `result` member of that type; FJ_JOIN_RESULT and friends copy it out after a
 * successful join, and refuse at compile time an output of another type.
 *
 * Lifetime (who frees a task).  The runtime never allocates or frees a task
 * and never touches one after publishing its completion.  A task forked and
 * joined in one frame may live in that frame (the common case).  A task forked
 * in one task and joined in another, submitted or executed from outside, or
 * joined by an outside thread must outlive its completion: allocate it on the
 * heap, and let the thread whose join/get returned free it.
 */
#ifndef FJ_JAVA_H
#define FJ_JAVA_H
#pragma GCC visibility push(default) /* libfj exports what its headers declare */
/* The inline code of this header names its parameters as any code would; a
 * program built with -Wshadow whose globals have those names is not warned
 * about code it did not write (the Makefile's header-check builds one). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"

#include <limits.h>

#include "fj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* RecursiveTask<V> and RecursiveAction                                     */
/* ======================================================================== */

/** The first members of a struct that stands for a RecursiveTask<type>: the
 * fj_task (named `task`) and the result (named `result`, Java's getRawResult()).
 * The compute function writes `result` before returning 0. */
#define FJ_RECURSIVE_TASK(type)                                                                \
    fj_task task;                                                                              \
    type result

/** The first member of a struct that stands for a RecursiveAction. */
#define FJ_RECURSIVE_ACTION fj_task task

/** Inside a compute function: `this`, from the fj_task pointer it receives. */
#define FJ_SELF(task_ptr, type) FJ_CONTAINER_OF(task_ptr, type, task)

/** Copies `size` bytes of a completed task's result to `out` when `outcome` is
 * 0, and returns `outcome`.  The engine of the FJ_*_RESULT macros below. */
int fj_result_copy(int outcome, const void *result, void *out, size_t size);

/** Compile-time check that *(out) has exactly the type of p->result (top-level
 * qualifiers aside): an int output for a double result, or a narrower or
 * wider integer, is an error (a negative array size), since the copy is
 * sizeof(p->result) bytes.  C++ has no __builtin_types_compatible_p: there
 * the assignment must type-check and the sizes must match. */
#ifdef __cplusplus
#define FJ_RESULT_SIZE_(p, out)                                                                \
    (sizeof((p)->result) + 0 * sizeof(*(out) = (p)->result) +                                 \
     0 * sizeof(char[sizeof(*(out)) == sizeof((p)->result) ? 1 : -1]))
#else
#define FJ_RESULT_SIZE_(p, out)                                                                \
    (sizeof((p)->result) +                                                                     \
     0 * sizeof(char[__builtin_types_compatible_p(__typeof__(*(out)), __typeof__((p)->result)) ? 1 : -1]))
#endif

/** Java's `V v = p.join()`: int rc = FJ_JOIN_RESULT(p, &v).  On success (0) *out
 * holds the result; otherwise *out is untouched and rc is the error, as in
 * fj_join.  p is a pointer to a struct declared with FJ_RECURSIVE_TASK. */
#define FJ_JOIN_RESULT(p, out) fj_result_copy(fj_join(&(p)->task), &(p)->result, (out), FJ_RESULT_SIZE_(p, out))

/** Java's `V v = p.invoke()`: runs p in this thread, as fj_invoke. */
#define FJ_INVOKE_RESULT(p, out) fj_result_copy(fj_invoke(&(p)->task), &(p)->result, (out), FJ_RESULT_SIZE_(p, out))

/** @{ */
/** Java's `V v = p.get()` and `p.get(timeout, unit)` (see fj_task_get). */
#define FJ_GET_RESULT(p, out) fj_result_copy(fj_task_get(&(p)->task), &(p)->result, (out), FJ_RESULT_SIZE_(p, out))
#define FJ_GET_RESULT_TIMED(p, timeout_ns, out)                                                \
    fj_result_copy(fj_task_get_timed(&(p)->task, (timeout_ns)), &(p)->result, (out), FJ_RESULT_SIZE_(p, out))
/** @} */

/** The first error of two outcomes (0 if both are 0): how a compute function
 * that joins two children reports the first exception, as Java would. */
static inline int fj_first_error(int first, int second) { return first != 0 ? first : second; }

/* ======================================================================== */
/* ForkJoinTask                                                             */
/* ======================================================================== */

/* fork(), join(), invoke(), isDone(), isCancelled(), isCompletedNormally(),
 * isCompletedAbnormally(), cancel(), tryUnfork() are fj_fork, fj_join,
 * fj_invoke, fj_task_is_*, fj_task_cancel, fj_task_try_unfork in fj.h. */

/** Java's invokeAll(a, b): forks b, runs a here, joins b.  If a fails, b is
 * cancelled (it does not start if it has not) and still waited for, so both
 * may live on the caller's stack.  Returns 0, or the first error in argument
 * order (a's before b's), or fj_fork's error if b could not be forked (FJ_EBUSY,
 * FJ_ESHUTDOWN, or off a worker a common pool that cannot start; then a did
 * not run).  Any thread (off a worker, b goes to the common pool).
 * Ordering: both tasks' writes happen-before the return. */
int fj_invoke_all2(fj_task *a, fj_task *b);

/** Java's invokeAll(tasks...): forks tasks[count-1] .. tasks[1], runs tasks[0]
 * here, then joins tasks[1] .. tasks[count-1].  After the first failure the
 * tasks not yet joined are cancelled, then waited for.  Returns 0, the first
 * error in array order, FJ_EINVAL (tasks NULL with count > 0, or a NULL
 * element or one with no fn: Java's NullPointerException; then nothing
 * runs, and fj_last_error_detail names the element), or the fork
 * error of a task that could not be forked (the ones forked so far are
 * cancelled and waited for, none runs after that).  A task that appears
 * twice is such a fork error (FJ_EBUSY: it is queued already), where Java runs
 * it once.  Any thread. */
int fj_invoke_all(fj_task *const *tasks, size_t count);

/** Java's get(): waits for the task from any thread and returns its outcome
 * (0, its error, or FJ_ECANCELED).  A worker helps while it waits (fj_join);
 * another thread blocks on the task's futex word.  FJ_ENOTFORKED if the task
 * was never forked or submitted (Java would block forever).  Ordering: as
 * fj_join. */
int fj_task_get(fj_task *task);

/** The timeout of the Java layer's timed waits (get(timeout), awaitQuiescence,
 * awaitTermination) that means "no limit".  Any other value is a limit in
 * nanoseconds, and as in Java a timeout <= 0 has already expired: the call
 * checks once and returns.  (fj.h's fj_task_wait differs: < 0 is no limit.) */
#define FJ_NO_TIMEOUT LLONG_MAX

/** Java's get(timeout, unit): as fj_task_get, but gives up after `timeout_ns`
 * nanoseconds and returns FJ_ETIMEDOUT; the task is unaffected and may be
 * waited for again.  A task not forked yet (never, or reinitialised, or taken
 * back by fj_task_try_unfork) is waited for too: another thread may fork it
 * meanwhile, and if none does the call times out, as in Java.  With
 * FJ_NO_TIMEOUT it is fj_task_get (FJ_ENOTFORKED for a task not forked). */
int fj_task_get_timed(fj_task *task, long long timeout_ns);

/** @{ */
/** Java's quietlyJoin() and quietlyInvoke(): as join and invoke, without the
 * outcome; ask fj_task_is_completed_normally() or fj_task_outcome() later. */
void fj_task_quietly_join(fj_task *task);
void fj_task_quietly_invoke(fj_task *task);
/** @} */

/** Java's completeExceptionally(ex): fj_task_fail in fj.h (the first error
 * wins, later joins and gets return it). */
static inline int fj_task_complete_exceptionally(fj_task *task, int error) { return fj_task_fail(task, error); }

/** Java's quietlyComplete(): completes the task normally without running its
 * body (if it has not started; a running body finishes and its error, if
 * any, is ignored).  Joins then return 0; fork, invoke and submission of it
 * leave it complete and do not run it, until fj_task_reinitialize.  Returns 0,
 * or FJ_EINVAL if it had completed, been cancelled or failed (nothing
 * changes).  Any thread.  Ordering: the caller's writes before it happen-
 * before a join that returns because of it. */
int fj_task_quietly_complete(fj_task *task);

/** Java's complete(value): writes value into p->result, then completes the
 * task as fj_task_quietly_complete.  As in Java, the result is written even
 * when the task turns out to be complete already (then FJ_EINVAL), so call it
 * on a task that has not completed.  p: a struct declared with
 * FJ_RECURSIVE_TASK. */
#define FJ_TASK_COMPLETE(p, value) ((p)->result = (value), fj_task_quietly_complete(&(p)->task))

/** Java's exec() returning false: a body ends with `return
 * fj_task_not_complete(self);` when the task ran but completes only later,
 * when some thread (a subtask, another thread) calls fj_task_quietly_complete,
 * FJ_TASK_COMPLETE, fj_task_complete_exceptionally or fj_task_cancel on it.
 * Meanwhile the task is not done: fj_task_is_done is 0, fj_join, fj_invoke
 * and fj_task_get wait (a worker helps, another thread blocks), a timed get
 * times out, fj_task_reinitialize refuses (FJ_EBUSY).  That completion call
 * publishes it, waking every joiner and waiter; it may come before the body
 * returns (then fj_task_not_complete publishes it).  Call it only as the
 * body's return, on the task the body runs; afterwards the body must not
 * touch the task (it may be complete and freed).  Returns the positive code
 * the runtime reads as "ran, not complete". */
int fj_task_not_complete(fj_task *task);

/** Java's peekNextLocalTask(): the task this worker forked last and that is
 * still queued in its deque, without taking it; NULL if none or off a worker.
 * The pointer is a snapshot: a thief may take the task at any time. */
fj_task *fj_peek_next_local_task(void);

/** Java's pollNextLocalTask(): takes the task this worker forked last out of
 * its deque, unrun (as fj_task_try_unfork: it is not forked any more and may
 * be forked, invoked or run by the caller); NULL if none or off a worker. */
fj_task *fj_poll_next_local_task(void);

/** Java's pollTask(): fj_poll_next_local_task, or, if this worker has none
 * queued, the oldest task queued by another worker of the pool (taken as a
 * thief would, left unrun).  Submissions from outside are not taken.  NULL if
 * nothing was found or off a worker. */
fj_task *fj_poll_task(void);

/** Java's reinitialize(): resets a completed (or never forked) task so that it
 * may be forked or invoked again with the same compute function; its outcome
 * and status are forgotten, your fields (the result) are left as they are.
 * Returns 0, or FJ_EBUSY while it is queued or running (nothing changes).
 * The caller must be the only thread using the task (Java says the same). */
int fj_task_reinitialize(fj_task *task);

/** Java's getForkJoinTaskTag(): the task's tag, a short the program may use
 * for anything (marking visited nodes, phases).  0 after FJ_TASK_INIT,
 * fj_task_init and fj_task_reinitialize; fork, join, completion and
 * cancellation leave it alone.  Any thread.  Ordering: acquire, so what a
 * thread wrote before it set the tag is visible to one that reads the tag. */
short fj_task_get_tag(const fj_task *task);

/** Java's setForkJoinTaskTag(tag): sets the tag atomically and returns the
 * previous one.  Any thread.  Ordering: full (a read-modify-write). */
short fj_task_set_tag(fj_task *task, short tag);

/** Java's compareAndSetForkJoinTaskTag(expect, tag): sets the tag to `tag`
 * only if it is `expect`, atomically.  Returns 1 if it was set, else 0.  Any
 * thread.  Ordering: full. */
int fj_task_compare_and_set_tag(fj_task *task, short expect, short tag);

/** Java's getSurplusQueuedTaskCount(): how many more tasks this worker has
 * queued than the other workers are likely to steal soon, the granularity
 * heuristic `if (fj_get_surplus_queued_task_count() > 3) compute directly`.
 * Java's estimate: the tasks in this worker's deque minus a reserve for idle
 * thieves (0 when more than half the workers are active, then 1, 2, 4, 8 as
 * fewer are), never below 0.  0 on an empty deque and off a worker.  A racy
 * snapshot; any thread. */
int fj_get_surplus_queued_task_count(void);

/** Java's ForkJoinTask.getQueuedTaskCount(): tasks forked by this worker and
 * not yet taken (its deque), 0 off a worker.  Racy snapshot. */
int fj_get_queued_task_count(void);

/** Java's helpQuiesce(): on a worker, runs queued tasks of its pool (its own,
 * then submissions, then stolen ones, and last the unsynced typed spawns of
 * the tasks it is running, whose syncs then find them done) until the pool
 * is quiescent: nothing
 * queued and every other worker idle or itself in fj_help_quiesce.  Off a
 * worker, waits for the common pool to be quiescent (as Java does).
 * Ordering: the writes of every task that completed before it returns are
 * visible to the caller (each completion is a release, the quiescence test
 * acquires). */
void fj_help_quiesce(void);

/** Java's inForkJoinPool(): 1 on a worker thread of any pool, else 0. */
int fj_in_pool(void);

/** Java's ForkJoinTask.getPool(): the pool of the worker running this thread,
 * NULL off a worker (same as fj_current_pool). */
fj_pool *fj_get_pool(void);

/* ======================================================================== */
/* ForkJoinPool                                                             */
/* ======================================================================== */

/** new ForkJoinPool(parallelism): 0 means one worker per CPU the calling thread
 * may run on, the count of its affinity mask, as Java's availableProcessors()
 * reads it on Linux (Java's no-argument constructor; Java also reads a
 * container's CPU quota, fj does not).  Returns as fj_pool_create.  Any thread. */
int fj_pool_create_with_parallelism(fj_pool **pool, unsigned parallelism);

/** new ForkJoinPool(parallelism, factory, handler, asyncMode), with the
 * default factory and no handler: `async_mode` 1 gives each worker "local
 * first-in-first-out scheduling for forked tasks that are never joined"
 * (Java's words): outside a join, a worker runs its own oldest queued task
 * first, and fj_peek_next_local_task / fj_poll_next_local_task / fj_poll_task
 * look at that one.  A join still takes its unstarted child back at once, and
 * typed tasks (FJ_SPAWN) keep their LIFO order.  0 is
 * fj_pool_create_with_parallelism.  Returns as fj_pool_create, or FJ_EINVAL
 * for an async_mode other than 0 or 1 ("async_mode=2: expected 0 or 1" in
 * fj_last_error_detail).  Any thread. */
int fj_pool_create_with_async_mode(fj_pool **pool, unsigned parallelism, int async_mode);
/** Java's getAsyncMode(): 1 for a pool created with async_mode 1, else 0
 * (the common pool, fj_pool_create's pools, NULL). */
int fj_pool_get_async_mode(const fj_pool *pool);

/** ForkJoinPool.commonPool() is fj_common_pool(); getCommonPoolParallelism(): */
unsigned fj_common_pool_parallelism(void);

/* Java's invoke(task) and submit(task) are fj_pool_invoke and fj_pool_submit.
 * submit returns 0 and the task itself is what you wait on (fj_task_get). */

/** Java's execute(task): submits and returns at once; nobody needs to wait.
 * The task stays the caller's: it must stay valid until it completed (check
 * fj_task_is_done, or fj_pool_await_quiescence, then free it).  Returns 0,
 * FJ_ESHUTDOWN, FJ_ENOMEM, FJ_EBUSY (already queued), FJ_EINVAL (NULL pool or
 * task, or a task with no fn).  Any thread. */
int fj_pool_execute(fj_pool *pool, fj_task *task);

/** Java's shutdownNow(): shuts down (as fj_pool_shutdown), then cancels every
 * task queued at the time of the call, in the injector and in the workers'
 * deques: none of them runs, their joins and gets return FJ_ECANCELED.  Tasks
 * already running finish.  Returns the number of tasks cancelled (>= 0), or
 * FJ_EINVAL.  On the common pool it does nothing and returns 0 (as in Java).
 * Any thread. */
int fj_pool_shutdown_now(fj_pool *pool);

/** @{ */
/** ExecutorService's invokeAll(tasks) on a ForkJoinPool: submits every task,
 * then waits until each completed.  A Callable is a task struct whose compute
 * writes its result; the task is its own Future (fj_task_get, the result
 * field).  Returns 0 once all completed, whatever their outcomes (read each
 * with fj_task_get / fj_task_outcome, as Java's futures); FJ_EINVAL for a NULL
 * pool, a NULL array (Java's null collection; an empty one is a non-NULL
 * array with count 0) or a NULL element or one with no fn (nothing is
 * submitted; fj_last_error_detail names it);
 * a submission error (those submitted are cancelled and waited for).
 * The _timed form stops waiting after `timeout_ns` (see FJ_NO_TIMEOUT):
 * the tasks not complete then are cancelled, and waited for until no thread
 * runs them (they may live in the caller's frame), and it still returns 0.
 * Any thread; on a worker of `pool` it helps while it waits. */
int fj_pool_invoke_all(fj_pool *pool, fj_task *const *tasks, size_t count);
int fj_pool_invoke_all_timed(fj_pool *pool, fj_task *const *tasks, size_t count, long long timeout_ns);
/** @} */

/** ExecutorService's invokeAny(tasks[, timeout]): submits every task and
 * returns the index (>= 0) of one that completed normally; the others are
 * cancelled and waited for.  If every task failed, the last error seen (Java's
 * ExecutionException); FJ_ETIMEDOUT when none succeeded in time (all are then
 * cancelled and waited for); FJ_EINVAL for count 0 (Java's
 * IllegalArgumentException), a NULL pool, array or element, an element with
 * no fn (nothing is submitted); a submission error.  `timeout_ns`: FJ_NO_TIMEOUT for none. */
int fj_pool_invoke_any(fj_pool *pool, fj_task *const *tasks, size_t count, long long timeout_ns);

/** Java's awaitTermination(timeout): waits until the pool was shut down, every
 * accepted submission completed and nothing is queued or running, at most
 * `timeout_ns` (FJ_NO_TIMEOUT: no limit; <= 0: checks once).  Returns 0 when terminated, FJ_ETIMEDOUT.  On
 * the common pool (never terminated) it is fj_pool_await_quiescence, as in
 * Java.  Not from a worker of `pool` (FJ_EDEADLK).  Ordering: every completed
 * task's writes happen-before the return of 0. */
int fj_pool_await_termination(fj_pool *pool, long long timeout_ns);

/** Java's awaitQuiescence(timeout): returns 0 once nothing is queued in the
 * pool and no worker is running a task (all parked), FJ_ETIMEDOUT if that did
 * not happen within `timeout_ns` (FJ_NO_TIMEOUT: no limit; <= 0: checks once).  From a worker of `pool` it
 * helps as fj_help_quiesce does, then returns 0.  Work submitted while it waits
 * delays it.  Ordering: as fj_pool_await_termination. */
int fj_pool_await_quiescence(fj_pool *pool, long long timeout_ns);

/** @{ */
/** Java's isQuiescent(), isShutdown(), isTerminated(): 1 or 0, racy snapshots.
 * Quiescent: nothing queued, every worker parked.  Shutdown: no longer
 * accepting submissions.  Terminated: shutdown, every accepted submission
 * complete, and quiescent; never true of the common pool (Java: the common
 * pool is never terminated; fj_pool_shutdown_now leaves it alone). */
int fj_pool_is_quiescent(const fj_pool *pool);
int fj_pool_is_shutdown(const fj_pool *pool);
int fj_pool_is_terminated(const fj_pool *pool);
/** @} */

/** Java's getParallelism(): the number of workers the pool was created with. */
unsigned fj_pool_get_parallelism(const fj_pool *pool);
/** Java's getPoolSize(): worker threads alive, spares started by
 * fj_managed_block included; 0 once the pool terminated (Java's workers exit
 * then; ours stay parked until fj_pool_destroy, and never run a task again). */
unsigned fj_pool_get_pool_size(const fj_pool *pool);
/** Java's getActiveThreadCount(): threads not parked in the scheduler loop
 * (running, searching, joining or blocked).  An estimate. */
unsigned fj_pool_get_active_thread_count(const fj_pool *pool);
/** Java's getRunningThreadCount(): active threads not parked in a join and not
 * blocked in fj_managed_block.  An estimate. */
unsigned fj_pool_get_running_thread_count(const fj_pool *pool);
/** Java's getQueuedTaskCount(): tasks queued in the workers' deques. */
long fj_pool_get_queued_task_count(const fj_pool *pool);
/** @{ */
/** Java's getQueuedSubmissionCount() and hasQueuedSubmissions(): submissions
 * from outside not yet taken by a worker. */
long fj_pool_get_queued_submission_count(const fj_pool *pool);
int fj_pool_has_queued_submissions(const fj_pool *pool);
/** @} */
/** Java's getStealCount(): tasks a worker took from another worker's deque
 * (steals and leapfrogs), exact once the pool is idle. */
unsigned long long fj_pool_get_steal_count(const fj_pool *pool);

/* ======================================================================== */
/* ForkJoinPool.ManagedBlocker                                              */
/* ======================================================================== */

/** A blocking operation the pool is told about (Java's ManagedBlocker).
 * @code{.unparsed}
 *   block:         blocks (reads, locks, waits).  Returns 1 when no more
 *                  blocking is needed (Java: true), 0 to be called again
 *                  (Java: false), or a negative error that ends the wait.
 *   is_releasable: 1 if blocking is unnecessary (the lock is free, the data is
 *                  there), else 0.  May be NULL (never releasable early).
 * @endcode
 * Embed it in your own struct and use FJ_CONTAINER_OF, as with tasks. */
typedef struct fj_managed_blocker fj_managed_blocker;
/** The two callbacks of a managed blocker (see fj_managed_blocker). */
struct fj_managed_blocker {
    int (*block)(fj_managed_blocker *self);          /**< blocks; 1: no more blocking needed, 0: call again, < 0: an error */
    int (*is_releasable)(fj_managed_blocker *self);  /**< 1 if blocking is unnecessary, else 0; may be NULL */
};

/** Java's ForkJoinPool.managedBlock(blocker): runs
 *     while (!is_releasable() && (rc = block()) == 0) {}
 * On a worker, if blocking is needed, the pool keeps its parallelism up until
 * block returns: a parked worker is woken for the caller's queued tasks or,
 * when none is parked, a spare worker thread starts, takes the caller's queued
 * tasks and other work, and stops (after finishing the task it is running)
 * before fj_managed_block returns.  Off a worker it only runs the loop.
 * Returns 0, or block's negative error.  Any thread. */
int fj_managed_block(fj_managed_blocker *blocker);

/* ======================================================================== */
/* CountedCompleter                                                         */
/* ======================================================================== */

/** Java's CountedCompleter: a task that completes when its pending count,
 * decremented by the completion of the subtasks it forked, reaches zero,
 * rather than when its compute returns.  Embed it first in your own struct
 * (FJ_CONTAINER_OF), initialise it with fj_cc_init, and fork, join, invoke,
 * get or submit `task` as any fj_task: a join returns when the completer is
 * complete, with 0 or its error.  docs/porting-from-java.md has the table.
 *
 * Completion follows Java exactly: fj_cc_try_complete of a completer whose
 * pending count is zero calls its on_completion and walks on to its
 * completer; only the root (completer NULL) is marked complete, so join a
 * root, never an inner completer, and run an inner one's compute by calling
 * it, not with fj_invoke.
 *
 * Freeing (heap completers).  The runtime's last access to an inner completer
 * `a` is the read of a->completer just before a's on_completion runs, in the
 * walk that found a's pending count zero; to a root, the publication of its
 * completion.  So an inner completer's on_completion, called by a walk, may
 * free the completer itself (then the `caller` its parent's on_completion
 * receives is only an address to compare; fj_cc_complete marks its completer
 * complete after the hook, so there the hook must not free it), or the subtasks whose completion brought its pending
 * count to zero (they have all finished their walks); a root is freed by the
 * thread whose join or get of it returned; a completer that is also joined
 * is freed by its joiner.  A compute must not touch its completer after a
 * call that may complete it (fj_cc_try_complete and friends, or a fork of a
 * subtask that may).  After an exceptional completion, subtasks may still
 * run and walk up to the completers above them, and a compute that was
 * running when another thread completed its completer exceptionally may
 * still run: free those completers only once the pool is quiescent
 * (fj_pool_await_quiescence) or destroyed.  A completer
 * forked and then completed before its compute ran (fj_cc_complete,
 * fj_cc_quietly_complete_root) stays queued until a worker takes it and skips
 * its compute: free it only after that too. */
typedef struct fj_counted_completer fj_counted_completer;

/** The members of a counted completer.  Set `on_completion` and
 * `on_exceptional_completion` after fj_cc_init if you need them. */
struct fj_counted_completer {
    fj_task task; /**< the task to fork, join or get; first, so that FJ_CONTAINER_OF is free */
    /** the completer to try to complete after this one (Java's getCompleter()), NULL for a root.  The
     * chain must end: one that leads back to a completer makes the walks (fj_cc_try_complete,
     * fj_cc_get_root, ...) follow it for ever, as Java's do. */
    fj_counted_completer *completer;
    /** Java's compute(): 0, or a negative error, which completes this
     * completer exceptionally (fj_cc_complete_exceptionally) as a Java
     * exception from compute does.  A compute that returns an error must not
     * have completed its completer itself.  NULL: Java's empty compute(),
     * for a completer that only counts; run, it does nothing, and it
     * completes when its pending count does. */
    int (*compute)(fj_counted_completer *self);
    /** Java's onCompletion(caller), or NULL: called when this completer's
     * pending count is zero in a try_complete walk (caller: the completer
     * whose walk arrived, self on the first step) or by fj_cc_complete
     * (caller == self), before the completer is marked complete. */
    void (*on_completion)(fj_counted_completer *self, fj_counted_completer *caller);
    /** Java's onExceptionalCompletion(ex, caller), or NULL (as returning 1):
     * called once the completer is failed with `error`
     * (fj_task_is_completed_abnormally is 1) and before it is marked done;
     * returns 1 to complete its completer exceptionally too, 0 to stop. */
    int (*on_exceptional_completion)(fj_counted_completer *self, int error, fj_counted_completer *caller);
    volatile unsigned fj_pending; /**< private: the pending count; use the fj_cc_*_pending_count calls */
};

/** Initialises a completer: NEW task, `completer` as its parent (NULL for a
 * root), pending count `initial_pending` (any int, as in Java), no completion hooks. */
void fj_cc_init(fj_counted_completer *c, fj_counted_completer *completer, int initial_pending,
                int (*compute)(fj_counted_completer *self));

/** The completer that contains `task` (a fj_counted_completer's task). */
#define FJ_COMPLETER_OF(task_ptr) FJ_CONTAINER_OF((task_ptr), fj_counted_completer, task)

/** Java's getPendingCount(): the current pending count. */
int fj_cc_get_pending_count(const fj_counted_completer *c);

/** Java's setPendingCount(count). */
void fj_cc_set_pending_count(fj_counted_completer *c, int count);

/** Java's addToPendingCount(delta): atomically adds `delta`. */
void fj_cc_add_to_pending_count(fj_counted_completer *c, int delta);

/** Java's compareAndSetPendingCount(expected, count): 1 if the count was
 * `expected` and is now `count`, else 0. */
int fj_cc_compare_and_set_pending_count(fj_counted_completer *c, int expected, int count);

/** Java's decrementPendingCountUnlessZero(): decrements the count if it is
 * not zero; returns the count before (0: unchanged). */
int fj_cc_decrement_pending_count_unless_zero(fj_counted_completer *c);

/** Java's tryComplete(): if the pending count is zero, calls on_completion
 * and does the same for the completer, up to the root, which it marks
 * complete; otherwise decrements the count and returns. */
void fj_cc_try_complete(fj_counted_completer *c);

/** Java's propagateCompletion(): fj_cc_try_complete without on_completion. */
void fj_cc_propagate_completion(fj_counted_completer *c);

/** Java's complete(rawResult) (set your result field first): calls
 * on_completion(c, c), marks c complete whatever its pending count, then
 * fj_cc_try_complete of its completer, if any. */
void fj_cc_complete(fj_counted_completer *c);

/** Java's completeExceptionally(ex) on a CountedCompleter: `error` (< 0)
 * completes c, then each completer up the chain while the one below's
 * on_exceptional_completion returns 1 (NULL: 1) and it is not complete yet.
 * Returns 0, or FJ_EINVAL if `error` >= 0 or c is complete already (then
 * nothing changes). */
int fj_cc_complete_exceptionally(fj_counted_completer *c, int error);

/** Java's helpComplete(maxTasks): while c is not complete, runs up to
 * `max_tasks` completers that have c on their completion path (c itself or a
 * completer whose chain of completers leads to c), taken newest first from
 * the top of the calling worker's own deque, where the caller's compute (or
 * what it runs) forked them; stops at the first task there that is not one.
 * Java also takes such tasks from other workers' queues: here thieves and
 * joins do that.  Returns how many ran: 0 if `max_tasks` <= 0, c is complete,
 * or the caller is not a worker of a pool. */
int fj_cc_help_complete(fj_counted_completer *c, int max_tasks);

/** Java's quietlyCompleteRoot(): marks the root of c's chain complete
 * normally, without calling any on_completion. */
void fj_cc_quietly_complete_root(fj_counted_completer *c);

/** Java's getCompleter(): c's completer, NULL for a root. */
fj_counted_completer *fj_cc_get_completer(const fj_counted_completer *c);

/** Java's getRoot(): the last completer up c's chain (c for a root). */
fj_counted_completer *fj_cc_get_root(fj_counted_completer *c);

/** Java's firstComplete(): c if its pending count is zero, else decrements
 * the count and returns NULL. */
fj_counted_completer *fj_cc_first_complete(fj_counted_completer *c);

/** Java's nextComplete(): fj_cc_first_complete of c's completer; for a root,
 * marks c complete normally and returns NULL. */
fj_counted_completer *fj_cc_next_complete(fj_counted_completer *c);

#ifdef __cplusplus
}
#endif

#pragma GCC diagnostic pop
#pragma GCC visibility pop
#endif /* FJ_JAVA_H */
