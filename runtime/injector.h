/* injector.h - the FIFO where threads that are not workers submit work.
 *
 * A mutex-protected ring of pointers that grows by doubling.  Submissions are
 * rare next to forks, so a lock is the simple, obviously correct choice; the
 * atomic `count` lets idle workers test for emptiness without the lock.
 *
 * Who may call: injector_push, injector_take, injector_remove: any thread;
 * injector_size: any thread (a racy snapshot). */
#ifndef FJ_INJECTOR_H
#define FJ_INJECTOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "atomics.h"
#include "config.h"

typedef struct injector {
    atomic_word count;  /* items queued; written under the lock, read without */
    char pad[FJ_CACHE_LINE];
    pthread_mutex_t lock;
    void **ring;
    size_t capacity, first;
} injector;

int injector_init(injector *q);
void injector_destroy(injector *q);

/* Appends `item`.  Returns 0, or -1 when the ring cannot grow (nothing queued).
 * The item is visible to injector_take before this returns (unlock releases). */
int injector_push(injector *q, void *item);

/* Removes the oldest item, or returns NULL when empty. */
void *injector_take(injector *q);

/* Removes `item` wherever it is queued (a join of a submitted task takes the
 * task itself, task.c point 2a).  Returns whether it was there; the items
 * after it keep their order. */
bool injector_remove(injector *q, const void *item);

static inline size_t injector_size(const injector *q) { return atomic_load(&q->count); }

#endif
