/* fj_typed_bench.c - the "fj-typed" system: fj_bench.c's programs with fj's
 * typed tasks (FJ_TASK, FJ_SPAWN, FJ_CALL, FJ_SYNC), the way the README
 * teaches: the same recursion, the same order of forks and joins, the
 * arguments in the deque's frames instead of task structs on the stack.
 * Each run is one FJ_RUN from main(). */
#include <string.h>

#include "fj.h"
#include "fj_pool.h"
#include "harness.h"
#include "kernels.h"

const char *const drv_system = "fj-typed";
static fj_pool *pool;

int drv_init(int workers) { return bench_fj_pool_create(&pool, (unsigned)workers); }

void drv_fini(void) { bench_fj_pool_destroy(pool); }

/* ---- fib ---- */

FJ_TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    FJ_SPAWN(fib, n - 1);
    long b = FJ_CALL(fib, n - 2);
    long a = FJ_SYNC(fib);
    return a + b;
}

long drv_fib(int n) { return FJ_RUN(pool, fib, n); }

/* ---- nqueens: one task per placement, which copies the parent's board ---- */

FJ_TASK(long, nq, const char *, parent, int, n, int, row, int, col)
{
    char board[KERN_NQ_MAX];
    memcpy(board, parent, (size_t)row);
    board[row] = (char)col;
    if (!kern_nq_ok(row + 1, board))
        return 0;
    if (row + 1 == n)
        return 1;
    for (int i = 0; i < n - 1; i++)
        FJ_SPAWN(nq, board, n, row + 1, i);
    long count = FJ_CALL(nq, board, n, row + 1, n - 1);
    for (int i = n - 2; i >= 0; i--)
        count += FJ_SYNC(nq);
    return count;
}

FJ_TASK(long, nq_root, int, n)
{
    static const char empty[KERN_NQ_MAX];
    for (int i = 0; i < n - 1; i++)
        FJ_SPAWN(nq, empty, n, 0, i);
    long count = FJ_CALL(nq, empty, n, 0, n - 1);
    for (int i = n - 2; i >= 0; i--)
        count += FJ_SYNC(nq);
    return count;
}

long drv_nqueens(int n) { return FJ_RUN(pool, nq_root, n); }

/* ---- mergesort: sort halves into the other array, merge back in parallel ---- */

FJ_VOID_TASK(merge, const uint32_t *, a, const uint32_t *, b, size_t, na, size_t, nb, uint32_t *, out)
{
    if (na + nb <= KERN_SORT_CUTOFF) {
        kern_merge_leaf(a, na, b, nb, out);
        return;
    }
    if (na < nb) {
        const uint32_t *tp = a;
        a = b;
        b = tp;
        size_t tn = na;
        na = nb;
        nb = tn;
    }
    size_t ma = na / 2, mb = kern_lower_bound(b, nb, a[ma]);
    FJ_SPAWN(merge, a, b, ma, mb, out);
    FJ_CALL(merge, a + ma, b + mb, na - ma, nb - mb, out + ma + mb);
    FJ_SYNC(merge);
}

FJ_VOID_TASK(sort, uint32_t *, src, uint32_t *, dst, size_t, n, int, to_dst)
{
    if (n <= KERN_SORT_CUTOFF) {
        kern_sort_leaf(src, dst, n);
        if (to_dst)
            memcpy(dst, src, n * sizeof *src);
        return;
    }
    size_t h = n / 2;
    FJ_SPAWN(sort, src, dst, h, !to_dst);
    FJ_CALL(sort, src + h, dst + h, n - h, !to_dst);
    FJ_SYNC(sort);
    uint32_t *from = to_dst ? src : dst, *to = to_dst ? dst : src;
    FJ_CALL(merge, from, from + h, h, n - h, to);
}

void drv_sort(uint32_t *a, uint32_t *tmp, size_t n) { FJ_RUN(pool, sort, a, tmp, n, 0); }

/* ---- matmul: two rounds of four quadrant products ---- */
/* The products are forked last first and C00 is run here, so that on one
 * worker they run in the serial program's order (inline, then newest first),
 * which the caches favour (docs/performance.md, finding 14). */

#define QUAD(m, r, c, h, ld) ((m) + (size_t)(r) * (size_t)(h) * (size_t)(ld) + (size_t)(c) * (size_t)(h))

FJ_VOID_TASK(mm, const double *, a, const double *, b, double *, c, int, n, int, ld)
{
    if (n <= KERN_MM_BASE) {
        kern_mm_base(a, b, c, ld);
        return;
    }
    int h = n / 2;
    for (int k = 0; k < 2; k++) {
        FJ_SPAWN(mm, QUAD(a, 1, k, h, ld), QUAD(b, k, 1, h, ld), QUAD(c, 1, 1, h, ld), h, ld);
        FJ_SPAWN(mm, QUAD(a, 1, k, h, ld), QUAD(b, k, 0, h, ld), QUAD(c, 1, 0, h, ld), h, ld);
        FJ_SPAWN(mm, QUAD(a, 0, k, h, ld), QUAD(b, k, 1, h, ld), QUAD(c, 0, 1, h, ld), h, ld);
        FJ_CALL(mm, QUAD(a, 0, k, h, ld), QUAD(b, k, 0, h, ld), QUAD(c, 0, 0, h, ld), h, ld);
        FJ_SYNC(mm);
        FJ_SYNC(mm);
        FJ_SYNC(mm);
    }
}

void drv_matmul(const double *a, const double *b, double *c, int n) { FJ_RUN(pool, mm, a, b, c, n, n); }

/* ---- integrate: jsr166 Integrate's DQuad (fork left, recurse right) ---- */

FJ_TASK(double, quad, double, l, double, r, double, fl, double, fr, double, area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    FJ_SPAWN(quad, l, c, fl, fc, al);
    ar = FJ_CALL(quad, c, r, fc, fr, ar);
    return ar + FJ_SYNC(quad);
}

double drv_integrate(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi);
    return FJ_RUN(pool, quad, lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5);
}

/* ---- uts: every child a task ---- */

FJ_TASK(long, uts, uint64_t, state, int, arity)
{
    long count = 1;
    if (arity == 0)
        return count;
    for (int i = 0; i < arity - 1; i++) {
        uint64_t s = kern_uts_child(state, i);
        FJ_SPAWN(uts, s, kern_uts_arity(s));
    }
    uint64_t last = kern_uts_child(state, arity - 1);
    count += FJ_CALL(uts, last, kern_uts_arity(last));
    for (int i = arity - 2; i >= 0; i--)
        count += FJ_SYNC(uts);
    return count;
}

long drv_uts(int root_children) { return FJ_RUN(pool, uts, kern_mix64(KERN_UTS_ROOT), root_children); }
