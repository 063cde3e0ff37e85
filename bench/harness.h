/* harness.h - what each system's driver provides to the common harness.
 *
 * harness.c owns main(): it parses `PROGRAM SIZE WORKERS RUNS`, builds the
 * input (untimed), times RUNS calls of the driver's function, verifies every
 * result and prints one line per run and a closing CSV line:
 *
 *     run 1 0.412345 verified
 *     ...
 *     RESULT,fib,40,fj,2,<median_s>,<min_s>,<max_s>,<runs>,<verified 1|0>
 *     CPU <busy> <idle>
 *
 * CPU: cores' worth of CPU time (user + sys) the process used over the wall
 * time of the timed runs, and afterwards over a pause with no work (skipped,
 * 0.00, when BENCH_NO_IDLE is set).
 *
 * A driver (serial_bench.c, fj_bench.c, omp_bench.c, tbb_bench.cpp) only says
 * how its runtime starts and runs each program; the leaves are kernels.c.
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The `system` column: serial, fj, libgomp, libomp, tbb. */
extern const char *const drv_system;

/* Starts the runtime with `workers` workers; 0 on success. */
int drv_init(int workers);
void drv_fini(void);

long drv_fib(int n);
long drv_nqueens(int n);
/* Sorts a[0..n) in place; tmp is n elements of scratch. */
void drv_sort(uint32_t *a, uint32_t *tmp, size_t n);
/* C += A * B, n x n, row-major, n a power of two >= 64. */
void drv_matmul(const double *a, const double *b, double *c, int n);
double drv_integrate(double lo, double hi);
long drv_uts(int root_children);

#ifdef __cplusplus
}
#endif

#endif
