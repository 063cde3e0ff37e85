/* kernels.c - serial leaf code shared by every driver (see kernels.h). */
#include "kernels.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double kern_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- fib ---- */

long kern_fib_serial(int n) { return n < 2 ? n : kern_fib_serial(n - 1) + kern_fib_serial(n - 2); }

/* gcc -O2 inlines kern_fib_serial into itself several levels deep and turns one
 * of the two calls into a loop, so it makes about a third of the calls that the
 * source says.  This twin keeps one machine call per call, as every runtime's
 * fib must (a task body is called through a pointer). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, optimize("no-optimize-sibling-calls")))
#else
__attribute__((noinline))
#endif
long kern_fib_calls(int n)
{
    return n < 2 ? n : kern_fib_calls(n - 1) + kern_fib_calls(n - 2);
}

/* ---- nqueens ---- */

int kern_nq_ok(int n, const char *board)
{
    for (int i = 0; i < n; i++) {
        char p = board[i];
        for (int j = i + 1; j < n; j++) {
            char q = board[j];
            if (q == p || q == p - (j - i) || q == p + (j - i))
                return 0;
        }
    }
    return 1;
}

static long nq_serial(int n, int row, const char *board)
{
    if (row == n)
        return 1;
    long count = 0;
    for (int i = 0; i < n; i++) {
        char b[KERN_NQ_MAX];
        memcpy(b, board, (size_t)row);
        b[row] = (char)i;
        if (kern_nq_ok(row + 1, b))
            count += nq_serial(n, row + 1, b);
    }
    return count;
}

long kern_nqueens_serial(int n)
{
    char board[KERN_NQ_MAX] = {0};
    return nq_serial(n, 0, board);
}

long kern_nqueens_expected(int n)
{
    static const long solutions[KERN_NQ_MAX + 1] = {1,     1,     0,      0,      2,       10,       4,
                                                    40,    92,    352,    724,    2680,    14200,    73712,
                                                    365596, 2279184, 14772512, 95815104, 666090624, 4968057848L,
                                                    39029188884L};
    return n >= 1 && n <= KERN_NQ_MAX ? solutions[n] : -1;
}

/* ---- mergesort ---- */

static uint64_t fill_sum, fill_xor;

void kern_sort_fill(uint32_t *a, size_t n)
{
    uint64_t s = 0x2545f4914f6cdd1dULL, sum = 0, x = 0;
    for (size_t i = 0; i < n; i++) {
        s += 0x9e3779b97f4a7c15ULL;
        a[i] = (uint32_t)(kern_mix64(s) >> 32);
        sum += a[i];
        x ^= a[i];
    }
    fill_sum = sum;
    fill_xor = x;
}

void kern_merge_leaf(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = b[j] < a[i] ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

size_t kern_lower_bound(const uint32_t *b, size_t n, uint32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sorts src[0..n); the result lands in dst if to_dst, else in src. */
static void sort_pingpong(uint32_t *src, uint32_t *dst, size_t n, int to_dst)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            uint32_t v = src[i];
            size_t j = i;
            while (j > 0 && src[j - 1] > v) {
                src[j] = src[j - 1];
                j--;
            }
            src[j] = v;
        }
        if (to_dst)
            memcpy(dst, src, n * sizeof *src);
        return;
    }
    size_t h = n / 2;
    sort_pingpong(src, dst, h, !to_dst);
    sort_pingpong(src + h, dst + h, n - h, !to_dst);
    if (to_dst)
        kern_merge_leaf(src, h, src + h, n - h, dst);
    else
        kern_merge_leaf(dst, h, dst + h, n - h, src);
}

void kern_sort_leaf(uint32_t *a, uint32_t *tmp, size_t n) { sort_pingpong(a, tmp, n, 0); }

/* The parallel drivers' recursion, run serially: halves sorted into the other
 * array, then merged back by splitting the larger run at its middle. */
static void merge_serial(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t *out)
{
    if (na + nb <= KERN_SORT_CUTOFF) {
        kern_merge_leaf(a, na, b, nb, out);
        return;
    }
    if (na < nb) {
        const uint32_t *t = a;
        a = b;
        b = t;
        size_t tn = na;
        na = nb;
        nb = tn;
    }
    size_t ma = na / 2, mb = kern_lower_bound(b, nb, a[ma]);
    merge_serial(a, ma, b, mb, out);
    merge_serial(a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
}

static void sort_serial(uint32_t *src, uint32_t *dst, size_t n, int to_dst)
{
    if (n <= KERN_SORT_CUTOFF) {
        kern_sort_leaf(src, dst, n);
        if (to_dst)
            memcpy(dst, src, n * sizeof *src);
        return;
    }
    size_t h = n / 2;
    sort_serial(src, dst, h, !to_dst);
    sort_serial(src + h, dst + h, n - h, !to_dst);
    if (to_dst)
        merge_serial(src, h, src + h, n - h, dst);
    else
        merge_serial(dst, h, dst + h, n - h, src);
}

void kern_sort_serial(uint32_t *a, uint32_t *tmp, size_t n) { sort_serial(a, tmp, n, 0); }

int kern_sort_check(const uint32_t *a, size_t n)
{
    uint64_t sum = 0, x = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            return 0;
        sum += a[i];
        x ^= a[i];
    }
    return sum == fill_sum && x == fill_xor;
}

/* ---- matmul ---- */

void kern_mm_fill(double *a, double *b, double *c, int n)
{
    uint64_t s = 12345;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
        s += 0x9e3779b97f4a7c15ULL;
        a[i] = (double)(kern_mix64(s) >> 11) * 0x1.0p-52 - 1.0;
        s += 0x9e3779b97f4a7c15ULL;
        b[i] = (double)(kern_mix64(s) >> 11) * 0x1.0p-52 - 1.0;
        c[i] = 0.0;
    }
}

void kern_mm_base(const double *a, const double *b, double *c, int ld)
{
    for (int i = 0; i < KERN_MM_BASE; i++) {
        double *ci = c + (size_t)i * (size_t)ld;
        for (int k = 0; k < KERN_MM_BASE; k++) {
            double aik = a[(size_t)i * (size_t)ld + (size_t)k];
            const double *bk = b + (size_t)k * (size_t)ld;
            for (int j = 0; j < KERN_MM_BASE; j++)
                ci[j] += aik * bk[j];
        }
    }
}

/* Quadrant (r, c) of an n x n block with leading dimension ld. */
#define QUAD(m, r, c, h, ld) ((m) + (size_t)(r) * (size_t)(h) * (size_t)(ld) + (size_t)(c) * (size_t)(h))

void kern_mm_serial(const double *a, const double *b, double *c, int n, int ld)
{
    if (n <= KERN_MM_BASE) {
        kern_mm_base(a, b, c, ld);
        return;
    }
    int h = n / 2;
    /* Two rounds of four independent products (the parallel drivers run each
     * round's four at once): C_ij += A_i0 B_0j, then C_ij += A_i1 B_1j. */
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                kern_mm_serial(QUAD(a, i, k, h, ld), QUAD(b, k, j, h, ld), QUAD(c, i, j, h, ld), h, ld);
}

int kern_mm_check(const double *a, const double *b, const double *c, int n)
{
    double *x = malloc(sizeof(double) * (size_t)n * 3);
    if (!x)
        return 0;
    double *bx = x + n, *abx = x + 2 * n;
    for (int i = 0; i < n; i++)
        x[i] = (double)(kern_mix64((uint64_t)i + 77) >> 11) * 0x1.0p-53;
    double worst = 0.0, scale = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += b[(size_t)i * (size_t)n + (size_t)j] * x[j];
        bx[i] = s;
    }
    for (int i = 0; i < n; i++) {
        double s = 0.0, cx = 0.0;
        for (int j = 0; j < n; j++) {
            s += a[(size_t)i * (size_t)n + (size_t)j] * bx[j];
            cx += c[(size_t)i * (size_t)n + (size_t)j] * x[j];
        }
        abx[i] = s;
        worst = fmax(worst, fabs(s - cx));
        scale = fmax(scale, fabs(s));
    }
    free(x);
    return worst <= 1e-9 * (scale > 1.0 ? scale : 1.0);
}

/* ---- integrate ---- */

static double quad_serial(double l, double r, double fl, double fr, double area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    return quad_serial(c, r, fc, fr, ar) + quad_serial(l, c, fl, fc, al);
}

double kern_integrate_serial(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi);
    return quad_serial(lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5);
}

int kern_integrate_check(double hi, double area)
{
    double exact = hi * hi * hi * hi / 4.0 + hi * hi / 2.0;
    return fabs(area - exact) <= 1e-9 * exact;
}

/* ---- uts ---- */

uint64_t kern_uts_child(uint64_t parent, int i)
{
    /* Eight rounds stand in for SHA-1 only loosely (SHA-1 costs several times more);
     * what matters is that every system pays the same per node. */
    uint64_t s = parent ^ ((uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL);
    for (int r = 0; r < 8; r++)
        s = kern_mix64(s + 0x9e3779b97f4a7c15ULL);
    return s;
}

int kern_uts_arity(uint64_t state)
{
    /* Children with probability q: compare the top 53 bits as a uniform double. */
    double u = (double)(state >> 11) * 0x1.0p-53;
    return u < KERN_UTS_Q ? KERN_UTS_M : 0;
}

static long uts_serial(uint64_t state, int arity)
{
    long count = 1;
    for (int i = 0; i < arity; i++) {
        uint64_t child = kern_uts_child(state, i);
        count += uts_serial(child, kern_uts_arity(child));
    }
    return count;
}

long kern_uts_serial(int root_children) { return uts_serial(kern_mix64(KERN_UTS_ROOT), root_children); }

long kern_uts_expected(int root_children)
{
    static const struct {
        int size;
        long nodes;
    } known[] = {{0, 1}, {500, 370517}, {2000, 3970465}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].size == root_children)
            return known[i].nodes;
    return kern_uts_serial(root_children);
}
