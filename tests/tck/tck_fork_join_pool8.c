/* tck_fork_join_pool8.c - the JDK's ForkJoinPool8Test (JSR166 TCK), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept.
 * Its methods run as Java's do: checkInvoke(a) invokes the root in the
 * calling (non-pool) thread, so every fork goes to the common pool (the
 * testAwaitQuiescence methods make pools of their own).  The *CC
 * methods do the same with the test's CCF / FailingCCF completer trees, which
 * are freed once the common pool is quiescent (checkInvokeCC).  Absent
 * (docs/porting-from-java.md): testForkTimedGetNPE, testForkTimedGetNPECC (no
 * TimeUnit) and testSetRawResultCC (no raw result of an action).  In
 * testJoinIgnoresInterrupts only the interrupts have no counterpart. */
#include <time.h>

#include "tck_action_common.h"
#include "tck_heap.h"

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

/* ---- the CountedCompleter versions: CCF, FailingCCF ----
 *
 * ForkJoinPool8Test's own CCF, a plain CountedCompleter: its compute walks
 * down the left spine (forking each right child), then runs the leaf's
 * onCompletion itself and tries to complete the leaf's completer, so the
 * leaf is never marked complete (CountedCompleterTest's CCF, a CheckedCC,
 * ends with complete(null) instead).  The nodes are heap completers
 * (tck_heap.h); their subtasks run in the common pool. */

typedef struct CCF {
    fj_counted_completer cc;
    int number;
    int rnumber;
} CCF;

static CCF *CCF_of(fj_counted_completer *c) { return c ? FJ_CONTAINER_OF(c, CCF, cc) : NULL; }

static int CCF_compute(fj_counted_completer *c);
static int FailingCCF_compute(fj_counted_completer *c);
static void LCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller);
static void RCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller);
static void RFCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller);

/* super(parent, 1); this.number = n; with the subclass's onCompletion */
static CCF *new_CCF(CCF *parent, int n, int (*compute)(fj_counted_completer *),
                    void (*onCompletion)(fj_counted_completer *, fj_counted_completer *))
{
    CCF *f = tck_new(sizeof *f);
    fj_cc_init(&f->cc, parent ? &parent->cc : NULL, 1, compute);
    f->cc.on_completion = onCompletion;
    f->number = n;
    return f;
}

static CCF *LCCF(CCF *parent, int n) { return new_CCF(parent, n, CCF_compute, LCCF_onCompletion); }
static CCF *RCCF(CCF *parent, int n) { return new_CCF(parent, n, CCF_compute, RCCF_onCompletion); }
/* FailingCCF's subclasses: the same node, with failure forced in RFCCF's completion */
static CCF *LFCCF(CCF *parent, int n) { return new_CCF(parent, n, FailingCCF_compute, LCCF_onCompletion); }
static CCF *RFCCF(CCF *parent, int n) { return new_CCF(parent, n, FailingCCF_compute, RFCCF_onCompletion); }

/* The end of both computes: the leaf f completes itself and tries its completer. */
static void CCF_finish_leaf(CCF *f, int n)
{
    f->number = n;
    f->cc.on_completion(&f->cc, &f->cc);
    fj_counted_completer *p = fj_cc_get_completer(&f->cc);
    if (p)
        fj_cc_try_complete(p);
    else
        fj_cc_quietly_complete_root(&f->cc);  /* quietlyComplete(): f is its own root here */
}

static int CCF_compute(fj_counted_completer *c)
{
    CCF *f = CCF_of(c);
    int n = f->number;
    while (n >= 2) {
        CHECK_RC(0, fj_fork(&RCCF(f, n - 2)->cc.task));
        f = LCCF(f, --n);
    }
    CCF_finish_leaf(f, n);
    return 0;
}

static int FailingCCF_compute(fj_counted_completer *c)
{
    CCF *f = CCF_of(c);
    int n = f->number;
    while (n >= 2) {
        CHECK_RC(0, fj_fork(&RFCCF(f, n - 2)->cc.task));
        f = LFCCF(f, --n);
    }
    CCF_finish_leaf(f, n);
    return 0;
}

static void LCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller)
{
    CCF *self = CCF_of(c), *p = CCF_of(fj_cc_get_completer(c));
    int n = self->number + self->rnumber;
    if (p)
        p->number = n;
    else
        self->number = n;
}

static void RCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller)
{
    CCF *self = CCF_of(c), *p = CCF_of(fj_cc_get_completer(c));
    int n = self->number + self->rnumber;
    if (p)
        p->rnumber = n;
    else
        self->number = n;
}

static void RFCCF_onCompletion(fj_counted_completer *c, fj_counted_completer *caller)
{
    /* FJ_EINVAL when a failure from below already completed c: Java's
     * completeExceptionally of a done task changes nothing either. */
    (void)fj_cc_complete_exceptionally(c, FJ_EXCEPTION);
}

/* checkInvoke(a) of a method on CCF trees, then the trees are freed: their
 * subtasks ran in the common pool, and some of a failing tree's may still
 * walk up to its completers after its root's join returned, so only once
 * the common pool is quiescent. */
static void checkInvokeCC(void (*body)(void))
{
    CHECK_INVOKE(body);
    CHECK_RC(0, fj_pool_await_quiescence(fj_common_pool(), LONG_DELAY_NS));
    tck_free_all();
}

static void testInvokeCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_invoke(&f->cc.task));  /* assertNull(f.invoke()) */
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testInvokeCC(void) { checkInvokeCC(testInvokeCC_body); }

static void testQuietlyInvokeCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    fj_task_quietly_invoke(&f->cc.task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testQuietlyInvokeCC(void) { checkInvokeCC(testQuietlyInvokeCC_body); }

static void testForkJoinCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_join(&f->cc.task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkJoinCC(void) { checkInvokeCC(testForkJoinCC_body); }

static void testForkGetCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_task_get(&f->cc.task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkGetCC(void) { checkInvokeCC(testForkGetCC_body); }

static void testForkTimedGetCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_task_get_timed(&f->cc.task, LONG_DELAY_NS));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkTimedGetCC(void) { checkInvokeCC(testForkTimedGetCC_body); }

static void testForkQuietlyJoinCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkQuietlyJoinCC(void) { checkInvokeCC(testForkQuietlyJoinCC_body); }

static void testAbnormalInvokeCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    int rc = fj_invoke(&f->cc.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testAbnormalInvokeCC(void) { checkInvokeCC(testAbnormalInvokeCC_body); }

static void testAbnormalQuietlyInvokeCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    fj_task_quietly_invoke(&f->cc.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->cc.task));
    checkCompletedAbnormally(&f->cc.task, fj_task_outcome(&f->cc.task));
}
static void testAbnormalQuietlyInvokeCC(void) { checkInvokeCC(testAbnormalQuietlyInvokeCC_body); }

static void testAbnormalForkJoinCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    int rc = fj_join(&f->cc.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testAbnormalForkJoinCC(void) { checkInvokeCC(testAbnormalForkJoinCC_body); }

static void testAbnormalForkGetCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    int rc = fj_task_get(&f->cc.task);
    assertEquals(FJ_EXCEPTION, rc);  /* the ExecutionException's cause is an FJException */
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testAbnormalForkGetCC(void) { checkInvokeCC(testAbnormalForkGetCC_body); }

static void testAbnormalForkTimedGetCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    int rc = fj_task_get_timed(&f->cc.task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, rc);  /* the ExecutionException's cause is an FJException */
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testAbnormalForkTimedGetCC(void) { checkInvokeCC(testAbnormalForkTimedGetCC_body); }

static void testAbnormalForkQuietlyJoinCC_body(void)
{
    CCF *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->cc.task));
    checkCompletedAbnormally(&f->cc.task, fj_task_outcome(&f->cc.task));
}
static void testAbnormalForkQuietlyJoinCC(void) { checkInvokeCC(testAbnormalForkQuietlyJoinCC_body); }

static void testCancelledInvokeCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledInvokeCC(void) { checkInvokeCC(testCancelledInvokeCC_body); }

static void testCancelledForkJoinCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkJoinCC(void) { checkInvokeCC(testCancelledForkJoinCC_body); }

static void testCancelledForkGetCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkGetCC(void) { checkInvokeCC(testCancelledForkGetCC_body); }

static void testCancelledForkTimedGetCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f->cc.task, LONG_DELAY_NS));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkTimedGetCC(void) { checkInvokeCC(testCancelledForkTimedGetCC_body); }

static void testCancelledForkQuietlyJoinCC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    checkCancelled(&f->cc.task);
}
static void testCancelledForkQuietlyJoinCC(void) { checkInvokeCC(testCancelledForkQuietlyJoinCC_body); }

/* The two *CC methods that use no CountedCompleter. */
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

static void testCompleteExceptionally2CC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_cc_complete_exceptionally(&f->cc, FJ_EXCEPTION));
    int rc = fj_invoke(&f->cc.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testCompleteExceptionally2CC(void) { checkInvokeCC(testCompleteExceptionally2CC_body); }

static void testInvokeAll2CC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_invoke_all2(&f->cc.task, &g->cc.task));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
}
static void testInvokeAll2CC(void) { checkInvokeCC(testInvokeAll2CC_body); }

static void testInvokeAll1CC_body(void)
{
    CCF *f = LCCF(NULL, 8);
    fj_task *tasks[] = {&f->cc.task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(&f->cc.task);
    assertEquals(21, f->number);
}
static void testInvokeAll1CC(void) { checkInvokeCC(testInvokeAll1CC_body); }

static void testInvokeAll3CC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    CHECK_RC(0, fj_invoke_all(tasks, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
    checkCompletedNormally(&h->cc.task);
}
static void testInvokeAll3CC(void) { checkInvokeCC(testInvokeAll3CC_body); }

static void testInvokeAllCollectionCC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *set[] = {&h->cc.task, &g->cc.task, &f->cc.task};  /* a HashSet: any order */
    CHECK_RC(0, fj_invoke_all(set, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
    checkCompletedNormally(&h->cc.task);
}
static void testInvokeAllCollectionCC(void) { checkInvokeCC(testInvokeAllCollectionCC_body); }

static void testInvokeAllNPECC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LCCF(NULL, 9);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, NULL};  /* h = null */
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));  /* NullPointerException */
}
static void testInvokeAllNPECC(void) { checkInvokeCC(testInvokeAllNPECC_body); }

static void testAbnormalInvokeAll2CC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LFCCF(NULL, 9);
    int rc = fj_invoke_all2(&f->cc.task, &g->cc.task);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g->cc.task, rc);
}
static void testAbnormalInvokeAll2CC(void) { checkInvokeCC(testAbnormalInvokeAll2CC_body); }

static void testAbnormalInvokeAll1CC_body(void)
{
    CCF *g = LFCCF(NULL, 9);
    fj_task *tasks[] = {&g->cc.task};
    int rc = fj_invoke_all(tasks, 1);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g->cc.task, rc);
}
static void testAbnormalInvokeAll1CC(void) { checkInvokeCC(testAbnormalInvokeAll1CC_body); }

static void testAbnormalInvokeAll3CC_body(void)
{
    CCF *f = LCCF(NULL, 8), *g = LFCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    int rc = fj_invoke_all(tasks, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&g->cc.task, rc);
}
static void testAbnormalInvokeAll3CC(void) { checkInvokeCC(testAbnormalInvokeAll3CC_body); }

static void testAbnormalInvokeAllCollectionCC_body(void)
{
    CCF *f = LFCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *set[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    int rc = fj_invoke_all(set, 3);
    assertEquals(FJ_EXCEPTION, rc);
    checkCompletedAbnormally(&f->cc.task, rc);
}
static void testAbnormalInvokeAllCollectionCC(void) { checkInvokeCC(testAbnormalInvokeAllCollectionCC_body); }

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
        assertFalse(fj_pool_get_async_mode(p));
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
        assertFalse(fj_pool_get_async_mode(p));
        assertFalse(fj_pool_is_shutdown(p));
        assertFalse(fj_pool_is_shutdown(p) && !fj_pool_is_terminated(p));  /* isTerminating */
        assertFalse(fj_pool_is_terminated(p));
        sched_yield();
    }
    assertEquals(0, fj_pool_get_queued_task_count(p));
    assertFalse(fj_pool_get_async_mode(p));
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
        assertFalse(fj_pool_get_async_mode(p));
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
    assertFalse(fj_pool_get_async_mode(p));
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
    {"testInvokeCC", testInvokeCC, CHECK_ONCE},
    {"testQuietlyInvokeCC", testQuietlyInvokeCC, CHECK_ONCE},
    {"testForkJoinCC", testForkJoinCC, CHECK_ONCE},
    {"testForkGetCC", testForkGetCC, CHECK_ONCE},
    {"testForkTimedGetCC", testForkTimedGetCC, CHECK_ONCE},
    {"testForkQuietlyJoinCC", testForkQuietlyJoinCC, CHECK_ONCE},
    {"testAbnormalInvokeCC", testAbnormalInvokeCC, CHECK_ONCE},
    {"testAbnormalQuietlyInvokeCC", testAbnormalQuietlyInvokeCC, CHECK_ONCE},
    {"testAbnormalForkJoinCC", testAbnormalForkJoinCC, CHECK_ONCE},
    {"testAbnormalForkGetCC", testAbnormalForkGetCC, CHECK_ONCE},
    {"testAbnormalForkTimedGetCC", testAbnormalForkTimedGetCC, CHECK_ONCE},
    {"testAbnormalForkQuietlyJoinCC", testAbnormalForkQuietlyJoinCC, CHECK_ONCE},
    {"testCancelledInvokeCC", testCancelledInvokeCC, CHECK_ONCE},
    {"testCancelledForkJoinCC", testCancelledForkJoinCC, CHECK_ONCE},
    {"testCancelledForkGetCC", testCancelledForkGetCC, CHECK_ONCE},
    {"testCancelledForkTimedGetCC", testCancelledForkTimedGetCC, CHECK_ONCE},
    {"testCancelledForkQuietlyJoinCC", testCancelledForkQuietlyJoinCC, CHECK_ONCE},
    {"testGetPool2CC", testGetPool2CC, CHECK_ONCE},
    {"testInForkJoinPool2CC", testInForkJoinPool2CC, CHECK_ONCE},
    {"testCompleteExceptionally2CC", testCompleteExceptionally2CC, CHECK_ONCE},
    {"testInvokeAll2CC", testInvokeAll2CC, CHECK_ONCE},
    {"testInvokeAll1CC", testInvokeAll1CC, CHECK_ONCE},
    {"testInvokeAll3CC", testInvokeAll3CC, CHECK_ONCE},
    {"testInvokeAllCollectionCC", testInvokeAllCollectionCC, CHECK_ONCE},
    {"testInvokeAllNPECC", testInvokeAllNPECC, CHECK_ONCE},
    {"testAbnormalInvokeAll2CC", testAbnormalInvokeAll2CC, CHECK_ONCE},
    {"testAbnormalInvokeAll1CC", testAbnormalInvokeAll1CC, CHECK_ONCE},
    {"testAbnormalInvokeAll3CC", testAbnormalInvokeAll3CC, CHECK_ONCE},
    {"testAbnormalInvokeAllCollectionCC", testAbnormalInvokeAllCollectionCC, CHECK_ONCE},
    {"testAwaitQuiescence1", testAwaitQuiescence1, CHECK_PER_WORKERS},
    {"testAwaitQuiescence2", testAwaitQuiescence2, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
