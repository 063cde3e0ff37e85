/* harness.h - the driver every loop-benchmark variant shares (harness.c):
 * runs each program several times per system, verifies against the serial
 * checksum, and prints one CSV row per (program, system). */
#ifndef FJ_BENCH_LOOPS_HARNESS_H
#define FJ_BENCH_LOOPS_HARNESS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One way to run loop_leaf over [0, in->n) on in->workers threads. */
typedef struct loop_system {
    const char *name;
    void (*run)(const loop_input *in, int64_t grain);
} loop_system;

/* Parses "--size N --workers W --runs R [--program NAME]", calls `setup(workers)`
 * once, then runs every program with every system; CSV rows on stdout:
 * program,size,system,workers,median_s,min_s,max_s,runs,verified */
int loop_bench_main(int argc, char **argv, const loop_system *systems, int count, void (*setup)(unsigned workers));

#ifdef __cplusplus
}
#endif

#endif
