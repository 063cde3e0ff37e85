/* tck_task_common.h - the tasks and checks of the JDK's RecursiveTaskTest,
 * ported: FibTask, FailingFibTask, the CheckedRecursiveTask a test runs on a
 * pool, and checkNotDone / checkCompletedNormally / checkCancelled /
 * checkCompletedAbnormally with their assertions kept (see tck.h for the two
 * kinds that have no C counterpart). */
#ifndef FJ_TCK_TASK_COMMON_H
#define FJ_TCK_TASK_COMMON_H

#include "tck.h"

/* Any task declared with FJ_RECURSIVE_TASK(int) first, seen through the checks. */
typedef struct int_task {
    FJ_RECURSIVE_TASK(int);
} int_task;
#define AS_INT_TASK(p) ((int_task *)(void *)(p))

/* Java's NoResult (an Integer nobody computes) and the null raw result of a
 * task that has not produced one: the result field's initial value. */
enum { NoResult = -17, NO_RAW_RESULT = 0 };

/* ---- FibTask and FailingFibTask ---- */

typedef struct FibTask {
    FJ_RECURSIVE_TASK(int);
    int number;
} FibTask;

static int FibTask_compute(fj_task *t);
#define FIB_TASK(n) {FJ_TASK_INIT(FibTask_compute), NO_RAW_RESULT, (n)}

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
    int rc = FibTask_compute(&f2.task);  /* Java: new FibTask(n - 2).compute() */
    int r1 = 0;
    rc = fj_first_error(rc, FJ_JOIN_RESULT(&f1, &r1));
    self->result = f2.result + r1;
    return rc;
}

typedef struct FailingFibTask {
    FJ_RECURSIVE_TASK(int);
    int number;
} FailingFibTask;

static int FailingFibTask_compute(fj_task *t);
#define FAILING_FIB_TASK(n) {FJ_TASK_INIT(FailingFibTask_compute), NO_RAW_RESULT, (n)}

static int FailingFibTask_compute(fj_task *t)
{
    FailingFibTask *self = FJ_SELF(t, FailingFibTask);
    int n = self->number;
    if (n <= 1)
        return FJ_EXCEPTION;  /* throw new FJException() */
    FailingFibTask f1 = FAILING_FIB_TASK(n - 1);
    fj_fork(&f1.task);
    FibTask f2 = FIB_TASK(n - 2);
    int rc = FibTask_compute(&f2.task);
    int r1 = 0;
    rc = fj_first_error(rc, FJ_JOIN_RESULT(&f1, &r1));
    if (rc != 0)
        return rc;  /* thrown: compute() returns no value */
    self->result = f2.result + r1;
    return 0;
}

/* ---- the checks ---- */

static inline void checkNotDone(int_task *a)
{
    assertFalse(fj_task_is_done(&a->task));
    assertFalse(fj_task_is_completed_normally(&a->task));
    assertFalse(fj_task_is_completed_abnormally(&a->task));
    assertFalse(fj_task_is_cancelled(&a->task));
    assertEquals(1, fj_task_outcome(&a->task));  /* getException() is null */
    assertEquals(NO_RAW_RESULT, a->result);      /* getRawResult() is null */
    /* The interrupted get() and get(timeout) of a thread outside the pool:
     * C threads have no interrupt status (docs/porting-from-java.md). */
    for (size_t i = 0; i < sizeof expired_timeouts / sizeof *expired_timeouts; i++)
        CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(&a->task, expired_timeouts[i]));
}

static inline void checkCompletedNormally(int_task *a, int expectedValue)
{
    assertTrue(fj_task_is_done(&a->task));
    assertFalse(fj_task_is_cancelled(&a->task));
    assertTrue(fj_task_is_completed_normally(&a->task));
    assertFalse(fj_task_is_completed_abnormally(&a->task));
    assertEquals(0, fj_task_outcome(&a->task));
    assertEquals(expectedValue, a->result);
    int joined = NoResult - 1;
    CHECK_RC(0, FJ_JOIN_RESULT(a, &joined));
    assertEquals(expectedValue, joined);
    assertFalse(CANCEL_IS_TRUE(&a->task));
    assertFalse(CANCEL_IS_TRUE(&a->task));
    int v1 = NoResult - 1, v2 = NoResult - 1;
    CHECK_RC(0, FJ_GET_RESULT(a, &v1));
    CHECK_RC(0, FJ_GET_RESULT_TIMED(a, LONG_DELAY_NS, &v2));
    assertEquals(expectedValue, v1);
    assertEquals(expectedValue, v2);
}

/* Waits for the task, then checks it as above. */
static inline void checkCompletesNormally(int_task *a, int expectedValue)
{
    int r = NoResult - 1;
    CHECK_RC(0, FJ_JOIN_RESULT(a, &r));
    assertEquals(expectedValue, r);
    checkCompletedNormally(a, r);
}

static inline void checkCancelled(int_task *a)
{
    assertTrue(fj_task_is_done(&a->task));
    assertTrue(fj_task_is_cancelled(&a->task));
    assertFalse(fj_task_is_completed_normally(&a->task));
    assertTrue(fj_task_is_completed_abnormally(&a->task));
    assertEquals(FJ_ECANCELED, fj_task_outcome(&a->task));  /* CancellationException */
    assertEquals(NO_RAW_RESULT, a->result);
    CHECK_RC(FJ_ECANCELED, fj_join(&a->task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&a->task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&a->task, LONG_DELAY_NS));
}

static inline void checkCompletedAbnormally(int_task *a, int error)
{
    assertTrue(fj_task_is_done(&a->task));
    assertFalse(fj_task_is_cancelled(&a->task));
    assertFalse(fj_task_is_completed_normally(&a->task));
    assertTrue(fj_task_is_completed_abnormally(&a->task));
    assertEquals(error, fj_task_outcome(&a->task));  /* getException()'s class */
    assertEquals(NO_RAW_RESULT, a->result);
    assertFalse(CANCEL_IS_TRUE(&a->task));
    assertFalse(CANCEL_IS_TRUE(&a->task));
    CHECK_RC(error, fj_join(&a->task));
    CHECK_RC(error, fj_task_get(&a->task));  /* ExecutionException's cause */
    CHECK_RC(error, fj_task_get_timed(&a->task, LONG_DELAY_NS));
}

/* ---- the CheckedRecursiveTask<Integer> each test runs ---- */

typedef struct CheckedRecursiveTask {
    FJ_RECURSIVE_TASK(int);
    int (*realCompute)(void);
} CheckedRecursiveTask;

static int CheckedRecursiveTask_compute(fj_task *t)
{
    CheckedRecursiveTask *self = FJ_SELF(t, CheckedRecursiveTask);
    self->result = self->realCompute();
    return 0;
}
#define CHECKED_RECURSIVE_TASK(fn) {FJ_TASK_INIT(CheckedRecursiveTask_compute), NO_RAW_RESULT, (fn)}

/* testInvokeOnPool(pool, a): runs a as the pool's root and checks it before
 * and after; frees the pool (PoolCleaner).  Returns a's result. */
static inline int testInvokeOnPool(fj_pool *pool, CheckedRecursiveTask *a)
{
    checkNotDone(AS_INT_TASK(a));
    int result = NoResult - 1;
    CHECK_RC(0, fj_pool_invoke(pool, &a->task));
    result = a->result;
    checkCompletedNormally(AS_INT_TASK(a), result);
    poolCleaner(pool);
    return result;
}

#endif
