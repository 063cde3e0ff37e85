#!/bin/sh
# run.sh - runs every built loop-benchmark variant, writes the CSV and prints
# the table.  Usage: run.sh BINDIR SIZE ROUNDS WORKERS CSV
#
# The variants take turns: each round runs every binary once (one warm-up and
# one timed run per program and system), and a system's median, min and max
# are over the rounds.  Taking turns spreads any background load evenly over
# the systems instead of landing on whichever ran at the wrong moment.
bindir=$1 size=$2 rounds=$3 workers=$4 csv=$5
mkdir -p "$(dirname "$csv")"
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
variants=""
for variant in fj gomp libomp tbb; do
    if [ -x "$bindir/loops_$variant" ]; then
        variants="$variants $variant"
    else
        echo "bench-loops: $variant not built (its toolchain is missing), skipped"
    fi
done
round=1
while [ "$round" -le "$rounds" ]; do
    for variant in $variants; do
        "$bindir/loops_$variant" --size "$size" --workers "$workers" --runs 1 >> "$raw" ||
            echo "bench-loops: $variant failed in round $round" >&2
    done
    round=$((round + 1))
done
# Per (program, system): sorted times -> median, min, max; verified only if every round was.
sort -t, -k1,1 -k3,3 -k5,5g "$raw" | awk -F, '
    function flush() {
        if (key == "") return
        med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
        printf "%s,%.6f,%.6f,%.6f,%d,%s\n", key, med, t[1], t[n], n, ok ? "yes" : "no"
    }
    { k = $1 "," $2 "," $3 "," $4
      if (k != key) { flush(); key = k; n = 0; ok = 1 }
      t[++n] = $5; if ($9 != "yes") ok = 0 }
    END { flush() }' > "$raw.csv"
{ echo "program,size,system,workers,median_s,min_s,max_s,runs,verified"; cat "$raw.csv"; } > "$csv.tmp"
mv "$csv.tmp" "$csv"
rm -f "$raw.csv"
awk -F, 'NR > 1 {
    key = $1; sys[key, ++n[key]] = $3; med[key, $3] = $5; lo[key, $3] = $6; hi[key, $3] = $7; ok[key, $3] = $9
    if (!(key in seen)) { seen[key] = 1; order[++programs] = key }
    if ($3 != "fj" && (!(key in best) || $5 < best[key])) { best[key] = $5; bestsys[key] = $3 }
    size = $2; w = $4; r = $8
}
END {
    printf "\nloops benchmark: %s indices, %s workers, median of %s rounds (min-max), seconds\n", size, w, r
    printf "ratio = system / fj (above 1: fj is faster); * = best peer\n"
    split("uniform one-chunk triangular random", want, " ")
    for (p = 1; p <= 4; p++) {
        key = want[p]
        if (!(key in seen)) continue
        printf "\n%-10s %-16s %9s %21s %7s  %s\n", key, "system", "median", "min - max", "ratio", "verified"
        for (k = 1; k <= n[key]; k++) {
            s = sys[key, k]
            printf "%-10s %-16s %9.4f   %8.4f - %8.4f %7.3f%s %s\n", "", s, med[key, s], lo[key, s], hi[key, s],
                   med[key, s] / med[key, "fj"], (s == bestsys[key] ? "*" : " "), ok[key, s]
        }
        printf "%-10s fj vs best peer (%s): %+.1f%% time\n", "", bestsys[key], 100 * (med[key, "fj"] / best[key] - 1)
    }
}' "$csv"
echo "CSV: $csv"
