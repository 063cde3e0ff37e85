#!/bin/sh
# check-mpi.sh BUILD_DIR: runs each MPI example on 2 and 3 ranks; each checks
# its result against the serial count, says "matches serial" and exits 0, or
# says FAIL and exits 1.  The last run gives each rank 2 workers, so that
# workers race for the export slot.  A run is given 120 s (seconds expected).
set -u
build=$1
here=$(dirname "$0")
failed=0
while read -r ranks program args; do
    printf '== %s ranks: %s %s\n' "$ranks" "$program" "$args"
    out=$(timeout 120 sh "$here/mpirun.sh" "$ranks" "$build/$program" $args 2>&1 </dev/null)
    rc=$?
    printf '%s\n' "$out"
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^$program: matches serial"; then
        echo "check-mpi: FAIL: $program $args on $ranks ranks (exit status $rc)"
        failed=1
    fi
done <<'RUNS'
2 uts_mpi 2000
2 reduce_mpi 11
3 uts_mpi 2000
3 reduce_mpi 11
3 uts_mpi --workers 2 500
RUNS
[ $failed -eq 0 ] && echo "check-mpi: all runs match serial"
exit $failed
