/* tck_fork_join_pool.c - the JDK's ForkJoinPoolTest (JSR166 TCK), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept.
 * A Runnable or Callable is a task struct whose compute calls the function
 * (docs/porting-from-java.md); the task is its own Future.  The methods
 * whose members have no counterpart are listed, with why, in the guide. */
#include <pthread.h>

#include "tck.h"

static const char TEST_STRING[] = "a test string";
enum { NPE = -1002, ARITHMETIC = -1003 };  /* NullPointerException, ArithmeticException */

/* ---- the tasks ---- */

typedef struct FibTask {
    FJ_RECURSIVE_TASK(int);
    int number;
} FibTask;

static int FibTask_compute(fj_task *t);
#define FIB_TASK(n) {FJ_TASK_INIT(FibTask_compute), 0, (n)}

static int FibTask_compute(fj_task *t)
{
    FibTask *self = FJ_SELF(t, FibTask);
    int n = self->number;
    if (n <= 1) {
        self->result = n;
        return 0;
    }
    FibTask f1 = FIB_TASK(n - 1);
    fj_fork(&f1.task);
    FibTask f2 = FIB_TASK(n - 2);
    int rc = FibTask_compute(&f2.task);
    rc = fj_first_error(rc, fj_join(&f1.task));
    self->result = f2.result + f1.result;
    return rc;
}

/* Callable<String>: StringTask, NPETask, latchAwaitingStringTask. */
typedef struct StringTask {
    FJ_RECURSIVE_TASK(const char *);
    atomic_int *latch;  /* NULL: none to await */
} StringTask;

static int StringTask_call(fj_task *t)
{
    StringTask *self = FJ_SELF(t, StringTask);
    if (self->latch)
        while (!atomic_load(self->latch))
            sched_yield();
    self->result = TEST_STRING;
    return 0;
}
#define STRING_TASK {FJ_TASK_INIT(StringTask_call), NULL, NULL}
#define LATCH_AWAITING_STRING_TASK(latch) {FJ_TASK_INIT(StringTask_call), NULL, (latch)}

static int NPETask_call(fj_task *t)
{
    (void)t;
    return NPE;
}
#define NPE_TASK {FJ_TASK_INIT(NPETask_call), NULL, NULL}

static int ArithmeticTask_call(fj_task *t)
{
    (void)t;
    return ARITHMETIC;
}

/* A Runnable that sets a flag. */
typedef struct FlagRunnable {
    FJ_RECURSIVE_ACTION;
    atomic_int *done;
} FlagRunnable;

static int FlagRunnable_run(fj_task *t)
{
    FlagRunnable *self = FJ_SELF(t, FlagRunnable);
    if (self->done)
        atomic_store(self->done, 1);
    return 0;
}

/* shutdown + awaitTermination of PoolCleaner, without freeing (the caller
 * may query the terminated pool, as Java may after the try block). */
static void poolClose(fj_pool *p)
{
    CHECK_RC(0, fj_pool_shutdown(p));
    CHECK_RC(0, fj_pool_await_termination(p, LONG_DELAY_NS));
}

/* ---- the test methods ---- */

/* Java's first assertion, getFactory() is the default factory, has no
 * counterpart (fj has no thread factories). */
static void testDefaultInitialState(void)
{
    fj_pool *p = singletonPool();
    assertFalse(fj_pool_get_async_mode(p));
    assertEquals(0, fj_pool_get_active_thread_count(p));
    assertEquals(0, fj_pool_get_steal_count(p));
    assertEquals(0, fj_pool_get_queued_task_count(p));
    assertEquals(0, fj_pool_get_queued_submission_count(p));
    assertFalse(fj_pool_has_queued_submissions(p));
    assertFalse(fj_pool_is_shutdown(p));
    assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
    assertFalse(fj_pool_is_terminated(p));
    poolCleaner(p);
}

static void testConstructor1(void)
{
    fj_pool *p = NULL;
    CHECK_RC(FJ_EINVAL, fj_pool_create_with_parallelism(&p, (unsigned)-1));  /* IllegalArgumentException */
}

static void testGetParallelism(void)
{
    fj_pool *p = singletonPool();
    assertEquals(1, fj_pool_get_parallelism(p));
    poolCleaner(p);
}

typedef struct PoolSizeTask {
    FJ_RECURSIVE_ACTION;
    fj_pool *p;
    atomic_int taskStarted, done;
} PoolSizeTask;

static int PoolSizeTask_run(fj_task *t)
{
    PoolSizeTask *self = FJ_SELF(t, PoolSizeTask);
    atomic_store(&self->taskStarted, 1);
    assertEquals(1, fj_pool_get_pool_size(self->p));
    assertEquals(1, fj_pool_get_active_thread_count(self->p));
    while (!atomic_load(&self->done))
        sched_yield();
    return 0;
}

static void testGetPoolSize(void)
{
    fj_pool *p = singletonPool();
    assertEquals(0, fj_pool_get_active_thread_count(p));
    PoolSizeTask task = {FJ_TASK_INIT(PoolSizeTask_run), p, 0, 0};
    CHECK_RC(0, fj_pool_submit(p, &task.task));
    while (!atomic_load(&task.taskStarted))
        sched_yield();
    assertEquals(1, fj_pool_get_pool_size(p));
    assertEquals(1, fj_pool_get_active_thread_count(p));
    atomic_store(&task.done, 1);
    poolClose(p);
    assertEquals(0, fj_pool_get_pool_size(p));
    assertEquals(0, fj_pool_get_active_thread_count(p));
    CHECK_RC(0, fj_pool_destroy(p));
}

static void testAwaitTermination_timesOut(void)
{
    fj_pool *p = singletonPool();
    assertFalse(fj_pool_is_terminated(p));
    /* MIN_VALUE and -1 in NANOSECONDS and MILLISECONDS, and an expired one. */
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, LLONG_MIN));
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, LLONG_MIN));
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, -1));
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, -1000000));
    for (size_t i = 0; i < sizeof expired_timeouts / sizeof *expired_timeouts; i++)
        assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, expired_timeouts[i]));
    long long timeoutNanos = 999999;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, timeoutNanos));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long elapsed = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    assertTrue(elapsed >= timeoutNanos);
    assertFalse(fj_pool_is_terminated(p));
    long long timeoutMillis = 12;  /* JSR166TestCase.timeoutMillis() */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assertEquals(FJ_ETIMEDOUT, fj_pool_await_termination(p, timeoutMillis * 1000000));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    elapsed = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    assertTrue(elapsed >= timeoutMillis * 1000000);
    assertFalse(fj_pool_is_terminated(p));
    CHECK_RC(0, fj_pool_shutdown(p));
    assertEquals(0, fj_pool_await_termination(p, LONG_DELAY_NS));
    assertTrue(fj_pool_is_terminated(p));
    poolCleaner(p);
}

static long long nanos_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1000000000LL + (t1.tv_nsec - t0->tv_nsec);
}

static void testIsQuiescent(void)
{
    fj_pool *p = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&p, 2));
    assertTrue(fj_pool_is_quiescent(p));
    struct timespec startTime;
    clock_gettime(CLOCK_MONOTONIC, &startTime);
    FibTask f = FIB_TASK(20);
    CHECK_RC(0, fj_pool_invoke(p, &f.task));
    /* getFactory() is the default factory: no counterpart */
    while (!fj_pool_is_quiescent(p)) {
        if (nanos_since(&startTime) > LONG_DELAY_NS)
            CHECK_FAIL("timed out");
        assertFalse(fj_pool_get_async_mode(p));
        assertFalse(fj_pool_is_shutdown(p));
        assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
        assertFalse(fj_pool_is_terminated(p));
        sched_yield();
    }
    assertTrue(fj_pool_is_quiescent(p));
    assertFalse(fj_pool_get_async_mode(p));
    assertEquals(0, fj_pool_get_queued_task_count(p));
    assertEquals(0, fj_pool_get_queued_submission_count(p));
    assertFalse(fj_pool_has_queued_submissions(p));
    while (fj_pool_get_active_thread_count(p) != 0 && nanos_since(&startTime) < LONG_DELAY_NS)
        sched_yield();
    assertFalse(fj_pool_is_shutdown(p));
    assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));
    assertFalse(fj_pool_is_terminated(p));
    assertTrue(fj_task_is_done(&f.task));
    int v = 0;
    CHECK_RC(0, FJ_GET_RESULT(&f, &v));
    assertEquals(6765, v);
    assertTrue(nanos_since(&startTime) < LONG_DELAY_NS);
    poolCleaner(p);
}

static void testSubmitForkJoinTask(void)
{
    fj_pool *p = singletonPool();
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_pool_submit(p, &f.task));
    int v = 0;
    CHECK_RC(0, FJ_GET_RESULT(&f, &v));
    assertEquals(21, v);
    poolCleaner(p);
}

static void testSubmitAfterShutdown(void)
{
    fj_pool *p = singletonPool();
    CHECK_RC(0, fj_pool_shutdown(p));
    assertTrue(fj_pool_is_shutdown(p));
    FibTask f = FIB_TASK(8);
    CHECK_RC(FJ_ESHUTDOWN, fj_pool_submit(p, &f.task));  /* RejectedExecutionException */
    poolCleaner(p);
}

/* ManagedLocker and LockingFibTask: the Java test calls locker.block()
 * directly (not through managedBlock), so it is a plain lock. */
typedef struct ManagedLocker {
    fj_managed_blocker blocker;
    pthread_mutex_t *lock;
    int hasLock;
} ManagedLocker;

static int ManagedLocker_block(fj_managed_blocker *b)
{
    ManagedLocker *self = FJ_CONTAINER_OF(b, ManagedLocker, blocker);
    if (!self->hasLock)
        pthread_mutex_lock(self->lock);
    return 1;
}

typedef struct LockingFibTask {
    FJ_RECURSIVE_TASK(int);
    int number;
    ManagedLocker *locker;
    pthread_mutex_t *lock;
} LockingFibTask;

static int LockingFibTask_compute(fj_task *t)
{
    LockingFibTask *self = FJ_SELF(t, LockingFibTask);
    self->locker->blocker.block(&self->locker->blocker);
    int n = self->number;
    pthread_mutex_unlock(self->lock);
    if (n <= 1) {
        self->result = n;
        return 0;
    }
    LockingFibTask f1 = {FJ_TASK_INIT(LockingFibTask_compute), 0, n - 1, self->locker, self->lock};
    LockingFibTask f2 = {FJ_TASK_INIT(LockingFibTask_compute), 0, n - 2, self->locker, self->lock};
    fj_fork(&f1.task);
    int rc = LockingFibTask_compute(&f2.task);
    rc = fj_first_error(rc, fj_join(&f1.task));
    self->result = f2.result + f1.result;
    return rc;
}

static void testBlockingForkJoinTask(void)
{
    fj_pool *p = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&p, 4));
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    ManagedLocker locker = {{ManagedLocker_block, NULL}, &lock, 0};
    LockingFibTask f = {FJ_TASK_INIT(LockingFibTask_compute), 0, 20, &locker, &lock};
    CHECK_RC(0, fj_pool_execute(p, &f.task));
    int v = 0;
    CHECK_RC(0, FJ_GET_RESULT(&f, &v));
    assertEquals(6765, v);
    assertTrue(fj_pool_shutdown_now(p) >= 0);
    CHECK_RC(0, fj_pool_destroy(p));
}

static void testExecuteRunnable(void)
{
    fj_pool *e = singletonPool();
    atomic_int done = 0;
    FlagRunnable r = {FJ_TASK_INIT(FlagRunnable_run), &done};
    CHECK_RC(0, fj_pool_submit(e, &r.task));
    CHECK_RC(0, fj_task_get(&r.task));
    for (size_t i = 0; i < sizeof expired_timeouts / sizeof *expired_timeouts; i++)
        CHECK_RC(0, fj_task_get_timed(&r.task, expired_timeouts[i]));
    assertTrue(atomic_load(&done));
    assertTrue(fj_task_is_done(&r.task));
    assertFalse(fj_task_is_cancelled(&r.task));
    poolCleaner(e);
}

static void testSubmitCallable(void)
{
    fj_pool *e = singletonPool();
    StringTask future = STRING_TASK;
    CHECK_RC(0, fj_pool_submit(e, &future.task));
    const char *s = NULL;
    CHECK_RC(0, FJ_GET_RESULT(&future, &s));
    assertSame(TEST_STRING, s);
    assertTrue(fj_task_is_done(&future.task));
    assertFalse(fj_task_is_cancelled(&future.task));
    poolCleaner(e);
}

static void testSubmitRunnable(void)
{
    fj_pool *e = singletonPool();
    FlagRunnable r = {FJ_TASK_INIT(FlagRunnable_run), NULL};  /* NoOpRunnable */
    CHECK_RC(0, fj_pool_submit(e, &r.task));
    CHECK_RC(0, fj_task_get(&r.task));
    assertTrue(fj_task_is_done(&r.task));
    assertFalse(fj_task_is_cancelled(&r.task));
    poolCleaner(e);
}

/* submit(runnable, result): a no-op whose future's result is given. */
static int NoOpWithResult_run(fj_task *t)
{
    StringTask *self = FJ_SELF(t, StringTask);
    self->result = TEST_STRING;
    return 0;
}

static void testSubmitRunnable2(void)
{
    fj_pool *e = singletonPool();
    StringTask future = {FJ_TASK_INIT(NoOpWithResult_run), NULL, NULL};
    CHECK_RC(0, fj_pool_submit(e, &future.task));
    const char *s = NULL;
    CHECK_RC(0, FJ_GET_RESULT(&future, &s));
    assertSame(TEST_STRING, s);
    assertTrue(fj_task_is_done(&future.task));
    assertFalse(fj_task_is_cancelled(&future.task));
    poolCleaner(e);
}

static void testExecuteNullRunnable(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_submit(e, NULL));  /* NullPointerException */
    poolCleaner(e);
}

static void testSubmitNullCallable(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_submit(e, NULL));
    poolCleaner(e);
}

static void testSubmitEE(void)
{
    fj_pool *p = singletonPool();
    StringTask c = {FJ_TASK_INIT(ArithmeticTask_call), NULL, NULL};
    CHECK_RC(0, fj_pool_submit(p, &c.task));
    CHECK_RC(ARITHMETIC, fj_task_get(&c.task));  /* ExecutionException, cause ArithmeticException */
    poolCleaner(p);
}

static void testInvokeUncheckedException(void)
{
    fj_pool *p = singletonPool();
    StringTask c = {FJ_TASK_INIT(ArithmeticTask_call), NULL, NULL};  /* ForkJoinTask.adapt(callable) */
    CHECK_RC(ARITHMETIC, fj_pool_invoke(p, &c.task));
    poolCleaner(p);
}

static void testInvokeAny1(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, NULL, 0, FJ_NO_TIMEOUT));  /* NullPointerException */
    poolCleaner(e);
}

static void testInvokeAny2(void)
{
    fj_pool *e = singletonPool();
    fj_task *none[1];
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, none, 0, FJ_NO_TIMEOUT));  /* IllegalArgumentException */
    poolCleaner(e);
}

static void testInvokeAny3(void)
{
    fj_pool *e = singletonPool();
    fj_task *l[] = {NULL};
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, l, 1, FJ_NO_TIMEOUT));
    poolCleaner(e);
}

static void testInvokeAny4(void)
{
    atomic_int latch = 0;
    fj_pool *e = singletonPool();
    StringTask s = LATCH_AWAITING_STRING_TASK(&latch);
    fj_task *l[] = {&s.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, l, 2, FJ_NO_TIMEOUT));
    atomic_store(&latch, 1);
    poolCleaner(e);
}

static void testInvokeAny5(void)
{
    fj_pool *e = singletonPool();
    StringTask n = NPE_TASK;
    fj_task *l[] = {&n.task};
    CHECK_RC(NPE, fj_pool_invoke_any(e, l, 1, FJ_NO_TIMEOUT));  /* ExecutionException, cause NPE */
    poolCleaner(e);
}

static void testInvokeAny6(void)
{
    fj_pool *e = singletonPool();
    StringTask a = STRING_TASK, b = STRING_TASK;
    StringTask *tasks[] = {&a, &b};
    fj_task *l[] = {&a.task, &b.task};
    int i = fj_pool_invoke_any(e, l, 2, FJ_NO_TIMEOUT);
    assertTrue(i == 0 || i == 1);
    assertSame(TEST_STRING, tasks[i]->result);
    poolCleaner(e);
}

static void testInvokeAll1(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_all(e, NULL, 0));  /* NullPointerException */
    poolCleaner(e);
}

static void testInvokeAll2(void)
{
    fj_pool *e = singletonPool();
    fj_task *emptyCollection[1];
    CHECK_RC(0, fj_pool_invoke_all(e, emptyCollection, 0));  /* an empty list of futures */
    poolCleaner(e);
}

static void testInvokeAll3(void)
{
    fj_pool *e = singletonPool();
    StringTask s = STRING_TASK;
    fj_task *l[] = {&s.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_all(e, l, 2));
    poolCleaner(e);
}

static void testInvokeAll4(void)
{
    fj_pool *e = singletonPool();
    StringTask n = NPE_TASK;
    fj_task *l[] = {&n.task};
    CHECK_RC(0, fj_pool_invoke_all(e, l, 1));
    CHECK_RC(NPE, fj_task_get(l[0]));  /* futures.get(0).get(): ExecutionException, cause NPE */
    poolCleaner(e);
}

static void testInvokeAll5(void)
{
    fj_pool *e = singletonPool();
    StringTask a = STRING_TASK, b = STRING_TASK;
    StringTask *futures[] = {&a, &b};
    fj_task *l[] = {&a.task, &b.task};
    CHECK_RC(0, fj_pool_invoke_all(e, l, 2));
    for (int i = 0; i < 2; i++) {
        const char *s = NULL;
        CHECK_RC(0, FJ_GET_RESULT(futures[i], &s));
        assertSame(TEST_STRING, s);
    }
    poolCleaner(e);
}

static void testTimedInvokeAny1(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, NULL, 0, LONG_DELAY_NS));
    poolCleaner(e);
}

static void testTimedInvokeAny2(void)
{
    fj_pool *e = singletonPool();
    fj_task *none[1];
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, none, 0, LONG_DELAY_NS));
    poolCleaner(e);
}

static void testTimedInvokeAny3(void)
{
    atomic_int latch = 0;
    fj_pool *e = singletonPool();
    StringTask s = LATCH_AWAITING_STRING_TASK(&latch);
    fj_task *l[] = {&s.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_any(e, l, 2, LONG_DELAY_NS));
    atomic_store(&latch, 1);
    poolCleaner(e);
}

static void testTimedInvokeAny4(void)
{
    fj_pool *e = singletonPool();
    struct timespec startTime;
    clock_gettime(CLOCK_MONOTONIC, &startTime);
    StringTask n = NPE_TASK;
    fj_task *l[] = {&n.task};
    CHECK_RC(NPE, fj_pool_invoke_any(e, l, 1, LONG_DELAY_NS));
    assertTrue(nanos_since(&startTime) < LONG_DELAY_NS);
    poolCleaner(e);
}

static void testTimedInvokeAny5(void)
{
    fj_pool *e = singletonPool();
    struct timespec startTime;
    clock_gettime(CLOCK_MONOTONIC, &startTime);
    StringTask a = STRING_TASK, b = STRING_TASK;
    StringTask *tasks[] = {&a, &b};
    fj_task *l[] = {&a.task, &b.task};
    int i = fj_pool_invoke_any(e, l, 2, LONG_DELAY_NS);
    assertTrue(i == 0 || i == 1);
    assertSame(TEST_STRING, tasks[i]->result);
    assertTrue(nanos_since(&startTime) < LONG_DELAY_NS);
    poolCleaner(e);
}

static void testTimedInvokeAll1(void)
{
    fj_pool *e = singletonPool();
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_all_timed(e, NULL, 0, LONG_DELAY_NS));
    poolCleaner(e);
}

static void testTimedInvokeAll2(void)
{
    fj_pool *e = singletonPool();
    fj_task *emptyCollection[1];
    CHECK_RC(0, fj_pool_invoke_all_timed(e, emptyCollection, 0, LONG_DELAY_NS));
    poolCleaner(e);
}

static void testTimedInvokeAll3(void)
{
    fj_pool *e = singletonPool();
    StringTask s = STRING_TASK;
    fj_task *l[] = {&s.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_pool_invoke_all_timed(e, l, 2, LONG_DELAY_NS));
    poolCleaner(e);
}

static void testTimedInvokeAll4(void)
{
    fj_pool *e = singletonPool();
    StringTask n = NPE_TASK;
    fj_task *l[] = {&n.task};
    CHECK_RC(0, fj_pool_invoke_all_timed(e, l, 1, LONG_DELAY_NS));
    CHECK_RC(NPE, fj_task_get(l[0]));
    poolCleaner(e);
}

static void testTimedInvokeAll5(void)
{
    fj_pool *e = singletonPool();
    StringTask a = STRING_TASK, b = STRING_TASK;
    StringTask *futures[] = {&a, &b};
    fj_task *l[] = {&a.task, &b.task};
    CHECK_RC(0, fj_pool_invoke_all_timed(e, l, 2, LONG_DELAY_NS));
    for (int i = 0; i < 2; i++) {
        const char *s = NULL;
        CHECK_RC(0, FJ_GET_RESULT(futures[i], &s));
        assertSame(TEST_STRING, s);
    }
    poolCleaner(e);
}

static const check_case cases[] = {
    {"testDefaultInitialState", testDefaultInitialState, CHECK_ONCE},
    {"testConstructor1", testConstructor1, CHECK_ONCE},
    {"testGetParallelism", testGetParallelism, CHECK_ONCE},
    {"testGetPoolSize", testGetPoolSize, CHECK_ONCE},
    {"testAwaitTermination_timesOut", testAwaitTermination_timesOut, CHECK_ONCE},
    {"testIsQuiescent", testIsQuiescent, CHECK_ONCE},
    {"testSubmitForkJoinTask", testSubmitForkJoinTask, CHECK_ONCE},
    {"testSubmitAfterShutdown", testSubmitAfterShutdown, CHECK_ONCE},
    {"testBlockingForkJoinTask", testBlockingForkJoinTask, CHECK_ONCE},
    {"testExecuteRunnable", testExecuteRunnable, CHECK_ONCE},
    {"testSubmitCallable", testSubmitCallable, CHECK_ONCE},
    {"testSubmitRunnable", testSubmitRunnable, CHECK_ONCE},
    {"testSubmitRunnable2", testSubmitRunnable2, CHECK_ONCE},
    {"testExecuteNullRunnable", testExecuteNullRunnable, CHECK_ONCE},
    {"testSubmitNullCallable", testSubmitNullCallable, CHECK_ONCE},
    {"testSubmitEE", testSubmitEE, CHECK_ONCE},
    {"testInvokeUncheckedException", testInvokeUncheckedException, CHECK_ONCE},
    {"testInvokeAny1", testInvokeAny1, CHECK_ONCE},
    {"testInvokeAny2", testInvokeAny2, CHECK_ONCE},
    {"testInvokeAny3", testInvokeAny3, CHECK_ONCE},
    {"testInvokeAny4", testInvokeAny4, CHECK_ONCE},
    {"testInvokeAny5", testInvokeAny5, CHECK_ONCE},
    {"testInvokeAny6", testInvokeAny6, CHECK_ONCE},
    {"testInvokeAll1", testInvokeAll1, CHECK_ONCE},
    {"testInvokeAll2", testInvokeAll2, CHECK_ONCE},
    {"testInvokeAll3", testInvokeAll3, CHECK_ONCE},
    {"testInvokeAll4", testInvokeAll4, CHECK_ONCE},
    {"testInvokeAll5", testInvokeAll5, CHECK_ONCE},
    {"testTimedInvokeAny1", testTimedInvokeAny1, CHECK_ONCE},
    {"testTimedInvokeAny2", testTimedInvokeAny2, CHECK_ONCE},
    {"testTimedInvokeAny3", testTimedInvokeAny3, CHECK_ONCE},
    {"testTimedInvokeAny4", testTimedInvokeAny4, CHECK_ONCE},
    {"testTimedInvokeAny5", testTimedInvokeAny5, CHECK_ONCE},
    {"testTimedInvokeAll1", testTimedInvokeAll1, CHECK_ONCE},
    {"testTimedInvokeAll2", testTimedInvokeAll2, CHECK_ONCE},
    {"testTimedInvokeAll3", testTimedInvokeAll3, CHECK_ONCE},
    {"testTimedInvokeAll4", testTimedInvokeAll4, CHECK_ONCE},
    {"testTimedInvokeAll5", testTimedInvokeAll5, CHECK_ONCE},
};
CHECK_MAIN(cases)
