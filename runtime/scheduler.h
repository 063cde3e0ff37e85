/* scheduler.h - the thread entry of a worker (scheduler.c). */
#ifndef FJ_SCHEDULER_H
#define FJ_SCHEDULER_H

/* Thread entry of a worker: `arg` is its fj_worker.  Runs until its pool stops
 * and nothing is left to run. */
void *worker_main(void *arg);

#endif
