/* kernels.h - the leaf work of the loop benchmarks, compiled once (kernels.c)
 * and linked into every variant, so that fj, OpenMP and TBB run the same
 * machine code per index and differ only in how they hand indices out. */
#ifndef FJ_BENCH_LOOPS_KERNELS_H
#define FJ_BENCH_LOOPS_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The cost shapes, each with the same mean cost per index. */
enum loop_program {
    PROGRAM_UNIFORM,     /* every index costs the same */
    PROGRAM_ONE_CHUNK,   /* all heavy work in the first worker's static chunk [0, n / workers) */
    PROGRAM_TRIANGULAR,  /* cost grows linearly with i */
    PROGRAM_RANDOM,      /* 1 index in 32, at random, costs 16x the mean */
    PROGRAM_COUNT
};

typedef struct loop_input {
    int program;
    int64_t n;
    unsigned workers;
    uint64_t *out;  /* n results, one per index */
} loop_input;

extern const char *const loop_program_names[PROGRAM_COUNT];

/* Computes out[i] for every i in [lo, hi): the leaf every variant calls. */
void loop_leaf(const loop_input *in, int64_t lo, int64_t hi);

/* A checksum of out[], to compare a run with the serial one. */
uint64_t loop_checksum(const loop_input *in);

#ifdef __cplusplus
}
#endif

#endif
