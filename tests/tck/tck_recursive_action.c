/* tck_recursive_action.c - the JDK's RecursiveActionTest (JSR166 TCK), ported
 * to fj_java.h: one function per Java test method, same name, assertions
 * kept.  Absent (docs/porting-from-java.md): testForkTimedGetNPE (no TimeUnit
 * argument to be null), testSetRawResult (an action has no raw result).  In
 * the two JoinIgnoresInterrupts methods only the interrupts themselves have
 * no C counterpart: every join, quietlyJoin and check is kept. */
#include <pthread.h>

#include "tck_action_common.h"

/* ---- FailingFibAction (FibAction and the checks: tck_action_common.h) ---- */

typedef struct FailingFibAction {
    FJ_RECURSIVE_ACTION;
    int number;
    int result;
} FailingFibAction;

static int FailingFibAction_compute(fj_task *t);
#define FAILING_FIB_ACTION(n) {FJ_TASK_INIT(FailingFibAction_compute), (n), 0}

static int FailingFibAction_compute(fj_task *t)
{
    FailingFibAction *self = FJ_SELF(t, FailingFibAction);
    int n = self->number;
    if (n <= 1)
        return FJ_EXCEPTION;
    FailingFibAction f1 = FAILING_FIB_ACTION(n - 1), f2 = FAILING_FIB_ACTION(n - 2);
    int rc = fj_invoke_all2(&f1.task, &f2.task);
    if (rc != 0)
        return rc;
    self->result = f1.result + f2.result;
    return 0;
}

/* ---- the test methods ---- */

static void testInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_invoke(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testInvoke(void) { RUN_ON(mainPool(), testInvoke_body); }

static void testQuietlyInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_quietly_invoke(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testQuietlyInvoke(void) { RUN_ON(mainPool(), testQuietlyInvoke_body); }

static void testForkJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_join(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkJoin(void) { RUN_ON(mainPool(), testForkJoin_body); }

/* Every join and check of the Java method; only currentThread.interrupt()
 * and Thread.interrupted() have no C counterpart. */
static void testJoinIgnoresInterrupts_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_join(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);

    FibAction c = FIB_ACTION(8);
    fj_task_cancel(&c.task);
    CHECK_RC(0, fj_fork(&c.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&c.task));
    checkCancelled(&c.task);

    FibAction e = FIB_ACTION(8);
    fj_task_complete_exceptionally(&e.task, FJ_EXCEPTION);
    CHECK_RC(0, fj_fork(&e.task));
    CHECK_RC(FJ_EXCEPTION, fj_join(&e.task));
    checkCompletedAbnormally(&e.task, FJ_EXCEPTION);

    FibAction q = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&q.task));
    fj_task_quietly_join(&q.task);
    assertEquals(21, q.result);
    checkCompletedNormally(&q.task);

    FibAction qc = FIB_ACTION(8);
    fj_task_cancel(&qc.task);
    CHECK_RC(0, fj_fork(&qc.task));
    fj_task_quietly_join(&qc.task);
    checkCancelled(&qc.task);

    FibAction qe = FIB_ACTION(8);
    fj_task_complete_exceptionally(&qe.task, FJ_EXCEPTION);
    CHECK_RC(0, fj_fork(&qe.task));
    fj_task_quietly_join(&qe.task);
    checkCompletedAbnormally(&qe.task, fj_task_outcome(&qe.task));
}
static void testJoinIgnoresInterrupts(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testJoinIgnoresInterrupts_body);
    testInvokeOnPool(mainPool(), &a.task);
    CHECK_RC(0, fj_task_reinitialize(&a.task));
    testInvokeOnPool(singletonPool(), &a.task);
}

/* The SynchronousQueue<FibAction[]> of the Java method: one hand-off. */
static _Atomic(FibAction *) handed_over;

static void testJoinIgnoresInterruptsOutsideForkJoinPool_body(void)
{
    /* Heap: an outside thread joins them after this task returned. */
    FibAction *fibActions = malloc(6 * sizeof *fibActions);
    CHECK(fibActions != NULL);
    for (int i = 0; i < 6; i++)
        fibActions[i] = (FibAction)FIB_ACTION(8);
    fj_task_cancel(&fibActions[1].task);
    fj_task_complete_exceptionally(&fibActions[2].task, FJ_EXCEPTION);
    fj_task_cancel(&fibActions[4].task);
    fj_task_complete_exceptionally(&fibActions[5].task, FJ_EXCEPTION);
    for (int i = 0; i < 6; i++)
        CHECK_RC(0, fj_fork(&fibActions[i].task));
    atomic_store(&handed_over, fibActions);  /* sq.put(fibActions) */
    fj_help_quiesce();
}

static void *testJoinIgnoresInterruptsOutsideForkJoinPool_run(void *unused)
{
    (void)unused;
    FibAction *fibActions;
    while ((fibActions = atomic_exchange(&handed_over, NULL)) == NULL)  /* sq.take() */
        sched_yield();
    FibAction *f = &fibActions[0];
    assertFalse(fj_in_pool());
    CHECK_RC(0, fj_join(&f->task));
    assertEquals(21, f->result);
    checkCompletedNormally(&f->task);

    f = &fibActions[1];
    CHECK_RC(FJ_ECANCELED, fj_join(&f->task));
    checkCancelled(&f->task);

    f = &fibActions[2];
    CHECK_RC(FJ_EXCEPTION, fj_join(&f->task));
    checkCompletedAbnormally(&f->task, FJ_EXCEPTION);

    f = &fibActions[3];
    fj_task_quietly_join(&f->task);
    assertEquals(21, f->result);
    checkCompletedNormally(&f->task);

    f = &fibActions[4];
    fj_task_quietly_join(&f->task);
    checkCancelled(&f->task);

    f = &fibActions[5];
    fj_task_quietly_join(&f->task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->task));
    checkCompletedAbnormally(&f->task, fj_task_outcome(&f->task));
    free(fibActions);
    return NULL;
}

static void testJoinIgnoresInterruptsOutsideForkJoinPool(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testJoinIgnoresInterruptsOutsideForkJoinPool_body);
    pthread_t t;
    CHECK_RC(0, pthread_create(&t, NULL, testJoinIgnoresInterruptsOutsideForkJoinPool_run, NULL));
    testInvokeOnPool(mainPool(), &a.task);
    pthread_join(t, NULL);

    CHECK_RC(0, fj_task_reinitialize(&a.task));
    CHECK_RC(0, pthread_create(&t, NULL, testJoinIgnoresInterruptsOutsideForkJoinPool_run, NULL));
    testInvokeOnPool(singletonPool(), &a.task);
    pthread_join(t, NULL);
}

static void testForkGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_task_get(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkGet(void) { RUN_ON(mainPool(), testForkGet_body); }

static void testForkTimedGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_task_get_timed(&f.task, LONG_DELAY_NS));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkTimedGet(void) { RUN_ON(mainPool(), testForkTimedGet_body); }

static void testForkQuietlyJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkQuietlyJoin(void) { RUN_ON(mainPool(), testForkQuietlyJoin_body); }

static void testForkHelpQuiesce_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_help_quiesce();
    while (!fj_task_is_done(&f.task))  /* wait out race */
        ;
    assertEquals(21, f.result);
    assertEquals(0, fj_get_queued_task_count());
    checkCompletedNormally(&f.task);
}
static void testForkHelpQuiesce(void) { RUN_ON(mainPool(), testForkHelpQuiesce_body); }

static void testAbnormalInvoke_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalInvoke(void) { RUN_ON(mainPool(), testAbnormalInvoke_body); }

static void testAbnormalQuietlyInvoke_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    fj_task_quietly_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(&f.task, fj_task_outcome(&f.task));
}
static void testAbnormalQuietlyInvoke(void) { RUN_ON(mainPool(), testAbnormalQuietlyInvoke_body); }

static void testAbnormalForkJoin_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_join(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkJoin(void) { RUN_ON(mainPool(), testAbnormalForkJoin_body); }

static void testAbnormalForkGet_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkGet(void) { RUN_ON(mainPool(), testAbnormalForkGet_body); }

static void testAbnormalForkTimedGet_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get_timed(&f.task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkTimedGet(void) { RUN_ON(mainPool(), testAbnormalForkTimedGet_body); }

static void testAbnormalForkQuietlyJoin_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(&f.task, fj_task_outcome(&f.task));
}
static void testAbnormalForkQuietlyJoin(void) { RUN_ON(mainPool(), testAbnormalForkQuietlyJoin_body); }

static void testCancelledInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledInvoke(void) { RUN_ON(mainPool(), testCancelledInvoke_body); }

static void testCancelledForkJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledForkJoin(void) { RUN_ON(mainPool(), testCancelledForkJoin_body); }

static void testCancelledForkGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledForkGet(void) { RUN_ON(mainPool(), testCancelledForkGet_body); }

static void testCancelledForkTimedGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f.task, LONG_DELAY_NS));
    checkCancelled(&f.task);
}
static void testCancelledForkTimedGet(void) { RUN_ON(mainPool(), testCancelledForkTimedGet_body); }

static void testCancelledForkQuietlyJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    checkCancelled(&f.task);
}
static void testCancelledForkQuietlyJoin(void) { RUN_ON(mainPool(), testCancelledForkQuietlyJoin_body); }

static fj_pool *the_main_pool;

static void testGetPool_body(void) { assertSame(the_main_pool, fj_get_pool()); }
static void testGetPool(void)
{
    the_main_pool = mainPool();
    RUN_ON(the_main_pool, testGetPool_body);
}

static void testGetPool2_body(void) { assertNull(fj_get_pool()); }
static void testGetPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testGetPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testInForkJoinPool_body(void) { assertTrue(fj_in_pool()); }
static void testInForkJoinPool(void) { RUN_ON(mainPool(), testInForkJoinPool_body); }

static void testInForkJoinPool2_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

/* ForkJoinWorkerThread.getPool() and getPoolIndex(): fj_current_pool() and
 * fj_current_worker_index() of the worker running this thread. */
static void testWorkerGetPool_body(void) { assertSame(the_main_pool, fj_current_pool()); }
static void testWorkerGetPool(void)
{
    the_main_pool = mainPool();
    RUN_ON(the_main_pool, testWorkerGetPool_body);
}

static void testWorkerGetPoolIndex_body(void) { assertTrue(fj_current_worker_index() >= 0); }
static void testWorkerGetPoolIndex(void)
{
    the_main_pool = mainPool();
    RUN_ON(the_main_pool, testWorkerGetPoolIndex_body);
}

static void testReinitialize_body(void)
{
    FibAction f = FIB_ACTION(8);
    checkNotDone(&f.task);
    for (int i = 0; i < 3; i++) {
        CHECK_RC(0, fj_invoke(&f.task));
        assertEquals(21, f.result);
        checkCompletedNormally(&f.task);
        CHECK_RC(0, fj_task_reinitialize(&f.task));
        checkNotDone(&f.task);
    }
}
static void testReinitialize(void) { RUN_ON(mainPool(), testReinitialize_body); }

static void testReinitializeAbnormal_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    checkNotDone(&f.task);
    for (int i = 0; i < 3; i++) {
        int rc = fj_invoke(&f.task);
        assertEquals(FJ_EXCEPTION, rc);
        checkCompletedAbnormally(&f.task, rc);
        CHECK_RC(0, fj_task_reinitialize(&f.task));
        checkNotDone(&f.task);
    }
}
static void testReinitializeAbnormal(void) { RUN_ON(mainPool(), testReinitializeAbnormal_body); }

static void testCompleteExceptionally_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_complete_exceptionally(&f.task, FJ_EXCEPTION);
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testCompleteExceptionally(void) { RUN_ON(mainPool(), testCompleteExceptionally_body); }

/* complete(null) of an action is quietlyComplete(). */
static void testComplete_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_quietly_complete(&f.task);
    CHECK_RC(0, fj_invoke(&f.task));
    assertEquals(0, f.result);
    checkCompletedNormally(&f.task);
}
static void testComplete(void) { RUN_ON(mainPool(), testComplete_body); }

static void testInvokeAll2_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9);
    CHECK_RC(0, fj_invoke_all2(&f.task, &g.task));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&g.task);
    assertEquals(34, g.result);
}
static void testInvokeAll2(void) { RUN_ON(mainPool(), testInvokeAll2_body); }

static void testInvokeAll1_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task *tasks[] = {&f.task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
}
static void testInvokeAll1(void) { RUN_ON(mainPool(), testInvokeAll1_body); }

static void testInvokeAll3_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9), h = FIB_ACTION(7);
    fj_task *tasks[] = {&f.task, &g.task, &h.task};
    CHECK_RC(0, fj_invoke_all(tasks, 3));
    assertTrue(fj_task_is_done(&f.task));
    assertTrue(fj_task_is_done(&g.task));
    assertTrue(fj_task_is_done(&h.task));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&g.task);
    assertEquals(34, g.result);
    checkCompletedNormally(&g.task);
    assertEquals(13, h.result);
}
static void testInvokeAll3(void) { RUN_ON(mainPool(), testInvokeAll3_body); }

static void testInvokeAllCollection_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9), h = FIB_ACTION(7);
    fj_task *set[] = {&g.task, &h.task, &f.task};
    CHECK_RC(0, fj_invoke_all(set, 3));
    assertTrue(fj_task_is_done(&f.task));
    assertTrue(fj_task_is_done(&g.task));
    assertTrue(fj_task_is_done(&h.task));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&g.task);
    assertEquals(34, g.result);
    checkCompletedNormally(&g.task);
    assertEquals(13, h.result);
}
static void testInvokeAllCollection(void) { RUN_ON(mainPool(), testInvokeAllCollection_body); }

static void testInvokeAllNPE_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9);
    fj_task *tasks[] = {&f.task, &g.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));  /* NullPointerException */
}
static void testInvokeAllNPE(void) { RUN_ON(mainPool(), testInvokeAllNPE_body); }

static void testAbnormalInvokeAll2_body(void)
{
    FibAction f = FIB_ACTION(8);
    FailingFibAction g = FAILING_FIB_ACTION(9);
    int rc = fj_invoke_all2(&f.task, &g.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll2(void) { RUN_ON(mainPool(), testAbnormalInvokeAll2_body); }

static void testAbnormalInvokeAll1_body(void)
{
    FailingFibAction g = FAILING_FIB_ACTION(9);
    fj_task *tasks[] = {&g.task};
    int rc = fj_invoke_all(tasks, 1);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll1(void) { RUN_ON(mainPool(), testAbnormalInvokeAll1_body); }

static void testAbnormalInvokeAll3_body(void)
{
    FibAction f = FIB_ACTION(8), h = FIB_ACTION(7);
    FailingFibAction g = FAILING_FIB_ACTION(9);
    fj_task *tasks[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(tasks, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll3(void) { RUN_ON(mainPool(), testAbnormalInvokeAll3_body); }

static void testAbnormalInvokeAllCollection_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    FibAction g = FIB_ACTION(9), h = FIB_ACTION(7);
    fj_task *set[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(set, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalInvokeAllCollection(void) { RUN_ON(mainPool(), testAbnormalInvokeAllCollection_body); }

static void testTryUnfork_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertTrue(fj_task_try_unfork(&f.task));
    fj_help_quiesce();
    checkNotDone(&f.task);
    checkCompletedNormally(&g.task);
}
static void testTryUnfork(void) { RUN_ON(singletonPool(), testTryUnfork_body); }

static void testGetSurplusQueuedTaskCount_body(void)
{
    FibAction h = FIB_ACTION(7);
    CHECK_RC(0, fj_fork(&h.task));
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertTrue(fj_get_surplus_queued_task_count() > 0);
    fj_help_quiesce();
    assertEquals(0, fj_get_surplus_queued_task_count());
    checkCompletedNormally(&f.task);
    checkCompletedNormally(&g.task);
    checkCompletedNormally(&h.task);
}
static void testGetSurplusQueuedTaskCount(void) { RUN_ON(singletonPool(), testGetSurplusQueuedTaskCount_body); }

static void testPeekNextLocalTask_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f.task));
    checkCompletedNormally(&f.task);
    fj_help_quiesce();
    checkCompletedNormally(&f.task);
    checkCompletedNormally(&g.task);
}
static void testPeekNextLocalTask(void) { RUN_ON(singletonPool(), testPeekNextLocalTask_body); }

static void testPollNextLocalTask_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkNotDone(&f.task);
    checkCompletedNormally(&g.task);
}
static void testPollNextLocalTask(void) { RUN_ON(singletonPool(), testPollNextLocalTask_body); }

static void testPollTask_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&f.task, fj_poll_task());
    fj_help_quiesce();
    checkNotDone(&f.task);
    checkCompletedNormally(&g.task);
}
static void testPollTask(void) { RUN_ON(singletonPool(), testPollTask_body); }

static void testPeekNextLocalTaskAsync_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f.task));
    fj_help_quiesce();
    checkCompletedNormally(&f.task);
    checkCompletedNormally(&g.task);
}
static void testPeekNextLocalTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPeekNextLocalTaskAsync_body); }

static void testPollNextLocalTaskAsync_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkCompletedNormally(&f.task);
    checkNotDone(&g.task);
}
static void testPollNextLocalTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPollNextLocalTaskAsync_body); }

static void testPollTaskAsync_body(void)
{
    FibAction g = FIB_ACTION(9);
    CHECK_RC(0, fj_fork(&g.task));
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(&g.task, fj_poll_task());
    fj_help_quiesce();
    checkCompletedNormally(&f.task);
    checkNotDone(&g.task);
}
static void testPollTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPollTaskAsync_body); }

/* The RecursiveAction Javadoc's SortTask. */
typedef struct SortTask {
    FJ_RECURSIVE_ACTION;
    long *array;
    int lo, hi;
} SortTask;

enum { THRESHOLD = 100 };
static int SortTask_compute(fj_task *t);
#define SORT_TASK(array, lo, hi) {FJ_TASK_INIT(SortTask_compute), (array), (lo), (hi)}

static int compare_longs(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int SortTask_compute(fj_task *t)
{
    SortTask *self = FJ_SELF(t, SortTask);
    int lo = self->lo, hi = self->hi;
    if (hi - lo < THRESHOLD) {
        qsort(self->array + lo, (size_t)(hi - lo), sizeof(long), compare_longs);
        return 0;
    }
    int mid = (int)((unsigned)(lo + hi) >> 1);
    SortTask left = SORT_TASK(self->array, lo, mid), right = SORT_TASK(self->array, mid, hi);
    int rc = fj_invoke_all2(&left.task, &right.task);
    if (rc != 0)
        return rc;
    long *buf = malloc((size_t)(mid - lo) * sizeof(long));
    if (!buf)
        return FJ_ENOMEM;
    memcpy(buf, self->array + lo, (size_t)(mid - lo) * sizeof(long));
    long *array = self->array;
    for (int i = 0, j = lo, k = mid; i < mid - lo; j++)
        array[j] = (k == hi || buf[i] < array[k]) ? buf[i++] : array[k++];
    free(buf);
    return 0;
}

static void testSortTaskDemo(void)
{
    enum { N = 1007 };
    long array[N], arrayClone[N];
    unsigned seed = 12345u;
    for (int i = 0; i < N; i++)
        array[i] = ((long)rand_r(&seed) << 32) ^ (long)rand_r(&seed);
    memcpy(arrayClone, array, sizeof array);
    SortTask s = SORT_TASK(array, 0, N);
    testInvokeOnPool(mainPool(), &s.task);
    qsort(arrayClone, N, sizeof(long), compare_longs);
    assertTrue(memcmp(array, arrayClone, sizeof array) == 0);
}

static const check_case cases[] = {
    {"testInvoke", testInvoke, CHECK_PER_WORKERS},
    {"testQuietlyInvoke", testQuietlyInvoke, CHECK_PER_WORKERS},
    {"testForkJoin", testForkJoin, CHECK_PER_WORKERS},
    {"testJoinIgnoresInterrupts", testJoinIgnoresInterrupts, CHECK_PER_WORKERS},
    {"testJoinIgnoresInterruptsOutsideForkJoinPool", testJoinIgnoresInterruptsOutsideForkJoinPool, CHECK_PER_WORKERS},
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
    {"testWorkerGetPool", testWorkerGetPool, CHECK_PER_WORKERS},
    {"testWorkerGetPoolIndex", testWorkerGetPoolIndex, CHECK_PER_WORKERS},
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
    {"testSortTaskDemo", testSortTaskDemo, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
