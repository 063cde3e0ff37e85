#!/bin/sh
# instructions.sh - instructions per fork+join at 1 worker, counted by
# callgrind (make bench-instructions): build/bench/instructions.csv,
# "program,system,instructions_per_fork_join".
#
#   sh bench/instructions.sh [DIR] [QEMU]
#
# DIR holds the fine binaries (default build/bench/fine-cg).  With QEMU (a
# qemu-user binary, e.g. qemu-aarch64: make bench-instructions-aarch64) the
# binaries are another architecture's, counted from qemu's log of the blocks
# it translated and ran (bench/qemu-count.awk), into
# build/bench/instructions-<arch>.csv; everything else below is the same.
#
# Method.  Each fine-grained binary (bench/fine/) runs the program at 1 worker
# under `valgrind --tool=callgrind --collect-atstart=no`; the driver's root
# task switches collection on around the recursion, on the thread that runs
# it (fine.h), so pool start-up, the hand-over of the root and a thread that
# waits or spins meanwhile (Lace's main thread and idle workers do) are not
# counted.  It runs at two sizes, and the figure is
#
#     (I(large) - I(small)) / (F(large) - F(small))
#
# with I the instructions counted and F the exact fork+join count of the size.
# The difference cancels what the root costs once and leaves the cost of one
# more fork+join, body included: the whole recursion divided by its
# fork+joins, not that minus a serial baseline, because the body is part of
# what a runtime makes a task cost (a frame written, arguments copied in and
# out, the result read back) and the serial row gives the baseline beside it.
# Counts: fib(n) forks fib(n+1)-1 times (once per inner node); dfs of depth d,
# breadth B, B(B^d - 1)/(B - 1) times (every child spawned), except fj++'s and
# fj++cx's: bench/fine/fjxx.cpp and fjxx_context.cpp join an inner node's B
# children in one join that runs the first in place, B - 1 forks per inner
# node, (B - 1)(B^d - 1)/(B - 1) = B^d - 1 in all; pi of N samples N-1 times.
# The counts do not depend on the load of the
# machine, and at 1 worker nothing is stolen.
# Valgrind cannot decode every instruction -march=native may choose (AVX-512),
# so the binaries counted are a build of the same sources without -march,
# in build/bench/fine-cg (mk/bench.mk).
dir=build/bench
fine=${1:-$dir/fine-cg}
qemu=$2
if [ -n "$qemu" ]; then
    csv=$dir/instructions-${qemu#qemu-}.csv
    counter="qemu-user's log, $qemu"
    if ! command -v "$qemu" >/dev/null 2>&1; then
        echo "bench-instructions: SKIPPING $qemu (not found; Debian: apt-get install qemu-user)"
        exit 0
    fi
else
    csv=$dir/instructions.csv
    counter=callgrind
fi

if [ -z "$qemu" ] && ! command -v valgrind >/dev/null 2>&1; then
    echo "bench-instructions: SKIPPING (valgrind not found; install: apt-get install valgrind)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions counted for `program size` on `system` (runs collected, summed).
count() {
    if [ -n "$qemu" ]; then
        BENCH_NO_IDLE=1 "$qemu" -d in_asm,exec,nochain -D "$tmp/qemu.log" \
            $fine/$1 $2 $3 1 1 >"$tmp/run.out" 2>"$tmp/counter.err"
    else
        BENCH_NO_IDLE=1 valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg.out" \
            $fine/$1 $2 $3 1 1 >"$tmp/run.out" 2>"$tmp/counter.err"
    fi || {
        echo "bench-instructions: $1 $2 $3 failed:" >&2
        cat "$tmp/run.out" "$tmp/counter.err" >&2
        return 1
    }
    grep -q '^RESULT,.*,1$' "$tmp/run.out" || { echo "bench-instructions: $1 $2 $3 not verified" >&2; return 1; }
    if [ -n "$qemu" ]; then
        n=$(awk -f bench/qemu-count.awk "$tmp/qemu.log") && rm -f "$tmp/qemu.log" || return 1
    else
        n=$(awk '/^totals:/ { t = $2 } END { print t + 0 }' "$tmp/cg.out")
    fi
    if [ "$n" = 0 ]; then  # no FINE_COUNT_TOGGLE in the binary: built before valgrind was there
        echo "bench-instructions: $1 $2 $3 counted nothing (built without valgrind/callgrind.h? rm -r $fine and retry)" >&2
        return 1
    fi
    echo "$n"
}

forks() {  # program size system -> fork+joins of one run
    case $1 in
    fib) awk -v n="$2" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; i++) { c = a + b; a = b; b = c } print a - 1 }' ;;
    dfs) if [ "$3" = fj++ ] || [ "$3" = fj++cx ]; then awk -v d="$2" 'BEGIN { b = 8; print b ^ d - 1 }'  # b - 1 forks per inner node
         else awk -v d="$2" 'BEGIN { b = 8; print b * (b ^ d - 1) / (b - 1) }'; fi ;;
    pi) echo $(($2 - 1)) ;;
    esac
}

mkdir -p "$dir"
echo "program,system,instructions_per_fork_join" >"$csv"
echo "instructions per fork+join at 1 worker, body included ($counter; bench/instructions.sh says how):"
for spec in "fib 20 25" "dfs 4 5" "pi 4096 65536"; do
    set -- $spec
    program=$1 small=$2 large=$3
    for system in serial fj-typed fj-classic fj++ fj++cx lace; do
        if [ ! -x $fine/$system ]; then
            echo "  $program $system: SKIPPED (not built)"
            continue
        fi
        i_small=$(count $system $program $small) && i_large=$(count $system $program $large) || continue
        f_small=$(forks $program $small $system) f_large=$(forks $program $large $system)
        per=$(awk -v a="$i_small" -v b="$i_large" -v x="$f_small" -v y="$f_large" 'BEGIN { printf "%.1f", (b - a) / (y - x) }')
        echo "$program,$system,$per" >>"$csv"
        printf "  %-5s %-11s %7s  (%s instructions at %s, %s at %s)\n" $program $system $per $i_small $small $i_large $large
    done
done
echo "CSV $csv"
