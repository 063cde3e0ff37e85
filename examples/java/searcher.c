/* searcher.c - the Searcher example of the CountedCompleter API
 * documentation, ported to fj_java.h: find an element that matches, in
 * parallel, and stop the whole search as soon as one task finds it.
 *
 * Java keeps the answer in an AtomicReference; here it is an atomic index
 * (-1: none yet).  Each task forks the right halves of its range while
 * nothing has been found, checks its leaf, and a task that finds a match and
 * wins the compare-and-set completes the root at once (quietlyCompleteRoot):
 * the waiting thread returns while the rest of the tree winds down.  That
 * rest still counts down to the root, so the root must outlive it: main
 * waits for the pool to be quiescent before the root goes out of scope.
 * Tasks other than the root free themselves in their onCompletion.
 *
 * Checked: the index found is the one a serial scan finds (the array holds
 * exactly one match). */
#include <stdatomic.h>

#include "port_util.h"

enum { LEAF = 256 };

typedef struct searcher {
    fj_counted_completer cc;
    const long *array;
    atomic_long *result;
    long lo, hi;
} searcher;

static int matches(long x) { return x == -1; }

static int searcher_compute(fj_counted_completer *c);

static void free_unless_root(fj_counted_completer *self, fj_counted_completer *caller)
{
    (void)caller;
    if (fj_cc_get_completer(self))
        free(FJ_CONTAINER_OF(self, searcher, cc));
}

static void searcher_init(searcher *t, searcher *parent, const long *array, atomic_long *result, long lo, long hi)
{
    fj_cc_init(&t->cc, parent ? &parent->cc : NULL, 0, searcher_compute);
    t->cc.on_completion = free_unless_root;
    t->array = array;
    t->result = result;
    t->lo = lo;
    t->hi = hi;
}

static int searcher_compute(fj_counted_completer *c)
{
    searcher *this = FJ_CONTAINER_OF(c, searcher, cc);
    long l = this->lo, h = this->hi;
    while (atomic_load(this->result) < 0 && h - l > LEAF) {
        long mid = (l + h) >> 1;
        searcher *right = malloc(sizeof *right);
        if (!right)
            return FJ_ENOMEM;
        searcher_init(right, this, this->array, this->result, mid, h);
        fj_cc_add_to_pending_count(c, 1);
        fj_fork(&right->cc.task);
        h = mid;
    }
    for (long i = l; i < h && atomic_load(this->result) < 0; i++) {
        long none = -1;
        if (matches(this->array[i]) && atomic_compare_exchange_strong(this->result, &none, i)) {
            fj_cc_quietly_complete_root(c);
            break;
        }
    }
    fj_cc_try_complete(c);
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
    long target = n - n / 3 - 1;
    array[target] = -1;
    long serial = -1;
    for (long i = 0; i < n && serial < 0; i++)
        if (matches(array[i]))
            serial = i;
    int correct = 1;
    double best = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        atomic_long result;
        atomic_init(&result, -1);
        searcher root;
        searcher_init(&root, NULL, array, &result, 0, n);
        double t0 = port_seconds();
        int rc = fj_pool_invoke(pool, &root.cc.task);
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        correct = correct && rc == 0 && atomic_load(&result) == serial;
        /* The tasks still running refer to `root` and `result`. */
        rc = fj_pool_await_quiescence(pool, FJ_NO_TIMEOUT);
        correct = correct && rc == 0;
    }
    char what[80];
    snprintf(what, sizeof what, "the match among %ld elements is at %ld", n, serial);
    int status = port_verdict("Searcher", what, correct, &args, best, pool);
    free(array);
    return status;
}
