/* kernels.c - the leaf work: a few rounds of an integer mixer per index, the
 * number of rounds given by the program's cost shape (mean MEAN_ROUNDS). */
#include "kernels.h"

#define MEAN_ROUNDS 48

const char *const loop_program_names[PROGRAM_COUNT] = {"uniform", "one-chunk", "triangular", "random"};

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t rounds_for(const loop_input *in, int64_t i)
{
    switch (in->program) {
    case PROGRAM_ONE_CHUNK: {
        /* light everywhere but the first static chunk, which carries the rest:
         * mean = (heavy + (workers - 1) * light) / workers = MEAN_ROUNDS */
        uint64_t light = MEAN_ROUNDS / 16, w = in->workers ? in->workers : 1;
        uint64_t heavy = MEAN_ROUNDS * w - light * (w - 1);
        return i < in->n / (int64_t)w ? heavy : light;
    }
    case PROGRAM_TRIANGULAR:
        return 1 + (uint64_t)(2.0 * MEAN_ROUNDS * (double)i / (double)in->n);
    case PROGRAM_RANDOM:
        return hash64((uint64_t)i) % 32 == 0 ? 16 * MEAN_ROUNDS : MEAN_ROUNDS * 16 / 31;
    default:
        return MEAN_ROUNDS;
    }
}

void loop_leaf(const loop_input *in, int64_t lo, int64_t hi)
{
    for (int64_t i = lo; i < hi; i++) {
        uint64_t x = (uint64_t)i, rounds = rounds_for(in, i);
        for (uint64_t r = 0; r < rounds; r++)
            x = hash64(x + r);
        in->out[i] = x;
    }
}

uint64_t loop_checksum(const loop_input *in)
{
    uint64_t sum = 0;
    for (int64_t i = 0; i < in->n; i++)
        sum += in->out[i] ^ (uint64_t)i;
    return sum;
}
