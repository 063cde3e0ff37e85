/* wake_lag.c - the operating system's part of the join lag, without fj.
 *
 * join_lag.c's shape at the same thread count, in plain threads: THREADS - 1
 * threads run 1 ms leaves back to back (workers busy with unrelated work).
 * The main thread plays the joiner: it offers a child and spins until one of
 * the busy threads takes it at the end of a leaf (join_lag's measuring task
 * spins the same way until its child is stolen), then parks on a futex.  The
 * taker runs the child, a 1 ms leaf, and wakes it, as a thief completing a
 * stolen child wakes its joiner.  The lag is the time from the child's end to
 * the joiner running again.  A runtime whose joiner blocks cannot return from
 * a join sooner, so with more threads than cores this is the floor under
 * join_lag's figures on the same machine.
 * Usage: wake_lag [--threads N] [--wakes N] [--leaf-us N]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spin_clock.h"

static long long leaf_ns = 1000000LL;

static void futex_wait(int *word, int value)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void futex_wake(int *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); }

/* The handshake: the joiner offers a child (OFFERED), a busy thread takes it
 * at the end of a leaf (TAKEN) and, after running it, completes it (DONE). */
enum { IDLE, OFFERED, TAKEN, DONE };
static int state = IDLE;
static long long child_end_ns;
static int stop;

static void *busy_main(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        spin_for(leaf_ns);
        int offered = OFFERED;
        /* Acq_rel: exactly one busy thread takes the offer; acquire pairs with
         * the joiner's release of OFFERED (its previous lag is recorded). */
        if (__atomic_compare_exchange_n(&state, &offered, TAKEN, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            spin_for(leaf_ns);  /* the child */
            /* Relaxed, then release: the joiner's acquire of DONE orders its
             * read of the timestamp after this write. */
            __atomic_store_n(&child_end_ns, now_ns(), __ATOMIC_RELAXED);
            __atomic_store_n(&state, DONE, __ATOMIC_RELEASE);
            futex_wake(&state);
        }
    }
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int threads = 4, wakes = 200;
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i], *value = i + 1 < argc ? argv[++i] : "0";
        long v = strtol(value, NULL, 10);
        if (strcmp(name, "--threads") == 0 && v >= 2 && v <= 256)
            threads = (int)v;
        else if (strcmp(name, "--wakes") == 0 && v >= 1 && v <= 100000)
            wakes = (int)v;
        else if (strcmp(name, "--leaf-us") == 0 && v >= 1 && v <= 1000000)
            leaf_ns = v * 1000LL;
        else {
            fprintf(stderr, "wake_lag: bad option %s %s (usage: wake_lag [--threads 2..256] "
                            "[--wakes 1..100000] [--leaf-us 1..1000000])\n", name, value);
            return 2;
        }
    }
    long long *lag = malloc(sizeof *lag * (size_t)wakes);
    pthread_t *busy = malloc(sizeof *busy * (size_t)(threads - 1));
    if (!lag || !busy)
        return 1;
    for (int i = 0; i < threads - 1; i++)
        if (pthread_create(&busy[i], NULL, busy_main, NULL) != 0) {
            fprintf(stderr, "wake_lag: pthread_create failed\n");
            return 1;
        }
    /* This thread is the joiner: it offers, spins until the child is taken,
     * parks until it is done, and measures. */
    for (int i = 0; i < wakes; i++) {
        /* Release/acquire: see busy_main; the futex re-checks the word, so a
         * DONE stored before the wait is never slept through. */
        __atomic_store_n(&state, OFFERED, __ATOMIC_RELEASE);
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == OFFERED) {
        }
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == TAKEN)
            futex_wait(&state, TAKEN);
        lag[i] = now_ns() - __atomic_load_n(&child_end_ns, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < threads - 1; i++)
        pthread_join(busy[i], NULL);
    qsort(lag, (size_t)wakes, sizeof *lag, by_value);
    printf("wake-lag (no fj) threads=%d (%d busy in %lld us leaves) wakes=%d: p50 %.3f ms, "
           "p99 %.3f ms, max %.3f ms\n",
           threads, threads - 1, leaf_ns / 1000, wakes, lag[wakes / 2] / 1e6,
           lag[(wakes * 99) / 100 < wakes ? (wakes * 99) / 100 : wakes - 1] / 1e6, lag[wakes - 1] / 1e6);
    free(lag);
    free(busy);
    return 0;
}
