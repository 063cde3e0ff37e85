/* test_fast_path.c - what a fork and a join never do on their fast path:
 * allocate, on any worker count (fj.h: "a task never allocates"; fj_fork's
 * stack tasks likewise); and, with no other worker to interfere, lock or call
 * the runtime (fj.h: "A spawn and a sync that nobody interferes with take no
 * lock, ... no library call").
 *
 * tests/call_count.h counts the calls (through the linker's --wrap) inside a
 * window that a root task opens around its work; tests/cxx/test_join_fast_path.cpp
 * holds fj::join to the same promises. */
#include "call_count.h"
#include "fib_tasks.h"

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

static fj_pool *pool_without_hooks(void)
{
    clear_hook_switches();
    return check_pool();
}

static void typed_tasks_never_allocate(void)
{
    fj_pool *pool = pool_without_hooks();
    int n = fib_n();
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(fib_serial(n) + 4096, FJ_RUN(pool, typed_root, n));
        CHECK_EQ(0, count_of(&allocations));
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
        CHECK_EQ(0, count_of(&allocations));
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
    CHECK_EQ(0, count_of(&locks));
    fib_task root = {FJ_TASK_INIT(classic_root), n, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(fib_serial(n), root.result);
    CHECK_EQ(0, count_of(&locks));
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* One worker: the spawns and syncs of fib stay inline, for fib(n) and for
 * fib(n + 4) with 6.9 times its spawns (check_few_slow_calls says what may
 * call the runtime, once per run). */
static void one_worker_typed_spawns_and_syncs_do_not_call_the_runtime(void)
{
    check_workers = 1;
    fj_pool *pool = pool_without_hooks();
    for (int n = fib_n(); n <= fib_n() + 4; n += 4) {
        CHECK_EQ(fib_serial(n), FJ_RUN(pool, fib_root, n));
        check_few_slow_calls(pool, "typed fib", fib_serial(n + 1) - 1);
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
    CHECK(count_of(&allocations) > 0);
    CHECK(count_of(&locks) > 0);
    /* A run at a pool's start: its first spawn settles through the runtime. */
    CHECK(count_of(&slow_calls) > 0);
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
