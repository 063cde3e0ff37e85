/* tck_fork_join_pool8.c - the JDK's ForkJoinPool8Test (JSR166 TCK), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept.
 * Its RecursiveAction methods run as Java's do: checkInvoke(a) invokes the
 * root in the calling (non-pool) thread, so every fork goes to the common
 * pool.  Absent (docs/porting-from-java.md): the CountedCompleter (*CC)
 * methods that use CountedCompleter, testForkTimedGetNPE.  In testJoinIgnores-
 * Interrupts only the interrupts, and in testAwaitQuiescence1/2 only the
 * getAsyncMode() assertions (fj has no async mode), have no counterpart. */
#include <time.h>

#include "tck_action_common.h"

/* ForkJoinPool8Test's FailingFibAction: a cancelled invokeAll falls through
 * to the same FJException as a failed one. */
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
    if (n > 1) {
        FailingFibAction f1 = FAILING_FIB_ACTION(n - 1), f2 = FAILING_FIB_ACTION(n - 2);
        int rc = fj_invoke_all2(&f1.task, &f2.task);
        if (rc == 0) {
            self->result = f1.result + f2.result;
            return 0;
        }
        if (rc != FJ_ECANCELED)
            return rc;  /* FJException propagates */
    }
    return FJ_EXCEPTION;
}

static void checkInvoke(fj_task *a)
{
    checkNotDone(a);
    CHECK_RC(0, fj_invoke(a));  /* assertNull(a.invoke()) */
    checkCompletedNormally(a);
}

#define CHECK_INVOKE(body)                                                                     \
    do {                                                                                       \
        CheckedRecursiveAction a_ = CHECKED_RECURSIVE_ACTION(body);                            \
        checkInvoke(&a_.task);                                                                 \
    } while (0)

static void testCommonPoolParallelism(void)
{
    assertEquals(fj_common_pool_parallelism(), fj_pool_get_parallelism(fj_common_pool()));
}

static void testCommonPoolShutDown(void)
{
    fj_pool *common = fj_common_pool();
    assertFalse(fj_pool_is_shutdown(common));
    assertFalse(fj_pool_is_shutdown(common) && !fj_pool_is_terminated(common));  /* isTerminating */
    assertFalse(fj_pool_is_terminated(common));
    fj_pool_shutdown(common);
    assertFalse(fj_pool_is_shutdown(common));
    assertFalse(fj_pool_is_shutdown(common) && !fj_pool_is_terminated(common));
    assertFalse(fj_pool_is_terminated(common));
    fj_pool_shutdown_now(common);
    assertFalse(fj_pool_is_shutdown(common));
    assertFalse(fj_pool_is_shutdown(common) && !fj_pool_is_terminated(common));
    assertFalse(fj_pool_is_terminated(common));
}

static void testInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_invoke(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testInvoke(void) { CHECK_INVOKE(testInvoke_body); }

static void testQuietlyInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_quietly_invoke(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testQuietlyInvoke(void) { CHECK_INVOKE(testQuietlyInvoke_body); }

static void testForkJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_join(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkJoin(void) { CHECK_INVOKE(testForkJoin_body); }

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
    checkInvoke(&a.task);
    CHECK_RC(0, fj_task_reinitialize(&a.task));
    checkInvoke(&a.task);
}

static void testForkGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_task_get(&f.task));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkGet(void) { CHECK_INVOKE(testForkGet_body); }

static void testForkTimedGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(0, fj_task_get_timed(&f.task, LONG_DELAY_NS));
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkTimedGet(void) { CHECK_INVOKE(testForkTimedGet_body); }

static void testForkQuietlyJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&f.task);
}
static void testForkQuietlyJoin(void) { CHECK_INVOKE(testForkQuietlyJoin_body); }

static void testAbnormalInvoke_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalInvoke(void) { CHECK_INVOKE(testAbnormalInvoke_body); }

static void testAbnormalQuietlyInvoke_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    fj_task_quietly_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(&f.task, fj_task_outcome(&f.task));
}
static void testAbnormalQuietlyInvoke(void) { CHECK_INVOKE(testAbnormalQuietlyInvoke_body); }

static void testAbnormalForkJoin_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_join(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkJoin(void) { CHECK_INVOKE(testAbnormalForkJoin_body); }

static void testAbnormalForkGet_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkGet(void) { CHECK_INVOKE(testAbnormalForkGet_body); }

static void testAbnormalForkTimedGet_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    int rc = fj_task_get_timed(&f.task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalForkTimedGet(void) { CHECK_INVOKE(testAbnormalForkTimedGet_body); }

static void testAbnormalForkQuietlyJoin_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f.task));
    checkCompletedAbnormally(&f.task, fj_task_outcome(&f.task));
}
static void testAbnormalForkQuietlyJoin(void) { CHECK_INVOKE(testAbnormalForkQuietlyJoin_body); }

static void testCancelledInvoke_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledInvoke(void) { CHECK_INVOKE(testCancelledInvoke_body); }

static void testCancelledForkJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledForkJoin(void) { CHECK_INVOKE(testCancelledForkJoin_body); }

static void testCancelledForkGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f.task));
    checkCancelled(&f.task);
}
static void testCancelledForkGet(void) { CHECK_INVOKE(testCancelledForkGet_body); }

static void testCancelledForkTimedGet_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f.task, LONG_DELAY_NS));
    checkCancelled(&f.task);
}
static void testCancelledForkTimedGet(void) { CHECK_INVOKE(testCancelledForkTimedGet_body); }

static void testCancelledForkQuietlyJoin_body(void)
{
    FibAction f = FIB_ACTION(8);
    assertTrue(CANCEL_IS_TRUE(&f.task));
    CHECK_RC(0, fj_fork(&f.task));
    fj_task_quietly_join(&f.task);
    checkCancelled(&f.task);
}
static void testCancelledForkQuietlyJoin(void) { CHECK_INVOKE(testCancelledForkQuietlyJoin_body); }

static void testInForkJoinPool2_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
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
static void testReinitialize(void) { CHECK_INVOKE(testReinitialize_body); }

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
static void testReinitializeAbnormal(void) { CHECK_INVOKE(testReinitializeAbnormal_body); }

static void testCompleteExceptionally_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_complete_exceptionally(&f.task, FJ_EXCEPTION);
    int rc = fj_invoke(&f.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testCompleteExceptionally(void) { CHECK_INVOKE(testCompleteExceptionally_body); }

static void testComplete_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task_quietly_complete(&f.task);  /* complete(null) */
    CHECK_RC(0, fj_invoke(&f.task));
    assertEquals(0, f.result);
    checkCompletedNormally(&f.task);
}
static void testComplete(void) { CHECK_INVOKE(testComplete_body); }

static void testInvokeAll2_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9);
    CHECK_RC(0, fj_invoke_all2(&f.task, &g.task));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
    checkCompletedNormally(&g.task);
    assertEquals(34, g.result);
}
static void testInvokeAll2(void) { CHECK_INVOKE(testInvokeAll2_body); }

static void testInvokeAll1_body(void)
{
    FibAction f = FIB_ACTION(8);
    fj_task *tasks[] = {&f.task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(&f.task);
    assertEquals(21, f.result);
}
static void testInvokeAll1(void) { CHECK_INVOKE(testInvokeAll1_body); }

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
static void testInvokeAll3(void) { CHECK_INVOKE(testInvokeAll3_body); }

static void testInvokeAllCollection_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9), h = FIB_ACTION(7);
    fj_task *set[] = {&h.task, &g.task, &f.task};
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
static void testInvokeAllCollection(void) { CHECK_INVOKE(testInvokeAllCollection_body); }

static void testInvokeAllNPE_body(void)
{
    FibAction f = FIB_ACTION(8), g = FIB_ACTION(9);
    fj_task *tasks[] = {&f.task, &g.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));
}
static void testInvokeAllNPE(void) { CHECK_INVOKE(testInvokeAllNPE_body); }

static void testAbnormalInvokeAll2_body(void)
{
    FibAction f = FIB_ACTION(8);
    FailingFibAction g = FAILING_FIB_ACTION(9);
    int rc = fj_invoke_all2(&f.task, &g.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll2(void) { CHECK_INVOKE(testAbnormalInvokeAll2_body); }

static void testAbnormalInvokeAll1_body(void)
{
    FailingFibAction g = FAILING_FIB_ACTION(9);
    fj_task *tasks[] = {&g.task};
    int rc = fj_invoke_all(tasks, 1);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll1(void) { CHECK_INVOKE(testAbnormalInvokeAll1_body); }

static void testAbnormalInvokeAll3_body(void)
{
    FibAction f = FIB_ACTION(8), h = FIB_ACTION(7);
    FailingFibAction g = FAILING_FIB_ACTION(9);
    fj_task *tasks[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(tasks, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g.task, rc);
}
static void testAbnormalInvokeAll3(void) { CHECK_INVOKE(testAbnormalInvokeAll3_body); }

static void testAbnormalInvokeAllCollection_body(void)
{
    FailingFibAction f = FAILING_FIB_ACTION(8);
    FibAction g = FIB_ACTION(9), h = FIB_ACTION(7);
    fj_task *set[] = {&f.task, &g.task, &h.task};
    int rc = fj_invoke_all(set, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f.task, rc);
}
static void testAbnormalInvokeAllCollection(void) { CHECK_INVOKE(testAbnormalInvokeAllCollection_body); }

/* The three *CC methods that use no CountedCompleter. */
static void testGetPool2CC_body(void) { assertNull(fj_get_pool()); }
static void testGetPool2CC(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testGetPool2CC_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testInForkJoinPool2CC_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2CC(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2CC_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static long long nanos_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1000000000LL + (t1.tv_nsec - t0->tv_nsec);
}

static fj_pool *quiescence_pool;
static struct timespec quiescence_start;

static void testAwaitQuiescence1_body(void)
{
    fj_pool *p = quiescence_pool;
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    assertSame(p, fj_get_pool());
    assertEquals(0, fj_pool_await_quiescence(p, LONG_DELAY_NS));  /* quiescent: true */
    assertFalse(fj_pool_is_quiescent(p));  /* this task still runs */
    while (!fj_task_is_done(&f.task)) {
        assertFalse(fj_pool_is_shutdown(p));
        assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
        assertFalse(fj_pool_is_terminated(p));
        sched_yield();
    }
    assertTrue(nanos_since(&quiescence_start) < LONG_DELAY_NS);
    assertFalse(fj_pool_is_quiescent(p));
    assertEquals(0, fj_get_queued_task_count());
    assertEquals(21, f.result);
}

static void testAwaitQuiescence1(void)
{
    fj_pool *p = mainPool();
    quiescence_pool = p;
    clock_gettime(CLOCK_MONOTONIC, &quiescence_start);
    assertTrue(fj_pool_is_quiescent(p));
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testAwaitQuiescence1_body);
    CHECK_RC(0, fj_pool_execute(p, &a.task));
    while (!fj_task_is_done(&a.task) || !fj_pool_is_quiescent(p)) {
        assertFalse(fj_pool_is_shutdown(p));
        assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
        assertFalse(fj_pool_is_terminated(p));
        sched_yield();
    }
    assertEquals(0, fj_pool_get_queued_task_count(p));
    assertEquals(0, fj_pool_get_queued_submission_count(p));
    assertFalse(fj_pool_has_queued_submissions(p));
    while (fj_pool_get_active_thread_count(p) != 0 && nanos_since(&quiescence_start) < LONG_DELAY_NS)
        sched_yield();
    assertFalse(fj_pool_is_shutdown(p));
    assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));
    assertFalse(fj_pool_is_terminated(p));
    assertTrue(nanos_since(&quiescence_start) < LONG_DELAY_NS);
    poolCleaner(p);
}

static void testAwaitQuiescence2_body(void)
{
    fj_pool *p = quiescence_pool;
    FibAction f = FIB_ACTION(8);
    CHECK_RC(0, fj_fork(&f.task));
    while (!fj_task_is_done(&f.task) && nanos_since(&quiescence_start) < LONG_DELAY_NS) {
        assertFalse(fj_pool_is_shutdown(p));
        assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
        assertFalse(fj_pool_is_terminated(p));
        sched_yield();
    }
    assertTrue(nanos_since(&quiescence_start) < LONG_DELAY_NS);
    assertEquals(0, fj_get_queued_task_count());
    assertEquals(21, f.result);
}

static void testAwaitQuiescence2(void)
{
    /* The root spins until another worker ran f: Java's new ForkJoinPool()
     * has one per CPU; with a single one its test times out as ours would. */
    fj_pool *p = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&p, check_workers > 1 ? check_workers : 2));
    quiescence_pool = p;
    assertTrue(fj_pool_is_quiescent(p));
    clock_gettime(CLOCK_MONOTONIC, &quiescence_start);
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testAwaitQuiescence2_body);
    CHECK_RC(0, fj_pool_execute(p, &a.task));
    assertEquals(0, fj_pool_await_quiescence(p, LONG_DELAY_NS));
    assertTrue(fj_pool_is_quiescent(p));
    assertTrue(fj_task_is_done(&a.task));
    assertEquals(0, fj_pool_get_queued_task_count(p));
    assertEquals(0, fj_pool_get_queued_submission_count(p));
    assertFalse(fj_pool_has_queued_submissions(p));
    while (fj_pool_get_active_thread_count(p) != 0 && nanos_since(&quiescence_start) < LONG_DELAY_NS)
        sched_yield();
    assertFalse(fj_pool_is_shutdown(p));
    assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));
    assertFalse(fj_pool_is_terminated(p));
    assertTrue(nanos_since(&quiescence_start) < LONG_DELAY_NS);
    poolCleaner(p);
}

static const check_case cases[] = {
    {"testCommonPoolParallelism", testCommonPoolParallelism, CHECK_ONCE},
    {"testCommonPoolShutDown", testCommonPoolShutDown, CHECK_ONCE},
    {"testInvoke", testInvoke, CHECK_ONCE},
    {"testQuietlyInvoke", testQuietlyInvoke, CHECK_ONCE},
    {"testForkJoin", testForkJoin, CHECK_ONCE},
    {"testJoinIgnoresInterrupts", testJoinIgnoresInterrupts, CHECK_ONCE},
    {"testForkGet", testForkGet, CHECK_ONCE},
    {"testForkTimedGet", testForkTimedGet, CHECK_ONCE},
    {"testForkQuietlyJoin", testForkQuietlyJoin, CHECK_ONCE},
    {"testAbnormalInvoke", testAbnormalInvoke, CHECK_ONCE},
    {"testAbnormalQuietlyInvoke", testAbnormalQuietlyInvoke, CHECK_ONCE},
    {"testAbnormalForkJoin", testAbnormalForkJoin, CHECK_ONCE},
    {"testAbnormalForkGet", testAbnormalForkGet, CHECK_ONCE},
    {"testAbnormalForkTimedGet", testAbnormalForkTimedGet, CHECK_ONCE},
    {"testAbnormalForkQuietlyJoin", testAbnormalForkQuietlyJoin, CHECK_ONCE},
    {"testCancelledInvoke", testCancelledInvoke, CHECK_ONCE},
    {"testCancelledForkJoin", testCancelledForkJoin, CHECK_ONCE},
    {"testCancelledForkGet", testCancelledForkGet, CHECK_ONCE},
    {"testCancelledForkTimedGet", testCancelledForkTimedGet, CHECK_ONCE},
    {"testCancelledForkQuietlyJoin", testCancelledForkQuietlyJoin, CHECK_ONCE},
    {"testInForkJoinPool2", testInForkJoinPool2, CHECK_ONCE},
    {"testReinitialize", testReinitialize, CHECK_ONCE},
    {"testReinitializeAbnormal", testReinitializeAbnormal, CHECK_ONCE},
    {"testCompleteExceptionally", testCompleteExceptionally, CHECK_ONCE},
    {"testComplete", testComplete, CHECK_ONCE},
    {"testInvokeAll2", testInvokeAll2, CHECK_ONCE},
    {"testInvokeAll1", testInvokeAll1, CHECK_ONCE},
    {"testInvokeAll3", testInvokeAll3, CHECK_ONCE},
    {"testInvokeAllCollection", testInvokeAllCollection, CHECK_ONCE},
    {"testInvokeAllNPE", testInvokeAllNPE, CHECK_ONCE},
    {"testAbnormalInvokeAll2", testAbnormalInvokeAll2, CHECK_ONCE},
    {"testAbnormalInvokeAll1", testAbnormalInvokeAll1, CHECK_ONCE},
    {"testAbnormalInvokeAll3", testAbnormalInvokeAll3, CHECK_ONCE},
    {"testAbnormalInvokeAllCollection", testAbnormalInvokeAllCollection, CHECK_ONCE},
    {"testGetPool2CC", testGetPool2CC, CHECK_ONCE},
    {"testInForkJoinPool2CC", testInForkJoinPool2CC, CHECK_ONCE},
    {"testAwaitQuiescence1", testAwaitQuiescence1, CHECK_PER_WORKERS},
    {"testAwaitQuiescence2", testAwaitQuiescence2, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
