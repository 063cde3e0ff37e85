/* fj_bench.c - the fj driver: each program written the textbook way, tasks on
 * the stack, fork the first part, compute the last part here, join in reverse
 * order.  Each run is one fj_pool_invoke of a root task from main(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fj.h"
#include "fj_pool.h"
#include "harness.h"
#include "kernels.h"

const char *const drv_system = "fj";
static fj_pool *pool;

int drv_init(int workers) { return bench_fj_pool_create(&pool, (unsigned)workers); }

void drv_fini(void) { bench_fj_pool_destroy(pool); }

static void invoke(fj_task *root)
{
    int rc = fj_pool_invoke(pool, root);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_invoke: %s\n", fj_strerror(rc));
        exit(1);
    }
}

/* ---- fib: exactly examples/fib.c ---- */

typedef struct fib_task {
    fj_task task;
    int n;
    long result;
} fib_task;

static int fib_run(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2) {
        f->result = f->n;
        return 0;
    }
    fib_task a = {FJ_TASK_INIT(fib_run), f->n - 1, 0};
    fib_task b = {FJ_TASK_INIT(fib_run), f->n - 2, 0};
    fj_fork(&a.task);
    fib_run(&b.task);
    fj_join(&a.task);
    f->result = a.result + b.result;
    return 0;
}

long drv_fib(int n)
{
    fib_task root = {FJ_TASK_INIT(fib_run), n, 0};
    invoke(&root.task);
    return root.result;
}

/* ---- nqueens: one task per placement, which copies the parent's board ---- */

typedef struct nq_task {
    fj_task task;
    const char *parent;  /* the parent's board: rows 0..row-1 */
    int n, row, col;
    long count;
} nq_task;

static int nq_run(fj_task *t)
{
    nq_task *q = FJ_CONTAINER_OF(t, nq_task, task);
    char board[KERN_NQ_MAX];
    memcpy(board, q->parent, (size_t)q->row);
    board[q->row] = (char)q->col;
    q->count = 0;
    if (!kern_nq_ok(q->row + 1, board))
        return 0;
    if (q->row + 1 == q->n) {
        q->count = 1;
        return 0;
    }
    int n = q->n;
    nq_task kids[KERN_NQ_MAX];
    for (int i = 0; i < n; i++) {
        nq_task k = {FJ_TASK_INIT(nq_run), board, n, q->row + 1, i, 0};
        kids[i] = k;
    }
    for (int i = 0; i < n - 1; i++)
        fj_fork(&kids[i].task);
    nq_run(&kids[n - 1].task);
    long count = kids[n - 1].count;
    for (int i = n - 2; i >= 0; i--) {
        fj_join(&kids[i].task);
        count += kids[i].count;
    }
    q->count = count;
    return 0;
}

typedef struct nq_root {
    fj_task task;
    int n;
    long count;
} nq_root;

static int nq_root_run(fj_task *t)
{
    nq_root *r = FJ_CONTAINER_OF(t, nq_root, task);
    static const char empty[KERN_NQ_MAX];
    int n = r->n;
    nq_task kids[KERN_NQ_MAX];
    for (int i = 0; i < n; i++) {
        nq_task k = {FJ_TASK_INIT(nq_run), empty, n, 0, i, 0};
        kids[i] = k;
    }
    for (int i = 0; i < n - 1; i++)
        fj_fork(&kids[i].task);
    nq_run(&kids[n - 1].task);
    long count = kids[n - 1].count;
    for (int i = n - 2; i >= 0; i--) {
        fj_join(&kids[i].task);
        count += kids[i].count;
    }
    r->count = count;
    return 0;
}

long drv_nqueens(int n)
{
    nq_root root = {FJ_TASK_INIT(nq_root_run), n, 0};
    invoke(&root.task);
    return root.count;
}

/* ---- mergesort: sort halves into the other array, merge back in parallel ---- */

typedef struct merge_task {
    fj_task task;
    const uint32_t *a, *b;
    size_t na, nb;
    uint32_t *out;
} merge_task;

static int merge_run(fj_task *t)
{
    merge_task *m = FJ_CONTAINER_OF(t, merge_task, task);
    const uint32_t *a = m->a, *b = m->b;
    size_t na = m->na, nb = m->nb;
    if (na + nb <= KERN_SORT_CUTOFF) {
        kern_merge_leaf(a, na, b, nb, m->out);
        return 0;
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
    merge_task lo = {FJ_TASK_INIT(merge_run), a, b, ma, mb, m->out};
    merge_task hi = {FJ_TASK_INIT(merge_run), a + ma, b + mb, na - ma, nb - mb, m->out + ma + mb};
    fj_fork(&lo.task);
    merge_run(&hi.task);
    fj_join(&lo.task);
    return 0;
}

typedef struct sort_task {
    fj_task task;
    uint32_t *src, *dst;
    size_t n;
    int to_dst;
} sort_task;

static int sort_run(fj_task *t)
{
    sort_task *s = FJ_CONTAINER_OF(t, sort_task, task);
    uint32_t *src = s->src, *dst = s->dst;
    size_t n = s->n;
    if (n <= KERN_SORT_CUTOFF) {
        kern_sort_leaf(src, dst, n);
        if (s->to_dst)
            memcpy(dst, src, n * sizeof *src);
        return 0;
    }
    size_t h = n / 2;
    sort_task lo = {FJ_TASK_INIT(sort_run), src, dst, h, !s->to_dst};
    sort_task hi = {FJ_TASK_INIT(sort_run), src + h, dst + h, n - h, !s->to_dst};
    fj_fork(&lo.task);
    sort_run(&hi.task);
    fj_join(&lo.task);
    uint32_t *from = s->to_dst ? src : dst, *to = s->to_dst ? dst : src;
    merge_task m = {FJ_TASK_INIT(merge_run), from, from + h, h, n - h, to};
    merge_run(&m.task);
    return 0;
}

void drv_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    sort_task root = {FJ_TASK_INIT(sort_run), a, tmp, n, 0};
    invoke(&root.task);
}

/* ---- matmul: two rounds of four quadrant products ---- */
/* The products are forked last first and C00 is run here, so that on one
 * worker they run in the serial program's order (inline, then newest first),
 * which the caches favour (docs/performance.md, finding 14). */

#define QUAD(m, r, c, h, ld) ((m) + (size_t)(r) * (size_t)(h) * (size_t)(ld) + (size_t)(c) * (size_t)(h))

typedef struct mm_task {
    fj_task task;
    const double *a, *b;
    double *c;
    int n, ld;
} mm_task;

static int mm_run(fj_task *t)
{
    mm_task *m = FJ_CONTAINER_OF(t, mm_task, task);
    if (m->n <= KERN_MM_BASE) {
        kern_mm_base(m->a, m->b, m->c, m->ld);
        return 0;
    }
    int h = m->n / 2, ld = m->ld;
    for (int k = 0; k < 2; k++) {
        mm_task q[4];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                mm_task x = {FJ_TASK_INIT(mm_run), QUAD(m->a, i, k, h, ld), QUAD(m->b, k, j, h, ld),
                             QUAD(m->c, i, j, h, ld), h, ld};
                q[i * 2 + j] = x;
            }
        fj_fork(&q[3].task);
        fj_fork(&q[2].task);
        fj_fork(&q[1].task);
        mm_run(&q[0].task);
        fj_join(&q[1].task);
        fj_join(&q[2].task);
        fj_join(&q[3].task);
    }
    return 0;
}

void drv_matmul(const double *a, const double *b, double *c, int n)
{
    mm_task root = {FJ_TASK_INIT(mm_run), a, b, c, n, n};
    invoke(&root.task);
}

/* ---- integrate: jsr166 Integrate's DQuad (fork left, recurse right) ---- */

typedef struct quad_task {
    fj_task task;
    double l, r, fl, fr, area;
} quad_task;

static double quad_eval(double l, double r, double fl, double fr, double area);

static int quad_run(fj_task *t)
{
    quad_task *q = FJ_CONTAINER_OF(t, quad_task, task);
    q->area = quad_eval(q->l, q->r, q->fl, q->fr, q->area);
    return 0;
}

static double quad_eval(double l, double r, double fl, double fr, double area)
{
    double h = (r - l) * 0.5, c = l + h, fc = kern_quad_f(c), hh = h * 0.5;
    double al = (fl + fc) * hh, ar = (fr + fc) * hh, alr = al + ar;
    if (fabs(alr - area) <= KERN_QUAD_EPS)
        return alr;
    quad_task left = {FJ_TASK_INIT(quad_run), l, c, fl, fc, al};
    fj_fork(&left.task);
    ar = quad_eval(c, r, fc, fr, ar);
    fj_join(&left.task);
    return ar + left.area;
}

double drv_integrate(double lo, double hi)
{
    double flo = kern_quad_f(lo), fhi = kern_quad_f(hi);
    quad_task root = {FJ_TASK_INIT(quad_run), lo, hi, flo, fhi, (flo + fhi) * (hi - lo) * 0.5};
    invoke(&root.task);
    return root.area;
}

/* ---- uts: every child a task ---- */

typedef struct uts_task {
    fj_task task;
    uint64_t state;
    int arity;
    long count;
} uts_task;

static int uts_run(fj_task *t)
{
    uts_task *u = FJ_CONTAINER_OF(t, uts_task, task);
    int n = u->arity;
    long count = 1;
    if (n > 0) {
        uts_task local[KERN_UTS_M];
        uts_task *kids = n <= KERN_UTS_M ? local : malloc(sizeof *kids * (size_t)n);
        if (!kids)
            abort();
        for (int i = 0; i < n; i++) {
            uint64_t s = kern_uts_child(u->state, i);
            uts_task k = {FJ_TASK_INIT(uts_run), s, kern_uts_arity(s), 0};
            kids[i] = k;
        }
        for (int i = 0; i < n - 1; i++)
            fj_fork(&kids[i].task);
        uts_run(&kids[n - 1].task);
        count += kids[n - 1].count;
        for (int i = n - 2; i >= 0; i--) {
            fj_join(&kids[i].task);
            count += kids[i].count;
        }
        if (n > KERN_UTS_M)
            free(kids);
    }
    u->count = count;
    return 0;
}

long drv_uts(int root_children)
{
    uts_task root = {FJ_TASK_INIT(uts_run), kern_mix64(KERN_UTS_ROOT), root_children, 0};
    invoke(&root.task);
    return root.count;
}
