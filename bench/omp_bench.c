/* omp_bench.c - the OpenMP driver, compiled twice: gcc -fopenmp (libgomp) and
 * clang -fopenmp=libomp (libomp).  The same recursion as fj_bench.c with
 * `#pragma omp task` for each fork and `taskwait` for the joins; each run is
 * one parallel region whose single thread starts the root. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "kernels.h"

#ifndef OMP_SYSTEM
#error "build with -DOMP_SYSTEM=\"libgomp\" or \"libomp\""
#endif
const char *const drv_system = OMP_SYSTEM;

int drv_init(int workers)
{
    omp_set_dynamic(0);
    omp_set_num_threads(workers);
    return 0;
}

void drv_fini(void) {}

/* ---- fib ---- */

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

long drv_fib(int n)
{
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(n);
    return r;
}

/* ---- nqueens (BOTS): one task per placement, copying the parent's board ---- */

static long nq_node(const char *parent, int n, int row, int col)
{
    char board[KERN_NQ_MAX];
    memcpy(board, parent, (size_t)row);
    board[row] = (char)col;
    if (!kern_nq_ok(row + 1, board))
        return 0;
    if (row + 1 == n)
        return 1;
    long counts[KERN_NQ_MAX];
    for (int i = 0; i < n - 1; i++) {
#pragma omp task shared(counts, board) firstprivate(i, n, row)
        counts[i] = nq_node(board, n, row + 1, i);
    }
    counts[n - 1] = nq_node(board, n, row + 1, n - 1);
#pragma omp taskwait
    long count = 0;
    for (int i = 0; i < n; i++)
        count += counts[i];
    return count;
}

static long nq_root(int n)
{
    static const char empty[KERN_NQ_MAX];
    long counts[KERN_NQ_MAX];
    for (int i = 0; i < n - 1; i++) {
#pragma omp task shared(counts) firstprivate(i, n)
        counts[i] = nq_node(empty, n, 0, i);
    }
    counts[n - 1] = nq_node(empty, n, 0, n - 1);
#pragma omp taskwait
    long count = 0;
    for (int i = 0; i < n; i++)
        count += counts[i];
    return count;
}

long drv_nqueens(int n)
{
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = nq_root(n);
    return r;
}

/* ---- mergesort ---- */

static void pmerge(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t *out)
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
#pragma omp task firstprivate(a, b, ma, mb, out)
    pmerge(a, ma, b, mb, out);
    pmerge(a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
#pragma omp taskwait
}

static void psort(uint32_t *src, uint32_t *dst, size_t n, int to_dst)
{
    if (n <= KERN_SORT_CUTOFF) {
        kern_sort_leaf(src, dst, n);
        if (to_dst)
            memcpy(dst, src, n * sizeof *src);
        return;
    }
    size_t h = n / 2;
#pragma omp task firstprivate(src, dst, h, to_dst)
    psort(src, dst, h, !to_dst);
    psort(src + h, dst + h, n - h, !to_dst);
#pragma omp taskwait
    uint32_t *from = to_dst ? src : dst, *to = to_dst ? dst : src;
    pmerge(from, h, from + h, n - h, to);
}

void drv_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
#pragma omp parallel
#pragma omp single
    psort(a, tmp, n, 0);
}

/* ---- matmul ---- */

#define QUAD(m, r, c, h, ld) ((m) + (size_t)(r) * (size_t)(h) * (size_t)(ld) + (size_t)(c) * (size_t)(h))

/* The order of a round's four products matters to the caches: run in the
 * serial program's order (C00, C01, C10, C11) matmul 1024 takes 0.36 s on one
 * thread here, in the reverse order 0.375 s.  So each system's source makes
 * its runtime run them, on one thread, in the serial order.  A deferred task
 * runs after the one run here, and a thread runs its deferred tasks newest
 * first (libgomp at its taskwait, libomp on a team of two or more, as fj and
 * oneTBB do), so the products are created last first and C00 runs here.
 * libomp on a team of one thread (a serialized team) runs each task as it is
 * created, so there they are created in the serial order. */
static int mm_reversed = 1;

static void mm(const double *a, const double *b, double *c, int n, int ld)
{
    if (n <= KERN_MM_BASE) {
        kern_mm_base(a, b, c, ld);
        return;
    }
    int h = n / 2;
    for (int k = 0; k < 2; k++) {
        for (int t = 0; t < 3; t++) {
            int q = mm_reversed ? 3 - t : t, i = q / 2, j = q % 2;
#pragma omp task firstprivate(a, b, c, h, ld, k, i, j)
            mm(QUAD(a, i, k, h, ld), QUAD(b, k, j, h, ld), QUAD(c, i, j, h, ld), h, ld);
        }
        int q = mm_reversed ? 0 : 3, i = q / 2, j = q % 2;
        mm(QUAD(a, i, k, h, ld), QUAD(b, k, j, h, ld), QUAD(c, i, j, h, ld), h, ld);
#pragma omp taskwait
    }
}

void drv_matmul(const double *a, const double *b, double *c, int n)
{
#pragma omp parallel
#pragma omp single
    {
#ifdef OMP_RUNS_TASKS_AT_CREATION_ON_ONE_THREAD
        /* A plain write read by every task: it comes before the first task
         * is generated, and OpenMP (5.0, implicit flushes) puts a release
         * flush where a task is generated and an acquire flush where it
         * starts, so every task's read sees it. */
        mm_reversed = omp_get_num_threads() > 1;
#endif
        mm(a, b, c, n, n);
    }
}

/* ---- integrate ---- */

static double quad(double l, double r, double fl, double fr, double area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    double left;
#pragma omp task shared(left) firstprivate(l, c, fl, fc, al)
    left = quad(l, c, fl, fc, al);
    ar = quad(c, r, fc, fr, ar);
#pragma omp taskwait
    return ar + left;
}

double drv_integrate(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi), r = 0;
#pragma omp parallel
#pragma omp single
    r = quad(lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5);
    return r;
}

/* ---- uts ---- */

static long uts(uint64_t state, int n)
{
    long count = 1;
    if (n == 0)
        return count;
    long local[KERN_UTS_M];
    long *counts = n <= KERN_UTS_M ? local : malloc(sizeof *counts * (size_t)n);
    if (!counts)
        abort();
    for (int i = 0; i < n - 1; i++) {
        uint64_t s = kern_uts_child(state, i);
        int arity = kern_uts_arity(s);
#pragma omp task shared(counts) firstprivate(i, s, arity)
        counts[i] = uts(s, arity);
    }
    uint64_t s = kern_uts_child(state, n - 1);
    counts[n - 1] = uts(s, kern_uts_arity(s));
#pragma omp taskwait
    for (int i = 0; i < n; i++)
        count += counts[i];
    if (counts != local)
        free(counts);
    return count;
}

long drv_uts(int root_children)
{
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = uts(kern_mix64(KERN_UTS_ROOT), root_children);
    return r;
}
