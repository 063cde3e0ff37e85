/* stress_settle.c - a cancel racing the completion of a task its owner runs
 * inline: the join's answer, the cancel's answer and the task's final state
 * must agree, every time.  The Spin model (tests/model/task.pml) found the
 * interleaving where they did not: the joiner's DONE store still in its store
 * buffer, the cancel's CAS seeing FORKED, join 0 and cancel 0 at once. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"

typedef struct duel {
    fj_task task;
    volatile int go;        /* the canceller's start signal, per round */
    volatile int cancelled; /* its fj_task_cancel result, or 1 before it runs */
    volatile long round;
    volatile int stop;
} duel;

static volatile long body_spins;

/* A body of varying length, so the cancel lands before, during and right
 * after it in different rounds. */
static int short_body(fj_task *t)
{
    (void)t;
    for (long i = body_spins; i > 0; i--)
        __asm__ volatile("" ::: "memory");
    return 0;
}

static void *canceller(void *arg)
{
    duel *d = arg;
    long seen = 0;
    unsigned idle = 0;
    while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
        long r = __atomic_load_n(&d->round, __ATOMIC_ACQUIRE);
        if (r == seen) {
            if (++idle % 1024 == 0)
                sched_yield(); /* a turn for the owner on a loaded machine */
            continue;
        }
        seen = r;
        int rc = fj_task_cancel(&d->task);
        __atomic_store_n(&d->cancelled, rc, __ATOMIC_RELEASE);
    }
    return NULL;
}

typedef struct round_task {
    fj_task task;
    duel *d;
    long rounds;
    long cancels_won;
} round_task;

/* On a worker: fork, let the canceller go, join inline; then wait for the
 * cancel's answer and check that all three agree. */
static int run_rounds(fj_task *t)
{
    round_task *r = FJ_CONTAINER_OF(t, round_task, task);
    duel *d = r->d;
    for (long i = 1; i <= r->rounds; i++) {
        fj_task_init(&d->task, short_body);
        body_spins = (i * 7919) % 1000000; /* up to about 0.5 ms: the cancel lands before, during, after */
        __atomic_store_n(&d->cancelled, 1, __ATOMIC_RELEASE);
        CHECK_RC(0, fj_fork(&d->task));
        __atomic_store_n(&d->round, i, __ATOMIC_RELEASE);
        int joined = fj_join(&d->task);
        int rc;
        while ((rc = __atomic_load_n(&d->cancelled, __ATOMIC_ACQUIRE)) == 1)
            sched_yield();
        if (rc == 0) { /* the cancel won: the join and the task say so */
            CHECK_RC(FJ_ECANCELED, joined);
            CHECK(fj_task_is_cancelled(&d->task));
            r->cancels_won++;
        } else { /* the completion won: nobody says cancelled */
            CHECK_RC(FJ_EINVAL, rc);
            CHECK_RC(0, joined);
            CHECK(!fj_task_is_cancelled(&d->task));
        }
        CHECK_RC(joined, fj_task_outcome(&d->task));
        CHECK_RC(joined, fj_join(&d->task)); /* the same outcome again */
    }
    return 0;
}

static void cancel_races_inline_join(void)
{
    fj_pool *pool = check_pool();
    duel d = {FJ_TASK_INIT(short_body), 0, 1, 0, 0};
    pthread_t thread;
    CHECK_EQ(0, pthread_create(&thread, NULL, canceller, &d));
    round_task r = {FJ_TASK_INIT(run_rounds), &d, check_size(8000, 500), 0};
    CHECK_RC(0, fj_pool_invoke(pool, &r.task));
    __atomic_store_n(&d.stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    printf("%ld rounds, the cancel won %ld\n", r.rounds, r.cancels_won);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static const check_case cases[] = {
    {"cancel_races_inline_join", cancel_races_inline_join, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
