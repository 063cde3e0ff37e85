/* deque.pml - the work-stealing deque of frames (runtime/deque.h, runtime/deque.c,
 * the inline typed spawn/sync of include/fj.h and their slow paths in
 * runtime/frame.c) under x86-TSO (tso.pml), with the asymmetric fence and
 * head's FJ__HEAD_FENCED bit.
 *
 * Threads: 0 is the owner, 1..NTHIEVES are thieves.  The owner, in every
 * order the checker chooses, pushes the item frames 1..NITEMS (deque_push),
 * spawns the typed frames NITEMS+1..NITEMS+NTYPED (fj__spawn_begin/end), pops items
 * (deque_pop) and syncs its newest unsynced typed spawn (fj__sync_pop_at); at
 * the end it syncs every typed spawn left and pops until the deque is empty.
 * Each thief makes STEALS attempts of deque_steal_batch with max = BATCH, and
 * runs a typed frame it took in place (frame_run_stolen, fj__frame_publish).
 *
 * The helping operations of the join policy (task.c points 1-5, deque.c
 * point 8), each switched on by a define:
 *   -DREMOVE  the owner's join takes an item it pushed and has not taken out
 *             of the deque (task_join_slow: deque_remove); one not the newest
 *             leaves a tombstone, which pops, syncs, steals and compactions
 *             pass over.
 *   -DUNPOP   a pop's item goes back (task_join's pop found another task:
 *             deque_unpop).
 *   -DRUN_T   the owner runs a task t as its thief (task_execute:
 *             worker_enter_floor, task_set_thief; task_publish,
 *             worker_leave_floor); a join inside t pops with
 *             deque_pop_above(d, run floor).  Frames pushed during t's run
 *             are t's work (ghost child[]).
 *   -DKIND1=K, -DKIND2=K  thief 1 / 2 is PLAIN (deque_steal_batch), or a
 *             joiner on another worker: RULE_FLOOR leapfrogs while t runs
 *             (join_leapfrog: deque_steal_ruled with the owner's run floor
 *             and wanted() = t not DONE; implies RUN_T), RULE_ITEM takes the
 *             item WANTED_ITEM from the head (join_take_queued).
 *   -DAWAIT_JOINER  the owner's join may wait, with its floor above every
 *             frame, for a task that needs WANTED_ITEM run by thief 1, a
 *             RULE_ITEM joiner that comes only then (test_forkjoin's
 *             join_takes_task_behind_a_tombstone: P forks x, t and joins x
 *             out of order, and x waits for Q, whose join of t must take t
 *             from behind x's tombstone): it waits only while WANTED_ITEM is
 *             the oldest live frame, and must not wait for ever (an invalid
 *             end state).
 *   -DOWNER_FIFO  the owner may also take its OLDEST item (Java's asyncMode:
 *             worker_take_local's deque_take_oldest, deque.c point 10), at any
 *             step where it could pop: a racy look at top and head (empty:
 *             NULL, no lock), then under the lock it reads head and top, skips
 *             tombstones at head, takes the item frame at head if there is
 *             one (never a typed frame), and moves head past it and the
 *             tombstones with the FJ__HEAD_FENCED bit kept
 *             (deque_set_ends_locked), no fence; the pops that follow lower
 *             the range past it as past a stolen item.  Thieves steal
 *             meanwhile, with or without the bit (BATCH, REMOVE's
 *             tombstones, NTHIEVES as set).
 *   -DOWNER_STEALS  once, at any step, the owner steals from its own deque
 *             as a thief would (fj_help_quiesce's quiesce_find_work, when a
 *             typed task waits for quiescence with spawns unsynced: only the
 *             steal reaches them), and runs what it took: a typed frame in
 *             place, published DONE, which its sync later finds stolen and
 *             done.  No pop of the owner's is in flight meanwhile.
 *
 * Properties, checked exhaustively:
 *   - every frame is taken exactly once (popped, stolen, run by its owner's
 *     sync, or run by the owner when the range is full): an assert when it is
 *     taken (never twice, never a slot without a frame) and, once all threads
 *     are done, every frame taken and the deque empty (top == head == base);
 *   - no slot is written by the owner while a thief may still read it: an
 *     assert when an owner's store to a slot reaches memory (COMMIT_HOOK_P)
 *     that no thief is reading the slot (kept under the lock, not yet read)
 *     and no typed frame is still running in it (stolen, no FRAME_DONE yet);
 *   - a typed frame's result is read by its sync only after the thief's DONE:
 *     the sync asserts that it reads the result the thief wrote;
 *   - a slot's state word is 0 when a typed spawn reuses it (deque_lower);
 *   - no deadlock (Spin's invalid end states);
 *   - with the helping operations: a pop never returns an item below its
 *     floor; a floor-ruled steal keeps only t's work (child[]), so nothing
 *     pushed after t is DONE nor anything below t's floor; an item-ruled
 *     steal keeps only WANTED_ITEM (and never a typed frame); a tombstone
 *     is never taken as a frame (TAKE asserts a real id, taken once).
 *
 * The range: CAP frames at indices BASE..BASE+CAP-1, fixed (deque_init's
 * reservation; no growth, no wrap-around).  A slot is three words: run (ITEM
 * for DEQUE_ITEM_RUN, TYPED for a typed runner), data (the item, or a typed
 * frame's argument and then its result) and state (fj_state).  head's word is
 * the index | HF (FJ__HEAD_FENCED).
 *
 * Where the model is smaller than the code (each keeps every behaviour the
 * properties depend on): indices are bytes from BASE = 1 (so the empty pop's
 * f = base - 1 is no underflow); FENCED_POPS is 1, not 4096, so the owner
 * clearing the bit is reached; one typed runner (every typed frame is its
 * sync's own: no forgotten syncs); without -DOVERFLOW a typed spawn is made
 * only while the range has room; with it, a spawn into a full range compacts
 * or runs at once and keeps its result on the overflow stack (frame.c, point
 * 5; the spare frame past the end is not modelled: the frame is written where
 * it ends up); the waiting sync blocks until
 * FRAME_DONE instead of leapfrogging, spinning and parking (task.pml and
 * idle.pml check the waiting); the thief's CAS of its index into the state
 * is left out (a locked instruction on a word nobody else writes then);
 * serial elision (FRAME_RAN_AT_SPAWN) is not modelled; a task the owner
 * takes (pop, deque_remove) runs as one step that pushes nothing, and t's
 * joiners on other workers do only what the thief kinds say (no parking, no
 * injector).  This is the mode with membarrier; where it is missing the
 * deque splits (deque.c, point 9), which split.pml models.  A steal's trylock may
 * fail whenever the lock is busy (wait = false) or wait for it (wait = true).
 * On x86 every load is an acquire and every store a release, so the acquire
 * load of head in the pops and the release stores of head by thieves are
 * plain LOAD / STORE here: TSO gives them their order.
 *
 * Mutants (each must make the checker fail; see mk/model.mk):
 *   MUT_NO_THIEF_FENCE        deque_steal_batch: no fence_full / fence_heavy
 *                             after the claim of head
 *   MUT_POP_LOADS_HEAD_FIRST  deque_pop / fj__sync_pop_at read head before
 *                             storing their claim of top
 *   MUT_POP_FENCED_NO_FENCE   deque_pop_fence: a fenced pop skips fence_full
 *   MUT_SET_FENCED_AFTER_BARRIER  deque_steal_batch's claim keeps the bit as it
 *                             was and sets it only after its fence_heavy: a
 *                             pop may read head clear after that barrier, and
 *                             the next thief trusts the bit
 *   MUT_UNLOCKED_UNFENCE      deque_pop_fence clears FJ__HEAD_FENCED without
 *                             the lock
 *   MUT_LOWER_BEFORE_DONE     frame_wait_stolen lowers past the stolen typed
 *                             frame (and the sync reads its result) without
 *                             waiting for FRAME_DONE
 *   MUT_TYPED_NOT_FIRST       deque_take_claimed without `if (i > 0) return i`:
 *                             a typed frame that is not first in the claim is
 *                             marked stolen and given as out[0]
 *   MUT_REMOVE_UNLOCKED       deque_remove without the lock
 *   MUT_STEAL_TAKES_TOMB      deque_take_claimed takes a tombstone's item
 *                             (tests deque_is_item_slot, not DEQUE_ITEM_RUN)
 *   MUT_TOMB_POP_NO_FLOOR     deque_pop_item_slow goes on below a tombstone
 *                             with deque_pop(d), forgetting the floor
 *   MUT_WANTED_EARLY          deque_steal_claim asks wanted() before the
 *                             claim and the barrier
 *   MUT_RULED_ITEM_BEFORE_CLAIM  the item rule looked at before the claim
 *                             only (deque.c before d24f8ea; TSan found it)
 *   MUT_THIEF_BEFORE_FLOOR    task_execute publishes its index before
 *                             worker_enter_floor
 *   MUT_LEAVE_FLOOR_BEFORE_DONE  worker_leave_floor before task_publish
 *   MUT_ITEM_RULE_STOPS_AT_TOMB  the item rule refuses a tombstone at head
 *                             (deque.c before 3822e42): with AWAIT_JOINER the
 *                             joiner never gets past it (the pool hung:
 *                             test_forkjoin join_takes_task_behind_a_tombstone)
 *   MUT_FIFO_UNLOCKED         (OWNER_FIFO) deque_take_oldest without the lock:
 *                             a thief between its claim and its check takes
 *                             the same item
 *   MUT_OWN_STEAL_UNLOCKED    (OWNER_STEALS) the owner's steal from its own
 *                             deque without the lock: a thief between its
 *                             claim and its check takes the same frame
 *   MUT_FIFO_TAKES_TYPED      (OWNER_FIFO) deque_take_oldest takes whatever
 *                             frame is oldest past the tombstones, a typed
 *                             one too, as an item: its sync then finds it
 *                             gone and waits for a FRAME_DONE no thief writes
 *
 * Known bug of today's code (mk/model.mk: deque-bug-*, an expected failure):
 *   OVERFLOW  a typed spawn A that found the range full ran at once and left
 *             its result on the overflow stack; then a pop (fj_join of an
 *             fj_task forked before A, deque_pop) or a compaction makes room,
 *             and a later spawn B goes into the deque.  B's sync finds
 *             overflow_count > 0 (fj__sync_slow) and takes A's result; A's
 *             sync then takes B's frame.  The sync asserts it reads its own
 *             result.  FIX_OVERFLOW_ORDER is the fix the C code has
 *             (frame.c, fj__spawn_slow and frame_spawn_overflowed): while
 *             results wait on the overflow stack, every typed spawn runs at
 *             once too, so the stack stays in spawn order.  Run deque-overflow
 *             checks it; deque-mutant-overflow-overtaken, without it, is the
 *             original counterexample, which the checker must still find.
 *
 *   (owner's give-back not released: not expressible here; under TSO every
 *    store is a release and every load an acquire, so dropping the release of
 *    the give-back changes no behaviour of the model.  It matters only to the
 *    compiler and weaker hardware.)
 */

#ifndef NTHIEVES
#define NTHIEVES 1
#endif
#ifndef NITEMS
#define NITEMS 2
#endif
#ifndef NTYPED
#define NTYPED 1
#endif
#ifndef STEALS
#define STEALS 2
#endif
#ifndef BATCH
#define BATCH 1
#endif
#ifndef CAP
#define CAP 2
#endif
#ifndef FENCED_POPS
#define FENCED_POPS 1
#endif

#define NT (1 + NTHIEVES)
#define NIDS (NITEMS + NTYPED)
#define BASE 1
#define END (BASE + CAP)
#define HF 64          /* FJ__HEAD_FENCED */
#define IDX(w) ((w) & (HF - 1))
#define SB_DEPTH 3

/* mem[] layout: fj_deque_ends, then the frames. */
#define TOP 0          /* d->ends.fj_top */
#define HEAD 1         /* d->ends.fj_head (index | HF) */
#define RUN(f) (2 + 3 * ((f) - BASE))     /* f->fj_run */
#define DATA(f) (3 + 3 * ((f) - BASE))    /* f->fj_data */
#define STATE(f) (4 + 3 * ((f) - BASE))   /* f->fj_state */
#define SLOTS_END (2 + 3 * CAP)
/* The helping words (worker.h, task.c), after the frames: the run floor of
 * the deque's owner (w->run_floor), and the task t the owner runs as thief:
 * its fj_thief (0: not yet, 1: this worker) and its completion (DONE). */
#define FLOOR SLOTS_END
#define RUNIDX (SLOTS_END + 1)
#define RUNDONE (SLOTS_END + 2)
#define NADDR (SLOTS_END + 3)

#define ITEM 1         /* DEQUE_ITEM_RUN */
#define TYPED 2        /* a typed task's runner */
#define TOMB 3         /* DEQUE_TOMB_RUN: an item frame deque_remove emptied */
#define STOLEN 1       /* FRAME_STOLEN */
#define DONE 2         /* FRAME_DONE */
#define RESULT(v) ((v) + 32)   /* what a typed task computes from its argument */

/* What each thief is (KIND1, KIND2: thieves 1 and 2; default PLAIN). */
#define PLAIN 0        /* deque_steal_batch */
#define RULE_FLOOR 1   /* deque_steal_ruled: rule.floor, rule.wanted (a leapfrogging joiner) */
#define RULE_ITEM 2    /* deque_steal_ruled: rule.item (join_take_queued) */
#ifndef KIND1
#define KIND1 PLAIN
#endif
#ifndef KIND2
#define KIND2 PLAIN
#endif
#define KIND(me) ((me) == 1 -> KIND1 : KIND2)
#if KIND1 == RULE_FLOOR || (NTHIEVES > 1 && KIND2 == RULE_FLOOR)
#define HAS_RULE_FLOOR
#ifndef RUN_T
#define RUN_T          /* a floor rule needs the owner to run t */
#endif
#endif
#if KIND1 == RULE_ITEM || (NTHIEVES > 1 && KIND2 == RULE_ITEM)
#define HAS_RULE_ITEM
#endif
#ifndef WANTED_ITEM
#define WANTED_ITEM 1  /* the task a RULE_ITEM joiner waits for */
#endif

/* Ghost state for the properties (not part of the C code). */
byte taken[NIDS + 1];        /* how many times frame id i was taken */
bit child[NIDS + 1];         /* frame id i was pushed while the owner ran t (RUN_T) */
byte reading[END + 1];       /* thieves that kept frame f and have not read it yet */
bit pinned[END + 1];         /* a typed frame stolen and running in place, no DONE yet */
byte done_threads;
bit awaiting;                /* AWAIT_JOINER: the owner waits for the joiner to take WANTED_ITEM */

#define IS_SLOT(a) ((a) >= 2 && (a) < SLOTS_END)
#define SLOT_OF(a) (BASE + ((a) - 2) / 3)
#define COMMIT_HOOK_P(p, a, v) \
    assert(p != 0 || !IS_SLOT(a) || (reading[SLOT_OF(a)] == 0 && pinned[SLOT_OF(a)] == 0))

#include "tso.pml"

/* Vacuity checks: with -DREACH=n the checker must find point n reachable
 * (mk/model.mk runs each as an expected assertion), so the pass runs do
 * exercise the paths they are meant to.
 *   1 deque_compact moved frames        2 the owner cleared FJ__HEAD_FENCED
 *   3 a sync waited for a stolen typed   4 a batch gave back the frames from
 *     frame's FRAME_DONE                   a typed one that is not first
 *   5 a fenced pop kept its frame        6 a pop lowered past a stolen item
 *   7 a push found no room (DEQUE_NO_MEMORY)
 *   8 (with -DOVERFLOW) a typed spawn found no room and ran at once
 *   9 a pop went on below a tombstone     10 deque_remove left a tombstone
 *  11 a steal consumed a tombstone        12 deque_unpop gave an item back
 *  13 a floor-ruled steal kept an item    14 wanted() refused after the claim
 *  15 a pop stopped at its floor below    16 the item rule refused the
 *     a tombstone                            claimed frame
 *  17 the floor refused before the claim  18 an item-ruled steal kept its item
 *  19 deque_compact moved a tombstone     20 a sync passed over a tombstone
 *  21 a sync lowered past a stolen tombstone
 *  22 (AWAIT_JOINER) the owner waited     23 an item-ruled steal let a
 *     for the joiner, and it came            tombstone through
 *  24 (OWNER_FIFO) deque_take_oldest took an item, head not fenced
 *  25 (OWNER_FIFO) deque_take_oldest took an item, head fenced
 *  26 (OWNER_FIFO) deque_take_oldest consumed a tombstone at head
 *  27 (OWNER_FIFO) deque_take_oldest found a typed frame oldest: NULL
 *  28 (OWNER_STEALS) the owner's steal from its own deque consumed a tombstone
 *  29 (OWNER_STEALS) it took an item      30 (OWNER_STEALS) it ran a typed frame */
#ifdef REACH
#define REACHED(n) assert(REACH != n)
#else
#define REACHED(n) skip
#endif

bit lock;   /* d->lock; pthread_mutex_lock/unlock are locked instructions */

#ifdef RUN_T
#define RUN_OVER (tphase == 2)
#else
#define RUN_OVER true
#endif

inline LOCK(me)    { d_step { lock == 0 -> lock = 1; FLUSH_IN(me) } }
inline UNLOCK(me)  { d_step { FLUSH_IN(me); lock = 0 } }

inline TAKE(v)
{
    d_step {
        assert(v >= 1 && v <= NIDS);   /* a slot that held a pushed frame */
        assert(taken[v] == 0);         /* never taken twice */
        taken[v]++
    }
}

/* ---- the owner ---- */

/* deque_lower (deque.c): under the lock, state back to 0, head and top to f. */
inline LOWER(f)
{
    LOCK(me);
    STORE(me, STATE(f), 0);                     /* atomic_store(&f->fj_state, 0) */
    LOAD(me, HEAD, hw);
    STORE(me, HEAD, f | (hw & HF));             /* head = f | (head & FJ__HEAD_FENCED) */
    STORE(me, TOP, f);                          /* top = f */
    UNLOCK(me)
}

/* deque_pop_slow (deque.c): got = f when the owner holds frame f, else 0. */
inline POP_SLOW(f, got)
{
    got = 0;
    LOAD(me, HEAD, hw);
    if
    :: hw & HF ->
        /* ---- deque_pop_fence ---- */
#ifndef MUT_POP_FENCED_NO_FENCE
        FLUSH(me);                              /* fence_full() */
#endif
        if
        :: fenced_pops_left > 0 -> fenced_pops_left--
        :: fenced_pops_left == 0 && novf > 0 -> skip    /* overflow results wait: keep fencing */
        :: fenced_pops_left == 0 && novf == 0 ->
            LOAD(me, HEAD, hw);                 /* head = deque_head_word(d) */
            if
            :: hw != head_seen ->
                head_seen = hw;
                fenced_pops_left = FENCED_POPS
            :: else ->
#ifdef MUT_UNLOCKED_UNFENCE
                LOAD(me, HEAD, hw);
                STORE(me, HEAD, hw & ~HF)
#else
                LOCK(me);                       /* pthread_mutex_lock */
                LOAD(me, HEAD, hw);
                STORE(me, HEAD, hw & ~HF);      /* head &= ~FJ__HEAD_FENCED */
                UNLOCK(me);
                REACHED(2)
#endif
            fi
        fi;
        /* ---- back in deque_pop_slow: look again (acquire) ---- */
        LOAD(me, HEAD, hw);
        if
        :: IDX(hw) <= f && f >= BASE -> got = f; REACHED(5)
        :: else
        fi
    :: else
    fi;
    if
    :: got == 0 ->
        STORE(me, TOP, f + 1);                  /* undo the claim (release) */
        LOCK(me);
        LOAD(me, HEAD, hw);
        if
        :: f >= BASE && IDX(hw) <= f ->
            got = f;
            STORE(me, TOP, f)                   /* top = f */
        :: else
        fi;
        UNLOCK(me)
    :: else
    fi
}

/* The owner's claim of the newest frame: deque_pop (deque.h) and
 * fj__sync_pop_at (fj.h) alike.  Leaves the claimed frame in f, head in hw. */
inline CLAIM_NEWEST()
{
    LOAD(me, TOP, t);
    f = t - 1;                                  /* f = top - 1 */
#ifdef MUT_POP_LOADS_HEAD_FIRST
    LOAD(me, HEAD, hw);
    STORE(me, TOP, f);
#else
    STORE(me, TOP, f);                          /* claim f: top = f */
    /* compiler_barrier(): nothing at run time */
    LOAD(me, HEAD, hw);                         /* head, acquire */
#endif
    if
    :: hw <= f -> LOAD(me, RUN(f), r)           /* f->fj_run (short-circuit: only if f >= head) */
    :: else -> r = 0
    fi
}

/* deque_compact (deque.c): moved = 1 if room was made. */
inline COMPACT(moved)
{
    LOCK(me);
    LOAD(me, HEAD, hw);
    h = IDX(hw);
    LOAD(me, TOP, t);
    fl = h;                                     /* floor = h */
    do
    :: fl > BASE ->
        LOAD(me, RUN(fl - 1), r);
        if
        :: r == ITEM || r == TOMB -> fl--       /* deque_is_item_slot(&floor[-1]): a dead item frame */
        :: else -> break
        fi
    :: else -> break
    od;
    moved = 1;                                  /* all_items */
    i = h;
    do
    :: i < t ->
        LOAD(me, RUN(i), r);
        if
        :: r != ITEM && r != TOMB -> moved = 0; break   /* all_items = deque_is_item_slot(f) */
        :: else -> i++
        fi
    :: else -> break
    od;
    if
    :: fl < h && moved ->
        i = 0;                                  /* memmove(floor, h, ...) */
        do
        :: h + i < t ->
            LOAD(me, RUN(h + i), r); STORE(me, RUN(fl + i), r);
            if
            :: r == TOMB -> REACHED(19)         /* a tombstone moves like an item */
            :: else
            fi;
            LOAD(me, DATA(h + i), v); STORE(me, DATA(fl + i), v);
            i++
        :: else -> break
        od;
        STORE(me, HEAD, fl | (hw & HF));        /* head = floor | fenced bit */
        STORE(me, TOP, fl + (t - h));           /* top = floor + (t - h) */
        REACHED(1)
    :: else -> moved = 0
    fi;
    UNLOCK(me);
    i = 0; fl = 0
}

proctype owner()
{
    byte me = 0;
    byte t, f, h, hw, r, v, got, i, fl, moved;
    byte pf = 0, pcur = 0;                      /* deque_pop_above's floor (0: NULL), and in the tomb loop */
    bit tombed = 0;                             /* ghost: this pop passed a tombstone */
    byte fenced_pops_left = 0, head_seen = 0;   /* owner-private (deque.h) */
#ifdef REMOVE
    byte x;                                     /* the item a join takes out (deque_remove) */
#endif
    byte own = 0;                               /* ghost: bit i, item i pushed, not yet taken by the owner */
#ifdef AWAIT_JOINER
    bit awaited = 0;                            /* ghost: the waiting join was tried */
#endif
#ifdef RUN_T
    byte rf = 0;                                /* w->run_floor as the owner knows it */
    byte tphase = 0;                            /* t: 0 not begun, 1 running here, 2 DONE */
    bit in_run = 0;                             /* ghost: pushes now are work of t's run */
#endif
    byte items = 0, spawned = 0;                /* frames pushed / spawned so far */
    byte unsynced[NTYPED + 1];                  /* ghost: the call stack of typed spawns */
    byte nunsynced = 0;
#ifdef OWNER_STEALS
    bit stole_own = 0;                          /* one steal from its own deque per run */
#endif
    byte ovf[NTYPED + 1];                       /* d->overflow: results of spawns run at once */
    byte novf = 0;                              /* d->overflow_count */
    bool finishing = false;

    do
    :: items < NITEMS && !finishing ->
        /* ---- deque_push (deque.h) ---- */
        d_step {
            items++;
            own = own | (1 << items);
#ifdef RUN_T
            child[items] = in_run
#else
            skip
#endif
        };
        LOAD(me, TOP, f);                       /* f = top */
        if
        :: f >= END ->
            /* ---- deque_push_slow (deque.c) ---- */
            COMPACT(moved);
            LOAD(me, TOP, f);
            if
            :: f >= END ->
                TAKE(items);                    /* DEQUE_NO_MEMORY: the caller runs it */
                own = own & ~(1 << items);
                REACHED(7);
                goto pushed
            :: else
            fi
        :: else
        fi;
        STORE(me, RUN(f), ITEM);                /* f->fj_run = DEQUE_ITEM_RUN */
        STORE(me, DATA(f), items);              /* *f->fj_data = item */
        STORE(me, TOP, f + 1);                  /* release: top = f + 1 */
pushed:
        t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0; moved = 0
    :: spawned < NTYPED && !finishing ->
        /* ---- fj__spawn_begin / fj__spawn_end (fj.h) ---- */
        LOAD(me, TOP, f);                       /* f = the task's copy of top (fj_t_): only the owner
                                                 * writes top, so the copy is the word's value; a word
                                                 * above the copy (fj__spawn_settle) is not modelled */
#ifdef OVERFLOW
        if
#ifdef FIX_OVERFLOW_ORDER
        :: novf > 0 -> f = END                  /* proposed fix: while results wait, run at once too */
        :: novf == 0 && f >= END ->
#else
        :: f >= END ->
#endif
            /* ---- fj__spawn_slow (frame.c): compact, else run at once ---- */
            COMPACT(moved);
            LOAD(me, TOP, f)                    /* the spare frame copied to the room made */
        :: else
        fi;
        if
        :: f >= END ->
            /* ---- frame_spawn_overflowed ---- */
            spawned++;
            TAKE(NITEMS + spawned);         /* task.fj_run(w, &task): run now */
            ovf[novf] = RESULT(NITEMS + spawned);   /* d->overflow[count++] = result */
            novf++;
            LOCK(me);                       /* frame_force_slow_pops */
            LOAD(me, HEAD, hw);
            STORE(me, HEAD, hw | HF);
            UNLOCK(me);
            unsynced[nunsynced] = NITEMS + spawned;
            nunsynced++;
            REACHED(8)
        :: else
        fi;
#endif
        if
        :: f < END ->
            d_step {
                spawned++;
#ifdef RUN_T
                child[NITEMS + spawned] = in_run
#else
                skip
#endif
            };
            LOAD(me, STATE(f), v);
            assert(v == 0);                     /* ghost: deque_lower reset the slot */
            STORE(me, RUN(f), TYPED);           /* f->fj_run = run */
            STORE(me, DATA(f), NITEMS + spawned);   /* memcpy(f->fj_data, args) */
            STORE(me, TOP, f + 1);              /* release: top = f + 1 */
            unsynced[nunsynced] = NITEMS + spawned;
            nunsynced++
        :: else
        fi;
        f = 0; v = 0
    :: nunsynced > 0 ->
sync:
        /* ---- fj__sync_pop_at (fj.h): top == the copy, claim, head <= f; release builds do not
         * compare the runner, but the copy says the newest frame is this spawn's (an item above
         * it moves top past the copy and takes the slow path, as the r == ITEM arm below) ---- */
        CLAIM_NEWEST();
        if
        :: hw <= f && r == TYPED ->
            LOAD(me, DATA(f), v);               /* the caller runs the body on its args */
            assert(v == unsynced[nunsynced - 1]);
            TAKE(v)
        :: else ->
#ifdef OVERFLOW
            if
            :: novf > 0 ->
                /* ---- fj__sync_slow: frame_sync_overflowed ---- */
                STORE(me, TOP, f + 1);          /* undo the claim (release) */
                novf--;
                v = ovf[novf];                  /* d->overflow[--count] */
                ovf[novf] = 0;
                assert(v == RESULT(unsynced[nunsynced - 1]));   /* the result of our spawn */
                goto synced
            :: else
            fi;
#endif
            /* ---- fj__sync_slow / frame_take (frame.c), looping down ---- */
            do
            :: true ->
                got = f;
                LOAD(me, HEAD, hw);
                if
                :: hw > f -> POP_SLOW(f, got)
                :: else
                fi;
                LOAD(me, RUN(f), r);
                if
                :: got != 0 && r == TYPED ->    /* ours: run it in place */
                    LOAD(me, DATA(f), v);
                    assert(v == unsynced[nunsynced - 1]);
                    TAKE(v);
                    break
                :: got != 0 && r == ITEM ->     /* an unjoined fj_task: task_execute */
                    LOAD(me, DATA(f), v);
                    TAKE(v);
                    own = own & ~(1 << v)
                :: got != 0 && r == TOMB ->     /* an fj_task its join took out: nothing left */
                    REACHED(20)
                :: got == 0 && r == TOMB ->     /* a stolen tombstone: dead */
                    LOWER(f);
                    REACHED(21)
                :: got == 0 && r == ITEM ->     /* a stolen item frame: dead */
                    assert(f >= BASE);
                    LOWER(f)
                :: got == 0 && r == TYPED ->
                    /* ---- frame_wait_stolen ---- */
#ifndef MUT_LOWER_BEFORE_DONE
                    (mem[STATE(f)] & DONE) != 0;    /* while (!frame_is_done(f)) help/park */
#endif
                    REACHED(3);
                    LOAD(me, TOP, t);
                    assert(t == f + 1);         /* nothing above f: deque_pop loop not entered */
                    LOWER(f);
                    LOAD(me, DATA(f), v);       /* memcpy(&result, f->fj_data) */
                    assert(v == RESULT(unsynced[nunsynced - 1]));
                    break
                fi;
                /* a leftover is gone: claim the next frame down */
                LOAD(me, TOP, t);
                f = t - 1;
                STORE(me, TOP, f)
            od
        fi;
synced:
        nunsynced--;
        unsynced[nunsynced] = 0;
        t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0; got = 0
    :: true ->
        pf = 0;                                 /* deque_pop: deque_pop_above(d, NULL) */
pop:
        /* ---- deque_pop_above (deque.h): the newest item at or above pf ---- */
        pcur = pf;
        tombed = 0;
        v = 0;
        do
        :: true ->
            CLAIM_NEWEST();
            if
            :: hw <= f && r == ITEM && f >= pcur ->
                LOAD(me, DATA(f), v);           /* return the item */
                break
            :: else
            fi;
            /* ---- deque_pop_item_slow (deque.c) ---- */
            if
            :: f < pcur ->
                STORE(me, TOP, f + 1);          /* below the floor: give the claim back (release) */
                if
                :: tombed -> REACHED(15)
                :: else
                fi;
                break
            :: else
            fi;
            got = f;
            LOAD(me, HEAD, hw);
            if
            :: hw > f -> POP_SLOW(f, got)
            :: else
            fi;
            if
            :: got != 0 ->
                LOAD(me, RUN(f), r);
                if
                :: r == ITEM -> LOAD(me, DATA(f), v); break
                :: r == TOMB ->                 /* its item was taken out: go on below */
                    LOAD(me, TOP, t);
                    LOAD(me, HEAD, hw);
                    if
                    :: t > IDX(hw) ->           /* deque_top(d) > deque_head(d): deque_pop_above(d, floor) */
#ifdef MUT_TOMB_POP_NO_FLOOR
                        pcur = 0;               /* mutant: deque_pop(d) */
#endif
                        tombed = 1;
                        REACHED(9)
                    :: else -> break            /* NULL */
                    fi
                :: else -> STORE(me, TOP, f + 1); break    /* typed newest: put it back */
                fi
            :: else ->
                if
                :: f >= BASE ->
                    LOAD(me, RUN(f), r);
                    LOAD(me, TOP, t);
                    if
                    :: (r == ITEM || r == TOMB) && t == f + 1 -> LOWER(f); REACHED(6)
                    :: else
                    fi
                :: else
                fi;
                break
            fi
        od;
        if
        :: v != 0 ->
            assert(f >= pf);                    /* a pop never returns an item below its floor */
            if
            :: TAKE(v); own = own & ~(1 << v)   /* the caller runs it */
#ifdef UNPOP
            :: pf == 0 && !finishing ->
                /* task_join_slow: the inline pop took another task: deque_unpop */
                LOAD(me, TOP, t);
                assert(t == f);                 /* the item the pop returned is at top */
                STORE(me, TOP, t + 1);          /* release: top = deque_top(d) + 1 */
                REACHED(12)
#endif
            fi
        :: else
        fi;
        if
        :: finishing ->
            LOAD(me, TOP, t);
            if
            :: t == BASE && nunsynced == 0 -> break   /* the final pops found it empty */
            :: else
            fi
        :: else
        fi;
        t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0; got = 0; pf = 0; pcur = 0; tombed = 0
#ifdef OWNER_FIFO
    :: !finishing ->
        /* ---- worker_take_local in asyncMode: deque_take_oldest (deque.c, point 10) ----
         * (its NULL then falls back on deque_pop: the pop arm, which the
         * checker may pick next) */
        LOAD(me, TOP, t);                       /* the look without the lock: */
        LOAD(me, HEAD, hw);
        if
        :: t <= IDX(hw) -> goto fifo_done       /* deque_top(d) <= deque_head(d): NULL */
        :: else
        fi;
#ifndef MUT_FIFO_UNLOCKED
        LOCK(me);                               /* pthread_mutex_lock */
#endif
        LOAD(me, HEAD, hw);
        h = IDX(hw);                            /* h = deque_head(d) */
        LOAD(me, TOP, t);                       /* t = deque_top(d); f = h */
        f = h;
        r = 0;
        do
        :: f < t ->                             /* while (f < t && f->fj_run == DEQUE_TOMB_RUN) f++ */
            LOAD(me, RUN(f), r);
            if
            :: r == TOMB -> f++
            :: else -> break
            fi
        :: else -> break
        od;
        v = 0;
        if
#ifndef MUT_FIFO_TAKES_TYPED
        :: f < t && r == ITEM ->                /* f->fj_run == DEQUE_ITEM_RUN */
#else
        :: f < t && r != TOMB ->                /* mutant: a typed frame taken as an item */
#endif
            LOAD(me, DATA(f), v);               /* item = *f->fj_data */
            f++
#ifndef MUT_FIFO_TAKES_TYPED
        :: f < t && r != ITEM -> REACHED(27)    /* typed oldest: never taken from below */
#endif
        :: else
        fi;
        if
        :: f > h ->
            if
            :: f > h + (v != 0 -> 1 : 0) -> REACHED(26)    /* a tombstone consumed */
            :: else
            fi;
            /* deque_set_ends_locked(d, f, t), not split */
            LOAD(me, HEAD, hw);                 /* bit = deque_head_word(d) & FJ__HEAD_FENCED */
            STORE(me, HEAD, f | (hw & HF));     /* head = f | bit */
            STORE(me, TOP, t)                   /* top = t */
        :: else
        fi;
#ifndef MUT_FIFO_UNLOCKED
        UNLOCK(me);
#endif
        if
        :: v != 0 ->
            if
            :: hw & HF -> REACHED(25)
            :: else -> REACHED(24)
            fi;
            TAKE(v);                            /* the caller runs it */
            own = own & ~(1 << v)
        :: else
        fi;
fifo_done:
        t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0
#endif
#ifdef OWNER_STEALS
    :: !finishing && !stole_own ->
        /* ---- fj_help_quiesce's quiesce_find_work: deque_steal(&w->deque, true),
         * the owner as a thief of its own deque (deque_steal_claim, BATCH 1);
         * no pop of its own is in flight meanwhile ---- */
        stole_own = 1;
        LOAD(me, TOP, t);                       /* deque_size(d) == 0: a look without the lock */
        LOAD(me, HEAD, hw);
        if
        :: t <= IDX(hw) -> goto own_done
        :: else
        fi;
#ifndef MUT_OWN_STEAL_UNLOCKED
        LOCK(me);
#endif
        LOAD(me, HEAD, hw);
        h = IDX(hw);
        LOAD(me, TOP, t);
        if
        :: t <= h ->
#ifndef MUT_OWN_STEAL_UNLOCKED
            UNLOCK(me);
#endif
            goto own_done
        :: else
        fi;
        STORE(me, HEAD, (h + 1) | HF);          /* the claim, fenced bit set */
        if
        :: hw & HF -> FLUSH(me)                 /* fence_full() */
        :: else -> MEMBARRIER()                 /* fence_heavy() */
        fi;
        LOAD(me, TOP, t);
        assert(t >= h + 1);                     /* no pop of ours could shrink into the claim */
        LOAD(me, RUN(h), r);
        v = 0;
        if
        :: r == TOMB -> REACHED(28)             /* consumed: nothing taken */
        :: r == ITEM -> LOAD(me, DATA(h), v)
        :: r == TYPED -> STORE(me, STATE(h), STOLEN)    /* atomic_store(&f->fj_state, FRAME_STOLEN) */
        fi;
#ifndef MUT_OWN_STEAL_UNLOCKED
        UNLOCK(me);
#endif
        if
        :: r == ITEM -> TAKE(v); own = own & ~(1 << v); REACHED(29)
        :: r == TYPED ->
            /* ---- frame_run_stolen, on this thread: its sync, below us on
             * the stack, later finds it stolen and done ---- */
            LOAD(me, DATA(h), v);
            TAKE(v);
            STORE(me, DATA(h), RESULT(v));
            d_step { FLUSH_IN(me); mem[STATE(h)] = mem[STATE(h)] | DONE };
            REACHED(30)
        :: else
        fi;
own_done:
        t = 0; h = 0; hw = 0; r = 0; v = 0
#endif
#ifdef REMOVE
    :: own != 0 && !finishing ->
        /* ---- task_join_slow: deque_remove(d, x), x forked here and not yet joined ---- */
        if
        :: own & 2 -> x = 1
#if NITEMS > 1
        :: own & 4 -> x = 2
#endif
#if NITEMS > 2
        :: own & 8 -> x = 3
#endif
#if NITEMS > 3
        :: own & 16 -> x = 4
#endif
#if NITEMS > 4
#error "-DREMOVE picks among items 1..4"
#endif
        fi;
        own = own & ~(1 << x);
#ifndef MUT_REMOVE_UNLOCKED
        LOCK(me);                               /* pthread_mutex_lock */
#endif
        LOAD(me, HEAD, hw);
        h = IDX(hw);                            /* h = deque_head(d) */
        LOAD(me, TOP, t);                       /* t = deque_top(d); f = t */
        f = t;
        do
        :: f > h ->                             /* while (f > h && !(f[-1] holds item x)) f-- */
            LOAD(me, RUN(f - 1), r);
            if
            :: r == ITEM ->
                LOAD(me, DATA(f - 1), v);
                if
                :: v == x -> break
                :: else -> f--
                fi
            :: else -> f--
            fi
        :: else -> break
        od;
        if
        :: f > h && f == t -> STORE(me, TOP, t - 1)     /* the newest: a pop */
        :: f > h && f != t ->
            STORE(me, RUN(f - 1), TOMB);        /* f[-1].fj_run = DEQUE_TOMB_RUN */
            REACHED(10)
        :: else
        fi;
#ifndef MUT_REMOVE_UNLOCKED
        UNLOCK(me);
#endif
        if
        :: f > h ->
            /* ---- found: join_run_removed runs x above a floor of its own ---- */
#ifdef RUN_T
            LOAD(me, TOP, t);
            STORE(me, FLOOR, t);                /* worker_enter_floor: run_floor = deque_top(d) */
#endif
            TAKE(x);                            /* task_run_popped_by_joiner: x's body */
#ifdef RUN_T
            STORE(me, FLOOR, rf)                /* worker_leave_floor(w, outer_floor) */
#endif
        :: else                                 /* a thief has it: the join helps and waits */
        fi;
        t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0; x = 0
#endif
#ifdef RUN_T
    :: tphase == 0 && !finishing ->
        /* ---- task_execute(w, t), t stolen by this worker: worker_enter_floor, task_set_thief ---- */
        LOAD(me, TOP, t);
        rf = t;
#ifdef MUT_THIEF_BEFORE_FLOOR
        STORE(me, RUNIDX, 1);                   /* mutant: the index published before the floor */
        STORE(me, FLOOR, t);
#else
        STORE(me, FLOOR, t);                    /* run_floor = deque_top(d) (relaxed) */
        STORE(me, RUNIDX, 1);                   /* task_set_thief(t, w->index): release */
#endif
        in_run = 1;
        tphase = 1;
        t = 0
    :: tphase == 1 ->
        /* ---- t's body returns: task_publish (CAS, locked), worker_leave_floor ---- */
#ifdef MUT_LEAVE_FLOOR_BEFORE_DONE
        STORE(me, FLOOR, 0);                    /* mutant: worker_leave_floor before task_publish */
        d_step { FLUSH_IN(me); mem[RUNDONE] = 1; in_run = 0 }
#else
        d_step { FLUSH_IN(me); mem[RUNDONE] = 1; in_run = 0 }
        STORE(me, FLOOR, 0);                    /* run_floor = the outer floor (none) */
#endif
        rf = 0;
        tphase = 2
    :: tphase == 1 ->
        /* ---- a join inside t: join_find_help's deque_pop_above(d, worker_run_floor(w)) ---- */
        pf = rf;
        goto pop
#endif
#ifdef AWAIT_JOINER
    :: !finishing && !awaited && (own & (1 << WANTED_ITEM)) ->
        /* ---- a task run above every frame (x, removed by P's join) that
         * waits for a joiner on another worker to take and run WANTED_ITEM
         * (Q's join of t) ---- */
        awaited = 1;
        FLUSH(me);                              /* the park's fences: our stores are out */
        d_step {                                /* ghost: WANTED_ITEM is the oldest live frame */
            i = IDX(mem[HEAD]);
            do
            :: i < mem[TOP] && mem[RUN(i)] == TOMB -> i++
            :: else -> break
            od;
            v = (i < mem[TOP] && mem[RUN(i)] == ITEM && mem[DATA(i)] == WANTED_ITEM);
            i = 0
        }
        if
        :: v ->
            awaiting = 1;
            taken[WANTED_ITEM] != 0;            /* until the joiner has taken and run it */
            awaiting = 0;
            REACHED(22)
        :: else
        fi;
        v = 0
#endif
    :: !finishing && items == NITEMS && spawned == NTYPED && RUN_OVER ->
        finishing = true
    od;
    assert(nunsynced == 0);
    t = 0; f = 0; h = 0; hw = 0; r = 0; v = 0; got = 0;
    done_threads++
}

/* ---- a thief: deque_steal_claim (deque.c) ----
 * PLAIN: deque_steal_batch (deque_steal is BATCH 1), trylock or lock.
 * RULE_FLOOR: a joiner leapfrogging into the deque of t's thief (task.c
 * join_leapfrog, frame.c frame_leapfrog): deque_steal_ruled with the owner's
 * run floor and wanted() = t not DONE.  RULE_ITEM: a joiner taking t from
 * the head of its forker's deque (task.c join_take_queued): deque_steal_ruled
 * with item = WANTED_ITEM, no wanted(). */

proctype thief(byte me)
{
    byte attempts = 0;
    byte h, hw, t, want, got, i, j, n, r, v, typed, fl;
    byte out[BATCH];
    int seen;

#ifdef AWAIT_JOINER
    awaiting || done_threads > 0;               /* the joiner comes while the owner waits (or is done) */
#endif
    do
    :: attempts < STEALS ->
        attempts++;
#ifdef HAS_RULE_FLOOR
        if
        :: KIND(me) == RULE_FLOOR ->
            /* ---- task_join_help / join_find_help / join_leapfrog ---- */
            LOAD(me, RUNDONE, v);               /* while (!status_is_done(task_status_acquire(t))) */
            if
            :: v != 0 -> break                  /* the join returns */
            :: else
            fi;
            mem[RUNIDX] != 0;                   /* thief = task_thief(t) (acquire): no leapfrog while < 0 */
            LOAD(me, FLOOR, fl)                 /* rule.floor = worker_run_floor(victim) (relaxed) */
        :: else
        fi;
#endif
        /* deque_size(d) == 0: return 0 (a racy look, no lock) */
        LOAD(me, TOP, t);
        LOAD(me, HEAD, hw);
        if
        :: t <= IDX(hw) -> goto next
        :: else
        fi;
        /* wait: pthread_mutex_lock; !wait: trylock, a busy lock fails (ruled steals wait) */
        if
        :: LOCK(me)
        :: KIND(me) == PLAIN && lock != 0 -> goto next
        fi;
        LOAD(me, HEAD, hw);                     /* hw = head word */
        h = IDX(hw);
        LOAD(me, TOP, t);                       /* seen = top - h (acquire) */
        seen = t - h;
        /* if (seen <= 0 || (rule && h < rule->floor)) { unlock; return 0; } */
        if
        :: seen <= 0 -> UNLOCK(me); goto next
        :: else
        fi;
#ifdef HAS_RULE_FLOOR
        if
        :: KIND(me) == RULE_FLOOR && h < fl ->  /* (rule && h < rule->floor): unlock, return 0 */
            UNLOCK(me); REACHED(17); goto next
        :: else
        fi;
#endif
#ifdef MUT_WANTED_EARLY
        if
        :: KIND(me) == RULE_FLOOR ->            /* mutant: wanted() before the claim and the barrier */
            LOAD(me, RUNDONE, v);
            if
            :: v != 0 -> UNLOCK(me); goto next
            :: else
            fi
        :: else
        fi;
#endif
#ifdef MUT_RULED_ITEM_BEFORE_CLAIM
        if
        :: KIND(me) == RULE_ITEM ->             /* mutant (before d24f8ea): the item looked at before the claim */
            LOAD(me, RUN(h), r);
            if
            :: r == ITEM -> LOAD(me, DATA(h), v)
            :: else -> v = 0
            fi;
            if
            :: v != WANTED_ITEM -> UNLOCK(me); goto next
            :: else
            fi
        :: else
        fi;
#endif
        want = (seen > 1 -> seen / 2 : 1);      /* half, at least one */
        if
        :: KIND(me) == PLAIN && want > BATCH -> want = BATCH    /* max */
        :: KIND(me) != PLAIN -> want = 1        /* deque_steal_ruled: max 1 */
        :: else
        fi;
#ifndef MUT_SET_FENCED_AFTER_BARRIER
        STORE(me, HEAD, (h + want) | HF);       /* release: head = (h + want) | FENCED */
#else
        STORE(me, HEAD, (h + want) | (hw & HF));
#endif
#ifndef MUT_NO_THIEF_FENCE
        if
        :: hw & HF -> FLUSH(me)                 /* fence_full() */
        :: else -> MEMBARRIER()                 /* fence_heavy() */
        fi;
#endif
#ifdef MUT_SET_FENCED_AFTER_BARRIER
        STORE(me, HEAD, (h + want) | HF);
#endif
        LOAD(me, TOP, t);                       /* t = top (acquire) */
        got = want;
        if
        :: h + want > t -> got = (t > h -> t - h : 0)   /* the owner popped into our claim */
        :: else
        fi;
        /* if (got && !deque_rule_admits(rule, h)) got = 0: after the barrier
         * and the acquire read of top, when frame h is ours (deque.c, point
         * 8).  The floor test again (h >= rule->floor: as before the claim),
         * then the item, then wanted(). */
#if defined(HAS_RULE_ITEM) && !defined(MUT_RULED_ITEM_BEFORE_CLAIM)
        if
        :: KIND(me) == RULE_ITEM && got > 0 ->
            LOAD(me, RUN(h), r);
            if
            :: r == ITEM -> LOAD(me, DATA(h), v)    /* h->fj_data == rule->item */
#ifndef MUT_ITEM_RULE_STOPS_AT_TOMB
            :: r == TOMB ->                     /* rule->item && h->fj_run == DEQUE_TOMB_RUN: true (consumed) */
                v = WANTED_ITEM;
                REACHED(23)
#endif
            :: else -> v = 0
            fi;
            if
            :: v != WANTED_ITEM -> got = 0; REACHED(16)
            :: else
            fi
        :: else
        fi;
#endif
#if defined(HAS_RULE_FLOOR) && !defined(MUT_WANTED_EARLY)
        if
        :: KIND(me) == RULE_FLOOR && got > 0 ->
            LOAD(me, RUNDONE, v);               /* rule->wanted: join_still_waiting, status acquire */
            if
            :: v != 0 -> got = 0; REACHED(14)
            :: else
            fi
        :: else
        fi;
#endif
        d_step {                                /* ghost: the claimed frames are being read */
            i = 0;
            do
            :: i < got -> reading[h + i]++; i++
            :: else -> break
            od;
            i = 0
        }
        /* ---- deque_take_claimed: i frames consumed, n kept ---- */
        i = 0;
        n = 0;
        typed = 0;
        do
        :: i < got ->
            LOAD(me, RUN(h + i), r);
            if
#ifndef MUT_STEAL_TAKES_TOMB
            :: r == TOMB ->                     /* a tombstone: continue */
                reading[h + i]--;
                i++;
                REACHED(11)
            :: r == ITEM ->
#else
            :: r == ITEM || r == TOMB ->        /* mutant: deque_is_item_slot(f) */
#endif
                LOAD(me, DATA(h + i), v);       /* out[n++] = item */
                out[n] = v;
                n++;
                reading[h + i]--;
                i++
            :: else ->
#ifndef MUT_TYPED_NOT_FIRST
                if
                :: n > 0 -> REACHED(4); break   /* a typed frame is taken alone: return i */
                :: else
                fi;
#endif
                pinned[h + i] = 1;              /* ghost: from here until DONE */
                STORE(me, STATE(h + i), STOLEN);    /* atomic_store(&f->fj_state, FRAME_STOLEN) */
                reading[h + i]--;
                typed = h + i;
                out[0] = 0;                     /* out[0] = tagged frame */
                n = 1;
                i++;
                break                           /* return i + 1 */
            fi
        :: else -> break
        od;
        skip;                                   /* (a break may not jump into a d_step) */
        d_step {                                /* ghost: frames past the consumed ones are not read */
            j = i;
            do
            :: j < got -> reading[h + j]--; j++
            :: else -> break
            od;
            j = 0
        }
        if
        :: i < want -> STORE(me, HEAD, (h + i) | HF)   /* give the rest back (release) */
        :: else
        fi;
        UNLOCK(me);
        /* ---- the thief's worker: items run (or kept in its deque) ---- */
        j = (typed != 0 -> 1 : 0);
        do
        :: j < n ->
            assert(KIND(me) != RULE_ITEM || out[j] == WANTED_ITEM);  /* only the given item */
            if
            :: KIND(me) == RULE_ITEM -> REACHED(18)
            :: else
            fi;
#ifdef HAS_RULE_FLOOR
            assert(KIND(me) != RULE_FLOOR || child[out[j]]);  /* only work of t's run */
            if
            :: KIND(me) == RULE_FLOOR -> REACHED(13)
            :: else
            fi;
#endif
            TAKE(out[j]); out[j] = 0; j++
        :: else -> break
        od;
        if
        :: typed != 0 ->
            /* ---- frame_run_stolen: the typed frame run in place ---- */
            LOAD(me, DATA(typed), v);           /* the arguments */
            assert(KIND(me) != RULE_ITEM);
#ifdef HAS_RULE_FLOOR
            assert(KIND(me) != RULE_FLOOR || child[v]);
#endif
            TAKE(v);
            STORE(me, DATA(typed), RESULT(v));  /* the result, into fj_data */
            /* fj__frame_finish / fj__frame_publish: CAS FRAME_DONE (locked) */
            d_step {
                FLUSH_IN(me);
                mem[STATE(typed)] = mem[STATE(typed)] | DONE;
                pinned[typed] = 0
            }
        :: else
        fi;
        if
        :: KIND(me) == RULE_ITEM && n > 0 -> break      /* t is ours: the join runs it */
        :: else
        fi;
next:
        h = 0; hw = 0; t = 0; want = 0; got = 0; i = 0; j = 0; n = 0; r = 0; v = 0; typed = 0; seen = 0
    :: else -> break
    od;
    fl = 0;
    done_threads++
}

init
{
    byte i;
    mem[TOP] = BASE;
    mem[HEAD] = BASE;        /* the bit starts clear (deque_init) */
    atomic {
        run owner();
        i = 1;
        do
        :: i <= NTHIEVES -> run thief(i); i++
        :: else -> break
        od
    };
    done_threads == NT;
    /* Everyone is done: every frame was taken exactly once, the deque is empty. */
    FLUSH(0);
    i = 1;
    do
    :: i <= NIDS -> assert(taken[i] == 1); i++
    :: else -> break
    od;
    assert(mem[TOP] == BASE && IDX(mem[HEAD]) == BASE)
}
