/* deque.h - a work-stealing deque of frames in the style of Cilk-5's THE
 * protocol and Duffy's WorkStealingQueue.  It knows nothing of tasks or workers.
 *
 * A slot is a 64-byte frame (fj_frame, include/fj.h).  Two kinds live in it:
 *   - an *item* frame carries one pointer (an fj_task): deque_push / deque_pop /
 *     deque_steal move items, as a deque of pointers would;
 *   - a *typed* frame carries a typed task's runner, arguments and, once run,
 *     its result.  The inline spawn and sync of include/fj.h push and pop them;
 *     a thief runs one in place and publishes its result in the slot.
 * The owner pushes and pops at the top (LIFO) without a lock; thieves take from
 * the head (FIFO) under the deque's lock, and so does the owner of a pool in
 * Java's asyncMode (deque_take_oldest).  The design argument is at the top of
 * deque.c.
 *
 * Synchronization table: which operations may run at the same time.
 *
 * (steal covers deque_steal and deque_steal_batch; push/pop cover the inline
 *  spawn/sync of include/fj.h; lower is deque_lower, and also stands for the
 *  owner's other operations under the lock: deque_take_oldest, remove,
 *  compact, skip_to)
 *                 push     pop      steal    lower    size
 *   push (owner)   -        -        yes      -        yes
 *   pop  (owner)   -        -        yes      -        yes
 *   steal (thief)  yes      yes      no(lock) no(lock) yes
 *   lower (owner)  -        -        no(lock) -        yes
 *   size (any)     yes      yes      yes      yes      yes
 *
 * '-' means "same thread, never concurrent"; push, pop and lower are
 * owner-only and are asserted so in debug builds.  size is a racy snapshot,
 * exact only when the deque is quiescent.
 *
 * Two modes, fixed when the deque is made (deque.c, points 3 and 9):
 *   - with membarrier (fj_fence_asymmetric): every frame below top is public;
 *     head is the thieves' end (fj_head);
 *   - split, where membarrier is missing: frames at or above the split S
 *     (fj_head) are the owner's alone, frames in [head, S) are public, and
 *     head, the thieves' end, is a word of its own (thieves_end).
 * Thieves take only public frames; deque_head() and deque_public_end() give
 * both ends in either mode.
 */
#ifndef FJ_DEQUE_H
#define FJ_DEQUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/fj.h"
#include "atomics.h"
#include "config.h"

typedef struct deque {
    /* The public layout (include/fj.h) first, so inline spawn and sync find
     * it at the start of a worker: top, limit, idle, the wake hint and the
     * spawn guard on the owner's line (top, limit and the guard written by the
     * owner, idle fixed, the hint by the owner, by workers about to park
     * (idle.c) and, in split mode, by thieves asking for frames), then head on
     * the thieves' line.  head = the oldest frame a thief may take, plus the
     * FJ__HEAD_FENCED bit while the owner's pops must fence (deque.c, 7);
     * written by thieves, and by the owner in deque_lower, deque_take_oldest
     * and when it stops fencing, always under the lock.  In split mode fj_head
     * holds the split S instead, written by the owner only (point 9). */
    fj_deque_ends ends;
    pthread_mutex_t lock;
    /* Split mode only: the thieves' end, written under the lock (by thieves,
     * and by the owner in deque_lower and the like); read by the owner's
     * fenced pops (deque.c, point 9). */
    atomic_word thieves_end;
    char pad_thief[FJ_CACHE_LINE];
    /* Owner-private, fixed after init except the fence count-down and the
     * committed part, which grows (point 5). */
    fj_frame *base;             /* the reserved range [base, reserved_end]; never moves */
    fj_frame *reserved_end;     /* base + FJ_DEQUE_FRAMES; fixed (read by observers of any worker) */
    fj_frame *end;              /* the committed part's end: frames [base, end] are writable */
    /* An item push at or above it takes deque_push_slow: limit, or the base
     * in split mode, where every item is published at once (point 9). */
    fj_frame *item_limit;
    bool split;                 /* the mode without membarrier (point 9) */
    size_t reserved_bytes, committed_bytes;
    uintptr_t head_seen;        /* head when fencing was last prolonged */
    unsigned fenced_pops_left;  /* fenced pops before head is looked at again */
    /* Results of typed spawns that found the range full and ran at once
     * (frame.c), newest last; while any is here pops stay fenced, so every
     * sync comes to the slow path that hands them out. */
    unsigned char (*overflow)[FJ_FRAME_DATA_SIZE];
    size_t overflow_count, overflow_room;
    /* While an observer is on (frame_observe.c): one fj_task per slot that
     * stands for its frame, and pops kept fenced so every sync is seen. */
    fj_task *shadow;
    size_t shadow_bytes;
    bool pinned_fenced;
    pthread_t owner;            /* asserted in owner-only operations (debug builds) */
} deque;

enum deque_push_result { DEQUE_PUSHED = 0, DEQUE_NO_MEMORY = -1 };

/* The runner stored in item frames: a marker, never called. */
void deque_item_marker(fj_worker *w, fj_frame *f);
#define DEQUE_ITEM_RUN deque_item_marker
/* The runner of a tombstone: an item frame whose item the owner took out of
 * the middle of the deque (deque_remove).  Pops and steals pass over it. */
void deque_tomb_marker(fj_worker *w, fj_frame *f);
#define DEQUE_TOMB_RUN deque_tomb_marker
static inline bool deque_is_item_slot(const fj_frame *f)
{
    return f->fj_run == DEQUE_ITEM_RUN || f->fj_run == DEQUE_TOMB_RUN;
}

/* Reserves room for `frames` frames (0: FJ_DEQUE_FRAMES) as address space and
 * commits its first FJ_DEQUE_COMMIT_FIRST bytes; the calling thread becomes the
 * owner until deque_set_owner.  Returns 0 or -1 (errno says why) when the
 * range cannot be reserved or committed. */
int deque_init(deque *d, size_t frames);
/* Owner, on a full committed part: commits twice as much of the range (at most
 * all of it) and moves the spawn limit to the new end.  False if the range is
 * all committed or the system refuses (point 5). */
bool deque_extend(deque *d);
void deque_destroy(deque *d);
void deque_set_owner(deque *d, pthread_t owner);
/* Owner: where spawn reads whether to wake a sleeper ({sleepers, searching});
 * ignored in split mode (a spawn that finds its hint set then always calls
 * fj__spawn_wake). */
void deque_set_idle(deque *d, const volatile unsigned long *idle_words);
/* The word a spawn tests before it reads idle_words (idle.c, wake hints). */
static inline atomic_word *deque_wake_hint(deque *d) { return (atomic_word *)&d->ends.fj_wake_hint; }
/* Owner: true sends every spawn through fj__spawn_slow (hooks on, or results
 * of spawns run at once waiting); false: only a full deque does. */
void deque_set_spawn_slow(deque *d, bool slow);

/* Owner only: when the range is full, slides the queued item frames down onto
 * the slots of stolen item frames below head (deque.c, point 5).  Returns true
 * if room was made. */
bool deque_compact(deque *d);
/* Owner only: the full or slowed case of push. */
int deque_push_slow(deque *d, void *item);
/* Owner only: the case of pop where head compared above the claimed frame f
 * (a thief near, the deque empty, or pops fenced).  Returns f if the owner
 * now holds it (top == f), or NULL with top back at f + 1: f is below head,
 * taken by a thief, or below the base (the deque is empty). */
fj_frame *deque_pop_slow(deque *d, fj_frame *f);
/* Owner only: after frame f was stolen and its thief is done with the slot
 * (typed: result published; item: read under the lock), and nothing is above
 * it (top == f + 1): moves head and top down to f, so the slot is reused. */
void deque_lower(deque *d, fj_frame *f);

/* Thieves: takes up to `max` (<= FJ_STEAL_BATCH_MAX) of the oldest frames, at
 * most half of those present (at least one), oldest first into `out`, and
 * returns how many; 0 when empty or (wait false) the lock is busy.  An item
 * frame gives its item; a typed frame is taken alone and given as its address
 * with bit 0 set (deque_tagged_frame), marked FRAME_STOLEN in its state: the
 * thief must run it in place and publish its result. */
size_t deque_steal_batch(deque *d, bool wait, void **out, size_t max);
/* Thieves, split mode: a look that found nothing public asks the owner for
 * its private frames, if it has any (deque.c, point 9); nothing elsewhere.
 * deque_steal_batch asks by itself. */
void deque_ask_if_private(deque *d);
/* Thieves: one frame, as deque_steal_batch with max 1; NULL when empty. */
void *deque_steal(deque *d, bool wait);

/* What a helping joiner may take (task.c, frame.c): nothing below `floor`,
 * only `item` when it is not NULL, and only while wanted(ctx) is still true
 * once the claim is made and top is read (deque.c, point 8). */
typedef struct deque_steal_rule {
    const fj_frame *floor;
    const void *item;
    bool (*wanted)(void *ctx);
    void *ctx;
} deque_steal_rule;
/* Thieves: one frame, taken only as `rule` allows (waits for the lock). */
void *deque_steal_ruled(deque *d, const deque_steal_rule *rule);
/* Owner only: takes `item` out of the deque wherever it lies between head and
 * top, leaving a tombstone in its slot if it is not the newest.  True if the
 * owner now holds it; false if it is not queued here (a thief has it). */
bool deque_remove(deque *d, const void *item);

/* Owner only (Java's asyncMode, worker.c): takes the oldest frame if it is an
 * item frame and returns its item, consuming tombstones below it; NULL when
 * the deque is empty or its oldest frame is typed (only its sync or a thief
 * takes that).  Under the lock, as a thief's claim (deque.c, point 10). */
void *deque_take_oldest(deque *d);

/* Owner only: moves head and top to f, as if every frame below f had been
 * taken (serial elision: frame.c).  Under the lock. */
void deque_skip_to(deque *d, fj_frame *f);

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

/* The value deque_steal gives for a typed frame, and back. */
static inline bool deque_is_tagged_frame(const void *taken) { return ((uintptr_t)taken & 1u) != 0; }
static inline fj_frame *deque_tagged_frame(const void *taken) { return (fj_frame *)((uintptr_t)taken & ~(uintptr_t)1); }
/* The observers' stand-in for frame f of deque d (frame_observe.c), or NULL
 * while nobody observes d.  A thief reads another deque's shadow pointer
 * plain: its owner writes it once, before it first parks, and fj_pool_create
 * returns only after every worker parked (acquire in pool_lifecycle.c), so
 * the write happens-before any task of the pool exists to be stolen. */
static inline fj_task *deque_shadow(const deque *d, const fj_frame *f) { return d->shadow ? &d->shadow[f - d->base] : NULL; }

/* ---- the words, through atomics.h (fj.h's inline code uses __atomic on the same words) ---- */
static inline fj_frame *deque_top(const deque *d) { return (fj_frame *)atomic_load((const atomic_word *)&d->ends.fj_top); }
/* fj_head: head | FJ__HEAD_FENCED, or in split mode S | FJ__HEAD_FENCED (the
 * bit there only sends the owner's pops to the slow path). */
static inline uintptr_t deque_head_word(const deque *d) { return atomic_load((const atomic_word *)&d->ends.fj_head); }
/* The owner's look at head in a pop.  Acquire: pairs with the release stores
 * of head in deque_steal_batch, so a slot a thief looked at (and kept or gave
 * back) is read by it before the owner writes the slot again. */
static inline uintptr_t deque_head_word_acquire(const deque *d)
{
    return atomic_load_acquire((const atomic_word *)&d->ends.fj_head);
}
/* The thieves' end: the oldest frame a thief may take. */
static inline fj_frame *deque_head(const deque *d)
{
    if (d->split)
        return (fj_frame *)atomic_load(&d->thieves_end);
    return (fj_frame *)(deque_head_word(d) & ~FJ__HEAD_FENCED);
}
/* The public end: thieves take frames below it (top, or S in split mode). */
static inline fj_frame *deque_public_end(const deque *d)
{
    if (d->split)
        return (fj_frame *)(deque_head_word(d) & ~FJ__HEAD_FENCED);
    return deque_top(d);
}

/* Owner only, split mode: deque_pop_fenced's shrink met a thief's claim;
 * decides under the lock (deque.c, point 9). */
bool deque_pop_decide(deque *d, fj_frame *f);
/* Sets the owner's wake hint: its next spawn publishes (deque.c, point 9). */
void deque_ask(deque *d);
/* Whether the owner's pops must stay fenced / slow: results of spawns run at
 * once wait for their syncs, or an observer sees every sync. */
static inline bool deque_pops_pinned(const deque *d) { return d->overflow_count > 0 || d->pinned_fenced; }

/* Owner only, split mode (no membarrier): frame f is the newest (top == f,
 * the inline pop's store) and public (f below S).  Shrinks the public part
 * to below f, then looks at the thieves' end: true if the owner now holds f;
 * false with f taken by a thief, top back at f + 1 (deque_pop_slow's
 * answers).  The typed sync's usual case there (fj__sync_slow); it leaves
 * the spawn guard up (docs/performance.md, finding 12). */
static inline bool deque_pop_fenced(deque *d, fj_frame *f)
{
    DEQUE_ASSERT_OWNER(d);
    /* Only the owner writes S in this mode.  Release: frames below f that
     * this store publishes (none where S was above f) are written before a
     * thief acquires S.  The bit stays only while results of spawns run at
     * once wait or an observer pins it (frame.c, point 5). */
    atomic_store_release((atomic_word *)&d->ends.fj_head, (size_t)f | (deque_pops_pinned(d) ? FJ__HEAD_FENCED : 0));
    /* StoreLoad: our shrink and a thief's claim of f cannot both go unseen;
     * pairs with the thief's fence_full() (deque.c, point 9). */
    fence_full();
    /* Acquire: a thief that looked at f and gave it back released the
     * thieves' end after its look, so our later writes to the slot follow. */
    uintptr_t h = atomic_load_acquire(&d->thieves_end);
    if (__builtin_expect(h > (uintptr_t)f, 0))
        return deque_pop_decide(d, f);  /* a thief near: under the lock */
    if (h == (uintptr_t)f)
        deque_ask(d);  /* nothing public is left: the next spawn publishes */
    return true;
}

/* Owner only: top moves, or may, outside a typed spawn or sync, perhaps under
 * a typed task's copy of top: that task's next spawn settles first
 * (include/fj.h, fj__spawn_begin_guarded).  Every operation here and in
 * deque.c that moves top calls it.  A plain store: only the owner reads or
 * writes the guard. */
static inline void deque_guard_lower(deque *d) { d->ends.fj_spawn_guard = 0; }

/* Owner only: whether a pop of frame f (claimed: top == f) must take
 * deque_pop_slow: with membarrier, head compares above f (a thief near, or
 * pops fenced); in split mode, always (it takes a private frame without a
 * fence, and decides a public one).  Outside deque_pop_slow, in split mode,
 * S at or below f means f is private. */
static inline bool deque_pop_may_race(const deque *d, const fj_frame *f)
{
    return d->split || deque_head_word(d) > (uintptr_t)f;
}

/* Racy count of the frames a thief could take now; never negative. */
static inline size_t deque_size(const deque *d)
{
    fj_frame *t = deque_public_end(d), *h = deque_head(d);
    return t > h ? (size_t)(t - h) : 0;
}

/* Owner only, split mode: makes every frame below top public (S = top);
 * nothing elsewhere.  Returns true if it published a frame not public before. */
static inline bool deque_publish(deque *d)
{
    if (!d->split)
        return false;
    uintptr_t word = deque_head_word(d);
    uintptr_t t = (uintptr_t)deque_top(d);
    if ((word & ~FJ__HEAD_FENCED) >= t)
        return false;
    /* Only the owner writes S in this mode.  Release: the frames are written
     * before a thief that acquires S reads them (deque.c, point 9). */
    atomic_store_release((atomic_word *)&d->ends.fj_head, t | (word & FJ__HEAD_FENCED));
    return true;
}

/* Owner only: deque_push without its slow half.  False, and nothing pushed,
 * where deque_push would call deque_push_slow (every frame up to the item
 * limit in use, or split mode, whose item pushes publish).  A caller that then
 * calls deque_push_slow from another function keeps its own fast path free of
 * the call, and so of a stack frame (task_fork, task_fork_grow). */
static inline bool deque_push_fast(deque *d, void *item)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    fj_frame *f = deque_top(d);
    if (__builtin_expect(f >= d->item_limit, 0))
        return false;
    f->fj_run = DEQUE_ITEM_RUN;
    *(void **)(void *)f->fj_data = item;
    /* Release: the frame, and everything the owner wrote into the item before
     * the push, is visible to a thief whose acquire load of top sees f + 1. */
    atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
    return true;
}

/* Owner only: pushes an item frame at the top; DEQUE_NO_MEMORY (nothing
 * pushed) only when every reserved frame is in use. */
static inline int deque_push(deque *d, void *item)
{
    if (__builtin_expect(!deque_push_fast(d, item), 0))
        return deque_push_slow(d, item);
    return DEQUE_PUSHED;
}

/* Owner only: pops the newest frame at or above `floor` if it is an item
 * frame and returns its item, passing over tombstones (never below floor);
 * NULL when there is none, the newest frame was stolen, or it is a typed
 * frame (which only its sync may take: it stays). */
void *deque_pop_item_slow(deque *d, fj_frame *f, const fj_frame *floor);
static inline void *deque_pop_above(deque *d, const fj_frame *floor)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    fj_frame *f = deque_top(d) - 1;
    /* Claim f before looking at head (deque.c, point 2). */
    atomic_store((atomic_word *)&d->ends.fj_top, (size_t)f);
    /* StoreLoad: our claim of f and a thief's claim of head cannot both go
     * unseen.  Only a compiler barrier: it pairs with the thief's
     * fence_heavy() (deque.c, points 3 and 7); fenced pops see FJ__HEAD_FENCED
     * and fence in the slow path. */
    compiler_barrier();
    if (__builtin_expect(deque_head_word_acquire(d) > (uintptr_t)f || f->fj_run != DEQUE_ITEM_RUN || f < floor, 0))
        return deque_pop_item_slow(d, f, floor);
    return *(void **)(void *)f->fj_data;
}

/* Owner only: deque_pop_above with no floor. */
static inline void *deque_pop(deque *d) { return deque_pop_above(d, NULL); }

/* Owner only: gives back the item the last deque_pop returned (it is in the
 * slot at top, untouched), public again.  Release, as in deque_push. */
static inline void deque_unpop(deque *d)
{
    DEQUE_ASSERT_OWNER(d);
    deque_guard_lower(d);
    atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(deque_top(d) + 1));
    (void)deque_publish(d);
}

/* Owner only: the item pop would return, without taking it (NULL if empty or
 * a typed frame is newest).  A thief may take it a moment later; only pop decides. */
static inline void *deque_peek_newest(const deque *d)
{
    fj_frame *t = deque_top(d), *h = deque_head(d);
    while (t > h && t[-1].fj_run == DEQUE_TOMB_RUN)
        t--;
    if (t <= h || t[-1].fj_run != DEQUE_ITEM_RUN)
        return NULL;
    return *(void *const *)(const void *)t[-1].fj_data;
}

/* Owner only: the item deque_take_oldest would return, without taking it
 * (NULL if empty or a typed frame is oldest).  A thief may take it a moment
 * later.  Plain reads of the slots: only the owner writes them. */
static inline void *deque_peek_oldest(const deque *d)
{
    fj_frame *h = deque_head(d), *t = deque_top(d);
    while (h < t && h->fj_run == DEQUE_TOMB_RUN)
        h++;
    if (h >= t || h->fj_run != DEQUE_ITEM_RUN)
        return NULL;
    return *(void *const *)(const void *)h->fj_data;
}

#endif
