/* cpus.h - the CPUs a thread may run on: its affinity mask, which mpirun,
 * taskset, a cgroup's cpuset or a container narrows, rather than every CPU of
 * the machine.  A pool's default size and its pinning read it (docs/mpi.md). */
#ifndef FJ_CPUS_H
#define FJ_CPUS_H

#include <sched.h>  /* cpu_set_t: -D_GNU_SOURCE (Makefile) */

/* The calling thread's affinity mask into *allowed, and how many CPUs it
 * holds (at least 1).  Where the kernel does not say (a machine of more CPUs
 * than a cpu_set_t holds), the online CPUs up to CPU_SETSIZE. */
int cpus_allowed(cpu_set_t *allowed);

/* The (i mod count)-th CPU of `allowed`, which holds `count` CPUs (count >= 1),
 * lowest first: where worker i of a pinned pool goes. */
int cpus_nth(const cpu_set_t *allowed, int count, unsigned i);

#endif
