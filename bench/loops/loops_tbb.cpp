// loops_tbb.cpp - the oneTBB peer: tbb::parallel_for over a blocked_range with
// the default (auto) partitioner, one leaf call per sub-range.
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <memory>

#include "harness.h"

static std::unique_ptr<tbb::global_control> limit;

static void run_tbb(const loop_input *in, int64_t)
{
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, in->n),
                      [in](const tbb::blocked_range<int64_t> &r) { loop_leaf(in, r.begin(), r.end()); });
}

static void set_threads(unsigned workers)
{
    limit.reset(new tbb::global_control(tbb::global_control::max_allowed_parallelism, workers));
}

int main(int argc, char **argv)
{
    static const loop_system systems[] = {{"tbb-auto", run_tbb}};
    return loop_bench_main(argc, argv, systems, 1, set_threads);
}
