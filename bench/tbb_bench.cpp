// tbb_bench.cpp - the oneTBB driver: the same recursion as fj_bench.c with a
// tbb::task_group per fork/join node (run() forks, wait() joins); each run is
// one task_arena::execute with max_concurrency = workers.
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "harness.h"
#include "kernels.h"

extern "C" const char *const drv_system = "tbb";
static std::unique_ptr<tbb::task_arena> arena;

extern "C" int drv_init(int workers)
{
    arena.reset(new tbb::task_arena(workers));
    arena->initialize();
    return 0;
}

extern "C" void drv_fini(void) { arena.reset(); }

// ---- fib ----

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
    tbb::task_group g;
    g.run([&] { x = fib(n - 1); });
    y = fib(n - 2);
    g.wait();
    return x + y;
}

extern "C" long drv_fib(int n)
{
    long r = 0;
    arena->execute([&] { r = fib(n); });
    return r;
}

// ---- nqueens ----

static long nq_node(const char *parent, int n, int row, int col)
{
    char board[KERN_NQ_MAX];
    std::memcpy(board, parent, (size_t)row);
    board[row] = (char)col;
    if (!kern_nq_ok(row + 1, board))
        return 0;
    if (row + 1 == n)
        return 1;
    long counts[KERN_NQ_MAX];
    tbb::task_group g;
    for (int i = 0; i < n - 1; i++)
        g.run([&, i] { counts[i] = nq_node(board, n, row + 1, i); });
    counts[n - 1] = nq_node(board, n, row + 1, n - 1);
    g.wait();
    long count = 0;
    for (int i = 0; i < n; i++)
        count += counts[i];
    return count;
}

static long nq_root(int n)
{
    static const char empty[KERN_NQ_MAX] = {0};
    long counts[KERN_NQ_MAX];
    tbb::task_group g;
    for (int i = 0; i < n - 1; i++)
        g.run([&, i] { counts[i] = nq_node(empty, n, 0, i); });
    counts[n - 1] = nq_node(empty, n, 0, n - 1);
    g.wait();
    long count = 0;
    for (int i = 0; i < n; i++)
        count += counts[i];
    return count;
}

extern "C" long drv_nqueens(int n)
{
    long r = 0;
    arena->execute([&] { r = nq_root(n); });
    return r;
}

// ---- mergesort ----

static void pmerge(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t *out)
{
    if (na + nb <= KERN_SORT_CUTOFF) {
        kern_merge_leaf(a, na, b, nb, out);
        return;
    }
    if (na < nb) {
        std::swap(a, b);
        std::swap(na, nb);
    }
    size_t ma = na / 2, mb = kern_lower_bound(b, nb, a[ma]);
    tbb::task_group g;
    g.run([=] { pmerge(a, ma, b, mb, out); });
    pmerge(a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
    g.wait();
}

static void psort(uint32_t *src, uint32_t *dst, size_t n, int to_dst)
{
    if (n <= KERN_SORT_CUTOFF) {
        kern_sort_leaf(src, dst, n);
        if (to_dst)
            std::memcpy(dst, src, n * sizeof *src);
        return;
    }
    size_t h = n / 2;
    tbb::task_group g;
    g.run([=] { psort(src, dst, h, !to_dst); });
    psort(src + h, dst + h, n - h, !to_dst);
    g.wait();
    uint32_t *from = to_dst ? src : dst, *to = to_dst ? dst : src;
    pmerge(from, h, from + h, n - h, to);
}

extern "C" void drv_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    arena->execute([&] { psort(a, tmp, n, 0); });
}

// ---- matmul ----
// The products are run last first and C00 here: wait() runs the task_group's
// tasks newest first, so on one thread they run in the serial program's order,
// which the caches favour (docs/performance.md, finding 14).

static inline const double *quad(const double *m, int r, int c, int h, int ld)
{
    return m + (size_t)r * (size_t)h * (size_t)ld + (size_t)c * (size_t)h;
}

static void mm(const double *a, const double *b, double *c, int n, int ld)
{
    if (n <= KERN_MM_BASE) {
        kern_mm_base(a, b, c, ld);
        return;
    }
    int h = n / 2;
    auto cq = [&](int r, int col) { return const_cast<double *>(quad(c, r, col, h, ld)); };
    for (int k = 0; k < 2; k++) {
        tbb::task_group g;
        g.run([=] { mm(quad(a, 1, k, h, ld), quad(b, k, 1, h, ld), cq(1, 1), h, ld); });
        g.run([=] { mm(quad(a, 1, k, h, ld), quad(b, k, 0, h, ld), cq(1, 0), h, ld); });
        g.run([=] { mm(quad(a, 0, k, h, ld), quad(b, k, 1, h, ld), cq(0, 1), h, ld); });
        mm(quad(a, 0, k, h, ld), quad(b, k, 0, h, ld), cq(0, 0), h, ld);
        g.wait();
    }
}

extern "C" void drv_matmul(const double *a, const double *b, double *c, int n)
{
    arena->execute([&] { mm(a, b, c, n, n); });
}

// ---- integrate ----

static double quad_eval(double l, double r, double fl, double fr, double area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (std::fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    double left;
    tbb::task_group g;
    g.run([&] { left = quad_eval(l, c, fl, fc, al); });
    ar = quad_eval(c, r, fc, fr, ar);
    g.wait();
    return ar + left;
}

extern "C" double drv_integrate(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi), r = 0;
    arena->execute([&] { r = quad_eval(lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5); });
    return r;
}

// ---- uts ----

static long uts(uint64_t state, int n)
{
    long count = 1;
    if (n == 0)
        return count;
    long local[KERN_UTS_M];
    std::vector<long> big;
    long *counts = local;
    if (n > KERN_UTS_M) {
        big.resize((size_t)n);
        counts = big.data();
    }
    tbb::task_group g;
    for (int i = 0; i < n - 1; i++) {
        uint64_t s = kern_uts_child(state, i);
        int arity = kern_uts_arity(s);
        g.run([=] { counts[i] = uts(s, arity); });
    }
    uint64_t s = kern_uts_child(state, n - 1);
    counts[n - 1] = uts(s, kern_uts_arity(s));
    g.wait();
    for (int i = 0; i < n; i++)
        count += counts[i];
    return count;
}

extern "C" long drv_uts(int root_children)
{
    long r = 0;
    arena->execute([&] { r = uts(kern_mix64(KERN_UTS_ROOT), root_children); });
    return r;
}
