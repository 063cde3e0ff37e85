/* idle.pml - parking idle workers and waking them for new work
 * (runtime/idle.h, runtime/idle.c, the scheduler loop of runtime/worker.c,
 * the fork path of runtime/task_inline.h) under x86-TSO (tso.pml).
 *
 * Threads:
 *   0            a worker that forks NITEMS tasks (task_fork: push, then
 *                fence_light, idle_should_signal, idle_signal_work) and then
 *                stays busy in its own body for ever: it never takes them back.
 *                With -DSUBMIT it is a thread outside the pool submitting
 *                (fj_pool_submit: injector push, fence_full, idle_signal_work).
 *                With -DSPAWN its forks are typed spawns (include/fj.h,
 *                fj__spawn_end): push, compiler barrier, test its own wake
 *                hint and `searching`; then fj__spawn_wake: idle_hint_confirm,
 *                which may clear the hint, then idle_signal_work.
 *   1..NWORKERS  idle workers in worker_main: find work, search (spin and
 *                yield rounds, counted in `searching`), park (idle_park).
 *   init         pool destruction once every item was taken: stopping = 1,
 *                fence_full, idle_wake_all; the workers then exit.
 * The deque (or injector) is abstract: the push is the publisher's store of
 * tail through its store buffer; a thief takes an item under the lock only
 * when the tail store has reached memory (deque.pml checks the deque itself).
 *
 * Property NO_LOST_WAKEUP: no state in which items wait and every worker
 * sleeps for ever.  Such a state blocks every thread (init waits for the
 * items to be taken), which Spin reports as an invalid end state; a sleeping
 * worker is not at a valid end.  And every item is taken once (assert).
 *
 * Mutants (each must be caught; mk/model.mk):
 *   MUT_NO_PARK_FENCE       idle_park without its fence_heavy
 *   MUT_NO_PARK_RECHECK     idle_park sleeps without calling has_work
 *   MUT_WORD_READ_LATE      idle_park reads its futex word after has_work
 *                           (point 3 of idle.c)
 *   MUT_SIGNAL_BEFORE_PUSH  the fork tests for sleepers before its push
 *   MUT_HINT_NOT_SET        (SPAWN) idle_park does not set the wake hints
 *   MUT_HINT_CLEAR_UNCHECKED (SPAWN) idle_hint_confirm clears the hint on one
 *                           read of sleepers == 0, without fence and re-read
 *   MUT_HINT_SET_BEFORE_SLEEPERS (SPAWN) idle_park sets the hints before it
 *                           increments sleepers (point 6 of idle.c)
 */

#ifndef NWORKERS
#define NWORKERS 2
#endif
#ifndef NITEMS
#define NITEMS 2
#endif
#ifndef SEARCH_ROUNDS
#define SEARCH_ROUNDS 1
#endif

#define NT (1 + NWORKERS)
#define SB_DEPTH 3

/* mem[] */
#define TAIL 0          /* the publisher's deque tail (or the injector's) */
#define HEAD 1          /* its head, moved by thieves under the lock */
#define SLEEPERS 2      /* idle.sleepers */
#define SEARCHING 3     /* idle.searching */
#define STOPPING 4      /* pool_stopping() */
#define HINT 5          /* the publisher's wake hint (deque ends, SPAWN) */
#define WORD 6          /* parkers[slot].word for worker 1.. (WORD + w - 1) */
#define NADDR (WORD + NWORKERS)

#include "tso.pml"

/* The parked stack (idle.parked, parked_count, parkers[].listed), guarded by
 * idle.lock: the lock is modelled by doing each critical section in one step,
 * with the locked instructions' flush of the caller's store buffer. */
byte parked[NWORKERS];
byte parked_count;
bit listed[NT];

/* Ghost state. */
byte taken;             /* items taken by workers */
bit sleeping[NT];       /* in futex_wait on its word */
byte done_workers;

/* atomic_fetch_add_full(&mem[a], d): a locked instruction */
inline FETCH_ADD(me, a, d) { d_step { FLUSH_IN(me); mem[a] = mem[a] + d } }

/* parker_wake(slot of worker w): atomic_fetch_add_full(&word, 1); futex_wake */
inline PARKER_WAKE(me, w)
{
    d_step { FLUSH_IN(me); mem[WORD + w - 1]++ };
    sleeping[w] = 0                         /* futex_wake(&p->word, 1) */
}

/* idle_signal_work(s) */
inline SIGNAL_WORK(me, s, chosen)
{
    LOAD(me, SLEEPERS, s);                  /* if (atomic_load(&s->sleepers) == 0) return */
    if
    :: s != 0 ->
        d_step {                            /* pthread_mutex_lock(&s->lock) ... unlock */
            FLUSH_IN(me);
            chosen = 0;
            if
            :: parked_count > 0 ->
                parked_count--;
                chosen = parked[parked_count];
                parked[parked_count] = 0;
                listed[chosen] = 0
            :: else
            fi
        };
        if
        :: chosen != 0 -> PARKER_WAKE(me, chosen)
        :: else
        fi
    :: else
    fi;
    chosen = 0
}

/* idle_set_hints: the publisher's is the one hint a spawn tests here. */
inline SET_HINTS(me, h)
{
#ifndef MUT_HINT_NOT_SET
    LOAD(me, HINT, h);                      /* if (atomic_load(hint) == 0) */
    if
    :: h == 0 -> STORE(me, HINT, 1)         /*     atomic_store(hint, 1) */
    :: else
    fi;
    h = 0
#else
    skip
#endif
}

/* fj__spawn_wake: idle_hint_confirm, then idle_signal_work when it is true. */
inline SPAWN_WAKE(me, s, chosen)
{
    LOAD(me, SLEEPERS, s);                  /* if (sleepers != 0) return true */
    if
    :: s == 0 ->
        STORE(me, HINT, 0);                 /* atomic_store(hint, 0) */
#ifndef MUT_HINT_CLEAR_UNCHECKED
        FLUSH(me);                          /* fence_full() */
        LOAD(me, SLEEPERS, s);              /* if (sleepers == 0) return false */
        if
        :: s != 0 -> STORE(me, HINT, 1)     /* atomic_store(hint, 1); return true */
        :: else
        fi
#endif
    :: else
    fi;
    if
    :: s != 0 -> SIGNAL_WORK(me, s, chosen)
    :: else
    fi
}

/* ---- thread 0: the publisher ---- */
proctype publisher()
{
    byte me = 0, t, s, q, chosen, n;

    do
    :: n < NITEMS ->
        n++;
#ifdef MUT_SIGNAL_BEFORE_PUSH
        LOAD(me, SLEEPERS, s);
        LOAD(me, SEARCHING, q);
#endif
        LOAD(me, TAIL, t);
        STORE(me, TAIL, t + 1);             /* deque_try_push: tail store (release) */
#ifdef SUBMIT
        FLUSH(me);                          /* fj_pool_submit: fence_full() */
        SIGNAL_WORK(me, s, chosen)          /* idle_signal_work */
#elif defined(SPAWN)
        /* a compiler barrier (membarrier mode) */
        LOAD(me, HINT, s);                  /* fj__word_nonzero(&d->fj_wake_hint) */
        if
        :: s != 0 ->
            LOAD(me, SEARCHING, q);         /*   && idle[1] == 0 */
            if
            :: q == 0 -> SPAWN_WAKE(me, s, chosen)
            :: else
            fi
        :: else
        fi
#else
        /* fence_light(): a compiler barrier */
#ifndef MUT_SIGNAL_BEFORE_PUSH
        LOAD(me, SLEEPERS, s);              /* idle_should_signal: sleepers != 0 */
        LOAD(me, SEARCHING, q);             /*   && searching == 0 */
#endif
        if
        :: s != 0 && q == 0 -> SIGNAL_WORK(me, s, chosen)   /* task_fork_wake */
        :: else
        fi
#endif
        ; t = 0; s = 0; q = 0
    :: else -> break
    od
    /* busy in its own body from here on */
}

/* find_work: the worker's own deque is empty here; worker_take_injected /
 * worker_steal_random: deque_size() > 0, then take under the lock. */
inline FIND_WORK(me, got)
{
    got = 0;
    if
    :: d_step { mem[TAIL] > mem[HEAD] -> FLUSH_IN(me); mem[HEAD]++; taken++; got = 1 }
    :: else                                 /* empty (or, here, nothing visible yet) */
    fi
}

/* ---- threads 1..NWORKERS: worker_main ---- */
proctype worker(byte me)
{
    bit got;
    byte round, e, t, h, stop, hint;

    do
    :: FIND_WORK(me, got);                  /* worker_find_work(w, attempts, false) */
        if
        :: got -> goto running
        :: else
        fi;
        /* worker_search */
        FETCH_ADD(me, SEARCHING, 1);        /* idle_search_begin: fetch_add_full */
        round = 0;
        do
        :: round < SEARCH_ROUNDS && !got ->
            round++;
            FIND_WORK(me, got)              /* spin or yield rounds */
        :: else -> break
        od;
        round = 0;
        FETCH_ADD(me, SEARCHING, 255);      /* idle_search_end: fetch_add_full(-1) */
        if
        :: got -> goto running
        :: else
        fi;
        LOAD(me, STOPPING, stop);           /* if (pool_stopping(pool)) break */
        if
        :: stop -> break
        :: else
        fi;
        /* worker_park -> idle_park(&pool->idle, w->slot, worker_should_wake, w) */
#ifndef MUT_WORD_READ_LATE
        LOAD(me, WORD + me - 1, e);         /* e = atomic_load_acquire(&p->word) */
#endif
        d_step {                            /* list_parker (under idle.lock) */
            FLUSH_IN(me);
            if
            :: !listed[me] -> listed[me] = 1; parked[parked_count] = me; parked_count++
            :: else
            fi
        };
#ifdef MUT_HINT_SET_BEFORE_SLEEPERS
        SET_HINTS(me, hint);
#endif
        FETCH_ADD(me, SLEEPERS, 1);         /* atomic_fetch_add_full(&s->sleepers, 1) */
#ifndef MUT_HINT_SET_BEFORE_SLEEPERS
        SET_HINTS(me, hint);                /* idle_set_hints */
#endif
#ifndef MUT_NO_PARK_FENCE
        MEMBARRIER();                       /* fence_heavy() */
#endif
#ifndef MUT_NO_PARK_RECHECK
        LOAD(me, STOPPING, stop);           /* has_work: pool_stopping() || */
        LOAD(me, TAIL, t);                  /*   worker_pool_has_work: deque_size > 0 */
        LOAD(me, HEAD, h);
#else
        stop = 0; t = 0; h = 0;
#endif
#ifdef MUT_WORD_READ_LATE
        LOAD(me, WORD + me - 1, e);
#endif
        if
        :: !stop && t <= h ->
            d_step {                        /* futex_wait(&p->word, e, NULL) */
                FLUSH_IN(me);
                if
                :: mem[WORD + me - 1] == e -> sleeping[me] = 1
                :: else
                fi
            };
            sleeping[me] == 0               /* no end label: asleep for ever is an error */
        :: else
        fi;
        d_step {                            /* unlist_parker (under idle.lock) */
            FLUSH_IN(me);
            if
            :: listed[me] ->
                listed[me] = 0;
                tso_i = 0;
                do
                :: tso_i < parked_count && parked[tso_i] != me -> tso_i++
                :: else -> break
                od;
                parked_count--;
                parked[tso_i] = parked[parked_count];
                parked[parked_count] = 0;
                tso_i = 0
            :: else
            fi
        };
        FETCH_ADD(me, SLEEPERS, 255);       /* atomic_fetch_add_full(&s->sleepers, -1) */
        e = 0; t = 0; h = 0; stop = 0;
        goto next;
running:
        got = 0;                            /* task_execute: the item's body */
next:
        skip
    od;
    done_workers++
}

init
{
    byte w;
    atomic {
        run publisher();
        w = 1;
        do
        :: w <= NWORKERS -> run worker(w); w++
        :: else -> break
        od;
        w = 0
    };
    taken == NITEMS;                        /* (ghost) every item was taken */
    /* fj_pool_destroy: stopping = 1; fence_full(); idle_wake_all() */
    d_step { mem[STOPPING] = 1 };
    w = 1;
    do
    :: w <= NWORKERS -> d_step { mem[WORD + w - 1]++; sleeping[w] = 0 }; w++
    :: else -> break
    od;
    done_workers == NWORKERS;
    assert(taken == NITEMS && mem[HEAD] == NITEMS)
}
