/* idle.c - parking and waking workers without lost wake-ups.
 *
 * The protocol
 * ============
 *     sleeper (worker W)                     publisher (fork, submit, completion)
 *     e = W.word                             publish work (store)
 *     list W on the parked stack             fence_light
 *     sleepers += 1                          if sleepers > 0:
 *     fence_heavy                                pick a listed worker V, V.word += 1,
 *     if has_work(): unlist, return              futex_wake(V.word)
 *     futex_wait(W.word, e)
 *
 * Why no wake-up is lost:
 *   1. W's store to `sleepers` and the publisher's store of the work are each
 *      followed by the pair fence_heavy / fence_light, so at least one of the
 *      later loads sees the other's store (the asymmetric Dekker guarantee in
 *      atomics.h).
 *   2. If W's has_work() saw the work, W does not park.
 *   3. Otherwise the publisher saw sleepers > 0 and wakes a listed worker V.
 *      V's word changes after V read `e` (V listed itself before incrementing
 *      sleepers), so V's futex_wait either returns at once (EAGAIN) or is woken.
 *   4. V may not be W, but V then re-scans and finds the work, or a later wake
 *      was needed for work that appeared after V looked, and that publisher
 *      repeats step 3.  So some worker that was asleep when the work appeared
 *      is awake after it.
 *   5. Joiners park with idle_park_unlisted (task.c, frame.c): they may not
 *      take just any work, so a wake that landed on one would be wasted.
 *
 * Wake hints.  A typed spawn (include/fj.h) tests a word of its own worker's
 * line, the wake hint, instead of `sleepers`, which lies behind a pointer on
 * the pool's line.  The hint stands in for `sleepers` in point 1:
 *
 *     sleeper, after sleepers += 1           owner, spawn found its hint set
 *     for each worker's hint h:              s = sleepers
 *         if h == 0: h = 1                   if s == 0:
 *     fence_heavy                                hint = 0; fence_full
 *                                                if sleepers == 0: return
 *                                                hint = 1
 *                                            (on as for sleepers > 0)
 *
 *   6. A sleeper's hint is set by the time of its fence_heavy: the owner may
 *      clear it only after reading sleepers == 0 twice, and a clear that hides
 *      a sleeper's set is a store, full fence, load of `sleepers` racing with
 *      the sleeper's increment (full), load of the hint: one of the two loads
 *      sees the other's write.  If the owner's load misses the increment, the
 *      sleeper's load saw the clear and sets the hint again after it; if it
 *      sees it, the owner sets the hint back itself.  So the pair hint /
 *      fence_heavy serves point 1 as sleepers / fence_heavy does.
 *   7. A set hint with nobody parked costs one call, which clears it.
 *      Spares (managed_block.c) have no hint: no thief takes their frames.
 *   8. Where membarrier is missing, the spawn's test has no fence to pair
 *      with a full one, and the deque splits (deque.c, point 9): a typed
 *      spawn stays private, which no sleeper needs to see, and the hint asks
 *      for a publish.  A worker about to park still sets every hint, so each
 *      owner's next spawn publishes, then issues a full fence and tests
 *      `sleepers` as in point 1 (worker_publish, after fj__spawn_wake clears
 *      the hint); every other publish does the same.  The idle words the
 *      spawn reads say nobody searches, so a set hint is never passed over.
 *
 * Start-up, shutdown and wake paths use full fences and a mutex generously;
 * only the fork path's sleepers test (idle_should_signal) and the spawn's
 * hint test are hot.
 */
#include "idle.h"

#include <stdlib.h>

#include "futex.h"

typedef struct parker {
    atomic_u32 word;  /* futex word: bumped by every wake of this worker */
    bool listed;      /* on its pool's parked stack; guarded by that idle.lock */
    bool in_use;      /* reserved by a pool; guarded by table_lock */
    char pad[FJ_CACHE_LINE - sizeof(unsigned) - 2 * sizeof(bool)];
} parker;

static parker parkers[FJ_PARKER_SLOTS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

int parker_slots_reserve(unsigned count, unsigned *slots_out)
{
    unsigned found = 0;
    pthread_mutex_lock(&table_lock);
    for (unsigned i = 0; i < FJ_PARKER_SLOTS && found < count; i++)
        if (!parkers[i].in_use)
            slots_out[found++] = i;
    if (found == count)
        for (unsigned i = 0; i < count; i++)
            parkers[slots_out[i]].in_use = true;
    pthread_mutex_unlock(&table_lock);
    return found == count ? 0 : -1;
}

void parker_slots_release(unsigned count, const unsigned *slots)
{
    pthread_mutex_lock(&table_lock);
    for (unsigned i = 0; i < count; i++)
        parkers[slots[i]].in_use = false;
    pthread_mutex_unlock(&table_lock);
}

void parker_wake(unsigned slot)
{
    parker *p = &parkers[slot];
    /* Full: the bump must be visible before the kernel compares the word for a
     * sleeper that has not queued itself yet (futex_wait's atomic check). */
    atomic_fetch_add_full_u32(&p->word, 1);
    futex_wake(&p->word, 1);
}

int idle_init(idle *s, unsigned workers, const unsigned *slots)
{
    s->sleepers = 0;
    s->searching = 0;
    s->parked_count = 0;
    s->count = workers;
    s->slots = slots;
    s->parked = calloc(workers, sizeof *s->parked);
    s->hints = calloc(workers, sizeof *s->hints);
    if (!s->parked || !s->hints) {
        free(s->parked);
        free(s->hints);
        return -1;
    }
    pthread_mutex_init(&s->lock, NULL);
    return 0;
}

void idle_destroy(idle *s)
{
    pthread_mutex_destroy(&s->lock);
    free(s->parked);
    free(s->hints);
}

void idle_watch(idle *s, unsigned index, atomic_word *hint) { s->hints[index] = hint; }

/* Point 6: after our sleepers increment (full), so that an owner whose clear
 * this load misses sees the increment.  Plain loads and stores: the increment
 * before and fence_heavy after order them. */
static void idle_set_hints(idle *s)
{
    for (unsigned i = 0; i < s->count; i++)
        if (s->hints[i] && atomic_load(s->hints[i]) == 0)
            atomic_store(s->hints[i], 1);
}

bool idle_hint_confirm(idle *s, atomic_word *hint)
{
    /* Relaxed: a count that is already stale costs at most one wake-up with
     * nothing for the sleeper (idle_signal_work reads it again); only the
     * answer "none" clears the hint, and that one is checked again below. */
    if (atomic_load(&s->sleepers) != 0)
        return true;
    /* Relaxed: the fence below orders it before our second read. */
    atomic_store(hint, 0);
    /* StoreLoad (point 6): our clear against a sleeper's increment; it then
     * either sees the clear and sets the hint again, or we see it here. */
    fence_full();
    if (atomic_load(&s->sleepers) == 0)
        return false;
    /* Relaxed: the clear may have hidden a sleeper's set, so we set it back
     * ourselves; a hint left set with nobody parked costs one call (point 7). */
    atomic_store(hint, 1);
    return true;
}

static void list_parker(idle *s, unsigned slot)
{
    pthread_mutex_lock(&s->lock);
    if (!parkers[slot].listed) {
        parkers[slot].listed = true;
        s->parked[s->parked_count++] = slot;
    }
    pthread_mutex_unlock(&s->lock);
}

static void unlist_parker(idle *s, unsigned slot)
{
    pthread_mutex_lock(&s->lock);
    if (parkers[slot].listed) {
        parkers[slot].listed = false;
        for (unsigned i = 0; i < s->parked_count; i++) {
            if (s->parked[i] == slot) {
                s->parked[i] = s->parked[--s->parked_count];
                break;
            }
        }
    }
    pthread_mutex_unlock(&s->lock);
}

void idle_park(idle *s, unsigned slot, bool (*has_work)(void *ctx), void *ctx)
{
    parker *p = &parkers[slot];
    /* Acquire: pairs with parker_wake's full increment.  Read before we list
     * ourselves, so a wake aimed at us after listing changes the word (point 3). */
    unsigned e = atomic_load_acquire_u32(&p->word);
    list_parker(s, slot);
    /* Full: the announcement publishers test (point 1); fence_heavy follows. */
    atomic_fetch_add_full(&s->sleepers, 1);
    idle_set_hints(s);
    /* StoreLoad: our sleepers increment and hints vs the publisher's work
     * store; pairs with the fence_light() every publisher issues before
     * idle_signal_work, or its hint test. */
    fence_heavy();
    if (!has_work(ctx))
        futex_wait(&p->word, e, NULL);
    unlist_parker(s, slot);
    /* Full: not needed for correctness (a stale count only costs a spare
     * wake-up), but keeps the count exact for publishers that read it. */
    atomic_fetch_add_full(&s->sleepers, (size_t)-1);
}

void idle_park_unlisted(unsigned slot, bool (*has_work)(void *ctx), void *ctx, long timeout_ns)
{
    struct timespec limit = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
    parker *p = &parkers[slot];
    /* Acquire: as in idle_park; read before the final check below. */
    unsigned e = atomic_load_acquire_u32(&p->word);
    /* The waker's announcement lives in the task's status word (task_state.c); the
     * caller registered there with a full CAS, and we still want the heavy fence
     * against the fast-path completion's fence_light (task_inline.h). */
    fence_heavy();
    if (!has_work(ctx))
        futex_wait(&p->word, e, timeout_ns > 0 ? &limit : NULL);
}

void idle_signal_work(idle *s)
{
    if (atomic_load(&s->sleepers) == 0)
        return;
    pthread_mutex_lock(&s->lock);
    int chosen = -1;
    if (s->parked_count > 0) {
        chosen = (int)s->parked[--s->parked_count];
        parkers[chosen].listed = false;
    }
    pthread_mutex_unlock(&s->lock);
    if (chosen >= 0)
        parker_wake((unsigned)chosen);
}

void idle_wake_all(idle *s)
{
    for (unsigned i = 0; i < s->count; i++)
        parker_wake(s->slots[i]);
}
