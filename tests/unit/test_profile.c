/* test_profile.c - the work/span profiler on programs whose work and span are
 * known: a balanced tree of equal leaves, a chain, fib, a parallel loop, the
 * Java tryUnfork idiom, and the burden a fork adds.
 *
 * Tolerance: none.  The cases install a deterministic clock (a per-thread
 * count of "units" that the program's bodies add to), so the profiler must
 * find exactly the work and span of the DAG, on any number of workers and
 * whatever the schedule: the expected values are computed by serial twins of
 * the programs, not written in.  With the real clock (last case) only what
 * holds whatever the timing is checked: 0 < span <= work. */
#include "check.h"

static __thread unsigned long long units;  /* this thread's work so far */

static unsigned long long unit_clock(void) { return units; }

static unsigned long long max_ull(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* Runs `root` on a fresh pool under a profile session with the unit clock
 * and a burden of BURDEN units per fork. */
enum { BURDEN = 50 };

static fj_profile profile_run(fj_task *root)
{
    CHECK_RC(0, fj_profile_set_clock(unit_clock));
    CHECK_RC(0, fj_profile_set_burden(BURDEN));
    CHECK_RC(0, fj_profile_start());  /* before the pool: arms its workers */
    fj_pool *pool = check_pool();
    CHECK_RC(0, fj_pool_invoke(pool, root));
    fj_profile result;
    CHECK_RC(0, fj_profile_stop(&result));
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_RC(0, fj_profile_set_clock(NULL));
    CHECK_RC(0, fj_profile_set_burden(-1));
    CHECK_EQ(0, result.clock_is_ns);
    CHECK_EQ(BURDEN, result.burden);
    return result;
}

/* ---- a balanced binary tree: internal nodes cost NODE, leaves LEAF ---- */

enum { NODE = 3, LEAF = 1000 };

typedef struct tree_task {
    fj_task task;
    int depth;
} tree_task;

static int tree(fj_task *t)
{
    tree_task *n = FJ_CONTAINER_OF(t, tree_task, task);
    if (n->depth == 0) {
        units += LEAF;
        return 0;
    }
    units += NODE;
    tree_task left = {FJ_TASK_INIT(tree), n->depth - 1};
    tree_task right = {FJ_TASK_INIT(tree), n->depth - 1};
    fj_fork(&left.task);
    tree(&right.task);  /* a call: part of this task's strand */
    return fj_join(&left.task);
}

static unsigned long long tree_work(int depth) { return depth == 0 ? LEAF : NODE + 2 * tree_work(depth - 1); }
static unsigned long long tree_span(int depth) { return depth == 0 ? LEAF : NODE + tree_span(depth - 1); }
/* Each level's fork puts one burden on the chain through the left child. */
static unsigned long long tree_burdened(int depth) { return depth == 0 ? LEAF : NODE + BURDEN + tree_burdened(depth - 1); }
static unsigned long long tree_tasks(int depth) { return depth == 0 ? 1 : 2 * tree_tasks(depth - 1); }

static void balanced_tree_work_and_span(void)
{
    int depth = check_scale() > 1 ? 8 : 11;
    tree_task root = {FJ_TASK_INIT(tree), depth};
    fj_profile p = profile_run(&root.task);
    CHECK_EQ(tree_work(depth), p.work);
    CHECK_EQ(tree_span(depth), p.span);
    CHECK_EQ(tree_burdened(depth), p.burdened_span);
    CHECK_EQ(tree_tasks(depth), p.tasks);  /* the root and every left child */
    CHECK(p.parallelism > 1);
}

/* ---- a chain: each link does LINK units, then forks the next and joins it ---- */

enum { LINK = 7 };

typedef struct chain_task {
    fj_task task;
    int left;
} chain_task;

static int chain(fj_task *t)
{
    chain_task *c = FJ_CONTAINER_OF(t, chain_task, task);
    units += LINK;
    if (c->left == 0)
        return 0;
    chain_task next = {FJ_TASK_INIT(chain), c->left - 1};
    fj_fork(&next.task);
    int rc = fj_join(&next.task);
    units += LINK;  /* after the join: still on the one chain */
    return rc;
}

static void chain_has_no_parallelism(void)
{
    int links = 300;
    chain_task root = {FJ_TASK_INIT(chain), links};
    fj_profile p = profile_run(&root.task);
    unsigned long long expected = (unsigned long long)LINK * (2 * links + 1);
    CHECK_EQ(expected, p.work);
    CHECK_EQ(expected, p.span);
    CHECK_EQ(expected + (unsigned long long)BURDEN * links, p.burdened_span);
    CHECK_EQ(links + 1, p.tasks);
    CHECK(p.parallelism == 1.0);
}

/* ---- fib: one unit per call ---- */

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

static int fib(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    units += 1;
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib), f->n - 1, 0};
    fib_task b = {FJ_TASK_INIT(fib), f->n - 2, 0};
    fj_fork(&a.task);
    fib(&b.task);
    int rc = fj_join(&a.task);
    f->result = a.result + b.result;
    return rc;
}

/* The serial twins: calls made, and the longest chain (a forked and b called
 * after one unit, so the chain continues through the longer of the two). */
static unsigned long long fib_calls(int n) { return n < 2 ? 1 : 1 + fib_calls(n - 1) + fib_calls(n - 2); }
static unsigned long long fib_span(int n) { return n < 2 ? 1 : 1 + max_ull(fib_span(n - 1), fib_span(n - 2)); }
static unsigned long long fib_forks(int n) { return n < 2 ? 0 : 1 + fib_forks(n - 1) + fib_forks(n - 2); }
static unsigned long long fib_burdened(int n)
{
    return n < 2 ? 1 : 1 + max_ull(BURDEN + fib_burdened(n - 1), fib_burdened(n - 2));
}

static void fib_work_and_span(void)
{
    int n = check_scale() > 1 ? 15 : 20;
    fib_task root = {FJ_TASK_INIT(fib), n, 0};
    fj_profile p = profile_run(&root.task);
    CHECK_EQ(fib_calls(n), p.work);
    CHECK_EQ(fib_span(n), p.span);
    CHECK_EQ(fib_burdened(n), p.burdened_span);
    CHECK_EQ(1 + fib_forks(n), p.tasks);
}

/* ---- the same fib as a typed task: the profiler sees typed tasks too ---- */

FJ_TASK(long, typed_fib, int, n)
{
    units += 1;
    if (n < 2)
        return n;
    FJ_SPAWN(typed_fib, n - 1);
    long b = FJ_CALL(typed_fib, n - 2);
    return FJ_SYNC(typed_fib) + b;
}

typedef struct typed_root {
    fj_task task;
    int n;
    long result;
} typed_root;

static int typed_root_run(fj_task *t)
{
    typed_root *r = FJ_CONTAINER_OF(t, typed_root, task);
    r->result = FJ_RUN(NULL, typed_fib, r->n);  /* in place: part of the root's strand */
    return 0;
}

static void typed_fib_work_and_span(void)
{
    int n = check_scale() > 1 ? 15 : 20;
    typed_root root = {FJ_TASK_INIT(typed_root_run), n, 0};
    fj_profile p = profile_run(&root.task);
    CHECK_EQ(fib_calls(n), p.work);
    CHECK_EQ(fib_span(n), p.span);
    CHECK_EQ(fib_burdened(n), p.burdened_span);
    CHECK_EQ(1 + fib_forks(n), p.tasks);
}

/* Many short typed runs in the root's strand, each with steals: a thief that
 * finished a frame while its owner decided whether to wait for it once lost
 * the owner's join end, and the profiler charged nothing more to the root
 * (work short by whole runs, span stalled; 1-8 runs in 30 failed). */
enum { REPEATED_RUNS = 2000, REPEATED_N = 12 };

static int typed_runs_in_place(fj_task *t)
{
    (void)t;
    for (int i = 0; i < REPEATED_RUNS; i++)
        (void)FJ_RUN(NULL, typed_fib, REPEATED_N);
    return 0;
}

static void typed_runs_repeated_in_place_keep_exact_work_and_span(void)
{
    fj_task root = FJ_TASK_INIT(typed_runs_in_place);
    fj_profile p = profile_run(&root);
    CHECK_EQ(REPEATED_RUNS * fib_calls(REPEATED_N), p.work);
    CHECK_EQ(REPEATED_RUNS * fib_span(REPEATED_N), p.span);
    CHECK_EQ(1 + REPEATED_RUNS * fib_forks(REPEATED_N), p.tasks);
}

/* ---- a parallel loop of GRAINS grains: the tree of grains a cilk_for is ---- */

enum { GRAINS = 100, PER_INDEX = 5, GRAIN = 3, BEFORE = 11, AFTER = 13 };

/* Index i costs PER_INDEX * (1 + i % 7) units: grains of different lengths. */
static unsigned long long index_cost(int64_t i) { return PER_INDEX * (unsigned long long)(1 + i % 7); }

static void loop_body(int64_t lo, int64_t hi, void *ctx)
{
    (void)ctx;
    for (int64_t i = lo; i < hi; i++)
        units += index_cost(i);
}

static int loop_root(fj_task *t)
{
    (void)t;
    units += BEFORE;
    int rc = fj_parallel_for(NULL, 0, (int64_t)GRAINS * GRAIN, GRAIN, loop_body, NULL);
    units += AFTER;
    return rc;
}

static void loop_of_grains_work_and_span(void)
{
    unsigned long long work = 0, longest = 0;
    for (int64_t g = 0; g < GRAINS; g++) {
        unsigned long long grain = 0;
        for (int64_t i = g * GRAIN; i < (g + 1) * GRAIN; i++)
            grain += index_cost(i);
        work += grain;
        longest = max_ull(longest, grain);
    }
    fj_task root = FJ_TASK_INIT(loop_root);
    fj_profile p = profile_run(&root);
    CHECK_EQ(BEFORE + work + AFTER, p.work);  /* participants' own time is scheduling */
    CHECK_EQ(BEFORE + longest + AFTER, p.span);
    unsigned levels = 7;  /* ceil(log2(100)) spawns from the tree's root to a grain */
    CHECK_EQ(BEFORE + BURDEN * levels + longest + AFTER, p.burdened_span);
}

/* ---- Java's tryUnfork: fork b, run a, take b back and run it here ---- */

typedef struct unfork_task {
    fj_task task;
    int depth;
} unfork_task;

static int unfork_tree(fj_task *t)
{
    unfork_task *n = FJ_CONTAINER_OF(t, unfork_task, task);
    if (n->depth == 0) {
        units += LEAF;
        return 0;
    }
    units += NODE;
    unfork_task right = {FJ_TASK_INIT(unfork_tree), n->depth - 1};
    fj_fork(&right.task);
    unfork_task left = {FJ_TASK_INIT(unfork_tree), n->depth - 1};
    unfork_tree(&left.task);
    if (fj_task_try_unfork(&right.task))
        return unfork_tree(&right.task);  /* "compute()": a plain call */
    return fj_join(&right.task);
}

static void try_unfork_counts_as_the_fork(void)
{
    int depth = check_scale() > 1 ? 8 : 10;
    unfork_task root = {FJ_TASK_INIT(unfork_tree), depth};
    fj_profile p = profile_run(&root.task);
    CHECK_EQ(tree_work(depth), p.work);
    CHECK_EQ(tree_span(depth), p.span);
    CHECK_EQ(tree_burdened(depth), p.burdened_span);
}

/* ---- a region: two trees in series from outside the pool, then one alone ---- */

static void regions_add_in_series(void)
{
    CHECK_RC(0, fj_profile_set_clock(unit_clock));
    CHECK_RC(0, fj_profile_set_burden(0));
    CHECK_RC(0, fj_profile_start());
    fj_pool *pool = check_pool();
    int depth = 6;
    fj_profile_region both, second;
    CHECK_RC(0, fj_profile_region_begin(&both));
    tree_task first = {FJ_TASK_INIT(tree), depth};
    CHECK_RC(0, fj_pool_invoke(pool, &first.task));
    CHECK_RC(0, fj_profile_region_begin(&second));
    tree_task then = {FJ_TASK_INIT(tree), depth};
    CHECK_RC(0, fj_pool_invoke(pool, &then.task));
    fj_profile p, q, whole;
    CHECK_RC(0, fj_profile_region_end(&both, &p));
    CHECK_RC(0, fj_profile_region_end(&second, &q));
    CHECK_RC(0, fj_profile_stop(&whole));
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_RC(0, fj_profile_set_clock(NULL));
    CHECK_RC(0, fj_profile_set_burden(-1));
    CHECK_EQ(2 * tree_work(depth), p.work);
    CHECK_EQ(2 * tree_span(depth), p.span);  /* in series: the spans add */
    CHECK_EQ(tree_work(depth), q.work);
    CHECK_EQ(tree_span(depth), q.span);
    CHECK_EQ(2 * tree_span(depth), whole.span);
    CHECK_RC(FJ_EINVAL, fj_profile_region_end(&both, &p));  /* its session is closed */
}

/* The serial elision (FJ_WORKERS=1) takes another path through fork and join;
 * the DAG, and so the numbers, are the same. */
static void serial_elision_profiles_the_same(void)
{
    setenv("FJ_WORKERS", "1", 1);
    int depth = 8;
    tree_task root = {FJ_TASK_INIT(tree), depth};
    fj_profile p = profile_run(&root.task);
    CHECK_EQ(tree_work(depth), p.work);
    CHECK_EQ(tree_span(depth), p.span);
}

static void real_clock_is_consistent(void)
{
    CHECK_RC(0, fj_profile_start());
    fj_pool *pool = check_pool();
    fib_task root = {FJ_TASK_INIT(fib), 18, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    fj_profile p;
    CHECK_RC(0, fj_profile_stop(&p));
    CHECK_RC(0, fj_pool_destroy(pool));
    CHECK_EQ(1, p.clock_is_ns);
    CHECK(p.span > 0);
    CHECK(p.span <= p.work);
    CHECK(p.parallelism >= 1.0);
    CHECK_EQ(1 + fib_forks(18), p.tasks);
}

static void print_shows_bounds_up_to_64(void)
{
    fj_profile p = {.work = 1000000, .span = 1000, .tasks = 1, .parallelism = 1000.0, .clock_is_ns = 1};
    char text[4096] = {0};
    FILE *out = fmemopen(text, sizeof text - 1, "w");
    CHECK(out != NULL);
    CHECK_RC(0, fj_profile_print(&p, out));
    fclose(out);
    CHECK(strstr(text, "parallelism T1/Tinf = 1000.00") != NULL);
    CHECK(strstr(text, "\n         64 ") != NULL);
    CHECK(strstr(text, "60.15 .. 64.00") != NULL);  /* 1e6/(1e6/64 + 1e3) = 60.15; 1e6/max(1e6/64, 1e3) = 64 */
}

static void profile_api_misuse(void)
{
    fj_profile p;
    CHECK_RC(FJ_EINVAL, fj_profile_stop(&p));
    CHECK_RC(0, fj_profile_start());
    CHECK_RC(FJ_EBUSY, fj_profile_start());
    CHECK_RC(FJ_EBUSY, fj_profile_set_clock(unit_clock));
    CHECK_RC(0, fj_profile_stop(NULL));
    CHECK_RC(FJ_EINVAL, fj_profile_print(NULL, stdout));
    CHECK_RC(FJ_EINVAL, fj_profile_print(&p, NULL));
    CHECK_RC(FJ_EINVAL, fj_profile_set_burden(-2));
    CHECK_RC(FJ_EINVAL, fj_profile_region_begin(NULL));
    fj_profile_region r;
    CHECK_RC(FJ_EINVAL, fj_profile_region_begin(&r));  /* no session open */
}

/* A buffered stream whose writes fail (/dev/full, where the system has
 * one): the print functions say so, though the failure shows only when the
 * buffer is flushed. */
static void print_functions_report_failed_writes(void)
{
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        printf("skipped: no /dev/full\n");
        return;
    }
    fj_profile p;
    memset(&p, 0, sizeof p);
    CHECK_RC(FJ_ESYSTEM, fj_profile_print(&p, full));
    fclose(full);
    full = fopen("/dev/full", "w");
    CHECK(full != NULL);
    fj_pool *pool = check_pool();
    CHECK_RC(FJ_ESYSTEM, fj_pool_print_stats(pool, full));
    fj_pool_destroy(pool);
    fclose(full);
}

static const check_case cases[] = {
    {"print_functions_report_failed_writes", print_functions_report_failed_writes, CHECK_ONCE},
    {"balanced_tree_work_and_span", balanced_tree_work_and_span, CHECK_PER_WORKERS},
    {"chain_has_no_parallelism", chain_has_no_parallelism, CHECK_PER_WORKERS},
    {"fib_work_and_span", fib_work_and_span, CHECK_PER_WORKERS},
    {"typed_fib_work_and_span", typed_fib_work_and_span, CHECK_PER_WORKERS},
    {"typed_runs_repeated_in_place_keep_exact_work_and_span", typed_runs_repeated_in_place_keep_exact_work_and_span,
     CHECK_PER_WORKERS},
    {"loop_of_grains_work_and_span", loop_of_grains_work_and_span, CHECK_PER_WORKERS},
    {"try_unfork_counts_as_the_fork", try_unfork_counts_as_the_fork, CHECK_PER_WORKERS},
    {"regions_add_in_series", regions_add_in_series, CHECK_PER_WORKERS},
    {"serial_elision_profiles_the_same", serial_elision_profiles_the_same, CHECK_ONCE},
    {"real_clock_is_consistent", real_clock_is_consistent, CHECK_PER_WORKERS},
    {"print_shows_bounds_up_to_64", print_shows_bounds_up_to_64, CHECK_ONCE},
    {"profile_api_misuse", profile_api_misuse, CHECK_ONCE},
};

CHECK_MAIN(cases)
