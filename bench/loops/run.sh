#!/bin/sh
# run.sh - runs every built loop-benchmark variant in one go, writes the CSV
# and prints the table: median (min-max) seconds per system, and each time's
# ratio to fj's (>1: slower than fj).  Usage: run.sh BINDIR SIZE RUNS WORKERS CSV
bindir=$1 size=$2 runs=$3 workers=$4 csv=$5
mkdir -p "$(dirname "$csv")"
echo "program,size,system,workers,median_s,min_s,max_s,runs,verified" > "$csv"
for variant in fj gomp libomp tbb; do
    bin="$bindir/loops_$variant"
    if [ -x "$bin" ]; then
        "$bin" --size "$size" --workers "$workers" --runs "$runs" >> "$csv" || echo "bench-loops: $variant failed" >&2
    else
        echo "bench-loops: $variant not built (toolchain missing), skipped"
    fi
done
awk -F, 'NR > 1 {
    key = $1; sys[key, ++n[key]] = $3; med[key, $3] = $5; lo[key, $3] = $6; hi[key, $3] = $7; ok[key, $3] = $9
    if (!(key in seen)) { seen[key] = 1; order[++programs] = key }
    if ($3 != "fj" && (!(key in best) || $5 < best[key])) { best[key] = $5; bestsys[key] = $3 }
    size = $2; w = $4; r = $8
}
END {
    printf "loops benchmark: %s indices, %s workers, median of %s runs (min-max), seconds\n", size, w, r
    printf "ratio = system / fj (above 1: fj is faster); best peer marked *\n\n"
    for (p = 1; p <= programs; p++) {
        key = order[p]
        printf "%-10s %-16s %9s %21s %7s  %s\n", key, "system", "median", "min-max", "ratio", "verified"
        for (k = 1; k <= n[key]; k++) {
            s = sys[key, k]
            printf "%-10s %-16s %9.4f   %8.4f - %8.4f %7.3f%s %s\n", "", s, med[key, s], lo[key, s], hi[key, s],
                   med[key, s] / med[key, "fj"], (s == bestsys[key] ? "*" : " "), ok[key, s]
        }
        printf "%-10s fj vs best peer (%s): %+.1f%%\n\n", "", bestsys[key], 100 * (med[key, "fj"] / best[key] - 1)
    }
}' "$csv"
echo "CSV: $csv"
