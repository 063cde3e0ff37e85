/* loops_omp.c - the OpenMP peers: schedule(static), schedule(dynamic, g) and
 * schedule(guided), one leaf call per index as an OpenMP user writes it.
 * Built twice: gcc -fopenmp (libgomp) and clang -fopenmp=libomp; OMP_RUNTIME
 * names which in the system column. */
#include <omp.h>

#include "harness.h"

#ifndef OMP_RUNTIME
#define OMP_RUNTIME "omp"
#endif

static void run_static(const loop_input *in, int64_t grain)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < in->n; i++)
        loop_leaf(in, i, i + 1);
}

static void run_dynamic(const loop_input *in, int64_t grain)
{
#pragma omp parallel for schedule(dynamic, grain)
    for (int64_t i = 0; i < in->n; i++)
        loop_leaf(in, i, i + 1);
}

static void run_guided(const loop_input *in, int64_t grain)
{
#pragma omp parallel for schedule(guided)
    for (int64_t i = 0; i < in->n; i++)
        loop_leaf(in, i, i + 1);
}

static void set_threads(unsigned workers) { omp_set_num_threads((int)workers); }

int main(int argc, char **argv)
{
    static const loop_system systems[] = {
        {OMP_RUNTIME "-static", run_static},
        {OMP_RUNTIME "-dynamic", run_dynamic},
        {OMP_RUNTIME "-guided", run_guided},
    };
    return loop_bench_main(argc, argv, systems, 3, set_threads);
}
