/* mpi_rank.h - what both MPI examples do the same way: start MPI at the thread
 * level they need, and give each rank an fj pool sized to the CPUs the rank
 * may use.  docs/mpi.md explains the choices; this file is the code. */
#ifndef FJ_MPI_RANK_H
#define FJ_MPI_RANK_H

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fj.h"

/* Only the thread that called MPI_Init_thread (main) ever calls MPI; fj's
 * workers never do.  That is MPI_THREAD_FUNNELED, the cheapest level that
 * allows other threads to exist at all: Open MPI then takes no lock around
 * its calls, which MPI_THREAD_MULTIPLE would cost on every message. */
static inline void rank_mpi_init(int *argc, char ***argv)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
        fprintf(stderr, "this MPI offers thread level %d, below MPI_THREAD_FUNNELED\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* Ranks on this node (this one included) whose CPU sets overlap `mine`: 1
 * when mpirun bound each rank to cores of its own, all of the node's ranks
 * when it did not bind them (--bind-to none, or when it oversubscribes) and
 * each sees the whole machine or container.  Collective over the node. */
static inline int rank_sharing_cpus(const cpu_set_t *mine)
{
    MPI_Comm node;
    int on_node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &on_node);
    cpu_set_t *all = malloc(sizeof *all * (size_t)on_node);
    if (!all)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, node);
    int sharing = 0;
    for (int r = 0; r < on_node; r++) {
        cpu_set_t both;
        CPU_AND(&both, mine, &all[r]);
        sharing += CPU_COUNT(&both) > 0;
    }
    free(all);
    MPI_Comm_free(&node);
    return sharing > 0 ? sharing : 1;
}

/* Workers for this rank: the CPUs of its affinity mask (mpirun binds each rank
 * to its cores; fj's default counts the same), shared out when several ranks
 * of the node see the same CPUs, which fj alone cannot know,
 * at least 1.  `requested` > 0 (--workers N) overrides.  Sets *cpus_out to
 * the mask's CPU count.  Collective: every rank of MPI_COMM_WORLD calls it. */
static inline unsigned rank_worker_count(unsigned requested, int *cpus_out)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        CPU_SET(0, &mask);  /* unknown: count one CPU */
    int cpus = CPU_COUNT(&mask);
    int sharing = rank_sharing_cpus(&mask);
    *cpus_out = cpus;
    if (requested > 0)
        return requested;
    return cpus / sharing > 0 ? (unsigned)(cpus / sharing) : 1u;
}

/* The rank's pool.  pin_workers stays 0: the workers inherit the rank's mask
 * from the thread that creates them, so mpirun's binding holds (FJ_PIN=1
 * would pin each worker to one CPU of that mask). */
static inline fj_pool *rank_pool(unsigned workers)
{
    fj_config config;
    fj_config_init(&config);
    config.workers = workers;
    fj_pool *pool;
    int rc = fj_pool_create(&pool, &config);
    if (rc != 0) {
        fprintf(stderr, "fj_pool_create(workers=%u): %s\n", workers, fj_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return pool;
}

/* "--workers N" and one positional size; anything else is a usage error. */
static inline void rank_parse(int argc, char **argv, unsigned *workers, long *size)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc)
            *workers = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-')
            *size = strtol(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: mpirun -np P %s [--workers N] [SIZE]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
}

#endif
