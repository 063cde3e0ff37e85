/* deque.pml - the THE work-stealing deque (runtime/deque.h, runtime/deque.c)
 * under x86-TSO (tso.pml), with the asymmetric fence and its adaptive mode.
 *
 * Threads: 0 is the owner, 1..NTHIEVES are thieves.  The owner pushes the
 * items 1..NITEMS and pops, in every order the checker chooses, then pops
 * until the deque is empty; each thief makes STEALS attempts, single steals
 * (BATCH 1) or batch steals (BATCH 2).
 *
 * Properties, checked exhaustively:
 *   - every item is taken exactly once: an assert when an item is taken
 *     (never twice, never a slot that holds no item) and the final check
 *     (every pushed item taken, the deque empty) once all threads are done;
 *   - no slot a thief claimed is overwritten before the thief read it: an
 *     assert when any store to a slot reaches memory (COMMIT_HOOK);
 *   - no deadlock (Spin's invalid end states).
 *
 * The array: CAP0 slots, grown once to 2 * CAP0 (deque_grow_locked); a
 * second growth reports DEQUE_NO_MEMORY and the owner runs the item itself
 * (task_fork_push_or_run).  SPARE stands for DEQUE_SPARE_SLOTS
 * (= FJ_STEAL_BATCH_MAX, the most slots a thief reads after its claim).
 * FENCED_POPS stands for FJ_DEQUE_FENCED_POPS.  Growth is the part between
 * the GROWTH markers; with -DNO_GROWTH the array never grows and a full
 * push runs the item inline.  -DSYMMETRIC is the mode without membarrier
 * (deque_init: fenced stays 1; fence_heavy is fence_full).
 *
 * Where the model is smaller than the code (each keeps every behaviour the
 * properties depend on): indices are bytes starting at BASE; FENCED_POPS is
 * 1, not 4096, so the owner's clearing of `fenced` is reached; a store buffer
 * holds SB_DEPTH stores and a full one stalls the thread until it drains;
 * while growing under the lock the owner drains its buffer after each copied
 * slot (nobody else can read the arrays then: thieves touch buf only under
 * the lock, and the unlock drains the buffer anyway).  A steal's trylock may
 * fail whenever the lock is busy (wait = false) or wait for it (wait = true).
 *
 * Mutants (each must make the checker fail; see mk/model.mk):
 *   MUT_NO_THIEF_FENCE  the thief's fence after its claim of head is dropped
 *                       (deque_steal_batch: fence_full / fence_heavy)
 *   MUT_SET_FENCED_AFTER_BARRIER  the thief sets `fenced` after its
 *                       fence_heavy instead of before: a pop may read 0 after
 *                       the barrier, and a later thief trusts the flag
 *   MUT_UNLOCKED_UNFENCE  the owner clears `fenced` without the lock
 *   MUT_POP_LOADS_HEAD_FIRST  deque_pop reads head before storing its claim
 *                       of tail (the StoreLoad order reversed)
 *   MUT_NO_SPARE        push keeps no spare slots (point 4): the owner may
 *                       overwrite a slot a thief has claimed but not read
 *   MUT_POP_FENCED_NO_FENCE  a fenced pop skips its fence_full
 */

#ifndef NTHIEVES
#define NTHIEVES 2
#endif
#ifndef NITEMS
#define NITEMS 3
#endif
#ifndef STEALS
#define STEALS 1
#endif
#ifndef BATCH
#define BATCH 1
#endif
#ifndef CAP0
#define CAP0 2
#endif
#ifdef MUT_NO_SPARE
#define SPARE 0
#else
#define SPARE BATCH
#endif
#ifndef FENCED_POPS
#define FENCED_POPS 1
#endif

#define NT (1 + NTHIEVES)
/* Indices start at 1, not 0, so that the empty pop's tail - 1 is no byte
 * underflow (C: size_t arithmetic, compared as long). */
#define BASE 1
#define SB_DEPTH 4

/* mem[] layout: the fields of struct deque, then the two arrays. */
#define TAIL 0      /* d->tail */
#define HEAD 1      /* d->head */
#define FENCED 2    /* d->fenced */
#define CUR 3       /* d->buf / d->mask: 0 the first array, 1 the grown one */
#define BUF0 4
#define BUF1 (BUF0 + CAP0)
#define NADDR (BUF1 + 2 * CAP0)

/* Ghost state for the properties (not part of the C code). */
byte taken[NITEMS + 1];      /* how many times item i was taken */
byte claimed[NADDR];         /* thieves that kept this slot and have not read it yet */
byte pushed_items;           /* items the owner pushed */
byte done_threads;

#define IS_SLOT(a) ((a) >= BUF0)
#define COMMIT_HOOK(a, v) assert(!IS_SLOT(a) || claimed[a] == 0)

#include "tso.pml"

bit lock;   /* d->lock; pthread_mutex_lock/unlock are locked instructions */

inline LOCK(me)    { d_step { lock == 0 -> lock = 1; FLUSH_IN(me) } }
inline UNLOCK(me)  { d_step { FLUSH_IN(me); lock = 0 } }

/* The slot of logical index i in the array `cur` names. */
#define SLOT(cur, i) ((cur) == 0 -> (BUF0 + ((i) % CAP0)) : (BUF1 + ((i) % (2 * CAP0))))
#define MASK(cur) ((cur) == 0 -> (CAP0 - 1) : (2 * CAP0 - 1))

inline TAKE(v)
{
    d_step {
        assert(v >= 1 && v <= NITEMS);   /* a slot that held a pushed item */
        assert(taken[v] == 0);           /* never taken twice */
        taken[v]++
    }
}

/* ---- the owner ---- */

proctype owner()
{
    byte me = 0;
    byte cur = 0;            /* owner's copy of buf/mask: it is their only writer */
    byte t, h, v, f, i, s;
    byte fenced_pops_left = 0, head_seen = BASE;   /* owner-private (deque.h) */
    bool done = false;

    do
    :: pushed_items < NITEMS ->
        /* ---- deque_push: deque_try_push (deque.h) ---- */
        v = pushed_items + 1;
        pushed_items++;
        LOAD(me, TAIL, t);                      /* t = atomic_load(&d->tail) */
        LOAD(me, HEAD, h);                      /* atomic_load_acquire(&d->head) */
        if
        :: t - h <= MASK(cur) - SPARE ->        /* room without growing */
            s = SLOT(cur, t); STORE(me, s, v);         /* d->buf[t & d->mask] = item */
            STORE(me, TAIL, t + 1)              /* atomic_store_release(&d->tail, t + 1) */
        :: else ->
            /* ---- deque_push_slow (deque.c) ---- */
            LOCK(me);                           /* pthread_mutex_lock(&d->lock) */
            LOAD(me, TAIL, t);
            LOAD(me, HEAD, h);                  /* atomic_load_acquire(&d->head) */
            if
            :: t - h > MASK(cur) - SPARE ->
                /* GROWTH begin: deque_grow_locked */
#ifndef NO_GROWTH
                if
                :: cur == 0 ->
                    i = h;                      /* for (i = h; i != t; i++) */
                    do
                    :: i != t ->
                        s = SLOT(0, i); LOAD(me, s, f);
                        s = SLOT(1, i); STORE(me, s, f);  /* bigger[i & new_mask] = buf[i & mask] */
                        FLUSH(me);              /* (model: keeps the buffer bound small) */
                        i++
                    :: else -> break
                    od;
                    i = 0; f = 0;
                    STORE(me, CUR, 1);          /* d->buf = bigger; d->mask = new_cap - 1 */
                    cur = 1
                :: else ->
                    UNLOCK(me);                 /* DEQUE_NO_MEMORY: unlock, return */
                    TAKE(v);                    /* the caller runs it itself */
                    goto pushed
                fi
#else
                UNLOCK(me);
                TAKE(v);
                goto pushed
#endif
                /* GROWTH end */
            :: else
            fi;
            s = SLOT(cur, t); STORE(me, s, v);         /* d->buf[t & d->mask] = item */
            STORE(me, TAIL, t + 1);             /* atomic_store_release(&d->tail, t + 1) */
            UNLOCK(me)                          /* pthread_mutex_unlock */
        fi;
pushed:
        t = 0; h = 0; v = 0; f = 0; s = 0
    :: true ->
        /* ---- deque_pop (deque.h) ---- */
pop:
        LOAD(me, TAIL, t);
        t = t - 1;                              /* t = atomic_load(&d->tail) - 1 */
#ifdef MUT_POP_LOADS_HEAD_FIRST
        LOAD(me, HEAD, h);
        STORE(me, TAIL, t);
#else
        STORE(me, TAIL, t);                     /* atomic_store_release(&d->tail, t) */
#endif
        /* compiler_barrier(): nothing at run time */
        LOAD(me, FENCED, f);                    /* atomic_load(&d->fenced) */
        if
        :: f != 0 ->
            /* ---- deque_pop_fence (deque.c), asymmetric mode ---- */
#ifndef MUT_POP_FENCED_NO_FENCE
            FLUSH(me);                          /* fence_full() */
#endif
#ifndef SYMMETRIC                               /* if (!fj_fence_asymmetric) return; */
            if
            :: fenced_pops_left > 0 -> fenced_pops_left--
            :: else ->
                LOAD(me, HEAD, h);              /* head = atomic_load(&d->head) */
                if
                :: h != head_seen ->
                    head_seen = h;
                    fenced_pops_left = FENCED_POPS
                :: else ->
#ifdef MUT_UNLOCKED_UNFENCE
                    STORE(me, FENCED, 0)
#else
                    LOCK(me);                   /* pthread_mutex_lock */
                    STORE(me, FENCED, 0);       /* atomic_store(&d->fenced, 0) */
                    UNLOCK(me)                  /* pthread_mutex_unlock */
#endif
                fi
            fi
#endif
        :: else
        fi;
#ifndef MUT_POP_LOADS_HEAD_FIRST
        LOAD(me, HEAD, h);                      /* h = atomic_load(&d->head) */
#endif
        if
        :: h > t ->
            /* ---- deque_pop_slow (deque.c) ---- */
            STORE(me, TAIL, t + 1);             /* atomic_store_release(&d->tail, t + 1) */
            LOCK(me);
            LOAD(me, HEAD, h);                  /* h = atomic_load(&d->head) */
            if
            :: h <= t ->
                s = SLOT(cur, t); LOAD(me, s, v);      /* item = d->buf[t & d->mask] */
                STORE(me, TAIL, t)              /* atomic_store_release(&d->tail, t) */
            :: else -> v = 0                    /* empty: NULL */
            fi;
            UNLOCK(me)
        :: else ->
            s = SLOT(cur, t); LOAD(me, s, v)           /* return d->buf[t & d->mask] */
        fi;
popped:
        if
        :: v != 0 -> TAKE(v)
        :: else
        fi;
        if
        :: done && v == 0 -> break              /* the final pops found it empty */
        :: done && v != 0 -> goto pop
        :: else
        fi;
        t = 0; h = 0; v = 0; f = 0; s = 0
    :: !done && pushed_items == NITEMS ->
        done = true;
        goto pop                                /* pop until empty */
    od;
    t = 0; h = 0; v = 0; f = 0; s = 0;
    done_threads++
}

/* ---- a thief: deque_steal_batch (deque.c); deque_steal is BATCH 1 ---- */

proctype thief(byte me)
{
    byte attempts = 0;
    byte h, t, f, want, got, cur, i, v, s;
    int seen;

    do
    :: attempts < STEALS ->
        attempts++;
        /* deque_size(d) == 0: return 0 (a racy look, no lock) */
        LOAD(me, TAIL, t);
        LOAD(me, HEAD, h);
        if
        :: t <= h -> goto next
        :: else
        fi;
        /* wait: pthread_mutex_lock; !wait: trylock, a busy lock fails */
        if
        :: LOCK(me)
        :: d_step { lock != 0 } -> goto next
        fi;
        LOAD(me, HEAD, h);                      /* h = atomic_load(&d->head) */
        LOAD(me, TAIL, t);                      /* seen = tail - h (acquire) */
        seen = t - h;
        want = (seen > 1 -> seen / 2 : 1);      /* half, at least one */
        if
        :: want > BATCH -> want = BATCH         /* at most max */
        :: else
        fi;
        STORE(me, HEAD, h + want);              /* atomic_store_release(&d->head, h + want) */
        LOAD(me, FENCED, f);                    /* if (atomic_load(&d->fenced)) */
        if
        :: f != 0 ->
#ifndef MUT_NO_THIEF_FENCE
            FLUSH(me)                           /*     fence_full() */
#else
            skip
#endif
        :: else ->
#ifndef MUT_SET_FENCED_AFTER_BARRIER
            STORE(me, FENCED, 1);               /* else { atomic_store(&d->fenced, 1); */
#endif
#if defined(SYMMETRIC) && !defined(MUT_NO_THIEF_FENCE)
            FLUSH(me)                           /*        fence_heavy(): a full fence } */
#elif !defined(MUT_NO_THIEF_FENCE)
            MEMBARRIER()                        /*        fence_heavy() } */
#else
            skip
#endif
#ifdef MUT_SET_FENCED_AFTER_BARRIER
            ; STORE(me, FENCED, 1)
#endif
        fi;
        LOAD(me, TAIL, t);                      /* t = atomic_load_acquire(&d->tail) */
        got = want;
        if
        :: h + want > t ->                      /* the owner popped into our claim */
            got = (t > h -> t - h : 0);
            STORE(me, HEAD, h + got)            /* atomic_store_release(&d->head, h + got) */
        :: else
        fi;
        LOAD(me, CUR, cur);                     /* d->buf, d->mask: read under the lock */
        d_step {                                /* ghost: the kept slots are being read */
            i = 0;
            do
            :: i < got -> claimed[SLOT(cur, h + i)]++; i++
            :: else -> break
            od;
            i = 0
        }
        i = 0;
        do
        :: i < got ->
            s = SLOT(cur, h + i); LOAD(me, s, v);      /* out[i] = d->buf[(h + i) & d->mask] */
            claimed[SLOT(cur, h + i)]--;
            TAKE(v);
            i++
        :: else -> break
        od;
        UNLOCK(me);                             /* pthread_mutex_unlock */
next:
        h = 0; t = 0; f = 0; want = 0; got = 0; cur = 0; i = 0; v = 0; seen = 0; s = 0
    :: else -> break
    od;
    done_threads++
}

init
{
    byte i;
    mem[TAIL] = BASE;
    mem[HEAD] = BASE;
#ifdef SYMMETRIC
    mem[FENCED] = 1;    /* deque_init: fenced = !fj_fence_asymmetric */
#endif
    atomic {
        run owner();
        i = 1;
        do
        :: i <= NTHIEVES -> run thief(i); i++
        :: else -> break
        od
    };
    done_threads == NT;
    /* Everyone is done: every pushed item was taken exactly once, and the
     * deque is empty. */
    FLUSH(0);
    i = 1;
    do
    :: i <= NITEMS -> assert(taken[i] == 1); i++
    :: else -> break
    od;
    assert(mem[TAIL] == mem[HEAD])
}
