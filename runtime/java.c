/* java.c - the private glue of the Java layer (java.h): the side table of
 * Java-only counts per pool, the quiescence test, and the polling waits'
 * back-off and deadlines, shared by java_task.c, java_pool.c and
 * managed_block.c.
 *
 * Quiescence
 * ==========
 * Java calls a pool quiescent when no worker is active and nothing is queued.
 * fj counts the workers parked in the scheduler loop (pool.idle_workers), so
 * the ideal test is
 *
 *     quiescent:  idle_workers == count  and  every deque and the injector empty
 *
 * Complications:
 * 1. The two reads are not one snapshot.  Between them a parked worker may wake,
 *    take the last queued task and run it: we would read "all parked" and then
 *    "all empty" while a task runs.  A worker that wakes first decrements
 *    idle_workers (full), then bumps its `wakeups` counter, then looks for work.
 *    So we read the sum of wakeups before and after, and idle_workers twice:
 *    a worker that woke in between changed the sum (or is still counted out of
 *    idle_workers at the second read).  Either way we answer "not quiescent".
 * 2. Workers in fj_help_quiesce are idle in spirit (they run only what they
 *    find queued, and we check the queues), so they are excused; they count
 *    themselves only while they found nothing, and uncount before taking work.
 *    We read that count before and after too.
 * 3. A worker blocked in a join or a managed block is not parked in the
 *    scheduler loop: it counts as active, which is what Java reports too.
 * Summary: "quiescent" implies that at some instant during the test no task
 * was queued or running in the pool; "not quiescent" may be a stale answer,
 * and the waits below simply test again.
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "../include/fj_java.h"
#include "java.h"
#include "task_state.h"

/* ---- the side table of Java-only counts ---- */

typedef struct java_entry {
    const fj_pool *pool;
    unsigned count[JAVA_COUNT_KINDS];
    struct java_entry *next;
} java_entry;

static pthread_mutex_t java_lock = PTHREAD_MUTEX_INITIALIZER;
static java_entry *java_entries;

static java_entry **java_find(const fj_pool *pool)
{
    java_entry **at = &java_entries;
    while (*at && (*at)->pool != pool)
        at = &(*at)->next;
    return at;
}

static bool java_entry_unused(const java_entry *e)
{
    for (int k = 0; k < JAVA_COUNT_KINDS; k++)
        if (e->count[k])
            return false;
    return true;
}

void java_count_add(const fj_pool *pool, enum java_count kind, int delta)
{
    pthread_mutex_lock(&java_lock);
    java_entry **at = java_find(pool);
    if (!*at) {
        /* Out of memory only makes the count (an estimate) read low. */
        java_entry *e = calloc(1, sizeof *e);
        if (!e || delta < 0) {
            free(e);
            pthread_mutex_unlock(&java_lock);
            return;
        }
        e->pool = pool;
        *at = e;
    }
    java_entry *e = *at;
    e->count[kind] = (unsigned)((int)e->count[kind] + delta);
    if (java_entry_unused(e)) {
        *at = e->next;
        free(e);
    }
    pthread_mutex_unlock(&java_lock);
}

unsigned java_count_get(const fj_pool *pool, enum java_count kind)
{
    pthread_mutex_lock(&java_lock);
    java_entry *e = *java_find(pool);
    unsigned n = e ? e->count[kind] : 0;
    pthread_mutex_unlock(&java_lock);
    return n;
}

static size_t wakeups_sum(const fj_pool *pool)
{
    size_t sum = 0;
    for (unsigned i = 0; i < pool->count; i++)
        /* wakeups is a relaxed counter (counter_add), so this pairs with no
         * release: the sum only detects that a wake-up happened (point 1).
         * Acquire keeps this read before the test's later reads of
         * idle_workers and the queues. */
        sum += atomic_load_acquire(&pool->workers[i]->count.wakeups);
    return sum;
}

static bool all_idle(const fj_pool *pool, unsigned excused)
{
    /* Acquire: pairs with the full decrement a waking worker makes before it
     * bumps wakeups and takes work (worker.c, worker_park); see point 1. */
    return atomic_load_acquire(&pool->idle_workers) + excused >= pool->count;
}

bool java_pool_quiescent(const fj_pool *pool)
{
    size_t wakeups = wakeups_sum(pool);
    unsigned excused = java_count_get(pool, JAVA_QUIESCING);
    if (!all_idle(pool, excused) || worker_queues_have_work(pool))
        return false;
    /* The mutex in java_count_get orders the queue reads before the re-reads. */
    return java_count_get(pool, JAVA_QUIESCING) == excused && all_idle(pool, excused) &&
           wakeups_sum(pool) == wakeups;
}

void java_backoff(unsigned round, long long deadline_ns)
{
    if (round < 16) {
        sched_yield();
        return;
    }
    /* 50 us doubling to 1 ms: quick to notice, cheap while a long task runs. */
    long long pause = 50000LL << (round < 21 ? round - 16 : 5);
    if (pause > 1000000)
        pause = 1000000;
    if (deadline_ns >= 0) {
        long long left = deadline_ns - task_monotonic_ns();
        if (left <= 0)
            return;
        if (left < pause)
            pause = left;
    }
    struct timespec ts = {0, (long)pause};
    nanosleep(&ts, NULL);
}

long long java_deadline_after(long long timeout_ns)
{
    if (timeout_ns >= FJ_NO_TIMEOUT)
        return -1;
    if (timeout_ns < 0)
        timeout_ns = 0;
    long long now = task_monotonic_ns();
    /* Saturate: a huge finite timeout is as good as none, but must not wrap. */
    return timeout_ns > LLONG_MAX - now ? -1 : now + timeout_ns;
}

bool java_deadline_passed(long long deadline_ns)
{
    return deadline_ns >= 0 && task_monotonic_ns() >= deadline_ns;
}

int java_await_quiescent(const fj_pool *pool, long long deadline_ns)
{
    for (unsigned round = 0;; round++) {
        if (java_pool_quiescent(pool))
            return 0;
        if (java_deadline_passed(deadline_ns))
            return FJ_ETIMEDOUT;
        java_backoff(round, deadline_ns);
    }
}
