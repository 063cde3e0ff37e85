#!/bin/sh
# run.sh - runs every benchmark binary in one go (make bench / bench-quick).
#
#   sh bench/run.sh full|quick
#
# Each (program, system, workers) cell is one process that times RUNS runs and
# verifies each; its RESULT line goes to build/bench/results.csv.  Then the fj
# microbenchmarks (build/bench/micro.csv), the table (bench/report.c) and the
# chart build/bench/chart.svg.  Peers whose binary is missing are skipped with
# a message.  BENCH_RUNS, BENCH_WORKERS ("1 2") and BENCH_PROGRAMS override.
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

# program size systems (fib 40 only where a run takes seconds, not minutes).
# fib-calls is serial fib with one call per call (bench/kernels.h), the
# baseline the report also divides fib's 1-worker times by.
if [ "$mode" = full ]; then
    cell_timeout=400
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
echo "bench ($mode): $runs runs per cell, workers: $workers, $(uname -m), $ncpu CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
for sys in libgomp libomp tbb java; do
    [ -n "$(command_of $sys)" ] || echo "bench: SKIPPING $sys (not built: see 'sh bench/peers.sh install')"
done
echo "$plan" | while read -r program size which; do
    [ -n "$program" ] || continue
    for sys in serial fj libgomp libomp tbb java; do
        case ",$which," in *",all,"* | *",$sys,"*) ;; *) continue ;; esac
        cmd=$(command_of $sys)
        [ -n "$cmd" ] || continue
        for w in $workers; do
            [ $sys = serial ] && [ "$w" != 1 ] && continue
            out=$(timeout $cell_timeout $cmd $program $size $w $runs 2>>"$log")
            rc=$?
            echo "$out" >>"$log"
            line=$(echo "$out" | grep '^RESULT,' | sed 's/^RESULT,//')
            if [ -n "$line" ]; then
                echo "$line" >>"$csv"
                echo "$line" | awk -F, '{ printf "  %-9s %-9s %-7s w=%s  median %.4f s (%.4f-%.4f) %s\n", $1, $2, $3, $4, $5, $6, $7, $9 == 1 ? "verified" : "NOT VERIFIED" }'
            else
                echo "$program,$size,$sys,$w,0,0,0,0,0" >>"$csv"
                echo "  $program $size $sys w=$w: FAILED (exit $rc$( [ $rc = 124 ] && echo ", over ${cell_timeout}s")); see $log"
            fi
        done
    done
done

echo "fj microbenchmarks..."
maxw=$(echo $workers | awk '{print $NF}')
if [ -x $dir/fj_micro ]; then
    $dir/fj_micro $mode $maxw >"$micro" 2>>"$log"
fi
$dir/report "$csv" $dir/chart.svg "$micro"
status=$?
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
