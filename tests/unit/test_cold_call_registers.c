/* test_cold_call_registers.c - a typed spawn's calls into the runtime keep the
 * caller's values.  The inline spawn reaches the runtime through calls that
 * keep every register but the result (fj.h, "The cold calls of the inline
 * spawn": clang's preserve_most stubs, gcc's naked stubs on x86-64), so a
 * task's body may hold values across a spawn in registers an ordinary call
 * would clobber.
 *
 * The program is linked with --wrap for three slow halves of the spawn (the
 * Makefile's COLD_CALL_WRAP; the fourth, fj__spawn_settle, serves fj.hpp's
 * joins through a context and goes through a stub made by the same macro
 * as the others): each wrapper counts the call and fills
 * every register an ordinary call may clobber with garbage, before and after
 * the runtime's own function, so a register the stub failed to keep shows as
 * a wrong sum.  Each case steers the spawn of `keeps_values` into one of the
 * slow halves, checks that the wrapper ran, and compares the task's result
 * with the same sum computed without a spawn.  On x86-64 one more body, built
 * for AVX, holds a 256-bit vector across the spawn while the wrappers fill
 * the vector registers to their full width (where the CPU has AVX). */
#include <sched.h>

#include "check.h"

static long guardeds, slows, wakes;  /* calls of each slow half */

/* Every register an ordinary call may clobber, but RAX, filled with garbage:
 * the integer ones, the vector ones, and the x87 stack emptied (a value the
 * caller kept there reads back as a NaN). */
static void scribble(void) __attribute__((no_instrument_function));
static void scribble(void)
{
#if defined(__x86_64__)
    __asm__ volatile("mov $0x5c5c5c5c5c5c5c5c, %%rcx\n\tmov %%rcx, %%rdx\n\tmov %%rcx, %%rsi\n\t"
                     "mov %%rcx, %%rdi\n\tmov %%rcx, %%r8\n\tmov %%rcx, %%r9\n\tmov %%rcx, %%r10\n\t"
                     "mov %%rcx, %%r11\n\tmovq %%rcx, %%xmm0\n\tpshufd $0, %%xmm0, %%xmm0\n\t"
                     "movdqa %%xmm0, %%xmm1\n\tmovdqa %%xmm0, %%xmm2\n\tmovdqa %%xmm0, %%xmm3\n\t"
                     "movdqa %%xmm0, %%xmm4\n\tmovdqa %%xmm0, %%xmm5\n\tmovdqa %%xmm0, %%xmm6\n\t"
                     "movdqa %%xmm0, %%xmm7\n\tmovdqa %%xmm0, %%xmm8\n\tmovdqa %%xmm0, %%xmm9\n\t"
                     "movdqa %%xmm0, %%xmm10\n\tmovdqa %%xmm0, %%xmm11\n\tmovdqa %%xmm0, %%xmm12\n\t"
                     "movdqa %%xmm0, %%xmm13\n\tmovdqa %%xmm0, %%xmm14\n\tmovdqa %%xmm0, %%xmm15\n\t"
                     "fninit"
                     :
                     :
                     : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
                       "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
                       "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "memory");
#elif defined(__aarch64__)
    __asm__ volatile("mov x9, #0x5c5c\n\tmov x0, x9\n\tmov x1, x9\n\tmov x2, x9\n\tmov x3, x9\n\t"
                     "mov x4, x9\n\tmov x5, x9\n\tmov x6, x9\n\tmov x7, x9\n\tmov x8, x9\n\tmov x10, x9\n\t"
                     "mov x11, x9\n\tmov x12, x9\n\tmov x13, x9\n\tmov x14, x9\n\tmov x15, x9\n\t"
                     "dup v0.2d, x9\n\tdup v1.2d, x9\n\tdup v2.2d, x9\n\tdup v3.2d, x9\n\tdup v4.2d, x9\n\t"
                     "dup v5.2d, x9\n\tdup v6.2d, x9\n\tdup v7.2d, x9\n\tdup v16.2d, x9\n\tdup v31.2d, x9"
                     :
                     :
                     : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
                       "x15", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v31", "memory");
#endif
}

#if defined(__x86_64__)
#define COLD_CALL_AVX 1
static int cpu_has_avx;  /* set once, before any pool runs */

/* The upper halves of ymm0-15 too, which scribble's SSE moves leave alone. */
static void scribble_wide(void) __attribute__((target("avx"), no_instrument_function));
static void scribble_wide(void)
{
    __asm__ volatile("mov $0x5c5c5c5c5c5c5c5c, %%rcx\n\tvmovq %%rcx, %%xmm0\n\tvpshufd $0x44, %%xmm0, %%xmm0\n\t"
                     "vinsertf128 $1, %%xmm0, %%ymm0, %%ymm0\n\tvmovaps %%ymm0, %%ymm1\n\tvmovaps %%ymm0, %%ymm2\n\t"
                     "vmovaps %%ymm0, %%ymm3\n\tvmovaps %%ymm0, %%ymm4\n\tvmovaps %%ymm0, %%ymm5\n\t"
                     "vmovaps %%ymm0, %%ymm6\n\tvmovaps %%ymm0, %%ymm7\n\tvmovaps %%ymm0, %%ymm8\n\t"
                     "vmovaps %%ymm0, %%ymm9\n\tvmovaps %%ymm0, %%ymm10\n\tvmovaps %%ymm0, %%ymm11\n\t"
                     "vmovaps %%ymm0, %%ymm12\n\tvmovaps %%ymm0, %%ymm13\n\tvmovaps %%ymm0, %%ymm14\n\t"
                     "vmovaps %%ymm0, %%ymm15"
                     :
                     :
                     : "rcx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                       "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
}
#endif

/* What a wrapper does around the runtime's function: scribble, and on a CPU
 * with AVX the vector registers' upper halves as well. */
static void scribble_all(void) __attribute__((no_instrument_function));
static void scribble_all(void)
{
#ifdef COLD_CALL_AVX
    if (cpu_has_avx)
        scribble_wide();
#endif
    scribble();
}

#ifdef COLD_CALL_INSTRUMENTED
/* Built once more with -finstrument-functions (the Makefile's
 * test_cold_call_registers_instrumented): every function compiled so calls
 * these at its entry and exit, which is harmless where the compiler made the
 * calls, and clobbers what a stub must keep if the compiler put them into one
 * (fj.h switches the instrumentation off for its stubs). */
void __cyg_profile_func_enter(void *fn, void *site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *site) __attribute__((no_instrument_function));
void __cyg_profile_func_enter(void *fn, void *site)
{
    (void)fn;
    (void)site;
    scribble();
}
void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
    scribble();
}
#endif

/* Relaxed: a tally, read after the run that made the calls returned. */
static void tally(long *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED); }

fj_frame *__real_fj__spawn_guarded(fj_worker *w, fj_frame *top);
fj_frame *__wrap_fj__spawn_guarded(fj_worker *w, fj_frame *top);
fj_frame *__wrap_fj__spawn_guarded(fj_worker *w, fj_frame *top)
{
    tally(&guardeds);
    scribble_all();
    fj_frame *f = __real_fj__spawn_guarded(w, top);
    scribble_all();
    return f;
}

/* The wrapper of a slow half that takes the worker and returns nothing:
 * tallies the call in `counter` and makes it between two scribbles. */
#define SCRIBBLED_WORKER_CALL(counter, NAME)                                                   \
    void __real_##NAME(fj_worker *w);                                                          \
    void __wrap_##NAME(fj_worker *w);                                                          \
    void __wrap_##NAME(fj_worker *w)                                                           \
    {                                                                                          \
        tally(&counter);                                                                       \
        scribble_all();                                                                        \
        __real_##NAME(w);                                                                      \
        scribble_all();                                                                        \
    }

SCRIBBLED_WORKER_CALL(slows, fj__spawn_slow)
SCRIBBLED_WORKER_CALL(wakes, fj__spawn_wake)

/* ---- a body with more live values than callee-saved registers ---- */

FJ_TASK(long, leaf_value, long, x) { return x * 3 + 1; }

/* The inputs, read once each (volatile) before the spawn, so the compiler can
 * neither read them again after it nor compute them again from the seed. */
static volatile long inputs[12];
static volatile double float_inputs[2];
static volatile long double wide_input;

static void set_inputs(long seed)
{
    for (int i = 0; i < 12; i++)
        inputs[i] = seed * (i + 3) + i;
    float_inputs[0] = (double)seed * 0.5;
    float_inputs[1] = (double)seed + 0.25;
    wide_input = (long double)seed * 1.5L;
}

/* 0, read after the spawn: every value is still needed there (a volatile
 * read stays after the spawn's asm), so none is folded in before it. */
static volatile long salt;

/* Every value weighs differently, so a lost one or two swapped change it. */
#define WEIGH(a, b, c, d, e, f, g, h, i, j, k, m, x, y, z, s)                                          \
    ((a + s) * 1 + (b + s) * 2 + (c + s) * 3 + (d + s) * 4 + (e + s) * 5 + (f + s) * 6 + (g + s) * 7 + \
     (h + s) * 8 + (i + s) * 9 + (j + s) * 10 + (k + s) * 11 + (m + s) * 12 + (long)((x + s) * 4) +     \
     (long)((y + s) * 8) + (long)((z + s) * 2))

/* Twelve integers, two doubles and a long double live across the spawn. */
FJ_TASK(long, keeps_values, long, seed)
{
    long a = inputs[0], b = inputs[1], c = inputs[2], d = inputs[3], e = inputs[4], f = inputs[5];
    long g = inputs[6], h = inputs[7], i = inputs[8], j = inputs[9], k = inputs[10], m = inputs[11];
    double x = float_inputs[0], y = float_inputs[1];
    long double z = wide_input;
    FJ_SPAWN(leaf_value, seed);
    long s = salt;
    long sum = WEIGH(a, b, c, d, e, f, g, h, i, j, k, m, x, y, z, s);
    return sum + FJ_SYNC(leaf_value);
}

static long expected_for(long seed)
{
    long v[12];
    for (int i = 0; i < 12; i++)
        v[i] = seed * (i + 3) + i;
    double x = (double)seed * 0.5, y = (double)seed + 0.25;
    long double z = (long double)seed * 1.5L;
    return WEIGH(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], x, y, z, 0L) + seed * 3 +
           1;
}

static fj_pool *pool_of(unsigned workers)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = workers;
    fj_pool *pool = NULL;
    CHECK_RC(0, fj_pool_create(&pool, &config));
    return pool;
}

enum { SEEDS = 50 };

/* ---- the spawn guard: an fj_task forked under the typed task's copy ---- */

typedef struct {
    fj_task task;
    long value;
} small_task;

static int small_body(fj_task *t)
{
    ((small_task *)t)->value = 42;
    return 0;
}

FJ_TASK(long, forks_then_keeps, long, seed)
{
    small_task forked;
    fj_task_init(&forked.task, small_body);
    fj_fork(&forked.task);  /* lowers the spawn guard: the next typed spawn settles */
    long r = FJ_CALL(keeps_values, seed);
    fj_join(&forked.task);
    return r + forked.value;
}

static void values_survive_a_guarded_spawn(void)
{
    fj_pool *pool = pool_of(check_workers);
    for (long seed = 1; seed <= SEEDS; seed++) {
        set_inputs(seed);
        CHECK_EQ(expected_for(seed) + 42, FJ_RUN(pool, forks_then_keeps, seed));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    if (__atomic_load_n(&guardeds, __ATOMIC_RELAXED) < SEEDS)
        CHECK_FAIL("fj__spawn_guarded ran %ld times for %d guarded spawns", guardeds, SEEDS);
}

/* ---- a hook on (serial elision): every spawn takes the slow path ---- */

static void values_survive_a_spawn_with_a_hook_on(void)
{
    setenv("FJ_SERIAL", "1", 1);
    fj_pool *pool = pool_of(check_workers);
    for (long seed = 1; seed <= SEEDS; seed++) {
        set_inputs(seed);
        CHECK_EQ(expected_for(seed), FJ_RUN(pool, keeps_values, seed));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    unsetenv("FJ_SERIAL");
    if (__atomic_load_n(&slows, __ATOMIC_RELAXED) < SEEDS)
        CHECK_FAIL("fj__spawn_slow ran %ld times for %d spawns under serial elision", slows, SEEDS);
}

/* ---- a parked worker: the spawn wakes it ---- */

/* Waits until a worker other than the caller's is parked (its parks outnumber
 * its wake-ups): an idle worker parks once its spin ends, however long the
 * scheduler takes to let it get there. */
static void wait_for_a_parked_worker(const fj_pool *pool)
{
    int me = fj_current_worker_index();
    for (;;) {
        fj_worker_stats rows[2];
        CHECK_EQ(2, fj_pool_stats(pool, rows, 2, NULL));
        const fj_worker_stats *other = &rows[1 - me];
        if (other->parks > other->wakeups)
            return;
        sched_yield();
    }
}

FJ_TASK(long, waits_then_keeps, long, seed)
{
    wait_for_a_parked_worker(fj_current_pool());
    return FJ_CALL(keeps_values, seed);
}

/* A spawn wakes the parked worker only if the worker had set its hints when
 * the spawn tested them; one that parks a moment later finds the spawn's
 * frame itself.  So the runs go on, each checked, until a wake came. */
static void values_survive_a_spawn_that_wakes(void)
{
    enum { MOST_RUNS = 100000 };
    fj_pool *pool = pool_of(2);
    long seed = 1;
    for (; seed <= MOST_RUNS && (seed <= SEEDS || __atomic_load_n(&wakes, __ATOMIC_RELAXED) == 0); seed++) {
        set_inputs(seed);
        CHECK_EQ(expected_for(seed), FJ_RUN(pool, waits_then_keeps, seed));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    if (__atomic_load_n(&wakes, __ATOMIC_RELAXED) == 0)
        CHECK_FAIL("fj__spawn_wake never ran in %ld spawns beside a parked worker", seed - 1);
}

#ifdef COLD_CALL_AVX
/* ---- a 256-bit vector across the spawn, in a body built for AVX ---- */

typedef double wide_vector __attribute__((vector_size(32)));
static volatile wide_vector wide_vector_input;

#ifdef __clang__
#pragma clang attribute push(__attribute__((target("avx"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx")
#endif
/* The integers of keeps_values and four doubles in one AVX register, which
 * the compiler may keep across the spawn only where the call keeps it. */
FJ_TASK(long, keeps_a_vector, long, seed)
{
    long a = inputs[0], b = inputs[1], c = inputs[2], d = inputs[3], e = inputs[4], f = inputs[5];
    long g = inputs[6], h = inputs[7], i = inputs[8], j = inputs[9], k = inputs[10], m = inputs[11];
    wide_vector v = wide_vector_input;
    FJ_SPAWN(leaf_value, seed);
    long s = salt;
    wide_vector u = v * v;
    long sum = WEIGH(a, b, c, d, e, f, g, h, i, j, k, m, u[0], u[1], u[2] + u[3], s);
    return sum + FJ_SYNC(leaf_value);
}

FJ_TASK(long, forks_then_keeps_a_vector, long, seed)
{
    small_task forked;
    fj_task_init(&forked.task, small_body);
    fj_fork(&forked.task);  /* the next typed spawn settles through the guarded half */
    long r = FJ_CALL(keeps_a_vector, seed);
    fj_join(&forked.task);
    return r + forked.value;
}
#ifdef __clang__
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

static void a_vector_survives_a_guarded_spawn(void)
{
    if (!cpu_has_avx) {
        printf("    (this CPU has no AVX: the 256-bit case does not run)\n");
        return;
    }
    fj_pool *pool = pool_of(check_workers);
    long before = __atomic_load_n(&guardeds, __ATOMIC_RELAXED);
    for (long seed = 1; seed <= SEEDS; seed++) {
        set_inputs(seed);
        double x = (double)seed * 0.5, y = (double)seed + 0.25, z = (double)seed * 1.5, q = (double)seed - 2.0;
        wide_vector_input = (wide_vector){x, y, z, q};
        long v[12];
        for (int i = 0; i < 12; i++)
            v[i] = inputs[i];
        long expected = WEIGH(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], x * x, y * y,
                              z * z + q * q, 0L) +
                        seed * 3 + 1 + 42;
        CHECK_EQ(expected, FJ_RUN(pool, forks_then_keeps_a_vector, seed));
    }
    CHECK_RC(0, fj_pool_destroy(pool));
    long ran = __atomic_load_n(&guardeds, __ATOMIC_RELAXED) - before;
    if (ran < SEEDS)
        CHECK_FAIL("fj__spawn_guarded ran %ld times for %d guarded spawns", ran, SEEDS);
}

/* A constructor may run before the one that reads the CPU's features, so it
 * asks for them first. */
__attribute__((constructor)) static void find_out_about_avx(void)
{
    __builtin_cpu_init();
    cpu_has_avx = __builtin_cpu_supports("avx");
}
#endif

static const check_case cases[] = {
    {"values_survive_a_guarded_spawn", values_survive_a_guarded_spawn, CHECK_PER_WORKERS},
    {"values_survive_a_spawn_with_a_hook_on", values_survive_a_spawn_with_a_hook_on, CHECK_PER_WORKERS},
    {"values_survive_a_spawn_that_wakes", values_survive_a_spawn_that_wakes, CHECK_ONCE},
#ifdef COLD_CALL_AVX
    {"a_vector_survives_a_guarded_spawn", a_vector_survives_a_guarded_spawn, CHECK_PER_WORKERS},
#endif
};

CHECK_MAIN(cases)
