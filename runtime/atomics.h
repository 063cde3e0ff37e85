/* atomics.h - the only door to libatomic_ops, and the runtime's named orderings.
 *
 * Every atomic the runtime performs goes through this file, so that a reader can
 * see in one place which orderings exist and what they cost.  We use only the
 * plain (relaxed), _acquire, _release and _full flavours of libatomic_ops.
 *
 *   operation                   x86-64 (TSO)             ARMv8
 *   --------------------------  -----------------------  -----------------------
 *   load / store (relaxed)      mov                      ldr / str
 *   load_acquire                mov (+compiler barrier)  ldar
 *   store_release               mov (+compiler barrier)  stlr
 *   cas_full / fetch_add_full   lock cmpxchg / lock xadd ldaxr/stlxr loop + dmb
 *   fence_full                  lock or on the stack     dmb ish
 *   fence_heavy (membarrier)    IPI to every CPU running one of our threads (~1-5 us)
 *
 * The asymmetric fence pair.  Two places need a StoreLoad fence on a hot path
 * (the owner's pop in deque.h, the fast-path completion in task_inline.h) whose
 * partner is on a cold path (a thief's steal, a joiner about to park).  On Linux,
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every thread of the process
 * execute a full barrier, so the hot side may use a compiler barrier only
 * (fence_light) while the cold side pays for membarrier (fence_heavy).  The
 * guarantee we rely on: for two threads A (store X; fence_light; load Y) and
 * B (store Y; fence_heavy; load X), at least one of the loads sees the other's
 * store.  When membarrier is unavailable (old kernel, seccomp, FJ_FENCE=full),
 * both sides fall back to a real full fence, chosen once at start-up.
 *
 * ThreadSanitizer does not model fences at all; it only checks that every
 * concurrent access is atomic, which all of ours are.  The orderings the fences
 * provide are argued in comments, and exercised by the stress tests on real
 * hardware, not by TSan.
 */
#ifndef FJ_ATOMICS_H
#define FJ_ATOMICS_H

#include <atomic_ops.h>
#include <stdbool.h>
#include <stddef.h>

typedef volatile AO_t atomic_word;         /* pointer-sized unsigned */
typedef volatile unsigned int atomic_u32;  /* futex-sized word */

/* ---- pointer-sized words ---- */
static inline size_t atomic_load(const atomic_word *p) { return AO_load(p); }
static inline size_t atomic_load_acquire(const atomic_word *p) { return AO_load_acquire(p); }
static inline void atomic_store(atomic_word *p, size_t v) { AO_store(p, v); }
static inline void atomic_store_release(atomic_word *p, size_t v) { AO_store_release(p, v); }
static inline size_t atomic_fetch_add_full(atomic_word *p, size_t v) { return AO_fetch_and_add_full(p, v); }
static inline size_t atomic_cas_full(atomic_word *p, size_t expect, size_t desired)
{
    return AO_fetch_compare_and_swap_full(p, expect, desired);  /* returns the old value */
}

/* ---- 32-bit words (futex words) ---- */
static inline unsigned atomic_load_u32(const atomic_u32 *p) { return AO_int_load((const volatile unsigned *)p); }
static inline unsigned atomic_load_acquire_u32(const atomic_u32 *p)
{
    return AO_int_load_acquire((const volatile unsigned *)p);
}
static inline void atomic_store_u32(atomic_u32 *p, unsigned v) { AO_int_store(p, v); }
static inline void atomic_store_release_u32(atomic_u32 *p, unsigned v) { AO_int_store_release(p, v); }
static inline unsigned atomic_cas_full_u32(atomic_u32 *p, unsigned expect, unsigned desired)
{
    return AO_int_fetch_compare_and_swap_full(p, expect, desired);  /* returns the old value */
}
static inline unsigned atomic_fetch_add_full_u32(atomic_u32 *p, unsigned v) { return AO_int_fetch_and_add_full(p, v); }

/* ---- 16-bit words (Java's task tag, fj_java.h) ---- */
static inline unsigned short atomic_load_acquire_u16(const volatile unsigned short *p) { return AO_short_load_acquire(p); }
static inline unsigned short atomic_cas_full_u16(volatile unsigned short *p, unsigned short expect,
                                                 unsigned short desired)
{
    return AO_short_fetch_compare_and_swap_full(p, expect, desired);  /* returns the old value */
}

/* ---- bytes: one writer per byte of a shared 32-bit word (see task.h) ---- */
static inline void atomic_store_release_u8(volatile unsigned char *p, unsigned char v) { AO_char_store_release(p, v); }

/* ---- counters read by other threads but written by one: no read-modify-write ---- */
#if defined(__SANITIZE_THREAD__)
#define FJ_COUNTER_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FJ_COUNTER_CHECKED 1
#endif
#endif
/* Adds v to a counter that only the calling thread writes and snapshots read
 * with atomic loads.  On x86-64 one add with a memory operand and no lock
 * prefix: an aligned 8-byte write, which a reader sees whole (as it sees
 * AO_store's), in one instruction where the volatile load, add and store take
 * three (the classic fork and inline join count one each: 142.8 -> 138.8
 * instructions per fork+join on fib, docs/performance.md).  Not atomic as a
 * whole, and it need not be: no other thread writes the word.  No ordering
 * either (relaxed, as AO_store's plain store was): a snapshot may see a count
 * late, never a torn one, and orders nothing by it.
 * ThreadSanitizer builds keep the load and store it can see. */
static inline void counter_add(atomic_word *p, size_t v)
{
#if defined(__x86_64__) && !defined(FJ_COUNTER_CHECKED)
    __asm__("addq %1, %0" : "+m"(*p) : "er"(v));
#else
    AO_store(p, AO_load(p) + v);
#endif
}

/* ---- fences ---- */
static inline void compiler_barrier(void) { AO_compiler_barrier(); }
/* A full fence.  On x86-64 a locked read-modify-write is one (loads and
 * stores are not reordered with locked instructions, Intel SDM vol. 3,
 * 8.2.2), and several times cheaper than mfence, which also orders the
 * non-temporal and write-combining stores we never make: on the 2-core AMD
 * EPYC VM 2.1 ns against 16.5 ns after two stores (docs/performance.md,
 * finding 12).  gcc's own seq_cst fence and Linux's smp_mb() make
 * the same choice; libatomic_ops's AO_nop_full is mfence.  The word is the
 * top of this thread's stack: or-ing 0 into it changes nothing, and it needs
 * no variable (a local would cost the callers of fence_light a stack frame). */
static inline void fence_full(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock; orq $0, (%%rsp)" : : : "memory", "cc");
#else
    AO_nop_full();
#endif
}

/* True once fence_init() found a working membarrier; read on hot paths, written once. */
extern bool fj_fence_asymmetric __attribute__((visibility("hidden")));

/* Chooses the fence mode; FJ_FENCE=full in the environment forces the symmetric one. */
void fence_init(void);

/* One line saying which mode fence_init chose and, for the symmetric one, why
 * (FJ_STATS prints it: without membarrier fine-grained work runs several times
 * slower, and a user in a sandbox has no other way to tell). */
const char *fence_mode_description(void);

/* The hot side of the asymmetric pair: a compiler barrier when membarrier works. */
static inline void fence_light(void)
{
    if (__builtin_expect(__atomic_load_n(&fj_fence_asymmetric, __ATOMIC_RELAXED), 1))
        compiler_barrier();
    else
        fence_full();
}

/* The cold side of the asymmetric pair: serialises every thread of the process. */
void fence_heavy(void);

/* A spin-wait hint to the CPU (pause, yield): the one every busy wait uses. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
