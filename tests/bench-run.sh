#!/bin/sh
# bench/run.sh's ratios against Lace: one row per fj system and worker count
# for each program Lace ran, and none for the programs it does not run (a
# program after Lace's last one once got ratios against Lace's last cell).
# The runner is driven in a scratch copy, with stand-ins for the benchmark
# binaries that print a fixed time per system.  Exits 1 on a mismatch.
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bench" "$scratch/build/bench/fine"
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
stand_in "$scratch/build/bench/fj-typed_bench" 3.0
stand_in "$scratch/build/bench/serial_bench" 0.2
(cd "$scratch" && BENCH_PROGRAMS="pi nqueens" BENCH_RUNS=1 BENCH_WORKERS="1 2" \
    sh bench/run.sh quick >run.out 2>&1)
got=$(tail -n +2 "$scratch/build/bench/ratios.csv" | sort)
want="pi,1048576,fj-typed,lace,1,0.7500,0.7500,0.7500,1
pi,1048576,fj-typed,lace,2,0.7500,0.7500,0.7500,1"
if [ "$got" = "$want" ]; then
    echo "ok   bench-run ratios only where Lace ran"
    exit 0
fi
echo "FAIL bench-run ratios.csv: expected"
echo "$want"
echo "got"
echo "$got"
sed 's/^/  run.sh: /' "$scratch/run.out"
exit 1
