/* trace.c - per-worker event buffers, the trace session, the JSON writer.
 *
 * Design overview
 * ===============
 * The ideal: every worker appends (time, event, task, other) to its own array;
 * at the end someone reads all the arrays and prints them.
 *
 * Complications, one at a time:
 *
 * 1. Stopping while workers run.  fj_trace_stop() may be called while workers
 *    are appending.  Each buffer has a `writing` flag: the owner sets it, then
 *    checks that the session is still recording, appends, and clears it
 *    (release).  The closer clears `trace_recording`, then waits for every
 *    flag to read 0 (acquire).  It is Dekker's handshake: owner (store
 *    writing; fence_light; load recording) against closer (store recording;
 *    fence_heavy; load writing), so either the owner sees the session closed
 *    and appends nothing, or the closer sees it writing and waits for the
 *    release that publishes the record.  After that, the owner never touches
 *    the records again.
 *
 * 2. Buffer lifetime.  A buffer is held by its worker and by its session
 *    (`refs` = 2).  A pool destroyed before the session stops leaves its
 *    buffers with the session; a session that stops while the pool lives
 *    leaves them with the workers until their next event.  The last holder
 *    frees the buffer.
 *
 * 3. Reaching running workers.  The hot path reads one owner-written byte
 *    (fj_worker.hooks), fixed when a worker starts: a worker is *armed* for
 *    tracing if a session was ever opened in the process, or FJ_TRACE is set.
 *    ("Ever", not "now": a pool's threads may start running after a short
 *    session already stopped, and must still follow the next one.)  An armed
 *    worker follows every later start and stop: on its next event it notices
 *    the session changed (its buffer's session id differs) and attaches a
 *    buffer to the new one; with no session open, an event costs one load.
 *
 * 4. Bounded memory.  A buffer holds a fixed number of records.  When it is
 *    full the worker counts what it drops; the file closes the open slices at
 *    the last kept record and says "trace buffer full" with the count.
 *
 * 6. Running or descheduled.  A worker the OS took off its CPU looks busy on
 *    a wall clock.  So a record also carries the thread's CPU time
 *    (CLOCK_THREAD_CPUTIME_ID), read at most every TRACE_CPU_SAMPLE_NS of
 *    wall time (and at every park and wake): the file has, per worker, a
 *    counter "on CPU" with the share of each interval between two samples
 *    that the thread actually ran (parked intervals count as 100: they are
 *    drawn as parked).  fj_timeline draws the rest as descheduled.
 * 7. Ends that are not a clean stop.  The file is opened with a placeholder
 *    that says the trace was never completed (a crash leaves that, not 0
 *    bytes), and rewritten at the stop.  A stop with tasks still running
 *    (at exit, with work pending) writes what was recorded, closes the open
 *    slices at the stop time and marks the file partial ("partial": true in
 *    otherData, and an instant event "trace stopped with work pending").
 *
 * 5. Balanced slices.  A session that starts or stops while tasks run sees an
 *    end without its begin, or a begin without its end.  The writer replays
 *    each buffer with a stack: ends with nothing open are dropped, begins left
 *    open are ended at the stop time.  Every track of the file is balanced.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "pool.h"
#include "trace.h"

typedef struct trace_record {
    long long ns;      /* CLOCK_MONOTONIC */
    const void *task;
    int other;
    int event;         /* enum hook_event */
    long long cpu_ns;  /* the thread's CPU time, or -1 if not sampled here (point 6) */
} trace_record;

/* Wall time between two CPU-time samples of a worker (point 6). */
#define TRACE_CPU_SAMPLE_NS 20000

typedef struct trace_buffer {
    /* Handshake and ownership (point 1, 2). */
    atomic_word writing;         /* 1 while the owner appends */
    atomic_word refs;            /* the worker and the session */
    /* Written under trace_lock. */
    struct trace_buffer *next;   /* the session's list */
    size_t session;              /* id of the session it records for */
    unsigned pool_number;        /* 1, 2, ... in order of first event in the session */
    unsigned worker_index;
    /* Written by the owner during appends; read by the closer after point 1. */
    size_t used, capacity, dropped;
    long long last_cpu_sample;   /* wall time of the last CPU-time sample */
    trace_record records[];
} trace_buffer;

typedef struct trace_pool_name {
    const void *pool;
    unsigned number;
    unsigned workers;
} trace_pool_name;

/* id of the session that is recording, 0 when none.  Read on every armed
 * event, written under trace_lock. */
static atomic_word trace_recording;
/* 1 once any session was opened: workers that start from then on are armed. */
static atomic_word trace_ever_opened;

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static struct trace_session {
    size_t id;  /* == trace_recording while open */
    FILE *out;
    char *path;                /* for the account of a failed write */
    long long origin_ns;
    size_t capacity;           /* records per buffer */
    trace_buffer *buffers;
    trace_pool_name *pools;
    unsigned pool_count, pool_room;
    unsigned out_of_memory;    /* workers that could not get a buffer */
} session;
static size_t sessions_opened;
static bool env_session_tried, exit_handler_set;

static long long trace_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static long long thread_cpu_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void trace_buffer_release(trace_buffer *b)
{
    /* Full: the last holder's frees come after every other holder's use. */
    if (atomic_fetch_add_full(&b->refs, (size_t)-1) == 1)
        free(b);
}

/* ---- opening and closing sessions (cold: under trace_lock) ---- */

static size_t trace_capacity_from_env(void)
{
    const char *text = getenv("FJ_TRACE_BUFFER");
    long n = text ? strtol(text, NULL, 10) : 0;
    return n >= 16 ? (size_t)n : TRACE_DEFAULT_RECORDS;
}

static void trace_at_exit(void);

/* What a trace file holds until its session stops (point 7): valid JSON that
 * says why there is nothing else. */
static const char trace_placeholder[] =
    "{\"traceEvents\":[],\"otherData\":{\"producer\":\"fj\",\"incomplete\":\"the program ended before the trace "
    "was written (a crash, or _exit)\"}}\n";

/* errno of the last failed open, for FJ_TRACE's message. */
static int trace_open_errno;

/* Opens a session writing to `path`.  Caller holds trace_lock. */
static int trace_session_open(const char *path)
{
    if (session.id)
        return FJ_EBUSY;
    FILE *out = fopen(path, "w");
    char *path_copy = out ? strdup(path) : NULL;
    if (!path_copy) {
        trace_open_errno = errno;
        if (out)
            fclose(out);
        return error_refuse(trace_open_errno == ENOMEM ? FJ_ENOMEM : FJ_ESYSTEM, "fj_trace_start: %s: cannot open the file: %s",
                            path, strerror(trace_open_errno));
    }
    fputs(trace_placeholder, out);
    fflush(out);
    memset(&session, 0, sizeof session);
    session.id = ++sessions_opened;
    session.out = out;
    session.path = path_copy;
    session.origin_ns = trace_now();
    session.capacity = trace_capacity_from_env();
    if (!exit_handler_set)
        exit_handler_set = atexit(trace_at_exit) == 0;
    atomic_store(&trace_ever_opened, 1);
    /* Release: the session's fields are set before an armed worker that reads
     * the new id attaches a buffer (it does so under trace_lock anyway). */
    atomic_store_release(&trace_recording, session.id);
    return 0;
}

static unsigned trace_pool_number(const fj_pool *pool)
{
    for (unsigned i = 0; i < session.pool_count; i++)
        if (session.pools[i].pool == pool)
            return session.pools[i].number;
    if (session.pool_count == session.pool_room) {
        unsigned room = session.pool_room ? 2 * session.pool_room : 8;
        trace_pool_name *grown = realloc(session.pools, room * sizeof *grown);
        if (!grown)
            return 0;
        session.pools = grown;
        session.pool_room = room;
    }
    trace_pool_name *entry = &session.pools[session.pool_count++];
    entry->pool = pool;
    entry->number = session.pool_count;
    entry->workers = pool->count;
    return entry->number;
}

/* A buffer for w in the open session, or NULL (none open, out of memory). */
static trace_buffer *trace_buffer_attach(fj_worker *w)
{
    pthread_mutex_lock(&trace_lock);
    trace_buffer *b = NULL;
    if (session.id) {
        b = malloc(sizeof *b + session.capacity * sizeof(trace_record));
        unsigned number = b ? trace_pool_number(w->pool) : 0;
        if (b && number) {
            memset(b, 0, sizeof *b);
            b->refs = 2;
            b->session = session.id;
            b->pool_number = number;
            b->worker_index = w->index;
            b->capacity = session.capacity;
            b->next = session.buffers;
            session.buffers = b;
        } else {
            free(b);
            b = NULL;
            session.out_of_memory++;
        }
    }
    pthread_mutex_unlock(&trace_lock);
    return b;
}

/* ---- the owner's side of the handshake (point 1) ---- */

/* Marks b as being written and checks that its session still records. */
static bool trace_append_begin(trace_buffer *b)
{
    atomic_store(&b->writing, 1);
    /* StoreLoad: `writing` is visible before we read the session id, so a
     * closer that saw writing == 0 made us see its id change.  Pairs with the
     * fence_heavy() in fj_trace_stop. */
    fence_light();
    if (atomic_load(&trace_recording) == b->session)
        return true;
    /* Release: as in trace_append_end (nothing was appended). */
    atomic_store_release(&b->writing, 0);
    return false;
}

static void trace_append_end(trace_buffer *b)
{
    /* Release: the record is complete before the closer, acquiring 0, reads it. */
    atomic_store_release(&b->writing, 0);
}

/* w's buffer for the recording session, with `writing` set; NULL if none. */
static trace_buffer *trace_writable_buffer(fj_worker *w)
{
    trace_buffer *b = w->trace;
    if (b && trace_append_begin(b))
        return b;
    if (b) {  /* its session stopped: the session keeps what it needs */
        w->trace = NULL;
        trace_buffer_release(b);
    }
    if (atomic_load(&trace_recording) == 0)
        return NULL;
    b = trace_buffer_attach(w);
    if (!b)
        return NULL;
    w->trace = b;
    return trace_append_begin(b) ? b : NULL;
}

void trace_event(fj_worker *w, enum hook_event event, const struct fj_task *task, int other)
{
    trace_buffer *b = trace_writable_buffer(w);
    if (!b)
        return;
    if (b->used < b->capacity) {
        trace_record *r = &b->records[b->used++];
        r->ns = trace_now();
        r->task = task;
        r->other = other;
        r->event = (int)event;
        r->cpu_ns = -1;
        if (event == HOOK_PARK || event == HOOK_WAKE || r->ns - b->last_cpu_sample >= TRACE_CPU_SAMPLE_NS) {
            r->cpu_ns = thread_cpu_now();
            b->last_cpu_sample = r->ns;
        }
    } else {
        b->dropped++;
    }
    trace_append_end(b);
}

void trace_worker_stop(fj_worker *w)
{
    if (w->trace) {
        trace_buffer_release(w->trace);
        w->trace = NULL;
    }
}

bool trace_wanted(void)
{
    if (atomic_load(&trace_ever_opened) != 0)
        return true;
    const char *path = getenv("FJ_TRACE");
    if (!path || !*path)
        return false;
    pthread_mutex_lock(&trace_lock);
    if (!env_session_tried) {
        env_session_tried = true;
        int rc = trace_session_open(path);
        if (rc != 0 && rc != FJ_EBUSY)  /* FJ_TRACE asked for output: say why there is none */
            fprintf(stderr, "fj: FJ_TRACE=%s: cannot open the file: %s\n", path, strerror(trace_open_errno));
    }
    pthread_mutex_unlock(&trace_lock);
    return true;
}

/* ---- writing the Chrome Trace Event file ---- */

enum slice_kind { SLICE_TASK, SLICE_JOIN, SLICE_PARK };

typedef struct trace_writer {
    FILE *out;
    long long origin_ns;
    bool first;            /* no event written yet (commas) */
    unsigned long flow_id; /* steal arrows, numbered across the file */
    /* Replay state of the buffer being written. */
    const trace_buffer *b;
    unsigned char *stack;  /* enum slice_kind of each open slice */
    size_t depth, room, task_depth;
    const void *pending_task;  /* how the next task was obtained ... */
    const char *pending_how;   /* ... "stolen", "inline", ... */
    int pending_from;          /* victim, or -1 */
    long long sample_ns, sample_cpu;  /* the previous CPU-time sample, ns < 0: none (point 6) */
    bool parked_since_sample;
    bool partial;              /* slices were still open at the stop (point 7) */
} trace_writer;

static void put_ts(trace_writer *wr, long long ns)
{
    long long rel = ns - wr->origin_ns;
    if (rel < 0)
        rel = 0;
    fprintf(wr->out, "%lld.%03lld", rel / 1000, rel % 1000);
}

/* Starts one event object: {"ph":..,"pid":..,"tid":..,"ts":..  (caller closes). */
static void event_open(trace_writer *wr, const char *ph, unsigned tid, long long ns)
{
    fputs(wr->first ? "\n" : ",\n", wr->out);
    wr->first = false;
    fprintf(wr->out, "{\"ph\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":", ph, wr->b->pool_number, tid);
    put_ts(wr, ns);
}

static void instant(trace_writer *wr, const trace_record *r, const char *cat, const char *name)
{
    event_open(wr, "i", wr->b->worker_index, r->ns);
    fprintf(wr->out, ",\"s\":\"t\",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{\"task\":\"%p\"", cat, name, r->task);
    if (r->other >= 0)
        fprintf(wr->out, ",\"victim\":%d", r->other);
    fputs("}}", wr->out);
}

static int slice_push(trace_writer *wr, enum slice_kind kind)
{
    if (wr->depth == wr->room) {
        size_t room = wr->room ? 2 * wr->room : 64;
        unsigned char *grown = realloc(wr->stack, room);
        if (!grown)
            return FJ_ENOMEM;
        wr->stack = grown;
        wr->room = room;
    }
    wr->stack[wr->depth++] = (unsigned char)kind;
    if (kind == SLICE_TASK)
        wr->task_depth++;
    return 0;
}

static const char *slice_cat(unsigned char kind)
{
    return kind == SLICE_TASK ? "task" : kind == SLICE_JOIN ? "join" : "idle";
}

static void slice_end(trace_writer *wr, long long ns)
{
    unsigned char kind = wr->stack[--wr->depth];
    if (kind == SLICE_TASK)
        wr->task_depth--;
    event_open(wr, "E", wr->b->worker_index, ns);
    fprintf(wr->out, ",\"cat\":\"%s\"}", slice_cat(kind));
}

/* An end event: closes the innermost slice if it is of `kind` (point 5). */
static void slice_close(trace_writer *wr, enum slice_kind kind, long long ns)
{
    if (wr->depth > 0 && wr->stack[wr->depth - 1] == kind)
        slice_end(wr, ns);
}

static int task_begin(trace_writer *wr, const trace_record *r)
{
    const char *how = "local";
    int from = -1;
    if (wr->pending_task == r->task && wr->pending_how) {
        how = wr->pending_how;
        from = wr->pending_from;
    }
    wr->pending_task = NULL;
    /* A help: run by a joiner waiting for another task, other than by
     * leapfrogging (fj_worker_stats counts those apart). */
    bool help = wr->depth > 0 && wr->stack[wr->depth - 1] == SLICE_JOIN && strcmp(how, "leapfrog") != 0;
    event_open(wr, "B", wr->b->worker_index, r->ns);
    fprintf(wr->out, ",\"cat\":\"task\",\"name\":\"task:%s\",\"args\":{\"task\":\"%p\",\"depth\":%zu", how, r->task,
            wr->task_depth);
    if (from >= 0)
        fprintf(wr->out, ",\"victim\":%d", from);
    if (help)
        fputs(",\"help\":1", wr->out);
    fputs("}}", wr->out);
    return slice_push(wr, SLICE_TASK);
}

static int slice_begin(trace_writer *wr, const trace_record *r, enum slice_kind kind, const char *name)
{
    event_open(wr, "B", wr->b->worker_index, r->ns);
    fprintf(wr->out, ",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{\"task\":\"%p\"}}", slice_cat(kind), name, r->task);
    return slice_push(wr, kind);
}

/* A steal or leapfrog: an arrow from the victim's track to the thief's, which
 * ends on the next slice the thief begins (the stolen task). */
static void steal_arrow(trace_writer *wr, const trace_record *r, const char *cat)
{
    unsigned long id = ++wr->flow_id;
    event_open(wr, "s", (unsigned)r->other, r->ns);
    fprintf(wr->out, ",\"cat\":\"%s\",\"name\":\"%s\",\"id\":%lu}", cat, cat, id);
    event_open(wr, "f", wr->b->worker_index, r->ns);
    fprintf(wr->out, ",\"cat\":\"%s\",\"name\":\"%s\",\"id\":%lu}", cat, cat, id);
    instant(wr, r, cat, cat);
}

static void expect_task(trace_writer *wr, const trace_record *r, const char *how)
{
    wr->pending_task = r->task;
    wr->pending_how = how;
    wr->pending_from = r->other;
}

/* Point 6: the share of the interval since the previous sample this thread
 * ran, as a counter that starts at the previous sample. */
static void cpu_sample(trace_writer *wr, const trace_record *r)
{
    if (wr->sample_ns >= 0 && r->ns > wr->sample_ns) {
        double share = (double)(r->cpu_ns - wr->sample_cpu) / (double)(r->ns - wr->sample_ns);
        if (wr->parked_since_sample || share > 1)
            share = 1;
        if (share < 0)
            share = 0;
        event_open(wr, "C", wr->b->worker_index, wr->sample_ns);
        fprintf(wr->out, ",\"cat\":\"cpu\",\"name\":\"on CPU %%, worker %u\",\"args\":{\"percent\":%.0f}}",
                wr->b->worker_index, 100 * share);
    }
    wr->sample_ns = r->ns;
    wr->sample_cpu = r->cpu_ns;
    wr->parked_since_sample = r->event == HOOK_PARK;
}

static int replay_record(trace_writer *wr, const trace_record *r)
{
    if (r->cpu_ns >= 0)
        cpu_sample(wr, r);
    else if (r->event == HOOK_PARK)
        wr->parked_since_sample = true;
    switch ((enum hook_event)r->event) {
    case HOOK_TASK_BEGIN:
        return task_begin(wr, r);
    case HOOK_TASK_END:
        slice_close(wr, SLICE_TASK, r->ns);
        break;
    case HOOK_JOIN_BEGIN:
        return slice_begin(wr, r, SLICE_JOIN, "join:wait");
    case HOOK_JOIN_END:
        slice_close(wr, SLICE_JOIN, r->ns);
        break;
    case HOOK_PARK:
        return slice_begin(wr, r, SLICE_PARK, "parked");
    case HOOK_WAKE:
        slice_close(wr, SLICE_PARK, r->ns);
        break;
    case HOOK_FORK:
        if (r->other == TRACE_FORK_ELIDED) {
            instant(wr, &(trace_record){r->ns, r->task, -1, 0, -1}, "fork", "fork:serial");
            expect_task(wr, &(trace_record){r->ns, r->task, -1, 0, -1}, "serial");
        } else {
            instant(wr, r, "fork", "fork");
        }
        break;
    case HOOK_INLINE_JOIN:
        instant(wr, r, "join", "join:inline");
        expect_task(wr, r, "inline");
        break;
    case HOOK_STEAL:
        steal_arrow(wr, r, "steal");
        expect_task(wr, r, "stolen");
        break;
    case HOOK_LEAPFROG:
        steal_arrow(wr, r, "leapfrog");
        expect_task(wr, r, "leapfrog");
        break;
    case HOOK_INJECTOR_TAKE:
        instant(wr, r, "injector", "injector:take");
        expect_task(wr, r, "injected");
        break;
    case HOOK_JOIN_DONE:
    case HOOK_UNFORK:
    case HOOK_STRESS_HOLD:
    case HOOK_STRESS_RELEASE:
        break;  /* the profiler's; nothing to draw */
    }
    return 0;
}

static int write_buffer(trace_writer *wr, const trace_buffer *b, long long stop_ns)
{
    wr->b = b;
    wr->depth = wr->task_depth = 0;
    wr->pending_task = NULL;
    wr->sample_ns = -1;
    wr->parked_since_sample = false;
    int rc = 0;
    for (size_t i = 0; i < b->used && rc == 0; i++)
        rc = replay_record(wr, &b->records[i]);
    long long end_ns = stop_ns;
    if (b->dropped && b->used)
        end_ns = b->records[b->used - 1].ns;
    if (wr->sample_ns >= 0 && end_ns > wr->sample_ns) {  /* the last interval: unknown, drawn as running */
        event_open(wr, "C", b->worker_index, wr->sample_ns);
        fprintf(wr->out, ",\"cat\":\"cpu\",\"name\":\"on CPU %%, worker %u\",\"args\":{\"percent\":100}}",
                b->worker_index);
    }
    bool open_task = false;
    for (size_t i = 0; i < wr->depth; i++)
        open_task |= wr->stack[i] == SLICE_TASK;
    if (open_task && !b->dropped) {
        wr->partial = true;
        event_open(wr, "i", b->worker_index, end_ns);
        fputs(",\"s\":\"t\",\"cat\":\"trace\",\"name\":\"trace stopped with work pending\",\"args\":{}}", wr->out);
    }
    while (wr->depth > 0)
        slice_end(wr, end_ns);
    if (b->dropped) {
        event_open(wr, "i", b->worker_index, end_ns);
        fprintf(wr->out, ",\"s\":\"t\",\"cat\":\"trace\",\"name\":\"trace buffer full\",\"args\":{\"dropped\":%zu}}",
                b->dropped);
    }
    return rc;
}

static void write_names(trace_writer *wr, const struct trace_session *s)
{
    for (unsigned p = 0; p < s->pool_count; p++) {
        const trace_pool_name *pool = &s->pools[p];
        fprintf(wr->out, "%s\n{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"fj pool %u\"}}",
                wr->first ? "" : ",", pool->number, pool->number);
        wr->first = false;
        for (unsigned i = 0; i < pool->workers; i++) {
            fprintf(wr->out, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"worker %u\"}}",
                    pool->number, i, i);
            fprintf(wr->out,
                    ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
                    pool->number, i, i);
        }
    }
}

/* Writes the whole file; returns 0, FJ_ENOMEM or FJ_ESYSTEM (write error). */
static int trace_write(const struct trace_session *s, trace_buffer *buffers, long long stop_ns)
{
    trace_writer wr = {.out = s->out, .origin_ns = s->origin_ns, .first = true};
    size_t dropped = 0;
    int rc = 0;
    /* Point 7: the placeholder goes; a failure here shows in ferror below. */
    rewind(s->out);
    /* Only a regular file has a length to cut; a device or a pipe
     * (FJ_TRACE=/dev/stdout) has none, and its refusal is no failure. */
    struct stat st;
    if (fstat(fileno(s->out), &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fileno(s->out), 0) != 0)
        rc = FJ_ESYSTEM;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", s->out);
    write_names(&wr, s);
    for (trace_buffer *b = buffers; b && rc == 0; b = b->next) {
        rc = write_buffer(&wr, b, stop_ns);
        dropped += b->dropped;
    }
    fprintf(s->out,
            "\n],\n\"otherData\":{\"producer\":\"fj %d.%d\",\"clock\":\"CLOCK_MONOTONIC\",\"records_per_worker\":%zu,"
            "\"dropped_events\":%zu,\"workers_without_buffer\":%u,\"partial\":%s}}\n",
            FJ_VERSION_MAJOR, FJ_VERSION_MINOR, s->capacity, dropped, s->out_of_memory, wr.partial ? "true" : "false");
    free(wr.stack);
    if (ferror(s->out))
        rc = FJ_ESYSTEM;
    return rc;
}

/* ---- the public API ---- */

int fj_trace_start(const char *path)
{
    if (!path || !*path)
        return error_refuse(FJ_EINVAL, "fj_trace_start: path is %s", path ? "empty" : "NULL");
    pthread_mutex_lock(&trace_lock);
    int rc = trace_session_open(path);
    pthread_mutex_unlock(&trace_lock);
    if (rc == FJ_EBUSY)
        (void)error_refuse(rc, "fj_trace_start: a trace session is open already (fj_trace_stop closes it)");
    return rc;
}

int fj_trace_stop(void)
{
    pthread_mutex_lock(&trace_lock);
    if (!session.id) {
        pthread_mutex_unlock(&trace_lock);
        return error_refuse(FJ_EINVAL, "fj_trace_stop: no trace session is open");
    }
    atomic_store(&trace_recording, 0);
    /* StoreLoad: the closed session is visible to every owner before we read
     * their `writing` flags.  Pairs with fence_light() in trace_append_begin. */
    fence_heavy();
    for (trace_buffer *b = session.buffers; b; b = b->next)
        while (atomic_load_acquire(&b->writing))  /* an append takes nanoseconds */
            sched_yield();
    long long stop_ns = trace_now();
    struct trace_session closed = session;
    memset(&session, 0, sizeof session);
    pthread_mutex_unlock(&trace_lock);

    int rc = trace_write(&closed, closed.buffers, stop_ns);
    int write_errno = errno;  /* the failing write's reason, if rc says one failed */
    if (fclose(closed.out) != 0 && rc == 0) {
        rc = FJ_ESYSTEM;
        write_errno = errno;
    }
    if (rc != 0)
        (void)error_refuse(rc, "fj_trace_stop: writing %s failed: %s", closed.path, strerror(write_errno));
    free(closed.path);
    for (trace_buffer *b = closed.buffers, *next; b; b = next) {
        next = b->next;
        trace_buffer_release(b);
    }
    free(closed.pools);
    return rc;
}

int fj_trace_is_on(void) { return atomic_load(&trace_recording) != 0; }

static void trace_at_exit(void)
{
    if (fj_trace_is_on()) {
        int rc = fj_trace_stop();
        if (rc != 0)
            fprintf(stderr, "fj: %s\n", fj_last_error_detail());  /* the file and the reason */
    }
}
