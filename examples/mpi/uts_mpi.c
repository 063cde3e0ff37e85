/* uts_mpi.c - unbalanced tree search across MPI ranks, an fj pool in each.
 *
 *   mpirun -np P uts_mpi [--workers N] [ROOT_CHILDREN]     (default 2000)
 *
 * The tree is bench/'s UTS tree (bench/kernels.h): the root has ROOT_CHILDREN
 * children, every other node 8 or none, so subtrees differ wildly in size and
 * no static split balances them.  Work must move while the search runs, inside
 * a rank (fj's stealing) and between ranks (this file).  The node count does
 * not depend on who explored what, so it checks the run against the serial
 * count.
 *
 * Inside a rank.  A *span* is a list of sibling nodes [lo, hi): children of a
 * parent (computed from its state) or a batch of states received from another
 * rank.  A span task forks its upper half and explores its lower half; a span
 * of one node counts it and explores the span of its children.  fj balances
 * these tasks over the rank's workers.
 *
 * The service point.  main() is the only thread that calls MPI (so
 * MPI_THREAD_FUNNELED suffices, see mpi_rank.h); it submits the rank's batch
 * to the pool and, while the batch runs, waits on it in fj_task_wait with a
 * short time-out, answering messages between waits.  fj's workers never see
 * MPI: they only read one flag (export_wanted) at each span.  A dedicated
 * thread (rather than a worker polling between tasks) keeps MPI out of task
 * code altogether; it looks at MPI between timed waits (POLL_MIN_NS below).
 *
 * Between ranks.  When its batch is done a rank is dry: it sends REQUEST to a
 * random other rank and waits for the answer (serving messages meanwhile).
 * A victim whose batch is running raises export_wanted; the next worker to
 * start a span of two or more nodes takes the upper half of it, turns it into
 * a frontier of unexplored internal nodes (export_frontier) and hands that to
 * the service point, which sends it as WORK.  A victim
 * with nothing to give, or whose batch ends before a worker took the request,
 * answers NO_WORK, and the thief tries another random rank.  One steal is two
 * messages: REQUEST, then WORK or NO_WORK.
 *
 * Termination: Safra's algorithm (Dijkstra, EWD998), written up at
 * termination_step() below.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "kernels.h"
#include "mpi_rank.h"

/* How long the service point sleeps between looks at MPI, in nanoseconds.
 * While its batch runs it shares the rank's cores with the workers, so each
 * look costs them a context switch: the interval doubles from POLL_MIN_NS up
 * to POLL_MAX_NS while no message comes, and drops back when one does (dry
 * ranks are asking then, and answers should be quick).  A dry rank looks
 * every POLL_MIN_NS.  POLL_MAX_NS bounds the delay before a busy rank sees
 * the first request (measured in docs/mpi.md: 50 us throughout cost a
 * worker sharing its core about a quarter of its speed).  These four
 * tunables can be set with -D for an experiment. */
#ifndef POLL_MIN_NS
#define POLL_MIN_NS 50000
#endif
#ifndef POLL_MAX_NS
#define POLL_MAX_NS 1000000
#endif

/* The most nodes one WORK message carries (8 bytes each). */
#define EXPORT_MAX 1024
/* A donor expands its frontier until it holds EXPORT_TARGET internal nodes
 * (about 8000 tree nodes each, on average), expanding at most EXPAND_LIMIT
 * nodes itself (some 0.2 ms): a steal should be worth its round trip.  The
 * frontier of this tree neither grows nor shrinks on average as it is
 * expanded, so the target is reached only sometimes; the limit bounds the
 * donor's detour.  docs/mpi.md has the measurements behind both values. */
#ifndef EXPORT_TARGET
#define EXPORT_TARGET 64
#endif
#ifndef EXPAND_LIMIT
#define EXPAND_LIMIT 1024
#endif

enum tag { TAG_REQUEST = 1, TAG_WORK, TAG_NO_WORK, TAG_TOKEN, TAG_DONE };

/* ======================================================================== */
/* The export slot: how workers hand nodes to the service point            */
/* ======================================================================== */
/*
 *   IDLE --service point--> WANTED --a worker (CAS)--> CLAIMED --same worker--> READY
 *     ^   (a REQUEST came)     |  ^                         |      (nodes in slot)  |
 *     |                        |  +-------same worker-------+                       |
 *     |                        |     (its half held only leaves)                    |
 *     +-- service point -------+----------------------------------- service point -+
 *         (the batch ended, no worker took it: NO_WORK)             (sent as WORK)
 * Only the service point leaves IDLE and READY, only workers leave WANTED
 * while the batch runs, only the claiming worker leaves CLAIMED.
 */
enum export_state { EXPORT_IDLE, EXPORT_WANTED, EXPORT_CLAIMED, EXPORT_READY };

static struct {
    atomic_int state;
    int count;                  /* written by the claiming worker, read once READY */
    uint64_t nodes[EXPORT_MAX];
} export_slot;

/* Worker: cheap enough to call at every span (a relaxed load, usually IDLE). */
static int export_wanted(void)
{
    return atomic_load_explicit(&export_slot.state, memory_order_relaxed) == EXPORT_WANTED;
}

/* ======================================================================== */
/* Exploring inside a rank                                                  */
/* ======================================================================== */

typedef struct span_task {
    fj_task task;
    const uint64_t *states;  /* the nodes themselves, or NULL: children of parent */
    uint64_t parent;
    int lo, hi;              /* the nodes [lo, hi) of that list */
    long nodes;              /* out: nodes in the subtrees of those explored here */
} span_task;

static uint64_t span_node(const span_task *s, int i)
{
    return s->states ? s->states[i] : kern_uts_child(s->parent, i);
}

/* Worker, holding the claimed slot: fills it with a frontier of unexplored
 * internal nodes taken from the upper half of s (at most EXPORT_MAX nodes),
 * and returns the nodes it counted on the way, which stay this rank's.
 * A leaf is not worth a message, so leaves are counted here; and while the
 * frontier is short of EXPORT_TARGET, its oldest node is expanded here
 * (counted, its internal children appended), at most EXPAND_LIMIT times.
 * In this tree every internal node's subtree has the same expected size, so
 * the frontier's length is what the thief gets, on average. */
static long export_frontier(span_task *s)
{
    int give = (s->hi - s->lo) / 2;
    if (give > EXPORT_MAX)
        give = EXPORT_MAX;
    long counted = 0;
    int head = 0, tail = 0;
    for (int i = s->hi - give; i < s->hi; i++) {
        uint64_t node = span_node(s, i);
        if (kern_uts_arity(node) > 0)
            export_slot.nodes[tail++] = node;
        else
            counted++;
    }
    s->hi -= give;
    for (int expanded = 0; tail - head > 0 && tail - head < EXPORT_TARGET && tail + KERN_UTS_M <= EXPORT_MAX &&
                           expanded < EXPAND_LIMIT;
         expanded++) {
        uint64_t node = export_slot.nodes[head++];
        counted++;
        for (int i = 0; i < KERN_UTS_M; i++) {
            uint64_t child = kern_uts_child(node, i);
            if (kern_uts_arity(child) > 0)
                export_slot.nodes[tail++] = child;
            else
                counted++;
        }
    }
    memmove(export_slot.nodes, export_slot.nodes + head, sizeof(uint64_t) * (size_t)(tail - head));
    export_slot.count = tail - head;
    return counted;
}

/* Worker: if a request is still open, claims it and hands over a frontier from
 * the upper half of [lo, hi); the span keeps the rest.  Returns the nodes
 * counted while doing so. */
static long export_from(span_task *s)
{
    int expected = EXPORT_WANTED;
    /* Acquire: pairs with the service point's release store of WANTED, which
     * comes after it finished reading the slot for the previous export; our
     * writes to nodes[] below must not overtake that read. */
    if (!atomic_compare_exchange_strong_explicit(&export_slot.state, &expected, EXPORT_CLAIMED,
                                                 memory_order_acquire, memory_order_relaxed))
        return 0;  /* another worker took it, or the service point withdrew it */
    long counted = export_frontier(s);
    /* Release: publishes nodes[] and count; pairs with the acquire load of
     * READY in export_take.  A half of leaves only (counted here) leaves the
     * request open for the next span, with the same release. */
    atomic_store_explicit(&export_slot.state, export_slot.count > 0 ? EXPORT_READY : EXPORT_WANTED,
                          memory_order_release);
    return counted;
}

static int span_explore(fj_task *t)
{
    span_task *s = FJ_CONTAINER_OF(t, span_task, task);
    long counted = 0;  /* nodes handed over are counted by the rank that receives them */
    if (s->hi - s->lo >= 2 && export_wanted())
        counted = export_from(s);
    s->nodes = counted;
    if (s->hi - s->lo == 1) {
        uint64_t node = span_node(s, s->lo);
        span_task children = {FJ_TASK_INIT(span_explore), NULL, node, 0, kern_uts_arity(node), 0};
        if (children.hi > 0)
            span_explore(&children.task);
        s->nodes = counted + 1 + children.nodes;
    } else if (s->hi - s->lo >= 2) {
        int mid = s->lo + (s->hi - s->lo) / 2;
        span_task upper = {FJ_TASK_INIT(span_explore), s->states, s->parent, mid, s->hi, 0};
        span_task lower = {FJ_TASK_INIT(span_explore), s->states, s->parent, s->lo, mid, 0};
        fj_fork(&upper.task);
        span_explore(&lower.task);
        fj_join(&upper.task);
        s->nodes = counted + lower.nodes + upper.nodes;
    }
    return 0;
}

/* ======================================================================== */
/* The service point: main's state and its messages                         */
/* ======================================================================== */

/* A message in flight: MPI_Isend reads `payload` until the request completes. */
typedef struct outgoing {
    struct outgoing *next;
    MPI_Request request;
    uint64_t payload[];
} outgoing;

typedef struct rank_state {
    int rank, size;
    fj_pool *pool;
    /* the batch the pool is exploring, if any (the rank is active) */
    span_task *batch;
    uint64_t *batch_states;   /* owned; NULL for the root's children */
    long nodes;               /* nodes counted in finished batches */
    int donate_to;            /* rank whose REQUEST the export slot serves, or -1 */
    int awaiting;             /* rank our REQUEST went to, or -1 */
    uint64_t rng;
    long poll_ns;             /* the service point's current look interval */
    outgoing *sends;
    /* Safra's termination detection */
    long long balance;        /* WORK messages sent minus received */
    int black;                /* received WORK since the token last left */
    int has_token;
    long long token_sum;
    int token_black;
    int done;
    /* counts reported at the end */
    long long requests_sent, batches_received, batches_sent, nodes_sent, refusals_sent, token_sends;
} rank_state;

static void fail(const char *what, int code)
{
    fprintf(stderr, "uts_mpi: %s (%d)\n", what, code);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void send_message(rank_state *st, int dest, int tag, const uint64_t *payload, int count)
{
    outgoing *m = malloc(sizeof *m + sizeof(uint64_t) * (size_t)(count > 0 ? count : 1));
    if (!m)
        fail("out of memory for a message", count);
    if (count > 0)
        memcpy(m->payload, payload, sizeof(uint64_t) * (size_t)count);
    MPI_Isend(m->payload, count, MPI_UINT64_T, dest, tag, MPI_COMM_WORLD, &m->request);
    m->next = st->sends;
    st->sends = m;
}

/* Frees the messages the receiver has taken. */
static void reap_sends(rank_state *st)
{
    for (outgoing **link = &st->sends; *link;) {
        int sent;
        MPI_Test(&(*link)->request, &sent, MPI_STATUS_IGNORE);
        if (sent) {
            outgoing *m = *link;
            *link = m->next;
            free(m);
        } else {
            link = &(*link)->next;
        }
    }
}

/* Hands a span to the pool as the rank's batch; `states` (may be NULL) is freed
 * when the batch ends. */
static void batch_start(rank_state *st, uint64_t *states, uint64_t parent, int count)
{
    span_task *b = malloc(sizeof *b);
    if (!b)
        fail("out of memory for a batch", count);
    *b = (span_task){FJ_TASK_INIT(span_explore), states, parent, 0, count, 0};
    st->batch = b;
    st->batch_states = states;
    int rc = fj_pool_submit(st->pool, &b->task);
    if (rc != 0)
        fail(fj_strerror(rc), rc);
}

/* Sends what a worker put in the export slot, if it is there; 1 if sent. */
static int export_take(rank_state *st)
{
    /* Acquire: pairs with the release store of READY in export_from. */
    if (atomic_load_explicit(&export_slot.state, memory_order_acquire) != EXPORT_READY)
        return 0;
    send_message(st, st->donate_to, TAG_WORK, export_slot.nodes, export_slot.count);
    st->balance++;
    st->batches_sent++;
    st->nodes_sent += export_slot.count;
    st->donate_to = -1;
    /* Relaxed: no worker acts on IDLE.  Our read of nodes[] (the copy in
     * send_message) is ordered before the next claimer's writes by the next
     * WANTED store, a release (on_request). */
    atomic_store_explicit(&export_slot.state, EXPORT_IDLE, memory_order_relaxed);
    return 1;
}

/* The batch ended: no worker runs our spans any more, so a request no worker
 * claimed is answered NO_WORK. */
static void batch_finish(rank_state *st)
{
    st->nodes += st->batch->nodes;
    free(st->batch);
    free(st->batch_states);
    st->batch = NULL;
    st->batch_states = NULL;
    if (st->donate_to >= 0 && !export_take(st)) {
        atomic_store_explicit(&export_slot.state, EXPORT_IDLE, memory_order_relaxed);
        send_message(st, st->donate_to, TAG_NO_WORK, NULL, 0);
        st->refusals_sent++;
        st->donate_to = -1;
    }
}

static void on_request(rank_state *st, int from)
{
    if (st->batch && st->donate_to < 0) {
        st->donate_to = from;
        /* Release: pairs with the claiming CAS (acquire) in export_from: our
         * reads of the slot for the previous export happen-before the
         * claimer's writes to it. */
        atomic_store_explicit(&export_slot.state, EXPORT_WANTED, memory_order_release);
    } else {
        send_message(st, from, TAG_NO_WORK, NULL, 0);
        st->refusals_sent++;
    }
}

static void on_work(rank_state *st, MPI_Status *status)
{
    int count;
    MPI_Get_count(status, MPI_UINT64_T, &count);
    uint64_t *states = malloc(sizeof *states * (size_t)(count > 0 ? count : 1));
    if (!states)
        fail("out of memory for received work", count);
    MPI_Recv(states, count, MPI_UINT64_T, status->MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st->done || st->batch)
        fail("WORK arrived at a rank that did not ask for it", status->MPI_SOURCE);
    st->balance--;
    st->black = 1;
    st->batches_received++;
    st->awaiting = -1;
    batch_start(st, states, 0, count);
}

/* Receives every message that has arrived; returns how many. */
static int serve_messages(rank_state *st)
{
    int handled = 0;
    for (;;) {
        int arrived;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
        if (!arrived)
            break;
        handled++;
        if (status.MPI_TAG == TAG_WORK) {
            on_work(st, &status);
            continue;
        }
        uint64_t small[2] = {0, 0};
        MPI_Recv(small, 2, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        switch (status.MPI_TAG) {
        case TAG_REQUEST: on_request(st, status.MPI_SOURCE); break;
        case TAG_NO_WORK: st->awaiting = -1; break;
        case TAG_TOKEN:
            st->has_token = 1;
            st->token_sum = (long long)small[0];
            st->token_black = (int)small[1];
            break;
        case TAG_DONE: st->done = 1; break;
        default: fail("unknown message tag", status.MPI_TAG);
        }
    }
    return handled;
}

static int random_other_rank(rank_state *st)
{
    st->rng ^= st->rng << 13;
    st->rng ^= st->rng >> 7;
    st->rng ^= st->rng << 17;
    int r = (int)(st->rng % (uint64_t)(st->size - 1));
    return r >= st->rank ? r + 1 : r;
}

static void send_token(rank_state *st, long long sum, int black)
{
    uint64_t token[2] = {(uint64_t)sum, (uint64_t)black};
    send_message(st, (st->rank + 1) % st->size, TAG_TOKEN, token, 2);
    st->has_token = 0;
    st->token_sends++;
}

/* ======================================================================== */
/* Termination: Safra's algorithm (EWD998)                                  */
/* ======================================================================== */
/*
 * The search is over when every rank is passive (has no batch) and no WORK
 * message is in flight: only WORK makes a rank active (a passive rank answers
 * REQUEST with NO_WORK, and neither carries work), so nothing can start again.
 * Each rank keeps
 *     c     = WORK messages it sent - WORK messages it received   (balance)
 *     black = it received WORK since it last passed the token on.
 * A token (sum, black) goes round the ring 0 -> 1 -> ... -> P-1 -> 0.  A rank
 * holds it while active; once passive it adds c to sum, blackens the token
 * if it is black itself, turns white and passes it on.  Rank 0, passive with
 * the token back, concludes termination when
 *     the token is white, rank 0 is white, and sum + c(0) == 0,
 * and otherwise turns white and starts a round: a white token with sum 0.
 *
 * Why that is safe.  Let V be the ranks the token has visited in this round
 * (1..k), U the others (k+1..P-1, and 0), and B the WORK messages in flight.
 * Always B = (sum of c over all ranks).  Within a round,
 *   I1  every rank in V is passive and sum = (sum of c over V), or
 *   I2  sum + (sum of c over U) > 0, or
 *   I3  some rank in U is black, or
 *   I4  the token is black
 * holds: at the round's start I1 holds (V is empty); passing the token on
 * keeps I1 (the passer is passive and adds its own c) and I2 (its c moves
 * from U's total into sum).  A passive rank sends no WORK, so I1 breaks only
 * when a rank in V receives WORK; just before, I1 gave B = sum + (c over U) and B >= 1,
 * so I2 held, and that receipt leaves sum and U alone: I2 still holds.  I2
 * breaks only when a rank in U receives WORK (its c drops), and then that rank
 * is black: I3.  I3 breaks only when the token passes a black rank of U, which
 * blackens the token: I4, which nothing undoes within the round.  When the
 * token is back, U = {0}: a white token and a white rank 0 rule out I4 and
 * I3, sum + c(0) == 0 rules out I2, so I1 holds: ranks 1..P-1 are passive,
 * rank 0 is passive too (it only looks then), and B = sum + c(0) = 0.
 * It is also live: once the search is over nobody receives WORK or turns
 * black again, the round after the one in progress is white all the way, and
 * its sum is B = 0, so rank 0 sees it within two rounds.
 *
 * Cost: a round is P token messages; it starts only when rank 0 is passive
 * and advances only through passive ranks, so tokens move while ranks are
 * dry and the search is ending, not while everyone works.  Then P-1 DONE
 * messages, and a closing MPI_Ibarrier (close_down) so that no REQUEST is
 * left unanswered when MPI_Finalize comes.
 */
static void termination_step(rank_state *st)
{
    if (st->batch || !st->has_token)
        return;
    if (st->rank != 0) {
        send_token(st, st->token_sum + st->balance, st->token_black || st->black);
        st->black = 0;
        return;
    }
    if (!st->token_black && !st->black && st->token_sum + st->balance == 0) {
        st->done = 1;
        for (int r = 1; r < st->size; r++)
            send_message(st, r, TAG_DONE, NULL, 0);
        return;
    }
    st->black = 0;
    send_token(st, 0, 0);
}

static void nap(void)
{
    struct timespec t = {0, POLL_MIN_NS};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* The service loop, until termination is known to this rank. */
static void serve_until_done(rank_state *st)
{
    while (!st->done) {
        int handled = serve_messages(st);
        reap_sends(st);
        if (st->batch) {
            if (st->donate_to >= 0)
                export_take(st);
            if (handled || st->donate_to >= 0)
                st->poll_ns = POLL_MIN_NS;
            else if (st->poll_ns < POLL_MAX_NS)
                st->poll_ns *= 2;
            int rc = fj_task_wait(&st->batch->task, st->poll_ns);
            if (rc == FJ_ETIMEDOUT)
                continue;
            if (rc != 0)
                fail(fj_strerror(rc), rc);
            batch_finish(st);
            continue;
        }
        if (st->size > 1 && st->awaiting < 0) {
            st->awaiting = random_other_rank(st);
            send_message(st, st->awaiting, TAG_REQUEST, NULL, 0);
            st->requests_sent++;
        }
        termination_step(st);
        if (!handled)
            nap();
    }
}

/* After DONE: our own REQUEST must be answered and we must answer everyone
 * else's until all ranks are here, so that no message is left unreceived. */
static void close_down(rank_state *st)
{
    while (st->awaiting >= 0)
        if (!serve_messages(st))
            nap();
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    for (;;) {
        int all_here;
        MPI_Test(&barrier, &all_here, MPI_STATUS_IGNORE);
        if (all_here)
            break;
        if (!serve_messages(st))
            nap();
    }
    while (st->sends) {
        reap_sends(st);
        if (st->sends)
            nap();
    }
}

int main(int argc, char **argv)
{
    rank_mpi_init(&argc, &argv);
    rank_state st = {.donate_to = -1, .awaiting = -1, .poll_ns = POLL_MIN_NS};
    MPI_Comm_rank(MPI_COMM_WORLD, &st.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &st.size);
    unsigned workers = 0;
    long root_children = 2000;
    rank_parse(argc, argv, &workers, &root_children);
    if (root_children < 0 || root_children > 100000000)
        fail("ROOT_CHILDREN out of range", (int)root_children);
    int cpus;
    workers = rank_worker_count(workers, &cpus);
    st.pool = rank_pool(workers);
    st.rng = 0x9e3779b97f4a7c15ull * (uint64_t)(st.rank + 1);
    st.has_token = st.rank == 0;
    st.token_black = 1;  /* rank 0's first look only starts the first round */

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (st.rank == 0) {
        st.nodes = 1;  /* the root; its children are the first batch */
        batch_start(&st, NULL, kern_mix64(KERN_UTS_ROOT), (int)root_children);
    }
    serve_until_done(&st);
    double t1 = MPI_Wtime();
    close_down(&st);

    long long mine[7] = {st.nodes, st.requests_sent, st.batches_received, st.batches_sent,
                         st.nodes_sent, st.refusals_sent, st.token_sends};
    long long sum[7];
    MPI_Reduce(mine, sum, 7, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    long long *per_rank = st.rank == 0 ? malloc(sizeof *per_rank * (size_t)st.size) : NULL;
    MPI_Gather(&st.nodes, 1, MPI_LONG_LONG, per_rank, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    fj_pool_destroy(st.pool);

    int status = 0;
    if (st.rank == 0) {
        printf("uts(%ld) = %lld nodes on %d ranks x %u workers (%d CPUs in rank 0's mask) in %.3f s\n",
               root_children, sum[0], st.size, workers, cpus, t1 - t0);
        printf("nodes per rank:");
        for (int r = 0; r < st.size; r++)
            printf(" %lld", per_rank[r]);
        printf("\ninter-rank steals: %lld requests sent, %lld batches received (%lld nodes), "
               "%lld refused; %lld token messages\n",
               sum[1], sum[2], sum[4], sum[5], sum[6]);
        double s0 = kern_now();
        long expected = kern_uts_expected((int)root_children);
        double s1 = kern_now();
        if (sum[0] == expected) {
            printf("uts_mpi: matches serial (%ld nodes; serial count %.3f s)\n", expected, s1 - s0);
        } else {
            printf("uts_mpi: FAIL: %lld nodes, serial count %ld\n", sum[0], expected);
            status = 1;
        }
        if (sum[2] != sum[3])
            printf("uts_mpi: FAIL: %lld batches sent but %lld received\n", sum[3], sum[2]), status = 1;
        free(per_rank);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
