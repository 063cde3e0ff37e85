/* split.pml - the split deque of the mode without membarrier (runtime/deque.c,
 * point 9; docs/performance.md, finding 12), under x86-TSO (tso.pml).  There
 * the owner's newest frames are private until a thief asks, so spawning and
 * syncing them needs no fence, as in Lace.
 *
 * The words (mem[]), and the C field each is:
 *   T     the owner's top (d->ends.fj_top): written by the owner only;
 *         thieves read it only to decide whether to ask for a publish
 *   S     the split (d->ends.fj_head in this mode, so the inline sync's one
 *         compare "head above f" becomes "f is public"): frames below S are
 *         public; written by the owner only (release), read by thieves
 *   H     the thieves' end (d->thieves_end): written under the lock by
 *         thieves, and by the owner under the lock
 *   HINT  the owner's wake hint (d->ends.fj_wake_hint), which a typed spawn
 *         tests: a thief that finds no public frame but sees private ones
 *         sets it (deque_ask_if_private), and the owner's next spawn
 *         publishes (fj__spawn_wake)
 *   slots: each frame's id (1..NITEMS an item frame: its fj_run and
 *         item), and its state (DONE once a thief ran a typed frame)
 *
 * Owner (thread 0), in every order the checker chooses, spawns frames
 * NITEMS+1..NF (typed) and pushes the item frames 1..NITEMS (default none),
 * and syncs or pops its newest frame (LIFO); at the end it takes all.
 *   spawn (include/fj.h, fj__spawn_wake): slot[T] = id; T = T + 1; if HINT:
 *            HINT = 0, S = any value in (S, T] (the code publishes all,
 *            S = T).  No fence.  With -DPUBLISH_ANY it may also publish
 *            unasked, leaving HINT alone: item pushes (deque_push_slow),
 *            spawns under hooks and an owner about to wait (worker_publish).
 *   sync (fj__sync_pop_at, deque_pop_fenced, deque_pop_decide, deque_lower):
 *            f = T - 1; T = f; if f >= S: private, take it (no fence).
 *            Else shrink: S = f; FENCE; if H <= f take it; else LOCK and
 *            look again: H <= f take it, else a thief has it: T = S = f + 1,
 *            UNLOCK, wait for DONE, then LOCK, lower (H = S = T = f), UNLOCK.
 *   push (-DNITEMS=n, deque_push_slow): slot[T] = id; T = T + 1; S = T
 *            (deque_publish: items are public at once).  Its pop is the
 *            sync's steps, except that a stolen item is not waited for: the
 *            thief copied it under the lock, so the pop lowers past it at
 *            once (deque_pop_item_slow, deque_lower).
 *   take oldest (-DOWNER_FIFO, Java's asyncMode: deque_take_oldest, point
 *            10), at any step: a look without the lock (T <= H: nothing),
 *            then LOCK; h = H; if the frame at h is an item, take it, H = h + 1
 *            and S = T (deque_set_ends_locked publishes the rest; nothing
 *            left: HINT = 1); a typed frame at h is never taken.  UNLOCK.
 *            The pop that later reaches the item's slot finds it taken, as
 *            if stolen, and lowers past it.
 *   steal its own (-DOWNER_STEALS, fj_help_quiesce's quiesce_find_work),
 *            once, at any step: publish (worker_publish: S = T, FENCE), then
 *            the thief's steal below on its own deque, and run what it took
 *            in place (DONE); the sync that later reaches a typed frame so
 *            taken finds it stolen and done.
 * Thief (threads 1..NTHIEVES, deque_steal_split), STEALS attempts each:
 *   LOCK; h = H; s = S; if h < s: H = h + 1; FENCE; s = S; if h + 1 > s:
 *   H = h (give back) else take slot h; UNLOCK; a typed frame: run it in
 *   place, DONE (an item was copied under the lock and is done with).
 *   If h >= s: if T > s: HINT = 1 (ask).  UNLOCK.
 * The hint is also set whenever nothing is public (deque_init, a thief that
 * takes the last public frame, a sync that leaves nothing public, the
 * lower), so that the first spawn into an empty public part publishes: a
 * request is answered only at the owner's next spawn, and without this
 * FJ_SPAWN(a); leaf(); FJ_SYNC(a) would keep a private for the whole leaf.
 *
 * Properties, checked exhaustively:
 *   - every frame is taken exactly once (by its sync or pop, by one thief,
 *     or by the owner's take or steal), and all are taken by the end
 *     (T == S == H == BASE);
 *   - a stolen typed frame's slot is lowered past only after its thief's
 *     DONE, with no thief still in it (a stolen item's at once);
 *   - the owner never overwrites a slot a thief has taken and not finished
 *     (COMMIT_HOOK_P), nor one a thief is reading under the lock;
 *   - no deadlock (invalid end states).
 *
 * Left out, each with the argument that covers it:
 *   - batches: the runtime steals one frame at a time (deque_steal,
 *     deque_steal_ruled); deque_steal_batch, used by tests only, gives back
 *     what the shrink took as in deque.pml's batches;
 *   - tombstones, ruled steals, compaction and serial elision: all under
 *     the lock, where S and H are both still (deque.pml checks them, and
 *     the owner's take past tombstones, in the mode with membarrier);
 *   - the overflow stack and observers: they keep FJ__HEAD_FENCED on S,
 *     which sends every pop to deque_pop_slow and which thieves ignore;
 *   - the wake-up side: a publish is followed by a full fence and the
 *     sleepers' test (worker_publish), idle.pml's handshake; a parking
 *     worker sets every hint, which asks each owner for a publish;
 *   - while the owner waits for a stolen frame it may spawn above it (it
 *     helps): those frames start from the state this model starts from.
 * Only typed frames are private, and only their spawner waits for one (its
 * sync), so no wait of another worker depends on a private frame; an owner
 * about to wait (an fj_task's join, a managed block) publishes first.
 *
 * Mutants (each must fail): MUT_NO_SHRINK_FENCE (the shrink's FENCE left
 * out), MUT_NO_THIEF_FENCE, MUT_SYNC_READS_THIEVES_END (the sync compares its
 * frame with H, as the mode with membarrier does with head, instead of with
 * S), MUT_THIEF_PAST_SPLIT (a thief claims up to T instead of S);
 * MUT_FIFO_UNLOCKED (the owner's take without the lock: a thief between its
 * claim and its check takes the same item), MUT_FIFO_TAKES_TYPED (the take
 * takes whatever frame is oldest: its sync then waits for a DONE no thief
 * writes), MUT_ITEM_POP_WAITS (a stolen item's pop waits for a DONE, as a
 * typed sync does: no thief writes one for an item).
 */

#ifndef NTHIEVES
#define NTHIEVES 2
#endif
#ifndef NF
#define NF 3
#endif
#ifndef STEALS
#define STEALS 2
#endif
#ifndef NITEMS
#define NITEMS 0
#endif
#define IS_ITEM(id) ((id) <= NITEMS)

#define NT (1 + NTHIEVES)
#define BASE 1
#define CAP NF
#define END (BASE + CAP)
#define SB_DEPTH 3

#define T 0
#define S 1
#define H 2
#define HINT 3
#define ID(f) (4 + 2 * ((f) - BASE))
#define STATE(f) (5 + 2 * ((f) - BASE))
#define SLOTS_END (4 + 2 * CAP)
#define NADDR SLOTS_END
#define DONE 1

/* Vacuity checks: with -DREACH=n the checker must find point n reachable.
 *   1 a thief took a frame            2 a thief asked for a split
 *   3 the owner published on a hint   4 a sync waited for a stolen frame
 *   5 a shrink met a thief's claim and kept its frame under the lock
 *   6 a thief gave its claim back     7 a sync took a published frame back
 *                                       without the lock
 *   8 a thief took the last public frame and asked for the next publish
 *   9 a sync left nothing public and asked its own next spawn to publish
 *  10 a pop found its item stolen and lowered past it without waiting
 *  11 (OWNER_FIFO) the owner took its oldest item
 *  12 (OWNER_FIFO) the owner found a typed frame oldest and took nothing
 *  13 (OWNER_FIFO) a take left nothing public and set the hint
 *  14 (OWNER_FIFO) a pop lowered past an item the owner's take had taken
 *  15 (OWNER_STEALS) a sync found the typed frame its owner stole done */
#ifdef REACH
#define REACHED(n) assert(REACH != n)
#else
#define REACHED(n) skip
#endif

byte taken[NF + 1];
byte reading[END + 1];   /* a thief took frame f and has not finished reading or running it */
byte owner_took[END + 1]; /* ghost: the owner's take or steal took the frame in slot f */

#define IS_SLOT(a) ((a) >= 4 && (a) < SLOTS_END)
#define SLOT_OF(a) (BASE + ((a) - 4) / 2)
#define COMMIT_HOOK_P(p, a, v) assert(p != 0 || !IS_SLOT(a) || reading[SLOT_OF(a)] == 0)

#include "tso.pml"

bit lock;
byte thieves_done;

inline LOCK(me)   { d_step { lock == 0 -> lock = 1; FLUSH_IN(me) } }
inline UNLOCK(me) { d_step { FLUSH_IN(me); lock = 0 } }

inline TAKE(v)
{
    d_step {
        assert(v >= 1 && v <= NF);
        assert(taken[v] == 0);
        taken[v]++
    }
}

/* -DPUBLISH_ANY: the owner may publish at any spawn, asked or not (items,
 * spawns under hooks, and an owner about to wait publish at once). */
#ifdef PUBLISH_ANY
#undef PUBLISH_ANY
#define PUBLISH_ANY true
#else
#define PUBLISH_ANY false
#endif

#ifdef MUT_NO_SHRINK_FENCE
#define SHRINK_FENCE skip
#else
#define SHRINK_FENCE FLUSH(0)
#endif
#ifdef MUT_NO_THIEF_FENCE
#define THIEF_FENCE(me) skip
#else
#define THIEF_FENCE(me) FLUSH(me)
#endif

/* The policy of the header's "Latency": a sync that leaves nothing public
 * (the thieves' end at the split, now the synced frame) sets its own hint, so that its next
 * spawn publishes. */
inline NOTHING_PUBLIC_ASKS(thieves_end, split)
{
    if
    :: thieves_end == split -> STORE(me, HINT, 1); REACHED(9)
    :: else
    fi
}

/* The steal of deque_steal_split, by thief `me` or by the owner on its own
 * deque (OWNER_STEALS): claim, fence, look at S again, then keep the frame
 * or give the claim back.  A kept typed frame is run in place after the
 * unlock and published DONE; an item is copied under the lock. */
inline STEAL_ONCE(me, h, s, t, v, kept)
{
    kept = 0;
    LOCK(me);
    LOAD(me, H, h);
    LOAD(me, S, s);
#ifdef MUT_THIEF_PAST_SPLIT
    LOAD(me, T, s);
#endif
    if
    :: h < s ->
        STORE(me, H, h + 1);
        THIEF_FENCE(me);
        LOAD(me, S, s);
#ifdef MUT_THIEF_PAST_SPLIT
        LOAD(me, T, s);
#endif
        if
        :: h + 1 > s ->
            STORE(me, H, h);  /* the owner shrank into our claim */
            REACHED(6);
            UNLOCK(me)
        :: else ->
            d_step { reading[h]++ };
            LOAD(me, ID(h), v);
            TAKE(v);
            kept = 1;
            REACHED(1);
            if
            :: h + 1 == s -> STORE(me, HINT, 1); REACHED(8)  /* nothing public left: ask */
            :: else
            fi;
            if
            :: IS_ITEM(v) -> d_step { reading[h]-- }; UNLOCK(me)  /* copied: done with the slot */
            :: else ->
                UNLOCK(me);
                /* run it in place, then publish DONE */
                d_step { reading[h]-- };
                STORE(me, STATE(h), DONE)
            fi
        fi
    :: else ->
        LOAD(me, T, t);
        if
        :: t > s -> STORE(me, HINT, 1); REACHED(2)  /* ask the owner to publish */
        :: else
        fi;
        UNLOCK(me)
    fi
}

/* Under the owner's lock, after a stolen frame's wait (deque_lower): H, S
 * and T down to f, nothing public, so the next spawn publishes. */
inline LOWER(me, f)
{
    assert(reading[f] == 0);
    STORE(me, STATE(f), 0);
    STORE(me, H, f);
    STORE(me, S, f);
    STORE(me, T, f);
    NOTHING_PUBLIC_ASKS(f, f)
}

proctype owner()
{
    byte me = 0, typed_made = 0, items_made = 0, top = BASE, t, s, h, f, v, pick;
    bit stole_own = 0;
    /* top: the owner's copy of T (the register fj_t_ in C; only it writes T) */
    do
    :: typed_made < NF - NITEMS ->  /* spawn */
        t = top;
        top++;
        typed_made++;
        STORE(me, ID(t), NITEMS + typed_made);
        STORE(me, STATE(t), 0);
        STORE(me, T, t + 1);
        LOAD(me, HINT, v);
        if
        :: v != 0 -> STORE(me, HINT, 0); v = 1   /* fj__spawn_wake: asked */
        :: v == 0 && PUBLISH_ANY -> v = 1        /* worker_publish, deque_push_slow: unasked */
        :: v == 0 -> skip
        fi;
        if
        :: v != 0 ->
            LOAD(me, S, s);
            /* publish: any split in (S, T + 1] */
            pick = s + 1;
            do
            :: pick < t + 1 -> pick++
            :: break
            od;
            STORE(me, S, pick);
            REACHED(3)
        :: else
        fi
    :: items_made < NITEMS ->  /* deque_push_slow: an item, public at once */
        t = top;
        top++;
        items_made++;
        STORE(me, ID(t), items_made);
        STORE(me, T, t + 1);
        LOAD(me, S, s);  /* deque_publish */
        if
        :: s < t + 1 -> STORE(me, S, t + 1)
        :: else
        fi
    :: top > BASE ->  /* sync (typed) or pop (item) the newest */
        top--;
        f = top;
        LOAD(me, ID(f), v);  /* which kind: the owner wrote the slot, nobody else does */
        STORE(me, T, f);
#ifdef MUT_SYNC_READS_THIEVES_END
        LOAD(me, H, s);
#else
        LOAD(me, S, s);
#endif
        if
        :: f >= s -> TAKE(v)
        :: else ->
            STORE(me, S, f);
            SHRINK_FENCE;
            LOAD(me, H, h);
            if
            :: h <= f ->
                TAKE(v); REACHED(7);
                NOTHING_PUBLIC_ASKS(h, f)
            :: else ->
                LOCK(me);
                LOAD(me, H, h);
                if
                :: h <= f -> TAKE(v); REACHED(5); NOTHING_PUBLIC_ASKS(h, f); UNLOCK(me)
                :: else ->
                    /* taken (deque_pop_decide): top and S back above f,
                     * nothing public; then lower under the lock
                     * (deque_lower): for a typed frame after its thief's
                     * DONE, for an item at once */
                    STORE(me, T, f + 1);
                    STORE(me, S, f + 1);
                    STORE(me, HINT, 1);
                    UNLOCK(me);
                    if
#ifndef MUT_ITEM_POP_WAITS
                    :: IS_ITEM(v) -> REACHED(10);
                        if
                        :: owner_took[f] -> REACHED(14)
                        :: else
                        fi
#endif
                    :: else ->
                        REACHED(4);
                        /* while (!frame_is_done(f)) help/park: blocks.  Our
                         * store buffer is empty (the unlock drained it) and
                         * we store nothing meanwhile, so memory is what a
                         * load sees. */
                        mem[STATE(f)] == DONE;
                        if
                        :: owner_took[f] -> REACHED(15)
                        :: else
                        fi
                    fi;
                    LOCK(me);
                    d_step { owner_took[f] = 0 };
                    LOWER(me, f);
                    UNLOCK(me)
                fi
            fi
        fi
#ifdef OWNER_FIFO
    :: true ->  /* deque_take_oldest */
        LOAD(me, H, h);
        if
        :: top <= h -> skip  /* looks empty: NULL, no lock */
        :: else ->
#ifndef MUT_FIFO_UNLOCKED
            LOCK(me);
#endif
            LOAD(me, H, h);
            f = h;
            if
            :: f < top ->
                LOAD(me, ID(f), v);
#ifndef MUT_FIFO_TAKES_TYPED
                if
                :: IS_ITEM(v) -> skip
                :: else -> REACHED(12); goto took_nothing
                fi;
#endif
                TAKE(v);
                d_step { owner_took[f] = 1 };
                REACHED(11);
                f++;
                /* deque_set_ends_locked(f, top): the rest public */
                STORE(me, H, f);
                STORE(me, S, top);
                if
                :: f == top -> STORE(me, HINT, 1); REACHED(13)
                :: else
                fi
            :: else
            fi;
took_nothing:
#ifndef MUT_FIFO_UNLOCKED
            UNLOCK(me)
#else
            skip
#endif
        fi
#endif
#ifdef OWNER_STEALS
    :: !stole_own && top > BASE ->  /* quiesce_find_work: publish, then steal from itself */
        stole_own = 1;
        LOAD(me, S, s);
        if
        :: s < top -> STORE(me, S, top)
        :: else
        fi;
        FLUSH(me);
        STEAL_ONCE(me, h, s, t, v, pick);
        if
        :: pick -> d_step { owner_took[h] = 1 }  /* for the reach checks of its pop or sync */
        :: else
        fi
#endif
    :: typed_made + items_made == NF && top == BASE -> break
    od;
    FLUSH(me);
    /* every frame was taken, and the deque is empty for everyone */
    thieves_done == NTHIEVES;
    v = 1;
    do
    :: v <= NF -> assert(taken[v] == 1); v++
    :: else -> break
    od;
    assert(mem[T] == BASE && mem[S] == BASE && mem[H] == BASE)
}

proctype thief(byte me)
{
    byte n = 0, h, s, t, v;
    bit kept;
    do
    :: n < STEALS -> n++; STEAL_ONCE(me, h, s, t, v, kept)
    :: else -> break
    od;
    FLUSH(me);
    d_step { thieves_done++ }
}

init
{
    byte i = 1;
    atomic {
        mem[T] = BASE; mem[S] = BASE; mem[H] = BASE;
        mem[HINT] = 1;  /* deque_init: nothing is public, so the first spawn publishes */
        run owner()
    };
    do
    :: i <= NTHIEVES -> run thief(i); i++
    :: else -> break
    od
}
