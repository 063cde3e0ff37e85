#!/bin/sh
# bench/placement.sh: that each system is built once per placement with a
# padding object of exactly that many bytes of code, and that the summary is the median over
# placements of each placement's fastest run, over the last system's median;
# a result that did not verify stops it.  Driven with a stand-in for make
# whose "binaries" print a time that depends on the placement and the round.
# Exits 1 on a mismatch.
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/make" <<'SCRIPT'
#!/bin/sh
# Called as: make --no-print-directory -s FINE_DIR=D FINE_PAD=P TARGET...
pad=0
for a in "$@"; do
    case $a in
    FINE_PAD=*.o) p=${a#FINE_PAD=}; pad=${p##*pad}; pad=${pad%.o}
        # The padding object must hold exactly that many bytes of code.
        text=$(size -A "$p" | awk '$1 == ".text" { print $2 }')
        [ "$text" = "$pad" ] || { echo "stand-in make: $p has $text bytes of .text, want $pad" >&2; exit 1; } ;;
    FINE_*|-*) ;;
    *) mkdir -p "$(dirname "$a")"
       case $a in */lace) base=0.4000 ;; *) base=$(echo "$pad" | awk '{ printf "%.4f", 0.3 + $1 / 10000 }') ;; esac
       # The very first run is slow (as in the VM's slow mode): the fastest run drops it.
       cat >"$a" <<RUN
#!/bin/sh
round=\$(cat "$(dirname "$a")/../round" 2>/dev/null || echo 0); echo \$((round + 1)) > "$(dirname "$a")/../round"
t=\$(awk -v b=$base -v r=\$round 'BEGIN { printf "%.4f", r == 0 ? b * 1.5 : b }')
echo "RESULT,\$1,\$2,x,\$3,\$t,\$t,\$t,\$4,\${VERIFIED:-1}"
RUN
       chmod +x "$a" ;;
    esac
done
SCRIPT
chmod +x "$scratch/make"
out=$(cd "$here" && MAKE="$scratch/make" sh bench/placement.sh "$scratch/p" "pi 64 1" "fj-typed lace" 3 128 2 2>&1)
status=$?
got=$(echo "$out" | grep -E '^  ')
want="  fj-typed   median 0.3128  fastest 0.3000  slowest 0.3256  median / lace 0.782
  lace       median 0.4000  fastest 0.4000  slowest 0.4000  median / lace 1.000"
if [ $status -ne 0 ] || [ "$got" != "$want" ]; then
    echo "bench-placement: FAILED: summary"; echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1
fi
rows=$(tail -n +2 "$scratch/p/placement.csv" | wc -l)
if [ "$rows" -ne 12 ]; then
    echo "bench-placement: FAILED: $rows rows in placement.csv, want 12 (2 systems x 3 placements x 2 rounds)"; exit 1
fi
if out=$(cd "$here" && VERIFIED=0 MAKE="$scratch/make" sh bench/placement.sh "$scratch/q" "pi 64 1" "fj-typed lace" 2 64 1 2>&1); then
    echo "bench-placement: FAILED: a result that did not verify was accepted"; echo "$out"; exit 1
fi
echo "bench-placement: ok"
