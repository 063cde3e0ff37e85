/* test_deque.c - the work-stealing deque on one thread: LIFO for the owner,
 * FIFO for thieves, wrap-around, growth, and out of memory while growing. */
#include <stdint.h>
#include <sys/resource.h>

#include "check.h"
#include "deque.h"

#define ITEM(i) ((void *)(uintptr_t)((i) + 1))
#define INDEX(p) ((long)(uintptr_t)(p) - 1)

static void owner_pops_lifo(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 8));
    for (long i = 0; i < 5; i++)
        CHECK_EQ(DEQUE_PUSHED, deque_push(&d, ITEM(i)));
    CHECK_EQ(5, deque_size(&d));
    for (long i = 4; i >= 0; i--)
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    CHECK(deque_pop(&d) == NULL);  /* popping an empty deque twice leaves it sane */
    CHECK_EQ(0, deque_size(&d));
    deque_destroy(&d);
}

static void thieves_steal_fifo(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 8));
    for (long i = 0; i < 6; i++)
        deque_push(&d, ITEM(i));
    CHECK_EQ(0, INDEX(deque_steal(&d, true)));
    CHECK_EQ(1, INDEX(deque_steal(&d, false)));
    CHECK_EQ(5, INDEX(deque_pop(&d)));  /* both ends at once */
    CHECK_EQ(2, INDEX(deque_steal(&d, true)));
    CHECK_EQ(4, INDEX(deque_pop(&d)));
    CHECK_EQ(3, INDEX(deque_pop(&d)));
    CHECK(deque_steal(&d, true) == NULL);
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
}

static void indices_wrap_around(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 4));
    CHECK_EQ(DEQUE_MIN_CAPACITY, d.mask + 1);  /* small requests are rounded up */
    /* Many rounds through the smallest array: head and tail pass the capacity
     * many times, and the mask must keep every item in its logical place. */
    long next = 0, expected_steal = 0;
    for (int round = 0; round < 1000; round++) {
        deque_push(&d, ITEM(next++));
        deque_push(&d, ITEM(next++));
        CHECK_EQ(expected_steal, INDEX(deque_steal(&d, true)));
        CHECK_EQ(next - 1, INDEX(deque_pop(&d)));
        expected_steal = next;
    }
    CHECK_EQ(DEQUE_MIN_CAPACITY, d.mask + 1);  /* never needed to grow */
    CHECK_EQ(0, deque_size(&d));
    deque_destroy(&d);
}

static void grows_past_a_million(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 4));
    const long n = 1100000;
    CHECK_EQ(0, INDEX(ITEM(0)));
    deque_push(&d, ITEM(0));
    CHECK_EQ(0, INDEX(deque_steal(&d, true)));  /* growth starts with head != 0 */
    for (long i = 1; i <= n; i++)
        CHECK_EQ(DEQUE_PUSHED, deque_push(&d, ITEM(i)));
    CHECK_EQ(n, deque_size(&d));
    CHECK(d.mask + 1 >= (size_t)n);
    for (long i = 1; i <= 1000; i++)  /* the oldest come out first at the head */
        CHECK_EQ(i, INDEX(deque_steal(&d, true)));
    for (long i = n; i > 1000; i--)   /* the rest, newest first, at the tail */
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

static void growth_failure_loses_nothing(void)
{
#ifdef UNDER_SANITIZER
    printf("skipped: sanitizers reserve address space, so RLIMIT_AS cannot model OOM\n");
#else
    deque d;
    CHECK_EQ(0, deque_init(&d, 1024));
    /* Cap the address space a little above what we use, so that doubling the
     * array eventually fails inside deque_push_slow. */
    struct rlimit old, capped;
    CHECK_EQ(0, getrlimit(RLIMIT_AS, &old));
    capped = old;
    capped.rlim_cur = 512ul << 20;
    CHECK_EQ(0, setrlimit(RLIMIT_AS, &capped));
    long pushed = 0;
    while (deque_push(&d, ITEM(pushed)) == DEQUE_PUSHED)
        pushed++;
    CHECK_EQ(0, setrlimit(RLIMIT_AS, &old));
    CHECK(pushed > 1024);
    CHECK_EQ(pushed, deque_size(&d));
    for (long i = pushed - 1; i >= 0; i--)
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
#endif
}

static void batch_steal_takes_half_oldest_first(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 64));
    void *out[FJ_STEAL_BATCH_MAX];
    CHECK_EQ(0, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX));  /* empty */
    for (long i = 0; i < 6; i++)
        deque_push(&d, ITEM(i));
    CHECK_EQ(3, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX));  /* half of 6 */
    for (long i = 0; i < 3; i++)
        CHECK_EQ(i, INDEX(out[i]));
    CHECK_EQ(1, deque_steal_batch(&d, true, out, 1));                   /* capped by max */
    CHECK_EQ(3, INDEX(out[0]));
    CHECK_EQ(1, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX));  /* one left of two: one */
    CHECK_EQ(4, INDEX(out[0]));
    CHECK_EQ(5, INDEX(deque_pop(&d)));
    long many = 2 * FJ_STEAL_BATCH_MAX + 16;  /* half of it exceeds the cap */
    for (long i = 0; i < many; i++)
        deque_push(&d, ITEM(i));
    CHECK_EQ(FJ_STEAL_BATCH_MAX, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX));
    CHECK_EQ(0, INDEX(out[0]));
    CHECK_EQ(many - FJ_STEAL_BATCH_MAX, deque_size(&d));
    deque_destroy(&d);
}

static const check_case cases[] = {
    {"batch_steal_takes_half_oldest_first", batch_steal_takes_half_oldest_first, CHECK_ONCE},
    {"owner_pops_lifo", owner_pops_lifo, CHECK_ONCE},
    {"thieves_steal_fifo", thieves_steal_fifo, CHECK_ONCE},
    {"indices_wrap_around", indices_wrap_around, CHECK_ONCE},
    {"grows_past_a_million", grows_past_a_million, CHECK_ONCE},
    {"growth_failure_loses_nothing", growth_failure_loses_nothing, CHECK_ONCE},
};
CHECK_MAIN(cases)
