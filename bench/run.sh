#!/bin/sh
# run.sh - runs every benchmark binary in one go (make bench / bench-quick).
#
#   sh bench/run.sh full|quick
#
# Each (program, system, workers) cell is timed RUNS times, every run verified.
# The systems take turns: a program's cells run in BENCH_ROUNDS rounds (default
# RUNS), each round one process per cell timing RUNS/ROUNDS runs, so a noisy
# minute on this shared machine spreads over every system instead of landing on
# whichever ran then (odd rounds in one order, even rounds in the reverse).  A cell's median, min and max are over all its runs; its
# line goes to build/bench/results.csv.  Then the fj microbenchmarks
# (build/bench/micro.csv), the table (bench/report.c) and the chart
# build/bench/chart.svg.  Peers whose binary is missing are skipped with a
# message.  BENCH_RUNS, BENCH_ROUNDS, BENCH_WORKERS ("1 2") and BENCH_PROGRAMS
# override.
#
# The fine-grained programs (fib, dfs, knapsack, pi; bench/fine/) also run as
# fj-typed, fj-classic, fj++, fj++cx (fj::join through an fj::context) and
# lace (when built: LACE_DIR, mk/bench.mk); their "serial" is bench/fine's
# serial twin.  fib as fj-typed and as fj++ is
# bench/fine's binary (Lace's flags: -O3 -flto -march), so that both sit beside
# Lace's fib built alike; fj++'s other programs (nqueens, sort, matmul,
# integrate, uts) are bench/fjxx_bench.cpp's, and fj-typed's
# bench/fj_typed_bench.c's (fj_bench.c with typed tasks), built -O2 as the
# other coarse drivers.  Each cell also records the CPU the
# process used: cpu_busy, cores' worth of user+sys time over the wall time of
# the timed runs, and cpu_idle, the same over a pause after them with no work
# (a runtime whose idle workers spin shows ~1 per spinning worker); the
# median over the cell's rounds, "-" where a binary does not report it.
# Where Lace ran a program, each fj system's time over Lace's is also taken
# round by round (bench/pair.sh): the median of those quotients goes to
# build/bench/ratios.csv and is printed under the program's cells.
#
# The fine programs' binaries exist once per code phase (mk/bench.mk,
# FINE_PHASE_PADS: build/bench/fine/ and its phaseN/ folders), because where
# the code falls in the CPU's 64-byte fetch windows moves a fine cell by up to
# 30 % (docs/performance.md, finding 13).  Round r of every fine cell runs the
# binary of phase r mod P, every system alike, and a program with fine cells
# runs its rounds up to a multiple of P, so that each phase is timed as often:
# a cell's median is then over the placements, not one draw of them.
#
# The two cells issue 11's bar compares, fj-typed and lace in the fine
# programs, run BENCH_LACE_ROUNDS rounds (full: 48; quick: as the other fine
# cells), and the other cells stop after theirs.  On these VMs one round's
# quotient of the two spreads over 0.4-1.9, so the 8 rounds of the other cells
# cannot decide within 10 % which of the two is ahead; 48 rounds add about 6
# minutes to a full run (docs/performance.md, "Typed tasks against Lace").
# Those programs' serial cell runs them too, so that the table's "x serial"
# divides medians over the same rounds: in two full runs, a cell's mean over
# rounds 9-48 was 0.74-1.19 times its mean over rounds 1-8.
mode=${1:-quick}
dir=${BENCH_DIR:-build/bench}   # BENCH_DIR: a bundle of `make bench-portable` (mk/bench.mk)
csv=$dir/results.csv
micro=$dir/micro.csv
ratios=$dir/ratios.csv
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
fib 40 serial,fj,fj++,java,fj-typed,fj-classic,fj++cx,lace
fib-calls 40 serial
dfs 9 all
knapsack 64 all
pi 67108864 all
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
dfs 6 all
knapsack 56 all
pi 1048576 all
nqueens 10 all
sort 4194304 all
matmul 512 all
integrate 64 all
uts 500 all"
fi
[ -n "$BENCH_PROGRAMS" ] && plan=$(echo "$plan" | grep -E "^($(echo $BENCH_PROGRAMS | tr ' ' '|')) ")

fine_programs=" dfs knapsack pi "   # only in bench/fine (fib is in both suites)
fine_systems=" fj-typed fj-classic fj++ fj++cx lace "
phases=fine
for p in $dir/fine/phase*; do [ -d "$p" ] && phases="$phases fine/${p##*/}"; done
nphases=$(echo $phases | wc -w)

fine_bin() {  # system [round] -> the fine binary of that round's phase (round 1: fine/)
    echo "$dir/$(echo $phases | awk -v r="${2:-1}" '{ print $((r - 1) % NF + 1) }')/$1"
}

command_of() {  # system [program [round]] -> command prefix, or empty if unavailable
    fine_path=$(fine_bin "$1" "$3")
    case "$fine_programs" in
    *" $2 "*)
        case "$fine_systems serial " in *" $1 "*) [ -x "$fine_path" ] && echo "$fine_path" ;; esac
        return ;;
    esac
    case $1 in
    java) [ -f $dir/java/Bench.class ] && echo "java -Xss16m -Xmx3g -cp $dir/java Bench" ;;
    fj-classic | fj++cx | lace) [ -x "$fine_path" ] && [ "${2:-fib}" = fib ] && echo "$fine_path" ;;
    fj-typed | fj++)  # fib: bench/fine's (Lace's flags); the others: fj_typed_bench.c, fjxx_bench.cpp
        if [ "${2:-fib}" = fib ]; then [ -x "$fine_path" ] && echo "$fine_path"
        elif [ $1 = fj++ ]; then [ -x $dir/fjxx_bench ] && echo "$dir/fjxx_bench"
        else [ -x $dir/fj-typed_bench ] && echo "$dir/fj-typed_bench"; fi ;;
    *) [ -x $dir/${1}_bench ] && echo "$dir/${1}_bench" ;;
    esac
}

echo "program,size,system,workers,median_s,min_s,max_s,runs,verified,cpu_busy,cpu_idle" >"$csv"
echo "program,size,system,baseline,workers,median_ratio,min_ratio,max_ratio,rounds" >"$ratios"
: >"$log"
start=$(date +%s)
fine_rounds=$(( (rounds + nphases - 1) / nphases * nphases ))
lace_rounds=${BENCH_LACE_ROUNDS:-$( [ "$mode" = full ] && echo 48 || echo "$fine_rounds")}
case $lace_rounds in
'' | *[!0-9]* | 0*) echo "bench: BENCH_LACE_ROUNDS=$lace_rounds is not a number of rounds (a whole number from 1)" >&2; exit 2 ;;
esac
lace_rounds=$(( (lace_rounds + nphases - 1) / nphases * nphases ))
[ "$lace_rounds" -ge "$fine_rounds" ] || lace_rounds=$fine_rounds
echo "bench ($mode): $runs runs per cell in $rounds rounds, systems taking turns, workers: $workers, $(uname -m), $ncpu CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "bench: the fine programs' binaries at $nphases code phases; their programs run $fine_rounds rounds, $((fine_rounds * per_round)) runs per cell; fj-typed, lace and serial there $lace_rounds rounds"
cell_rounds() {  # system program program_rounds -> the rounds that cell runs
    case $1:$(command_of $1 $2) in
    fj-typed:"$dir/fine/"* | lace:"$dir/fine/"*) echo $lace_rounds ;;
    serial:*)
        case "$(command_of fj-typed $2) $(command_of lace $2)" in
        *"$dir/fine/"*) echo $lace_rounds ;;
        *) echo $3 ;;
        esac ;;
    *) echo $3 ;;
    esac
}
skipped() {  # system, why a build lacks it -> the message (a bundle, BENCH_DIR, may leave any system out)
    if [ -n "$BENCH_DIR" ]; then echo "bench: SKIPPING $1 (not in $dir)"; else echo "bench: SKIPPING $1 (not built: $2)"; fi
}
for sys in libgomp libomp tbb java; do
    [ -n "$(command_of $sys)" ] || skipped $sys "see 'sh bench/peers.sh install'"
done
[ -n "$(command_of fj-typed)" ] || skipped fj-typed "include/fj.h has no typed API"
[ -n "$(command_of fj++)" ] || skipped "fj++ for fib, dfs, knapsack, pi" "include/fj.h has no typed API"
[ -n "$(command_of lace)" ] || skipped lace "make bench LACE_DIR=<a Lace source tree>"
cells_dir=$(mktemp -d)
trap 'rm -rf "$cells_dir"' EXIT
echo "$plan" | while read -r program size which; do
    [ -n "$program" ] || continue
    # Cells worker count by worker count, so that the systems compared at one
    # count run side by side; every other round in the reverse order, so that
    # a machine slowing down (or speeding up) across a round favours no system.
    cells=""
    for w in $workers; do
        for sys in serial fj fj++ libgomp libomp tbb java fj-typed fj-classic fj++cx lace; do
            case ",$which," in *",all,"* | *",$sys,"*) ;; *) continue ;; esac
            [ -n "$(command_of $sys $program)" ] || continue
            [ $sys = serial ] && [ "$w" != 1 ] && continue
            cells="$cells $sys:$w"
            : >"$cells_dir/$sys.$w"
            : >"$cells_dir/$sys.$w.cpu"
            : >"$cells_dir/$sys.$w.round"
        done
    done
    reversed=$(echo $cells | tr ' ' '\n' | sed -n '1!G;h;$p' | tr '\n' ' ')
    program_rounds=$rounds
    for cell in $cells; do
        case $(command_of ${cell%:*} $program) in "$dir/fine/"*) program_rounds=$fine_rounds ;; esac
    done
    last_round=$program_rounds
    : >"$cells_dir/rounds"
    for cell in $cells; do
        n=$(cell_rounds ${cell%:*} $program $program_rounds)
        echo "$cell $n" >>"$cells_dir/rounds"
        [ "$n" -gt "$last_round" ] && last_round=$n
    done
    round=1
    while [ "$round" -le "$last_round" ]; do
        order=$cells
        [ $((round % 2)) = 0 ] && order=$reversed
        for cell in $order; do
            sys=${cell%:*} w=${cell#*:}
            [ "$round" -le "$(awk -v c="$cell" '$1 == c { print $2 }' "$cells_dir/rounds")" ] || continue
            out=$(BENCH_JAVA_WARMUP_MS=$java_warmup_ms timeout $cell_timeout $(command_of $sys $program $round) $program $size $w $per_round 2>>"$log")
            rc=$?
            echo "$out" >>"$log"
            # One "seconds ok" line per run, "fail" for a round with no result:
            # the input of bench/summarise.sh.
            echo "$out" | awk '/^run / { print $3, ($4 == "verified") }' >>"$cells_dir/$sys.$w"
            echo "$out" | awk '/^CPU / { print $2, $3 }' >>"$cells_dir/$sys.$w.cpu"
            # The round's median (RESULT's sixth field), for bench/pair.sh.
            echo "$out" | awk -F, '/^RESULT,/ { print $6; found = 1 } END { if (!found) print "fail" }' >>"$cells_dir/$sys.$w.round"
            if ! echo "$out" | grep -q '^RESULT,'; then
                echo fail >>"$cells_dir/$sys.$w"
                echo "  $program $size $sys w=$w round $round: FAILED (exit $rc$( [ $rc = 124 ] && echo ", over ${cell_timeout}s")); see $log"
            fi
        done
        round=$((round + 1))
    done
    for cell in $cells; do
        sys=${cell%:*} w=${cell#*:}
        cpu=$(awk 'function med(a, n,  i, j, x) {
                       for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
                       return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
                   { busy[++n] = $1; idle[n] = $2 }
                   END { if (n) printf "%.2f,%.2f", med(busy, n), med(idle, n); else printf "-,-" }' "$cells_dir/$sys.$w.cpu")
        set -- $(sh bench/summarise.sh "$cells_dir/$sys.$w")
        echo "$program,$size,$sys,$w,$1,$2,$3,$4,$5,$cpu" >>"$csv"
        printf "  %-9s %-9s %-7s w=%s  median %.4f s (%.4f-%.4f) %s runs %s\n" $program $size $sys $w $1 $2 $3 $4 \
            "$( [ "$5" = 1 ] && echo verified || echo "NOT VERIFIED")"
    done
    for cell in $cells; do
        sys=${cell%:*} w=${cell#*:}
        case $sys in fj | fj++ | fj-typed | fj-classic | fj++cx) ;; *) continue ;; esac
        # Only where Lace ran this program at w: its file from an earlier
        # program is still in cells_dir and would be divided by.
        case " $cells " in *" lace:$w "*) ;; *) continue ;; esac
        set -- $(sh bench/pair.sh "$cells_dir/$sys.$w.round" "$cells_dir/lace.$w.round")
        echo "$program,$size,$sys,lace,$w,$1,$2,$3,$4" >>"$ratios"
        printf "  %-9s %-9s %-10s / lace w=%s  per round: median %.3f (%.3f-%.3f) over %s rounds\n" \
            $program $size $sys $w $1 $2 $3 $4
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
echo "bench ($mode) took $(( $(date +%s) - start )) s; CSV $csv, ratios $ratios, chart $dir/chart.svg, log $log"

# Other parts of the project may add their own benchmark targets; they build
# with make, so a bundle's run (BENCH_DIR) leaves them to their own scripts.
[ -n "$BENCH_DIR" ] && exit $status
for t in bench-loops bench-java-ports; do
    [ $mode = quick ] && t2=$t-quick || t2=$t
    if grep -qs "^$t2:" mk/*.mk; then
        echo "== make $t2"
        ${MAKE:-make} --no-print-directory $t2 || status=1
    fi
done
exit $status
