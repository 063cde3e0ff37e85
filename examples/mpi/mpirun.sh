#!/bin/sh
# mpirun as the checks and the measurement use it, on one machine:
#   mpirun.sh RANKS PROGRAM [ARGS...]
# MPIRUN_FLAGS adds options (e.g. --bind-to none).
# --oversubscribe: 3 ranks on 2 cores are allowed (Open MPI then leaves them
# unbound); root is allowed (containers); the shared-memory transport copies
# through its buffers (no CMA, which needs ptrace rights containers often
# refuse); no network transport is needed between ranks of one machine.
ranks=$1
shift
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_btl=self,vader
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# VARIANT=asan: Open MPI's plugins, unloaded at exit, leave allocations that
# LeakSanitizer reports from "<unknown module>" and no suppression can name;
# leak checks are off under mpirun, address and UB checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
exec mpirun --oversubscribe ${MPIRUN_FLAGS:-} -np "$ranks" "$@"
