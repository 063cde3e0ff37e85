/* tck_fork_join_task8.c - the JDK's ForkJoinTask8Test (JSR166 TCK, OpenJDK
 * 18's test/jdk/java/util/concurrent/tck/ForkJoinTask8Test.java), ported to
 * fj_java.h: one function per Java test method, same name, assertions kept.
 * Its BinaryAsyncAction keeps its control state in the task tag
 * (fj_task_get_tag / fj_task_set_tag / fj_task_compare_and_set_tag): INITIAL
 * until completed, then COMPLETE or EXCEPTION.  A body returns not complete
 * (fj_task_not_complete, Java's exec() false).  Java's testX(ForkJoinPool)
 * helpers are testX_on here.  Absent (docs/porting-from-java.md):
 * testForkTimedGetNullTimeUnit (no TimeUnit; its _Singleton runs
 * testForkTimedGet in Java and is ported so), testSetRawResult,
 * testPollSubmission (pollSubmission is protected in Java and absent here). */
#include <time.h>
#include <unistd.h>

#include "tck_action_common.h"

enum { INITIAL_STATE = -1, COMPLETE_STATE = 0, EXCEPTION_STATE = 1 };

static const int fib[10] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34};

typedef struct BinaryAsyncAction {
    FJ_RECURSIVE_ACTION;
    struct BinaryAsyncAction *parent, *sibling;
    void (*onComplete)(struct BinaryAsyncAction *self, struct BinaryAsyncAction *x, struct BinaryAsyncAction *y);
    int number;
    int expectedResult;  /* AsyncFib's */
} BinaryAsyncAction;
typedef BinaryAsyncAction AsyncFib;
typedef BinaryAsyncAction FailingAsyncFib;

/* The garbage-collected `new AsyncFib(n)` of Java: an arena as long as the
 * process (each case runs in its own); the links stay set once made. */
enum { ARENA_NODES = 16384 };
static BinaryAsyncAction arena[ARENA_NODES];
static atomic_int arena_used;

static BinaryAsyncAction *new_node(fj_task_fn exec, void (*onComplete)(BinaryAsyncAction *, BinaryAsyncAction *, BinaryAsyncAction *), int n)
{
    int i = atomic_fetch_add(&arena_used, 1);
    CHECK(i < ARENA_NODES);
    BinaryAsyncAction *a = &arena[i];
    fj_task_init(&a->task, exec);
    (void)fj_task_set_tag(&a->task, INITIAL_STATE);  /* the constructor's setForkJoinTaskTag */
    a->parent = a->sibling = NULL;
    a->onComplete = onComplete;
    a->number = n;
    a->expectedResult = n >= 0 && n < 10 ? fib[n] : 0;
    return a;
}

static void linkSubtasks(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    x->parent = y->parent = self;
    x->sibling = y;
    y->sibling = x;
}

static void completeThis(BinaryAsyncAction *a)
{
    (void)fj_task_set_tag(&a->task, COMPLETE_STATE);
    (void)fj_task_quietly_complete(&a->task);  /* complete(null): nothing on a done task */
}

static void completeThisExceptionally(BinaryAsyncAction *a, int ex)
{
    (void)fj_task_set_tag(&a->task, EXCEPTION_STATE);
    (void)fj_task_complete_exceptionally(&a->task, ex);
}

/* BinaryAsyncAction.onComplete: fails the parent unless all three completed. */
static void BinaryAsyncAction_onComplete(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    if (fj_task_get_tag(&self->task) != COMPLETE_STATE || fj_task_get_tag(&x->task) != COMPLETE_STATE ||
        fj_task_get_tag(&y->task) != COMPLETE_STATE)
        completeThisExceptionally(self, FJ_EXCEPTION);
}

static void BinaryAsyncAction_complete(BinaryAsyncAction *a)
{
    for (;;) {
        BinaryAsyncAction *s = a->sibling, *p = a->parent;
        completeThis(a);
        if (!p || fj_task_compare_and_set_tag(&p->task, INITIAL_STATE, COMPLETE_STATE))
            break;
        p->onComplete(p, a, s);
        a = p;
    }
}

static void BinaryAsyncAction_completeExceptionally(BinaryAsyncAction *self, int ex)
{
    for (BinaryAsyncAction *a = self;;) {
        completeThisExceptionally(a, ex);
        BinaryAsyncAction *s = a->sibling;
        if (s && !fj_task_is_done(&s->task))
            BinaryAsyncAction_completeExceptionally(s, ex);
        if ((a = a->parent) == NULL)
            break;
    }
}

static void AsyncFib_onComplete(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    self->number = x->number + y->number;
    BinaryAsyncAction_onComplete(self, x, y);
}

static void FailingAsyncFib_onComplete(BinaryAsyncAction *self, BinaryAsyncAction *x, BinaryAsyncAction *y)
{
    BinaryAsyncAction_completeExceptionally(self, FJ_EXCEPTION);
}

/* exec() of both: C has no exception to catch; a node whose tag says
 * EXCEPTION throws FJException (returns its code), else not complete. */
static int BinaryAsyncAction_exec(fj_task *t)
{
    BinaryAsyncAction *f = FJ_SELF(t, BinaryAsyncAction);
    int n = f->number;
    while (n > 1) {
        BinaryAsyncAction *p = f;
        BinaryAsyncAction *r = new_node(BinaryAsyncAction_exec, p->onComplete, n - 2);
        f = new_node(BinaryAsyncAction_exec, p->onComplete, --n);
        linkSubtasks(p, r, f);
        CHECK_RC(0, fj_fork(&r->task));
    }
    BinaryAsyncAction_complete(f);
    if (fj_task_get_tag(t) == EXCEPTION_STATE)
        return FJ_EXCEPTION;
    return fj_task_not_complete(t);
}

static AsyncFib *new_AsyncFib(int n) { return new_node(BinaryAsyncAction_exec, AsyncFib_onComplete, n); }
static FailingAsyncFib *new_FailingAsyncFib(int n) { return new_node(BinaryAsyncAction_exec, FailingAsyncFib_onComplete, n); }

/* The checks of this file: RecursiveActionTest's plus the tag. */
static void checkNotDoneBAA(BinaryAsyncAction *a)
{
    checkNotDone(&a->task);
    assertEquals(INITIAL_STATE, fj_task_get_tag(&a->task));
}

static void checkCompletedAbnormallyBAA(BinaryAsyncAction *a, int error)
{
    checkCompletedAbnormally(&a->task, error);
    assertTrue(fj_task_get_tag(&a->task) != INITIAL_STATE);
}

/* AsyncFib.checkCompletedNormally() */
static void AsyncFib_checkCompletedNormally(AsyncFib *a)
{
    assertEquals(a->expectedResult, a->number);
    assertEquals(COMPLETE_STATE, fj_task_get_tag(&a->task));
    checkCompletedNormally(&a->task);
}

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

#define POOL_PAIR(name)                                                                        \
    static void name(void) { name##_on(mainPool()); }                                          \
    static void name##_Singleton(void) { name##_on(singletonPool()); }

static void testInvoke_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_invoke(&f->task));
    AsyncFib_checkCompletedNormally(f);
}
static void testInvoke_on(fj_pool *pool) { RUN_ON(pool, testInvoke_body); }
POOL_PAIR(testInvoke)

static void testQuietlyInvoke_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    fj_task_quietly_invoke(&f->task);
    AsyncFib_checkCompletedNormally(f);
}
static void testQuietlyInvoke_on(fj_pool *pool) { RUN_ON(pool, testQuietlyInvoke_body); }
POOL_PAIR(testQuietlyInvoke)

static void testForkJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(0, fj_join(&f->task));
    AsyncFib_checkCompletedNormally(f);
}
static void testForkJoin_on(fj_pool *pool) { RUN_ON(pool, testForkJoin_body); }
POOL_PAIR(testForkJoin)

static void testForkGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(0, fj_task_get(&f->task));
    AsyncFib_checkCompletedNormally(f);
}
static void testForkGet_on(fj_pool *pool) { RUN_ON(pool, testForkGet_body); }
POOL_PAIR(testForkGet)

static void testForkTimedGet_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(0, fj_task_get_timed(&f->task, LONG_DELAY_NS));
    AsyncFib_checkCompletedNormally(f);
}
static void testForkTimedGet_on(fj_pool *pool) { RUN_ON(pool, testForkTimedGet_body); }
POOL_PAIR(testForkTimedGet)

/* Java's testForkTimedGetNullTimeUnit_Singleton calls testForkTimedGet. */
static void testForkTimedGetNullTimeUnit_Singleton(void) { testForkTimedGet_on(singletonPool()); }

static void testForkQuietlyJoin_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_task_quietly_join(&f->task);
    AsyncFib_checkCompletedNormally(f);
}
static void testForkQuietlyJoin_on(fj_pool *pool) { RUN_ON(pool, testForkQuietlyJoin_body); }
POOL_PAIR(testForkQuietlyJoin)

static void testForkHelpQuiesce_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_help_quiesce();
    while (!fj_task_is_done(&f->task))  /* wait out race */
        sched_yield();
    assertEquals(0, fj_get_queued_task_count());
    AsyncFib_checkCompletedNormally(f);
}
static void testForkHelpQuiesce_on(fj_pool *pool) { RUN_ON(pool, testForkHelpQuiesce_body); }
POOL_PAIR(testForkHelpQuiesce)

static void testAbnormalInvoke_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(FJ_EXCEPTION, fj_invoke(&f->task));
    checkCompletedAbnormallyBAA(f, FJ_EXCEPTION);
}
static void testAbnormalInvoke_on(fj_pool *pool) { RUN_ON(pool, testAbnormalInvoke_body); }
POOL_PAIR(testAbnormalInvoke)

static void testAbnormalQuietlyInvoke_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    fj_task_quietly_invoke(&f->task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->task));
    checkCompletedAbnormallyBAA(f, fj_task_outcome(&f->task));
}
static void testAbnormalQuietlyInvoke_on(fj_pool *pool) { RUN_ON(pool, testAbnormalQuietlyInvoke_body); }
POOL_PAIR(testAbnormalQuietlyInvoke)

static void testAbnormalForkJoin_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    CHECK_RC(FJ_EXCEPTION, fj_join(&f->task));
    checkCompletedAbnormallyBAA(f, FJ_EXCEPTION);
}
static void testAbnormalForkJoin_on(fj_pool *pool) { RUN_ON(pool, testAbnormalForkJoin_body); }
POOL_PAIR(testAbnormalForkJoin)

static void testAbnormalForkGet_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    int cause = fj_task_get(&f->task);
    assertEquals(FJ_EXCEPTION, cause);
    checkCompletedAbnormallyBAA(f, cause);
}
static void testAbnormalForkGet_on(fj_pool *pool) { RUN_ON(pool, testAbnormalForkGet_body); }
static void testAbnormalForkGet(void) { testAbnormalForkGet_on(mainPool()); }
/* Java's testAbnormalForkGet_Singleton calls testAbnormalForkJoin. */
static void testAbnormalForkGet_Singleton(void) { testAbnormalForkJoin_on(singletonPool()); }

static void testAbnormalForkTimedGet_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    int cause = fj_task_get_timed(&f->task, LONG_DELAY_NS);
    assertEquals(FJ_EXCEPTION, cause);
    checkCompletedAbnormallyBAA(f, cause);
}
static void testAbnormalForkTimedGet_on(fj_pool *pool) { RUN_ON(pool, testAbnormalForkTimedGet_body); }
POOL_PAIR(testAbnormalForkTimedGet)

static void testAbnormalForkQuietlyJoin_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    fj_task_quietly_join(&f->task);
    assertEquals(FJ_EXCEPTION, fj_task_outcome(&f->task));
    checkCompletedAbnormallyBAA(f, fj_task_outcome(&f->task));
}
static void testAbnormalForkQuietlyJoin_on(fj_pool *pool) { RUN_ON(pool, testAbnormalForkQuietlyJoin_body); }
POOL_PAIR(testAbnormalForkQuietlyJoin)

static fj_pool *the_pool;
static void testGetPool_body(void) { assertSame(the_pool, fj_get_pool()); }
static void testGetPool_on(fj_pool *pool)
{
    the_pool = pool;
    RUN_ON(pool, testGetPool_body);
}
POOL_PAIR(testGetPool)

static void testGetPool2_body(void) { assertNull(fj_get_pool()); }
static void testGetPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testGetPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testInForkJoinPool_body(void) { assertTrue(fj_in_pool()); }
static void testInForkJoinPool_on(fj_pool *pool) { RUN_ON(pool, testInForkJoinPool_body); }
POOL_PAIR(testInForkJoinPool)

static void testInForkJoinPool2_body(void) { assertFalse(fj_in_pool()); }
static void testInForkJoinPool2(void)
{
    CheckedRecursiveAction a = CHECKED_RECURSIVE_ACTION(testInForkJoinPool2_body);
    CHECK_RC(0, fj_invoke(&a.task));
}

static void testCompleteExceptionally_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    BinaryAsyncAction_completeExceptionally(f, FJ_EXCEPTION);
    CHECK_RC(FJ_EXCEPTION, fj_invoke(&f->task));
    checkCompletedAbnormallyBAA(f, FJ_EXCEPTION);
}
static void testCompleteExceptionally_on(fj_pool *pool) { RUN_ON(pool, testCompleteExceptionally_body); }
POOL_PAIR(testCompleteExceptionally)

static void testInvokeAll1_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    fj_task *tasks[] = {&f->task};
    CHECK_RC(0, fj_invoke_all(tasks, 1));
    AsyncFib_checkCompletedNormally(f);
}
static void testInvokeAll1_on(fj_pool *pool) { RUN_ON(pool, testInvokeAll1_body); }
POOL_PAIR(testInvokeAll1)

static void testInvokeAll2_body(void)
{
    AsyncFib *tasks[] = {new_AsyncFib(8), new_AsyncFib(9)};
    CHECK_RC(0, fj_invoke_all2(&tasks[0]->task, &tasks[1]->task));
    for (int i = 0; i < 2; i++)
        assertTrue(fj_task_is_done(&tasks[i]->task));
    for (int i = 0; i < 2; i++)
        AsyncFib_checkCompletedNormally(tasks[i]);
}
static void testInvokeAll2_on(fj_pool *pool) { RUN_ON(pool, testInvokeAll2_body); }
POOL_PAIR(testInvokeAll2)

static void testInvokeAll3_body(void)
{
    AsyncFib *tasks[] = {new_AsyncFib(8), new_AsyncFib(9), new_AsyncFib(7)};
    fj_task *all[] = {&tasks[0]->task, &tasks[1]->task, &tasks[2]->task};
    CHECK_RC(0, fj_invoke_all(all, 3));
    for (int i = 0; i < 3; i++)
        assertTrue(fj_task_is_done(&tasks[i]->task));
    for (int i = 0; i < 3; i++)
        AsyncFib_checkCompletedNormally(tasks[i]);
}
static void testInvokeAll3_on(fj_pool *pool) { RUN_ON(pool, testInvokeAll3_body); }
POOL_PAIR(testInvokeAll3)

static void testInvokeAllCollection_body(void)
{
    AsyncFib *tasks[] = {new_AsyncFib(8), new_AsyncFib(9), new_AsyncFib(7)};
    fj_task *list[] = {&tasks[0]->task, &tasks[1]->task, &tasks[2]->task};  /* Arrays.asList(tasks) */
    CHECK_RC(0, fj_invoke_all(list, 3));
    for (int i = 0; i < 3; i++)
        assertTrue(fj_task_is_done(&tasks[i]->task));
    for (int i = 0; i < 3; i++)
        AsyncFib_checkCompletedNormally(tasks[i]);
}
static void testInvokeAllCollection_on(fj_pool *pool) { RUN_ON(pool, testInvokeAllCollection_body); }
POOL_PAIR(testInvokeAllCollection)

/* Each invokeAll with a null task throws NullPointerException (FJ_EINVAL),
 * the two-task form included (the array form here: fj_invoke_all2 takes no
 * NULL). */
static void testInvokeAllNullTask_body(void)
{
    fj_task *one[] = {NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(one, 1));
    fj_task *two[] = {NULL, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(two, 2));
    fj_task *last[] = {&new_AsyncFib(8)->task, &new_AsyncFib(9)->task, NULL};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(last, 3));
    fj_task *middle[] = {&new_AsyncFib(8)->task, NULL, &new_AsyncFib(9)->task};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(middle, 3));
    fj_task *first[] = {NULL, &new_AsyncFib(8)->task, &new_AsyncFib(9)->task};
    CHECK_RC(FJ_EINVAL, fj_invoke_all(first, 3));
}
static void testInvokeAllNullTask_on(fj_pool *pool) { RUN_ON(pool, testInvokeAllNullTask_body); }
POOL_PAIR(testInvokeAllNullTask)

static void testAbnormalInvokeAll1_body(void)
{
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&g->task};
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 1));
    checkCompletedAbnormallyBAA(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll1_on(fj_pool *pool) { RUN_ON(pool, testAbnormalInvokeAll1_body); }
POOL_PAIR(testAbnormalInvokeAll1)

static void testAbnormalInvokeAll2_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&f->task, &g->task};
    shuffle(tasks, 2);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all2(tasks[0], tasks[1]));
    checkCompletedAbnormallyBAA(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll2_on(fj_pool *pool) { RUN_ON(pool, testAbnormalInvokeAll2_body); }
POOL_PAIR(testAbnormalInvokeAll2)

static void testAbnormalInvokeAll3_body(void)
{
    AsyncFib *f = new_AsyncFib(8), *h = new_AsyncFib(7);
    FailingAsyncFib *g = new_FailingAsyncFib(9);
    fj_task *tasks[] = {&f->task, &g->task, &h->task};
    shuffle(tasks, 3);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 3));
    checkCompletedAbnormallyBAA(g, FJ_EXCEPTION);
}
static void testAbnormalInvokeAll3_on(fj_pool *pool) { RUN_ON(pool, testAbnormalInvokeAll3_body); }
POOL_PAIR(testAbnormalInvokeAll3)

static void testAbnormalInvokeAllCollection_body(void)
{
    FailingAsyncFib *f = new_FailingAsyncFib(8);
    AsyncFib *g = new_AsyncFib(9), *h = new_AsyncFib(7);
    fj_task *tasks[] = {&f->task, &g->task, &h->task};
    shuffle(tasks, 3);
    CHECK_RC(FJ_EXCEPTION, fj_invoke_all(tasks, 3));
    checkCompletedAbnormallyBAA(f, FJ_EXCEPTION);
}
static void testAbnormalInvokeAllCollection_on(fj_pool *pool) { RUN_ON(pool, testAbnormalInvokeAllCollection_body); }
POOL_PAIR(testAbnormalInvokeAllCollection)

static void testTryUnfork_body(void)
{
    AsyncFib *g = new_AsyncFib(9);
    CHECK_RC(0, fj_fork(&g->task));
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_fork(&f->task));
    assertTrue(fj_task_try_unfork(&f->task));
    fj_help_quiesce();
    checkNotDoneBAA(f);
    AsyncFib_checkCompletedNormally(g);
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
    AsyncFib_checkCompletedNormally(f);
    AsyncFib_checkCompletedNormally(g);
    AsyncFib_checkCompletedNormally(h);
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
    AsyncFib_checkCompletedNormally(f);
    fj_help_quiesce();
    AsyncFib_checkCompletedNormally(g);
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
    checkNotDoneBAA(f);
    AsyncFib_checkCompletedNormally(g);
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
    checkNotDoneBAA(f);
    AsyncFib_checkCompletedNormally(g);
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
    AsyncFib_checkCompletedNormally(f);
    AsyncFib_checkCompletedNormally(g);
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
    AsyncFib_checkCompletedNormally(f);
    checkNotDoneBAA(g);
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
    AsyncFib_checkCompletedNormally(f);
    checkNotDoneBAA(g);
}
static void testPollTaskAsync(void) { RUN_ON(asyncSingletonPool(), testPollTaskAsync_body); }

static void testQuietlyComplete_body(void)
{
    AsyncFib *f = new_AsyncFib(8);
    CHECK_RC(0, fj_task_quietly_complete(&f->task));
    assertEquals(8, f->number);
    assertTrue(fj_task_is_done(&f->task));
    assertFalse(fj_task_is_cancelled(&f->task));
    assertTrue(fj_task_is_completed_normally(&f->task));
    assertFalse(fj_task_is_completed_abnormally(&f->task));
    assertEquals(0, fj_task_outcome(&f->task));  /* getException() is null */
}
static void testQuietlyComplete(void) { RUN_ON(mainPool(), testQuietlyComplete_body); }

static const check_case cases[] = {
    {"testInvoke", testInvoke, CHECK_PER_WORKERS},
    {"testInvoke_Singleton", testInvoke_Singleton, CHECK_PER_WORKERS},
    {"testQuietlyInvoke", testQuietlyInvoke, CHECK_PER_WORKERS},
    {"testQuietlyInvoke_Singleton", testQuietlyInvoke_Singleton, CHECK_PER_WORKERS},
    {"testForkJoin", testForkJoin, CHECK_PER_WORKERS},
    {"testForkJoin_Singleton", testForkJoin_Singleton, CHECK_PER_WORKERS},
    {"testForkGet", testForkGet, CHECK_PER_WORKERS},
    {"testForkGet_Singleton", testForkGet_Singleton, CHECK_PER_WORKERS},
    {"testForkTimedGet", testForkTimedGet, CHECK_PER_WORKERS},
    {"testForkTimedGet_Singleton", testForkTimedGet_Singleton, CHECK_PER_WORKERS},
    {"testForkTimedGetNullTimeUnit_Singleton", testForkTimedGetNullTimeUnit_Singleton, CHECK_PER_WORKERS},
    {"testForkQuietlyJoin", testForkQuietlyJoin, CHECK_PER_WORKERS},
    {"testForkQuietlyJoin_Singleton", testForkQuietlyJoin_Singleton, CHECK_PER_WORKERS},
    {"testForkHelpQuiesce", testForkHelpQuiesce, CHECK_PER_WORKERS},
    {"testForkHelpQuiesce_Singleton", testForkHelpQuiesce_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvoke", testAbnormalInvoke, CHECK_PER_WORKERS},
    {"testAbnormalInvoke_Singleton", testAbnormalInvoke_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalQuietlyInvoke", testAbnormalQuietlyInvoke, CHECK_PER_WORKERS},
    {"testAbnormalQuietlyInvoke_Singleton", testAbnormalQuietlyInvoke_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalForkJoin", testAbnormalForkJoin, CHECK_PER_WORKERS},
    {"testAbnormalForkJoin_Singleton", testAbnormalForkJoin_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalForkGet", testAbnormalForkGet, CHECK_PER_WORKERS},
    {"testAbnormalForkGet_Singleton", testAbnormalForkGet_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalForkTimedGet", testAbnormalForkTimedGet, CHECK_PER_WORKERS},
    {"testAbnormalForkTimedGet_Singleton", testAbnormalForkTimedGet_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalForkQuietlyJoin", testAbnormalForkQuietlyJoin, CHECK_PER_WORKERS},
    {"testAbnormalForkQuietlyJoin_Singleton", testAbnormalForkQuietlyJoin_Singleton, CHECK_PER_WORKERS},
    {"testGetPool", testGetPool, CHECK_PER_WORKERS},
    {"testGetPool_Singleton", testGetPool_Singleton, CHECK_PER_WORKERS},
    {"testGetPool2", testGetPool2, CHECK_ONCE},
    {"testInForkJoinPool", testInForkJoinPool, CHECK_PER_WORKERS},
    {"testInForkJoinPool_Singleton", testInForkJoinPool_Singleton, CHECK_PER_WORKERS},
    {"testInForkJoinPool2", testInForkJoinPool2, CHECK_ONCE},
    {"testCompleteExceptionally", testCompleteExceptionally, CHECK_PER_WORKERS},
    {"testCompleteExceptionally_Singleton", testCompleteExceptionally_Singleton, CHECK_PER_WORKERS},
    {"testInvokeAll1", testInvokeAll1, CHECK_PER_WORKERS},
    {"testInvokeAll1_Singleton", testInvokeAll1_Singleton, CHECK_PER_WORKERS},
    {"testInvokeAll2", testInvokeAll2, CHECK_PER_WORKERS},
    {"testInvokeAll2_Singleton", testInvokeAll2_Singleton, CHECK_PER_WORKERS},
    {"testInvokeAll3", testInvokeAll3, CHECK_PER_WORKERS},
    {"testInvokeAll3_Singleton", testInvokeAll3_Singleton, CHECK_PER_WORKERS},
    {"testInvokeAllCollection", testInvokeAllCollection, CHECK_PER_WORKERS},
    {"testInvokeAllCollection_Singleton", testInvokeAllCollection_Singleton, CHECK_PER_WORKERS},
    {"testInvokeAllNullTask", testInvokeAllNullTask, CHECK_PER_WORKERS},
    {"testInvokeAllNullTask_Singleton", testInvokeAllNullTask_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll1", testAbnormalInvokeAll1, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll1_Singleton", testAbnormalInvokeAll1_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll2", testAbnormalInvokeAll2, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll2_Singleton", testAbnormalInvokeAll2_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll3", testAbnormalInvokeAll3, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAll3_Singleton", testAbnormalInvokeAll3_Singleton, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAllCollection", testAbnormalInvokeAllCollection, CHECK_PER_WORKERS},
    {"testAbnormalInvokeAllCollection_Singleton", testAbnormalInvokeAllCollection_Singleton, CHECK_PER_WORKERS},
    {"testTryUnfork", testTryUnfork, CHECK_PER_WORKERS},
    {"testGetSurplusQueuedTaskCount", testGetSurplusQueuedTaskCount, CHECK_PER_WORKERS},
    {"testPeekNextLocalTask", testPeekNextLocalTask, CHECK_PER_WORKERS},
    {"testPollNextLocalTask", testPollNextLocalTask, CHECK_PER_WORKERS},
    {"testPollTask", testPollTask, CHECK_PER_WORKERS},
    {"testPeekNextLocalTaskAsync", testPeekNextLocalTaskAsync, CHECK_PER_WORKERS},
    {"testPollNextLocalTaskAsync", testPollNextLocalTaskAsync, CHECK_PER_WORKERS},
    {"testPollTaskAsync", testPollTaskAsync, CHECK_PER_WORKERS},
    {"testQuietlyComplete", testQuietlyComplete, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
