/* serial_bench.c - the "serial" system: the drivers' recursion with no runtime. */
#include "harness.h"
#include "kernels.h"

const char *const drv_system = "serial";

int drv_init(int workers) { return workers == 1 ? 0 : -1; }
void drv_fini(void) {}
long drv_fib(int n) { return kern_fib_serial(n); }
long drv_nqueens(int n) { return kern_nqueens_serial(n); }
void drv_sort(uint32_t *a, uint32_t *tmp, size_t n) { kern_sort_serial(a, tmp, n); }
void drv_matmul(const double *a, const double *b, double *c, int n) { kern_mm_serial(a, b, c, n, n); }
double drv_integrate(double lo, double hi) { return kern_integrate_serial(lo, hi); }
long drv_uts(int root_children) { return kern_uts_serial(root_children); }
