#!/bin/sh
# run.sh - runs every benchmark binary in one go (make bench / bench-quick).
#
#   sh bench/run.sh full|quick
#
# Each (program, system, workers) cell is timed RUNS times, every run verified.
# The systems take turns: a program's cells run in BENCH_ROUNDS rounds (default
# RUNS), each round one process per cell timing RUNS/ROUNDS runs, so a noisy
# minute on this shared machine spreads over every system instead of landing on
# whichever ran then.  A cell's median, min and max are over all its runs; its
# line goes to build/bench/results.csv.  Then the fj microbenchmarks
# (build/bench/micro.csv), the table (bench/report.c) and the chart
# build/bench/chart.svg.  Peers whose binary is missing are skipped with a
# message.  BENCH_RUNS, BENCH_ROUNDS, BENCH_WORKERS ("1 2") and BENCH_PROGRAMS
# override.
mode=${1:-quick}
dir=build/bench
csv=$dir/results.csv
micro=$dir/micro.csv
log=$dir/run-$mode.log
mkdir -p "$dir"

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
workers=${BENCH_WORKERS:-"1 2"}
[ -z "$BENCH_WORKERS" ] && [ "$ncpu" -gt 2 ] && workers="1 2 $ncpu"
runs=${BENCH_RUNS:-5}
rounds=${BENCH_ROUNDS:-$runs}
[ "$rounds" -ge 1 ] && [ "$rounds" -le "$runs" ] || rounds=$runs
per_round=$(( (runs + rounds - 1) / rounds ))

# program size systems (fib 40 only where a run takes seconds, not minutes).
# fib-calls is serial fib with one call per call (bench/kernels.h), the
# baseline the report also divides fib's 1-worker times by.
if [ "$mode" = full ]; then
    cell_timeout=400
    java_warmup_ms=1000
    plan="fib 36 all
fib-calls 36 serial
fib 40 serial,fj,java
fib-calls 40 serial
nqueens 12 all
sort 33554432 all
matmul 1024 all
integrate 128 all
uts 2000 all"
else
    cell_timeout=60
    java_warmup_ms=300
    plan="fib 30 all
fib-calls 30 serial
nqueens 10 all
sort 4194304 all
matmul 512 all
integrate 64 all
uts 500 all"
fi
[ -n "$BENCH_PROGRAMS" ] && plan=$(echo "$plan" | grep -E "^($(echo $BENCH_PROGRAMS | tr ' ' '|')) ")

command_of() {  # system -> command prefix, or empty if unavailable
    case $1 in
    java) [ -f $dir/java/Bench.class ] && echo "java -Xss16m -Xmx3g -cp $dir/java Bench" ;;
    *) [ -x $dir/${1}_bench ] && echo "$dir/${1}_bench" ;;
    esac
}

echo "program,size,system,workers,median_s,min_s,max_s,runs,verified" >"$csv"
: >"$log"
start=$(date +%s)
echo "bench ($mode): $runs runs per cell in $rounds rounds, systems taking turns, workers: $workers, $(uname -m), $ncpu CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
for sys in libgomp libomp tbb java; do
    [ -n "$(command_of $sys)" ] || echo "bench: SKIPPING $sys (not built: see 'sh bench/peers.sh install')"
done
cells_dir=$(mktemp -d)
trap 'rm -rf "$cells_dir"' EXIT
echo "$plan" | while read -r program size which; do
    [ -n "$program" ] || continue
    cells=""
    for sys in serial fj libgomp libomp tbb java; do
        case ",$which," in *",all,"* | *",$sys,"*) ;; *) continue ;; esac
        [ -n "$(command_of $sys)" ] || continue
        for w in $workers; do
            [ $sys = serial ] && [ "$w" != 1 ] && continue
            cells="$cells $sys:$w"
            : >"$cells_dir/$sys.$w"
        done
    done
    round=1
    while [ "$round" -le "$rounds" ]; do
        for cell in $cells; do
            sys=${cell%:*} w=${cell#*:}
            out=$(BENCH_JAVA_WARMUP_MS=$java_warmup_ms timeout $cell_timeout $(command_of $sys) $program $size $w $per_round 2>>"$log")
            rc=$?
            echo "$out" >>"$log"
            # One "seconds ok" line per run, "fail" for a round with no result:
            # the input of bench/summarise.sh.
            echo "$out" | awk '/^run / { print $3, ($4 == "verified") }' >>"$cells_dir/$sys.$w"
            if ! echo "$out" | grep -q '^RESULT,'; then
                echo fail >>"$cells_dir/$sys.$w"
                echo "  $program $size $sys w=$w round $round: FAILED (exit $rc$( [ $rc = 124 ] && echo ", over ${cell_timeout}s")); see $log"
            fi
        done
        round=$((round + 1))
    done
    for cell in $cells; do
        sys=${cell%:*} w=${cell#*:}
        set -- $(sh bench/summarise.sh "$cells_dir/$sys.$w")
        echo "$program,$size,$sys,$w,$1,$2,$3,$4,$5" >>"$csv"
        printf "  %-9s %-9s %-7s w=%s  median %.4f s (%.4f-%.4f) %s runs %s\n" $program $size $sys $w $1 $2 $3 $4 \
            "$( [ "$5" = 1 ] && echo verified || echo "NOT VERIFIED")"
    done
done

echo "fj microbenchmarks..."
maxw=$(echo $workers | awk '{print $NF}')
if [ -x $dir/fj_micro ]; then
    $dir/fj_micro $mode $maxw >"$micro" 2>>"$log"
fi
$dir/report "$csv" $dir/chart.svg "$micro"
status=$?
if [ -x $dir/fib_floor ]; then
    echo "fj's API shape at its cheapest (bench/fib_floor.c: stack task, pointer deque, indirect call; one thread):"
    $dir/fib_floor $( [ $mode = full ] && echo 40 || echo 30 ) 5
fi
echo "bench ($mode) took $(( $(date +%s) - start )) s; CSV $csv, chart $dir/chart.svg, log $log"

# Other parts of the project may add their own benchmark targets.
for t in bench-loops bench-java-ports; do
    [ $mode = quick ] && t2=$t-quick || t2=$t
    if grep -qs "^$t2:" mk/*.mk; then
        echo "== make $t2"
        ${MAKE:-make} --no-print-directory $t2 || status=1
    fi
done
exit $status
