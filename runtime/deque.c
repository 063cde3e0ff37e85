/* deque.c - the slow paths of the work-stealing deque (fast paths: deque.h,
 * and the typed spawn/sync in include/fj.h).
 *
 * Design overview
 * ===============
 * Read first: Frigo, Leiserson, Randall, "The Implementation of the Cilk-5
 * Multithreaded Language" (PLDI'98, section 5: the THE protocol); Joe Duffy's
 * WorkStealingQueue; Faxén's Wool and van Dijk's Lace for task frames that
 * live in the deque and are run in place by thieves.
 *
 * The ideal algorithm, ignoring every race (slots are frames, top and head
 * point at them):
 *
 *     push(x):  *top++ = x                      -- owner, LIFO end
 *     pop():    return top > head ? *--top : EMPTY
 *     steal():  return top > head ? *head++ : EMPTY   -- thieves, FIFO end
 *
 * Complications, one at a time:
 *
 * 1. Thieves against thieves.  They all move head, so they serialise on the
 *    deque's lock.  A thief that finds the lock busy goes to another victim
 *    (wait = false) instead of queueing behind other thieves.
 *
 * 2. Owner against a thief.  The owner must not take the lock on every pop, so
 *    pop and steal each announce their claim before checking the other end:
 *
 *        pop:   top = f;      FENCE;  if head > f -> conflict
 *        steal: head = h + 1; FENCE;  if h + 1 > top -> conflict
 *
 *    Both are a store followed by a load of the other's variable, so each side
 *    needs a StoreLoad fence (Dekker).  With the fences, when both race for the
 *    last frame at least one of them sees the other's claim.  The thief that
 *    sees a conflict undoes its claim; the owner that sees one undoes its
 *    claim and decides under the lock, where no thief can move head.
 *
 * 3. Who pays for the fence.  Pops are on the fork/join fast path; steals are
 *    rare and already slow (a lock).  So pop uses a compiler barrier and steal
 *    uses fence_heavy() (membarrier), see atomics.h.  Where membarrier is
 *    missing, the deque splits instead (point 9).
 *
 * 4. Frames are run in place.  A typed frame holds its task's arguments and
 *    receives its result, so a thief runs it where it lies and the owner's
 *    sync reads the result from the slot.  The slot therefore must not be
 *    reused until the owner has synced it: the owner's pop of a stolen frame
 *    f sees head > f, and the owner waits for the thief's result, then lowers
 *    head and top to f under the lock (deque_lower).  Typed syncs are LIFO, so
 *    everything above f is synced by then, and everything below f was taken
 *    by thieves (head was above it): lowering frees exactly slot f.  An item
 *    frame holds only a pointer, which the thief copies under the lock, so
 *    the owner lowers past a stolen item frame at once (deque_pop_item_slow).
 *    Lowering keeps the used part of the range as deep as the owner's
 *    logical stack of unsynced spawns, whatever the number of steals.
 *
 * 5. No growth by copying.  Frames a thief runs in place cannot be moved, so
 *    the array cannot grow by copying.  Instead deque_init reserves
 *    FJ_DEQUE_FRAMES frames of address space, inaccessible (PROT_NONE), and
 *    makes its first FJ_DEQUE_COMMIT_FIRST bytes writable; `end` is the last
 *    writable frame, the spare frame of the inline spawn past it included
 *    (fj.h).  A push or spawn that reaches `end` takes the slow path, which
 *    doubles the writable part (deque_extend: one mprotect, owner-only, on
 *    frames no thief reads, since they lie above top) and moves the spawn
 *    limit there.  A reservation made writable at once (MAP_NORESERVE) was
 *    charged in full where the kernel accounts strictly
 *    (vm.overcommit_memory=2, common on clusters): 64 MiB per worker, and a
 *    190-worker pool failed on a 24 GiB machine; now a worker that never
 *    recurses deeply costs 64 KiB, and pages are still allocated only when
 *    touched.  Item frames a thief took are dead, but only a pop lowers
 *    past them, so a worker that pushes while thieves take everything climbs
 *    the range; when it is full, deque_compact slides the queued item frames
 *    down onto the dead ones (under the lock, where thieves read frames).  A
 *    deque full of live frames makes an item push fail (the caller runs the
 *    task inline, losing nothing); a typed spawn beyond it runs at once and
 *    keeps its result on the overflow stack for its sync (frame.c, point 5).
 *
 * 6. Stealing several.  A steal costs one fence_heavy, which is a membarrier
 *    system call (tens of microseconds on some virtual machines), so
 *    deque_steal_batch lets a thief claim k > 1 frames at once (the
 *    scheduler takes one at a time: task.c, point 2, says why): head = h + k, fence, read top T.  If the
 *    owner popped into the claimed range (T < h + k), the thief keeps only
 *    [h, T) and stores head = T.  The argument of the last-frame race applies
 *    to every pop separately: a pop of f < h + k either saw the claim (and
 *    waits for the lock, then re-checks against the trimmed head) or the
 *    thief's read of top saw it (T <= f, so f is not kept).  A typed frame is
 *    always taken alone (it must be run before anything above it can
 *    complete), so a batch stops before the first typed frame after the
 *    first, and gives the rest of its claim back the same way.
 *
 * 7. Who pays for the fence, adaptively.  Point 3 is right while steals are
 *    rare; under a stream of steals (an unbalanced tree, a loop's start) every
 *    steal would pay a membarrier.  So a thief that pays one also sets the
 *    FJ__HEAD_FENCED bit of head, before its barrier.  With it set, head
 *    compares above every frame, so every pop goes to deque_pop_slow, which
 *    issues a full fence (ten nanoseconds) and looks again; the next thieves,
 *    seeing the bit, issue a full fence instead of fence_heavy().  Every
 *    FJ_DEQUE_FENCED_POPS fenced pops the owner looks at head: if no steal
 *    moved it, it clears the bit, under the lock.  Why a thief that sees the
 *    bit (under the lock) may skip the membarrier, for each pop it can race
 *    with:
 *      - a pop that read head after the membarrier of the thief that set the
 *        bit sees it set (that barrier ran on the owner's CPU), so it is a
 *        fenced pop: plain Dekker, full fences on both sides (point 2);
 *      - a pop that read head before that barrier stored its top before it
 *        too (the store precedes the load in program order: the compiler
 *        barrier in pop), and the barrier made the store visible; every later
 *        thief follows the setter through the lock, so it sees that top and
 *        never keeps a frame the pop took (as in point 6, T <= f);
 *      - the owner clears the bit only under the lock, so no thief is between
 *        reading it and reading top when pops stop fencing; a thief that
 *        reads it clear pays fence_heavy(), which covers every pop.
 *    Where membarrier is missing the deque splits (point 9) and no thief
 *    sets the bit.
 *
 * 8. Ruled steals and tombstones (a joiner's help, task.c point 2).  A joiner
 *    may take a frame only at or above a floor, or only one given item, and
 *    only while the task it waits for still runs.  The floor is compared
 *    with head under the lock, before the claim.  The look at the item and
 *    the "still runs" check come after the barrier and the acquire read of
 *    top, when the claimed frame is ours (before, the owner may pop it and
 *    push another into its slot).  If the check says running, every frame
 *    below that top was pushed before the task's
 *    completion (a push after it would carry the completion with it to our
 *    acquire), so the floor read earlier was one of that run's floors.  A
 *    frame the owner takes out of the middle (deque_remove, under the lock,
 *    where no thief is between claim and check) becomes a tombstone: pops
 *    and steals consume it and go on; deque_compact moves it like an item.
 *    An item-ruled steal that claims a tombstone consumes it too (it takes
 *    no task), so a tombstone never hides the wanted item from its joiner.
 *    A pop passes over tombstones only down to the caller's floor.
 *
 * 9. Split mode, where membarrier is missing.  Points 2-7 would then cost a
 *    full fence in every pop, and one in every spawn (its sleeper test,
 *    idle.c point 1).  So, as in Lace, the owner keeps its newest frames to
 *    itself until a thief asks for them.  fj_head holds the split S: frames
 *    in [head, S) are public, frames in [S, top) private; head, the thieves'
 *    end, moves to thieves_end.  The inline sync's one compare keeps its
 *    meaning ("fj_head above f: go slow") and now says "f is public", so a
 *    sync of a private frame needs no fence; only the owner writes S.
 *      - Thieves claim below S instead of top: head = h + k, fence, read S;
 *        the THE race of point 2 is between that claim and the owner's
 *        shrink of S (deque_pop_fenced: S = f, fence, read head), each a
 *        store, a full fence and a load of the other's word.
 *      - A thief that finds nothing public but private frames above S asks:
 *        it sets the owner's wake hint, which the typed spawn tests already;
 *        the spawn then publishes (S = top) in fj__spawn_wake, fences and
 *        tests the sleepers, as idle.c point 1 asks of every publisher.
 *      - A request is answered at the owner's next spawn, so the hint is
 *        also set whenever nothing is public (deque_init, a thief taking the
 *        last public frame, a shrink or lower down to head): the first spawn
 *        into an empty public part publishes, and a recursion keeps its
 *        oldest frame public and pays no fence above it.
 *      - Item frames are public at once (deque_push_slow: item_limit is the
 *        base), so fj_task's non-strict joins never wait for a private frame;
 *        an owner about to wait publishes first (worker_publish).
 *      - FJ__HEAD_FENCED on S sends the owner's pops to the slow path while
 *        spawns that ran at once or observers need it (frame.c, point 5);
 *        thieves ignore it, and no thief writes fj_head in this mode.
 *    tests/model/split.pml checks the protocol (every frame taken once, no
 *    slot rewritten under a thief, no deadlock), with its mutants.
 *
 * 10. The owner at the thieves' end (Java's asyncMode: worker.c).  A pool
 *    created in that mode has each worker take its own oldest item first,
 *    as a thief would (deque_take_oldest).  The owner does it under the
 *    lock, where every other writer of head is, and it is the only one that
 *    could pop meanwhile, so the THE race of point 2 does not arise and no
 *    fence is needed: it reads head and top, moves head past the item (and
 *    any tombstones below it; in split mode it moves the thieves' end and
 *    publishes the rest, as deque_lower does), and unlocks.  Thieves that
 *    come later read the new head under the lock.  A typed frame is never
 *    taken this way: its sync or a thief takes it (point 4).  The range
 *    climbs as under thieves that take everything, and deque_compact brings
 *    it down (point 5).  tests/model/deque.pml checks it against thieves,
 *    batches and tombstones (OWNER_FIFO, with mutants: the take without the
 *    lock, or of a typed frame), and split.pml in the split mode against
 *    thieves that claim below S, with item and typed frames (OWNER_FIFO, the
 *    same mutants).  Both models also check fj_help_quiesce's steal from
 *    the owner's own deque (OWNER_STEALS), a thief's steal with no pop of
 *    the owner's in flight.
 *
 * The one subtle race, argued: owner pop vs thief steal of the last frame.
 *   Let one frame remain at k: head == k, top == k + 1.
 *   (a) The owner stores top = k; the thief stores head = k + 1.
 *   (b) By the fence pair, the owner's load of head returns k + 1, or the
 *       thief's load of top returns k, or both.
 *   (c) Thief sees top == k: k + 1 > k, it restores head = k and fails.
 *   (d) Owner sees head == k + 1 > k: it restores top, takes the lock (which
 *       the thief holds until (c) or its success is complete), and re-checks
 *       with both ends stable.
 *   (e) Owner sees head == k: then by (b) the thief saw top == k and fails,
 *       so the owner alone takes frame k.
 *   Summary: 1. every frame is taken at most once; 2. a frame is lost only if
 *   both sides fail, which (d) rules out because the locked re-check sees the
 *   thief's undo; 3. the owner takes the lock only when a thief is at the same
 *   frame, or to lower past a stolen one; 4. no slot is reused while a thief
 *   may still read or write it (point 4).
 */
#include "deque.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frame_state.h"

void deque_tomb_marker(fj_worker *w, fj_frame *f)
{
    deque_item_marker(w, f);
}

void deque_item_marker(fj_worker *w, fj_frame *f)
{
    (void)w;
    fprintf(stderr, "fj: internal error: an item frame %p was run as a typed frame\n", (void *)f);
    abort();
}

/* The idle words {sleepers, searching} of a deque whose pool has none yet,
 * and of every deque where membarrier is missing (deque_init). */
static const volatile unsigned long nobody_idle[2] = {0, 0};

static size_t page_round_up(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

/* Makes the first `bytes` of the range writable (page-rounded, at most all of
 * it) and sets end to the last frame they hold, at most reserved_end. */
static bool deque_commit(deque *d, size_t bytes)
{
    bytes = page_round_up(bytes);
    if (bytes > d->reserved_bytes)
        bytes = d->reserved_bytes;
    if (bytes > d->committed_bytes &&
        mprotect((char *)d->base + d->committed_bytes, bytes - d->committed_bytes, PROT_READ | PROT_WRITE) != 0)
        return false;
    d->committed_bytes = bytes;
    fj_frame *last = d->base + bytes / sizeof(fj_frame) - 1;  /* the spare frame past end */
    d->end = last < d->reserved_end ? last : d->reserved_end;
    return true;
}

bool deque_extend(deque *d)
{
    DEQUE_ASSERT_OWNER(d);
    if (d->end >= d->reserved_end || !deque_commit(d, 2 * d->committed_bytes))
        return false;
    /* Relaxed: only this thread reads limit.  Still base while a hook is on. */
    bool slow = (fj_frame *)atomic_load((atomic_word *)&d->ends.fj_limit) == d->base;
    deque_set_spawn_slow(d, slow);
    return true;
}

int deque_init(deque *d, size_t frames)
{
    memset(d, 0, sizeof *d);
    if (frames == 0)
        frames = FJ_DEQUE_FRAMES;
    /* One spare frame past the end: the inline spawn writes its frame before
     * it checks for room (include/fj.h). */
    d->reserved_bytes = page_round_up((frames + 1) * sizeof(fj_frame));
    void *range = mmap(NULL, d->reserved_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED)
        return -1;
    d->base = range;
    d->reserved_end = d->base + frames;
    if (!deque_commit(d, FJ_DEQUE_COMMIT_FIRST)) {
        munmap(range, d->reserved_bytes);
        d->base = d->reserved_end = NULL;
        return -1;
    }
    d->ends.fj_idle = nobody_idle;
    fence_init();
    d->split = !fj_fence_asymmetric;
    /* Relaxed stores: no other thread knows the deque yet (the pool hands its
     * workers out only after they started: pool_lifecycle.c). */
    atomic_store((atomic_word *)&d->ends.fj_top, (size_t)d->base);
    /* fj_head: head, or in split mode S (point 9); nothing public yet. */
    atomic_store((atomic_word *)&d->ends.fj_head, (size_t)d->base);
    atomic_store(&d->thieves_end, (size_t)d->base);
    /* Split mode: nothing is public, so the first spawn must publish (point
     * 9): the hint is set.  fj_idle stays at nobody_idle, which says nobody
     * is searching (deque_set_idle), so a spawn that finds the hint set
     * always calls fj__spawn_wake, which publishes, fences and tests the
     * pool's words itself. */
    atomic_store(deque_wake_hint(d), d->split ? 1 : 0);
    deque_set_spawn_slow(d, false);
    d->owner = pthread_self();
    pthread_mutex_init(&d->lock, NULL);
    return 0;
}

void deque_destroy(deque *d)
{
    pthread_mutex_destroy(&d->lock);
    if (d->base)
        munmap(d->base, d->reserved_bytes);
    free(d->overflow);
    d->overflow = NULL;
    if (d->shadow)
        munmap(d->shadow, d->shadow_bytes);
    d->shadow = NULL;
    d->base = d->end = d->reserved_end = NULL;
}

void deque_set_owner(deque *d, pthread_t owner) { d->owner = owner; }

void deque_set_idle(deque *d, const volatile unsigned long *idle_words)
{
    if (!d->split)  /* else nobody_idle for good (deque_init) */
        d->ends.fj_idle = idle_words;
}

void deque_set_spawn_slow(deque *d, bool slow)
{
    fj_frame *limit = slow ? d->base : d->end;
    atomic_store((atomic_word *)&d->ends.fj_limit, (size_t)limit);
    d->item_limit = d->split ? d->base : limit;
    /* The next typed spawn raises the guard to the new limit as it settles. */
    deque_guard_lower(d);
}

/* Sets the owner's wake hint, so that its next spawn publishes (point 9):
 * a thief's request, or the owner's own when nothing is public.  Relaxed:
 * the hint is advice; the publish it causes is what orders anything, and a
 * hint the owner clears just after this store has its publish coming. */
void deque_ask(deque *d)
{
    if (atomic_load(deque_wake_hint(d)) == 0)
        atomic_store(deque_wake_hint(d), 1);
}

/* Under the lock: head = h, top = t, and in split mode S = t (every frame
 * left in [h, t) is public) with the owner's bit kept.  No thief is between
 * its claim and its check, so none is undone.  Relaxed stores: thieves claim
 * only under the lock, whose unlock orders these and the frames before them
 * (their looks outside it decide nothing but whether to ask). */
static void deque_set_ends_locked(deque *d, fj_frame *h, fj_frame *t)
{
    uintptr_t bit = deque_head_word(d) & FJ__HEAD_FENCED;
    if (d->split) {
        atomic_store(&d->thieves_end, (size_t)h);
        atomic_store((atomic_word *)&d->ends.fj_head, (size_t)t | bit);
        if (h == t)
            deque_ask(d);  /* nothing public: the next spawn publishes */
    } else {
        atomic_store((atomic_word *)&d->ends.fj_head, (size_t)h | bit);
    }
    atomic_store((atomic_word *)&d->ends.fj_top, (size_t)t);
}

void *deque_take_oldest(deque *d)
{
    DEQUE_ASSERT_OWNER(d);
    /* A look without the lock first: an empty deque costs nothing.  Relaxed:
     * top is ours; head may be a thief's claim it is about to give back in
     * part, so the deque may look empty for that moment with an item in it.
     * Then we return NULL and the item stays queued: the worker's search
     * looks again before it parks, and parking itself looks at every deque
     * (scheduler.c), as after a pop that lost a race.  A deque that looks
     * fuller than it is costs the lock only. */
    if (deque_top(d) <= deque_head(d))
        return NULL;
    pthread_mutex_lock(&d->lock);
    /* Under the lock no thief is between its claim and its check, and only
     * we could move top (point 10). */
    fj_frame *h = deque_head(d), *t = deque_top(d), *f = h;
    while (f < t && f->fj_run == DEQUE_TOMB_RUN)
        f++;
    void *item = NULL;
    if (f < t && f->fj_run == DEQUE_ITEM_RUN) {
        item = *(void **)(void *)f->fj_data;
        f++;
    }
    if (f > h)
        deque_set_ends_locked(d, f, t);
    pthread_mutex_unlock(&d->lock);
    return item;
}

void deque_skip_to(deque *d, fj_frame *f)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    pthread_mutex_lock(&d->lock);
    deque_set_ends_locked(d, f, f);
    pthread_mutex_unlock(&d->lock);
}

void deque_owner_violation(const deque *d, const char *operation)
{
    fprintf(stderr, "fj: %s is owner-only: called on thread %#lx, the deque's owner is thread %#lx\n", operation,
            (unsigned long)pthread_self(), (unsigned long)d->owner);
    abort();
}

/* Below head lie frames thieves took: item frames, dead since their thief
 * copied the item under the lock, and typed frames still waiting for their
 * sync, which pin their slots (point 4).  When the range is full, the live
 * item frames [head, top) slide down onto the dead ones above the highest
 * pinned frame.  Under the lock: thieves read frames only while holding it. */
bool deque_compact(deque *d)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    pthread_mutex_lock(&d->lock);
    fj_frame *h = deque_head(d), *t = deque_top(d), *floor = h;
    while (floor > d->base && deque_is_item_slot(&floor[-1]))
        floor--;
    bool all_items = true;
    for (fj_frame *f = h; f < t && all_items; f++)
        all_items = deque_is_item_slot(f);
    bool moved = floor < h && all_items;
    if (moved) {
        memmove(floor, h, (size_t)(t - h) * sizeof *h);
        deque_set_ends_locked(d, floor, floor + (t - h));
    }
    pthread_mutex_unlock(&d->lock);
    return moved;
}

int deque_push_slow(deque *d, void *item)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    fj_frame *f = deque_top(d);
    if (f >= d->end && (deque_compact(d) || deque_extend(d)))
        f = deque_top(d);
    if (f >= d->end)
        return DEQUE_NO_MEMORY;
    f->fj_run = DEQUE_ITEM_RUN;
    *(void **)(void *)f->fj_data = item;
    /* Release as in deque_push. */
    atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
    (void)deque_publish(d);  /* split mode: items are public at once (point 9) */
    return DEQUE_PUSHED;
}

/* A fenced pop's fence, and the count-down that ends fencing once
 * FJ_DEQUE_FENCED_POPS pops went by without a steal (point 7). */
static void deque_pop_fence(deque *d)
{
    /* StoreLoad for a fenced pop: pairs with fence_full() in deque_steal_batch
     * when the thief saw the bit. */
    fence_full();
    if (d->fenced_pops_left > 0 || deque_pops_pinned(d)) {
        if (d->fenced_pops_left > 0)
            d->fenced_pops_left--;
        return;
    }
    /* Fencing just began, or FJ_DEQUE_FENCED_POPS pops went by: did a thief
     * move head meanwhile? */
    uintptr_t head = deque_head_word(d);
    if (head != d->head_seen) {
        d->head_seen = head;
        d->fenced_pops_left = FJ_DEQUE_FENCED_POPS;
        return;
    }
    /* Quiet: stop fencing.  Under the lock, so that no thief that saw the bit
     * is still deciding (point 7). */
    pthread_mutex_lock(&d->lock);
    atomic_store((atomic_word *)&d->ends.fj_head, deque_head_word(d) & ~FJ__HEAD_FENCED);
    pthread_mutex_unlock(&d->lock);
}

/* Split mode, under the lock: the owner's shrink met a thief's claim
 * (point 9).  With the thieves' end frozen, f is ours if it lies at or above
 * it; else a thief has it, and top goes back to f + 1 with nothing public. */
bool deque_pop_decide(deque *d, fj_frame *f)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    pthread_mutex_lock(&d->lock);
    fj_frame *h = (fj_frame *)atomic_load(&d->thieves_end);
    bool got = h <= f;
    if (!got) {
        /* Relaxed under the lock: thieves claim only under it (their looks
         * outside it decide nothing but whether to ask). */
        atomic_store((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
        atomic_store((atomic_word *)&d->ends.fj_head, (size_t)(f + 1) | (deque_head_word(d) & FJ__HEAD_FENCED));
    }
    if (h >= f)
        deque_ask(d);  /* nothing public is left (point 9) */
    pthread_mutex_unlock(&d->lock);
    return got;
}

/* deque_pop_slow in split mode (point 9). */
static fj_frame *deque_pop_split(deque *d, fj_frame *f)
{
    if (f < d->base) {  /* the deque is empty: give the claim back (release, as in deque_push) */
        atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
        return NULL;
    }
    uintptr_t word = deque_head_word(d);
    if ((word & ~FJ__HEAD_FENCED) > (uintptr_t)f)
        return deque_pop_fenced(d, f) ? f : NULL;  /* f is public: shrink */
    /* f is private: ours without a fence.  The bit goes once nothing needs
     * it (only the owner writes fj_head in this mode).  Release, though S
     * stays: a thief that acquires this value must also see the frames the
     * store that set S published (a plain store after it would not carry
     * them: it is no part of that store's release sequence). */
    if ((word & FJ__HEAD_FENCED) && !deque_pops_pinned(d))
        atomic_store_release((atomic_word *)&d->ends.fj_head, word & ~FJ__HEAD_FENCED);
    return f;
}

fj_frame *deque_pop_slow(deque *d, fj_frame *f)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    if (d->split)
        return deque_pop_split(d, f);
    if (deque_head_word(d) & FJ__HEAD_FENCED) {
        deque_pop_fence(d);
        /* Acquire: as in the inline pop (deque_head_word_acquire). */
        if ((deque_head_word_acquire(d) & ~FJ__HEAD_FENCED) <= (uintptr_t)f && f >= d->base)
            return f;
    }
    /* Undo the claim, then decide with head frozen by the lock (point 2, (d)).
     * Release: as the claim in deque_push. */
    atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
    pthread_mutex_lock(&d->lock);
    fj_frame *got = NULL;
    if (f >= d->base && deque_head(d) <= f) {
        got = f;
        /* The claim again, under the lock: thieves read top only under it
         * from here on, so relaxed is enough (the unlock orders it). */
        atomic_store((atomic_word *)&d->ends.fj_top, (size_t)f);
    }
    pthread_mutex_unlock(&d->lock);
    return got;
}

void deque_lower(deque *d, fj_frame *f)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    pthread_mutex_lock(&d->lock);
    /* Under the lock: no thief is between its claim and its check, so moving
     * head down cannot undo a claim in flight (point 4).  The slot's state
     * goes back to 0 for its next frame. */
    atomic_store((atomic_word *)&f->fj_state, 0);
    deque_set_ends_locked(d, f, f);
    pthread_mutex_unlock(&d->lock);
}

void *deque_pop_item_slow(deque *d, fj_frame *f, const fj_frame *floor)
{
    deque_guard_lower(d);
    if (f < floor) {
        /* Below the caller's floor: not ours to take; give the claim back.
         * Release, as in deque_push. */
        atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
        return NULL;
    }
    fj_frame *got = f;
    if (deque_pop_may_race(d, f))
        got = deque_pop_slow(d, f);
    if (got) {
        if (got->fj_run == DEQUE_ITEM_RUN)
            return *(void **)(void *)got->fj_data;
        if (got->fj_run == DEQUE_TOMB_RUN)  /* its item was taken out: go on below */
            return deque_top(d) > deque_head(d) ? deque_pop_above(d, floor) : NULL;
        /* A typed frame is newest: only its sync may take it; put it back
         * (public again in split mode: publishing is always allowed). */
        atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(got + 1));
        (void)deque_publish(d);
        return NULL;
    }
    /* f was taken by a thief (or the deque is empty).  A stolen item frame's
     * slot is free at once (point 4); a typed one waits for its sync. */
    if (f >= d->base && deque_is_item_slot(f) && deque_top(d) == f + 1)
        deque_lower(d, f);
    return NULL;
}

/* Takes frames [h, h + got) under the lock, passing over tombstones: returns
 * how many frames it consumes (head moves past them) and sets *kept to how
 * many items or frames it put into out. */
static size_t deque_take_claimed(fj_frame *h, size_t got, void **out, size_t *kept)
{
    size_t n = 0;
    for (size_t i = 0; i < got; i++) {
        fj_frame *f = h + i;
        if (f->fj_run == DEQUE_TOMB_RUN)
            continue;
        if (f->fj_run == DEQUE_ITEM_RUN) {
            out[n++] = *(void **)(void *)f->fj_data;
            continue;
        }
        if (n > 0) {
            *kept = n;
            return i;  /* a typed frame is taken alone (point 6) */
        }
        /* Plain store under the lock: the owner reads it after it has seen
         * head move past f and taken the lock (deque_pop_slow). */
        atomic_store((atomic_word *)&f->fj_state, FRAME_STOLEN);
        out[0] = (void *)((uintptr_t)f | 1u);
        *kept = 1;
        return i + 1;
    }
    *kept = n;
    return got;
}

/* May a ruled steal keep the frame at h, which it has claimed (so the owner
 * no longer writes it: its contents are read only after the claim)? */
static bool deque_rule_admits(const deque_steal_rule *rule, const fj_frame *h)
{
    if (!rule)
        return true;
    if (h < rule->floor)
        return false;
    if (rule->item && h->fj_run == DEQUE_TOMB_RUN)
        return true;  /* consumed, nothing taken: the item may be next (point 8) */
    if (rule->item && !(h->fj_run == DEQUE_ITEM_RUN && *(void *const *)(const void *)h->fj_data == rule->item))
        return false;
    /* After the barrier and the read of top (point 8): a joiner whose task
     * completed meanwhile takes nothing. */
    return !rule->wanted || rule->wanted(rule->ctx);
}

/* A thief found nothing public: if the owner keeps frames private, ask for
 * them (point 9).  Relaxed loads: a request is advice, and a stale look
 * costs at most one publish too many, or one asked for on the next try. */
void deque_ask_if_private(deque *d)
{
    if (d->split && deque_top(d) > deque_public_end(d))
        deque_ask(d);
}

/* The steal of point 9, in split mode, under the lock: claims below S. */
static size_t deque_steal_split(deque *d, void **out, size_t max, const deque_steal_rule *rule)
{
    /* Plain: only thieves under the lock, and the owner under it, write it. */
    fj_frame *h = (fj_frame *)atomic_load(&d->thieves_end);
    /* Acquire: pairs with the owner's release stores of S (deque_publish),
     * so the frames below it are written before we read them. */
    fj_frame *s = (fj_frame *)(atomic_load_acquire((atomic_word *)&d->ends.fj_head) & ~FJ__HEAD_FENCED);
    long seen = (long)(s - h);
    if (seen <= 0 || (rule && h < rule->floor)) {
        if (seen <= 0)
            deque_ask_if_private(d);
        return 0;
    }
    size_t want = seen > 1 ? (size_t)(seen / 2) : 1;  /* half, at least one */
    if (want > max)
        want = max;
    /* The claim.  Release: the previous thief's looks at its frames (ordered
     * before us by the lock) happen-before an owner that acquires this end
     * and reuses them. */
    atomic_store_release(&d->thieves_end, (size_t)(h + want));
    /* StoreLoad: our claim against the owner's shrink of S; pairs with the
     * fence_full() in deque_pop_fenced (point 9, as point 2). */
    fence_full();
    /* Acquire, as above. */
    s = (fj_frame *)(atomic_load_acquire((atomic_word *)&d->ends.fj_head) & ~FJ__HEAD_FENCED);
    size_t got = want;
    if (h + want > s)
        got = s > h ? (size_t)(s - h) : 0;  /* the owner shrank S into our claim */
    if (got && !deque_rule_admits(rule, h))
        got = 0;
    size_t kept = 0;
    size_t consumed = got ? deque_take_claimed(h, got, out, &kept) : 0;
    if (consumed < want)
        /* Give the rest back.  Release: our looks at those frames happen-
         * before the owner's acquire of this end in its shrink. */
        atomic_store_release(&d->thieves_end, (size_t)(h + consumed));
    if (h + consumed >= s)
        deque_ask(d);  /* we took the last public frame: the next spawn publishes */
    return kept;
}

/* The steal of points 2, 6 and 7, under `rule` when it is not NULL. */
static size_t deque_steal_claim(deque *d, bool wait, void **out, size_t max, const deque_steal_rule *rule)
{
    /* A read-only look first: an empty victim costs no lock and no barrier. */
    if (deque_size(d) == 0) {
        deque_ask_if_private(d);
        return 0;
    }
    if (wait)
        pthread_mutex_lock(&d->lock);
    else if (pthread_mutex_trylock(&d->lock) != 0)
        return 0;
    if (d->split) {
        size_t kept = deque_steal_split(d, out, max, rule);
        pthread_mutex_unlock(&d->lock);
        return kept;
    }
    uintptr_t hw = deque_head_word(d);
    fj_frame *h = (fj_frame *)(hw & ~FJ__HEAD_FENCED);
    /* A first look at top, only to size the batch; acquire as below. */
    long seen = (long)((fj_frame *)atomic_load_acquire((atomic_word *)&d->ends.fj_top) - h);
    if (seen <= 0 || (rule && h < rule->floor)) {
        pthread_mutex_unlock(&d->lock);
        return 0;
    }
    size_t want = seen > 1 ? (size_t)(seen / 2) : 1;  /* half, at least one */
    if (want > max)
        want = max;
    /* Claim frames [h, h + want), with the fenced bit set (point 7).  Release:
     * the previous thief's looks at its frames (ordered before us by the lock)
     * happen-before an owner that acquires this head and reuses them. */
    atomic_store_release((atomic_word *)&d->ends.fj_head, (size_t)(h + want) | FJ__HEAD_FENCED);
    /* StoreLoad with the owner's pop (points 2, 6 and 7).  Bit already set:
     * the owner's pops fence, or stored their top before the barrier of the
     * thief that set it (which the lock orders before us), so a full fence
     * pairs with theirs.  Otherwise fence_heavy() pairs with an unfenced pop;
     * the bit, set before the barrier, makes every pop after it fence. */
    if (hw & FJ__HEAD_FENCED)
        fence_full();
    else
        fence_heavy();
    /* Acquire: pairs with the release store of top in push / spawn, so the
     * frames and what they point to are fully written before we read them. */
    fj_frame *t = (fj_frame *)atomic_load_acquire((atomic_word *)&d->ends.fj_top);
    size_t got = want;
    if (h + want > t)
        got = t > h ? (size_t)(t - h) : 0;  /* the owner popped into our claim */
    if (got && !deque_rule_admits(rule, h))
        got = 0;
    size_t kept = 0;
    size_t consumed = got ? deque_take_claimed(h, got, out, &kept) : 0;
    if (consumed < want)
        /* Give the rest back.  Release: our looks at those frames (their
         * runners) happen-before the owner's acquire of head in its pop, so
         * it may rewrite them. */
        atomic_store_release((atomic_word *)&d->ends.fj_head, (size_t)(h + consumed) | FJ__HEAD_FENCED);
    pthread_mutex_unlock(&d->lock);
    return kept;
}

size_t deque_steal_batch(deque *d, bool wait, void **out, size_t max)
{
    return deque_steal_claim(d, wait, out, max, NULL);
}

void *deque_steal_ruled(deque *d, const deque_steal_rule *rule)
{
    void *item = NULL;
    /* One frame: a ruled steal never takes more than the joiner runs next. */
    return deque_steal_claim(d, true, &item, 1, rule) ? item : NULL;
}

bool deque_remove(deque *d, const void *item)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    pthread_mutex_lock(&d->lock);
    /* Under the lock no thief is between its claim and its check, and head
     * stays where it is; only we move top.  So a slot in [head, top) is
     * ours to rewrite, and thieves read it only after our unlock. */
    fj_frame *h = deque_head(d), *t = deque_top(d), *f = t;
    while (f > h && !(f[-1].fj_run == DEQUE_ITEM_RUN && *(void **)(void *)f[-1].fj_data == item))
        f--;
    bool found = f > h;
    if (found && f == t) {
        atomic_store((atomic_word *)&d->ends.fj_top, (size_t)(t - 1));  /* the newest: a pop */
        uintptr_t word = deque_head_word(d);
        /* S no higher than top.  Relaxed under the lock, as deque_set_ends_locked's. */
        if (d->split && (word & ~FJ__HEAD_FENCED) > (uintptr_t)(t - 1))
            atomic_store((atomic_word *)&d->ends.fj_head, (size_t)(t - 1) | (word & FJ__HEAD_FENCED));
    } else if (found)
        f[-1].fj_run = DEQUE_TOMB_RUN;
    pthread_mutex_unlock(&d->lock);
    return found;
}

void *deque_steal(deque *d, bool wait)
{
    void *item = NULL;
    return deque_steal_batch(d, wait, &item, 1) ? item : NULL;
}
