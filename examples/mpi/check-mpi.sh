#!/bin/sh
# check-mpi.sh BUILD_DIR: runs each MPI example on 2 and 3 ranks; each checks
# its result against the serial count, says "matches serial" and exits 0, or
# says FAIL and exits 1.  A run is given 120 s (a few seconds are expected).
set -u
build=$1
here=$(dirname "$0")
failed=0
for ranks in 2 3; do
    for run in "uts_mpi 2000" "reduce_mpi 11"; do
        set -- $run
        printf '== %s ranks: %s\n' "$ranks" "$run"
        out=$(timeout 120 sh "$here/mpirun.sh" "$ranks" "$build/$1" "$2" 2>&1)
        rc=$?
        printf '%s\n' "$out"
        if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^$1: matches serial"; then
            echo "check-mpi: FAIL: $run on $ranks ranks (exit status $rc)"
            failed=1
        fi
    done
done
[ $failed -eq 0 ] && echo "check-mpi: all runs match serial"
exit $failed
