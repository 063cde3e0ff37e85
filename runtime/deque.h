/* deque.h - a work-stealing deque of pointers in the style of Cilk-5's THE
 * protocol and Duffy's WorkStealingQueue.  It knows nothing of tasks or workers.
 *
 * The owner pushes and pops at the tail (LIFO) without a lock; thieves take from
 * the head (FIFO) under the deque's lock.  The full design argument is at the
 * top of deque.c.
 *
 * Synchronization table: which operations may run at the same time.
 *
 * (steal covers deque_steal and deque_steal_batch)
 *                 push     pop      steal    grow     size
 *   push (owner)   -        -        yes      -        yes
 *   pop  (owner)   -        -        yes      -        yes
 *   steal (thief)  yes      yes      no(lock) no(lock) yes
 *   grow (owner)   -        -        no(lock) -        yes
 *   size (any)     yes      yes      yes      yes      yes
 *
 * '-' means "same thread, never concurrent"; push, pop and grow are owner-only
 * and are asserted so in debug builds.  size is a racy snapshot, exact only
 * when the deque is quiescent.
 */
#ifndef FJ_DEQUE_H
#define FJ_DEQUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "atomics.h"
#include "config.h"

typedef struct deque {
    /* Written by the owner only (read by thieves): the private end. */
    atomic_word tail;
    void **buf;           /* replaced only by the owner, under lock */
    size_t mask;          /* capacity - 1, changed with buf */
    /* Nonzero while the owner's pops issue a full fence (deque.c, point 7).
     * Set by a thief and cleared by the owner, both under the lock; the owner
     * reads it in every pop. */
    atomic_word fenced;
    size_t head_seen;            /* owner-private: head when fencing was last prolonged */
    unsigned fenced_pops_left;   /* owner-private: fenced pops before head is looked at again */
    pthread_t owner;      /* asserted in owner-only operations (debug builds) */
    char pad_owner[FJ_CACHE_LINE];
    /* Written by thieves under the lock (and by the owner in its locked fallback). */
    atomic_word head;
    pthread_mutex_t lock;
    char pad_thief[FJ_CACHE_LINE];
} deque;

enum deque_push_result { DEQUE_PUSHED = 0, DEQUE_NO_MEMORY = -1 };

/* Slots push leaves free: the most a thief may be reading after its claim. */
#define DEQUE_SPARE_SLOTS ((size_t)FJ_STEAL_BATCH_MAX)
/* Smallest array deque_init makes (a power of two, four times the spare slots). */
#define DEQUE_MIN_CAPACITY ((size_t)(4 * FJ_STEAL_BATCH_MAX))
_Static_assert((4 * FJ_STEAL_BATCH_MAX & (4 * FJ_STEAL_BATCH_MAX - 1)) == 0, "FJ_STEAL_BATCH_MAX: a power of two");

/* Prepares an empty deque of at least `initial_capacity` (a power of two) and
 * DEQUE_MIN_CAPACITY slots; the calling thread becomes its owner until
 * deque_set_owner.  Returns 0 or -1 when the first array cannot be allocated. */
int deque_init(deque *d, size_t initial_capacity);
void deque_destroy(deque *d);
void deque_set_owner(deque *d, pthread_t owner);

/* Owner only.  Doubles the array under the lock; DEQUE_NO_MEMORY if it cannot. */
int deque_push_slow(deque *d, void *item);
/* Owner only: the contended or empty case of pop, under the lock. */
void *deque_pop_slow(deque *d, size_t t);
/* Owner only, from pop: the full fence of a fenced pop, and the count-down
 * that ends fencing once FJ_DEQUE_FENCED_POPS pops went by without a steal. */
void deque_pop_fence(deque *d);
/* Thieves: takes the oldest item, or NULL when empty.  Waits for the lock only
 * if `wait` is true; otherwise a busy lock is reported as NULL at once. */
void *deque_steal(deque *d, bool wait);

/* Thieves: takes up to `max` (<= FJ_STEAL_BATCH_MAX) of the oldest items, at
 * most half of those present (at least one), oldest first into `out`.  Returns
 * how many; 0 when empty or (wait false) the lock is busy. */
size_t deque_steal_batch(deque *d, bool wait, void **out, size_t max);

/* A program bug, not an error: prints both thread ids and aborts (debug builds). */
void deque_owner_violation(const deque *d, const char *operation);

#ifndef NDEBUG
#define DEQUE_ASSERT_OWNER(d)                                                                  \
    do {                                                                                       \
        if (!pthread_equal((d)->owner, pthread_self()))                                        \
            deque_owner_violation((d), __func__);                                              \
    } while (0)
#else
#define DEQUE_ASSERT_OWNER(d) ((void)0)
#endif

/* Racy count of items; never negative. */
static inline size_t deque_size(const deque *d)
{
    size_t t = atomic_load(&d->tail);
    size_t h = atomic_load(&d->head);
    return (long)(t - h) > 0 ? t - h : 0;
}

/* Owner only: pushes at the tail if the array has room without growing;
 * returns false (and pushes nothing) when deque_push_slow must grow it. */
static inline bool deque_try_push(deque *d, void *item)
{
    DEQUE_ASSERT_OWNER(d);
    size_t t = atomic_load(&d->tail);
    /* A stale head is smaller than the real one, so it can only make the deque
     * look fuller than it is; the slow path re-reads it under the lock.  Spare
     * slots stay free so that a push never overwrites a slot a thief is reading
     * (deque.c, point 4).  Acquire: pairs with the release of head in
     * deque_steal_batch, so a slot we reuse was read by its thief before we
     * write it. */
    if (__builtin_expect(t - atomic_load_acquire(&d->head) > d->mask - DEQUE_SPARE_SLOTS, 0))
        return false;
    d->buf[t & d->mask] = item;
    /* Release: the item, and everything the owner wrote into it before the push,
     * is visible to a thief whose acquire load of tail (deque_steal) sees t + 1. */
    atomic_store_release(&d->tail, t + 1);
    return true;
}

/* Owner only: pushes at the tail.  Never fails for lack of space unless the
 * array cannot grow, in which case the caller runs the item itself. */
static inline int deque_push(deque *d, void *item)
{
    return deque_try_push(d, item) ? DEQUE_PUSHED : deque_push_slow(d, item);
}

/* Owner only: pops the newest item, or NULL when the deque is empty. */
static inline void *deque_pop(deque *d)
{
    DEQUE_ASSERT_OWNER(d);
    size_t t = atomic_load(&d->tail) - 1;
    /* Claim slot t before looking at head.  Release keeps earlier slot writes
     * ordered before this store for a thief that acquires tail. */
    atomic_store_release(&d->tail, t);
    /* StoreLoad: our claim of t and a thief's claim of head (deque_steal_batch)
     * cannot both go unseen.  Unfenced, only this compiler barrier: it pairs
     * with the thief's fence_heavy().  It also keeps the load of `fenced`
     * after the tail store in program order, which point 7 relies on (a pop
     * that read 0 before a thief's membarrier stored its tail before it). */
    compiler_barrier();
    /* Fenced: a full fence as well, pairing with the thief's fence_full(). */
    if (__builtin_expect(atomic_load(&d->fenced) != 0, 0))
        deque_pop_fence(d);
    size_t h = atomic_load(&d->head);
    if (__builtin_expect((long)(h - t) > 0, 0))
        return deque_pop_slow(d, t);
    return d->buf[t & d->mask];
}

/* Owner only: the item pop would return, without taking it (NULL if empty).
 * A thief may take it a moment later; only pop decides. */
static inline void *deque_peek_newest(const deque *d)
{
    size_t t = atomic_load(&d->tail);
    if ((long)(t - atomic_load(&d->head)) <= 0)
        return NULL;
    return d->buf[(t - 1) & d->mask];
}

#endif
