/* tck_counted_completer.c - the JDK's CountedCompleterTest (JSR166 TCK),
 * ported method by method through fj_java.h, assertions kept.
 *
 * CheckedCC counts its compute, on_completion, on_exceptional_completion and
 * raw-result calls as the Java class does.  Java's getRawResult() of a
 * CountedCompleter is always null (the tests keep their raw result in a field
 * of their own): it has no C counterpart and those lines are left out, as in
 * the other ports.  The CCF trees are heap completers, as in Java; since a
 * failing tree may still be walking when its root's join returns, they are
 * freed only after the pool has terminated (tck_heap.h). */
#include "tck_action_common.h"
#include "tck_heap.h"

/* ---- CheckedCC ---- */

typedef struct CheckedCC CheckedCC;
struct CheckedCC {
    fj_counted_completer cc;
    atomic_int computeN, onCompletionN, onExceptionalCompletionN, setRawResultN;
    void *rawResult;
    void (*realCompute)(CheckedCC *self);
    void (*completion)(CheckedCC *self, CheckedCC *caller);  /* the subclass's onCompletion */
    int number, rnumber;  /* CCF's fields */
};

static int CheckedCC_compute(fj_counted_completer *c)
{
    CheckedCC *self = FJ_CONTAINER_OF(c, CheckedCC, cc);
    atomic_fetch_add(&self->computeN, 1);
    self->realCompute(self);
    return 0;
}

static void CheckedCC_onCompletion(fj_counted_completer *c, fj_counted_completer *caller)
{
    CheckedCC *self = FJ_CONTAINER_OF(c, CheckedCC, cc);
    atomic_fetch_add(&self->onCompletionN, 1);
    if (self->completion)
        self->completion(self, FJ_CONTAINER_OF(caller, CheckedCC, cc));
}

static int CheckedCC_onExceptionalCompletion(fj_counted_completer *c, int error, fj_counted_completer *caller)
{
    CheckedCC *self = FJ_CONTAINER_OF(c, CheckedCC, cc);
    atomic_fetch_add(&self->onExceptionalCompletionN, 1);
    assertTrue(error < 0);  /* assertNotNull(ex) */
    assertTrue(fj_task_is_completed_abnormally(&c->task));
    return 1;
}

static void noop_compute(CheckedCC *self) {}

static void CheckedCC_init(CheckedCC *a, CheckedCC *parent, int pending, void (*realCompute)(CheckedCC *))
{
    fj_cc_init(&a->cc, parent ? &parent->cc : NULL, pending, CheckedCC_compute);
    a->cc.on_completion = CheckedCC_onCompletion;
    a->cc.on_exceptional_completion = CheckedCC_onExceptionalCompletion;
    atomic_init(&a->computeN, 0);
    atomic_init(&a->onCompletionN, 0);
    atomic_init(&a->onExceptionalCompletionN, 0);
    atomic_init(&a->setRawResultN, 0);
    a->rawResult = NULL;
    a->realCompute = realCompute;
    a->completion = NULL;
    a->number = a->rnumber = 0;
}

/* new NoopCC(p, n) */
static void NoopCC(CheckedCC *a, CheckedCC *parent, int pending) { CheckedCC_init(a, parent, pending, noop_compute); }

/* complete(rawResult): setRawResult, then complete */
static void CheckedCC_complete(CheckedCC *a, void *rawResult)
{
    atomic_fetch_add(&a->setRawResultN, 1);
    a->rawResult = rawResult;
    fj_cc_complete(&a->cc);
}

static void checkCompletedAbnormallyCC(CheckedCC *a, int error)
{
    checkCompletedAbnormally(&a->cc.task, error);
    CHECK_RC(error, fj_invoke(&a->cc.task));  /* a.invoke() rethrows */
}

static void checkIncomplete(CheckedCC *a)
{
    assertEquals(0, atomic_load(&a->computeN));
    assertEquals(0, atomic_load(&a->onCompletionN));
    assertEquals(0, atomic_load(&a->onExceptionalCompletionN));
    assertEquals(0, atomic_load(&a->setRawResultN));
    checkNotDone(&a->cc.task);
}

static void checkCompletes(CheckedCC *a, void *rawResult)
{
    checkIncomplete(a);
    int pendingCount = fj_cc_get_pending_count(&a->cc);
    CheckedCC_complete(a, rawResult);
    assertEquals(pendingCount, fj_cc_get_pending_count(&a->cc));
    assertEquals(0, atomic_load(&a->computeN));
    assertEquals(1, atomic_load(&a->onCompletionN));
    assertEquals(0, atomic_load(&a->onExceptionalCompletionN));
    assertEquals(1, atomic_load(&a->setRawResultN));
    assertSame(rawResult, a->rawResult);
    checkCompletedNormally(&a->cc.task);
}

static void checkCompletedExceptionally(CheckedCC *a, int error)
{
    assertEquals(0, atomic_load(&a->computeN));
    assertEquals(0, atomic_load(&a->onCompletionN));
    assertEquals(1, atomic_load(&a->onExceptionalCompletionN));
    assertEquals(0, atomic_load(&a->setRawResultN));
    assertNull(a->rawResult);
    checkCompletedAbnormallyCC(a, error);
}

static void checkCompletesExceptionally(CheckedCC *a, int error)
{
    checkIncomplete(a);
    CHECK_RC(0, fj_cc_complete_exceptionally(&a->cc, error));
    checkCompletedExceptionally(a, error);
}

/* ---- methods without a pool ---- */

static void testComplete_one(CheckedCC *cc, void *x, int pendingCount)
{
    fj_cc_set_pending_count(&cc->cc, pendingCount);
    checkCompletes(cc, x);
    assertEquals(pendingCount, fj_cc_get_pending_count(&cc->cc));
}

static void testComplete(void)
{
    static int true_value = 1;
    void *values[] = {&true_value, NULL};
    int counts[] = {0, 42};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            CheckedCC a, parent, child;
            NoopCC(&a, NULL, 0);
            testComplete_one(&a, values[i], counts[j]);
            NoopCC(&parent, NULL, 0);
            NoopCC(&child, &parent, 0);
            testComplete_one(&child, values[i], counts[j]);
        }
}

static void testCompleteExceptionally(void)
{
    CheckedCC a, parent, child;
    NoopCC(&a, NULL, 0);
    checkCompletesExceptionally(&a, FJ_EXCEPTION);
    NoopCC(&parent, NULL, 0);
    NoopCC(&child, &parent, 0);
    checkCompletesExceptionally(&child, FJ_EXCEPTION);
}

static void testSetPendingCount(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    int vals[] = {-1, 0, 1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        fj_cc_set_pending_count(&a.cc, vals[i]);
        assertEquals(vals[i], fj_cc_get_pending_count(&a.cc));
    }
}

static void testAddToPendingCount(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    fj_cc_add_to_pending_count(&a.cc, 1);
    assertEquals(1, fj_cc_get_pending_count(&a.cc));
    fj_cc_add_to_pending_count(&a.cc, 27);
    assertEquals(28, fj_cc_get_pending_count(&a.cc));
    fj_cc_add_to_pending_count(&a.cc, -28);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
}

static void testDecrementPendingCountUnlessZero(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 2);
    assertEquals(2, fj_cc_get_pending_count(&a.cc));
    assertEquals(2, fj_cc_decrement_pending_count_unless_zero(&a.cc));
    assertEquals(1, fj_cc_get_pending_count(&a.cc));
    assertEquals(1, fj_cc_decrement_pending_count_unless_zero(&a.cc));
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    assertEquals(0, fj_cc_decrement_pending_count_unless_zero(&a.cc));
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    fj_cc_set_pending_count(&a.cc, -1);
    assertEquals(-1, fj_cc_decrement_pending_count_unless_zero(&a.cc));
    assertEquals(-2, fj_cc_get_pending_count(&a.cc));
}

static void testCompareAndSetPendingCount(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    assertTrue(fj_cc_compare_and_set_pending_count(&a.cc, 0, 1));
    assertEquals(1, fj_cc_get_pending_count(&a.cc));
    assertTrue(fj_cc_compare_and_set_pending_count(&a.cc, 1, 2));
    assertEquals(2, fj_cc_get_pending_count(&a.cc));
    assertFalse(fj_cc_compare_and_set_pending_count(&a.cc, 1, 3));
    assertEquals(2, fj_cc_get_pending_count(&a.cc));
}

static void testGetCompleter(void)
{
    CheckedCC a, b, c;
    NoopCC(&a, NULL, 0);
    assertNull(fj_cc_get_completer(&a.cc));
    NoopCC(&b, &a, 0);
    assertSame(&a.cc, fj_cc_get_completer(&b.cc));
    NoopCC(&c, &b, 0);
    assertSame(&b.cc, fj_cc_get_completer(&c.cc));
}

static void testGetRoot(void)
{
    CheckedCC a, b, c;
    NoopCC(&a, NULL, 0);
    NoopCC(&b, &a, 0);
    NoopCC(&c, &b, 0);
    assertSame(&a.cc, fj_cc_get_root(&a.cc));
    assertSame(&a.cc, fj_cc_get_root(&b.cc));
    assertSame(&a.cc, fj_cc_get_root(&c.cc));
}

static void testTryComplete(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    int n = 3;
    fj_cc_set_pending_count(&a.cc, n);
    for (; n > 0; n--) {
        assertEquals(n, fj_cc_get_pending_count(&a.cc));
        fj_cc_try_complete(&a.cc);
        checkIncomplete(&a);
        assertEquals(n - 1, fj_cc_get_pending_count(&a.cc));
    }
    fj_cc_try_complete(&a.cc);
    assertEquals(0, atomic_load(&a.computeN));
    assertEquals(1, atomic_load(&a.onCompletionN));
    assertEquals(0, atomic_load(&a.onExceptionalCompletionN));
    assertEquals(0, atomic_load(&a.setRawResultN));
    checkCompletedNormally(&a.cc.task);
}

static void testPropagateCompletion(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    assertEquals(0, fj_cc_get_pending_count(&a.cc));
    int n = 3;
    fj_cc_set_pending_count(&a.cc, n);
    for (; n > 0; n--) {
        assertEquals(n, fj_cc_get_pending_count(&a.cc));
        fj_cc_propagate_completion(&a.cc);
        checkIncomplete(&a);
        assertEquals(n - 1, fj_cc_get_pending_count(&a.cc));
    }
    fj_cc_propagate_completion(&a.cc);
    assertEquals(0, atomic_load(&a.computeN));
    assertEquals(0, atomic_load(&a.onCompletionN));
    assertEquals(0, atomic_load(&a.onExceptionalCompletionN));
    assertEquals(0, atomic_load(&a.setRawResultN));
    checkCompletedNormally(&a.cc.task);
}

static void testFirstComplete(void)
{
    CheckedCC a;
    NoopCC(&a, NULL, 0);
    fj_cc_set_pending_count(&a.cc, 1);
    assertNull(fj_cc_first_complete(&a.cc));
    checkIncomplete(&a);
    assertSame(&a.cc, fj_cc_first_complete(&a.cc));
    checkIncomplete(&a);
}

static void testNextComplete(void)
{
    CheckedCC a, b;
    NoopCC(&a, NULL, 0);
    NoopCC(&b, &a, 0);
    fj_cc_set_pending_count(&a.cc, 1);
    fj_cc_set_pending_count(&b.cc, 1);
    assertNull(fj_cc_first_complete(&b.cc));
    assertSame(&b.cc, fj_cc_first_complete(&b.cc));
    assertNull(fj_cc_next_complete(&b.cc));
    checkIncomplete(&a);
    checkIncomplete(&b);
    assertSame(&a.cc, fj_cc_next_complete(&b.cc));
    assertSame(&a.cc, fj_cc_next_complete(&b.cc));
    checkIncomplete(&a);
    checkIncomplete(&b);
    assertNull(fj_cc_next_complete(&a.cc));
    checkIncomplete(&b);
    checkCompletedNormally(&a.cc.task);
}

static void testQuietlyCompleteRoot(void)
{
    CheckedCC a, b, c;
    NoopCC(&a, NULL, 0);
    NoopCC(&b, &a, 0);
    NoopCC(&c, &b, 0);
    fj_cc_set_pending_count(&a.cc, 1);
    fj_cc_set_pending_count(&b.cc, 1);
    fj_cc_set_pending_count(&c.cc, 1);
    fj_cc_quietly_complete_root(&c.cc);
    assertTrue(fj_task_is_done(&a.cc.task));
    assertFalse(fj_task_is_done(&b.cc.task));
    assertFalse(fj_task_is_done(&c.cc.task));
}

/* ---- CCF, FailingCCF: Fibonacci with left and right completers ---- */

static void LCCF_completion(CheckedCC *self, CheckedCC *caller);
static void RCCF_completion(CheckedCC *self, CheckedCC *caller);
static void RFCCF_completion(CheckedCC *self, CheckedCC *caller);
static void CCF_compute(CheckedCC *self);
static void FailingCCF_compute(CheckedCC *self);

static CheckedCC *new_ccf(CheckedCC *parent, int n, void (*compute)(CheckedCC *),
                          void (*completion)(CheckedCC *, CheckedCC *))
{
    CheckedCC *a = tck_new(sizeof *a);
    CheckedCC_init(a, parent, 1, compute);
    a->completion = completion;
    a->number = n;
    return a;
}

static CheckedCC *LCCF(CheckedCC *parent, int n) { return new_ccf(parent, n, CCF_compute, LCCF_completion); }
static CheckedCC *RCCF(CheckedCC *parent, int n) { return new_ccf(parent, n, CCF_compute, RCCF_completion); }
static CheckedCC *LFCCF(CheckedCC *parent, int n) { return new_ccf(parent, n, FailingCCF_compute, LCCF_completion); }
static CheckedCC *RFCCF(CheckedCC *parent, int n) { return new_ccf(parent, n, FailingCCF_compute, RFCCF_completion); }

static void CCF_compute(CheckedCC *self)
{
    CheckedCC *f = self;
    int n = f->number;
    while (n >= 2) {
        CHECK_RC(0, fj_fork(&RCCF(f, n - 2)->cc.task));
        f = LCCF(f, --n);
    }
    CheckedCC_complete(f, NULL);
}

static void FailingCCF_compute(CheckedCC *self)
{
    CheckedCC *f = self;
    int n = f->number;
    while (n >= 2) {
        CHECK_RC(0, fj_fork(&RFCCF(f, n - 2)->cc.task));
        f = LFCCF(f, --n);
    }
    CheckedCC_complete(f, NULL);
}

static void LCCF_completion(CheckedCC *self, CheckedCC *caller)
{
    CheckedCC *p = (CheckedCC *)fj_cc_get_completer(&self->cc);
    int n = self->number + self->rnumber;
    if (p)
        p->number = n;
    else
        self->number = n;
}

static void RCCF_completion(CheckedCC *self, CheckedCC *caller)
{
    CheckedCC *p = (CheckedCC *)fj_cc_get_completer(&self->cc);
    int n = self->number + self->rnumber;
    if (p)
        p->rnumber = n;
    else
        self->number = n;
}

static void RFCCF_completion(CheckedCC *self, CheckedCC *caller)
{
    fj_cc_complete_exceptionally(&self->cc, FJ_EXCEPTION);
}

/* testInvokeOnPool(mainPool(), a), then the trees are freed */
static void run_on(fj_pool *pool, void (*body)(void))
{
    (void)FibAction_compute;  /* the shared header's FibAction: this file has CCF instead */
    RUN_ON(pool, body);
    tck_free_all();  /* the pool has terminated: no subtask walks the trees any more */
}

static void testInvoke_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_invoke(&f->cc.task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testInvoke(void) { run_on(mainPool(), testInvoke_body); }
static void testInvokeSingleton(void) { run_on(singletonPool(), testInvoke_body); }

static void testQuietlyInvoke_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    fj_task_quietly_invoke(&f->cc.task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testQuietlyInvoke(void) { run_on(mainPool(), testQuietlyInvoke_body); }
static void testQuietlyInvokeSingleton(void) { run_on(singletonPool(), testQuietlyInvoke_body); }

static void testForkJoin_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_join(&f->cc.task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkJoin(void) { run_on(mainPool(), testForkJoin_body); }
static void testForkJoinSingleton(void) { run_on(singletonPool(), testForkJoin_body); }

static void testForkGet_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_task_get(&f->cc.task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkGet(void) { run_on(mainPool(), testForkGet_body); }
static void testForkGetSingleton(void) { run_on(singletonPool(), testForkGet_body); }

static void testForkTimedGet_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(0, fj_task_get_timed(&f->cc.task, LONG_DELAY_NS));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkTimedGet(void) { run_on(mainPool(), testForkTimedGet_body); }
static void testForkTimedGetSingleton(void) { run_on(singletonPool(), testForkTimedGet_body); }

static void testForkQuietlyJoin_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkQuietlyJoin(void) { run_on(mainPool(), testForkQuietlyJoin_body); }
static void testForkQuietlyJoinSingleton(void) { run_on(singletonPool(), testForkQuietlyJoin_body); }

static void testForkHelpQuiesce_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_help_quiesce();
    while (!fj_task_is_done(&f->cc.task))  /* wait out race */
        ;
    assertEquals(21, f->number);
    assertEquals(0, fj_get_queued_task_count());
    checkCompletedNormally(&f->cc.task);
}
static void testForkHelpQuiesce(void) { run_on(mainPool(), testForkHelpQuiesce_body); }

static void testForkHelpQuiesceSingleton_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_help_quiesce();
    assertEquals(0, fj_get_queued_task_count());
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
}
static void testForkHelpQuiesceSingleton(void) { run_on(singletonPool(), testForkHelpQuiesceSingleton_body); }

static void testAbnormalInvoke_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    CHECK_RC(FJ_EXCEPTION, fj_invoke(&f->cc.task));
    checkCompletedAbnormallyCC(f, FJ_EXCEPTION);
}
static void testAbnormalInvoke(void) { run_on(mainPool(), testAbnormalInvoke_body); }
static void testAbnormalInvokeSingleton(void) { run_on(singletonPool(), testAbnormalInvoke_body); }

static void testAbnormalQuietlyInvoke_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    fj_task_quietly_invoke(&f->cc.task);
    assertTrue(fj_task_outcome(&f->cc.task) == FJ_EXCEPTION);
    checkCompletedAbnormallyCC(f, fj_task_outcome(&f->cc.task));
}
static void testAbnormalQuietlyInvoke(void) { run_on(mainPool(), testAbnormalQuietlyInvoke_body); }
static void testAbnormalQuietlyInvokeSingleton(void) { run_on(singletonPool(), testAbnormalQuietlyInvoke_body); }

static void testAbnormalForkJoin_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_EXCEPTION, fj_join(&f->cc.task));
    checkCompletedAbnormallyCC(f, FJ_EXCEPTION);
}
static void testAbnormalForkJoin(void) { run_on(mainPool(), testAbnormalForkJoin_body); }
static void testAbnormalForkJoinSingleton(void) { run_on(singletonPool(), testAbnormalForkJoin_body); }

static void testAbnormalForkGet_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_EXCEPTION, fj_task_get(&f->cc.task));
    checkCompletedAbnormallyCC(f, FJ_EXCEPTION);
}
static void testAbnormalForkGet(void) { run_on(mainPool(), testAbnormalForkGet_body); }
static void testAbnormalForkGetSingleton(void) { run_on(singletonPool(), testAbnormalForkGet_body); }

static void testAbnormalForkTimedGet_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_EXCEPTION, fj_task_get_timed(&f->cc.task, LONG_DELAY_NS));
    checkCompletedAbnormallyCC(f, FJ_EXCEPTION);
}
static void testAbnormalForkTimedGet(void) { run_on(mainPool(), testAbnormalForkTimedGet_body); }
static void testAbnormalForkTimedGetSingleton(void) { run_on(singletonPool(), testAbnormalForkTimedGet_body); }

static void testAbnormalForkQuietlyJoin_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    assertTrue(fj_task_outcome(&f->cc.task) == FJ_EXCEPTION);
    checkCompletedAbnormallyCC(f, fj_task_outcome(&f->cc.task));
}
static void testAbnormalForkQuietlyJoin(void) { run_on(mainPool(), testAbnormalForkQuietlyJoin_body); }
static void testAbnormalForkQuietlyJoinSingleton(void) { run_on(singletonPool(), testAbnormalForkQuietlyJoin_body); }

static void testCancelledInvoke_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledInvoke(void) { run_on(mainPool(), testCancelledInvoke_body); }
static void testCancelledInvokeSingleton(void) { run_on(singletonPool(), testCancelledInvoke_body); }

static void testCancelledForkJoin_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkJoin(void) { run_on(mainPool(), testCancelledForkJoin_body); }
static void testCancelledForkJoinSingleton(void) { run_on(singletonPool(), testCancelledForkJoin_body); }

static void testCancelledForkGet_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f->cc.task));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkGet(void) { run_on(mainPool(), testCancelledForkGet_body); }
static void testCancelledForkGetSingleton(void) { run_on(singletonPool(), testCancelledForkGet_body); }

static void testCancelledForkTimedGet_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f->cc.task, LONG_DELAY_NS));
    checkCancelled(&f->cc.task);
}
static void testCancelledForkTimedGet(void) { run_on(mainPool(), testCancelledForkTimedGet_body); }
static void testCancelledForkTimedGetSingleton(void) { run_on(singletonPool(), testCancelledForkTimedGet_body); }

static void testCancelledForkQuietlyJoin_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    assertTrue(CANCEL_IS_TRUE(&f->cc.task));
    CHECK_RC(0, fj_fork(&f->cc.task));
    fj_task_quietly_join(&f->cc.task);
    checkCancelled(&f->cc.task);
}
static void testCancelledForkQuietlyJoin(void) { run_on(mainPool(), testCancelledForkQuietlyJoin_body); }
static void testCancelledForkQuietlyJoinSingleton(void) { run_on(singletonPool(), testCancelledForkQuietlyJoin_body); }

static void testCompleteExceptionally2_body(void)
{
    CheckedCC *n = LCCF(NULL, 8);
    CheckedCC *f = LCCF(n, 8);
    CHECK_RC(0, fj_cc_complete_exceptionally(&f->cc, FJ_EXCEPTION));
    checkCompletedExceptionally(f, FJ_EXCEPTION);
    checkCompletedExceptionally(n, FJ_EXCEPTION);
}
static void testCompleteExceptionally2(void) { run_on(mainPool(), testCompleteExceptionally2_body); }
static void testCompleteExceptionallySingleton(void) { run_on(singletonPool(), testCompleteExceptionally2_body); }

static void testInvokeAll2_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_invoke_all2(&f->cc.task, &g->cc.task));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
}
static void testInvokeAll2(void) { run_on(mainPool(), testInvokeAll2_body); }
static void testInvokeAll2Singleton(void) { run_on(singletonPool(), testInvokeAll2_body); }

static void testInvokeAll1_body(void)
{
    CheckedCC *f = LCCF(NULL, 8);
    fj_task *tasks[] = {&f->cc.task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(&f->cc.task);
    assertEquals(21, f->number);
}
static void testInvokeAll1(void) { run_on(mainPool(), testInvokeAll1_body); }
static void testInvokeAll1Singleton(void) { run_on(singletonPool(), testInvokeAll1_body); }

static void testInvokeAll3_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    CHECK_RC(0, fj_invoke_all(tasks, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
    checkCompletedNormally(&h->cc.task);
}
static void testInvokeAll3(void) { run_on(mainPool(), testInvokeAll3_body); }
static void testInvokeAll3Singleton(void) { run_on(singletonPool(), testInvokeAll3_body); }

static void testAbnormalInvokeAll2_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LFCCF(NULL, 9);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all2(&f->cc.task, &g->cc.task));
    checkCompletedAbnormallyCC(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll2(void) { run_on(mainPool(), testAbnormalInvokeAll2_body); }
static void testAbnormalInvokeAll2Singleton(void) { run_on(singletonPool(), testAbnormalInvokeAll2_body); }

static void testAbnormalInvokeAll1_body(void)
{
    CheckedCC *g = LFCCF(NULL, 9);
    fj_task *tasks[] = {&g->cc.task};
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 1));
    checkCompletedAbnormallyCC(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll1(void) { run_on(mainPool(), testAbnormalInvokeAll1_body); }
static void testAbnormalInvokeAll1Singleton(void) { run_on(singletonPool(), testAbnormalInvokeAll1_body); }

static void testAbnormalInvokeAll3_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LFCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 3));
    checkCompletedAbnormallyCC(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll3(void) { run_on(mainPool(), testAbnormalInvokeAll3_body); }
static void testAbnormalInvokeAll3Singleton(void) { run_on(singletonPool(), testAbnormalInvokeAll3_body); }

static void testInvokeAllCollection_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *set[] = {&f->cc.task, &g->cc.task, &h->cc.task};  /* a HashSet: any order */
    CHECK_RC(0, fj_invoke_all(set, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
    checkCompletedNormally(&h->cc.task);
}
static void testInvokeAllCollection(void) { run_on(mainPool(), testInvokeAllCollection_body); }
static void testInvokeAllCollectionSingleton(void) { run_on(singletonPool(), testInvokeAllCollection_body); }

static void testInvokeAllNPE_body(void)
{
    CheckedCC *f = LCCF(NULL, 8), *g = LCCF(NULL, 9);
    fj_task *tasks[] = {&f->cc.task, &g->cc.task, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));  /* NullPointerException */
}
static void testInvokeAllNPE(void) { run_on(mainPool(), testInvokeAllNPE_body); }
static void testInvokeAllNPESingleton(void) { run_on(singletonPool(), testInvokeAllNPE_body); }

static void testAbnormalInvokeAllCollection_body(void)
{
    CheckedCC *f = LFCCF(NULL, 8), *g = LCCF(NULL, 9), *h = LCCF(NULL, 7);
    fj_task *set[] = {&f->cc.task, &g->cc.task, &h->cc.task};
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(set, 3));
    checkCompletedAbnormallyCC(f, FJ_EXCEPTION);
}
static void testAbnormalInvokeAllCollection(void) { run_on(mainPool(), testAbnormalInvokeAllCollection_body); }
static void testAbnormalInvokeAllCollectionSingleton(void)
{
    run_on(singletonPool(), testAbnormalInvokeAllCollection_body);
}

static fj_pool *the_main_pool;
static void testGetPool_body(void) { assertSame(the_main_pool, fj_get_pool()); }
static void testGetPool(void)
{
    the_main_pool = mainPool();
    run_on(the_main_pool, testGetPool_body);
}

static void testGetPool2_body(void) { assertNull(fj_get_pool()); }
static void testGetPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testGetPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testInForkJoinPool_body(void) { assertTrue(fj_in_pool()); }
static void testInForkJoinPool(void) { run_on(mainPool(), testInForkJoinPool_body); }

static void testInForkJoinPool2_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testTryUnfork_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertTrue(fj_task_try_unfork(&f->cc.task));
    fj_help_quiesce();
    checkNotDone(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
}
static void testTryUnfork(void) { run_on(singletonPool(), testTryUnfork_body); }

static void testGetSurplusQueuedTaskCount_body(void)
{
    CheckedCC *h = LCCF(NULL, 7);
    CHECK_RC(0, fj_fork(&h->cc.task));
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertTrue(fj_get_surplus_queued_task_count() > 0);
    fj_help_quiesce();
    assertEquals(0, fj_get_surplus_queued_task_count());
    checkCompletedNormally(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
    checkCompletedNormally(&h->cc.task);
}
static void testGetSurplusQueuedTaskCount(void) { run_on(singletonPool(), testGetSurplusQueuedTaskCount_body); }

static void testPeekNextLocalTask_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&f->cc.task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f->cc.task));
    checkCompletedNormally(&f->cc.task);
    fj_help_quiesce();
    checkCompletedNormally(&g->cc.task);
}
static void testPeekNextLocalTask(void) { run_on(singletonPool(), testPeekNextLocalTask_body); }

static void testPollNextLocalTask_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&f->cc.task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkNotDone(&f->cc.task);
    assertEquals(34, g->number);
    checkCompletedNormally(&g->cc.task);
}
static void testPollNextLocalTask(void) { run_on(singletonPool(), testPollNextLocalTask_body); }

static void testPollTask_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&f->cc.task, fj_poll_task());
    fj_help_quiesce();
    checkNotDone(&f->cc.task);
    checkCompletedNormally(&g->cc.task);
}
static void testPollTask(void) { run_on(singletonPool(), testPollTask_body); }

static void testPeekNextLocalTaskAsync_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&g->cc.task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f->cc.task));
    fj_help_quiesce();
    checkCompletedNormally(&f->cc.task);
    assertEquals(34, g->number);
    checkCompletedNormally(&g->cc.task);
}
static void testPeekNextLocalTaskAsync(void) { run_on(asyncSingletonPool(), testPeekNextLocalTaskAsync_body); }

static void testPollNextLocalTaskAsync_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&g->cc.task, fj_poll_next_local_task());
    fj_help_quiesce();
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
    checkNotDone(&g->cc.task);
}
static void testPollNextLocalTaskAsync(void) { run_on(asyncSingletonPool(), testPollNextLocalTaskAsync_body); }

static void testPollTaskAsync_body(void)
{
    CheckedCC *g = LCCF(NULL, 9);
    CHECK_RC(0, fj_fork(&g->cc.task));
    CheckedCC *f = LCCF(NULL, 8);
    CHECK_RC(0, fj_fork(&f->cc.task));
    assertSame(&g->cc.task, fj_poll_task());
    fj_help_quiesce();
    assertEquals(21, f->number);
    checkCompletedNormally(&f->cc.task);
    checkNotDone(&g->cc.task);
}
static void testPollTaskAsync(void) { run_on(asyncSingletonPool(), testPollTaskAsync_body); }

#define POOLED(name) {#name, name, CHECK_PER_WORKERS}, {#name "Singleton", name##Singleton, CHECK_ONCE}

static const check_case cases[] = {
    {"testComplete", testComplete, CHECK_ONCE},
    {"testCompleteExceptionally", testCompleteExceptionally, CHECK_ONCE},
    {"testSetPendingCount", testSetPendingCount, CHECK_ONCE},
    {"testAddToPendingCount", testAddToPendingCount, CHECK_ONCE},
    {"testDecrementPendingCountUnlessZero", testDecrementPendingCountUnlessZero, CHECK_ONCE},
    {"testCompareAndSetPendingCount", testCompareAndSetPendingCount, CHECK_ONCE},
    {"testGetCompleter", testGetCompleter, CHECK_ONCE},
    {"testGetRoot", testGetRoot, CHECK_ONCE},
    {"testTryComplete", testTryComplete, CHECK_ONCE},
    {"testPropagateCompletion", testPropagateCompletion, CHECK_ONCE},
    {"testFirstComplete", testFirstComplete, CHECK_ONCE},
    {"testNextComplete", testNextComplete, CHECK_ONCE},
    {"testQuietlyCompleteRoot", testQuietlyCompleteRoot, CHECK_ONCE},
    POOLED(testInvoke),
    POOLED(testQuietlyInvoke),
    POOLED(testForkJoin),
    POOLED(testForkGet),
    POOLED(testForkTimedGet),
    POOLED(testForkQuietlyJoin),
    POOLED(testForkHelpQuiesce),
    POOLED(testAbnormalInvoke),
    POOLED(testAbnormalQuietlyInvoke),
    POOLED(testAbnormalForkJoin),
    POOLED(testAbnormalForkGet),
    POOLED(testAbnormalForkTimedGet),
    POOLED(testAbnormalForkQuietlyJoin),
    POOLED(testCancelledInvoke),
    POOLED(testCancelledForkJoin),
    POOLED(testCancelledForkGet),
    POOLED(testCancelledForkTimedGet),
    POOLED(testCancelledForkQuietlyJoin),
    {"testCompleteExceptionally2", testCompleteExceptionally2, CHECK_PER_WORKERS},
    {"testCompleteExceptionallySingleton", testCompleteExceptionallySingleton, CHECK_ONCE},
    POOLED(testInvokeAll2),
    POOLED(testInvokeAll1),
    POOLED(testInvokeAll3),
    POOLED(testAbnormalInvokeAll2),
    POOLED(testAbnormalInvokeAll1),
    POOLED(testAbnormalInvokeAll3),
    POOLED(testInvokeAllCollection),
    POOLED(testInvokeAllNPE),
    POOLED(testAbnormalInvokeAllCollection),
    {"testGetPool", testGetPool, CHECK_PER_WORKERS},
    {"testGetPool2", testGetPool2, CHECK_ONCE},
    {"testInForkJoinPool", testInForkJoinPool, CHECK_PER_WORKERS},
    {"testInForkJoinPool2", testInForkJoinPool2, CHECK_ONCE},
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
