/* tck_fork_join_task.c - the JDK's ForkJoinTaskTest (JSR166 TCK), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept.
 * Its tasks are AsyncFib and FailingAsyncFib, BinaryAsyncActions: a body
 * forks subtasks and returns not complete (fj_task_not_complete, Java's
 * exec() returning false); the second child of a pair to complete (the
 * first only sets its parent's tag, compareAndSetForkJoinTaskTag) completes
 * the parent, up to the root.  From OpenJDK's test/jdk/java/util/concurrent/
 * tck/ForkJoinTaskTest.java (JDK 18).  Absent (docs/porting-from-java.md):
 * testForkTimedGetNPE and its Singleton (no TimeUnit to be null),
 * testSetRawResult (an action has no raw result),
 * testCompleteExceptionally_null (an error code is never null), the three
 * testAdapt_*_toString (no adapt, no toString).  The interrupts before a join
 * in the checks have no C counterpart; every join, get and check is kept
 * (tck_action_common.h). */
#include <time.h>
#include <unistd.h>

#include "tck_action_common.h"

/* ---- BinaryAsyncAction, AsyncFib and FailingAsyncFib ---- */

/* Java's `new AsyncFib(n)` nodes are garbage collected; here they come from an
 * arena that lives as long as the test's process (each case has its own), as
 * a leaf's body still returns after it completed itself. */
typedef struct BinaryAsyncAction {
    FJ_RECURSIVE_ACTION;
    struct BinaryAsyncAction *parent, *sibling;
    void (*onComplete)(struct BinaryAsyncAction *self, struct BinaryAsyncAction *x, struct BinaryAsyncAction *y);
    int number;  /* AsyncFib's and FailingAsyncFib's field */
} BinaryAsyncAction;
typedef BinaryAsyncAction AsyncFib;
typedef BinaryAsyncAction FailingAsyncFib;

enum { ARENA_NODES = 16384 };
static BinaryAsyncAction arena[ARENA_NODES];
static atomic_int arena_used;

static BinaryAsyncAction *new_node(fj_task_fn exec, void (*onComplete)(BinaryAsyncAction *, BinaryAsyncAction *, BinaryAsyncAction *), int n)
{
    int i = atomic_fetch_add(&arena_used, 1);
    CHECK(i < ARENA_NODES);
    BinaryAsyncAction *a = &arena[i];
    fj_task_init(&a->task, exec);
    a->parent = a->sibling = NULL;
    a->onComplete = onComplete;
    a->number = n;
    return a;
}

static void linkSubtasks(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    x->parent = y->parent = self;
    x->sibling = y;
    y->sibling = x;
}

/* BinaryAsyncAction.complete(): completes a, then, if a's sibling completed
 * first (the parent's tag was set by it), the parent after its onComplete,
 * and so on.  (Java clears parent and sibling for the collector; the nodes
 * here are never collected, so they stay.)  quietlyComplete's result is not
 * asked: as Java's complete(null), it does nothing on a task completed
 * exceptionally meanwhile. */
static void BinaryAsyncAction_complete(BinaryAsyncAction *a)
{
    for (;;) {
        BinaryAsyncAction *s = a->sibling, *p = a->parent;
        (void)fj_task_quietly_complete(&a->task);
        if (!p || fj_task_compare_and_set_tag(&p->task, 0, 1))
            break;
        p->onComplete(p, a, s);
        a = p;
    }
}

/* BinaryAsyncAction.completeExceptionally(ex): this node, its sibling (if not
 * done) and, in turn, every parent.  A node's error is the first one; a
 * later call on a complete node changes nothing (Java's completeExceptionally
 * on a done task). */
static void BinaryAsyncAction_completeExceptionally(BinaryAsyncAction *self, int ex)
{
    for (BinaryAsyncAction *a = self;;) {
        (void)fj_task_complete_exceptionally(&a->task, ex);
        BinaryAsyncAction *s = a->sibling;
        if (s && !fj_task_is_done(&s->task))
            BinaryAsyncAction_completeExceptionally(s, ex);
        if ((a = a->parent) == NULL)
            break;
    }
}

/* BinaryAsyncAction.cancel(b): a successful cancel also completes the node's
 * sibling and parents exceptionally.  Returns 0 (Java's true) or FJ_EINVAL. */
static int BinaryAsyncAction_cancel(BinaryAsyncAction *a)
{
    int rc = fj_task_cancel(&a->task);
    if (rc == 0)
        BinaryAsyncAction_completeExceptionally(a, FJ_EXCEPTION);
    return rc;
}

static void AsyncFib_onComplete(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    self->number = x->number + y->number;
}

static void FailingAsyncFib_onComplete(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    BinaryAsyncAction_completeExceptionally(self, FJ_EXCEPTION);
}

/* AsyncFib.exec() and FailingAsyncFib.exec(): fork the n-2 subtasks down the
 * n-1 chain, complete its last node, and return not complete. */
static int BinaryAsyncAction_exec(fj_task *t)
{
    BinaryAsyncAction *f = FJ_SELF(t, BinaryAsyncAction);
    int n = f->number;
    if (n > 1) {
        while (n > 1) {
            BinaryAsyncAction *p = f;
            BinaryAsyncAction *r = new_node(BinaryAsyncAction_exec, p->onComplete, n - 2);
            f = new_node(BinaryAsyncAction_exec, p->onComplete, --n);
            linkSubtasks(p, r, f);
            CHECK_RC(0, fj_fork(&r->task));
        }
        f->number = n;
    }
    BinaryAsyncAction_complete(f);
    return fj_task_not_complete(t);
}

/* ForkJoinTaskTest's checkCancelled: RecursiveActionTest's checks plus
 * cancel(false) and cancel(true) being true again (the override's). */
static void checkCancelledBAA(BinaryAsyncAction *a)
{
    checkCancelled(&a->task);
    assertTrue(BinaryAsyncAction_cancel(a) == 0);
    assertTrue(BinaryAsyncAction_cancel(a) == 0);
}

static AsyncFib *new_AsyncFib(int n) { return new_node(BinaryAsyncAction_exec, AsyncFib_onComplete, n); }
static FailingAsyncFib *new_FailingAsyncFib(int n) { return new_node(BinaryAsyncAction_exec, FailingAsyncFib_onComplete, n); }

/* JSR166TestCase.shuffle(array): a random order, new for each run. */
static void shuffle(fj_task **tasks, size_t count)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    unsigned seed = (unsigned)now.tv_nsec ^ (unsigned)getpid();
    for (size_t i = count; i > 1; i--) {
        size_t j = (size_t)rand_r(&seed) % i;
        fj_task *t = tasks[i - 1];
        tasks[i - 1] = tasks[j];
        tasks[j] = t;
    }
}

/* ---- the test methods ---- */

static void testInvoke_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_invoke(&f->task));  /* assertNull(f.invoke()) */
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testInvoke(void) { RUN_ON(mainPool(), testInvoke_body); }

static void testQuietlyInvoke_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    fj_task_quietly_invoke(&f->task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testQuietlyInvoke(void) { RUN_ON(mainPool(), testQuietlyInvoke_body); }

static void testForkJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));  /* assertSame(f, f.fork()) */
    CHECK_RC(0, fj_join(&f->task));  /* assertNull(f.join()) */
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testForkJoin(void) { RUN_ON(mainPool(), testForkJoin_body); }

static void testForkGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(0, fj_task_get(&f->task));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testForkGet(void) { RUN_ON(mainPool(), testForkGet_body); }

static void testForkTimedGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(0, fj_task_get_timed(&f->task, LONG_DELAY_NS));
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testForkTimedGet(void) { RUN_ON(mainPool(), testForkTimedGet_body); }

static void testForkQuietlyJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_task_quietly_join(&f->task);
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
}
static void testForkQuietlyJoin(void) { RUN_ON(mainPool(), testForkQuietlyJoin_body); }

static void testForkHelpQuiesce_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_help_quiesce();
    while (!fj_task_is_done(&f->task))  /* wait out race */
        sched_yield();
    assertEquals(21, f->number);
    assertEquals(0, fj_get_queued_task_count());
    checkCompletedNormally(&f->task);
}
static void testForkHelpQuiesce(void) { RUN_ON(mainPool(), testForkHelpQuiesce_body); }

static void testAbnormalInvoke_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(FJ_EXCEPTION, fj_invoke(&f->task));  /* catch (FJException success) */
    checkCompletedAbnormally(&f->task, FJ_EXCEPTION);
}
static void testAbnormalInvoke(void) { RUN_ON(mainPool(), testAbnormalInvoke_body); }

static void testAbnormalQuietlyInvoke_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    fj_task_quietly_invoke(&f->task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->task));  /* getException() instanceof FJException */
    checkCompletedAbnormally(&f->task, fj_task_outcome(&f->task));
}
static void testAbnormalQuietlyInvoke(void) { RUN_ON(mainPool(), testAbnormalQuietlyInvoke_body); }

static void testAbnormalForkJoin_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(FJ_EXCEPTION, fj_join(&f->task));
    checkCompletedAbnormally(&f->task, FJ_EXCEPTION);
}
static void testAbnormalForkJoin(void) { RUN_ON(mainPool(), testAbnormalForkJoin_body); }

static void testAbnormalForkGet_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    int cause = fj_task_get(&f->task);  /* ExecutionException's cause */
    assertEquals(FJ_EXCEPTION, cause);
    checkCompletedAbnormally(&f->task, cause);
}
static void testAbnormalForkGet(void) { RUN_ON(mainPool(), testAbnormalForkGet_body); }

static void testAbnormalForkTimedGet_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    int cause = fj_task_get_timed(&f->task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, cause);
    checkCompletedAbnormally(&f->task, cause);
}
static void testAbnormalForkTimedGet(void) { RUN_ON(mainPool(), testAbnormalForkTimedGet_body); }

static void testAbnormalForkQuietlyJoin_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_task_quietly_join(&f->task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->task));
    checkCompletedAbnormally(&f->task, fj_task_outcome(&f->task));
}
static void testAbnormalForkQuietlyJoin(void) { RUN_ON(mainPool(), testAbnormalForkQuietlyJoin_body); }

static void testCancelledInvoke_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    assertTrue(BinaryAsyncAction_cancel(f) == 0);
    CHECK_RC(FJ_ECANCELED, fj_invoke(&f->task));  /* CancellationException */
    checkCancelledBAA(f);
}
static void testCancelledInvoke(void) { RUN_ON(mainPool(), testCancelledInvoke_body); }

static void testCancelledForkJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    assertTrue(BinaryAsyncAction_cancel(f) == 0);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(FJ_ECANCELED, fj_join(&f->task));
    checkCancelledBAA(f);
}
static void testCancelledForkJoin(void) { RUN_ON(mainPool(), testCancelledForkJoin_body); }

static void testCancelledForkGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    assertTrue(BinaryAsyncAction_cancel(f) == 0);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(FJ_ECANCELED, fj_task_get(&f->task));
    checkCancelledBAA(f);
}
static void testCancelledForkGet(void) { RUN_ON(mainPool(), testCancelledForkGet_body); }

static void testCancelledForkTimedGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    assertTrue(BinaryAsyncAction_cancel(f) == 0);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(&f->task, LONG_DELAY_NS));
    checkCancelledBAA(f);
}
static void testCancelledForkTimedGet(void) { RUN_ON(mainPool(), testCancelledForkTimedGet_body); }

static void testCancelledForkQuietlyJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    assertTrue(BinaryAsyncAction_cancel(f) == 0);
    CHECK_RC(0, fj_fork(&f->task));
    fj_task_quietly_join(&f->task);
    checkCancelledBAA(f);
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
    CHECK_RC(0, fj_invoke(&a.task));  /* assertNull(a.invoke()), off any pool */
}

static void testInForkJoinPool_body(void) { assertTrue(fj_in_pool()); }
static void testInForkJoinPool(void) { RUN_ON(mainPool(), testInForkJoinPool_body); }

static void testInForkJoinPool2_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testCompleteExceptionally_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_task_complete_exceptionally(&f->task, FJ_EXCEPTION));
    CHECK_RC(FJ_EXCEPTION, fj_invoke(&f->task));
    checkCompletedAbnormally(&f->task, FJ_EXCEPTION);
}
static void testCompleteExceptionally(void) { RUN_ON(mainPool(), testCompleteExceptionally_body); }

static void testInvokeAll2_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *g = new_AsyncFib(9);
    CHECK_RC(0, fj_invoke_all2(&f->task, &g->task));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    checkCompletedNormally(&f->task);
    checkCompletedNormally(&g->task);
}
static void testInvokeAll2(void) { RUN_ON(mainPool(), testInvokeAll2_body); }

static void testInvokeAll1_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    fj_task *tasks[] = {&f->task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    checkCompletedNormally(&f->task);
    assertEquals(21, f->number);
}
static void testInvokeAll1(void) { RUN_ON(mainPool(), testInvokeAll1_body); }

static void testInvokeAll3_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *g = new_AsyncFib(9), *h = new_AsyncFib(7);
    fj_task *tasks[] = {&f->task, &g->task, &h->task};
    CHECK_RC(0, fj_invoke_all(tasks, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->task);
    checkCompletedNormally(&g->task);
    checkCompletedNormally(&h->task);
}
static void testInvokeAll3(void) { RUN_ON(mainPool(), testInvokeAll3_body); }

/* invokeAll(collection): a HashSet's order is unspecified; the array here. */
static void testInvokeAllCollection_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *g = new_AsyncFib(9), *h = new_AsyncFib(7);
    fj_task *set[] = {&f->task, &g->task, &h->task};
    CHECK_RC(0, fj_invoke_all(set, 3));
    assertEquals(21, f->number);
    assertEquals(34, g->number);
    assertEquals(13, h->number);
    checkCompletedNormally(&f->task);
    checkCompletedNormally(&g->task);
    checkCompletedNormally(&h->task);
}
static void testInvokeAllCollection(void) { RUN_ON(mainPool(), testInvokeAllCollection_body); }

static void testInvokeAllNPE_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *g = new_AsyncFib(9);
    fj_task *tasks[] = {&f->task, &g->task, NULL};  /* AsyncFib h = null */
    CHECK_RC(FJ_EINVAL, fj_invoke_all(tasks, 3));   /* NullPointerException */
}
static void testInvokeAllNPE(void) { RUN_ON(mainPool(), testInvokeAllNPE_body); }

static void testAbnormalInvokeAll2_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&f->task, &g->task};
    shuffle(tasks, 2);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 2));
    checkCompletedAbnormally(&g->task, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll2(void) { RUN_ON(mainPool(), testAbnormalInvokeAll2_body); }

static void testAbnormalInvokeAll1_body(void)
{
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&g->task};
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 1));
    checkCompletedAbnormally(&g->task, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll1(void) { RUN_ON(mainPool(), testAbnormalInvokeAll1_body); }

static void testAbnormalInvokeAll3_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *h = new_AsyncFib(7);
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&f->task, &g->task, &h->task};
    shuffle(tasks, 3);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 3));
    checkCompletedAbnormally(&g->task, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll3(void) { RUN_ON(mainPool(), testAbnormalInvokeAll3_body); }

static void testAbnormalInvokeAllCollection_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    AsyncFib *g = new_AsyncFib(9), *h = new_AsyncFib(7);
    fj_task *tasks[] = {&f->task, &g->task, &h->task};
    shuffle(tasks, 3);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 3));  /* invokeAll(Arrays.asList(tasks)) */
    checkCompletedAbnormally(&f->task, FJ_EXCEPTION);
}
static void testAbnormalInvokeAllCollection(void) { RUN_ON(mainPool(), testAbnormalInvokeAllCollection_body); }

static void testTryUnfork_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertTrue(fj_task_try_unfork(&f->task));
    fj_help_quiesce();
    checkNotDone(&f->task);
    checkCompletedNormally(&g->task);
}
static void testTryUnfork(void) { RUN_ON(singletonPool(), testTryUnfork_body); }

static void testGetSurplusQueuedTaskCount_body(void)
{
    AsyncFib *h = new_AsyncFib(7);
    CHECK_RC(0, fj_fork(&h->task));
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertTrue(fj_get_surplus_queued_task_count() > 0);
    fj_help_quiesce();
    assertEquals(0, fj_get_surplus_queued_task_count());
    checkCompletedNormally(&f->task);
    checkCompletedNormally(&g->task);
    checkCompletedNormally(&h->task);
}
static void testGetSurplusQueuedTaskCount(void) { RUN_ON(singletonPool(), testGetSurplusQueuedTaskCount_body); }

static void testPeekNextLocalTask_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&f->task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f->task));
    checkCompletedNormally(&f->task);
    fj_help_quiesce();
    checkCompletedNormally(&g->task);
}
static void testPeekNextLocalTask(void) { RUN_ON(singletonPool(), testPeekNextLocalTask_body); }

static void testPollNextLocalTask_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&f->task, fj_poll_next_local_task());
    fj_help_quiesce();
    checkNotDone(&f->task);
    assertEquals(34, g->number);
    checkCompletedNormally(&g->task);
}
static void testPollNextLocalTask(void) { RUN_ON(singletonPool(), testPollNextLocalTask_body); }

static void testPollTask_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&f->task, fj_poll_task());
    fj_help_quiesce();
    checkNotDone(&f->task);
    checkCompletedNormally(&g->task);
}
static void testPollTask(void) { RUN_ON(singletonPool(), testPollTask_body); }

static void testPeekNextLocalTaskAsync_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&g->task, fj_peek_next_local_task());
    CHECK_RC(0, fj_join(&f->task));
    fj_help_quiesce();
    checkCompletedNormally(&f->task);
    assertEquals(34, g->number);
    checkCompletedNormally(&g->task);
}
static void testPeekNextLocalTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPeekNextLocalTaskAsync_body); }

static void testPollNextLocalTaskAsync_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&g->task, fj_poll_next_local_task());
    fj_help_quiesce();
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
    checkNotDone(&g->task);
}
static void testPollNextLocalTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPollNextLocalTaskAsync_body); }

static void testPollTaskAsync_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertSame(&g->task, fj_poll_task());
    fj_help_quiesce();
    assertEquals(21, f->number);
    checkCompletedNormally(&f->task);
    checkNotDone(&g->task);
}
static void testPollTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPollTaskAsync_body); }

static void testQuietlyComplete_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_task_quietly_complete(&f->task));
    assertEquals(8, f->number);
    checkCompletedNormally(&f->task);
}
static void testQuietlyComplete(void) { RUN_ON(mainPool(), testQuietlyComplete_body); }

/* ---- the versions for singleton pools: the same bodies on new ForkJoinPool(1) ---- */

static void testInvokeSingleton(void) { RUN_ON(singletonPool(), testInvoke_body); }
static void testQuietlyInvokeSingleton(void) { RUN_ON(singletonPool(), testQuietlyInvoke_body); }
static void testForkJoinSingleton(void) { RUN_ON(singletonPool(), testForkJoin_body); }
static void testForkGetSingleton(void) { RUN_ON(singletonPool(), testForkGet_body); }
static void testForkTimedGetSingleton(void) { RUN_ON(singletonPool(), testForkTimedGet_body); }
static void testForkQuietlyJoinSingleton(void) { RUN_ON(singletonPool(), testForkQuietlyJoin_body); }
static void testForkHelpQuiesceSingleton(void) { RUN_ON(singletonPool(), testForkHelpQuiesce_body); }
static void testAbnormalInvokeSingleton(void) { RUN_ON(singletonPool(), testAbnormalInvoke_body); }
static void testAbnormalQuietlyInvokeSingleton(void) { RUN_ON(singletonPool(), testAbnormalQuietlyInvoke_body); }
static void testAbnormalForkJoinSingleton(void) { RUN_ON(singletonPool(), testAbnormalForkJoin_body); }
static void testAbnormalForkGetSingleton(void) { RUN_ON(singletonPool(), testAbnormalForkGet_body); }
static void testAbnormalForkTimedGetSingleton(void) { RUN_ON(singletonPool(), testAbnormalForkTimedGet_body); }
static void testAbnormalForkQuietlyJoinSingleton(void) { RUN_ON(singletonPool(), testAbnormalForkQuietlyJoin_body); }
static void testCancelledInvokeSingleton(void) { RUN_ON(singletonPool(), testCancelledInvoke_body); }
static void testCancelledForkJoinSingleton(void) { RUN_ON(singletonPool(), testCancelledForkJoin_body); }
static void testCancelledForkGetSingleton(void) { RUN_ON(singletonPool(), testCancelledForkGet_body); }
static void testCancelledForkTimedGetSingleton(void) { RUN_ON(singletonPool(), testCancelledForkTimedGet_body); }
static void testCancelledForkQuietlyJoinSingleton(void) { RUN_ON(singletonPool(), testCancelledForkQuietlyJoin_body); }
static void testCompleteExceptionallySingleton(void) { RUN_ON(singletonPool(), testCompleteExceptionally_body); }
static void testInvokeAll2Singleton(void) { RUN_ON(singletonPool(), testInvokeAll2_body); }
static void testInvokeAll1Singleton(void) { RUN_ON(singletonPool(), testInvokeAll1_body); }
static void testInvokeAll3Singleton(void) { RUN_ON(singletonPool(), testInvokeAll3_body); }
static void testInvokeAllCollectionSingleton(void) { RUN_ON(singletonPool(), testInvokeAllCollection_body); }
static void testInvokeAllNPESingleton(void) { RUN_ON(singletonPool(), testInvokeAllNPE_body); }
static void testAbnormalInvokeAll2Singleton(void) { RUN_ON(singletonPool(), testAbnormalInvokeAll2_body); }
static void testAbnormalInvokeAll1Singleton(void) { RUN_ON(singletonPool(), testAbnormalInvokeAll1_body); }
static void testAbnormalInvokeAll3Singleton(void) { RUN_ON(singletonPool(), testAbnormalInvokeAll3_body); }
static void testAbnormalInvokeAllCollectionSingleton(void) { RUN_ON(singletonPool(), testAbnormalInvokeAllCollection_body); }

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
    {"testCompleteExceptionally", testCompleteExceptionally, CHECK_PER_WORKERS},
    {"testInvokeAll2", testInvokeAll2, CHECK_PER_WORKERS},
    {"testInvokeAll1", testInvokeAll1, CHECK_PER_WORKERS},
    {"testInvokeAll3", testInvokeAll3, CHECK_PER_WORKERS},
    {"testInvokeAllCollection", testInvokeAllCollection, CHECK_PER_WORKERS},
    {"testInvokeAllNPE", testInvokeAllNPE, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll2", testAbnormalInvokeAll2, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll1", testAbnormalInvokeAll1, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll3", testAbnormalInvokeAll3, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAllCollection", testAbnormalInvokeAllCollection, CHECK_PER_WORKERS},
    {"testTryUnfork", testTryUnfork, CHECK_PER_WORKERS},
    {"testGetSurplusQueuedTaskCount", testGetSurplusQueuedTaskCount, CHECK_PER_WORKERS},
    {"testPeekNextLocalTask", testPeekNextLocalTask, CHECK_PER_WORKERS},
    {"testPollNextLocalTask", testPollNextLocalTask, CHECK_PER_WORKERS},
    {"testPollTask", testPollTask, CHECK_PER_WORKERS},
    {"testPeekNextLocalTaskAsync", testPeekNextLocalTaskAsync, CHECK_PER_WORKERS},
    {"testPollNextLocalTaskAsync", testPollNextLocalTaskAsync, CHECK_PER_WORKERS},
    {"testPollTaskAsync", testPollTaskAsync, CHECK_PER_WORKERS},
    {"testQuietlyComplete", testQuietlyComplete, CHECK_PER_WORKERS},
    {"testInvokeSingleton", testInvokeSingleton, CHECK_PER_WORKERS},
    {"testQuietlyInvokeSingleton", testQuietlyInvokeSingleton, CHECK_PER_WORKERS},
    {"testForkJoinSingleton", testForkJoinSingleton, CHECK_PER_WORKERS},
    {"testForkGetSingleton", testForkGetSingleton, CHECK_PER_WORKERS},
    {"testForkTimedGetSingleton", testForkTimedGetSingleton, CHECK_PER_WORKERS},
    {"testForkQuietlyJoinSingleton", testForkQuietlyJoinSingleton, CHECK_PER_WORKERS},
    {"testForkHelpQuiesceSingleton", testForkHelpQuiesceSingleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeSingleton", testAbnormalInvokeSingleton, CHECK_PER_WORKERS},
    {"testAbnormalQuietlyInvokeSingleton", testAbnormalQuietlyInvokeSingleton, CHECK_PER_WORKERS},
    {"testAbnormalForkJoinSingleton", testAbnormalForkJoinSingleton, CHECK_PER_WORKERS},
    {"testAbnormalForkGetSingleton", testAbnormalForkGetSingleton, CHECK_PER_WORKERS},
    {"testAbnormalForkTimedGetSingleton", testAbnormalForkTimedGetSingleton, CHECK_PER_WORKERS},
    {"testAbnormalForkQuietlyJoinSingleton", testAbnormalForkQuietlyJoinSingleton, CHECK_PER_WORKERS},
    {"testCancelledInvokeSingleton", testCancelledInvokeSingleton, CHECK_PER_WORKERS},
    {"testCancelledForkJoinSingleton", testCancelledForkJoinSingleton, CHECK_PER_WORKERS},
    {"testCancelledForkGetSingleton", testCancelledForkGetSingleton, CHECK_PER_WORKERS},
    {"testCancelledForkTimedGetSingleton", testCancelledForkTimedGetSingleton, CHECK_PER_WORKERS},
    {"testCancelledForkQuietlyJoinSingleton", testCancelledForkQuietlyJoinSingleton, CHECK_PER_WORKERS},
    {"testCompleteExceptionallySingleton", testCompleteExceptionallySingleton, CHECK_PER_WORKERS},
    {"testInvokeAll2Singleton", testInvokeAll2Singleton, CHECK_PER_WORKERS},
    {"testInvokeAll1Singleton", testInvokeAll1Singleton, CHECK_PER_WORKERS},
    {"testInvokeAll3Singleton", testInvokeAll3Singleton, CHECK_PER_WORKERS},
    {"testInvokeAllCollectionSingleton", testInvokeAllCollectionSingleton, CHECK_PER_WORKERS},
    {"testInvokeAllNPESingleton", testInvokeAllNPESingleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll2Singleton", testAbnormalInvokeAll2Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll1Singleton", testAbnormalInvokeAll1Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll3Singleton", testAbnormalInvokeAll3Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAllCollectionSingleton", testAbnormalInvokeAllCollectionSingleton, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
