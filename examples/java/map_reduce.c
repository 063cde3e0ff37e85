/* map_reduce.c - the map-reduce shape of the CountedCompleter documentation:
 * map every element of an array and combine the mapped values with an
 * associative reducer, by a tree of completers that never join.
 *
 * The Javadoc's MapReducer splits its range in two, forks one half as a new
 * completer whose completer is itself, works on the other half in the same
 * thread, and combines the two halves' results in onCompletion once both have
 * finished; the root's completion is what the caller's invoke waits for.  This
 * port keeps that shape: each node sets its pending count to 1 (two subtasks;
 * the second to finish carries the completion up), forks its right half, runs
 * its left half's compute directly, and in on_completion reduces the halves'
 * results and frees them (heap nodes: fj_java.h's freeing rule allows it, as
 * both have finished their walk when the count of their parent reaches zero).
 *
 * Here the mapper squares and the reducer adds whole numbers, so the check
 * against a serial loop is an equality. */
#include "port_util.h"

typedef long (*mapper_fn)(long);
typedef long (*reducer_fn)(long, long);

typedef struct map_reducer {
    fj_counted_completer cc;
    const long *array;
    mapper_fn mapper;
    reducer_fn reducer;
    long lo, hi;
    struct map_reducer *left, *right;  /* the two halves, NULL at a leaf */
    long result;
} map_reducer;

enum { LEAF_SIZE = 256 };

static int map_reducer_compute(fj_counted_completer *self);

static void map_reducer_on_completion(fj_counted_completer *self, fj_counted_completer *caller)
{
    map_reducer *m = FJ_CONTAINER_OF(self, map_reducer, cc);
    if (!m->left)
        return;  /* a leaf: compute set its result */
    m->result = m->reducer(m->left->result, m->right->result);
    free(m->left);
    free(m->right);
}

static void map_reducer_init(map_reducer *m, map_reducer *parent, const long *array, mapper_fn mapper,
                             reducer_fn reducer, long lo, long hi)
{
    fj_cc_init(&m->cc, parent ? &parent->cc : NULL, 0, map_reducer_compute);
    m->cc.on_completion = map_reducer_on_completion;
    m->array = array;
    m->mapper = mapper;
    m->reducer = reducer;
    m->lo = lo;
    m->hi = hi;
    m->left = m->right = NULL;
    m->result = 0;
}

static map_reducer *map_reducer_new(map_reducer *parent, long lo, long hi)
{
    map_reducer *m = malloc(sizeof *m);
    if (m)
        map_reducer_init(m, parent, parent->array, parent->mapper, parent->reducer, lo, hi);
    return m;
}

static int map_reducer_compute(fj_counted_completer *self)
{
    map_reducer *m = FJ_CONTAINER_OF(self, map_reducer, cc);
    if (m->hi - m->lo > LEAF_SIZE) {
        long mid = m->lo + (m->hi - m->lo) / 2;
        map_reducer *left = map_reducer_new(m, m->lo, mid);
        map_reducer *right = map_reducer_new(m, mid, m->hi);
        if (!left || !right) {
            free(left);
            free(right);
            return FJ_ENOMEM;  /* completes the tree exceptionally, as an exception would */
        }
        m->left = left;
        m->right = right;
        fj_cc_set_pending_count(self, 1);
        fj_fork(&right->cc.task);
        /* m may be complete (and freed by its parent) from here on. */
        return left->cc.compute(&left->cc);
    }
    long acc = m->mapper(m->array[m->lo]);
    for (long i = m->lo + 1; i < m->hi; i++)
        acc = m->reducer(acc, m->mapper(m->array[i]));
    m->result = acc;
    fj_cc_try_complete(self);
    return 0;
}

static long square(long x) { return x * x; }
static long add(long a, long b) { return a + b; }

int main(int argc, char **argv)
{
    port_args a = port_parse(argc, argv, 1L << 20, 1, 1L << 28);
    long *array = malloc((size_t)a.size * sizeof *array);
    if (!array)
        return 1;
    long expected = 0;
    for (long i = 0; i < a.size; i++) {
        array[i] = i % 2001 - 1000;
        expected += square(array[i]);
    }
    fj_pool *pool = port_pool(&a);
    double best = 1e30;
    int correct = 1;
    long result = 0;
    for (int r = 0; r < a.reps; r++) {
        map_reducer root;
        map_reducer_init(&root, NULL, array, square, add, 0, a.size);
        double t0 = port_seconds();
        int rc = fj_pool_invoke(pool, &root.cc.task);
        double t = port_seconds() - t0;
        best = t < best ? t : best;
        result = root.result;
        if (rc != 0 || result != expected)
            correct = 0;
    }
    char what[96];
    snprintf(what, sizeof what, "sum of squares of %ld = %ld", a.size, result);
    free(array);
    return port_verdict("MapReduce", what, correct, &a, best, pool);
}
