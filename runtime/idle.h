/* idle.h - how idle workers sleep and how new work wakes them.
 *
 * A worker with nothing to do spins, then yields, then parks (the scheduler
 * loop in worker.c decides when).  This module owns the last step: parking on
 * a per-worker futex word, and waking one parked worker when work appears.
 * The wake-up argument is at the top of idle.c.
 *
 * Who may call what:
 *   idle_park           a worker, on its own behalf
 *   idle_signal_work    any thread, after publishing work and a fence_light()
 *   parker_wake         any thread
 *   idle_wake_all       any thread (shutdown)
 */
#ifndef FJ_IDLE_H
#define FJ_IDLE_H

#include <pthread.h>
#include <stdbool.h>

#include "atomics.h"
#include "config.h"

/* Every worker of every pool parks on a word of one process-wide table, indexed
 * by the worker's `slot`.  The table is static storage that is never freed, so
 * a waker holding a slot number it read from a task's status word can always
 * touch it: at worst a slot reused by a newer worker gets a spurious wake. */
#define FJ_PARKER_SLOTS 4096
_Static_assert(FJ_PARKER_SLOTS <= 65535, "a slot number + 1 must fit 16 bits of the task status");
_Static_assert(FJ_PARKER_SLOTS >= FJ_MAX_WORKERS, "one pool of the largest size must fit");

/* Reserves `count` slots for a new pool; returns 0, or -1 when the table is full. */
int parker_slots_reserve(unsigned count, unsigned *slots_out);
void parker_slots_release(unsigned count, const unsigned *slots);
/* Wakes the worker parked on `slot`, if any (any thread). */
void parker_wake(unsigned slot);

typedef struct idle {
    /* Read on every fork (when sleepers == 0 nothing else is touched). */
    atomic_word sleepers;   /* workers parked or about to park */
    atomic_word searching;  /* workers spinning or yielding in search of work */
    char pad[FJ_CACHE_LINE];
    pthread_mutex_t lock;   /* guards the parked stack */
    unsigned *parked;       /* slots of listed workers, newest last */
    unsigned parked_count;
    unsigned count;
    const unsigned *slots;  /* the pool's parker slots, one per worker */
    atomic_word **hints;    /* each worker's wake hint (idle_watch), or NULL */
} idle;

int idle_init(idle *s, unsigned workers, const unsigned *slots);
void idle_destroy(idle *s);

/* Registers worker `index`'s wake hint, a word its spawns test instead of
 * `sleepers` (include/fj.h, fj__spawn_end): every idle_park sets it.  Before
 * the pool's threads start. */
void idle_watch(idle *s, unsigned index, atomic_word *hint);

/* The slow half of a hint that read non-zero, by its owner: true when a worker
 * may be parked (the caller goes on as for idle_should_signal); false when none
 * is, after clearing the hint so that its spawns stop asking. */
bool idle_hint_confirm(idle *s, atomic_word *hint);

/* Parks the worker owning parker `slot` unless `has_work(ctx)` says there is something to do once
 * the worker has announced itself as a sleeper.  `has_work` must look at every
 * place work may be published (deques, injector, the awaited task, shutdown).
 * Returns when woken or when has_work was true; spurious returns are allowed. */
void idle_park(idle *s, unsigned slot, bool (*has_work)(void *ctx), void *ctx);

/* As idle_park, but not listed: only parker_wake(slot) wakes it, never a signal
 * for new work, or the end of `timeout_ns` (0: none), after which the caller
 * looks again.  For joiners, which may take only some work (task.c, point 4). */
void idle_park_unlisted(unsigned slot, bool (*has_work)(void *ctx), void *ctx, long timeout_ns);

/* Wakes one parked worker, if any.  The caller published work and then issued
 * fence_light(); that pairs with the fence_heavy() in idle_park. */
void idle_signal_work(idle *s);

void idle_wake_all(idle *s);

/* The spin/yield phase bracket: while a worker searches, forks do not wake
 * sleepers (the searcher will find the work). */
static inline void idle_search_begin(idle *s) { atomic_fetch_add_full(&s->searching, 1); }
static inline void idle_search_end(idle *s) { atomic_fetch_add_full(&s->searching, (size_t)-1); }

/* The fork path's test: is there a sleeper and nobody searching? */
static inline bool idle_should_signal(const idle *s)
{
    return atomic_load(&s->sleepers) != 0 && atomic_load(&s->searching) == 0;
}

#endif
