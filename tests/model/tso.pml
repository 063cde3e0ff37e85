/* tso.pml - x86-TSO memory for the models (included by deque.pml and task.pml).
 *
 * Why: the runtime's fast paths rely on StoreLoad ordering that only a fence
 * gives (a store may sit in the CPU's store buffer while a later load of
 * another address is served from memory).  Sequentially consistent Promela
 * would hide exactly the races the fences are there for.  So every shared
 * variable lives in mem[], and each thread's stores go through a FIFO store
 * buffer of depth SB_DEPTH:
 *
 *   STORE(me, a, v)     a plain or release store (x86: mov): buffered; a
 *                       full buffer stalls the thread until one drains
 *   LOAD(me, a, r)      a plain or acquire load (x86: mov): the newest
 *                       buffered store of the thread to `a`, else memory
 *   FLUSH(me)           fence_full() (mfence) and every locked
 *                       instruction (CAS, fetch_add, mutex lock/unlock):
 *                       the thread's buffer drains before it goes on
 *   MEMBARRIER()        fence_heavy() (membarrier(PRIVATE_EXPEDITED),
 *                       runtime/fence.c): every thread of the process runs
 *                       a full barrier before the call returns, i.e. every
 *                       buffer drains
 *   compiler_barrier()  and fence_light() in asymmetric mode: nothing (the
 *                       program order of the model already is the compiled order)
 *
 * A process `memory` drains the oldest entry of any buffer at any time (the
 * hardware's own write-back).  Loads never reorder with loads and stores never
 * reorder with stores, as on x86.  The models number their threads 0..NT-1.
 *
 * The including model defines NT (threads), NADDR (shared words), SB_DEPTH,
 * and may define COMMIT_HOOK(a, v) (called when a store reaches memory), or
 * COMMIT_HOOK_P(p, a, v) when the check depends on the storing thread p.
 */
#ifndef COMMIT_HOOK
#define COMMIT_HOOK(a, v) skip
#endif
#ifndef COMMIT_HOOK_P
#define COMMIT_HOOK_P(p, a, v) COMMIT_HOOK(a, v)
#endif

byte mem[NADDR];
byte sb_a[NT * SB_DEPTH];  /* store buffers: address ... */
byte sb_v[NT * SB_DEPTH];  /* ... and value, oldest first */
byte sb_n[NT];             /* entries in each buffer */
hidden byte tso_i;         /* scratch, only inside d_step */
hidden byte tso_p;

/* The oldest store of thread p reaches memory. */
inline DRAIN1(p)
{
    COMMIT_HOOK_P(p, sb_a[p * SB_DEPTH], sb_v[p * SB_DEPTH]);
    mem[sb_a[p * SB_DEPTH]] = sb_v[p * SB_DEPTH];
    tso_i = 0;
    do
    :: tso_i + 1 < sb_n[p] ->
        sb_a[p * SB_DEPTH + tso_i] = sb_a[p * SB_DEPTH + tso_i + 1];
        sb_v[p * SB_DEPTH + tso_i] = sb_v[p * SB_DEPTH + tso_i + 1];
        tso_i++
    :: else -> break
    od;
    sb_n[p]--;
    sb_a[p * SB_DEPTH + sb_n[p]] = 0;  /* keep the state canonical */
    sb_v[p * SB_DEPTH + sb_n[p]] = 0;
    tso_i = 0
}

inline STORE(me, a, v)
{
    d_step {
        sb_n[me] < SB_DEPTH;  /* a full buffer stalls the store until memory drains one */
        sb_a[me * SB_DEPTH + sb_n[me]] = a;
        sb_v[me * SB_DEPTH + sb_n[me]] = v;
        sb_n[me]++
    }
}

/* The body of LOAD, for use inside a d_step of the model. */
inline LOAD_IN(me, a, r)
{
    r = mem[a];
    tso_i = 0;
    do
    :: tso_i < sb_n[me] ->
        if
        :: sb_a[me * SB_DEPTH + tso_i] == a -> r = sb_v[me * SB_DEPTH + tso_i]
        :: else
        fi;
        tso_i++
    :: else -> break
    od;
    tso_i = 0
}

inline LOAD(me, a, r) { d_step { LOAD_IN(me, a, r) } }

inline FLUSH_IN(me)
{
    do
    :: sb_n[me] > 0 -> DRAIN1(me)
    :: else -> break
    od;
    skip  /* a d_step may not end in a break */
}

inline FLUSH(me) { d_step { FLUSH_IN(me) } }

inline MEMBARRIER()
{
    d_step {
        tso_p = 0;
        do
        :: tso_p < NT -> FLUSH_IN(tso_p); tso_p++
        :: else -> break
        od;
        tso_p = 0
    }
}

/* The hardware writing back buffers, one entry at a time, in any order
 * across threads and FIFO within one (at most 4 threads). */
active proctype memory()
{
end_memory:
    do
    :: d_step { sb_n[0] > 0 -> DRAIN1(0) }
#if NT > 1
    :: d_step { sb_n[1] > 0 -> DRAIN1(1) }
#endif
#if NT > 2
    :: d_step { sb_n[2] > 0 -> DRAIN1(2) }
#endif
#if NT > 3
    :: d_step { sb_n[3] > 0 -> DRAIN1(3) }
#endif
    od
}
