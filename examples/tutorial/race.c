/* race.c - a deliberate bug: a lost-update race, for the tutorial.
 *
 * Every node of a binary tree of tasks adds 1 to one shared counter with a
 * plain read, a moment of other work, and a plain write.  When two workers do
 * that at once, one of the two additions is lost.  The fix is one line: an
 * atomic add (or, better, a reduction: each task returns its count and the
 * parent adds them after the join).
 *
 * A race shows only when the two tasks actually overlap.  In a short run on
 * an idle pool a thief rarely gets a task in time, so the bug hides; with
 * FJ_STRESS=1 nearly every fork is handed to another worker, and it shows.
 * The exit status is 1 when updates were lost, so a script can count. */
#include "../example_util.h"

static volatile long visits;  /* THE BUG: shared, updated without atomics */

/* A read-modify-write with a window, as real code has (a lookup, a call). */
static void count_visit(void)
{
    long seen = visits;
    for (volatile int i = 0; i < 2000; i++) {
    }
    visits = seen + 1;
}

typedef struct node_task {
    fj_task task;
    int depth;
} node_task;

static int visit_tree(fj_task *t)
{
    node_task *n = FJ_CONTAINER_OF(t, node_task, task);
    count_visit();
    if (n->depth == 0)
        return 0;
    node_task left = {FJ_TASK_INIT(visit_tree), n->depth - 1};
    node_task right = {FJ_TASK_INIT(visit_tree), n->depth - 1};
    fj_fork(&left.task);
    visit_tree(&right.task);
    return fj_join(&left.task);
}

/* Serial set-up, as a real program has before its parallel part (reading
 * input, say): long enough for the idle workers to go to sleep, which is what
 * makes the bug hide in ordinary runs. */
static unsigned long serial_setup(void)
{
    unsigned long h = 1469598103934665603ul;
    for (unsigned long i = 0; i < 20000000ul; i++)
        h = (h ^ i) * 1099511628211ul;
    return h;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 2, 0, 30);
    fj_pool *pool = example_pool(&args);
    if (serial_setup() == 0)
        printf("(the set-up's checksum is 0)\n");
    node_task root = {FJ_TASK_INIT(visit_tree), (int)args.size};
    int rc = fj_pool_invoke(pool, &root.task);
    unsigned workers = fj_pool_worker_count(pool);
    fj_pool_destroy(pool);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_invoke: %s\n", fj_strerror(rc));
        return 2;
    }
    long expected = (2L << args.size) - 1;
    if (visits == expected) {
        printf("race: counted all %ld visits on %u workers (the race did not show this time)\n", expected, workers);
        return 0;
    }
    printf("race: counted %ld of %ld visits on %u workers: %ld updates lost\n", visits, expected, workers,
           expected - visits);
    return 1;
}
