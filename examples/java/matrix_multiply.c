/* matrix_multiply.c - jsr166's ForkJoin benchmark MatrixMultiply: divide and
 * conquer by quadrants, ported from MatrixMultiply.java.
 *
 *      A      x      B
 *  A11 | A12     B11 | B12     A11*B11 | A11*B12     A12*B21 | A12*B22
 * |----+----| x |----+----| = |--------+--------| + |---------+-------|
 *  A21 | A22     B21 | B22     A21*B11 | A21*B12     A22*B21 | A22*B22
 *
 * compute() runs invokeAll of four Seq tasks; each Seq invokes its two
 * Multipliers one after the other (they add into the same quadrant of C).
 * Leaves of GRANULARITY x GRANULARITY use multiplyStride2 (from the Cilk
 * demos).  As in the original, A and B are all ones, so every element of C
 * must be n ("Answer should be all n's").
 *
 * Usage: matrix_multiply [--workers N] [--reps R] [N]  (N a power of two;
 * jsr166 defaults to 2048; ours is 128 for the test suite, the benchmark
 * passes 1024 so that a 2-core run stays short). */
#include "port_util.h"

enum { GRANULARITY = 16 };

typedef struct multiplier {
    FJ_RECURSIVE_ACTION;
    float **a;
    int a_row, a_col;
    float **b;
    int b_row, b_col;
    float **c;
    int c_row, c_col;
    int size;
} multiplier;

/* class Seq extends RecursiveAction { fst.invoke(); snd.invoke(); } */
typedef struct seq {
    FJ_RECURSIVE_ACTION;
    multiplier fst, snd;
} seq;

static int multiplier_compute(fj_task *task);

static multiplier new_multiplier(float **a, int a_row, int a_col, float **b, int b_row, int b_col, float **c, int c_row,
                                 int c_col, int size)
{
    return (multiplier){FJ_TASK_INIT(multiplier_compute), a, a_row, a_col, b, b_row, b_col, c, c_row, c_col, size};
}

static int seq_compute(fj_task *task)
{
    seq *this = FJ_SELF(task, seq);
    int rc = fj_invoke(&this->fst.task);
    return fj_first_error(rc, fj_invoke(&this->snd.task));
}

/* Steps two rows and columns at a time; adds into C (C starts zeroed). */
static void multiply_stride2(const multiplier *m)
{
    float **A = m->a, **B = m->b, **C = m->c;
    int size = m->size;
    for (int j = 0; j < size; j += 2) {
        for (int i = 0; i < size; i += 2) {
            const float *a0 = A[m->a_row + i] + m->a_col;
            const float *a1 = A[m->a_row + i + 1] + m->a_col;
            float s00 = 0.0F, s01 = 0.0F, s10 = 0.0F, s11 = 0.0F;
            for (int k = 0; k < size; k += 2) {
                const float *b0 = B[m->b_row + k] + m->b_col;
                s00 += a0[k] * b0[j];
                s10 += a1[k] * b0[j];
                s01 += a0[k] * b0[j + 1];
                s11 += a1[k] * b0[j + 1];
                const float *b1 = B[m->b_row + k + 1] + m->b_col;
                s00 += a0[k + 1] * b1[j];
                s10 += a1[k + 1] * b1[j];
                s01 += a0[k + 1] * b1[j + 1];
                s11 += a1[k + 1] * b1[j + 1];
            }
            C[m->c_row + i][m->c_col + j] += s00;
            C[m->c_row + i][m->c_col + j + 1] += s01;
            C[m->c_row + i + 1][m->c_col + j] += s10;
            C[m->c_row + i + 1][m->c_col + j + 1] += s11;
        }
    }
}

static int multiplier_compute(fj_task *task)
{
    multiplier *m = FJ_SELF(task, multiplier);
    if (m->size <= GRANULARITY) {
        multiply_stride2(m);
        return 0;
    }
    int h = m->size / 2;
    float **A = m->a, **B = m->b, **C = m->c;
    int ar = m->a_row, ac = m->a_col, br = m->b_row, bc = m->b_col, cr = m->c_row, cc = m->c_col;
    seq q[4] = {
        {FJ_TASK_INIT(seq_compute), new_multiplier(A, ar, ac, B, br, bc, C, cr, cc, h),
         new_multiplier(A, ar, ac + h, B, br + h, bc, C, cr, cc, h)},
        {FJ_TASK_INIT(seq_compute), new_multiplier(A, ar, ac, B, br, bc + h, C, cr, cc + h, h),
         new_multiplier(A, ar, ac + h, B, br + h, bc + h, C, cr, cc + h, h)},
        {FJ_TASK_INIT(seq_compute), new_multiplier(A, ar + h, ac, B, br, bc, C, cr + h, cc, h),
         new_multiplier(A, ar + h, ac + h, B, br + h, bc, C, cr + h, cc, h)},
        {FJ_TASK_INIT(seq_compute), new_multiplier(A, ar + h, ac, B, br, bc + h, C, cr + h, cc + h, h),
         new_multiplier(A, ar + h, ac + h, B, br + h, bc + h, C, cr + h, cc + h, h)},
    };
    fj_task *all[4] = {&q[0].task, &q[1].task, &q[2].task, &q[3].task};
    return fj_invoke_all(all, 4);
}

static float **new_matrix(int n, float value)
{
    float **m = malloc((size_t)n * sizeof *m);
    for (int i = 0; i < n; i++) {
        m[i] = malloc((size_t)n * sizeof **m);
        for (int j = 0; j < n; j++)
            m[i][j] = value;
    }
    return m;
}

static void free_matrix(float **m, int n)
{
    for (int i = 0; i < n; i++)
        free(m[i]);
    free(m);
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 128, 1, 8192);
    int n = (int)args.size;
    if (n < GRANULARITY || (n & (n - 1)) != 0) {
        fprintf(stderr, "matrix size must be a power of two >= %d\n", GRANULARITY);
        return 2;
    }
    fj_pool *pool = port_pool(&args);
    /* To simplify checking, fill with all 1's.  Answer should be all n's. */
    float **a = new_matrix(n, 1.0F), **b = new_matrix(n, 1.0F), **c = new_matrix(n, 0.0F);
    int rc = 0, correct = 1;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        for (int i = 0; i < n; i++)
            memset(c[i], 0, (size_t)n * sizeof **c);
        multiplier m = new_multiplier(a, 0, 0, b, 0, 0, c, 0, 0, n);
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &m.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                correct = correct && c[i][j] == (float)n;
    }
    char what[64];
    snprintf(what, sizeof what, "%dx%d, every element of C is %d", n, n, n);
    int status = port_verdict("MatrixMultiply", what, rc == 0 && correct, &args, best, pool);
    free_matrix(a, n), free_matrix(b, n), free_matrix(c, n);
    return status;
}
