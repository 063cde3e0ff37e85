/* integrate.c - jsr166's ForkJoin benchmark Integrate: adaptive Gaussian
 * quadrature of (x*x + 1)*x from 0 to 1536, ported from Integrate.java.
 *
 * Three policies, as in the original: SERIAL (SQuad, all in one task),
 * DYNAMIC (DQuad, the default: fork the left half only while
 * getSurplusQueuedTaskCount() <= 3) and FORK (FQuad: always fork).  Each
 * forked half is taken back with tryUnfork() if nobody stole it, else
 * quietlyJoin()ed.  The exact integral from 0 to END is END^4/4 + END^2/2
 * (for jsr166's END = 1536: 1391570583552); the program checks it to 1e-9
 * relative error.
 *
 * Usage: integrate [--workers N] [--reps R] [--policy P] [END]  (P: -1 serial,
 * 0 dynamic (default), 1 fork, the Java program's second argument; END
 * defaults to 96 for the test suite, the benchmark passes jsr166's 1536). */
#include <math.h>

#include "port_util.h"

static const double error_tolerance = 1.0e-11;
static const double start = 0.0;

enum { SERIAL = -1, DYNAMIC = 0, FORK = 1 };

typedef struct quad {
    FJ_RECURSIVE_ACTION;
    double left, right;  /* lower and upper bound */
    double area;
} quad;

static inline double compute_function(double x) { return (x * x + 1.0) * x; }

/* SQuad.recEval: all sequential. */
static double s_rec_eval(double l, double r, double fl, double fr, double a)
{
    double h = (r - l) * 0.5;
    double c = l + h;
    double fc = compute_function(c);
    double hh = h * 0.5;
    double al = (fl + fc) * hh;
    double ar = (fr + fc) * hh;
    double alr = al + ar;
    if (fabs(alr - a) <= error_tolerance)
        return alr;
    return s_rec_eval(c, r, fc, fr, ar) + s_rec_eval(l, c, fl, fc, al);
}

static int d_quad_compute(fj_task *task);
static int f_quad_compute(fj_task *task);

/* DQuad.recEval: fork on demand. */
static double d_rec_eval(double l, double r, double fl, double fr, double a)
{
    double h = (r - l) * 0.5;
    double c = l + h;
    double fc = compute_function(c);
    double hh = h * 0.5;
    double al = (fl + fc) * hh;
    double ar = (fr + fc) * hh;
    double alr = al + ar;
    if (fabs(alr - a) <= error_tolerance)
        return alr;
    /* As in Java, the task is made only when it is forked: initialising it at
     * every node would cost more than the arithmetic of the node. */
    quad q;
    int forked = 0;
    if (fj_get_surplus_queued_task_count() <= 3) {
        q = (quad){FJ_TASK_INIT(d_quad_compute), l, c, al};
        forked = fj_fork(&q.task) == 0;
    }
    ar = d_rec_eval(c, r, fc, fr, ar);
    if (forked && !fj_task_try_unfork(&q.task)) {
        fj_task_quietly_join(&q.task);
        return ar + q.area;
    }
    return ar + d_rec_eval(l, c, fl, fc, al);
}

/* FQuad.recEval: always fork. */
static double f_rec_eval(double l, double r, double fl, double fr, double a)
{
    double h = (r - l) * 0.5;
    double c = l + h;
    double fc = compute_function(c);
    double hh = h * 0.5;
    double al = (fl + fc) * hh;
    double ar = (fr + fc) * hh;
    double alr = al + ar;
    if (fabs(alr - a) <= error_tolerance)
        return alr;
    quad q = {FJ_TASK_INIT(f_quad_compute), l, c, al};
    fj_fork(&q.task);
    ar = f_rec_eval(c, r, fc, fr, ar);
    if (!fj_task_try_unfork(&q.task)) {
        fj_task_quietly_join(&q.task);
        return ar + q.area;
    }
    return ar + f_rec_eval(l, c, fl, fc, al);
}

typedef double (*rec_eval_fn)(double, double, double, double, double);

static int quad_compute_with(fj_task *task, rec_eval_fn rec_eval)
{
    quad *this = FJ_SELF(task, quad);
    double l = this->left, r = this->right;
    this->area = rec_eval(l, r, compute_function(l), compute_function(r), this->area);
    return 0;
}

static int s_quad_compute(fj_task *task) { return quad_compute_with(task, s_rec_eval); }
static int d_quad_compute(fj_task *task) { return quad_compute_with(task, d_rec_eval); }
static int f_quad_compute(fj_task *task) { return quad_compute_with(task, f_rec_eval); }

/* static double computeArea(ForkJoinPool pool, double l, double r) */
static int compute_area(fj_pool *pool, int policy, double l, double r, double *area)
{
    fj_task_fn fn = policy == SERIAL ? s_quad_compute : policy == FORK ? f_quad_compute : d_quad_compute;
    quad q = {FJ_TASK_INIT(fn), l, r, 0.0};
    int rc = fj_pool_invoke(pool, &q.task);
    *area = q.area;
    return rc;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 96, 1, 1000000);
    int policy = args.policy;
    double end = (double)args.size;
    fj_pool *pool = port_pool(&args);
    double area = 0, best = 1e30;
    int rc = 0;
    for (int rep = 0; rep < args.reps; rep++) {
        double t0 = port_seconds();
        rc = fj_first_error(rc, compute_area(pool, policy, start, end, &area));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
    }
    const double exact = end * end * end * end / 4 + end * end / 2;
    char what[96];
    snprintf(what, sizeof what, "Integral from %5.1f to %5.1f is %10.3f (%s)", start, end, area,
             policy == SERIAL ? "serial" : policy == FORK ? "fork" : "dynamic");
    return port_verdict("Integrate", what, rc == 0 && fabs(area - exact) <= 1e-9 * exact, &args, best, pool);
}
