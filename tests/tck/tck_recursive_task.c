/* tck_recursive_task.c - the JDK's RecursiveTaskTest (JSR166 TCK), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept. */
#include "tck_task_common.h"

static int testInvoke_body(void)
{
    FibTask f = FIB_TASK(8);
    int r = NoResult - 1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&f, &r));
    assertEquals(21, r);
    checkCompletedNormally(AS_INT_TASK(&f), r);
    return r;
}
static void testInvoke(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvoke_body);
    assertEquals(21, testInvokeOnPool(mainPool(), &a));
}

static int testQuietlyInvoke_body(void)
{
    FibTask f = FIB_TASK(8);
    fj_task_quietly_invoke(&f.task);
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    return NoResult;
}
static void testQuietlyInvoke(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testQuietlyInvoke_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testForkJoin_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int r = NoResult - 1;
    CHECK_RC(0, FJ_JOIN_RESULT(&f, &r));
    assertEquals(21, r);
    checkCompletedNormally(AS_INT_TASK(&f), r);
    return r;
}
static void testForkJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testForkJoin_body);
    assertEquals(21, testInvokeOnPool(mainPool(), &a));
}

static int testForkGet_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int r = NoResult - 1;
    CHECK_RC(0, FJ_GET_RESULT(&f, &r));
    assertEquals(21, r);
    checkCompletedNormally(AS_INT_TASK(&f), r);
    return r;
}
static void testForkGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testForkGet_body);
    assertEquals(21, testInvokeOnPool(mainPool(), &a));
}

static int testForkTimedGet_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int r = NoResult - 1;
    CHECK_RC(0, FJ_GET_RESULT_TIMED(&f, LONG_DELAY_NS, &r));
    assertEquals(21, r);
    checkCompletedNormally(AS_INT_TASK(&f), r);
    return r;
}
static void testForkTimedGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testForkTimedGet_body);
    assertEquals(21, testInvokeOnPool(mainPool(), &a));
}

static int testForkQuietlyJoin_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    int r = f.result;
    assertEquals(21, r);
    checkCompletedNormally(AS_INT_TASK(&f), r);
    return r;
}
static void testForkQuietlyJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testForkQuietlyJoin_body);
    assertEquals(21, testInvokeOnPool(mainPool(), &a));
}

static int testForkHelpQuiesce_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_help_quiesce();
    while (!fj_task_is_done(&f.task))  /* wait out race */
        ;
    assertEquals(0, fj_get_queued_task_count());
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    return NoResult;
}
static void testForkHelpQuiesce(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testForkHelpQuiesce_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalInvoke_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);  /* shouldThrow otherwise */
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testAbnormalInvoke(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalInvoke_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalQuietlyInvoke_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    fj_task_quietly_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(AS_INT_TASK(&f), fj_task_outcome(&f.task));
    return NoResult;
}
static void testAbnormalQuietlyInvoke(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalQuietlyInvoke_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalForkJoin_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_join(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testAbnormalForkJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalForkJoin_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalForkGet_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testAbnormalForkGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalForkGet_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalForkTimedGet_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get_timed(&f.task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testAbnormalForkTimedGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalForkTimedGet_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalForkQuietlyJoin_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(AS_INT_TASK(&f), fj_task_outcome(&f.task));
    return NoResult;
}
static void testAbnormalForkQuietlyJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalForkQuietlyJoin_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCancelledInvoke_body(void)
{
    FibTask f = FIB_TASK(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f.task));
    checkCancelled(AS_INT_TASK(&f));
    return NoResult;
}
static void testCancelledInvoke(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCancelledInvoke_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCancelledForkJoin_body(void)
{
    FibTask f = FIB_TASK(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f.task));
    checkCancelled(AS_INT_TASK(&f));
    return NoResult;
}
static void testCancelledForkJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCancelledForkJoin_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCancelledForkGet_body(void)
{
    FibTask f = FIB_TASK(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f.task));
    checkCancelled(AS_INT_TASK(&f));
    return NoResult;
}
static void testCancelledForkGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCancelledForkGet_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCancelledForkTimedGet_body(void)
{
    FibTask f = FIB_TASK(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f.task, LONG_DELAY_NS));
    checkCancelled(AS_INT_TASK(&f));
    return NoResult;
}
static void testCancelledForkTimedGet(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCancelledForkTimedGet_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCancelledForkQuietlyJoin_body(void)
{
    FibTask f = FIB_TASK(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    checkCancelled(AS_INT_TASK(&f));
    return NoResult;
}
static void testCancelledForkQuietlyJoin(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCancelledForkQuietlyJoin_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static fj_pool *testGetPool_pool;
static int testGetPool_body(void)
{
    assertSame(testGetPool_pool, fj_get_pool());
    return NoResult;
}
static void testGetPool(void)
{
    testGetPool_pool = mainPool();
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testGetPool_body);
    assertEquals(NoResult, testInvokeOnPool(testGetPool_pool, &a));
}

static int testGetPool2_body(void)
{
    assertNull(fj_get_pool());
    return NoResult;
}
static void testGetPool2(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testGetPool2_body);
    int r = NoResult - 1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&a, &r));
    assertEquals(NoResult, r);
}

static int testInForkJoinPool_body(void)
{
    assertTrue(fj_in_pool());
    return NoResult;
}
static void testInForkJoinPool(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInForkJoinPool_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testInForkJoinPool2_body(void)
{
    assertFalse(fj_in_pool());
    return NoResult;
}
static void testInForkJoinPool2(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInForkJoinPool2_body);
    int r = NoResult - 1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&a, &r));
    assertEquals(NoResult, r);
}

/* setRawResult / getRawResult are the result field. */
static CheckedRecursiveTask *testSetRawResult_self;
static int testSetRawResult_body(void)
{
    testSetRawResult_self->result = NoResult;
    assertEquals(NoResult, testSetRawResult_self->result);
    return NoResult;
}
static void testSetRawResult(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testSetRawResult_body);
    testSetRawResult_self = &a;
    int r = NoResult - 1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&a, &r));
    assertEquals(NoResult, r);
}

static int testReinitialize_body(void)
{
    FibTask f = FIB_TASK(8);
    checkNotDone(AS_INT_TASK(&f));
    for (int i = 0; i < 3; i++) {
        int r = NoResult - 1;
        CHECK_RC(0, FJ_INVOKE_RESULT(&f, &r));
        assertEquals(21, r);
        checkCompletedNormally(AS_INT_TASK(&f), r);
        CHECK_RC(0, fj_task_reinitialize(&f.task));
        f.result = NO_RAW_RESULT;  /* publicSetRawResult(null) */
        checkNotDone(AS_INT_TASK(&f));
    }
    return NoResult;
}
static void testReinitialize(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testReinitialize_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testReinitializeAbnormal_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    checkNotDone(AS_INT_TASK(&f));
    for (int i = 0; i < 3; i++) {
        int rc = fj_invoke(&f.task);
        assertEquals(FJ_EXCEPTION, rc);
        checkCompletedAbnormally(AS_INT_TASK(&f), rc);
        CHECK_RC(0, fj_task_reinitialize(&f.task));
        checkNotDone(AS_INT_TASK(&f));
    }
    return NoResult;
}
static void testReinitializeAbnormal(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testReinitializeAbnormal_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testCompleteExceptionally_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_task_complete_exceptionally(&f.task, FJ_EXCEPTION));
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testCompleteExceptionally(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testCompleteExceptionally_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testComplete_body(void)
{
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, FJ_TASK_COMPLETE(&f, NoResult));
    int r = NoResult - 1;
    CHECK_RC(0, FJ_INVOKE_RESULT(&f, &r));
    assertEquals(NoResult, r);
    checkCompletedNormally(AS_INT_TASK(&f), NoResult);
    return r;
}
static void testComplete(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testComplete_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testInvokeAll2_body(void)
{
    FibTask f = FIB_TASK(8), g = FIB_TASK(9);
    CHECK_RC(0, fj_invoke_all2(&f.task, &g.task));
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testInvokeAll2(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvokeAll2_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testInvokeAll1_body(void)
{
    FibTask f = FIB_TASK(8);
    fj_task *tasks[] = {&f.task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    return NoResult;
}
static void testInvokeAll1(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvokeAll1_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testInvokeAll3_body(void)
{
    FibTask f = FIB_TASK(8), g = FIB_TASK(9), h = FIB_TASK(7);
    fj_task *tasks[] = {&f.task, &g.task, &h.task};
    CHECK_RC(0, fj_invoke_all(tasks, 3));
    assertTrue(fj_task_is_done(&f.task));
    assertTrue(fj_task_is_done(&g.task));
    assertTrue(fj_task_is_done(&h.task));
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    checkCompletedNormally(AS_INT_TASK(&h), 13);
    return NoResult;
}
static void testInvokeAll3(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvokeAll3_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

/* invokeAll(collection): the collection is an array in C (a HashSet's order
 * is unspecified in Java, so any order is the same test). */
static int testInvokeAllCollection_body(void)
{
    FibTask f = FIB_TASK(8), g = FIB_TASK(9), h = FIB_TASK(7);
    fj_task *set[] = {&h.task, &f.task, &g.task};
    CHECK_RC(0, fj_invoke_all(set, 3));
    assertTrue(fj_task_is_done(&f.task));
    assertTrue(fj_task_is_done(&g.task));
    assertTrue(fj_task_is_done(&h.task));
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    checkCompletedNormally(AS_INT_TASK(&h), 13);
    return NoResult;
}
static void testInvokeAllCollection(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvokeAllCollection_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testInvokeAllNPE_body(void)
{
    FibTask f = FIB_TASK(8), g = FIB_TASK(9);
    fj_task *tasks[] = {&f.task, &g.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));  /* NullPointerException */
    return NoResult;
}
static void testInvokeAllNPE(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testInvokeAllNPE_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalInvokeAll2_body(void)
{
    FibTask f = FIB_TASK(8);
    FailingFibTask g = FAILING_FIB_TASK(9);
    int rc = fj_invoke_all2(&f.task, &g.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&g), rc);
    return NoResult;
}
static void testAbnormalInvokeAll2(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalInvokeAll2_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalInvokeAll1_body(void)
{
    FailingFibTask g = FAILING_FIB_TASK(9);
    fj_task *tasks[] = {&g.task};
    int rc = fj_invoke_all(tasks, 1);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&g), rc);
    return NoResult;
}
static void testAbnormalInvokeAll1(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalInvokeAll1_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalInvokeAll3_body(void)
{
    FibTask f = FIB_TASK(8), h = FIB_TASK(7);
    FailingFibTask g = FAILING_FIB_TASK(9);
    fj_task *tasks[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(tasks, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&g), rc);
    return NoResult;
}
static void testAbnormalInvokeAll3(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalInvokeAll3_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testAbnormalInvokeAllCollection_body(void)
{
    FailingFibTask f = FAILING_FIB_TASK(8);
    FibTask g = FIB_TASK(9), h = FIB_TASK(7);
    fj_task *set[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(set, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(AS_INT_TASK(&f), rc);
    return NoResult;
}
static void testAbnormalInvokeAllCollection(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testAbnormalInvokeAllCollection_body);
    assertEquals(NoResult, testInvokeOnPool(mainPool(), &a));
}

static int testTryUnfork_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertTrue(fj_task_try_unfork(&f.task));
    fj_help_quiesce();
    checkNotDone(AS_INT_TASK(&f));
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testTryUnfork(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testTryUnfork_body);
    assertEquals(NoResult, testInvokeOnPool(singletonPool(), &a));
}

static int testGetSurplusQueuedTaskCount_body(void)
{
    FibTask h = FIB_TASK(7);
    CHECK_RC(0, fj_fork(&h.task));
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertTrue(fj_get_surplus_queued_task_count() > 0);
    fj_help_quiesce();
    assertEquals(0, fj_get_surplus_queued_task_count());
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    checkCompletedNormally(AS_INT_TASK(&h), 13);
    return NoResult;
}
static void testGetSurplusQueuedTaskCount(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testGetSurplusQueuedTaskCount_body);
    assertEquals(NoResult, testInvokeOnPool(singletonPool(), &a));
}

static int testPeekNextLocalTask_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_peek_next_local_task());
    checkCompletesNormally(AS_INT_TASK(&f), 21);
    fj_help_quiesce();
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testPeekNextLocalTask(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPeekNextLocalTask_body);
    assertEquals(NoResult, testInvokeOnPool(singletonPool(), &a));
}

static int testPollNextLocalTask_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkNotDone(AS_INT_TASK(&f));
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testPollNextLocalTask(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPollNextLocalTask_body);
    assertEquals(NoResult, testInvokeOnPool(singletonPool(), &a));
}

static int testPollTask_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_poll_task());
    fj_help_quiesce();
    checkNotDone(AS_INT_TASK(&f));
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testPollTask(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPollTask_body);
    assertEquals(NoResult, testInvokeOnPool(singletonPool(), &a));
}

static int testPeekNextLocalTaskAsync_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_peek_next_local_task());
    int r = NoResult - 1;
    CHECK_RC(0, FJ_JOIN_RESULT(&f, &r));
    assertEquals(21, r);
    fj_help_quiesce();
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkCompletedNormally(AS_INT_TASK(&g), 34);
    return NoResult;
}
static void testPeekNextLocalTaskAsync(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPeekNextLocalTaskAsync_body);
    assertEquals(NoResult, testInvokeOnPool(asyncSingletonPool(), &a));
}

static int testPollNextLocalTaskAsync_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkNotDone(AS_INT_TASK(&g));
    return NoResult;
}
static void testPollNextLocalTaskAsync(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPollNextLocalTaskAsync_body);
    assertEquals(NoResult, testInvokeOnPool(asyncSingletonPool(), &a));
}

static int testPollTaskAsync_body(void)
{
    FibTask g = FIB_TASK(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibTask f = FIB_TASK(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_poll_task());
    fj_help_quiesce();
    checkCompletedNormally(AS_INT_TASK(&f), 21);
    checkNotDone(AS_INT_TASK(&g));
    return NoResult;
}
static void testPollTaskAsync(void)
{
    CheckedRecursiveTask a = CHECKED_RECURSIVE_TASK(testPollTaskAsync_body);
    assertEquals(NoResult, testInvokeOnPool(asyncSingletonPool(), &a));
}

static const check_case cases[] = {
    {"testInvoke", testInvoke, CHECK_PER_WORKERS},
    {"testQuietlyInvoke", testQuietlyInvoke, CHECK_PER_WORKERS},
    {"testForkJoin", testForkJoin, CHECK_PER_WORKERS},
    {"testForkGet", testForkGet, CHECK_PER_WORKERS},
    {"testForkTimedGet", testForkTimedGet, CHECK_PER_WORKERS},
    {"testForkQuietlyJoin", testForkQuietlyJoin, CHECK_PER_WORKERS},
    {"testForkHelpQuiesce", testForkHelpQuiesce, CHECK_PER_WORKERS},
    {"testAbnormalInvoke", testAbnormalInvoke, CHECK_PER_WORKERS},
    {"testAbnormalQuietlyInvoke", testAbnormalQuietlyInvoke, CHECK_PER_WORKERS},
    {"testAbnormalForkJoin", testAbnormalForkJoin, CHECK_PER_WORKERS},
    {"testAbnormalForkGet", testAbnormalForkGet, CHECK_PER_WORKERS},
    {"testAbnormalForkTimedGet", testAbnormalForkTimedGet, CHECK_PER_WORKERS},
    {"testAbnormalForkQuietlyJoin", testAbnormalForkQuietlyJoin, CHECK_PER_WORKERS},
    {"testCancelledInvoke", testCancelledInvoke, CHECK_PER_WORKERS},
    {"testCancelledForkJoin", testCancelledForkJoin, CHECK_PER_WORKERS},
    {"testCancelledForkGet", testCancelledForkGet, CHECK_PER_WORKERS},
    {"testCancelledForkTimedGet", testCancelledForkTimedGet, CHECK_PER_WORKERS},
    {"testCancelledForkQuietlyJoin", testCancelledForkQuietlyJoin, CHECK_PER_WORKERS},
    {"testGetPool", testGetPool, CHECK_PER_WORKERS},
    {"testGetPool2", testGetPool2, CHECK_ONCE},
    {"testInForkJoinPool", testInForkJoinPool, CHECK_PER_WORKERS},
    {"testInForkJoinPool2", testInForkJoinPool2, CHECK_ONCE},
    {"testSetRawResult", testSetRawResult, CHECK_ONCE},
    {"testReinitialize", testReinitialize, CHECK_PER_WORKERS},
    {"testReinitializeAbnormal", testReinitializeAbnormal, CHECK_PER_WORKERS},
    {"testCompleteExceptionally", testCompleteExceptionally, CHECK_PER_WORKERS},
    {"testComplete", testComplete, CHECK_PER_WORKERS},
    {"testInvokeAll2", testInvokeAll2, CHECK_PER_WORKERS},
    {"testInvokeAll1", testInvokeAll1, CHECK_PER_WORKERS},
    {"testInvokeAll3", testInvokeAll3, CHECK_PER_WORKERS},
    {"testInvokeAllCollection", testInvokeAllCollection, CHECK_PER_WORKERS},
    {"testInvokeAllNPE", testInvokeAllNPE, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll2", testAbnormalInvokeAll2, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll1", testAbnormalInvokeAll1, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll3", testAbnormalInvokeAll3, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAllCollection", testAbnormalInvokeAllCollection, CHECK_PER_WORKERS},
    {"testTryUnfork", testTryUnfork, CHECK_ONCE},
    {"testGetSurplusQueuedTaskCount", testGetSurplusQueuedTaskCount, CHECK_ONCE},
    {"testPeekNextLocalTask", testPeekNextLocalTask, CHECK_ONCE},
    {"testPollNextLocalTask", testPollNextLocalTask, CHECK_ONCE},
    {"testPollTask", testPollTask, CHECK_ONCE},
    {"testPeekNextLocalTaskAsync", testPeekNextLocalTaskAsync, CHECK_ONCE},
    {"testPollNextLocalTaskAsync", testPollNextLocalTaskAsync, CHECK_ONCE},
    {"testPollTaskAsync", testPollTaskAsync, CHECK_ONCE},
};
CHECK_MAIN(cases)
