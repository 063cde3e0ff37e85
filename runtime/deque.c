/* deque.c - the slow paths of the work-stealing deque (fast paths: deque.h).
 *
 * Design overview
 * ===============
 * Read first: Frigo, Leiserson, Randall, "The Implementation of the Cilk-5
 * Multithreaded Language" (PLDI'98, section 5: the THE protocol); Joe Duffy's
 * WorkStealingQueue; Chase and Lev, "Dynamic Circular Work-Stealing Deque"
 * (SPAA'05) for the growing array.
 *
 * The ideal algorithm, ignoring every race:
 *
 *     push(x):  buf[tail++] = x                 -- owner, LIFO end
 *     pop():    return tail > head ? buf[--tail] : EMPTY
 *     steal():  return tail > head ? buf[head++] : EMPTY   -- thieves, FIFO end
 *
 * Complications, one at a time:
 *
 * 1. Thieves against thieves.  They all move head, so they serialise on the
 *    deque's lock.  A thief that finds the lock busy goes to another victim
 *    (deque_steal with wait = false) instead of queueing behind other thieves.
 *
 * 2. Owner against a thief.  The owner must not take the lock on every pop, so
 *    pop and steal each announce their claim before checking the other end:
 *
 *        pop:   tail = t - 1;  FENCE;  if head > t - 1 -> conflict
 *        steal: head = h + 1;  FENCE;  if h + 1 > tail -> conflict
 *
 *    Both are a store followed by a load of the other's variable, so each side
 *    needs a StoreLoad fence (Dekker).  With the fences, when both race for the
 *    last item at least one of them sees the other's claim.  The thief that sees
 *    a conflict undoes its claim and fails; the owner that sees one undoes its
 *    claim and retries under the lock, where no thief can move head.
 *
 * 3. Who pays for the fence.  Pops are on the fork/join fast path; steals are
 *    rare and already slow (a lock).  So pop uses fence_light() and steal uses
 *    fence_heavy() (membarrier), see atomics.h.  Where membarrier is missing,
 *    both are full fences.
 *
 * 4. Reading the slots.  A thief reads buf[h .. h+k) after its claim of k
 *    items succeeded.  While it reads, head already says h + k, so an owner
 *    that wraps around could overwrite those slots with new pushes.  Push
 *    therefore treats the array as full at capacity - FJ_STEAL_BATCH_MAX
 *    items: a slot within FJ_STEAL_BATCH_MAX below head is never written
 *    while a thief may be reading it.
 *
 * 6. Stealing several.  A steal costs one fence_heavy, which is a membarrier
 *    system call (tens of microseconds on some virtual machines), so a thief
 *    may claim k > 1 items at once: head = h + k, fence, read tail T.  If the
 *    owner popped into the claimed range (T < h + k), the thief keeps only
 *    [h, T) and stores head = T.  The argument of the last-item race applies
 *    to every pop separately: a pop of index i < h + k either saw the claim
 *    (and waits for the lock, then re-checks against the trimmed head) or the
 *    thief's read of tail saw it (T <= i, so i is not kept).
 *
 * 7. Who pays for the fence, adaptively.  Point 3 is right while steals are
 *    rare; under a stream of steals (an unbalanced tree, a loop's start) every
 *    steal would pay a membarrier, tens of microseconds on a VM.  So a thief
 *    that pays one also sets the victim's `fenced` flag, before its barrier.
 *    The owner then issues a full fence (ten nanoseconds) in every pop, and the
 *    next thieves, reading fenced != 0, issue a full fence instead of
 *    fence_heavy().  Every FJ_DEQUE_FENCED_POPS fenced pops the owner looks at
 *    head: if no steal moved it, it clears `fenced`, under the lock.  Why a
 *    thief that reads fenced != 0 (under the lock) may skip the membarrier,
 *    for each pop it can race with:
 *      - a pop that read `fenced` after the membarrier of the thief that set
 *        it sees it set (that barrier ran on the owner's CPU), so it is a
 *        fenced pop: plain Dekker, full fences on both sides (point 2);
 *      - a pop that read `fenced` before that barrier stored its tail before
 *        it too (the store precedes the load in program order: the compiler
 *        barrier in deque_pop), and the barrier made the store visible; every
 *        later thief follows the setter through the lock, so it sees that
 *        tail and never keeps an index the pop took (as in point 6, T <= i);
 *      - the owner clears `fenced` only under the lock, so no thief is between
 *        reading it and reading tail when pops stop fencing; a thief that
 *        reads 0 pays fence_heavy(), which covers fenced and unfenced pops.
 *    Where membarrier is missing, `fenced` stays set for good (every pop pays a
 *    full fence, as point 3 says).
 *
 * 5. Growing.  The owner doubles the array under the lock, copying the live
 *    items [head, tail) to the same logical indices.  Thieves read buf and mask
 *    only under the lock, so they never see a half-copied array, and the old
 *    array can be freed at once.  If allocation fails, push reports
 *    DEQUE_NO_MEMORY and the caller runs the item itself; nothing is lost.
 *
 * The one subtle race, argued: owner pop vs thief steal of the last item.
 *   Let one item remain at index k: head == k, tail == k + 1.
 *   (a) The owner stores tail = k; the thief stores head = k + 1.
 *   (b) By the fence pair, the owner's load of head returns k + 1, or the
 *       thief's load of tail returns k, or both.
 *   (c) Thief sees tail == k: k + 1 > k, it restores head = k and fails.
 *   (d) Owner sees head == k + 1 > k: it restores tail, takes the lock (which
 *       the thief holds until (c) or its success is complete), and re-checks
 *       with both indices stable.
 *   (e) Owner sees head == k: then by (b) the thief saw tail == k and fails,
 *       so the owner alone takes item k.
 *   Summary: 1. every item is taken at most once; 2. an item is lost only if
 *   both sides fail, which (d) rules out because the locked re-check sees the
 *   thief's undo; 3. the owner takes the lock only when a thief is at the same
 *   item; 4. no push overwrites a slot a thief may still read.
 */
#include "deque.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int deque_init(deque *d, size_t initial_capacity)
{
    memset(d, 0, sizeof *d);
    /* The spare slots (point 4) must be a small part of the array. */
    if (initial_capacity < DEQUE_MIN_CAPACITY)
        initial_capacity = DEQUE_MIN_CAPACITY;
    d->buf = calloc(initial_capacity, sizeof *d->buf);
    if (!d->buf)
        return -1;
    d->mask = initial_capacity - 1;
    fence_init();
    /* Symmetric mode: thieves' fence_heavy() is a plain fence, so every pop
     * must fence too, for good (point 7). */
    atomic_store(&d->fenced, !fj_fence_asymmetric);
    d->owner = pthread_self();
    pthread_mutex_init(&d->lock, NULL);
    return 0;
}

void deque_destroy(deque *d)
{
    pthread_mutex_destroy(&d->lock);
    free(d->buf);
    d->buf = NULL;
}

void deque_set_owner(deque *d, pthread_t owner) { d->owner = owner; }

void deque_owner_violation(const deque *d, const char *operation)
{
    fprintf(stderr, "fj: %s is owner-only: called on thread %#lx, the deque's owner is thread %#lx\n", operation,
            (unsigned long)pthread_self(), (unsigned long)d->owner);
    abort();
}

/* Copies the live items into an array of twice the size.  Caller holds the lock. */
static int deque_grow_locked(deque *d)
{
    size_t old_cap = d->mask + 1;
    size_t new_cap = old_cap * 2;
    if (new_cap < old_cap)
        return DEQUE_NO_MEMORY;
    void **bigger = malloc(new_cap * sizeof *bigger);
    if (!bigger)
        return DEQUE_NO_MEMORY;
    /* Acquire: the last thief's reads of its slots (it released head) are
     * done before we copy and free the old array.  We hold the lock anyway. */
    size_t h = atomic_load_acquire(&d->head), t = atomic_load(&d->tail);
    for (size_t i = h; i != t; i++)
        bigger[i & (new_cap - 1)] = d->buf[i & d->mask];
    free(d->buf);  /* thieves touch buf only under the lock we hold */
    d->buf = bigger;
    d->mask = new_cap - 1;
    return DEQUE_PUSHED;
}

int deque_push_slow(deque *d, void *item)
{
    DEQUE_ASSERT_OWNER(d);
    pthread_mutex_lock(&d->lock);
    size_t t = atomic_load(&d->tail);
    /* Acquire: as in deque_push (reused slots were read by their thieves). */
    if (t - atomic_load_acquire(&d->head) > d->mask - DEQUE_SPARE_SLOTS && deque_grow_locked(d) != DEQUE_PUSHED) {
        pthread_mutex_unlock(&d->lock);
        return DEQUE_NO_MEMORY;
    }
    d->buf[t & d->mask] = item;
    /* Release as in deque_push; the unlock below would also order it. */
    atomic_store_release(&d->tail, t + 1);
    pthread_mutex_unlock(&d->lock);
    return DEQUE_PUSHED;
}

void deque_pop_fence(deque *d)
{
    /* StoreLoad for a fenced pop (point 7): pairs with fence_full() in
     * deque_steal_batch when the thief read fenced != 0. */
    fence_full();
    if (!fj_fence_asymmetric)
        return;
    if (d->fenced_pops_left > 0) {
        d->fenced_pops_left--;
        return;
    }
    /* Fencing just began, or FJ_DEQUE_FENCED_POPS pops went by: did a thief
     * move head meanwhile?  (A steal only ever moves it up for good.) */
    size_t head = atomic_load(&d->head);
    if (head != d->head_seen) {
        d->head_seen = head;
        d->fenced_pops_left = FJ_DEQUE_FENCED_POPS;
        return;
    }
    /* Quiet: stop fencing.  Under the lock, so that no thief that read
     * fenced != 0 is still deciding (point 7). */
    pthread_mutex_lock(&d->lock);
    atomic_store(&d->fenced, 0);
    pthread_mutex_unlock(&d->lock);
}

void *deque_pop_slow(deque *d, size_t t)
{
    DEQUE_ASSERT_OWNER(d);
    /* Undo the claim, then decide with head frozen by the lock (point 2, (d)). */
    atomic_store_release(&d->tail, t + 1);
    pthread_mutex_lock(&d->lock);
    void *item = NULL;
    size_t h = atomic_load(&d->head);
    if ((long)(h - t) <= 0) {
        item = d->buf[t & d->mask];
        /* Release: as the claim in deque_pop (the lock orders it for thieves too). */
        atomic_store_release(&d->tail, t);
    }
    pthread_mutex_unlock(&d->lock);
    return item;
}

size_t deque_steal_batch(deque *d, bool wait, void **out, size_t max)
{
    /* A read-only look first: an empty victim costs no lock and no barrier. */
    if (deque_size(d) == 0)
        return 0;
    if (wait)
        pthread_mutex_lock(&d->lock);
    else if (pthread_mutex_trylock(&d->lock) != 0)
        return 0;
    size_t h = atomic_load(&d->head);
    /* A first look at tail, only to size the batch; acquire as below. */
    long seen = (long)(atomic_load_acquire(&d->tail) - h);
    size_t want = seen > 1 ? (size_t)(seen / 2) : 1;  /* half, at least one */
    if (want > max)
        want = max;
    /* Claim slots [h, h + want).  Release: the previous thief's reads of its
     * slots (ordered before this by the lock) happen-before an owner that
     * acquires this head and reuses them (deque_push). */
    atomic_store_release(&d->head, h + want);
    /* StoreLoad with the owner's pop (points 2, 6 and 7).  fenced != 0: the
     * owner's pops fence, or stored their tail before the barrier of the thief
     * that set it (which the lock orders before us), so a full fence pairs
     * with theirs.  Otherwise fence_heavy() pairs with an unfenced pop, and
     * we ask the owner to fence from now on: set before the barrier, so that
     * every pop after it on the owner's CPU sees the flag. */
    if (atomic_load(&d->fenced)) {
        fence_full();
    } else {
        atomic_store(&d->fenced, 1);
        fence_heavy();
    }
    /* Acquire: pairs with the release store of tail in deque_push, so the slots
     * and the tasks they point to are fully written before we read them. */
    size_t t = atomic_load_acquire(&d->tail);
    size_t got = want;
    if ((long)(h + want - t) > 0) {
        /* The owner popped into our claim (or the deque was empty): keep
         * [h, t) only, and give the rest back. */
        got = (long)(t - h) > 0 ? t - h : 0;
        atomic_store_release(&d->head, h + got);
    }
    for (size_t i = 0; i < got; i++)
        out[i] = d->buf[(h + i) & d->mask];
    pthread_mutex_unlock(&d->lock);
    return got;
}

void *deque_steal(deque *d, bool wait)
{
    void *item = NULL;
    return deque_steal_batch(d, wait, &item, 1) ? item : NULL;
}
