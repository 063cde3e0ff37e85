#!/bin/sh
# bench/run.sh's ratios against Lace: one row per fj system and worker count
# for each program Lace ran, and none for the programs it does not run (a
# program after Lace's last one once got ratios against Lace's last cell).
# And its code phases: a fine cell's rounds go through the phase folders in
# turn (fine/, then fine/phase16/), rounded up to a multiple of their number,
# while a program without fine cells keeps BENCH_ROUNDS.
# The two cells issue 11's bar compares, fj-typed and lace in a fine program,
# run BENCH_LACE_ROUNDS rounds (rounded up to the phases), and so does the
# program's serial cell, while its other cells stop after theirs; a
# BENCH_LACE_ROUNDS that is not a whole number from 1 is refused by name.
# The runner is driven in a scratch copy, with stand-ins for the benchmark
# binaries that print a fixed time per system.  Exits 1 on a mismatch.
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bench" "$scratch/build/bench/fine/phase16"
cp "$here/bench/run.sh" "$here/bench/pair.sh" "$here/bench/summarise.sh" "$scratch/bench/"
stand_in() {  # path, seconds: a binary called as "PROGRAM SIZE WORKERS RUNS"
    cat >"$1" <<SCRIPT
#!/bin/sh
echo "run 1 $2 verified"
echo "RESULT,\$1,\$2,x,\$3,$2,$2,$2,1,1"
echo "CPU 1.00 0.00"
SCRIPT
    chmod +x "$1"
}
stand_in "$scratch/build/bench/fine/fj-typed" 0.3
stand_in "$scratch/build/bench/fine/lace" 0.4
stand_in "$scratch/build/bench/fine/phase16/fj-typed" 0.6
stand_in "$scratch/build/bench/fine/phase16/lace" 0.4
stand_in "$scratch/build/bench/fj-typed_bench" 3.0
stand_in "$scratch/build/bench/serial_bench" 0.2
(cd "$scratch" && BENCH_PROGRAMS="pi nqueens" BENCH_RUNS=1 BENCH_WORKERS="1 2" \
    sh bench/run.sh quick >run.out 2>&1)
status=0
check() {  # what, file, expected lines (sorted)
    got=$(tail -n +2 "$2" | sort)
    if [ "$got" = "$3" ]; then
        echo "ok   bench-run $1"
        return
    fi
    echo "FAIL bench-run $1: $2 expected"
    echo "$3"
    echo "got"
    echo "$got"
    sed 's/^/  run.sh: /' "$scratch/run.out"
    status=1
}
# One round at each phase: 0.3 / 0.4 and 0.6 / 0.4.
check "ratios only where Lace ran, one round per phase" "$scratch/build/bench/ratios.csv" \
"pi,1048576,fj-typed,lace,1,1.1250,0.7500,1.5000,2
pi,1048576,fj-typed,lace,2,1.1250,0.7500,1.5000,2"
# nqueens has no fine cell: one round, one run.
check "runs per cell" "$scratch/build/bench/results.csv" \
"nqueens,10,fj-typed,1,3.000000,3.000000,3.000000,1,1,1.00,0.00
nqueens,10,fj-typed,2,3.000000,3.000000,3.000000,1,1,1.00,0.00
nqueens,10,serial,1,0.200000,0.200000,0.200000,1,1,1.00,0.00
pi,1048576,fj-typed,1,0.450000,0.300000,0.600000,2,1,1.00,0.00
pi,1048576,fj-typed,2,0.450000,0.300000,0.600000,2,1,1.00,0.00
pi,1048576,lace,1,0.400000,0.400000,0.400000,2,1,1.00,0.00
pi,1048576,lace,2,0.400000,0.400000,0.400000,2,1,1.00,0.00"

# BENCH_LACE_ROUNDS=3, two phases: fj-typed, lace and serial 4 rounds,
# fj-classic (a fine cell too) the program's 2; fj-classic's ratio pairs the
# rounds both ran.  fib's serial is serial_bench, not a fine binary, and runs
# them too; nqueens has no fine cell: its serial keeps one round.
stand_in "$scratch/build/bench/fine/serial" 0.2
stand_in "$scratch/build/bench/fine/phase16/serial" 0.2
stand_in "$scratch/build/bench/fine/fj-classic" 0.8
stand_in "$scratch/build/bench/fine/phase16/fj-classic" 0.8
(cd "$scratch" && BENCH_PROGRAMS="fib pi nqueens" BENCH_RUNS=1 BENCH_WORKERS="1" BENCH_LACE_ROUNDS=3 \
    sh bench/run.sh quick >run.out 2>&1)
check "the bar's cells and serial run BENCH_LACE_ROUNDS rounds" "$scratch/build/bench/results.csv" \
"fib,30,fj-classic,1,0.800000,0.800000,0.800000,2,1,1.00,0.00
fib,30,fj-typed,1,0.450000,0.300000,0.600000,4,1,1.00,0.00
fib,30,lace,1,0.400000,0.400000,0.400000,4,1,1.00,0.00
fib,30,serial,1,0.200000,0.200000,0.200000,4,1,1.00,0.00
nqueens,10,fj-typed,1,3.000000,3.000000,3.000000,1,1,1.00,0.00
nqueens,10,serial,1,0.200000,0.200000,0.200000,1,1,1.00,0.00
pi,1048576,fj-classic,1,0.800000,0.800000,0.800000,2,1,1.00,0.00
pi,1048576,fj-typed,1,0.450000,0.300000,0.600000,4,1,1.00,0.00
pi,1048576,lace,1,0.400000,0.400000,0.400000,4,1,1.00,0.00
pi,1048576,serial,1,0.200000,0.200000,0.200000,4,1,1.00,0.00"
check "ratios over the rounds both cells ran" "$scratch/build/bench/ratios.csv" \
"fib,30,fj-classic,lace,1,2.0000,2.0000,2.0000,2
fib,30,fj-typed,lace,1,1.1250,0.7500,1.5000,4
pi,1048576,fj-classic,lace,1,2.0000,2.0000,2.0000,2
pi,1048576,fj-typed,lace,1,1.1250,0.7500,1.5000,4"
# Refused means exit status 2 before any cell ran (the scratch copy has no
# report binary, so a run that went ahead ends with another status).
for bad in many 0 -4 08; do
    (cd "$scratch" && BENCH_PROGRAMS="pi" BENCH_RUNS=1 BENCH_LACE_ROUNDS=$bad sh bench/run.sh quick >run.out 2>&1)
    rc=$?
    if [ $rc = 2 ] && grep -q -- "BENCH_LACE_ROUNDS=$bad is not" "$scratch/run.out" && ! grep -q "median" "$scratch/run.out"; then
        echo "ok   bench-run BENCH_LACE_ROUNDS=$bad refused by name"
    else
        echo "FAIL bench-run BENCH_LACE_ROUNDS=$bad not refused by name (exit $rc):"
        sed 's/^/  run.sh: /' "$scratch/run.out"
        status=1
    fi
done
exit $status
