/* config.h - every tunable of the runtime in one place.
 *
 * Each has a default, a one-line meaning and a compile-time check of its
 * constraint.  Those marked (env) can also be set per pool through fj_config
 * or the environment variable named in include/fj.h.
 */
#ifndef FJ_CONFIG_H
#define FJ_CONFIG_H

/* Largest pool we accept: beyond it creation fails with FJ_EINVAL, not a crash. */
#define FJ_MAX_WORKERS 1024
_Static_assert(FJ_MAX_WORKERS > 0 && FJ_MAX_WORKERS < 65535, "worker index must fit the 16-bit waiter field");

/* (env FJ_DEQUE_FRAMES) Frames of a worker's deque, reserved as address space
 * (64 bytes each) and made writable as the worker's spawns and forks reach
 * them (deque.c, point 5): the most one worker may have unsynced at once. */
#define FJ_DEQUE_FRAMES (1u << 20)
_Static_assert(FJ_DEQUE_FRAMES >= 64, "room for a useful recursion depth");
/* Bytes of a deque's range writable from the start (1023 frames and the
 * spare); a push that reaches their end doubles them (deque.c, point 5). */
#define FJ_DEQUE_COMMIT_FIRST (64u * 1024)
_Static_assert(FJ_DEQUE_COMMIT_FIRST >= 2 * 64, "room for a frame and the spare");

/* Most tasks one steal may take from a victim (it takes half of what it sees,
 * at most this).  A steal pays one fence_heavy (membarrier, tens of us on some
 * virtual machines), so taking several amortises it (deque.c, point 6). */
#define FJ_STEAL_BATCH_MAX 32
/* Pops an owner keeps paying a full fence for after it last saw a steal from
 * its deque (deque.c, point 7).  A fence costs ~10 ns, a membarrier it spares a
 * thief ~50 us on a VM: one saved barrier pays for thousands of fences. */
#define FJ_DEQUE_FENCED_POPS 4096
_Static_assert(FJ_STEAL_BATCH_MAX >= 1, "a steal takes at least one task");

/* (env) Rounds an idle worker spends scanning for work with a pause between. */
#define FJ_DEFAULT_SPIN_ROUNDS 64
/* (env) Rounds after spinning that end in sched_yield() before the worker parks. */
#define FJ_DEFAULT_YIELD_ROUNDS 16
/* (env) Victims tried per round (random victims, never the worker itself). */
#define FJ_DEFAULT_STEAL_ATTEMPTS 4
_Static_assert(FJ_DEFAULT_SPIN_ROUNDS >= 0 && FJ_DEFAULT_YIELD_ROUNDS >= 0, "rounds are counts");
_Static_assert(FJ_DEFAULT_STEAL_ATTEMPTS >= 1, "an idle round must try at least one victim");
/* (env) The most victims an idle round may try: four tries of each worker of
 * the largest pool.  More buys nothing, and a round of 2^31 tries held an
 * idle worker off its park (and fj_pool_destroy) for seconds. */
#define FJ_MAX_STEAL_ATTEMPTS (4 * FJ_MAX_WORKERS)

/* How deeply join may nest helping (running other tasks) on one worker's stack.
 * Past it a joiner runs nothing more and waits (spin, then park), so helping
 * can never overflow the worker's stack. */
#define FJ_HELP_DEPTH_MAX 48
/* Spins a joiner with nothing to help does before it parks (no yield: task.c, point 4). */
#define FJ_JOIN_SPIN_ROUNDS 128
/* How many frames below the one it waits for a typed sync looks at for the
 * thieves of its run's older frames (frame.c, point 2): the parent's other
 * spawns and many levels above, while an idle round of a wait in a deep
 * recursion reads at most 16 KiB of its own slots, not the whole deque. */
#define FJ_LEAPFROG_OLDER_FRAMES 256
/* A parked joiner wakes for its task's completion, and also looks again for
 * work to leapfrog after this long, doubling up to the maximum: new work at
 * its thief does not wake it (task.c, point 4). */
#define FJ_JOIN_PARK_NS_MIN 50000L
#define FJ_JOIN_PARK_NS_MAX 2000000L

/* Worker thread stack when fj_config.stack_size is 0 (bytes). */
#define FJ_DEFAULT_STACK_SIZE (8u << 20)
_Static_assert(FJ_DEFAULT_STACK_SIZE >= (64u << 10), "helping nests frames; keep room for FJ_HELP_DEPTH_MAX of them");

/* ---- parallel loops (loop.c) ---- */

/* Grains per participant when the caller passes grain 0: enough that stealing
 * a quarter of a range balances skewed work, few enough that the per-grain
 * cost (a relaxed load and a counter store) stays invisible. */
#define FJ_LOOP_AUTO_GRAINS_PER_WORKER 256
/* Idle rounds an idle participant spins (pause) before it yields. */
#define FJ_LOOP_SPIN_ROUNDS 256
/* How long nothing may finish anywhere before an idle participant withdraws. */
#define FJ_LOOP_PATIENCE_NS 20000000LL
/* Reduce records beyond one per participant: successful steals per participant
 * that get their own partial result (more steals than that are not made). */
#define FJ_LOOP_STEAL_RECORDS_PER_WORKER 64
/* Participants whose slots live on the caller's stack (more: heap). */
#define FJ_LOOP_STACK_SLOTS 16
_Static_assert(FJ_LOOP_AUTO_GRAINS_PER_WORKER >= 1, "at least one grain each");
_Static_assert(FJ_LOOP_PATIENCE_NS > 0 && FJ_LOOP_SPIN_ROUNDS >= 0, "waiting is bounded, not skipped");
_Static_assert(FJ_LOOP_STEAL_RECORDS_PER_WORKER >= 1, "thieves need records to steal in a reduce");

/* Cache line assumed for padding between fields written by different threads. */
#define FJ_CACHE_LINE 64

#endif
