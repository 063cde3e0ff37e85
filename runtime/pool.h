/* pool.h - the private layout of fj_pool, what its workers and callers share
 * (pool.c); created and destroyed by pool_lifecycle.c. */
#ifndef FJ_POOL_H
#define FJ_POOL_H

#include <pthread.h>
#include <stdbool.h>

#include "../include/fj.h"
#include "atomics.h"
#include "idle.h"
#include "injector.h"

/* pool.state: bit 0 = accepting external submissions; the rest counts accepted,
 * unfinished submissions in steps of STATE_ONE.  One word, so "accepting" and
 * "counted" change together: no submission slips in after shutdown begins, and
 * shutdown sees every accepted one finish. */
#define STATE_ACCEPTING ((size_t)1)
#define STATE_ONE ((size_t)2)

struct fj_pool {
    fj_config config;
    unsigned count;            /* workers */
    fj_worker **workers;
    unsigned *slots;           /* parker slot of each worker */
    bool is_common;
    idle idle;
    injector injector;
    atomic_word state;         /* accepting + count, see above */
    atomic_word stopping;      /* 1: workers exit once they find no work */
    atomic_word idle_workers;  /* workers parked in the scheduler loop (not in a join) */
    atomic_word joiners_parked; /* workers parked in a join or a sync (task.c, frame.c) */
    atomic_word local_fifo;    /* 1: Java's asyncMode, a worker takes its own oldest task first (worker.c) */
    pthread_mutex_t lifecycle_lock;
    pthread_cond_t drained;    /* state reached "not accepting, count 0" */
};

/* True once destroy asked the workers to exit.  Acquire: pairs with the
 * release in threads_stop (pool_lifecycle.c).  Not strictly needed (a worker
 * exits only after a search found nothing, and destroy drained every
 * submission first), but it keeps "saw stopping" after everything destroy did
 * before setting it. */
static inline bool pool_stopping(const fj_pool *pool) { return atomic_load_acquire(&pool->stopping) != 0; }

/* Whether the pool was created in Java's asyncMode (fj_pool_create_with_async_mode).
 * Relaxed: set once before the creator hands the pool out, and every task a
 * worker runs reached it through a submission that orders the store first. */
static inline bool pool_local_fifo(const fj_pool *pool) { return atomic_load(&pool->local_fifo) != 0; }

/* Counts a joiner in or out of joiners_parked around its park.  An RMW, as
 * several workers count; full only because atomics.h has no relaxed add:
 * the count is a statistic (getRunningThreadCount), read racily. */
static inline void pool_count_parked_joiner(fj_pool *pool, int delta)
{
    atomic_fetch_add_full(&pool->joiners_parked, (size_t)(long)delta);
}

/* Counts one accepted submission, or returns FJ_ESHUTDOWN. */
int pool_admit(fj_pool *pool);
/* Stops admitting submissions (fj_pool_shutdown; teardown, the common pool's
 * too, at exit). */
void pool_stop_accepting(fj_pool *pool);
/* Waits until every admitted submission was retired (teardown). */
void pool_wait_drained(fj_pool *pool);
/* Uncounts one (after the submitted task completed or its push failed). */
static inline void pool_retire(fj_pool *pool)
{
    /* Full: the submission's effects are released to destroy, which acquires
     * state == 0 in pool_wait_drained, and the last one out learns so here. */
    size_t before = atomic_fetch_add_full(&pool->state, (size_t)0 - STATE_ONE);
    if (before == STATE_ONE) {  /* last one out, and shutdown has begun */
        pthread_mutex_lock(&pool->lifecycle_lock);
        pthread_cond_broadcast(&pool->drained);
        pthread_mutex_unlock(&pool->lifecycle_lock);
    }
}

#endif
