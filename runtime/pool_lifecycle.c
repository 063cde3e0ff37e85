/* pool_lifecycle.c - creating and destroying pools: the configuration
 * (defaults, environment, checks), the workers and their threads, teardown
 * after the last submission, and the common pool.  It stands above the worker
 * loop it starts (scheduler.c); what the running pool shares with its
 * workers is pool.c's. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpus.h"
#include "error.h"
#include "pool.h"
#include "scheduler.h"
#include "stats.h"
#include "worker.h"

void fj_config_init(fj_config *c)
{
    memset(c, 0, sizeof *c);
    c->spin_rounds = FJ_DEFAULT_SPIN_ROUNDS;
    c->yield_rounds = FJ_DEFAULT_YIELD_ROUNDS;
    c->steal_attempts = FJ_DEFAULT_STEAL_ATTEMPTS;
    c->stack_size = FJ_DEFAULT_STACK_SIZE;
}


/* Reads the environment number `name` into *value if it is set.  Returns 0
 * (unset: *value untouched, or set and within [min, max]) or FJ_EINVAL with
 * the detail naming the variable, its text and the limits. */
static int env_number(const char *name, long min, long max, long *value)
{
    const char *text = getenv(name);
    if (!text || !*text)
        return 0;
    char *end;
    errno = 0;
    long parsed = strtol(text, &end, 10);
    /* strtol skips leading spaces and takes a '+': the number must be all
     * the text, as the trailing side already had to be. */
    if (*end || end == text || !(*text == '-' || (*text >= '0' && *text <= '9')))
        return error_refuse(FJ_EINVAL, "%s=%s: not a whole number (expected %ld..%ld)", name, text, min, max);
    if (errno == ERANGE || parsed < min || parsed > max)
        return error_refuse(FJ_EINVAL, "%s=%s: out of range (expected %ld..%ld)", name, text, min, max);
    *value = parsed;
    return 0;
}

/* FJ_SEED into *seed if it is set: any 64-bit value, as fj_config.seed. */
static int env_seed(unsigned long long *seed)
{
    const char *text = getenv("FJ_SEED");
    if (!text || !*text)
        return 0;
    char *end;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (*end || !(*text >= '0' && *text <= '9'))
        return error_refuse(FJ_EINVAL, "FJ_SEED=%s: not a whole number (expected 0..%llu)", text, ULLONG_MAX);
    if (errno == ERANGE)
        return error_refuse(FJ_EINVAL, "FJ_SEED=%s: out of range (expected 0..%llu)", text, ULLONG_MAX);
    *seed = parsed;
    return 0;
}

/* Fills defaults for zero fields, then applies the environment overrides.
 * Returns 0 or FJ_EINVAL (the error detail says which setting). */
static int config_resolve(fj_config *c, const fj_config *given)
{
    fj_config_init(c);
    if (given) {
        c->workers = given->workers;
        c->seed = given->seed;
        c->pin_workers = given->pin_workers;
        if (given->spin_rounds)
            c->spin_rounds = given->spin_rounds;
        if (given->yield_rounds)
            c->yield_rounds = given->yield_rounds;
        if (given->steal_attempts)
            c->steal_attempts = given->steal_attempts;
        if (given->stack_size)
            c->stack_size = given->stack_size;
    }
    long v = -1;
    int rc = 0;
    if ((rc = env_number("FJ_WORKERS", 0, FJ_MAX_WORKERS, &v)) != 0)
        return rc;
    if (v > 0)
        c->workers = (unsigned)v;
    v = -1;
    if ((rc = env_number("FJ_SPIN", 0, INT_MAX, &v)) != 0)
        return rc;
    if (v >= 0)
        c->spin_rounds = (unsigned)v;
    v = -1;
    if ((rc = env_number("FJ_YIELD", 0, INT_MAX, &v)) != 0)
        return rc;
    if (v >= 0)
        c->yield_rounds = (unsigned)v;
    v = -1;
    if ((rc = env_number("FJ_STEAL_ATTEMPTS", 1, FJ_MAX_STEAL_ATTEMPTS, &v)) != 0)
        return rc;
    if (v > 0)
        c->steal_attempts = (unsigned)v;
    if ((rc = env_seed(&c->seed)) != 0)
        return rc;
    v = -1;
    if ((rc = env_number("FJ_PIN", 0, 1, &v)) != 0)
        return rc;
    if (v >= 0)
        c->pin_workers = v != 0;
    /* Read by the hooks when a worker starts (hooks.c, fork_policy.c);
     * checked here so that a value they would take as 0 is refused. */
    if ((rc = env_number("FJ_STRESS", 0, UINT_MAX, &v)) != 0 || (rc = env_number("FJ_SERIAL", 0, 1, &v)) != 0)
        return rc;
    /* The observers' and the fences' switches, read where they act (stats.c,
     * profile.c, trace.c, fence.c), which would take a value they cannot read
     * as off or as the default. */
    if ((rc = env_number("FJ_STATS", 0, 1, &v)) != 0 || (rc = env_number("FJ_PROFILE", 0, 1, &v)) != 0 ||
        (rc = env_number("FJ_TRACE_BUFFER", 16, 1L << 30, &v)) != 0)
        return rc;
    const char *fence = getenv("FJ_FENCE");
    if (fence && *fence && strcmp(fence, "full") != 0 && strcmp(fence, "auto") != 0)
        return error_refuse(FJ_EINVAL, "FJ_FENCE=%s: not a fence mode (expected full or auto)", fence);
    /* One worker per CPU this thread may run on, as Java's
     * availableProcessors() counts them on Linux: under mpirun or taskset,
     * a machine's other CPUs belong to someone else. */
    if (c->workers == 0) {
        cpu_set_t allowed;
        int cpus = cpus_allowed(&allowed);
        c->workers = cpus > FJ_MAX_WORKERS ? FJ_MAX_WORKERS : (unsigned)cpus;
    }
    if (c->workers > FJ_MAX_WORKERS)
        return error_refuse(FJ_EINVAL, "workers=%u: over the limit (expected 0..%d, 0: one per CPU)", c->workers, FJ_MAX_WORKERS);
    if (c->steal_attempts > FJ_MAX_STEAL_ATTEMPTS)
        return error_refuse(FJ_EINVAL, "steal_attempts=%u: over the limit (expected 0..%d, 0: the default %d)",
                            c->steal_attempts, FJ_MAX_STEAL_ATTEMPTS, FJ_DEFAULT_STEAL_ATTEMPTS);
    if (given && (given->pin_workers < 0 || given->pin_workers > 1))
        return error_refuse(FJ_EINVAL, "pin_workers=%d: expected 0 or 1", given->pin_workers);
    return 0;
}

static void workers_free(fj_pool *pool, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        deque_destroy(&pool->workers[i]->deque);
        free(pool->workers[i]);
    }
}

static void pool_free(fj_pool *pool, unsigned workers_made)
{
    workers_free(pool, workers_made);
    idle_destroy(&pool->idle);
    injector_destroy(&pool->injector);
    parker_slots_release(pool->count, pool->slots);
    pthread_mutex_destroy(&pool->lifecycle_lock);
    pthread_cond_destroy(&pool->drained);
    free(pool->slots);
    free(pool->workers);
    free(pool);
}

static int workers_make(fj_pool *pool)
{
    long frames = 0;  /* unset: FJ_DEQUE_FRAMES in config.h */
    int rc = env_number("FJ_DEQUE_FRAMES", 64, 1L << 30, &frames);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < pool->count; i++) {
        fj_worker *w = aligned_alloc(FJ_CACHE_LINE, (sizeof(fj_worker) + FJ_CACHE_LINE - 1) / FJ_CACHE_LINE * FJ_CACHE_LINE);
        if (!w || (memset(w, 0, sizeof *w), deque_init(&w->deque, frames > 0 ? (size_t)frames : 0) != 0)) {
            /* The setting that sizes the reservation, for a system that
             * refuses address space (ulimit -v) or the first 64 KiB. */
            rc = error_refuse(FJ_ENOMEM, "FJ_DEQUE_FRAMES=%zu: worker %u's deque not reserved (%s)",
                              frames > 0 ? (size_t)frames : (size_t)FJ_DEQUE_FRAMES, i, strerror(w ? errno : ENOMEM));
            free(w);
            workers_free(pool, i);
            return rc;
        }
        w->pool = pool;
        deque_set_idle(&w->deque, (const volatile unsigned long *)&pool->idle.sleepers);
        idle_watch(&pool->idle, i, deque_wake_hint(&w->deque));
        w->index = i;
        w->slot = pool->slots[i];
        /* xorshift must not start at 0; mix the index in so victims differ. */
        w->rng = (pool->config.seed ? pool->config.seed : 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(i + 1) * 0xbf58476d1ce4e5b9ull);
        if (!w->rng)
            w->rng = 1;
        pool->workers[i] = w;
    }
    return 0;
}

/* Pins worker i to the (i mod count)-th CPU of `allowed`, the creating
 * thread's mask, which the worker inherited: a rank that mpirun bound to
 * CPUs 4-7 pins its workers there, not on CPUs 0-3 of the ranks beside it.
 * Returns 0 or pthread_setaffinity_np's refusal. */
static int pin_worker(fj_pool *pool, unsigned i, const cpu_set_t *allowed, int count)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus_nth(allowed, count, i), &one);
    return pthread_setaffinity_np(pool->workers[i]->thread, sizeof one, &one);
}

/* Stops and joins the first `started` workers. */
static void threads_stop(fj_pool *pool, unsigned started)
{
    /* Release: pairs with pool_stopping (pool.h). */
    atomic_store_release(&pool->stopping, 1);
    fence_full();  /* not strictly needed: idle_park re-checks after fence_heavy */
    idle_wake_all(&pool->idle);
    for (unsigned i = 0; i < started; i++)
        pthread_join(pool->workers[i]->thread, NULL);
}

static int threads_start(fj_pool *pool)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int refused = pthread_attr_setstacksize(&attr, pool->config.stack_size);
    if (refused != 0) {
        pthread_attr_destroy(&attr);
        return error_refuse(FJ_EINVAL, "stack_size=%zu: refused by the system (%s; at least %ld bytes)", pool->config.stack_size,
                            strerror(refused), (long)PTHREAD_STACK_MIN);
    }
    cpu_set_t allowed;
    int cpus = pool->config.pin_workers ? cpus_allowed(&allowed) : 0;
    for (unsigned i = 0; i < pool->count; i++) {
        int refusal = pthread_create(&pool->workers[i]->thread, &attr, worker_main, pool->workers[i]);
        if (refusal != 0) {
            pthread_attr_destroy(&attr);
            threads_stop(pool, i);
            /* The settings that size the request, so the caller can tell a
             * stack too large from a process out of threads. */
            return error_refuse(FJ_ESYSTEM, "workers=%u, stack_size=%zu: worker %u's thread not created (%s)",
                                pool->count, pool->config.stack_size, i, strerror(refusal));
        }
        if (cpus && (refusal = pin_worker(pool, i, &allowed, cpus)) != 0) {
            pthread_attr_destroy(&attr);
            threads_stop(pool, i + 1);
            return error_refuse(FJ_ESYSTEM, "pin_workers=1: worker %u not pinned to CPU %d (%s)", i,
                                cpus_nth(&allowed, cpus, i), strerror(refusal));
        }
    }
    pthread_attr_destroy(&attr);
    return 0;
}

static int pool_alloc(fj_pool **out, const fj_config *config)
{
    fj_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return FJ_ENOMEM;
    int rc = config_resolve(&pool->config, config);
    if (rc != 0) {
        free(pool);
        return rc;
    }
    pool->count = pool->config.workers;
    pool->workers = calloc(pool->count, sizeof *pool->workers);
    pool->slots = calloc(pool->count, sizeof *pool->slots);
    if (!pool->workers || !pool->slots) {
        free(pool->workers);
        free(pool->slots);
        free(pool);
        return FJ_ENOMEM;
    }
    *out = pool;
    return 0;
}

/* A pool is handed out once every worker has parked, so that a fresh pool is
 * quiescent with no active thread (Java starts its workers on demand, so its
 * fresh pool has none).  Nobody can submit before we return, so each worker
 * parks as it starts, before any search (scheduler.c). */
static void pool_wait_workers_parked(fj_pool *pool)
{
    /* Acquire: pairs with the full increment in worker_park. */
    while (atomic_load_acquire(&pool->idle_workers) < pool->count)
        sched_yield();
}

int fj_pool_create(fj_pool **out, const fj_config *config)
{
    error_clear();
    if (!out)
        return error_refuse(FJ_EINVAL, "pool: NULL (expected a place for the new pool)");
    fence_init();
    fj_pool *pool;
    int rc = pool_alloc(&pool, config);
    if (rc)
        return rc;
    if (parker_slots_reserve(pool->count, pool->slots) != 0) {
        unsigned count = pool->count;
        free(pool->workers);
        free(pool->slots);
        free(pool);
        /* More workers alive in this process than FJ_PARKER_SLOTS. */
        return error_refuse(FJ_EINVAL, "workers=%u: more than %d workers would be alive in this process's pools together",
                            count, FJ_PARKER_SLOTS);
    }
    pool->state = STATE_ACCEPTING;
    pthread_mutex_init(&pool->lifecycle_lock, NULL);
    pthread_cond_init(&pool->drained, NULL);
    if (idle_init(&pool->idle, pool->count, pool->slots) != 0 || injector_init(&pool->injector) != 0 ||
        (rc = workers_make(pool)) != 0) {
        pool_free(pool, 0);  /* workers_make frees its own on failure */
        return rc == FJ_EINVAL ? rc : FJ_ENOMEM;
    }
    if ((rc = threads_start(pool)) != 0) {
        pool_free(pool, pool->count);
        return rc;
    }
    pool_wait_workers_parked(pool);
    *out = pool;
    return 0;
}

static int pool_teardown(fj_pool *pool)
{
    fj_worker *self = fj__self;
    if (self && self->pool == pool)
        return FJ_EDEADLK;
    pool_stop_accepting(pool);
    pool_wait_drained(pool);
    threads_stop(pool, pool->count);
    stats_print_if_asked(pool);
    pool_free(pool, pool->count);
    return 0;
}

int fj_pool_destroy(fj_pool *pool)
{
    if (!pool || pool->is_common)
        return FJ_EINVAL;
    return pool_teardown(pool);
}

/* ---- the common pool ---- */

static fj_pool *common_pool;
static pthread_once_t common_once = PTHREAD_ONCE_INIT;
/* Why it could not be created, if it could not: fj_pool_create's code and
 * detail.  Written once under common_once, read after it. */
static int common_failure;
static char common_failure_detail[ERROR_DETAIL_SIZE];

static void common_pool_teardown(void)
{
    fj_pool *pool = common_pool;
    /* A worker calling exit() cannot wait for itself; the process is ending. */
    if (pool && !(fj__self && fj__self->pool == pool))
        pool_teardown(pool);
}

static void common_pool_make(void)
{
    fj_pool *pool;
    int rc = fj_pool_create(&pool, NULL);
    if (rc != 0) {
        common_failure = rc;
        snprintf(common_failure_detail, sizeof common_failure_detail, "%s", fj_last_error_detail());
        /* Unlike fj_pool_create's caller, nobody asked for this pool by name
         * (an FJ_RUN, a fork or a loop outside any pool did), and FJ_RUN
         * without _RC has no code to return: stderr is the one place sure to
         * reach the person who set the variable.  Once per process. */
        fprintf(stderr, "fj: the common pool cannot start: %s\n",
                common_failure_detail[0] ? common_failure_detail : fj_strerror(rc));
        return;
    }
    pool->is_common = true;
    common_pool = pool;
    atexit(common_pool_teardown);
}

int fj__common_pool(fj_pool **pool)
{
    pthread_once(&common_once, common_pool_make);
    *pool = common_pool;
    if (common_pool)
        return 0;
    /* What fj_pool_create said, on whichever thread asks (fj_last_error_detail). */
    return error_refuse(common_failure, "%s", common_failure_detail);
}

fj_pool *fj_common_pool(void)
{
    fj_pool *pool;
    (void)fj__common_pool(&pool);
    return pool;
}
