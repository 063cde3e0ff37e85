/* cpus.c - the CPUs a thread may run on (cpus.h). */
#include "cpus.h"

#include <unistd.h>

int cpus_allowed(cpu_set_t *allowed)
{
    if (sched_getaffinity(0, sizeof *allowed, allowed) == 0 && CPU_COUNT(allowed) > 0)
        return CPU_COUNT(allowed);
    /* EINVAL: the kernel's mask is wider than cpu_set_t.  Count what
     * sysconf says is online, as far as the set can name. */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int count = online < 1 ? 1 : online > CPU_SETSIZE ? CPU_SETSIZE : (int)online;
    CPU_ZERO(allowed);
    for (int cpu = 0; cpu < count; cpu++)
        CPU_SET(cpu, allowed);
    return count;
}

int cpus_nth(const cpu_set_t *allowed, int count, unsigned i)
{
    int want = (int)(i % (unsigned)count);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, allowed) && want-- == 0)
            return cpu;
    return 0;  /* not reached: `allowed` holds `count` CPUs */
}
