/* tck_heap.h - Java's `new` for the TCK's heap completer trees (the CCF and
 * FailingCCF of CountedCompleterTest and ForkJoinPool8Test), which Java's
 * collector frees once nothing refers to them.  Subtasks of a failing tree may
 * still walk up to its completers after its root's join has returned, so a
 * test frees all of them at once with tck_free_all, when no task of theirs
 * can run any more: after their pool has terminated, or once the common pool
 * is quiescent. */
#ifndef FJ_TCK_HEAP_H
#define FJ_TCK_HEAP_H

#include <stddef.h>
#include <stdlib.h>

#include "tck.h"

typedef struct tck_allocation {
    struct tck_allocation *next;
    max_align_t object[];  /* what tck_new returns, aligned for any type */
} tck_allocation;

/* Every allocation not freed yet, newest first. */
static _Atomic(tck_allocation *) tck_allocations;

/* A zeroed object of `size` bytes that lives until tck_free_all.  Any thread
 * (the workers running a tree's compute allocate its subtasks). */
static inline void *tck_new(size_t size)
{
    tck_allocation *a = calloc(1, sizeof *a + size);
    CHECK(a != NULL);
    a->next = atomic_load(&tck_allocations);
    while (!atomic_compare_exchange_weak(&tck_allocations, &a->next, a))
        ;
    return a->object;
}

/* Frees everything tck_new returned so far.  The caller makes sure that no
 * task can touch those objects any more. */
static inline void tck_free_all(void)
{
    tck_allocation *a = atomic_exchange(&tck_allocations, NULL);
    while (a) {
        tck_allocation *next = a->next;
        free(a);
        a = next;
    }
}

#endif
