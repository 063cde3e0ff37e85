// fjxx_bench.cpp - the fj driver through the C++ face (include/fj.hpp): the
// same recursion as fj_bench.c and tbb_bench.cpp, written with lambdas.  Two
// ways to fork: fj::join for a binary split (fib, sort, merge, integrate:
// the lambda forked is the part fj_bench.c forks; matmul's four quadrants as
// a join of two joins), an fj::task_group where the count is dynamic
// (nqueens' n children, uts' arity), as tbb_bench.cpp does.
// Each run is one fj::pool::invoke from main(); the system column is "fj++".
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fj.hpp"
#include "harness.h"
#include "kernels.h"

extern "C" const char *const drv_system = "fj++";
static std::unique_ptr<fj::pool> pool;

extern "C" int drv_init(int workers)
{
    try {
        pool = std::make_unique<fj::pool>((unsigned)workers);
    } catch (const fj::error &e) {
        std::fprintf(stderr, "fj::pool: %s\n", e.what());
        return e.code();
    }
    return 0;
}

extern "C" void drv_fini(void)
{
    if (std::getenv("BENCH_FJ_STATS"))
        fj_pool_print_stats(pool->native_handle(), stderr);
    pool.reset();
}

// ---- fib: fj_bench.c's, with fj::join ----

static long fib(int n)
{
    if (n < 2)
        return n;
    // fj::join forks its second lambda: fib(n - 1), as fj_bench.c forks it.
    auto [b, a] = fj::join([n] { return fib(n - 2); }, [n] { return fib(n - 1); });
    return a + b;
}

extern "C" long drv_fib(int n)
{
    return pool->invoke([n] { return fib(n); });
}

// ---- nqueens: one task per placement, which copies the parent's board ----

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
    fj::task_group g;
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
    fj::task_group g;
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
    return pool->invoke([n] { return nq_root(n); });
}

// ---- mergesort: sort halves into the other array, merge back in parallel ----

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
    fj::join([=] { pmerge(a + ma, na - ma, b + mb, nb - mb, out + ma + mb); }, [=] { pmerge(a, ma, b, mb, out); });
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
    fj::join([=] { psort(src + h, dst + h, n - h, !to_dst); }, [=] { psort(src, dst, h, !to_dst); });
    uint32_t *from = to_dst ? src : dst, *to = to_dst ? dst : src;
    pmerge(from, h, from + h, n - h, to);
}

extern "C" void drv_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    pool->invoke([=] { psort(a, tmp, n, 0); });
}

// ---- matmul: two rounds of four quadrant products ----
// join runs its first lambda here and then the forked one, so on one worker the
// products run in the serial program's order, which the caches favour
// (docs/performance.md, finding 14).

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
    auto product = [=](int i, int k, int j) {
        mm(quad(a, i, k, h, ld), quad(b, k, j, h, ld), const_cast<double *>(quad(c, i, j, h, ld)), h, ld);
    };
    for (int k = 0; k < 2; k++)
        fj::join([&] { fj::join([&] { product(0, k, 0); }, [&] { product(0, k, 1); }); },
                 [&] { fj::join([&] { product(1, k, 0); }, [&] { product(1, k, 1); }); });
}

extern "C" void drv_matmul(const double *a, const double *b, double *c, int n)
{
    pool->invoke([=] { mm(a, b, c, n, n); });
}

// ---- integrate: jsr166 Integrate's DQuad (fork left, recurse right) ----

static double quad_eval(double l, double r, double fl, double fr, double area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (std::fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    auto [right, left] = fj::join([=] { return quad_eval(c, r, fc, fr, ar); },
                                  [=] { return quad_eval(l, c, fl, fc, al); });
    return right + left;
}

extern "C" double drv_integrate(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi);
    return pool->invoke([=] { return quad_eval(lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5); });
}

// ---- uts: every child a task ----

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
    fj::task_group g;
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
    return pool->invoke([=] { return uts(kern_mix64(KERN_UTS_ROOT), root_children); });
}
