/* for_each.c - the ForEach example of the CountedCompleter API documentation
 * (its improved form, which forks the right halves in a loop and keeps the
 * leftmost piece), ported to fj_java.h.
 *
 * Each task splits its range while it is longer than a leaf: it adds one to
 * its pending count per forked right half, keeps the left half, applies the
 * operation to its leaf, then calls tryComplete.  No task is ever joined;
 * the root completes once every task below it has, and only then does
 * fj_pool_invoke return.  A task that is not the root frees itself in its
 * onCompletion, where the runtime is done with it (fj_java.h, "Freeing").
 *
 * Checked: after R invocations every element is its start value plus R, as
 * a serial loop leaves it. */
#include "port_util.h"

enum { LEAF = 1000 };

typedef struct for_each {
    fj_counted_completer cc;
    long *array;
    long lo, hi;
} for_each;

static int for_each_compute(fj_counted_completer *c);

static void free_unless_root(fj_counted_completer *self, fj_counted_completer *caller)
{
    (void)caller;
    if (fj_cc_get_completer(self))
        free(FJ_CONTAINER_OF(self, for_each, cc));
}

static void for_each_init(for_each *t, for_each *parent, long *array, long lo, long hi)
{
    fj_cc_init(&t->cc, parent ? &parent->cc : NULL, 0, for_each_compute);
    t->cc.on_completion = free_unless_root;
    t->array = array;
    t->lo = lo;
    t->hi = hi;
}

static void op_apply(long *x) { ++*x; }

static int for_each_compute(fj_counted_completer *c)
{
    for_each *this = FJ_CONTAINER_OF(c, for_each, cc);
    long l = this->lo, h = this->hi;
    while (h - l > LEAF) {
        long mid = (l + h) >> 1;
        for_each *right = malloc(sizeof *right);
        if (!right)
            return FJ_ENOMEM;  /* completes the tree exceptionally */
        for_each_init(right, this, this->array, mid, h);
        fj_cc_add_to_pending_count(c, 1);
        fj_fork(&right->cc.task);
        h = mid;
    }
    for (long i = l; i < h; i++)
        op_apply(&this->array[i]);
    fj_cc_try_complete(c);  /* nothing may touch `this` after it */
    return 0;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 1000000, 1, 1L << 28);
    long n = args.size;
    fj_pool *pool = port_pool(&args);
    long *array = malloc((size_t)n * sizeof *array);
    for (long i = 0; i < n; i++)
        array[i] = i;
    int rc = 0;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        for_each root;
        for_each_init(&root, NULL, array, 0, n);
        double t0 = port_seconds();
        rc = fj_first_error(rc, fj_pool_invoke(pool, &root.cc.task));
        double t = port_seconds() - t0;
        best = t < best ? t : best;
    }
    int correct = 1;
    for (long i = 0; i < n; i++)
        correct = correct && array[i] == i + args.reps;
    char what[80];
    snprintf(what, sizeof what, "%ld elements visited %d times", n, args.reps);
    int status = port_verdict("ForEach", what, rc == 0 && correct, &args, best, pool);
    free(array);
    return status;
}
