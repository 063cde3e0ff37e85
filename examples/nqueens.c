/* nqueens.c - count the ways to place N queens on an N x N board.
 *
 * Each row tries every column; every legal placement is a task that gets its
 * own copy of the partial board (as in the BOTS benchmark), so tasks share
 * nothing and their counts are summed after the joins.  A task per placement
 * is fine-grained on purpose: it shows the scheduler at work. */
#include <string.h>

#include "example_util.h"

enum { MAX_N = 16 };

typedef struct queens_task {
    fj_task task;
    int n, row;
    signed char cols[MAX_N];  /* cols[r]: column of the queen in row r < row */
    long solutions;
} queens_task;

static int safe(const signed char *cols, int row, int col)
{
    for (int r = 0; r < row; r++) {
        int d = cols[r] - col;
        if (d == 0 || d == row - r || d == r - row)
            return 0;
    }
    return 1;
}

static long queens_serial(int n, int row, signed char *cols)
{
    if (row == n)
        return 1;
    long count = 0;
    for (int col = 0; col < n; col++) {
        if (safe(cols, row, col)) {
            cols[row] = (signed char)col;
            count += queens_serial(n, row + 1, cols);
        }
    }
    return count;
}

static int queens_parallel(fj_task *t)
{
    queens_task *q = FJ_CONTAINER_OF(t, queens_task, task);
    if (q->row == q->n) {
        q->solutions = 1;
        return 0;
    }
    queens_task children[MAX_N];
    int forked = 0;
    for (int col = 0; col < q->n; col++) {
        if (!safe(q->cols, q->row, col))
            continue;
        queens_task *c = &children[forked++];
        fj_task_init(&c->task, queens_parallel);
        c->n = q->n;
        c->row = q->row + 1;
        memcpy(c->cols, q->cols, sizeof c->cols);  /* each placement: its own board */
        c->cols[q->row] = (signed char)col;
        c->solutions = 0;
        fj_fork(&c->task);
    }
    q->solutions = 0;
    for (int i = forked - 1; i >= 0; i--) {
        fj_join(&children[i].task);
        q->solutions += children[i].solutions;
    }
    return 0;
}

int main(int argc, char **argv)
{
    example_args args = example_parse(argc, argv, 11, 1, MAX_N);
    fj_pool *pool = example_pool(&args);
    queens_task root = {FJ_TASK_INIT(queens_parallel), (int)args.size, 0, {0}, 0};
    double t0 = example_seconds();
    int rc = fj_pool_invoke(pool, &root.task);
    double t1 = example_seconds();
    signed char cols[MAX_N] = {0};
    long expected = queens_serial((int)args.size, 0, cols);
    double t2 = example_seconds();
    printf("nqueens(%ld) = %ld solutions on %u workers\n", args.size, root.solutions, fj_pool_worker_count(pool));
    fj_pool_destroy(pool);
    return example_verdict("nqueens", rc == 0 && root.solutions == expected, t1 - t0, t2 - t1);
}
