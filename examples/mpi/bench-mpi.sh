#!/bin/sh
# bench-mpi.sh BUILD_DIR SIZE RUNS: the measurement of docs/mpi.md (not a test).
# uts_mpi SIZE on one machine as 1 rank x 2 workers (unbound, so that the rank
# owns both CPUs) and as 2 ranks x 1 worker (bound, one core each), RUNS times
# each, the two alternating so that a change in machine load hits both alike.
# Prints every run, then the median time and inter-rank steals of each.
set -eu
build=$1 size=$2 runs=$3
here=$(dirname "$0")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
one_run() {  # label ranks [mpirun flags]
    label=$1 ranks=$2
    text=$(MPIRUN_FLAGS="${3:-}" sh "$here/mpirun.sh" "$ranks" "$build/uts_mpi" "$size")
    printf '%s\n' "$text" | grep -q '^uts_mpi: matches serial' || { printf '%s\n' "$text"; exit 1; }
    secs=$(printf '%s\n' "$text" | sed -n 's/.* in \([0-9.]*\) s$/\1/p')
    steals=$(printf '%s\n' "$text" |
        sed -n 's/^inter-rank steals: \([0-9]*\) requests sent, \([0-9]*\) batches received.*; \([0-9]*\) token.*/\1 \2 \3/p')
    echo "$label $secs $steals" | tee -a "$out"
}
echo "uts($size), $runs runs each, alternating: label seconds requests batches token-messages"
for i in $(seq "$runs"); do
    one_run 1rank-x-2workers 1 "--bind-to none"
    one_run 2ranks-x-1worker 2
done
median() {  # label column: the median of that column over the label's runs
    grep "^$1 " "$out" | awk -v c="$2" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
for label in 1rank-x-2workers 2ranks-x-1worker; do
    printf '%-17s median %s s (min %s); medians: %s requests sent, %s batches received, %s token messages\n' \
        "$label" "$(median "$label" 2)" "$(grep "^$label " "$out" | sort -k2,2n | head -1 | cut -d' ' -f2)" \
        "$(median "$label" 3)" "$(median "$label" 4)" "$(median "$label" 5)"
done
