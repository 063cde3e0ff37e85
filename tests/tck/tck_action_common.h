/* tck_action_common.h - the FibAction, the checks and the
 * CheckedRecursiveAction of the JDK's RecursiveActionTest, ported (shared with
 * ForkJoinPool8Test, which repeats them), assertions kept. */
#ifndef FJ_TCK_ACTION_COMMON_H
#define FJ_TCK_ACTION_COMMON_H

#include "tck.h"

/* ---- FibAction ---- */

typedef struct FibAction {
    FJ_RECURSIVE_ACTION;
    int number;
    int result;
} FibAction;

static inline int FibAction_compute(fj_task *t);
#define FIB_ACTION(n) {FJ_TASK_INIT(FibAction_compute), (n), 0}

static inline int FibAction_compute(fj_task *t)
{
    FibAction *self = FJ_SELF(t, FibAction);
    int n = self->number;
    if (n <= 1) {
        self->result = n;
        return 0;
    }
    FibAction f1 = FIB_ACTION(n - 1), f2 = FIB_ACTION(n - 2);
    int rc = fj_invoke_all2(&f1.task, &f2.task);
    if (rc != 0)
        return rc;
    self->result = f1.result + f2.result;
    return 0;
}

/* ---- the checks (an action's raw result and join value are null: no C
 * counterpart to check beyond join returning 0) ---- */

static inline void checkNotDone(fj_task *a)
{
    assertFalse(fj_task_is_done(a));
    assertFalse(fj_task_is_completed_normally(a));
    assertFalse(fj_task_is_completed_abnormally(a));
    assertFalse(fj_task_is_cancelled(a));
    assertEquals(1, fj_task_outcome(a));  /* getException() is null */
    for (size_t i = 0; i < sizeof expired_timeouts / sizeof *expired_timeouts; i++)
        CHECK_RC(FJ_ETIMEDOUT, fj_task_get_timed(a, expired_timeouts[i]));
}

static inline void checkCompletedNormally(fj_task *a)
{
    assertTrue(fj_task_is_done(a));
    assertFalse(fj_task_is_cancelled(a));
    assertTrue(fj_task_is_completed_normally(a));
    assertFalse(fj_task_is_completed_abnormally(a));
    assertEquals(0, fj_task_outcome(a));
    CHECK_RC(0, fj_join(a));
    assertFalse(CANCEL_IS_TRUE(a));
    assertFalse(CANCEL_IS_TRUE(a));
    CHECK_RC(0, fj_task_get(a));
    CHECK_RC(0, fj_task_get_timed(a, LONG_DELAY_NS));
}

static inline void checkCancelled(fj_task *a)
{
    assertTrue(fj_task_is_done(a));
    assertTrue(fj_task_is_cancelled(a));
    assertFalse(fj_task_is_completed_normally(a));
    assertTrue(fj_task_is_completed_abnormally(a));
    assertEquals(FJ_ECANCELED, fj_task_outcome(a));
    CHECK_RC(FJ_ECANCELED, fj_join(a));
    CHECK_RC(FJ_ECANCELED, fj_task_get(a));
    CHECK_RC(FJ_ECANCELED, fj_task_get_timed(a, LONG_DELAY_NS));
}

static inline void checkCompletedAbnormally(fj_task *a, int error)
{
    assertTrue(fj_task_is_done(a));
    assertFalse(fj_task_is_cancelled(a));
    assertFalse(fj_task_is_completed_normally(a));
    assertTrue(fj_task_is_completed_abnormally(a));
    assertEquals(error, fj_task_outcome(a));
    assertFalse(CANCEL_IS_TRUE(a));
    assertFalse(CANCEL_IS_TRUE(a));
    CHECK_RC(error, fj_join(a));
    CHECK_RC(error, fj_task_get(a));
    CHECK_RC(error, fj_task_get_timed(a, LONG_DELAY_NS));
}

/* ---- CheckedRecursiveAction and testInvokeOnPool ---- */

typedef struct CheckedRecursiveAction {
    FJ_RECURSIVE_ACTION;
    void (*realCompute)(void);
} CheckedRecursiveAction;

static inline int CheckedRecursiveAction_compute(fj_task *t)
{
    FJ_SELF(t, CheckedRecursiveAction)->realCompute();
    return 0;
}
#define CHECKED_RECURSIVE_ACTION(fn) {FJ_TASK_INIT(CheckedRecursiveAction_compute), (fn)}

static inline void testInvokeOnPool(fj_pool *pool, fj_task *a)
{
    checkNotDone(a);
    CHECK_RC(0, fj_pool_invoke(pool, a));  /* assertNull(pool.invoke(a)) */
    checkCompletedNormally(a);
    poolCleaner(pool);
}

#define RUN_ON(pool_expr, body)                                                                \
    do {                                                                                       \
        CheckedRecursiveAction a_ = CHECKED_RECURSIVE_ACTION(body);                            \
        testInvokeOnPool((pool_expr), &a_.task);                                               \
    } while (0)

#endif
