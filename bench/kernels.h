/* kernels.h - the serial leaf code every benchmark driver shares.
 *
 * kernels.c is compiled once (gcc -O2) and linked into every C and C++
 * driver: serial C, fj, OpenMP under libgomp and libomp, oneTBB.  So a
 * program's leaves (the 2048-element sort, the 64x64 matmul block, the
 * N-queens board check, the UTS child hash) are the same machine code in every
 * system and only the runtime around them differs.
 *
 * The node code of fib and integrate is one line of arithmetic; it is given
 * here as static inline functions so that each driver's compiler sees the same
 * source (a call into another object would only add the same constant to every
 * system).  The serial versions of whole programs (kern_*_serial) are the
 * "serial" system of the tables: the same recursion, no runtime.
 */
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time and random numbers ---- */

/* Monotonic seconds. */
double kern_now(void);

/* splitmix64 (Steele, Lea, Flood 2014): one step of the generator, also used
 * as the UTS node hash. */
static inline uint64_t kern_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- fib: no cut-off; the serial twin of every driver's fib ---- */

long kern_fib_serial(int n);
/* The same recursion with one machine call per call (no recursive inlining, no
 * call turned into a loop): the reference of the table's fib-calls row. */
long kern_fib_calls(int n);

/* ---- nqueens (BOTS): boards are char arrays of queen columns per row ---- */

#define KERN_NQ_MAX 20

/* 1 if the first `n` queens of `board` do not attack each other (BOTS ok()). */
int kern_nq_ok(int n, const char *board);
long kern_nqueens_serial(int n);
/* Known solution count for n (1..KERN_NQ_MAX), or -1. */
long kern_nqueens_expected(int n);

/* ---- mergesort ---- */

/* Below this many elements a sort or merge is serial. */
#define KERN_SORT_CUTOFF 2048

/* Fills `a` with n pseudo-random 32-bit values from a fixed seed. */
void kern_sort_fill(uint32_t *a, size_t n);
/* Serial top-down mergesort of a[0..n) using tmp[0..n) as scratch. */
void kern_sort_leaf(uint32_t *a, uint32_t *tmp, size_t n);
/* Serial merge of sorted a[0..na) and b[0..nb) into out. */
void kern_merge_leaf(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, uint32_t *out);
/* First index i in sorted b[0..n) with b[i] >= key. */
size_t kern_lower_bound(const uint32_t *b, size_t n, uint32_t key);
/* The whole sort, serially, with the same recursion as the parallel drivers. */
void kern_sort_serial(uint32_t *a, uint32_t *tmp, size_t n);
/* 1 if a[0..n) is sorted and its sum and xor match those recorded by fill. */
int kern_sort_check(const uint32_t *a, size_t n);

/* ---- matmul: C += A * B, square, row-major with leading dimension ld ---- */

#define KERN_MM_BASE 64

void kern_mm_fill(double *a, double *b, double *c, int n);
/* The 64x64 block: C += A * B. */
void kern_mm_base(const double *a, const double *b, double *c, int ld);
void kern_mm_serial(const double *a, const double *b, double *c, int n, int ld);
/* Checks C == A*B with a random vector (C x vs A (B x)), relative error 1e-9. */
int kern_mm_check(const double *a, const double *b, const double *c, int n);

/* ---- integrate: adaptive quadrature of (x^2+1)x on [0, size] (jsr166) ---- */

#define KERN_QUAD_EPS 1.0e-13

static inline double kern_quad_f(double x) { return (x * x + 1.0) * x; }
double kern_integrate_serial(double lo, double hi);
int kern_integrate_check(double hi, double area);

/* ---- uts: binomial tree, T3-like (UTS, Olivier et al. 2006) ----
 * The root has `size` children; every other node has UTS_M children with
 * probability UTS_Q, else none (q*m = 0.999: expected subtree 1000 nodes, very
 * unbalanced).  A child's state is kern_uts_child(parent, i); the original
 * uses SHA-1, we use a few splitmix64 rounds (cheaper, still splittable and
 * deterministic in the tree shape, whatever order nodes are visited in). */
#define KERN_UTS_M 8
#define KERN_UTS_Q 0.124875
#define KERN_UTS_ROOT 39u

uint64_t kern_uts_child(uint64_t parent, int i);
/* Children of a non-root node with this state: 0 or KERN_UTS_M. */
int kern_uts_arity(uint64_t state);
long kern_uts_serial(int root_children);
/* Node count of the tree for `root_children`: a table, else a serial count. */
long kern_uts_expected(int root_children);

#ifdef __cplusplus
}
#endif

#endif
