/* loop.c - parallel for / for-each / reduce over an int64_t index range, on
 * work-stealing ranges (range.h).
 *
 * Design overview
 * ===============
 * Read first: Tzannes, Caragea, Barua, Vishkin, "Lazy binary splitting"
 * (PPoPP'10); Wang, Li et al., "work-stealing range partitioning"; Intel TBB's
 * auto_partitioner; the OpenMP schedule(static / dynamic / guided) kinds we
 * benchmark against (bench/loops/).
 *
 * The ideal loop, ignoring every race, on P workers:
 *
 *     cut [from, to) into grains; give participant k the k-th of P equal chunks
 *     participant k:  while my chunk has grains: run the lowest one
 *                     then: steal part of somebody else's chunk, and repeat
 *                     stop when every grain has run
 *
 * Complications, one at a time:
 *
 * 1. Stealing without locks.  Each participant exposes the top quarter of the
 *    range it works in one word of its slot (packed [lo, hi) grain numbers).
 *    A thief takes the whole exposed part with one CAS and owns it from then
 *    on, exposing a quarter of it in turn.  The owner never synchronises while
 *    it works its private part; when that runs out it CASes back the low part
 *    of what it exposed (a thief may have taken it: then its range is done).
 *    Exposing at least one of the last two grains means the owner and thieves
 *    only ever race for a range's very last grain.  When a thief empties a
 *    slot, the owner re-exposes a quarter of what is still private after its
 *    current grain, so long-running owners stay stealable.  (range.h)
 *
 * 2. Participants, not workers.  The caller forks P-1 participant tasks by
 *    recursive halving and runs participant 0 itself.  Inside a busy pool, or
 *    inside another loop's body, some of those tasks may not start until the
 *    caller joins them.  So each participant's chunk starts out *exposed* in
 *    its slot, and the participant's first act is to take it like a thief: a
 *    chunk nobody picks up is stolen whole by the participants that did start.
 *
 * 3. Knowing when to stop.  A participant whose range is finished adds the
 *    number of indices it ran to the shared count `done`, then steals until
 *    `done` says the whole range ran.  While nothing is exposed it spins, then
 *    yields.  Two cases make waiting for `done` wrong, and there the
 *    participant withdraws (returns) instead:
 *    a. A participant frame of a loop lies below it on this thread's stack
 *       (a loop inside a loop body, or a participant task run by a join that
 *       helps).  That frame's private grains cannot run until we return, so
 *       waiting could wait for ourselves.
 *    b. No grain has finished anywhere for FJ_LOOP_PATIENCE_NS and nothing is
 *       exposed: an owner is blocked, possibly on work under this frame on
 *       another thread's stack; stepping aside is always safe (argument
 *       below), and it can only cost balance, never correctness.
 *    The loop itself is finished when the caller has joined all participants.
 *
 * 4. Reduce, deterministically.  Each stretch of grains one participant runs
 *    from one range (an *episode*: its chunk, or one stolen range) is
 *    contiguous: [first grain, the grain where thieves took the rest).  It
 *    accumulates into its own record, starting from the identity.  At the end
 *    the records are sorted by first grain and combined left to right, so for
 *    an associative combine the result is the serial one, whatever the
 *    schedule.  Records come from one array allocated before the loop starts:
 *    one reserved per participant's own chunk, the rest handed out by a
 *    counter; a thief that finds them used up does not steal (3b's argument).
 *
 * 5. Huge ranges.  A slot word holds two grain numbers, so at most
 *    RANGE_MAX_GRAINS grains (2^32 - 1 on 64-bit machines) run at once;
 *    longer loops run as consecutive segments.  Index arithmetic is done in
 *    uint64_t offsets from `from`, so [INT64_MAX - 10, INT64_MAX) and
 *    [INT64_MIN, INT64_MIN + 10) never overflow.
 *
 * Termination and exactness, argued:
 * (i)   Every grain is at every moment in exactly one place: exposed in one
 *       slot, private to one owner, or run.  Moves between places are single
 *       CASes on a slot word (take, reclaim) or the owner's own stores into
 *       its empty slot (expose); range.h shows no two can claim the same
 *       grains, and a non-empty word value never reappears (no ABA).
 * (ii)  A private grain is run by its owner before the owner's range is
 *       finished: range_next hands out every grain below split, and split
 *       only drops by what is exposed.
 * (iii) An owner finishes a range only when its slot is empty (range_next
 *       returns false only after a reclaim found the slot empty or lost the
 *       CAS to a thief, which empties it).  So a participant that returns
 *       leaves nothing exposed in its own slot.
 * (iv)  Participant k's initial chunk is exposed in slot k until taken, and
 *       participant k, when it runs, first takes whatever its slot exposes.
 *       The caller joins every participant, so every participant runs.
 * (v)   By (iii) and (iv), once every participant has returned every slot is
 *       empty and nobody holds private grains, so by (i) every grain has run,
 *       each exactly once.  `done` then equals the length, which is asserted.
 * (vi)  No participant waits forever: it waits only with no loop frame below
 *       it on its thread (3a) and only while grains keep finishing somewhere
 *       (3b); each grain is finite, and by (i) there are finitely many.
 * So: 1. every index is visited exactly once; 2. the loop returns; 3. all
 * body writes happen-before it returns (each participant's task join is an
 * acquire of its writes; participant 0 runs on the caller's thread).
 */
#include <assert.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../include/fj.h"
#include "error.h"
#include "profile.h"
#include "range.h"
#include "worker.h"

/* The loops' tunables (FJ_LOOP_*) are in config.h. */

enum loop_kind { LOOP_RANGE, LOOP_EACH, LOOP_REDUCE };

/* A reduce partial for one episode: the grains [first, end) and their value. */
typedef struct reduce_record {
    uint64_t first, end;
    /* the accumulator follows, aligned for any type */
} reduce_record;

#define RECORD_HEADER ((sizeof(reduce_record) + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1))

/* What every participant of one loop shares.  Read-only after set-up except
 * the slots, `done` and `records_used`, each on its own cache line. */
typedef struct loop {
    int64_t from;
    uint64_t length;  /* indices in this segment */
    uint64_t grain;   /* indices per grain */
    uint64_t grains;  /* grains in this segment */
    unsigned participants;
    range_slot *slots;
    enum loop_kind kind;
    const char *call;  /* the public call, for the error detail */
    fj_range_fn range_body;
    fj_index_fn index_body;
    fj_reduce_fn reduce_body;
    void *ctx;
    /* reduce only */
    size_t value_size, record_stride, record_count;
    const void *identity;
    unsigned char *records;
    profile_loop profile;  /* the profiler's view: a tree of grains (profile.c, 8a) */
    char pad_shared[FJ_CACHE_LINE];
    atomic_word done;  /* indices run so far: the termination count */
    char pad_done[FJ_CACHE_LINE];
    atomic_word records_used;  /* reduce records handed out beyond the reserved ones */
    char pad_records[FJ_CACHE_LINE];
} loop;

/* A participant's frame, linked per thread: a participant that finds a frame
 * below it must not wait for its loop to finish (overview, 3a). */
typedef struct loop_frame {
    struct loop_frame *below;
} loop_frame;

static __thread loop_frame *loop_innermost_frame;

/* ---- grains and episodes ---- */

static uint64_t grain_offset(const loop *l, uint64_t grain)
{
    return grain == l->grains ? l->length : grain * l->grain;
}

static int64_t index_at(const loop *l, uint64_t offset) { return (int64_t)((uint64_t)l->from + offset); }

static reduce_record *record_at(const loop *l, size_t i)
{
    return (reduce_record *)(void *)(l->records + i * l->record_stride);
}

static void *record_value(reduce_record *r) { return (char *)r + RECORD_HEADER; }

static void run_grain(const loop *l, uint64_t grain, reduce_record *record)
{
    uint64_t lo = grain_offset(l, grain), hi = grain_offset(l, grain + 1);
    switch (l->kind) {
    case LOOP_RANGE:
        l->range_body(index_at(l, lo), index_at(l, hi), l->ctx);
        break;
    case LOOP_EACH:
        for (uint64_t i = lo; i < hi; i++)
            l->index_body(index_at(l, i), l->ctx);
        break;
    case LOOP_REDUCE:
        l->reduce_body(index_at(l, lo), index_at(l, hi), record_value(record), l->ctx);
        break;
    }
}

/* Works the range [lo, hi) in participant `me`'s slot until it is finished,
 * then adds the indices run here to the shared count. */
static void run_episode(loop *l, unsigned me, uint64_t lo, uint64_t hi, reduce_record *record)
{
    if (record) {
        record->first = lo;
        memcpy(record_value(record), l->identity, l->value_size);
    }
    range_owner owner;
    range_start(&owner, &l->slots[me], lo, hi);
    uint64_t grain;
    fj_worker *w = fj__self;
    while (range_next(&owner, &grain)) {
        if (w && HOOKS_ON(w))
            hooks_loop(w, HOOK_GRAIN_BEGIN, &l->profile, 0);
        run_grain(l, grain, record);
        if (w && HOOKS_ON(w))
            hooks_loop(w, HOOK_GRAIN_END, &l->profile, 0);
    }
    if (record)
        record->end = owner.next;
    /* Atomicity only: the count is a hint for idle thieves and a final check;
     * what the caller reads is ordered by the joins (overview, (v)). */
    atomic_fetch_add_full(&l->done, grain_offset(l, owner.next) - grain_offset(l, lo));
}

/* ---- stealing and waiting ---- */

/* Takes the largest exposed range of another participant.  False if nothing
 * was exposed or every CAS lost its race. */
static bool steal_range(loop *l, unsigned me, uint64_t *lo, uint64_t *hi)
{
    for (;;) {
        unsigned victim = me;
        size_t best = 0;
        for (unsigned k = 1; k < l->participants; k++) {
            unsigned v = (me + k) % l->participants;
            size_t seen = atomic_load(&l->slots[v].exposed);
            if (range_word_length(seen) > range_word_length(best)) {
                best = seen;
                victim = v;
            }
        }
        if (victim == me)
            return false;
        if (range_take(&l->slots[victim], best, lo, hi))
            return true;
    }
}

/* A reduce record for the next stolen range, or NULL when they ran out (then
 * the participant steals no more). */
static reduce_record *record_for_steal(loop *l)
{
    size_t spare = l->record_count - l->participants;
    /* Atomicity only: each index is handed to one thief. */
    size_t i = atomic_fetch_add_full(&l->records_used, 1);
    return i < spare ? record_at(l, l->participants + i) : NULL;
}

static long long monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Signs of life: grains finished by any owner, plus indices counted done. */
static uint64_t loop_progress(const loop *l)
{
    uint64_t sum = atomic_load(&l->done);
    for (unsigned k = 0; k < l->participants; k++)
        sum += atomic_load(&l->slots[k].progress);
    return sum;
}

typedef struct idle_state {
    unsigned rounds;
    uint64_t last_progress;
    long long quiet_since;
} idle_state;

/* Called when nothing could be stolen.  True: try again; false: withdraw. */
static bool wait_for_work(loop *l, const loop_frame *frame, idle_state *waiting)
{
    /* Atomicity only, as in run_episode: a stale answer means one more round. */
    if (atomic_load(&l->done) == l->length)
        return false;
    if (frame->below)
        return false; /* overview 3a: we may be what the rest is waiting for */
    if (waiting->rounds++ < FJ_LOOP_SPIN_ROUNDS) {
        cpu_relax();
        return true;
    }
    uint64_t progress = loop_progress(l);
    long long now = monotonic_ns();
    if (progress != waiting->last_progress || waiting->quiet_since == 0) {
        waiting->last_progress = progress;
        waiting->quiet_since = now;
    } else if (now - waiting->quiet_since > FJ_LOOP_PATIENCE_NS) {
        return false; /* overview 3b */
    }
    sched_yield();
    return true;
}

/* ---- participants ---- */

/* Participant `me`: first its own chunk (if nobody stole it), then steal until
 * the loop is done or it should withdraw. */
static void participate(loop *l, unsigned me)
{
    loop_frame frame = {loop_innermost_frame};
    loop_innermost_frame = &frame;
    fj_worker *w = fj__self;
    if (w && HOOKS_ON(w))
        hooks_loop(w, HOOK_PARTICIPANT_BEGIN, &l->profile, 0);
    uint64_t lo, hi;
    range_slot *own = &l->slots[me];
    if (range_take(own, atomic_load(&own->exposed), &lo, &hi))
        run_episode(l, me, lo, hi, l->kind == LOOP_REDUCE ? record_at(l, me) : NULL);
    idle_state waiting = {0, 0, 0};
    reduce_record *record = NULL;
    for (;;) {
        if (l->kind == LOOP_REDUCE && !record && !(record = record_for_steal(l)))
            break; /* no record, no steal: the owners finish their ranges (overview 4) */
        if (steal_range(l, me, &lo, &hi)) {
            run_episode(l, me, lo, hi, record);
            record = NULL;
            waiting.rounds = 0;
            waiting.quiet_since = 0;
        } else if (!wait_for_work(l, &frame, &waiting)) {
            break;
        }
    }
    /* A record taken but unused keeps first == end == 0 and is skipped. */
    if (w && HOOKS_ON(w))
        hooks_loop(w, HOOK_PARTICIPANT_END, &l->profile, 0);
    loop_innermost_frame = frame.below;
}

typedef struct participant_task {
    fj_task task;
    loop *loop;
    unsigned first, end;  /* participants [first, end) are started from here */
} participant_task;

static void run_participants(loop *l, unsigned first, unsigned end);

static int participant_task_run(fj_task *t)
{
    participant_task *p = FJ_CONTAINER_OF(t, participant_task, task);
    run_participants(p->loop, p->first, p->end);
    return 0;
}

/* Recursive halving: fork the upper half of [first, end), keep the lower,
 * until one is left; run it; join the forked halves. */
static void run_participants(loop *l, unsigned first, unsigned end)
{
    participant_task forked[sizeof(unsigned) * 8];
    unsigned count = 0;
    fj_worker *w = fj__self;
    bool whole_loop = first == 0 && end == l->participants;
    if (whole_loop && w && HOOKS_ON(w))
        hooks_loop(w, HOOK_LOOP_BEGIN, &l->profile, l->grains);
    while (end - first > 1) {
        unsigned mid = first + (end - first) / 2;
        forked[count] = (participant_task){FJ_TASK_INIT(participant_task_run), l, mid, end};
        fj_fork(&forked[count].task); /* on a worker it cannot fail (runs inline at worst) */
        count++;
        end = mid;
    }
    participate(l, first);
    while (count > 0)
        fj_join(&forked[--count].task);
    if (whole_loop && w && HOOKS_ON(w))
        hooks_loop(w, HOOK_LOOP_END, &l->profile, 0);
}

/* ---- set-up ---- */

/* The pool a loop runs on: the caller's own when it is a worker and passed
 * NULL (or its own pool), else the one passed, else the common pool.  Returns
 * 0, or why the common pool could not be created. */
static int loop_pool(fj_pool *requested, fj_pool **pool)
{
    *pool = requested ? requested : fj_current_pool();
    return *pool ? 0 : fj__common_pool(pool);
}

/* Deals the grains out in P contiguous chunks, each exposed in its slot. */
static void deal_chunks(loop *l)
{
    uint64_t per = l->grains / l->participants, extra = l->grains % l->participants, lo = 0;
    for (unsigned k = 0; k < l->participants; k++) {
        uint64_t hi = lo + per + (k < extra);
        atomic_store(&l->slots[k].exposed, range_pack(lo, hi));
        atomic_store(&l->slots[k].progress, 0);
        lo = hi;
    }
}

static int run_on_pool(fj_pool *pool, loop *l)
{
    if (fj_current_pool() == pool) {
        run_participants(l, 0, l->participants);
        return 0;
    }
    participant_task root = {FJ_TASK_INIT(participant_task_run), l, 0, l->participants};
    return fj_pool_invoke(pool, &root.task);
}

static int compare_records(const void *a, const void *b)
{
    const reduce_record *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Folds the records that ran something, in index order, into `result`. */
static void combine_records(loop *l, void *result, fj_combine_fn combine)
{
    size_t used = 0;
    for (size_t i = 0; i < l->record_count; i++) {
        reduce_record *r = record_at(l, i);
        if (r->end > r->first) {
            if (used != i)
                memcpy(record_at(l, used), r, l->record_stride);
            used++;
        }
    }
    qsort(l->records, used, l->record_stride, compare_records);
    for (size_t i = 0; i < used; i++)
        combine(result, record_value(record_at(l, i)), l->ctx);
}

/* Runs one segment (at most RANGE_MAX_GRAINS grains) of a loop; for a reduce,
 * combines the segment's value into `result`. */
static int run_segment(fj_pool *pool, loop *l, void *result, fj_combine_fn combine)
{
    range_slot stack_slots[FJ_LOOP_STACK_SLOTS];
    unsigned workers = fj_pool_worker_count(pool);
    l->participants = (uint64_t)workers < l->grains ? workers : (unsigned)l->grains;
    l->slots = stack_slots;
    if (l->participants > FJ_LOOP_STACK_SLOTS) {
        l->slots = aligned_alloc(FJ_CACHE_LINE, sizeof(range_slot) * l->participants);
        if (!l->slots)
            return error_refuse(FJ_ENOMEM, "%s: the slots of %u workers not allocated", l->call, l->participants);
    }
    l->records = NULL;
    if (l->kind == LOOP_REDUCE) {
        l->record_stride = (RECORD_HEADER + l->value_size + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
        l->record_count = (size_t)l->participants * (1 + FJ_LOOP_STEAL_RECORDS_PER_WORKER);
        l->records = calloc(l->record_count, l->record_stride);
        if (!l->records) {
            if (l->slots != stack_slots)
                free(l->slots);
            /* The sizes that made the request, so the caller sees why. */
            return error_refuse(FJ_ENOMEM, "%s: size=%zu: %zu accumulators (%d per worker, %u workers) not allocated",
                                l->call, l->value_size, l->record_count, 1 + FJ_LOOP_STEAL_RECORDS_PER_WORKER,
                                l->participants);
        }
    }
    atomic_store(&l->done, 0);
    atomic_store(&l->records_used, 0);
    atomic_store(&l->profile.session, 0);
    deal_chunks(l);
    int rc = run_on_pool(pool, l);
    if (rc == FJ_ESHUTDOWN)
        (void)error_refuse(rc, "%s: the pool is shut down (fj_pool_shutdown) and takes no more loops", l->call);
    /* Every participant was joined (or the invoke failed before any ran). */
    assert(rc != 0 || atomic_load(&l->done) == l->length);
    if (rc == 0 && l->kind == LOOP_REDUCE)
        combine_records(l, result, combine);
    if (l->slots != stack_slots)
        free(l->slots);
    free(l->records);
    return rc;
}

/* Runs the loop described by `l` (body, kind, reduce fields) over [from, to). */
static int run_loop(fj_pool *pool, loop *l, int64_t from, int64_t to, int64_t grain, void *result,
                    fj_combine_fn combine)
{
    if (from > to)
        return error_refuse(FJ_EINVAL, "%s: from=%lld is above to=%lld (expected from <= to)", l->call,
                            (long long)from, (long long)to);
    if (grain < 0)
        return error_refuse(FJ_EINVAL, "%s: grain=%lld (expected 0: chosen by fj, or indices per grain >= 1)",
                            l->call, (long long)grain);
    int rc = loop_pool(pool, &pool);
    if (rc != 0)
        return rc;
    if (l->kind == LOOP_REDUCE)
        memcpy(result, l->identity, l->value_size);
    uint64_t length = (uint64_t)to - (uint64_t)from;
    if (length == 0)
        return 0;
    uint64_t auto_grains = (uint64_t)fj_pool_worker_count(pool) * FJ_LOOP_AUTO_GRAINS_PER_WORKER;
    uint64_t g = grain ? (uint64_t)grain : length / auto_grains;
    if (g == 0)
        g = 1;
    if (g > length)
        g = length;
    /* One segment of at most RANGE_MAX_GRAINS grains at a time (overview 5). */
    uint64_t grains = length / g + (length % g != 0);
    uint64_t segment = grains <= RANGE_MAX_GRAINS ? length : RANGE_MAX_GRAINS * g;
    for (uint64_t done = 0; done < length;) {
        uint64_t part = length - done < segment ? length - done : segment;
        l->from = (int64_t)((uint64_t)from + done);
        l->length = part;
        l->grain = g;
        l->grains = part / g + (part % g != 0);
        rc = run_segment(pool, l, result, combine);
        if (rc != 0)
            return rc;
        done += part;
    }
    return 0;
}

/* ---- the public calls ---- */

int fj_parallel_for(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_range_fn body, void *ctx)
{
    error_clear();
    if (!body)
        return error_null(__func__, "body");
    loop l = {.kind = LOOP_RANGE, .call = __func__, .range_body = body, .ctx = ctx};
    return run_loop(pool, &l, from, to, grain, NULL, NULL);
}

int fj_parallel_for_each(fj_pool *pool, int64_t from, int64_t to, int64_t grain, fj_index_fn body, void *ctx)
{
    error_clear();
    if (!body)
        return error_null(__func__, "body");
    loop l = {.kind = LOOP_EACH, .call = __func__, .index_body = body, .ctx = ctx};
    return run_loop(pool, &l, from, to, grain, NULL, NULL);
}

int fj_parallel_reduce(fj_pool *pool, int64_t from, int64_t to, int64_t grain, void *result, size_t size,
                       const void *identity, fj_reduce_fn body, fj_combine_fn combine, void *ctx)
{
    error_clear();
    const char *null = !result ? "result" : !identity ? "identity" : !body ? "body" : !combine ? "combine" : NULL;
    if (null)
        return error_null(__func__, null);
    if (size == 0)
        return error_refuse(FJ_EINVAL, "%s: size=0 (expected the accumulator's size in bytes)", __func__);
    loop l = {.kind = LOOP_REDUCE,
              .call = __func__,
              .reduce_body = body,
              .ctx = ctx,
              .value_size = size,
              .identity = identity};
    return run_loop(pool, &l, from, to, grain, result, combine);
}
