/* java.h - private glue of the Java layer (java.c; used by java_task.c,
 * java_pool.c, managed_block.c): per-pool counters the core pool does not
 * keep, the quiescence test, and the polling waits' back-off and deadlines.
 *
 * The core fj_pool has no room for Java-only state, and its hot paths should
 * not pay for it, so the Java layer keeps a small side table keyed by pool:
 * how many workers are blocked in fj_managed_block, how many spares run, how
 * many workers are inside fj_help_quiesce.  An entry exists only while one of
 * its counts is nonzero, so a destroyed pool leaves nothing behind. */
#ifndef FJ_JAVA_PRIVATE_H
#define FJ_JAVA_PRIVATE_H

#include <stdbool.h>

#include "worker.h"

enum java_count { JAVA_BLOCKED, JAVA_SPARES, JAVA_QUIESCING, JAVA_COUNT_KINDS };

/* Adds `delta` to the pool's counter of `kind`.  Any thread; a mutex inside
 * (these change around blocking calls and quiescence, never per task). */
void java_count_add(const fj_pool *pool, enum java_count kind, int delta);
unsigned java_count_get(const fj_pool *pool, enum java_count kind);

/* True if nothing is queued in the pool and every worker is parked in the
 * scheduler loop or idle in fj_help_quiesce (counted as JAVA_QUIESCING).  See
 * java.c for why the answer cannot be "quiescent" while a task runs. */
bool java_pool_quiescent(const fj_pool *pool);

/* Waits a little, longer on later rounds, never past `deadline_ns`
 * (CLOCK_MONOTONIC, < 0: none): the back-off of the Java layer's polling waits. */
void java_backoff(unsigned round, long long deadline_ns);

/* The absolute CLOCK_MONOTONIC deadline of a Java-layer timeout: -1 (none)
 * for FJ_NO_TIMEOUT, else now + timeout_ns, so that a timeout <= 0 has
 * already expired (Java's convention). */
long long java_deadline_after(long long timeout_ns);

/* Whether a deadline of java_deadline_after (-1: none) has passed. */
bool java_deadline_passed(long long deadline_ns);

/* Polls java_pool_quiescent with java_backoff until it is true (0) or the
 * deadline passes (FJ_ETIMEDOUT): awaitQuiescence from outside the pool. */
int java_await_quiescent(const fj_pool *pool, long long deadline_ns);

#endif
