#!/bin/sh
# placement.sh - fine programs timed with their code at many placements.
#
#   sh bench/placement.sh DIR "PROGRAM SIZE WORKERS" "SYSTEMS" PLACEMENTS STEP ROUNDS
#
# Where the linker puts a task body moves a fine program's time by several per
# cent, for every system alike (docs/performance.md, finding 13 and typed
# finding 6), so one build of two systems is one draw of two placements.  This
# builds each system PLACEMENTS times (mk/placement.mk), with an object of 0,
# STEP, 2*STEP, ... bytes linked first (FINE_PAD), which moves all of the
# program's own code by that much; runs every build ROUNDS times, the
# placements in a new random order each round and the systems taking turns
# within a placement; and prints, per system, the median over the placements
# of each placement's fastest run (fastest: a process runs in the VM's fast or
# slow mode as a whole, and the fastest run is the one that drew the fast
# mode), with its quotient over the last system's.  Every run's result goes
# to DIR/placement.csv (system,pad_bytes,round,fastest_s).  A run that fails
# or prints no verified result stops the script.
set -e
dir=$1 cell=$2 systems=$3 placements=$4 step=$5 rounds=$6
turn=$systems
mkdir -p "$dir"

pads=""
i=0
while [ "$i" -lt "$placements" ]; do pads="$pads $((i * step))"; i=$((i + 1)); done

for n in $pads; do
    pad=""
    if [ "$n" -gt 0 ]; then
        printf '\t.text\n\t.skip %d, 0x90\n\t.section .note.GNU-stack,"",@progbits\n' "$n" > "$dir/pad$n.s"
        ${BENCH_CC:-gcc} -c "$dir/pad$n.s" -o "$dir/pad$n.o"
        pad="$dir/pad$n.o"
    fi
    targets=""
    for s in $systems; do targets="$targets $dir/p$n/$s"; done
    # shellcheck disable=SC2086 # targets is a list of paths
    ${MAKE:-make} --no-print-directory -s FINE_DIR="$dir/p$n" FINE_PAD="$pad" $targets
done

csv=$dir/placement.csv
echo "system,pad_bytes,round,fastest_s" > "$csv"
r=1
while [ "$r" -le "$rounds" ]; do
    order=$(for n in $pads; do echo "$n"; done | awk -v seed="$r" 'BEGIN { srand(seed) } { print rand(), $0 }' | sort -n | cut -d' ' -f2)
    for n in $order; do
        for s in $turn; do
            # shellcheck disable=SC2086 # cell is "PROGRAM SIZE WORKERS"
            line=$("$dir/p$n/$s" $cell 3 | grep '^RESULT,') || line="no result"
            case $line in *,1) ;; *) echo "placement: $s at pad $n did not verify: $line" >&2; exit 1 ;; esac
            echo "$line" | awk -F, -v s="$s" -v n="$n" -v r="$r" '{ print s "," n "," r "," $7 }' >> "$csv"
        done
        turn=$(echo "$turn" | awk '{ for (i = 2; i <= NF; i++) printf "%s ", $i; print $1 }')  # the next placement starts with the next system
    done
    r=$((r + 1))
done

echo "placement: $cell, $placements placements $step bytes apart, $rounds rounds (fastest run of each placement, seconds)"
awk -F, -v order="$systems" '
    NR > 1 { k = $1 SUBSEP $2; if (!(k in best) || $4 < best[k]) best[k] = $4 }
    END {
        n = split(order, sys, " ")
        for (k in best) { split(k, p, SUBSEP); v[p[1], ++count[p[1]]] = best[k] }
        for (i = 1; i <= n; i++) {
            s = sys[i]; m = count[s]
            for (a = 2; a <= m; a++)
                for (b = a; b > 1 && v[s, b - 1] > v[s, b]; b--) { x = v[s, b]; v[s, b] = v[s, b - 1]; v[s, b - 1] = x }
            med[s] = m % 2 ? v[s, (m + 1) / 2] : (v[s, m / 2] + v[s, m / 2 + 1]) / 2
            lo[s] = v[s, 1]; hi[s] = v[s, m]
        }
        last = sys[n]
        for (i = 1; i <= n; i++) {
            s = sys[i]
            printf "  %-10s median %.4f  fastest %.4f  slowest %.4f  median / %s %.3f\n", s, med[s], lo[s], hi[s], last, med[s] / med[last]
        }
    }' "$csv"
