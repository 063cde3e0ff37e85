/* stress_deque.c - one owner pushing and popping, several thieves stealing;
 * every element must be taken exactly once (count and checksum). */
#include <pthread.h>
#include <stdint.h>

#include "check.h"
#include "deque.h"

typedef struct shared {
    deque d;
    long total;               /* elements the owner will push */
    atomic_word owner_done;   /* 1 once the owner pushed and popped all it will */
    atomic_word steals_open;  /* thieves steal only while this is 1 */
    atomic_word steal_calls;  /* successful steal calls so far, all thieves */
    unsigned char *taken;     /* taken[i] counts takes of element i (one writer each) */
} shared;

typedef struct tally {
    long count;
    uint64_t checksum;
} tally;

static void take(shared *s, tally *t, void *item)
{
    long i = (long)(uintptr_t)item - 1;
    CHECK(i >= 0 && i < s->total);
    s->taken[i]++;  /* each element reaches exactly one taker, so no race */
    t->count++;
    t->checksum += (uint64_t)i * 2654435761u;
}

typedef struct thief_arg {
    shared *s;
    tally result;
} thief_arg;

/* A thief that finds nothing yields.  With more thieves than cores, thieves
 * that spin starve the owner, whose pushes are the only source of work: under
 * TSan at 8 workers on 2 cores a run took 77 s spinning and 12 s yielding,
 * and the thieves still took three quarters of the elements, so pops keep
 * racing steals on every burst's last elements. */
static void *thief_main(void *p)
{
    thief_arg *a = p;
    unsigned seed = (unsigned)(uintptr_t)p;
    for (;;) {
        if (!atomic_load_acquire(&a->s->steals_open) && !atomic_load_acquire(&a->s->owner_done)) {
            sched_yield();
            continue;
        }
        void *items[FJ_STEAL_BATCH_MAX];
        size_t max = (seed >> 3) & 1 ? FJ_STEAL_BATCH_MAX : 1;  /* single and batch steals */
        size_t got = deque_steal_batch(&a->s->d, (seed & 1) != 0, items, max);
        seed = seed * 1103515245u + 12345u;
        for (size_t i = 0; i < got; i++)
            take(a->s, &a->result, items[i]);
        if (got) {
            /* Full: after our takes; the owner's handshake acquires it. */
            atomic_fetch_add_full(&a->s->steal_calls, 1);
            continue;
        }
        if (atomic_load_acquire(&a->s->owner_done) && deque_size(&a->s->d) == 0)
            break;
        sched_yield();
    }
    return NULL;
}

static void start_thieves(shared *s, pthread_t *threads, thief_arg *args, unsigned thieves)
{
    for (unsigned i = 0; i < thieves; i++) {
        args[i] = (thief_arg){s, {0, 0}};
        CHECK_EQ(0, pthread_create(&threads[i], NULL, thief_main, &args[i]));
    }
}

/* The owner pushes `count` elements in bursts and pops part of each burst
 * back, so pops race thieves on the last elements again and again. */
static void owner_bursts(shared *s, tally *owner, long *next, long count, unsigned *seed)
{
    long end = *next + count < s->total ? *next + count : s->total;
    while (*next < end) {
        *seed = *seed * 1103515245u + 12345u;
        long burst = 1 + (*seed >> 16) % 64;
        for (long k = 0; k < burst && *next < end; k++, (*next)++) {
            void *item = (void *)(uintptr_t)(*next + 1);
            /* A full deque refuses the push and the caller keeps the element
             * (the runtime then runs the task inline): taken by the owner. */
            if (deque_push(&s->d, item) != DEQUE_PUSHED)
                take(s, owner, item);
        }
        for (long k = 0; k < burst / 2; k++) {
            void *item = deque_pop(&s->d);
            if (item)
                take(s, owner, item);
        }
    }
}

/* One thief per worker, at least 2 (a steal must race another steal) and at
 * most MAX_THIEVES, the size of the thread arrays below. */
#define MAX_THIEVES 16u

static unsigned thieves_for_workers(void)
{
    return check_workers < 2 ? 2 : check_workers > MAX_THIEVES ? MAX_THIEVES : check_workers;
}

/* Drains the deque, stops the thieves and checks every element was taken once. */
static void finish_and_check(shared *s, tally owner, pthread_t *threads, thief_arg *args, unsigned thieves)
{
    void *item;
    while ((item = deque_pop(&s->d)) != NULL)
        take(s, &owner, item);
    atomic_store_release(&s->owner_done, 1);
    tally sum = owner;
    for (unsigned i = 0; i < thieves; i++) {
        pthread_join(threads[i], NULL);
        sum.count += args[i].result.count;
        sum.checksum += args[i].result.checksum;
    }
    uint64_t expected_checksum = 0;
    for (long i = 0; i < s->total; i++) {
        expected_checksum += (uint64_t)i * 2654435761u;
        if (s->taken[i] != 1)
            CHECK_FAIL("element %ld taken %d times", i, s->taken[i]);
    }
    CHECK_EQ(s->total, sum.count);
    CHECK_EQ(expected_checksum, sum.checksum);
    printf("%ld elements, owner took %ld, %u thieves took %ld\n", s->total, owner.count, thieves,
           sum.count - owner.count);
    free(s->taken);
    deque_destroy(&s->d);
}

static void shared_init(shared *s, long total)
{
    CHECK_EQ(0, deque_init(&s->d, 4096));  /* small: the full-range compaction runs too */
    s->total = total;
    s->owner_done = 0;
    s->steals_open = 1;
    s->steal_calls = 0;
    s->taken = calloc((size_t)s->total, 1);
    CHECK(s->taken != NULL);
}

static void every_element_taken_once(void)
{
    shared s;
    /* The floor: at least ten million elements in every run, TSan too. */
    shared_init(&s, check_stress() ? 40 * 1000 * 1000 : 10 * 1000 * 1000);
    unsigned thieves = thieves_for_workers();
    pthread_t threads[MAX_THIEVES];
    thief_arg args[MAX_THIEVES];
    start_thieves(&s, threads, args, thieves);
    tally owner = {0, 0};
    unsigned seed = 7;
    long next = 0;
    owner_bursts(&s, &owner, &next, s.total, &seed);
    finish_and_check(&s, owner, threads, args, thieves);
}

/* Ends an open phase with a handshake: the owner pushes one more element and
 * waits until some thief has stolen after that, so every open phase
 * contains a steal by construction, however the OS schedules the thieves. */
static void owner_await_steal(shared *s, long *next)
{
    size_t calls_before = atomic_load_acquire(&s->steal_calls);
    /* A full deque refuses: the element waits for the next burst, and the
     * full deque has plenty for a thief to steal meanwhile. */
    if (*next < s->total && deque_push(&s->d, (void *)(uintptr_t)(*next + 1)) == DEQUE_PUSHED)
        (*next)++;
    /* Acquire: pairs with the thieves' full increment after their steal. */
    while (atomic_load_acquire(&s->steal_calls) == calls_before && deque_size(&s->d) > 0)
        sched_yield();
}

/* deque.c point 7: steals switch the owner's pops to fenced, and a quiet spell
 * of more than FJ_DEQUE_FENCED_POPS pops switches them back.  Thieves come and
 * go in phases, so both switches happen many times while pops and steals
 * race, and every element must still be taken exactly once.  Each open phase
 * ends with a steal the owner waits for (owner_await_steal), so the fenced
 * count does not depend on the OS giving a thief a turn. */
static void fence_mode_switches_keep_elements_exact(void)
{
    shared s;
    shared_init(&s, check_stress() ? 8 * 1000 * 1000 : 2 * 1000 * 1000);
    unsigned thieves = thieves_for_workers();
    pthread_t threads[MAX_THIEVES];
    thief_arg args[MAX_THIEVES];
    start_thieves(&s, threads, args, thieves);
    tally owner = {0, 0};
    unsigned seed = 11, phases = 0, fenced_phases = 0, unfenced_phases = 0;
    long next = 0, phase = 8 * FJ_DEQUE_FENCED_POPS;
    while (next < s.total) {
        atomic_store_release(&s.steals_open, 1);
        owner_bursts(&s, &owner, &next, phase, &seed);
        owner_await_steal(&s, &next);  /* no pop after it, so fenced is still set */
        phases++;
        fenced_phases += (deque_head_word(&s.d) & FJ__HEAD_FENCED) != 0;
        atomic_store_release(&s.steals_open, 0);
        owner_bursts(&s, &owner, &next, phase, &seed);
        unfenced_phases += (deque_head_word(&s.d) & FJ__HEAD_FENCED) == 0;
    }
    /* Without membarrier the deque splits (point 9): no thief writes fj_head,
     * the bit is never set, and every item pop that races a thief fences. */
    if (!s.d.split) {
        CHECK_EQ(phases, fenced_phases);
        CHECK(unfenced_phases > 0);
    } else {
        CHECK_EQ(0u, fenced_phases);
        CHECK_EQ(phases, unfenced_phases);
    }
    printf("phases ending fenced after steals: %u, unfenced after quiet: %u\n", fenced_phases, unfenced_phases);
    finish_and_check(&s, owner, threads, args, thieves);
}

static const check_case cases[] = {
    {"every_element_taken_once", every_element_taken_once, CHECK_PER_WORKERS},
    {"fence_mode_switches_keep_elements_exact", fence_mode_switches_keep_elements_exact, CHECK_PER_WORKERS},
};
CHECK_MAIN(cases)
