/* test_fast_path.c - what a fork and a join never do on their fast path:
 * allocate, on any worker count (fj.h: "a task never allocates"; fj_fork's
 * stack tasks likewise); and, with no other worker to interfere, lock or call
 * the runtime (fj.h: "A spawn and a sync that nobody interferes with take no
 * lock, ... no library call").
 *
 * The calls are counted through the linker's --wrap (this program's LDFLAGS,
 * in the Makefile), which sends every reference to malloc and its kin, to the
 * mutex locks and to the slow halves of the inline spawn and sync (fj.h's
 * fj__spawn_*, fj__sync_slow, ...) from libfj.a and from this file to the
 * wrappers below; libc's own calls are not counted.  The count runs only
 * between window_open and window_close, which a root task calls around its
 * work on the worker that runs it: the pool's start, the hand-over of the
 * root and the return of its result are outside. */
#include <pthread.h>

#include "check.h"
#include "fib_tasks.h"

static int window;          /* 1 while the count runs */
static long allocations;    /* calls to the allocator in the window */
static long locks;          /* mutex locks taken or tried in the window */
static long slow_calls;     /* calls of the inline spawn and sync into the runtime */

static void window_open(void)
{
    __atomic_store_n(&allocations, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&locks, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slow_calls, 0, __ATOMIC_RELAXED);
    /* Release: the zeroed counts come before any count a thread makes after
     * seeing the window open. */
    __atomic_store_n(&window, 1, __ATOMIC_RELEASE);
}

/* The counts are read after the root's FJ_RUN returned, which orders every
 * worker's work in the window before the read. */
static void window_close(void) { __atomic_store_n(&window, 0, __ATOMIC_RELAXED); }

static void count(long *counter)
{
    if (__atomic_load_n(&window, __ATOMIC_ACQUIRE))
        __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

/* NAME's wrapper: counts the call in `counter`, then makes it. */
#define COUNTED(counter, RT, NAME, PARAMS, ARGS)                                               \
    RT __real_##NAME PARAMS;                                                                   \
    RT __wrap_##NAME PARAMS;                                                                   \
    RT __wrap_##NAME PARAMS                                                                    \
    {                                                                                          \
        count(&counter);                                                                       \
        return __real_##NAME ARGS;                                                             \
    }

COUNTED(allocations, void *, malloc, (size_t size), (size))
COUNTED(allocations, void *, calloc, (size_t n, size_t size), (n, size))
COUNTED(allocations, void *, realloc, (void *p, size_t size), (p, size))
COUNTED(allocations, void *, aligned_alloc, (size_t alignment, size_t size), (alignment, size))
COUNTED(allocations, int, posix_memalign, (void **p, size_t alignment, size_t size), (p, alignment, size))
COUNTED(locks, int, pthread_mutex_lock, (pthread_mutex_t * m), (m))
COUNTED(locks, int, pthread_mutex_trylock, (pthread_mutex_t * m), (m))
/* The slow halves the inline typed spawn and sync call (include/fj.h). */
COUNTED(slow_calls, fj_frame *, fj__spawn_settle, (fj_worker * w, fj_frame *top), (w, top))
COUNTED(slow_calls, fj_frame *, fj__spawn_guarded, (fj_worker * w, fj_frame *top), (w, top))
COUNTED(slow_calls, void, fj__spawn_slow, (fj_worker * w), (w))
COUNTED(slow_calls, void, fj__spawn_wake, (fj_worker * w), (w))
COUNTED(slow_calls, fj_frame *, fj__sync_slow, (fj_worker * w, fj_frame *mine, fj_frame_fn run), (w, mine, run))
COUNTED(slow_calls, void, fj__frame_publish, (fj_worker * w, fj_frame *frame), (w, frame))
COUNTED(slow_calls, void, fj__unsynced, (fj_worker * w, fj_frame *entry_top, const char *task, int fatal),
        (w, entry_top, task, fatal))

/* ---- typed tasks ---- */

/* Eight children spawned, then synced newest first: the deque 8 deep per level. */
FJ_TASK(long, wide, int, depth)
{
    if (depth == 0)
        return 1;
    for (int i = 0; i < 8; i++)
        FJ_SPAWN(wide, depth - 1);
    long leaves = 0;
    for (int i = 0; i < 8; i++)
        leaves += FJ_SYNC(wide);
    return leaves;
}

FJ_TASK(long, typed_root, int, n)
{
    window_open();
    long r = FJ_CALL(fib, n) + FJ_CALL(wide, 4);
    window_close();
    return r;
}

FJ_TASK(long, fib_root, int, n)
{
    window_open();
    long r = FJ_CALL(fib, n);
    window_close();
    return r;
}

/* ---- fj_task on the stack (fib_classic, the shape of examples/fib.c) ---- */

static int classic_root(fj_task *t)
{
    window_open();
    int rc = fib_classic(t);
    window_close();
    return rc;
}

static int fib_n(void) { return 22 - (check_scale() > 1) * 2; }

/* The promises hold with no hook on: clears the environment's switches that
 * send every spawn through the runtime (README: FJ_WORKERS=1 is the serial
 * elision, FJ_SERIAL, FJ_TRACE, FJ_PROFILE, FJ_STRESS), then starts a pool. */
static fj_pool *pool_without_hooks(void)
{
    static const char *const switches[] = {"FJ_WORKERS", "FJ_SERIAL", "FJ_TRACE", "FJ_PROFILE", "FJ_STRESS"};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        unsetenv(switches[i]);
    return check_pool();
}

static void typed_tasks_never_allocate(void)
{
    fj_pool *pool = pool_without_hooks();
    int n = fib_n();
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(fib_serial(n) + 4096, FJ_RUN(pool, typed_root, n));
        CHECK_EQ(0, allocations);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

static void stack_fj_tasks_never_allocate(void)
{
    fj_pool *pool = pool_without_hooks();
    int n = fib_n();
    for (int round = 0; round < 3; round++) {
        fib_task root = {FJ_TASK_INIT(classic_root), n, 0};
        CHECK_RC(0, fj_pool_invoke(pool, &root.task));
        CHECK_EQ(fib_serial(n), root.result);
        CHECK_EQ(0, allocations);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* One worker: nobody can steal, so no spawn, sync, fork or join locks. */
static void one_worker_forks_and_joins_take_no_lock(void)
{
    check_workers = 1;
    fj_pool *pool = pool_without_hooks();
    int n = fib_n();
    CHECK_EQ(fib_serial(n) + 4096, FJ_RUN(pool, typed_root, n));
    CHECK_EQ(0, locks);
    fib_task root = {FJ_TASK_INIT(classic_root), n, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(fib_serial(n), root.result);
    CHECK_EQ(0, locks);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* Whether the pool runs without membarrier (FJ_FENCE=full, or a kernel that
 * lacks it): its deque splits (runtime/deque.c, point 9), and a spawn
 * publishes through the runtime whenever nothing of the worker's is public. */
static int pool_splits_its_deque(const fj_pool *pool)
{
    char text[4096] = {0};
    FILE *out = fmemopen(text, sizeof text - 1, "w");
    CHECK(out != NULL);
    CHECK_RC(0, fj_pool_print_stats(pool, out));
    fclose(out);
    return strncmp(text, "fences: membarrier", strlen("fences: membarrier")) != 0;
}

/* One worker: the spawns and syncs of fib stay inline.  What calls the runtime
 * there comes once per run, whatever its size: the first spawn after the
 * hand-over (the runtime moved top: the spawn guard), and the first publish
 * after the worker parked between runs (its own wake hint, which it sets as
 * it parks and that call clears).  So at most 2, for fib(n) and for fib(n + 4)
 * with 6.9 times its spawns.  A split deque also publishes each time a sync
 * has taken back everything public, once or twice per level of the
 * recursion: still far from once per spawn. */
static void one_worker_typed_spawns_and_syncs_do_not_call_the_runtime(void)
{
    check_workers = 1;
    fj_pool *pool = pool_without_hooks();
    int split = pool_splits_its_deque(pool);
    for (int n = fib_n(); n <= fib_n() + 4; n += 4) {
        CHECK_EQ(fib_serial(n), FJ_RUN(pool, fib_root, n));
        long spawns = fib_serial(n + 1) - 1;
        if (!split && slow_calls > 2)
            CHECK_FAIL("fib(%d): %ld calls into the runtime for its %ld spawns", n, slow_calls, spawns);
        if (split && slow_calls * 100 >= spawns)
            CHECK_FAIL("fib(%d), split deque: %ld of its %ld spawns called the runtime", n, slow_calls, spawns);
    }
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The count itself works: what the runtime allocates and locks in the window
 * is seen (a pool started and stopped there), so the zeros above are not the
 * wrappers missing the library's calls. */
static void the_count_sees_the_runtime_allocate_and_lock(void)
{
    window_open();
    fj_pool *pool = pool_without_hooks();
    CHECK_EQ(fib_serial(10), FJ_RUN(pool, fib, 10));
    CHECK_RC(0, fj_pool_destroy(pool));
    window_close();
    CHECK(allocations > 0);
    CHECK(locks > 0);
    /* A run at a pool's start: its first spawn settles through the runtime. */
    CHECK(slow_calls > 0);
}

static const check_case cases[] = {
    {"typed_tasks_never_allocate", typed_tasks_never_allocate, CHECK_PER_WORKERS},
    {"stack_fj_tasks_never_allocate", stack_fj_tasks_never_allocate, CHECK_PER_WORKERS},
    {"one_worker_forks_and_joins_take_no_lock", one_worker_forks_and_joins_take_no_lock, CHECK_ONCE},
    {"one_worker_typed_spawns_and_syncs_do_not_call_the_runtime", one_worker_typed_spawns_and_syncs_do_not_call_the_runtime,
     CHECK_ONCE},
    {"the_count_sees_the_runtime_allocate_and_lock", the_count_sees_the_runtime_allocate_and_lock, CHECK_ONCE},
};
CHECK_MAIN(cases)
