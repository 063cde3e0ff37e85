/* task.pml - one task's life (runtime/task_state.{h,c}, execute.c, task_inline.h, task.c) under
 * x86-TSO (tso.pml): fork, steal, execute, complete, join (inline pop, or
 * stolen -> help -> park), cancel or fail racing with all of it, and waiters
 * parking on it.
 *
 * Threads:
 *   0 the owner: forks t, then joins it (task_fork, task_join and below);
 *     with nothing else to help, its join of a stolen t spins or parks
 *     (join_park -> idle_park_unlisted on its parker word, slot 0)
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
 *     first one's SETTLE_PENDING and waits for its decision, or (with -DCC)
 *     the completer: the subtask forked by t's compute whose tryComplete walk
 *     finds t's pending count zero and calls task_complete_later(t, 0)
 *     (completer.c cc_walk), once that fork has published the subtask
 * The deque is one abstract cell here: push stores tail (DQ) through the
 * owner's store buffer, a steal needs that store in memory, and pop/steal
 * decide atomically who takes t (deque.pml checks that part).
 *
 * The status word (task_state.h) is three cells of mem[]: PHASE (byte 0), FLAGS
 * (byte 1: CANCELLED, FAILED, FORCED, SETTLE_PENDING, FUTEX_WAITERS) and
 * WAITER (bytes 2-3).  A word
 * load reads all three (each from the own buffer or memory, as x86 does); a
 * byte store of the phase goes through the store buffer; a CAS is a locked
 * instruction on all three.  A futex_wait sleeps only if the word still
 * equals the value, atomically (FUTEX_WAIT), and futex_wake wakes it.
 *
 * Completion later (task.c, point 6), the body's two ways of handing t off:
 *   -DLATER  the body ends in `return fj_task_not_complete(t)` (java_task.c;
 *            Java's exec() returning false): task_mark_completes_later sets
 *            COMPLETES_LATER with a CAS, or, if a settle came while the body
 *            ran, publishes DONE in that CAS itself.  The executor then
 *            publishes nothing and never touches t again (the thief's
 *            task_execute returns; the inline joiner's task_finish_popped_slow
 *            waits in task_join_help as for a stolen t), and the settle, which
 *            may land before the body, during it, before the mark, after it or
 *            while the mark looks, is what completes t: task_settle_forked
 *            publishes DONE in its deciding CAS when it sees COMPLETES_LATER,
 *            and wakes the waiters that CAS returns.
 *   -DCC     the body is a CountedCompleter's (completer.c cc_run): compute
 *            either forks the subtask whose walk completes t (thread 3) and
 *            returns 0, or returns an error before it forks anything, which
 *            cc_run turns into fj_cc_complete_exceptionally (fj_task_fail,
 *            then task_complete_later(t, error)).  The settler (thread 2)
 *            cancels or quietly completes t: on a running completer that
 *            only sets the flag, and t completes when its completion arrives
 *            (docs/porting-from-java.md, cancel).  With -DCC_SETTLER_FAILS it
 *            may also fj_task_fail t (a plain fail: the same), or call
 *            fj_cc_complete_exceptionally(t) itself: it fails t with
 *            FAILER_PUBLISHES, runs t's on_exceptional_completion and then
 *            publishes t; cc_run, whose compute error that fail refused,
 *            must then leave t alone (HOOK_BEFORE_JOIN).
 *
 * Properties:
 *   JOIN_AFTER_BODY  a join returns only once no body runs and the body's
 *                    write is visible to the joiner (assert at the return);
 *                    a body that hands t off stops running at the hand-off
 *                    (the mark, or the fork of the completing subtask)
 *   PUBLISHED_ONCE   exactly one operation publishes t's completion (a store
 *                    or CAS that sets the phase to DONE or DONE_ERROR): a
 *                    ghost count, at most 1 whenever it grows, 1 at the end
 *   NO_TOUCH_AFTER_FREE  t is freed when the last thread that holds it is
 *                    through (its joiners, fj.h: the joiner may free it; the
 *                    settlers, which the program keeps t alive for, except the
 *                    one settler of a -DLATER task: its deciding CAS completes
 *                    t, so the joiner may free t right after it); nobody loads,
 *                    stores or CASes t after that (assert in LOADW, CASW,
 *                    RECORD_ERROR): not the executor after its body handed t
 *                    off, not whoever published t after its publishing CAS
 *                    (task_wake_waiters uses only what the CAS returned)
 *   NO_LOST_WAKEUP   nobody sleeps for ever: a parked joiner or waiter
 *                    with the task done is an invalid end state
 *   OUTCOME          (off with -DSKIP_OUTCOME) join returns FJ_ECANCELED exactly when the cancel
 *                    returned 0; the recorded error when the fail returned 0;
 *                    0 when the quiet completion returned 0; otherwise the
 *                    body's error, or 0 when it returned 0 (final check);
 *                    with -DLATER the settle always returns 0 (nothing else
 *                    can complete t before it), with -DCC the body's error is
 *                    compute's
 *   HOOK_BEFORE_JOIN (-DCC_SETTLER_FAILS) a join of t returns only after
 *                    the on_exceptional_completion of an
 *                    fj_cc_complete_exceptionally that failed t has returned
 *                    (Java: the hook runs before the completion; its caller
 *                    may free t once it joined)
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
 *   MUT_NO_WAITER_HEAVY_FENCE  idle_park_unlisted's (or task_wait_external's)
 *                              fence_heavy before the last look at the task
 *                              is dropped
 *   MUT_NO_PARK_RECHECK        join parks without looking at the task again
 *                              after registering (has_work)
 *   MUT_INLINE_LOADS_FLAGS_FIRST  the inline completion reads the bits above
 *                              the phase before its store of DONE (one load
 *                              moved above one store)
 * Mutants of completion later (-DLATER or -DCC):
 *   MUT_MARK_PLAIN_STORE       task_mark_completes_later loads the word and
 *                              stores it back with COMPLETES_LATER (even with
 *                              a full fence after it) instead of its CAS: a
 *                              settle decided in between is overwritten
 *   MUT_MARK_IGNORES_SETTLED   the mark sets COMPLETES_LATER but does not
 *                              publish DONE when a settle came first
 *   MUT_SETTLE_IGNORES_LATER   task_settle_forked decides only its flag, as if
 *                              COMPLETES_LATER were not there
 *   MUT_MARK_NO_WAKE           the mark publishes DONE but wakes nobody
 *   MUT_SETTLE_LATER_NO_WAKE   the settle publishes DONE but wakes nobody
 *   MUT_SETTLE_WAKE_RELOADS    the settle that published DONE reloads the word
 *                              to find the waiters (as the inline joiner's
 *                              aftermath may, since it holds t) instead of
 *                              using the word its CAS returned
 *   MUT_EXECUTOR_PUBLISHES     the executor takes FJ__RAN_PENDING for a
 *                              finished body and publishes DONE itself (the
 *                              thief by task_publish, the inline joiner by its
 *                              byte store)
 *   MUT_COMPLETE_LATER_STORE   (-DCC) task_complete_later publishes with a
 *                              release store of the phase byte and wakes the
 *                              waiters of its first load, instead of its CAS
 *   MUT_CC_SETTLED_ERROR_LOST  (-DCC) cc_run as it was before this model: a
 *                              compute error on a completer cancelled (or
 *                              quietly completed) while compute ran is
 *                              refused by fj_task_fail and nothing publishes
 *                              t: its joiners wait for ever
 *   MUT_CC_PLAIN_FAIL_UNPUBLISHED  (-DCC -DCC_SETTLER_FAILS) cc_run as it
 *                              was before FAILER_PUBLISHES: it publishes a
 *                              cancelled or quietly completed completer but
 *                              not one failed by a plain fj_task_fail, which
 *                              then waits for ever
 *   MUT_CC_IGNORES_FAILER_PUBLISHES  (-DCC -DCC_SETTLER_FAILS) cc_run also
 *                              publishes a completer that another thread's
 *                              fj_cc_complete_exceptionally failed: its join
 *                              returns while that thread's hook still runs
 *   MUT_EXECUTOR_IGNORES_FAILER_PUBLISHES  (-DCC -DCC_SETTLER_FAILS) an
 *                              executor that finds t failed by
 *                              fj_cc_complete_exceptionally before its body
 *                              skips the body and publishes t (as for any
 *                              settled task), before that call's hook returns
 */

#if defined(LATER) && defined(CC)
#error "LATER and CC are two ways for a body to hand its task off: pick one"
#endif
#if defined(CC) && (defined(EXTERNAL_WAITER) || defined(WORKER_WAITER) || defined(SECOND_SETTLER))
#error "CC takes thread 3 for the completer (tso.pml has at most 4 threads)"
#endif
#if (defined(LATER) || defined(CC)) && defined(CHECK_IS_DONE)
#error "CHECK_IS_DONE reads t after the settle, which may be after t is freed"
#endif

#if defined(EXTERNAL_WAITER) || defined(WORKER_WAITER) || defined(SECOND_SETTLER) || defined(CC)
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
#ifdef CC
#define CHILD 9     /* compute forked the subtask that completes t (its tail store) */
#define NADDR 10
#else
#define NADDR 9
#endif

#define NEW 0
#define FORKED 1
#define DONE 2
#define DONE_ERROR 3
#define CANCELLED 1
#define FAILED 2
#define FUTEX_WAITERS 4
#define FORCED 8            /* STATUS_FORCED (fj_task_quietly_complete) */
#define PENDING 16          /* STATUS_SETTLE_PENDING */
#define LATER_BIT 32        /* STATUS_COMPLETES_LATER */
#define FAILER_PUBLISHES 64 /* STATUS_FAILER_PUBLISHES */
#define ABORTED (CANCELLED | FAILED)
#define SETTLED (ABORTED | FORCED)

/* Error codes of the model. */
#define ERR_BODY 1
#define ERR_FAIL 2
#define ECANCELED 3
#define RC_PENDING 9        /* FJ__RAN_PENDING: a body's return, not an error */

/* task_settle's result */
#define UNDECIDED 0
#define WON 1               /* 0 */
#define REFUSED 2           /* FJ_EINVAL */

/* A settler holds t to the end of its call (the program keeps t alive for
 * it), except the one settler of a -DLATER task: its deciding CAS completes
 * t, and its joiner may free t at once. */
#if !defined(LATER) || defined(SECOND_SETTLER)
#define SETTLER_HOLDS 1
#else
#define SETTLER_HOLDS 0
#endif

/* Ghost (PUBLISHED_ONCE), where a write of the phase reaches memory (a
 * store buffer's drain, a CAS): a phase that becomes DONE or DONE_ERROR
 * counts one publication, and a done task's phase never changes. */
byte publications;
inline PHASE_WRITTEN(x_a, x_v)
{
    if
    :: x_a == PHASE && mem[PHASE] < DONE && x_v >= DONE ->
        publications++;
        assert(publications == 1)
    :: x_a == PHASE && mem[PHASE] >= DONE -> assert(x_v == mem[PHASE])
    :: else
    fi
}
#define COMMIT_HOOK(a, v) PHASE_WRITTEN(a, v)

#include "tso.pml"

/* Vacuity checks of completion later: with -DREACH=n the checker must find
 * point n reachable (mk/model.mk runs each as an expected assertion), so the
 * pass runs do exercise the races they are meant to.
 *   1 the mark published DONE (a settle     2 ... in a body the owner ran
 *     came while the body ran), in a body     inline
 *     the thief ran
 *   3 the mark waited on a settle's         4 the mark's CAS failed: the word
 *     SETTLE_PENDING                          changed after its load
 *   5 the settle published DONE while the   6 the settle published DONE with
 *     owner, whose t was stolen, slept on     FUTEX_WAITERS set
 *     its parker word
 *   7 the mark published DONE while the     8 the settle published DONE while
 *     owner slept                             the owner, which ran the body
 *                                             inline, slept on its parker
 *   9 (CC) the completer published while   10 (CC) cc_run published a
 *     the owner slept                         completer settled while compute
 *                                             ran
 *  11 (CC_SETTLER_FAILS) ... one failed by  12 (CC_SETTLER_FAILS) the thief
 *     a plain fj_task_fail                    skipped a completer failed by
 *                                             fj_cc_complete_exceptionally
 *  13 (CC_SETTLER_FAILS) ... the owner,
 *     which popped it, and waits for the
 *     failer's publication                                                    */
#ifdef REACH
#define REACHED(n) assert(REACH != n)
#define REACHED_IF(n, c) assert(REACH != n || !(c))
#else
#define REACHED(n)          /* nothing: no step of its own in the pass runs */
#define REACHED_IF(n, c)
#endif

/* Ghost state (not in the C code). */
byte taken_by;          /* 0: in the deque, 1: popped by the owner, 2: stolen */
bit running;            /* a body is between its first and last instruction */
bit body_ran;
byte body_rc;
bit cancel_won, fail_won, forced_won;   /* a settle of this kind returned 0 */
bit hook_running;       /* an on_exceptional_completion of the settler runs */
bit failer_won;         /* the settler's fj_cc_complete_exceptionally failed t */
byte join_rc = 255, ext_rc = 255;
byte done_threads;
bit sleeping[NT];       /* in futex_wait */
byte sleep_on[NT];      /* ... on this word (PWORD or PHASE for the status word) */
byte holders;           /* threads still entitled to touch t (set in init) */
bit freed;              /* the last of them is through: t may be freed */

/* status_is_done(s) */
#define IS_DONE(ph) ((ph) >= DONE)

/* s = atomic_load(status): the three cells, as one load */
inline LOADW(me, x_ph, x_fl, x_wt)
{
    d_step {
        assert(!freed);                     /* NO_TOUCH_AFTER_FREE */
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
        assert(!freed);                     /* NO_TOUCH_AFTER_FREE */
        FLUSH_IN(me);
        if
        :: mem[PHASE] == x_ph && mem[FLAGS] == x_fl && mem[WAITER] == x_wt ->
            PHASE_WRITTEN(PHASE, x_nph);
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
        assert(!freed);                     /* NO_TOUCH_AFTER_FREE */
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
        assert(!freed);                     /* NO_TOUCH_AFTER_FREE */
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

/* task_wake_waiters(status, old) (task_state.c): after a CAS that published DONE,
 * wake the waiters that CAS returned; uses only those values (futex_wake
 * takes t's address but reads nothing there). */
inline WAKE_WAITERS(me, x_fl, x_wt)
{
    if
    :: x_wt != 0 -> PARKER_WAKE(me, x_wt)   /* parker_wake((old >> WAITER_SHIFT) - 1) */
    :: else
    fi;
    if
    :: x_fl & FUTEX_WAITERS -> FUTEX_WAKE(me, PHASE)   /* futex_wake(status, INT_MAX) */
    :: else
    fi
}

/* Ghost: a thread is through (done_threads++); if it held t, the last one
 * to hold it frees it (NO_TOUCH_AFTER_FREE). */
inline THREAD_DONE(x_held)
{
    d_step {
        if
        :: x_held ->
            holders--;
            if
            :: holders == 0 -> freed = 1
            :: else
            fi
        :: else
        fi;
        done_threads++
    }
}

#ifndef MUT_SETTLE_IGNORES_PENDING
#define PENDING_SEEN(x_fl) ((x_fl) & PENDING)
#else
#define PENDING_SEEN(x_fl) 0
#endif

/* task_settle(t, x_flag) (task_state.c): x_res = WON (it returned 0) or REFUSED
 * (FJ_EINVAL).  With task_settle_forked inline; uses the caller's ph, fl, wt,
 * nph, nfl, ok.  Without labels: the owner and the thief expand it (in cc_run)
 * more than once. */
inline SETTLE(me, x_flag, x_res)
{
    x_res = UNDECIDED;
#ifndef MUT_SETTLE_NO_PENDING
    do                                      /* for (;;) */
    :: LOADW(me, ph, fl, wt);               /* s = atomic_load(status) */
        if
        :: PENDING_SEEN(fl) -> skip         /* another settle is deciding: cpu_relax(); continue */
        :: else ->
        if
        :: (fl & CANCELLED) && x_flag == CANCELLED -> x_res = WON; break   /* cancelled already: 0 */
        :: else ->
        if
        :: IS_DONE(ph) || (fl & SETTLED) -> x_res = REFUSED; break         /* FJ_EINVAL */
        :: else ->
        if
        :: ph == FORKED ->
            /* task_settle_forked(t, s, flag) */
            CASW(me, ph, fl, wt, ph, fl | PENDING, wt, ok);   /* s | SETTLE_PENDING */
            if
            :: ok ->
#ifndef MUT_SETTLE_NO_HEAVY_FENCE
                MEMBARRIER();               /* fence_heavy() */
#endif
                do
                :: LOADW(me, ph, fl, wt);   /* now = atomic_load(status) */
                    nph = ph; nfl = fl | x_flag;    /* decided = now | flag */
                    if
                    :: IS_DONE(ph) -> nfl = fl      /* decided = now */
                    :: ph == NEW -> nph = DONE      /* taken back meanwhile: complete it */
#ifndef MUT_SETTLE_IGNORES_LATER
                    :: ph == FORKED && (fl & LATER_BIT) -> nph = DONE   /* its body returned: we publish */
#endif
                    :: else
                    fi;
                    CASW(me, ph, fl, wt, nph, nfl & ~PENDING, wt, ok);  /* decided & ~SETTLE_PENDING */
                    if
                    :: ok && IS_DONE(ph) -> x_res = REFUSED; break      /* FJ_EINVAL */
                    :: ok && !IS_DONE(ph) ->
                        if
                        :: fl & LATER_BIT ->        /* task_wake_waiters(status, now): t may be gone */
                            REACHED_IF(5, sleeping[0] && taken_by == 2);
                            REACHED_IF(6, fl & FUTEX_WAITERS);
                            REACHED_IF(8, sleeping[0] && taken_by == 1);
#ifdef MUT_SETTLE_LATER_NO_WAKE
                            skip
#elif defined(MUT_SETTLE_WAKE_RELOADS)
                            LOADW(me, ph, fl, wt);  /* (the mutant reads t again) */
                            WAKE_WAITERS(me, fl, wt)
#else
                            WAKE_WAITERS(me, fl, wt)
#endif
                        :: else
                        fi;
                        x_res = WON; break                              /* 0 */
                    :: else
                    fi
                od;
                break
            :: else                         /* the word changed: look again (return 1) */
            fi
        :: else ->
            /* never forked: complete at once (unreachable here: the settler
             * learns of t after its fork) */
            CASW(me, ph, fl, wt, DONE, fl | x_flag, wt, ok);
            if
            :: ok -> x_res = WON; break
            :: else
            fi
        fi
        fi
        fi
        fi
    od;
#else
    /* the old task_abort(t, flag): one CAS of the flag while not done */
    LOADW(me, ph, fl, wt);                  /* s = atomic_load(status) */
    do
    :: IS_DONE(ph) || (fl & SETTLED) -> x_res = REFUSED; break     /* FJ_EINVAL */
    :: else ->
        nph = ph;
        if
        :: ph == NEW -> nph = DONE
        :: else
        fi;
        CASW(me, ph, fl, wt, nph, fl | x_flag, wt, ok);
        if
        :: ok -> x_res = WON; break
        :: else
        fi
    od;
#endif
    skip  /* (a break may not land in a d_step) */
}

/* fj_task_fail(t, x_err) up to its task_settle: x_res = REFUSED if it returns
 * FJ_EINVAL there, else UNDECIDED.  Uses the caller's ph, fl, wt, ok. */
inline FAIL_RECORD(me, x_err, x_res)
{
    LOADW(me, ph, fl, wt);                  /* if (status_is_done(acquire)) FJ_EINVAL */
    if
    :: IS_DONE(ph) -> x_res = REFUSED
    :: else ->
        RECORD_ERROR(me, x_err, ok);        /* task_record_error(t, error) */
        x_res = UNDECIDED
    fi
}

/* fj_task_fail(t, x_err) (task_state.c): uses the caller's ph, fl, wt, nph, nfl, ok. */
inline FAIL(me, x_err, x_res)
{
    FAIL_RECORD(me, x_err, x_res);
    if
    :: x_res == UNDECIDED -> SETTLE(me, FAILED, x_res)   /* task_settle(t, STATUS_FAILED) */
    :: else
    fi
}

/* task_mark_completes_later(t) (task_state.c), called by fj_task_not_complete as
 * the body's return.  Uses the caller's ph, fl, wt, nph, ok. */
inline MARK_COMPLETES_LATER(me)
{
    do                                      /* for (;;) */
    :: LOADW(me, ph, fl, wt);               /* s = atomic_load(status) */
        if
        :: fl & PENDING -> skip; REACHED(3) /* a settle is deciding: cpu_relax(); continue */
        :: else ->
            if
            :: IS_DONE(ph) -> ok = 0; break /* not forked through us (unreachable here) */
            :: else
            fi;
            nph = ph;                       /* desired = s | COMPLETES_LATER */
#ifndef MUT_MARK_IGNORES_SETTLED
            if
            :: fl & SETTLED -> nph = DONE   /* settled while the body ran: we publish */
            :: else
            fi;
#endif
#ifndef MUT_MARK_PLAIN_STORE
            CASW(me, ph, fl, wt, nph, fl | LATER_BIT, wt, ok);
            if
            :: ok -> break                  /* return FJ__RAN_PENDING (after the wake) */
            :: else -> skip; REACHED(4)
            fi
#else
            /* atomic_store(status, desired), even with a full fence after it */
            d_step {
                assert(!freed);
                FLUSH_IN(me);
                PHASE_WRITTEN(PHASE, nph);
                mem[PHASE] = nph; mem[FLAGS] = fl | LATER_BIT; mem[WAITER] = wt
            };
            ok = 1;
            break
#endif
        fi
    od;
    if
    :: ok && IS_DONE(nph) ->                /* if (status_is_done(desired)) */
        REACHED_IF(1, me == 1);
        REACHED_IF(2, me == 0);
        REACHED_IF(7, sleeping[0]);
#ifndef MUT_MARK_NO_WAKE
        WAKE_WAITERS(me, fl, wt)            /* task_wake_waiters(status, s) */
#else
        skip
#endif
    :: else
    fi
}

/* task_complete_later(t, x_err) (task_state.c).  Uses the caller's ph, fl, wt,
 * nph, ok. */
inline COMPLETE_LATER(me, x_err)
{
    LOADW(me, ph, fl, wt);                  /* old = atomic_load(status) */
    if
    :: IS_DONE(ph) -> skip                  /* return 0 */
    :: else ->
        nph = DONE;
        if
        :: x_err != 0 ->
            RECORD_ERROR(me, x_err, ok);    /* before the CAS that makes joiners read it */
            nph = DONE_ERROR
        :: else
        fi;
#ifndef MUT_COMPLETE_LATER_STORE
        do
        :: IS_DONE(ph) -> break             /* return 0 */
        :: else ->
            CASW(me, ph, fl, wt, nph, fl, wt, ok);   /* (old & ~PHASE_MASK) | phase */
            if
            :: ok ->
                REACHED_IF(9, me == 3 && sleeping[0]);
                WAKE_WAITERS(me, fl, wt);   /* task_wake_waiters(status, old) */
                break
            :: else
            fi
        od;
        skip  /* (a break may not land in a d_step) */
#else
        STORE(me, PHASE, nph);              /* a release store of the phase byte ... */
        WAKE_WAITERS(me, fl, wt)            /* ... and the waiters of the first load */
#endif
    fi
}

/* fj_cc_complete_exceptionally(c, x_err) on a completer with no hooks and no
 * completer above (completer.c), as cc_run calls it for compute's error, and
 * cc_run's publication when the task was settled while compute ran. */
inline CC_RUN_ERROR(me, x_err, x_res)
{
    /* if (task_fail(&c->task, error, STATUS_FAILED | STATUS_FAILER_PUBLISHES) != 0) return FJ_EINVAL */
    FAIL_RECORD(me, x_err, x_res);
    if
    :: x_res == UNDECIDED -> SETTLE(me, FAILED | FAILER_PUBLISHES, x_res)
    :: else
    fi;
#ifndef MUT_CC_SETTLED_ERROR_LOST
    if
    :: x_res == REFUSED ->
        /* cc_run: refused; status = task_status_acquire(t) */
        LOADW(me, ph, fl, wt);
        if
#if defined(MUT_CC_PLAIN_FAIL_UNPUBLISHED)
        :: !IS_DONE(ph) && (fl & (CANCELLED | FORCED)) ->
#elif defined(MUT_CC_IGNORES_FAILER_PUBLISHES)
        :: !IS_DONE(ph) && (fl & SETTLED) ->
#else
        :: !IS_DONE(ph) && (fl & SETTLED) && !(fl & FAILER_PUBLISHES) ->
#endif
            REACHED(10);
            REACHED_IF(11, fl & FAILED);
            x_res = WON                     /* (we publish it below: one site) */
        :: else
        fi
    :: else
    fi;
#endif
    if
    :: x_res == WON ->
        /* fj_cc_complete_exceptionally: propagate = 1 (no hook), above = NULL:
         * task_complete_later(&a->task, error); return 0.  Or cc_run's
         * task_complete_later(t, rc) on the settled completer. */
        COMPLETE_LATER(me, x_err)
    :: else
    fi
}

/* The task's fn: writes EFFECT, returns 0 or ERR_BODY (the checker picks);
 * with -DLATER it returns fj_task_not_complete(t), with -DCC it is cc_run. */
inline BODY(me, x_rc)
{
    d_step { assert(!running); running = 1; body_ran = 1 };
    STORE(me, EFFECT, 1);
#if defined(LATER)
    /* return fj_task_not_complete(t): the user's code is over; from the
     * mark's CAS on t may be complete and freed */
    d_step { running = 0; body_rc = RC_PENDING };
    MARK_COMPLETES_LATER(me);               /* task_mark_completes_later(t) */
    x_rc = RC_PENDING
#elif defined(CC)
    /* cc_run(t): rc = c->compute(c) */
    if
    :: d_step { running = 0; body_rc = 0 };
        STORE(me, CHILD, 1)                 /* fj_fork(subtask) (its push); compute returns 0 */
    :: d_step { running = 0; body_rc = ERR_BODY };   /* compute returns an error */
        CC_RUN_ERROR(me, ERR_BODY, res)     /* if (rc < 0) ... */
    fi;
    x_rc = RC_PENDING                       /* return FJ__RAN_PENDING */
#else
    if
    :: x_rc = 0
    :: x_rc = ERR_BODY
    fi;
    d_step { running = 0; body_rc = x_rc }
#endif
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
    /* JOIN_AFTER_BODY, but for Java's exceptional completion of a running
     * completer by another thread: it is done at once (once its hook ran) */
    assert(!running || failer_won);
    /* HOOK_BEFORE_JOIN; a compute that forked the subtask whose walk
     * completes t (body_rc 0) races with the hook by the program's design */
    assert(!hook_running || (body_ran && body_rc == 0));
    if
    :: body_ran && !failer_won -> LOAD(me, EFFECT, e); assert(e == 1)
    :: else
    fi
}

/* task_join_help(w, t) for the worker whose parker slot is mine - 1, with
 * nothing else to help with (join_find_help finds nothing): spin, or park
 * (join_park: join_register, then idle_park_unlisted).  The C parks with a
 * time limit (park_ns) after which it looks for work again; the model parks
 * without one, so that a lost wake-up shows as a thread asleep for ever
 * rather than as a delay.  Uses the caller's ph, fl, wt, e, ok. */
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
            /* idle_park_unlisted(w->slot, join_has_work, &jw, timeout_ns) */
            LOAD(me, PWORD + mine - 1, e);             /* e = atomic_load_acquire(&p->word) */
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
    bit ok, slow;
#if defined(LATER) || defined(CC)
    byte nph, nfl, res;                     /* for the body's mark or cc_run */
#endif

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
#ifndef MUT_EXECUTOR_IGNORES_FAILER_PUBLISHES
        :: fl & FAILER_PUBLISHES -> REACHED(13); rc = RC_PENDING; goto finish_slow  /* no body; the failer publishes */
        :: (fl & SETTLED) && !(fl & FAILER_PUBLISHES) -> goto finish_slow /* no body; task_finish_popped_slow(w, t, 0) */
#else
        :: fl & SETTLED -> goto finish_slow
#endif
        :: else -> slow = 1                 /* the body below, then task_finish_popped_slow (a
                                             * flag once set stays: unreachable here) */
        fi
    :: else
    fi;
    BODY(me, rc);                           /* rc = t->fn(t) (one site: BODY is large) */
    if
    :: slow || rc != 0 -> goto finish_slow  /* task_finish_popped_slow(w, t, rc) */
    :: else
    fi;
#ifdef MUT_INLINE_LOADS_FLAGS_FIRST
    d_step { LOAD_IN(me, FLAGS, fl); LOAD_IN(me, WAITER, wt) }
#endif
    STORE(me, PHASE, DONE);                 /* atomic_store_release_u8(phase byte, DONE) */
    /* fence_light(): a compiler barrier */
#ifndef MUT_INLINE_LOADS_FLAGS_FIRST
    d_step { LOAD_IN(me, FLAGS, fl); LOAD_IN(me, WAITER, wt) }  /* task_status_above_phase */
#endif
    if
    :: fl != 0 || wt != 0 -> goto aftermath
    :: else -> join_rc = 0; goto joined
    fi;

finish_slow:
    skip;
    /* task_finish_popped_slow(w, t, rc) */
#if defined(LATER) || defined(CC)
    if
    :: rc == RC_PENDING ->                  /* completed later (point 6): wait as for a stolen task */
#ifndef MUT_EXECUTOR_PUBLISHES
        goto help                           /* task_join_help(w, t); task_outcome_of(t, acquire) */
#else
        rc = 0                              /* (the mutant publishes DONE below) */
#endif
    :: else
    fi;
#endif
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
help:
    skip;
    JOIN_HELP(me, 1);
outcome:
    skip;
    /* task_outcome_of(t, task_status_acquire(t)) */
    OUTCOME_OF(me, ph, fl, join_rc);
joined:
    skip;
    JOIN_RETURNS(me);
    THREAD_DONE(1)                          /* the joiner may free t */
}

/* ---- thread 1: the thief ---- */
proctype thief()
{
    byte me = 1;
    byte ph, fl, wt, rc, old_ph, old_fl, old_wt;
    bit ok;
#if defined(LATER) || defined(CC)
    byte nph, nfl, res;                     /* for the body's mark or cc_run */
#endif

    do
    :: d_step { mem[DQ] == 1 && taken_by == 0 -> taken_by = 2; FLUSH_IN(me) } -> break  /* deque_steal */
    :: taken_by != 0 -> goto out            /* the owner popped it: nothing to do */
    od;
    skip;  /* (a break may not land in a d_step) */
    /* task_execute(w, t) */
    LOADW(me, ph, fl, wt);                  /* status = task_status_acquire(t) */
    if
    :: IS_DONE(ph) -> goto out              /* completed before it ran (point 6): nothing to run */
#ifndef MUT_EXECUTOR_IGNORES_FAILER_PUBLISHES
    :: !IS_DONE(ph) && (fl & FAILER_PUBLISHES) -> REACHED(12); goto out   /* the failer publishes t after its hook */
    :: !IS_DONE(ph) && (fl & SETTLED) && !(fl & FAILER_PUBLISHES) -> ph = DONE  /* phase = PHASE_DONE; no body */
#else
    :: !IS_DONE(ph) && (fl & SETTLED) -> ph = DONE
#endif
    :: !IS_DONE(ph) && !(fl & SETTLED) ->
        ph = DONE;                          /* phase = PHASE_DONE */
        BODY(me, rc);                       /* rc = t->fn(t) */
        if
#if defined(LATER) || defined(CC)
        :: rc == RC_PENDING ->              /* completed later, perhaps already: t is not ours */
#ifndef MUT_EXECUTOR_PUBLISHES
            goto out
#else
            ph = DONE                       /* (the mutant publishes it) */
#endif
#endif
        :: rc != 0 && rc != RC_PENDING ->
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
    WAKE_WAITERS(me, old_fl, old_wt);       /* task_wake_waiters(status, old) */
out:
    skip;
#ifdef CC_SETTLER_FAILS
    /* After an exceptional completion by another thread, compute may still
     * run when t's join returns: the program frees t once the pool is
     * quiescent (fj_java.h, Freeing), so t is the thief's until it is through. */
    THREAD_DONE(1)
#else
    done_threads++
#endif
}

/* ---- thread 2: fj_task_cancel, fj_task_fail or fj_task_quietly_complete ---- */
proctype settler(byte me)
{
    byte ph, fl, wt, flag, nph, nfl, res;
    bit ok;

    mem[PUB] == 1;                          /* it learns of t after the fork (acquire) */
    if
    :: flag = CANCELLED                     /* fj_task_cancel: task_settle(t, STATUS_CANCELLED) */
    :: flag = FORCED                        /* fj_task_quietly_complete: task_settle(t, STATUS_FORCED) */
#if !defined(CC) || defined(CC_SETTLER_FAILS)
    :: flag = FAILED;                       /* fj_task_fail(t, ERR_FAIL) */
        FAIL_RECORD(me, ERR_FAIL, res)      /* ... then task_settle(t, STATUS_FAILED) */
#endif
#ifdef CC_SETTLER_FAILS
    :: flag = FAILED | FAILER_PUBLISHES;    /* fj_cc_complete_exceptionally(t, ERR_FAIL): task_fail */
        FAIL_RECORD(me, ERR_FAIL, res)      /* ... then task_settle(t, FAILED | FAILER_PUBLISHES) */
#endif
    fi;
    if
    :: res == UNDECIDED -> SETTLE(me, flag, res)
    :: else
    fi;
    if
    :: res == WON ->
        d_step {
            if
            :: flag == CANCELLED -> cancel_won = 1
            :: flag & FAILED -> fail_won = 1;
                failer_won = (flag & FAILER_PUBLISHES) != 0; hook_running = failer_won
            :: else -> forced_won = 1
            fi
        }
    :: else
    fi;
#ifdef CC_SETTLER_FAILS
    if
    :: res == WON && (flag & FAILER_PUBLISHES) ->
        /* fj_cc_complete_exceptionally: on_exceptional_completion(t, error, t)
         * runs (no completer above), then task_complete_later(&t->task, error) */
        d_step { hook_running = 0 };
        COMPLETE_LATER(me, ERR_FAIL)
    :: else
    fi;
#endif
#ifdef CHECK_IS_DONE
    /* fj_task_is_done: status_is_done(acquire(status)) */
    LOADW(me, ph, fl, wt);
#ifndef MUT_IS_DONE_SEES_ABORT
    assert(!(IS_DONE(ph) && running));
#else
    assert(!((IS_DONE(ph) || (fl & ABORTED)) && running));
#endif
#endif
    THREAD_DONE(SETTLER_HOLDS)              /* the program kept t alive for this call */
}

#ifdef CC
/* ---- thread 3: the subtask's walk that completes t (cc_walk) ---- */
proctype completer()
{
    byte me = 3;
    byte ph, fl, wt, nph;
    bit ok;

    if
    :: mem[CHILD] == 1 ->                   /* the subtask, forked by compute, runs ... */
        /* fj_cc_try_complete(subtask) -> cc_walk: its pending count and then
         * t's are zero, t has no completer: task_complete_later(&t->task, 0) */
        COMPLETE_LATER(me, 0)
    :: done_threads == 3 -> skip            /* (compute forked nothing, or never ran) */
    fi;
#ifdef CC_SETTLER_FAILS
    /* After an exceptional completion subtasks may still walk up to t: the
     * program frees t only once the pool is quiescent (fj_java.h, Freeing). */
    THREAD_DONE(1)
#else
    done_threads++
#endif
}
#endif

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
    THREAD_DONE(1)
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
    THREAD_DONE(1)
}
#endif

init
{
    /* NO_TOUCH_AFTER_FREE: who holds t until it is through (THREAD_DONE) */
    holders = 1;                            /* the owner, its joiner */
#if defined(EXTERNAL_WAITER) || defined(WORKER_WAITER)
    holders++;                              /* the other joiner */
#endif
    holders = holders + SETTLER_HOLDS;      /* the settler ... */
#ifdef CC_SETTLER_FAILS
    holders = holders + 2;                  /* the subtask's walk (see completer()) and the
                                             * thief, whose compute may still run (thief()) */
#endif
#ifdef SECOND_SETTLER
    holders++;                              /* ... and the second one */
#endif
#if defined(EXTERNAL_WAITER) || defined(WORKER_WAITER) || defined(SECOND_SETTLER) || defined(CC)
#if defined(EXTERNAL_WAITER)
    atomic { run owner(); run thief(); run settler(2); run external() };
#elif defined(WORKER_WAITER)
    atomic { run owner(); run thief(); run settler(2); run helper() };
#elif defined(CC)
    atomic { run owner(); run thief(); run settler(2); run completer() };
#else
    atomic { run owner(); run thief(); run settler(2); run settler(3) };
#endif
    done_threads == 4;
#if !defined(SKIP_OUTCOME) && !defined(SECOND_SETTLER) && !defined(CC)
    assert(ext_rc == join_rc);              /* every join reports the same outcome */
#endif
#else
    atomic { run owner(); run thief(); run settler(2) };
    done_threads == 3;
#endif
    /* PUBLISHED_ONCE, once every store has reached memory */
    MEMBARRIER();
    assert(publications == 1);
#ifndef SKIP_OUTCOME
    /* OUTCOME: settles of different kinds never both return 0 */
    assert(cancel_won + fail_won + forced_won <= 1);
#ifdef LATER
    /* nothing but the settle completes t, so it is never refused */
    assert(cancel_won + fail_won + forced_won == 1);
#endif
    if
    :: cancel_won -> assert(join_rc == ECANCELED)
    :: fail_won -> assert(join_rc != 0 && join_rc == mem[ERROR])
    :: forced_won -> assert(join_rc == 0)
    :: else -> assert((body_rc != 0) == (join_rc != 0))
    fi
#endif
}
