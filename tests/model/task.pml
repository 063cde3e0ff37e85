/* task.pml - one task's life (runtime/task.h, task_inline.h, task.c) under
 * x86-TSO (tso.pml): fork, steal, execute, complete, join (inline pop, or
 * stolen -> help -> park), cancel or fail racing with all of it, and waiters
 * parking on it.
 *
 * Threads:
 *   0 the owner: forks t, then joins it (task_fork, task_join and below);
 *     with nothing else to help, its join of a stolen t spins or parks
 *     (join_park -> idle_park on its parker word, slot 0)
 *   1 a thief: steals t if the owner has not popped it, and runs it
 *     (task_execute, task_publish)
 *   2 a settler: fj_task_cancel, fj_task_fail or fj_task_quietly_complete,
 *     at any moment after the fork (task_settle, task_settle_forked)
 *   3 (with -DEXTERNAL_WAITER) a thread outside the pool in fj_join(t)
 *     (task_wait_external: FUTEX_WAITERS and a futex on the status word),
 *     or (with -DWORKER_WAITER) another worker in fj_join(t), which
 *     registers its parker slot in the waiter field and parks (the owner,
 *     when t was stolen, then finds the field taken and polls), or (with
 *     -DSECOND_SETTLER) a second settler like thread 2, which meets the
 *     first one's SETTLE_PENDING and waits for its decision
 * The deque is one abstract cell here: push stores tail (DQ) through the
 * owner's store buffer, a steal needs that store in memory, and pop/steal
 * decide atomically who takes t (deque.pml checks that part).
 *
 * The status word (task.h) is three cells of mem[]: PHASE (byte 0), FLAGS
 * (byte 1: CANCELLED, FAILED, FORCED, SETTLE_PENDING, FUTEX_WAITERS) and
 * WAITER (bytes 2-3).  A word
 * load reads all three (each from the own buffer or memory, as x86 does); a
 * byte store of the phase goes through the store buffer; a CAS is a locked
 * instruction on all three.  A futex_wait sleeps only if the word still
 * equals the value, atomically (FUTEX_WAIT), and futex_wake wakes it.
 *
 * Properties:
 *   JOIN_AFTER_BODY  a join returns only once no body runs and the body's
 *                    write is visible to the joiner (assert at the return)
 *   NO_LOST_WAKEUP   nobody sleeps for ever: a parked joiner or waiter
 *                    with the task done is an invalid end state
 *   OUTCOME          (off with -DSKIP_OUTCOME) join returns FJ_ECANCELED exactly when the cancel
 *                    returned 0; the recorded error when the fail returned 0;
 *                    0 when the quiet completion returned 0; otherwise the
 *                    body's error, or 0 when it returned 0 (final check)
 *   IS_DONE          (-DCHECK_IS_DONE) fj_task_is_done is never true while
 *                    the body runs (issue 12 cause 8: it looks at the phase
 *                    only); the settler asks it after its settle
 *
 * Mutants (each must be caught; mk/model.mk):
 *   MUT_SETTLE_NO_PENDING      the settle of a forked task is one CAS of its
 *                              flag (the code before the settle protocol):
 *                              a cancel that saw FORKED lands after an inline
 *                              join read the flags and returned 0
 *   MUT_SETTLE_NO_HEAVY_FENCE  task_settle_forked announces SETTLE_PENDING
 *                              but reads the phase without fence_heavy()
 *   MUT_AFTERMATH_NO_WAIT      task_popped_aftermath does not wait while
 *                              SETTLE_PENDING is set
 *   MUT_SETTLE_IGNORES_PENDING task_settle does not wait for another settle's
 *                              decision (-DSECOND_SETTLER): both decide, and a
 *                              cancel and a fail can both return 0
 *   MUT_BODY_ERROR_LOST        the executor publishes DONE_ERROR only when its
 *                              own record_error won (the code before): a fail
 *                              that recorded first, then finds the task done,
 *                              leaves join reporting 0 for a failed body
 *   MUT_IS_DONE_SEES_ABORT     fj_task_is_done also true on CANCELLED/FAILED
 *                              (the code before issue 12 cause 8)
 *   MUT_NO_WAITER_HEAVY_FENCE  idle_park's fence_heavy before the last look
 *                              at the task is dropped
 *   MUT_NO_PARK_RECHECK        join parks without looking at the task again
 *                              after registering (has_work)
 *   MUT_INLINE_LOADS_FLAGS_FIRST  the inline completion reads the bits above
 *                              the phase before its store of DONE (one load
 *                              moved above one store)
 */

#if defined(EXTERNAL_WAITER) || defined(WORKER_WAITER) || defined(SECOND_SETTLER)
#define NT 4
#else
#define NT 3
#endif
#define SB_DEPTH 4

/* mem[] */
#define PHASE 0     /* status bits 0-7 */
#define FLAGS 1     /* status bits 8-15 */
#define WAITER 2    /* status bits 16-31: parker slot + 1 */
#define ERROR 3     /* t->fj_error */
#define EFFECT 4    /* what the body writes */
#define DQ 5        /* the owner's deque holds t (its tail store) */
#define PWORD 6     /* parkers[0].word, the owner's futex word; PWORD + 1: the helper's */
#define PUB 8       /* the program hands t's address to other threads (a flag) */
#define NADDR 9

#define NEW 0
#define FORKED 1
#define DONE 2
#define DONE_ERROR 3
#define CANCELLED 1
#define FAILED 2
#define FUTEX_WAITERS 4
#define FORCED 8            /* STATUS_FORCED (fj_task_quietly_complete) */
#define PENDING 16          /* STATUS_SETTLE_PENDING */
#define ABORTED (CANCELLED | FAILED)
#define SETTLED (ABORTED | FORCED)

/* Error codes of the model. */
#define ERR_BODY 1
#define ERR_FAIL 2
#define ECANCELED 3

#include "tso.pml"

/* Ghost state (not in the C code). */
byte taken_by;          /* 0: in the deque, 1: popped by the owner, 2: stolen */
bit running;            /* a body is between its first and last instruction */
bit body_ran;
byte body_rc;
bit cancel_won, fail_won, forced_won;   /* a settle of this kind returned 0 */
byte join_rc = 255, ext_rc = 255;
byte done_threads;
bit sleeping[NT];       /* in futex_wait */
byte sleep_on[NT];      /* ... on this word (PWORD or PHASE for the status word) */

/* status_is_done(s) */
#define IS_DONE(ph) ((ph) >= DONE)

/* s = atomic_load(status): the three cells, as one load */
inline LOADW(me, x_ph, x_fl, x_wt)
{
    d_step {
        LOAD_IN(me, PHASE, x_ph);
        LOAD_IN(me, FLAGS, x_fl);
        LOAD_IN(me, WAITER, x_wt)
    }
}

/* atomic_cas_full_u32(status, expected, desired): a locked instruction.
 * On failure the expected values are replaced by what was seen. */
inline CASW(me, x_ph, x_fl, x_wt, x_nph, x_nfl, x_nwt, x_ok)
{
    d_step {
        FLUSH_IN(me);
        if
        :: mem[PHASE] == x_ph && mem[FLAGS] == x_fl && mem[WAITER] == x_wt ->
            mem[PHASE] = x_nph; mem[FLAGS] = x_nfl; mem[WAITER] = x_nwt; x_ok = 1
        :: else ->
            x_ph = mem[PHASE]; x_fl = mem[FLAGS]; x_wt = mem[WAITER]; x_ok = 0
        fi
    }
}

/* task_record_error: CAS of fj_error from 0; ok = 1 if ours won. */
inline RECORD_ERROR(me, x_err, x_ok)
{
    d_step {
        FLUSH_IN(me);
        if
        :: mem[ERROR] == 0 -> mem[ERROR] = x_err; x_ok = 1
        :: else -> x_ok = 0
        fi
    }
}

/* futex_wait(word, expected): sleeps only if the word still holds
 * `expected` (the kernel's check is atomic with queueing the sleeper). */
inline FUTEX_WAIT_PWORD(me, x_pw, x_e)
{
    d_step {
        FLUSH_IN(me);
        if
        :: mem[x_pw] == x_e -> sleeping[me] = 1; sleep_on[me] = x_pw
        :: else
        fi
    };
    sleeping[me] == 0;     /* no end label: sleeping for ever is a deadlock */
    sleep_on[me] = 0
}

inline FUTEX_WAIT_STATUS(me, x_ph, x_fl, x_wt)
{
    d_step {
        FLUSH_IN(me);
        if
        :: mem[PHASE] == x_ph && mem[FLAGS] == x_fl && mem[WAITER] == x_wt ->
            sleeping[me] = 1; sleep_on[me] = PHASE
        :: else
        fi
    };
    sleeping[me] == 0;
    sleep_on[me] = 0
}

/* futex_wake(word, INT_MAX) */
inline FUTEX_WAKE(me, x_word)
{
    d_step {
        FLUSH_IN(me);
        tso_i = 0;
        do
        :: tso_i < NT ->
            if
            :: sleeping[tso_i] && sleep_on[tso_i] == x_word -> sleeping[tso_i] = 0
            :: else
            fi;
            tso_i++
        :: else -> break
        od;
        skip;  /* (a break may not land in a d_step) */
        tso_i = 0
    }
}

/* parker_wake(waiter - 1): atomic_fetch_add_full(&word, 1); futex_wake(&word, 1) */
inline PARKER_WAKE(me, x_waiter)
{
    d_step { FLUSH_IN(me); mem[PWORD + x_waiter - 1]++ };
    FUTEX_WAKE(me, PWORD + x_waiter - 1)
}

/* The task's fn: writes EFFECT, returns 0 or ERR_BODY (the checker picks). */
inline BODY(me, x_rc)
{
    d_step { assert(!running); running = 1; body_ran = 1 };
    STORE(me, EFFECT, 1);
    if
    :: x_rc = 0
    :: x_rc = ERR_BODY
    fi;
    d_step { running = 0; body_rc = x_rc }
}

/* task_outcome_of(t, status) */
inline OUTCOME_OF(me, x_ph, x_fl, x_rc)
{
    if
    :: x_fl & CANCELLED -> x_rc = ECANCELED
    :: !(x_fl & CANCELLED) && (x_fl & FORCED) -> x_rc = 0
    :: !(x_fl & (CANCELLED | FORCED)) && ((x_fl & FAILED) || x_ph == DONE_ERROR) -> LOAD(me, ERROR, x_rc)
    :: else -> x_rc = 0
    fi
}

/* A join (or wait) returns: no body runs, and what it wrote is visible. */
inline JOIN_RETURNS(me)
{
    assert(!running);
    if
    :: body_ran -> LOAD(me, EFFECT, e); assert(e == 1)
    :: else
    fi
}

/* task_join_help(w, t) for the worker whose parker slot is mine - 1, with
 * nothing else to help with (join_find_help finds nothing): spin, or park
 * (join_park: join_register, then idle_park).  Uses the caller's ph, fl, wt,
 * e, ok. */
inline JOIN_HELP(me, mine)
{
    /* task_join_help: while (!status_is_done(task_status_acquire(t))) */
    do
    :: LOADW(me, ph, fl, wt);
        if
        :: IS_DONE(ph) -> break
        :: else
        fi;
        /* join_find_help: nothing to help with here */
        if
        :: skip                             /* cpu_relax / sched_yield round */
        :: true ->
            /* join_park -> join_register */
            do
            :: LOADW(me, ph, fl, wt);
                if
                :: IS_DONE(ph) -> goto not_registered   /* return 0 */
                :: wt == mine -> break                  /* holder == mine */
                :: wt != 0 && wt != mine -> goto poll   /* another worker holds it: -1 */
                :: else
                fi;
                CASW(me, ph, fl, wt, ph, fl, mine, ok); /* s | (mine << WAITER_SHIFT) */
                if
                :: ok -> break
                :: else
                fi
            od;
            skip;  /* (a break may not land in a d_step) */
            /* idle_park(&pool->idle, slot, join_has_work, &jw) */
            LOAD(me, PWORD + mine - 1, e);             /* e = atomic_load_acquire(&p->word) */
            FLUSH(me);                      /* list_parker (mutex); sleepers += 1 (full) */
#ifndef MUT_NO_WAITER_HEAVY_FENCE
            MEMBARRIER();                   /* fence_heavy() */
#endif
#ifndef MUT_NO_PARK_RECHECK
            LOADW(me, ph, fl, wt);          /* has_work: join_task_done */
            if
            :: IS_DONE(ph) -> skip
            :: else -> FUTEX_WAIT_PWORD(me, PWORD + mine - 1, e)   /* futex_wait(&p->word, e, NULL) */
            fi;
#else
            FUTEX_WAIT_PWORD(me, PWORD + mine - 1, e);
#endif
            FLUSH(me);                      /* unlist_parker; sleepers -= 1 */
            goto not_registered;
poll:
            skip;   /* task_wait_external(t, now + 1 ms): returns by the deadline at the latest */
not_registered:
            e = 0
        fi
    od;
    skip;  /* (a break may not land in a d_step) */
}

/* ---- thread 0: fork, then join ---- */
proctype owner()
{
    byte me = 0;
    byte ph, fl, wt, e, rc;
    bit ok;

    /* task_fork (task_inline.h) */
    LOAD(me, PHASE, ph);                    /* task_phase(atomic_load(status)) == FORKED? no */
    STORE(me, PHASE, FORKED);               /* atomic_store_u32(status, PHASE_FORKED) */
    STORE(me, DQ, 1);                       /* deque_try_push: tail store (release) */
    /* fence_light(); idle_should_signal: the idle model's part */
    STORE(me, PUB, 1);                      /* (the program tells the settler about t) */

    /* task_join (task_inline.h) */
    LOADW(me, ph, fl, wt);                  /* status = task_status_acquire(t) */
    if
    :: ph != FORKED -> goto join_slow       /* completed already: task_join_slow */
    :: else
    fi;
    if
    :: d_step { taken_by == 0 -> taken_by = 1 }   /* deque_pop(&w->deque) == t */
    :: d_step { taken_by != 0 } -> goto join_slow  /* NULL: a thief took t */
    fi;

    /* task_run_popped_by_joiner(w, t, status) */
    if
    :: fl & SETTLED ->
        /* task_run_popped_slow */
        LOADW(me, ph, fl, wt);              /* status = atomic_load(status) */
        rc = 0;
        if
        :: fl & SETTLED -> skip             /* no body */
        :: else -> BODY(me, rc)
        fi;
        goto finish_slow
    :: else ->
        BODY(me, rc);                       /* rc = t->fn(t) */
        if
        :: rc != 0 -> goto finish_slow      /* task_finish_popped_slow */
        :: else
        fi;
#ifdef MUT_INLINE_LOADS_FLAGS_FIRST
        d_step { LOAD_IN(me, FLAGS, fl); LOAD_IN(me, WAITER, wt) }
#endif
        STORE(me, PHASE, DONE);             /* atomic_store_release_u8(phase byte, DONE) */
        /* fence_light(): a compiler barrier */
#ifndef MUT_INLINE_LOADS_FLAGS_FIRST
        d_step { LOAD_IN(me, FLAGS, fl); LOAD_IN(me, WAITER, wt) }  /* task_status_above_phase */
#endif
        if
        :: fl != 0 || wt != 0 -> goto aftermath
        :: else -> join_rc = 0; goto joined
        fi
    fi;

finish_slow:
    skip;
    /* task_finish_popped_slow(w, t, rc) */
    ph = DONE;
    if
    :: rc != 0 ->
        RECORD_ERROR(me, rc, ok);           /* task_record_error(t, rc) */
#ifndef MUT_BODY_ERROR_LOST
        ph = DONE_ERROR                     /* fj_error holds the first error, ours or a fail's */
#else
        if
        :: ok -> ph = DONE_ERROR
        :: else
        fi
#endif
    :: else
    fi;
    STORE(me, PHASE, ph);                   /* atomic_store_release_u8(phase byte, phase) */
    /* fence_light() */
aftermath:
    skip;
    /* task_popped_aftermath */
#ifndef MUT_AFTERMATH_NO_WAIT
    do                                      /* while (acquire(status) & SETTLE_PENDING) cpu_relax() */
    :: LOADW(me, ph, fl, wt);
        if
        :: fl & PENDING
        :: else -> break
        fi
    od;
    skip;  /* (a break may not land in a d_step) */
#endif
    LOADW(me, ph, fl, wt);                  /* status = atomic_load(status) */
    if
    :: wt != 0 -> PARKER_WAKE(me, wt)       /* parker_wake(waiter - 1) */
    :: else
    fi;
    if
    :: fl & FUTEX_WAITERS -> FUTEX_WAKE(me, PHASE)   /* futex_wake(status, INT_MAX) */
    :: else
    fi;
    LOADW(me, ph, fl, wt);                  /* task_outcome_of(t, task_status_acquire(t)) */
    OUTCOME_OF(me, ph, fl, join_rc);
    goto joined;

join_slow:
    skip;
    /* task_join_slow(w, t, NULL) */
    LOADW(me, ph, fl, wt);                  /* status = task_status_acquire(t) */
    if
    :: IS_DONE(ph) -> goto outcome
    :: else
    fi;
    JOIN_HELP(me, 1);
outcome:
    skip;
    /* task_outcome_of(t, task_status_acquire(t)) */
    OUTCOME_OF(me, ph, fl, join_rc);
joined:
    skip;
    JOIN_RETURNS(me);
    done_threads++
}

/* ---- thread 1: the thief ---- */
proctype thief()
{
    byte me = 1;
    byte ph, fl, wt, rc, old_ph, old_fl, old_wt;
    bit ok;

    do
    :: d_step { mem[DQ] == 1 && taken_by == 0 -> taken_by = 2; FLUSH_IN(me) } -> break  /* deque_steal */
    :: taken_by != 0 -> goto out            /* the owner popped it: nothing to do */
    od;
    skip;  /* (a break may not land in a d_step) */
    /* task_execute(w, t) */
    LOADW(me, ph, fl, wt);                  /* status = task_status_acquire(t) */
    ph = DONE;
    if
    :: !(fl & SETTLED) ->
        BODY(me, rc);                       /* rc = t->fn(t) */
        if
        :: rc != 0 ->
            RECORD_ERROR(me, rc, ok);       /* task_record_error(t, rc) */
#ifndef MUT_BODY_ERROR_LOST
            ph = DONE_ERROR                 /* whether ours or a fail's error came first */
#else
            if
            :: ok -> ph = DONE_ERROR
            :: else
            fi
#endif
        :: else
        fi
    :: else
    fi;
    /* task_publish(t, phase) */
    LOADW(me, old_ph, old_fl, old_wt);      /* old = atomic_load(status) */
    do
    :: CASW(me, old_ph, old_fl, old_wt, ph, old_fl, old_wt, ok);  /* (old & ~PHASE) | phase */
        if
        :: ok -> break
        :: else
        fi
    od;
    skip;  /* (a break may not land in a d_step) */
    if
    :: old_wt != 0 -> PARKER_WAKE(me, old_wt)   /* parker_wake(waiter - 1) */
    :: else
    fi;
    if
    :: old_fl & FUTEX_WAITERS -> FUTEX_WAKE(me, PHASE)  /* futex_wake(status, INT_MAX) */
    :: else
    fi;
out:
    skip;
    done_threads++
}

/* ---- thread 2: fj_task_cancel, fj_task_fail or fj_task_quietly_complete ---- */
proctype settler(byte me)
{
    byte ph, fl, wt, flag, nph, nfl;
    bit ok;

    mem[PUB] == 1;                          /* it learns of t after the fork (acquire) */
    if
    :: flag = CANCELLED                     /* fj_task_cancel */
    :: flag = FORCED                        /* fj_task_quietly_complete */
    :: flag = FAILED;                       /* fj_task_fail(t, ERR_FAIL) */
        LOADW(me, ph, fl, wt);              /* if (status_is_done(acquire)) EINVAL */
        if
        :: IS_DONE(ph) -> goto refused
        :: else
        fi;
        RECORD_ERROR(me, ERR_FAIL, ok)      /* task_record_error(t, error) */
    fi;
#ifndef MUT_SETTLE_NO_PENDING
    /* task_settle(t, flag) */
settle:
    skip;
    LOADW(me, ph, fl, wt);                  /* s = atomic_load(status) */
#ifndef MUT_SETTLE_IGNORES_PENDING
    if
    :: fl & PENDING -> goto settle          /* another settle is deciding: cpu_relax */
    :: else
    fi;
#endif
    if
    :: (fl & CANCELLED) && flag == CANCELLED -> goto won   /* cancelled already: 0 */
    :: IS_DONE(ph) || (fl & SETTLED) -> goto refused       /* FJ_EINVAL */
    :: else
    fi;
    if
    :: ph == FORKED ->
        /* task_settle_forked(t, s, flag) */
        CASW(me, ph, fl, wt, ph, fl | PENDING, wt, ok);     /* s | SETTLE_PENDING */
        if
        :: !ok -> goto settle               /* the word changed: look again */
        :: else
        fi;
#ifndef MUT_SETTLE_NO_HEAVY_FENCE
        MEMBARRIER();                       /* fence_heavy() */
#endif
        do
        :: LOADW(me, ph, fl, wt);           /* now = atomic_load(status) */
            nph = ph; nfl = fl | flag;      /* decided = now | flag */
            if
            :: IS_DONE(ph) -> nfl = fl      /* decided = now */
            :: ph == NEW -> nph = DONE      /* taken back meanwhile: complete it */
            :: else
            fi;
            CASW(me, ph, fl, wt, nph, nfl & ~PENDING, wt, ok);  /* decided & ~SETTLE_PENDING */
            if
            :: ok && IS_DONE(ph) -> goto refused    /* FJ_EINVAL */
            :: ok && !IS_DONE(ph) -> goto won       /* 0 */
            :: else
            fi
        od
    :: else ->
        /* never forked: complete at once (unreachable here: the settler
         * learns of t after its fork) */
        CASW(me, ph, fl, wt, DONE, fl | flag, wt, ok);
        if
        :: ok -> goto won
        :: else -> goto settle
        fi
    fi;
#else
    /* the old task_abort(t, flag): one CAS of the flag while not done */
    LOADW(me, ph, fl, wt);                  /* s = atomic_load(status) */
    do
    :: IS_DONE(ph) || (fl & SETTLED) -> goto refused   /* FJ_EINVAL */
    :: else ->
        nph = ph;
        if
        :: ph == NEW -> nph = DONE
        :: else
        fi;
        CASW(me, ph, fl, wt, nph, fl | flag, wt, ok);
        if
        :: ok -> goto won
        :: else
        fi
    od;
#endif
won:
    skip;
    d_step {
        if
        :: flag == CANCELLED -> cancel_won = 1
        :: flag == FAILED -> fail_won = 1
        :: else -> forced_won = 1
        fi
    };
refused:
    skip;
#ifdef CHECK_IS_DONE
    /* fj_task_is_done: status_is_done(acquire(status)) */
    LOADW(me, ph, fl, wt);
#ifndef MUT_IS_DONE_SEES_ABORT
    assert(!(IS_DONE(ph) && running));
#else
    assert(!((IS_DONE(ph) || (fl & ABORTED)) && running));
#endif
#endif
    done_threads++
}

#ifdef WORKER_WAITER
/* ---- thread 3: another worker joining t (fj.h: a thread other than the
 * forker may join); it is not t's owner, so task_join goes to task_join_slow
 * and waits in task_join_help with its own parker slot (1) ---- */
proctype helper()
{
    byte me = 3;
    byte ph, fl, wt, e;
    bit ok;

    mem[PUB] == 1;                          /* it learns of t after the fork */
    LOADW(me, ph, fl, wt);                  /* task_join: status; t->fj_owner != w */
    /* task_join_slow(w, t, NULL) */
    if
    :: IS_DONE(ph) -> skip
    :: else -> JOIN_HELP(me, 2)
    fi;
    LOADW(me, ph, fl, wt);                  /* task_outcome_of(t, task_status_acquire(t)) */
    OUTCOME_OF(me, ph, fl, ext_rc);
    JOIN_RETURNS(me);
    done_threads++
}
#endif

#ifdef EXTERNAL_WAITER
/* ---- thread 3: fj_join from a thread outside the pool ---- */
proctype external()
{
    byte me = 3;
    byte ph, fl, wt, e;
    bit ok;

    mem[PUB] == 1;                          /* it learns of t after the fork (acquire) */
    /* fj_join: not NEW; task_wait_external(t, -1) (the spin rounds: one look) */
    do
    :: LOADW(me, ph, fl, wt);               /* s = atomic_load_acquire(status) */
        if
        :: IS_DONE(ph) -> break
        :: else
        fi;
        if
        :: !(fl & FUTEX_WAITERS) ->
            CASW(me, ph, fl, wt, ph, fl | FUTEX_WAITERS, wt, ok);
            if
            :: !ok -> goto again            /* continue */
            :: else
            fi;
            fl = fl | FUTEX_WAITERS
        :: else
        fi;
#ifndef MUT_NO_WAITER_HEAVY_FENCE
        MEMBARRIER();                       /* fence_heavy() */
#endif
        LOADW(me, ph, fl, wt);              /* s = atomic_load_acquire(status) */
        if
        :: IS_DONE(ph) -> break
        :: else
        fi;
        FUTEX_WAIT_STATUS(me, ph, fl, wt);  /* futex_wait(status, s, NULL) */
again:
        skip
    od;
    skip;  /* (a break may not land in a d_step) */
    LOADW(me, ph, fl, wt);
    OUTCOME_OF(me, ph, fl, ext_rc);
    JOIN_RETURNS(me);
    done_threads++
}
#endif

init
{
#if defined(EXTERNAL_WAITER) || defined(WORKER_WAITER) || defined(SECOND_SETTLER)
#if defined(EXTERNAL_WAITER)
    atomic { run owner(); run thief(); run settler(2); run external() };
#elif defined(WORKER_WAITER)
    atomic { run owner(); run thief(); run settler(2); run helper() };
#else
    atomic { run owner(); run thief(); run settler(2); run settler(3) };
#endif
    done_threads == 4;
#if !defined(SKIP_OUTCOME) && !defined(SECOND_SETTLER)
    assert(ext_rc == join_rc);              /* every join reports the same outcome */
#endif
#else
    atomic { run owner(); run thief(); run settler(2) };
    done_threads == 3;
#endif
#ifndef SKIP_OUTCOME
    /* OUTCOME: settles of different kinds never both return 0 */
    assert(cancel_won + fail_won + forced_won <= 1);
    if
    :: cancel_won -> assert(join_rc == ECANCELED)
    :: fail_won -> assert(join_rc != 0 && join_rc == mem[ERROR])
    :: forced_won -> assert(join_rc == 0)
    :: else -> assert((body_rc != 0) == (join_rc != 0))
    fi
#endif
}
