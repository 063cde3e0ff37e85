/* range.h - a work-stealing range of grains: the partitioner under the parallel
 * loops (loop.c explains the whole design and argues termination).
 *
 * A range is a run of grain numbers [lo, hi) owned by one participant.  The
 * owner keeps a private part [next, split) that it works from the low end, one
 * grain at a time, and exposes the rest [split, hi) in its slot, packed into
 * one word, so that a thief can take all of it with one compare-and-swap:
 *
 *      next          split                hi
 *   ----|-------------|--------------------|----
 *       | private:    | exposed: in the    |
 *       | owner only  | slot, owner or     |
 *       |             | thief may take it  |
 *
 * Who writes what (the synchronization table of this file):
 *
 *   operation            caller   slot word before -> after       may run with
 *   -------------------  -------  ---------------------------     -----------------------
 *   range_start          owner    empty -> [split, hi)            range_take
 *   range_next, expose   owner    empty -> top quarter of private range_take
 *   range_next, reclaim  owner    [split, hi) -> top quarter      range_take (one CAS wins)
 *   range_take           thief    [lo, hi) -> empty               everything above
 *
 * Only the owner stores into an empty word, and thieves only CAS a non-empty
 * word to empty, so the owner's plain stores never overwrite a thief's update.
 * A non-empty word names grains nobody has taken yet, and a grain is taken at
 * most once, so a given non-empty value can never reappear: no ABA.
 */
#ifndef FJ_RANGE_H
#define FJ_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "atomics.h"
#include "config.h"

/* Each half of the word holds a grain number, so a loop runs at most this many
 * grains at once; loop.c cuts longer loops into segments. */
#define RANGE_HALF_BITS (sizeof(atomic_word) * 4)
#define RANGE_MAX_GRAINS ((uint64_t)(((size_t)1 << RANGE_HALF_BITS) - 1))
_Static_assert(sizeof(atomic_word) >= 4, "two grain numbers share one word");

/* One participant's slot.  `exposed` is written by its owner and by thieves;
 * `progress` by the owner only.  One cache line each slot, so that thieves
 * hammering one slot do not slow the owners of the others. */
typedef struct range_slot {
    _Alignas(FJ_CACHE_LINE) atomic_word exposed;  /* packed [lo, hi); lo == hi: nothing */
    atomic_word progress;  /* grains the owner finished: idle thieves read it as a sign of life */
} range_slot;

/* The owner's private view of the range it works on. */
typedef struct range_owner {
    range_slot *slot;
    uint64_t next;   /* next grain to run */
    uint64_t split;  /* first grain not private: exposed, or stolen */
} range_owner;

static inline size_t range_pack(uint64_t lo, uint64_t hi) { return (size_t)((lo << RANGE_HALF_BITS) | hi); }
static inline uint64_t range_word_lo(size_t word) { return (uint64_t)word >> RANGE_HALF_BITS; }
static inline uint64_t range_word_hi(size_t word) { return (uint64_t)word & RANGE_MAX_GRAINS; }
static inline uint64_t range_word_length(size_t word) { return range_word_hi(word) - range_word_lo(word); }

/* How much of `length` private grains to expose: a quarter, but at least the
 * last one of two, so that the owner contends with thieves only for a range's
 * very last grain, and nothing when one grain is left. */
static inline uint64_t range_exposed_share(uint64_t length)
{
    if (length < 2)
        return 0;
    return length / 4 ? length / 4 : 1;
}

/* Owner: makes [split - share, split) stealable, shrinking the private part.
 * Relaxed store: the word itself is all a thief needs (the grains' input data
 * reached every participant through the fork that started it), and the slot
 * is empty, so no thief can be writing it (see the table above). */
static inline void range_expose_top(range_owner *o, uint64_t share)
{
    o->split -= share;
    atomic_store(&o->slot->exposed, range_pack(o->split, o->split + share));
}

/* Owner: starts on [lo, hi), exposing its top quarter.  The slot must be empty. */
static inline void range_start(range_owner *o, range_slot *slot, uint64_t lo, uint64_t hi)
{
    o->slot = slot;
    o->next = lo;
    o->split = hi;
    uint64_t share = range_exposed_share(hi - lo);
    if (share)
        range_expose_top(o, share);
}

/* Owner: takes back the low part of what it exposed, leaving the top quarter
 * exposed.  False if a thief took it all first: the range is finished. */
static inline bool range_reclaim(range_owner *o)
{
    size_t seen = atomic_load(&o->slot->exposed);
    uint64_t length = range_word_length(seen);
    if (length == 0)
        return false;
    /* Only we move the low end, so the exposed part still starts at split. */
    uint64_t hi = range_word_hi(seen);
    uint64_t share = range_exposed_share(length);
    size_t keep = share ? range_pack(hi - share, hi) : 0;
    /* The CAS's atomicity is what we need: either the thief's CAS or ours
     * takes these grains, never both.  Its full ordering is not needed (the
     * word carries all the information) but is the only CAS atomics.h has. */
    if (atomic_cas_full(&o->slot->exposed, seen, keep) != seen)
        return false;
    o->split = hi - share;
    return true;
}

/* Owner: the next grain to run, or false when the range is finished (every
 * grain run here or taken by a thief).  After taking a grain, if a thief has
 * emptied the slot, exposes a quarter of what is still private, so that work
 * stays stealable while this grain runs. */
static inline bool range_next(range_owner *o, uint64_t *grain)
{
    if (o->next == o->split && !range_reclaim(o))
        return false;
    *grain = o->next++;
    uint64_t share = range_exposed_share(o->split - o->next);
    /* Relaxed load: a stale non-empty answer only delays the re-exposure to
     * the next grain; a stale empty one cannot happen (we wrote it last, or a
     * thief emptied it and only we fill it). */
    if (share && range_word_length(atomic_load(&o->slot->exposed)) == 0)
        range_expose_top(o, share);
    /* Written by us only; read racily by idle thieves (their patience). */
    counter_add(&o->slot->progress, 1);
    return true;
}

/* Thief: takes everything `slot` exposes with one CAS.  Returns false if the
 * slot was empty or another participant changed it first. */
static inline bool range_take(range_slot *slot, size_t seen, uint64_t *lo, uint64_t *hi)
{
    if (range_word_length(seen) == 0)
        return false;
    /* Atomicity decides who gets the grains; see range_reclaim for why the
     * full ordering is more than needed. */
    if (atomic_cas_full(&slot->exposed, seen, 0) != seen)
        return false;
    *lo = range_word_lo(seen);
    *hi = range_word_hi(seen);
    return true;
}

#endif
