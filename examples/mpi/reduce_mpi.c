/* reduce_mpi.c - the pattern most MPI + fj programs start from: the top levels
 * of a divide-and-conquer split across ranks, fj below each part, and one
 * reduction at the end.  No work moves between ranks once they start.
 *
 *   mpirun -np P reduce_mpi [--workers N] [N]       (N queens, default 12)
 *
 * Counting the solutions of the N-queens problem (bench/'s kernel,
 * bench/kernels.h):
 *   1. rank 0 lists the legal placements of the first PREFIX_ROWS queens: the
 *      top of the recursion, cheap to enumerate;
 *   2. MPI_Scatter deals them out like cards (rank r gets placements r, r+P,
 *      r+2P, ...), so that each rank gets queens from all over the first row,
 *      edges and middle, whose subtrees differ in size, rather than a block
 *      of neighbours;
 *   3. each rank counts the solutions below its placements on its fj pool,
 *      forking one task per legal queen in every row;
 *   4. MPI_Reduce sums the counts on rank 0, which checks them against the
 *      serial count.
 * Only main calls MPI, before and after fj_pool_invoke: no MPI call is ever
 * inside a task.
 */
#include "kernels.h"
#include "mpi_rank.h"

/* Rows placed by rank 0 before the split: enough placements to deal several
 * to each rank (N*(N-2)-ish for two rows), few enough to send in one go. */
#define PREFIX_ROWS 2
/* Marks a dealt slot that holds no placement (the list is padded to a
 * multiple of the rank count, as MPI_Scatter sends equal shares). */
#define NO_PLACEMENT ((char)-1)

typedef struct queens_task {
    fj_task task;
    int n, row;                /* queens 0..row-1 are placed in board */
    char board[KERN_NQ_MAX];
    long solutions;            /* out */
} queens_task;

/* Counts the solutions that extend board[0..row): one task per legal column of
 * the next row, all forked, then joined. */
static int queens_count(fj_task *t)
{
    queens_task *q = FJ_CONTAINER_OF(t, queens_task, task);
    q->solutions = 0;
    if (q->row == q->n) {
        q->solutions = 1;
        return 0;
    }
    queens_task next[KERN_NQ_MAX];
    int forked = 0;
    for (int col = 0; col < q->n; col++) {
        queens_task *c = &next[forked];
        memcpy(c->board, q->board, (size_t)q->row);
        c->board[q->row] = (char)col;
        if (!kern_nq_ok(q->row + 1, c->board))
            continue;
        fj_task_init(&c->task, queens_count);
        c->n = q->n;
        c->row = q->row + 1;
        fj_fork(&c->task);
        forked++;
    }
    for (int i = forked - 1; i >= 0; i--) {  /* newest first: those are still ours */
        fj_join(&next[i].task);
        q->solutions += next[i].solutions;
    }
    return 0;
}

/* This rank's placements [lo, hi) of `boards` (PREFIX_ROWS chars each). */
typedef struct share_task {
    fj_task task;
    const char *boards;
    int n, lo, hi;
    long solutions;  /* out */
} share_task;

static int share_count(fj_task *t)
{
    share_task *s = FJ_CONTAINER_OF(t, share_task, task);
    s->solutions = 0;
    if (s->hi - s->lo == 1) {
        const char *board = s->boards + (size_t)s->lo * PREFIX_ROWS;
        if (board[0] == NO_PLACEMENT)
            return 0;
        queens_task q = {FJ_TASK_INIT(queens_count), s->n, PREFIX_ROWS, {0}, 0};
        memcpy(q.board, board, PREFIX_ROWS);
        queens_count(&q.task);
        s->solutions = q.solutions;
    } else if (s->hi - s->lo >= 2) {
        int mid = s->lo + (s->hi - s->lo) / 2;
        share_task upper = {FJ_TASK_INIT(share_count), s->boards, s->n, mid, s->hi, 0};
        share_task lower = {FJ_TASK_INIT(share_count), s->boards, s->n, s->lo, mid, 0};
        fj_fork(&upper.task);
        share_count(&lower.task);
        fj_join(&upper.task);
        s->solutions = lower.solutions + upper.solutions;
    }
    return 0;
}

/* Rank 0: the legal placements of the first PREFIX_ROWS queens, dealt so that
 * rank r's share (per_rank of them, contiguous as MPI_Scatter sends it) holds
 * placements r, r+P, r+2P, ...  Returns the dealt array (freed by the
 * caller) and sets *per_rank. */
static char *deal_placements(int n, int ranks, int *per_rank)
{
    int most = 1;
    for (int r = 0; r < PREFIX_ROWS; r++)
        most *= n;
    char *found = malloc((size_t)most * PREFIX_ROWS);
    int count = 0;
    for (int code = 0; code < most && found; code++) {
        char *board = found + (size_t)count * PREFIX_ROWS;
        for (int r = 0, rest = code; r < PREFIX_ROWS; r++, rest /= n)
            board[r] = (char)(rest % n);
        if (kern_nq_ok(PREFIX_ROWS, board))
            count++;
    }
    *per_rank = (count + ranks - 1) / ranks;
    char *dealt = malloc((size_t)*per_rank * (size_t)ranks * PREFIX_ROWS);
    if (!found || !dealt) {
        fprintf(stderr, "reduce_mpi: out of memory for %d placements\n", most);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int slot = 0; slot < *per_rank * ranks; slot++) {
        int rank = slot / *per_rank, nth = slot % *per_rank;
        int card = nth * ranks + rank;
        char *to = dealt + (size_t)slot * PREFIX_ROWS;
        if (card < count)
            memcpy(to, found + (size_t)card * PREFIX_ROWS, PREFIX_ROWS);
        else
            memset(to, NO_PLACEMENT, PREFIX_ROWS);
    }
    free(found);
    return dealt;
}

int main(int argc, char **argv)
{
    rank_mpi_init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    unsigned workers = 0;
    long n = 12;
    rank_parse(argc, argv, &workers, &n);
    if (n <= PREFIX_ROWS || n > 16) {  /* 16: the serial check stays in minutes */
        if (rank == 0)
            fprintf(stderr, "reduce_mpi: N must be %d..16, not %ld\n", PREFIX_ROWS + 1, n);
        MPI_Finalize();
        return 2;
    }
    int cpus;
    workers = rank_worker_count(workers, &cpus);
    fj_pool *pool = rank_pool(workers);

    double t0 = MPI_Wtime();
    int per_rank = 0;
    char *dealt = rank == 0 ? deal_placements((int)n, ranks, &per_rank) : NULL;
    MPI_Bcast(&per_rank, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *mine = malloc((size_t)per_rank * PREFIX_ROWS + 1);
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Scatter(dealt, per_rank * PREFIX_ROWS, MPI_CHAR, mine, per_rank * PREFIX_ROWS, MPI_CHAR, 0,
                MPI_COMM_WORLD);

    share_task share = {FJ_TASK_INIT(share_count), mine, (int)n, 0, per_rank, 0};
    int rc = fj_pool_invoke(pool, &share.task);
    if (rc != 0) {
        fprintf(stderr, "reduce_mpi: rank %d: fj_pool_invoke: %s\n", rank, fj_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long total = 0;
    MPI_Reduce(&share.solutions, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    fj_pool_destroy(pool);
    free(mine);
    free(dealt);

    int status = 0;
    if (rank == 0) {
        printf("%ld-queens: %ld solutions on %d ranks x %u workers (%d placements of %d rows per rank) in %.3f s\n",
               n, total, ranks, workers, per_rank, PREFIX_ROWS, t1 - t0);
        double s0 = kern_now();
        long serial = kern_nqueens_serial((int)n);
        double s1 = kern_now();
        if (total == serial && serial == kern_nqueens_expected((int)n)) {
            printf("reduce_mpi: matches serial (parallel %.3f s, serial %.3f s)\n", t1 - t0, s1 - s0);
        } else {
            printf("reduce_mpi: FAIL: %ld solutions, serial %ld, known %ld\n", total, serial,
                   kern_nqueens_expected((int)n));
            status = 1;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
