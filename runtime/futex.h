/* futex.h - the two futex(2) calls the runtime parks and wakes with.
 *
 * FUTEX_WAIT sleeps only if *word still equals `expected` when the kernel looks,
 * atomically with queueing the sleeper: a waker that changes the word and then
 * calls futex_wake can never be missed.  FUTEX_WAKE does not read *word, so it
 * is harmless on an address whose object has already been freed (a waiter on
 * a reused address wakes spuriously and re-checks its condition). */
#ifndef FJ_FUTEX_H
#define FJ_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "atomics.h"

/* Sleeps while *word == expected, at most `timeout` (NULL: no limit).  Returns
 * 0 when woken, or an errno value (EAGAIN: word changed; ETIMEDOUT; EINTR). */
static inline int futex_wait(atomic_u32 *word, unsigned expected, const struct timespec *timeout)
{
    long rc = syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, timeout, NULL, 0);
    return rc == 0 ? 0 : errno;
}

static inline void futex_wake(atomic_u32 *word, int how_many)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, how_many, NULL, NULL, 0);
}

#endif
