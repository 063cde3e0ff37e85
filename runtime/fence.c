/* fence.c - choosing and issuing the heavy side of the asymmetric fence pair
 * (the argument is in atomics.h). */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "atomics.h"

bool fj_fence_asymmetric __attribute__((visibility("hidden"))) = false;

/* Written once, by fence_choose under the pthread_once; read after it. */
static char mode_description[160];

static long membarrier(int cmd) { return syscall(SYS_membarrier, cmd, 0, 0); }

static void describe_full_fences(const char *why, int error)
{
    snprintf(mode_description, sizeof mode_description, "fences: full on both sides, %s%s%s", why,
             error ? ": " : "", error ? strerror(error) : "");
}

static void fence_choose(void)
{
    const char *mode = getenv("FJ_FENCE");
    if (mode && strcmp(mode, "full") == 0) {
        describe_full_fences("as FJ_FENCE=full asks", 0);
        return;
    }
    long supported = membarrier(MEMBARRIER_CMD_QUERY);
    if (supported < 0) {
        describe_full_fences("membarrier(MEMBARRIER_CMD_QUERY) failed (a kernel before 4.3, or a seccomp filter)",
                             errno);
        return;
    }
    if (!(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        describe_full_fences("the kernel has no MEMBARRIER_CMD_PRIVATE_EXPEDITED (it came in Linux 4.14)", 0);
        return;
    }
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0) {
        describe_full_fences("membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed", errno);
        return;
    }
    snprintf(mode_description, sizeof mode_description, "fences: membarrier (MEMBARRIER_CMD_PRIVATE_EXPEDITED)");
    /* Atomic (relaxed): fence_light may read the word on a thread that has
     * not passed fence_init (it then pays a full fence, which is never wrong);
     * the threads that must see the decision pass the pthread_once. */
    __atomic_store_n(&fj_fence_asymmetric, true, __ATOMIC_RELAXED);
}

void fence_init(void)
{
    /* Decided once, before any pool thread exists, so hot paths read a constant. */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fence_choose);
}

const char *fence_mode_description(void)
{
    /* A caller that comes before any pool (fj_pool_print_stats cannot) gets
     * the mode the first pool will use: the choice is made now, once. */
    fence_init();
    return mode_description;
}

void fence_heavy(void)
{
    /* The heavy side must see the mode the light sides use: read as false
     * while they use compiler barriers, it would pair a plain fence with
     * nothing.  A thread outside the pool (fj_join or fj_task_get_timed of a
     * task another thread forked into a pool it created) has not called
     * fence_init; pthread_once orders its read after the decision (ThreadSanitizer
     * found the unordered read in test_java_regress). */
    fence_init();
    if (fj_fence_asymmetric) {
        /* Every running thread of ours passes a full barrier before this returns.
         * After a successful registration the kernel has no reason left to refuse
         * the command, so there is no fallback to reason about here. */
        (void)membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
        return;
    }
    fence_full();  /* symmetric mode: both sides of every pair pay a full fence */
}
