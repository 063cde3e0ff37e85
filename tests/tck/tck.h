/* tck.h - what the ports of the JDK's ForkJoin conformance tests (JSR166 TCK,
 * test/jdk/java/util/concurrent/tck/ in OpenJDK) share: JUnit's assertions
 * over tests/check.h, Java's exceptions as fj error codes, the pools the
 * Java tests make, and the timeouts of JSR166TestCase.
 *
 * One C function per Java test method, with the Java method's name; each runs
 * in its own process with a time limit (tests/run-tests.sh).  A Java
 * assertion that has a C counterpart is kept as it is; the few that have none
 * (a thread's interrupt status, a null raw result of a primitive) are named
 * in docs/porting-from-java.md. */
#ifndef FJ_TCK_H
#define FJ_TCK_H

#include <limits.h>
#include <stdatomic.h>

#include "../check.h"
#include "fj_java.h"

#define assertTrue(cond) CHECK(cond)
#define assertFalse(cond) CHECK(!(cond))
#define assertEquals(expected, actual) CHECK_EQ(expected, actual)
#define assertSame(expected, actual) CHECK((const void *)(expected) == (const void *)(actual))
#define assertNull(p) CHECK((p) == NULL)

/* Java's exceptions.  FJException is the tests' own RuntimeException; a
 * compute function "throws" it by returning the code. */
enum { FJ_EXCEPTION = -1001 };

/* Java's cancel(b) returns true when the task is cancelled afterwards: 0 here. */
#define CANCEL_IS_TRUE(t) (fj_task_cancel(t) == 0)

/* JSR166TestCase.LONG_DELAY_MS (10 s), in nanoseconds, and the expired
 * timeouts of randomExpiredTimeout(). */
#define LONG_DELAY_NS (10LL * 1000000000LL)
static const long long expired_timeouts[] = {LLONG_MIN, -1, 0};

/* new ForkJoinPool() (one worker per --workers here, so the suite runs each
 * case on 1, 2, 4 and 8), new ForkJoinPool(1), and asyncSingletonPool()'s
 * new ForkJoinPool(1, defaultForkJoinWorkerThreadFactory, null, true). */
static inline fj_pool *mainPool(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, check_workers));
    return pool;
}

static inline fj_pool *singletonPool(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_parallelism(&pool, 1));
    return pool;
}

static inline fj_pool *asyncSingletonPool(void)
{
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create_with_async_mode(&pool, 1, 1));
    return pool;
}

/* JSR166TestCase's PoolCleaner: shutdown, then awaitTermination, then (C)
 * free the pool. */
static inline void poolCleaner(fj_pool *pool)
{
    CHECK_RC(0, fj_pool_shutdown(pool));
    CHECK_RC(0, fj_pool_await_termination(pool, LONG_DELAY_NS));
    CHECK_RC(0, fj_pool_destroy(pool));
}

#endif
