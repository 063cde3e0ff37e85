/* test_deque.c - the work-stealing deque of frames on one thread: LIFO for
 * the owner, FIFO for thieves, slots reused after steals, a full deque, and
 * typed frames taken alone and lowered past only after their sync. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* Steals and pops alternate many times: stolen item frames are lowered past
 * at once, so the used part of the range stays as deep as what is queued. */
static void stolen_slots_are_reused(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 64));
    long next = 0, expected_steal = 0;
    for (int round = 0; round < 100000; round++) {
        deque_push(&d, ITEM(next++));
        deque_push(&d, ITEM(next++));
        CHECK_EQ(expected_steal, INDEX(deque_steal(&d, true)));
        CHECK_EQ(next - 1, INDEX(deque_pop(&d)));
        CHECK(deque_pop(&d) == NULL); /* the stolen one: lowered past */
        expected_steal = next;
        CHECK(deque_top(&d) == d.base);
    }
    CHECK_EQ(0, deque_size(&d));
    deque_destroy(&d);
}

static void holds_a_million_frames(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 0));
    const long n = 1000000;
    CHECK(d.reserved_end - d.base > n);
    deque_push(&d, ITEM(0));
    CHECK_EQ(0, INDEX(deque_steal(&d, true)));
    for (long i = 1; i <= n; i++)
        CHECK_EQ(DEQUE_PUSHED, deque_push(&d, ITEM(i)));
    CHECK_EQ(n, deque_size(&d));
    for (long i = 1; i <= 1000; i++) /* the oldest come out first at the head */
        CHECK_EQ(i, INDEX(deque_steal(&d, true)));
    for (long i = n; i > 1000; i--) /* the rest, newest first, at the top */
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
}

/* The permissions and the end of the mapping that holds address p, from
 * /proc/self/maps ("" and 0 if none does). */
static uintptr_t mapping_around(const void *p, char perms[5])
{
    FILE *maps = fopen("/proc/self/maps", "r");
    CHECK(maps != NULL);
    uintptr_t lo, hi, found = 0, at = (uintptr_t)p;
    char line[512], mode[5];
    perms[0] = '\0';
    while (!found && fgets(line, sizeof line, maps))
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &lo, &hi, mode) == 3 && lo <= at && at < hi) {
            memcpy(perms, mode, 5);
            found = hi;
        }
    fclose(maps);
    return found;
}

/* The reservation costs no memory until it is reached: its first 64 KiB are
 * writable and the rest inaccessible, so the kernel charges nothing for it
 * even where it accounts strictly (vm.overcommit_memory=2); pushes that reach
 * the end double the writable part, and the frames keep their order. */
static void range_is_made_writable_as_pushes_reach_it(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 0));
    char perms[5];
    uintptr_t writable_end = mapping_around(d.base, perms);
    CHECK(strcmp(perms, "rw-p") == 0);
    CHECK_EQ(FJ_DEQUE_COMMIT_FIRST, writable_end - (uintptr_t)d.base);
    CHECK(mapping_around((void *)writable_end, perms) == (uintptr_t)d.base + d.reserved_bytes);
    CHECK(strcmp(perms, "---p") == 0);
    const long n = 5000;  /* 5001 frames with the spare: 320 KiB, so 512 KiB writable */
    for (long i = 0; i < n; i++)
        CHECK_EQ(DEQUE_PUSHED, deque_push(&d, ITEM(i)));
    writable_end = mapping_around(d.base, perms);
    CHECK(strcmp(perms, "rw-p") == 0);
    CHECK_EQ(8 * FJ_DEQUE_COMMIT_FIRST, writable_end - (uintptr_t)d.base);
    CHECK(d.end - d.base >= n);
    for (long i = n - 1; i >= 0; i--)
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
}

/* A full deque refuses the push (the caller runs the task inline) and keeps
 * every item it holds. */
static void full_deque_refuses_and_loses_nothing(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 64));
    long pushed = 0;
    while (deque_push(&d, ITEM(pushed)) == DEQUE_PUSHED)
        pushed++;
    CHECK_EQ(64, pushed);
    CHECK_EQ(DEQUE_NO_MEMORY, deque_push(&d, ITEM(pushed)));
    CHECK_EQ(pushed, deque_size(&d));
    for (long i = pushed - 1; i >= 0; i--)
        CHECK_EQ(i, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    deque_destroy(&d);
}

static void some_runner(fj_worker *w, fj_frame *f) { (void)w, (void)f; }

/* A typed frame is taken alone and tagged; the owner lowers past it only
 * after its sync; an item pop never takes a typed frame. */
static void typed_frames_are_taken_alone(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 64));
    deque_push(&d, ITEM(0));
    fj_frame *typed = deque_top(&d);
    typed->fj_run = some_runner;
    atomic_store_release((atomic_word *)&d.ends.fj_top, (size_t)(typed + 1));
    deque_push(&d, ITEM(2));
    void *out[FJ_STEAL_BATCH_MAX];
    CHECK_EQ(1, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX)); /* the item before it */
    CHECK_EQ(0, INDEX(out[0]));
    CHECK(deque_pop(&d) != NULL);                                       /* item 2 */
    CHECK(deque_pop(&d) == NULL);                                       /* typed: only its sync takes it */
    CHECK(deque_top(&d) == typed + 1);
    CHECK_EQ(1, deque_steal_batch(&d, true, out, FJ_STEAL_BATCH_MAX)); /* the typed one, alone */
    CHECK(deque_is_tagged_frame(out[0]));
    CHECK(deque_tagged_frame(out[0]) == typed);
    CHECK_EQ(1, (long)typed->fj_state); /* FRAME_STOLEN */
    CHECK(deque_pop(&d) == NULL);       /* stolen: it stays for its sync */
    CHECK(deque_top(&d) == typed + 1);
    deque_lower(&d, typed);
    CHECK(deque_top(&d) == typed);
    CHECK_EQ(0, (long)typed->fj_state);
    CHECK(deque_pop(&d) == NULL); /* the stolen item below: lowered past */
    CHECK(deque_top(&d) == d.base);
    deque_destroy(&d);
}

/* The spawn guard (include/fj.h, fj__spawn_begin_guarded): every owner
 * operation that moves top sets it to 0, so that a typed task whose copy of
 * top lies under the moved word settles before its next spawn; a steal, which
 * moves only head, leaves it.  raise_guard stands for fj__spawn_guarded. */
static void raise_guard(deque *d) { d->ends.fj_spawn_guard = (uintptr_t)d->end; }

static void every_move_of_top_lowers_the_spawn_guard(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 4));
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard); /* lowered from the start */
    raise_guard(&d);
    deque_push(&d, ITEM(0));
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    deque_push(&d, ITEM(1));
    deque_push(&d, ITEM(2));
    raise_guard(&d);
    CHECK_EQ(2, INDEX(deque_pop(&d))); /* before any steal: the inline pop, where membarrier is there */
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    deque_unpop(&d);
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    CHECK_EQ(0, INDEX(deque_steal(&d, true))); /* head moves, top does not */
    CHECK(d.ends.fj_spawn_guard == (uintptr_t)d.end);
    CHECK(deque_remove(&d, ITEM(2)));
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    CHECK(deque_pop_slow(&d, deque_top(&d) - 1) != NULL); /* the owner's claim, decided under the lock */
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    deque_lower(&d, deque_top(&d));
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    CHECK_EQ(DEQUE_PUSHED, deque_push_slow(&d, ITEM(3))); /* the push's slow half, called alone */
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    fj_frame *claimed = deque_top(&d) - 1; /* the pop's slow half, called alone after a claim */
    atomic_store((atomic_word *)&d.ends.fj_top, (size_t)claimed);
    raise_guard(&d);
    CHECK(deque_pop_item_slow(&d, claimed, claimed + 1) == NULL); /* below the floor: the claim given back */
    CHECK(deque_top(&d) == claimed + 1);
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    while (deque_push(&d, ITEM(4)) == DEQUE_PUSHED) /* to the end */
        ;
    raise_guard(&d);
    deque_compact(&d);
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    raise_guard(&d);
    deque_set_spawn_slow(&d, true); /* limit moves: the guard must follow it down */
    CHECK_EQ(0, (long)d.ends.fj_spawn_guard);
    deque_destroy(&d);
}

static void batch_steal_takes_half_oldest_first(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 256));
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

/* FJ_FENCE=full gives the mode without membarrier even where membarrier
 * works, so the suite's FJ_FENCE=full pass (tests/run-tests.sh) runs what a
 * kernel without it runs: the split deque (deque.c, point 9), whose owner's
 * frames are private until asked for (the wake hint set at first, since
 * nothing is public, and idle words that say nobody searches, whatever the
 * pool's are, so that a spawn that finds its hint set calls fj__spawn_wake),
 * with every item push taking the slow path, which publishes it. */
static void fence_mode_follows_fj_fence(void)
{
    deque d;
    CHECK_EQ(0, deque_init(&d, 8));
    const char *mode = getenv("FJ_FENCE");
    bool symmetric = !fj_fence_asymmetric;
    bool forced = mode && strcmp(mode, "full") == 0;
    long supported = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (forced)
        CHECK(symmetric);
    else if (supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
        CHECK(!symmetric);  /* auto, or unset: membarrier where the kernel has it */
    CHECK_EQ(symmetric, d.split);
    CHECK_EQ(0, (long)(deque_head_word(&d) & FJ__HEAD_FENCED)); /* no pop is fenced at first */
    CHECK(d.ends.fj_limit == d.end);                            /* typed spawns stay inline in both modes */
    CHECK(d.item_limit == (symmetric ? d.base : d.end));
    CHECK_EQ(symmetric, d.ends.fj_wake_hint != 0);
    /* A pool whose words say one worker sleeps and one searches: the inline
     * spawn reads them as they are with membarrier; without it, it must read
     * "nobody searching" whatever the pool says, so that it calls fj__spawn_wake. */
    static const volatile unsigned long pool_idle[2] = {1, 1};
    deque_set_idle(&d, pool_idle);
    CHECK_EQ(!symmetric, d.ends.fj_idle == pool_idle);
    CHECK_EQ(symmetric ? 0 : 1, (long)d.ends.fj_idle[1]);
    deque_destroy(&d);
    /* Read once per process (fj.h): a later change of the variable changes nothing. */
    setenv("FJ_FENCE", forced ? "auto" : "full", 1);
    CHECK_EQ(0, deque_init(&d, 8));
    CHECK_EQ(symmetric, !fj_fence_asymmetric);
    CHECK_EQ(symmetric, d.split);
    deque_destroy(&d);
}

/* ---- the split deque (deque.c, point 9), on one thread ---- */

/* Each case below makes its deque in the mode without membarrier, whatever
 * the process's mode: a deque takes its mode from fj_fence_asymmetric when it
 * is made, and keeps it.  (The fences the split deque issues are full ones
 * in either mode.) */
static void init_split(deque *d, size_t frames)
{
    fence_init();
    bool asymmetric = fj_fence_asymmetric;
    fj_fence_asymmetric = false;
    CHECK_EQ(0, deque_init(d, frames));
    fj_fence_asymmetric = asymmetric;
    CHECK(d->split);
}

/* What the inline typed spawn does (include/fj.h), short of its hint test. */
static fj_frame *spawn_private(deque *d)
{
    fj_frame *f = deque_top(d);
    f->fj_run = some_runner;
    atomic_store_release((atomic_word *)&d->ends.fj_top, (size_t)(f + 1));
    return f;
}

static bool hint_set(deque *d) { return atomic_load(deque_wake_hint(d)) != 0; }
static void hint_clear(deque *d) { atomic_store(deque_wake_hint(d), 0); }

/* Typed frames stay private: a thief takes nothing, but asks (sets the
 * owner's wake hint); after the publish it takes the oldest. */
static void split_frames_stay_private_until_asked_for(void)
{
    deque d;
    init_split(&d, 64);
    CHECK(hint_set(&d)); /* nothing public: the first spawn must publish */
    hint_clear(&d);
    fj_frame *oldest = spawn_private(&d);
    spawn_private(&d);
    spawn_private(&d);
    CHECK_EQ(0, deque_size(&d));
    CHECK(!hint_set(&d));
    CHECK(deque_steal(&d, true) == NULL);
    CHECK(hint_set(&d)); /* the thief asked */
    hint_clear(&d);
    CHECK(deque_publish(&d));
    CHECK(!deque_publish(&d)); /* nothing new */
    CHECK_EQ(3, deque_size(&d));
    void *taken = deque_steal(&d, true);
    CHECK(deque_is_tagged_frame(taken) && deque_tagged_frame(taken) == oldest);
    CHECK(!hint_set(&d)); /* two public frames are left */
    deque_destroy(&d);
}

/* Items are public at once, LIFO for the owner and FIFO for thieves, and a
 * private frame's sync needs nothing of the deque's words. */
static void split_items_are_public_at_once(void)
{
    deque d;
    init_split(&d, 64);
    fj_frame *typed = spawn_private(&d);
    for (long i = 0; i < 4; i++)
        CHECK_EQ(DEQUE_PUSHED, deque_push(&d, ITEM(i)));
    CHECK_EQ(5, deque_size(&d)); /* the typed frame below them too */
    CHECK_EQ(3, INDEX(deque_pop(&d)));
    void *taken = deque_steal(&d, true);
    CHECK(deque_is_tagged_frame(taken) && deque_tagged_frame(taken) == typed);
    CHECK_EQ(0, INDEX(deque_steal(&d, true)));
    CHECK_EQ(2, INDEX(deque_pop(&d)));
    CHECK_EQ(1, INDEX(deque_pop(&d)));
    CHECK(deque_pop(&d) == NULL);
    CHECK_EQ(0, deque_size(&d));
    deque_destroy(&d);
}

/* The typed sync of a public frame: the owner's shrink takes it back, and
 * the shrink down to the thieves' end asks for the next publish. */
static void split_shrink_takes_public_frames_back(void)
{
    deque d;
    init_split(&d, 64);
    fj_frame *a = spawn_private(&d), *b = spawn_private(&d);
    CHECK(deque_publish(&d));
    hint_clear(&d);
    atomic_store((atomic_word *)&d.ends.fj_top, (size_t)b); /* the inline pop's claim */
    CHECK(deque_pop_fenced(&d, b));
    CHECK_EQ(1, deque_size(&d));
    CHECK(!hint_set(&d)); /* a is still public */
    atomic_store((atomic_word *)&d.ends.fj_top, (size_t)a);
    CHECK(deque_pop_fenced(&d, a));
    CHECK_EQ(0, deque_size(&d));
    CHECK(hint_set(&d)); /* nothing public: the next spawn publishes */
    CHECK(deque_top(&d) == d.base);
    deque_destroy(&d);
}

/* A thief took the frame: the shrink finds its claim, decides under the lock
 * that the frame is gone, and the sync waits, then lowers past it. */
static void split_stolen_frame_is_lowered_after_its_sync(void)
{
    deque d;
    init_split(&d, 64);
    fj_frame *a = spawn_private(&d);
    CHECK(deque_publish(&d));
    hint_clear(&d);
    void *taken = deque_steal(&d, true);
    CHECK(deque_tagged_frame(taken) == a);
    CHECK(hint_set(&d)); /* the thief took the last public frame */
    CHECK_EQ(1, (long)a->fj_state); /* FRAME_STOLEN */
    atomic_store((atomic_word *)&d.ends.fj_top, (size_t)a);
    CHECK(!deque_pop_fenced(&d, a));
    CHECK(deque_top(&d) == a + 1); /* given back, the slot still pinned */
    CHECK_EQ(0, deque_size(&d));
    fj_frame *b = spawn_private(&d); /* above the stolen frame (a helper's spawn) */
    CHECK(b == a + 1);
    CHECK(deque_publish(&d));
    CHECK_EQ(1, deque_size(&d));
    atomic_store((atomic_word *)&d.ends.fj_top, (size_t)b);
    CHECK(deque_pop_fenced(&d, b));
    deque_lower(&d, a);
    CHECK(deque_top(&d) == a && deque_head(&d) == a && deque_public_end(&d) == a);
    CHECK_EQ(0, (long)a->fj_state);
    CHECK(spawn_private(&d) == a); /* the slot is reused */
    deque_destroy(&d);
}

static const check_case cases[] = {
    {"fence_mode_follows_fj_fence", fence_mode_follows_fj_fence, CHECK_ONCE},
    {"batch_steal_takes_half_oldest_first", batch_steal_takes_half_oldest_first, CHECK_ONCE},
    {"owner_pops_lifo", owner_pops_lifo, CHECK_ONCE},
    {"range_is_made_writable_as_pushes_reach_it", range_is_made_writable_as_pushes_reach_it, CHECK_ONCE},
    {"thieves_steal_fifo", thieves_steal_fifo, CHECK_ONCE},
    {"stolen_slots_are_reused", stolen_slots_are_reused, CHECK_ONCE},
    {"holds_a_million_frames", holds_a_million_frames, CHECK_ONCE},
    {"full_deque_refuses_and_loses_nothing", full_deque_refuses_and_loses_nothing, CHECK_ONCE},
    {"typed_frames_are_taken_alone", typed_frames_are_taken_alone, CHECK_ONCE},
    {"every_move_of_top_lowers_the_spawn_guard", every_move_of_top_lowers_the_spawn_guard, CHECK_ONCE},
    {"split_frames_stay_private_until_asked_for", split_frames_stay_private_until_asked_for, CHECK_ONCE},
    {"split_items_are_public_at_once", split_items_are_public_at_once, CHECK_ONCE},
    {"split_shrink_takes_public_frames_back", split_shrink_takes_public_frames_back, CHECK_ONCE},
    {"split_stolen_frame_is_lowered_after_its_sync", split_stolen_frame_is_lowered_after_its_sync, CHECK_ONCE},
};
CHECK_MAIN(cases)
