/* injector.c - the external submission queue (see injector.h). */
#include "injector.h"

#include <stdlib.h>

#define INJECTOR_INITIAL_CAPACITY 64

int injector_init(injector *q)
{
    q->count = 0;
    q->first = 0;
    q->capacity = INJECTOR_INITIAL_CAPACITY;
    q->ring = malloc(q->capacity * sizeof *q->ring);
    if (!q->ring)
        return -1;
    pthread_mutex_init(&q->lock, NULL);
    return 0;
}

void injector_destroy(injector *q)
{
    pthread_mutex_destroy(&q->lock);
    free(q->ring);
}

static int injector_grow_locked(injector *q)
{
    size_t n = atomic_load(&q->count);
    void **bigger = malloc(2 * q->capacity * sizeof *bigger);
    if (!bigger)
        return -1;
    for (size_t i = 0; i < n; i++)
        bigger[i] = q->ring[(q->first + i) % q->capacity];
    free(q->ring);
    q->ring = bigger;
    q->first = 0;
    q->capacity *= 2;
    return 0;
}

int injector_push(injector *q, void *item)
{
    pthread_mutex_lock(&q->lock);
    size_t n = atomic_load(&q->count);
    if (n == q->capacity && injector_grow_locked(q) != 0) {
        pthread_mutex_unlock(&q->lock);
        return -1;
    }
    q->ring[(q->first + n) % q->capacity] = item;
    /* Release is supplied by the unlock; the count only tells lock-free readers
     * that taking the lock is worth it. */
    atomic_store(&q->count, n + 1);
    pthread_mutex_unlock(&q->lock);
    return 0;
}

void *injector_take(injector *q)
{
    if (atomic_load(&q->count) == 0)
        return NULL;
    void *item = NULL;
    pthread_mutex_lock(&q->lock);
    size_t n = atomic_load(&q->count);
    if (n > 0) {
        item = q->ring[q->first];
        q->first = (q->first + 1) % q->capacity;
        atomic_store(&q->count, n - 1);
    }
    pthread_mutex_unlock(&q->lock);
    return item;
}

bool injector_remove(injector *q, const void *item)
{
    if (atomic_load(&q->count) == 0)
        return false;
    pthread_mutex_lock(&q->lock);
    size_t n = atomic_load(&q->count), i = 0;
    while (i < n && q->ring[(q->first + i) % q->capacity] != item)
        i++;
    bool found = i < n;
    if (found) {
        for (; i + 1 < n; i++)
            q->ring[(q->first + i) % q->capacity] = q->ring[(q->first + i + 1) % q->capacity];
        atomic_store(&q->count, n - 1);
    }
    pthread_mutex_unlock(&q->lock);
    return found;
}
