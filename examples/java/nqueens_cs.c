/* nqueens_cs.c - jsr166's ForkJoin benchmark NQueensCS: count the placements
 * of N queens, one task per safe square of the next row, ported from
 * NQueensCS.java.  Boards are arrays where cell i holds the column of the
 * queen in row i; every task forks all its children, then joins them.
 *
 * Checked against the table of known counts the original carries
 * (expectedSolutions, from durangobill.com/N_Queens.html), for every size
 * from FROM_SIZE to the size given (jsr166: 8 to 15; we default to 8 to 10
 * for the test suite, the benchmark runs 8 to 13).
 *
 * Usage: nqueens_cs [--workers N] [--reps R] [TO_SIZE] */
#include "port_util.h"

static const long expected_solutions[] = {0,      1,       0,        0,        2,         10,       4,
                                          40,     92,      352,      724,      2680,      14200,    73712,
                                          365596, 2279184, 14772512, 95815104, 666090624};

enum { FROM_SIZE = 8, MAX_SIZE = 18 };

typedef struct nqueens_cs {
    FJ_RECURSIVE_ACTION;
    int board_size;
    int row;                   /* sections.length */
    signed char sections[MAX_SIZE];
    long solutions;
} nqueens_cs;

static int nqueens_cs_compute(fj_task *task)
{
    nqueens_cs *this = FJ_SELF(task, nqueens_cs);
    int row = this->row, size = this->board_size;
    if (row >= size) {
        this->solutions = 1;
        return 0;
    }
    /* NQueensCS[] tasks = new NQueensCS[boardSize]: the children live in this
     * frame, which joins them all before returning. */
    nqueens_cs *tasks = malloc((size_t)size * sizeof *tasks);
    if (!tasks)
        return FJ_ENOMEM;
    int ntasks = 0;
    for (int q = 0; q < size; ++q) {
        int attacked = 0;
        for (int i = 0; i < row; i++) {
            int p = this->sections[i] - q;
            if (p == 0 || p == (row - i) || p == -(row - i)) {
                attacked = 1;
                break;
            }
        }
        if (!attacked) {
            nqueens_cs *t = &tasks[ntasks++];
            t->task = (fj_task)FJ_TASK_INIT(nqueens_cs_compute);
            t->board_size = size;
            t->row = row + 1;
            memcpy(t->sections, this->sections, (size_t)row);  /* Arrays.copyOf(sections, row + 1) */
            t->sections[row] = (signed char)q;
            t->solutions = 0;
            fj_fork(&t->task);
        }
    }
    long s = 0;
    int rc = 0;
    while (ntasks-- > 0) {  /* newest first: each join is a pop of our own deque */
        rc = fj_first_error(rc, fj_join(&tasks[ntasks].task));
        s += tasks[ntasks].solutions;
    }
    free(tasks);
    this->solutions = s;
    return rc;
}

int main(int argc, char **argv)
{
    port_args args = port_parse(argc, argv, 10, FROM_SIZE, MAX_SIZE);
    int to_size = (int)args.size;
    fj_pool *pool = port_pool(&args);
    int rc = 0, correct = 1;
    double best_total = 1e30;
    for (int rep = 0; rep < args.reps; rep++) {
        double total = 0;
        for (int size = FROM_SIZE; size <= to_size; size++) {
            nqueens_cs *task = calloc(1, sizeof *task);
            task->task = (fj_task)FJ_TASK_INIT(nqueens_cs_compute);
            task->board_size = size;
            double t0 = port_seconds();
            rc = fj_first_error(rc, fj_pool_invoke(pool, &task->task));
            total += port_seconds() - t0;
            correct = correct && task->solutions == expected_solutions[size];
            free(task);
        }
        best_total = total < best_total ? total : best_total;
    }
    char what[64];
    snprintf(what, sizeof what, "sizes %d..%d match expectedSolutions", FROM_SIZE, to_size);
    return port_verdict("NQueensCS", what, rc == 0 && correct, &args, best_total, pool);
}
