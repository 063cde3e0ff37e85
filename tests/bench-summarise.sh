#!/bin/sh
# The benchmark suite's per-cell figures (bench/summarise.sh): medians over
# rounds, min and max, and a cell counted unverified if any run was wrong or
# any round failed.  Prints one line per case and fails on the first mismatch.
here=$(cd "$(dirname "$0")/.." && pwd)
in=$(mktemp)
trap 'rm -f "$in"' EXIT
status=0
check() {  # name, expected, input lines...
    name=$1 want=$2
    shift 2
    : >"$in"
    for line in "$@"; do echo "$line" >>"$in"; done
    got=$(sh "$here/bench/summarise.sh" "$in")
    if [ "$got" = "$want" ]; then
        echo "ok   bench-summarise $name"
    else
        echo "FAIL bench-summarise $name: expected '$want', got '$got'"
        status=1
    fi
}
check odd-count "0.200000 0.100000 0.300000 3 1" "0.3 1" "0.1 1" "0.2 1"
check even-count "0.250000 0.100000 0.400000 4 1" "0.4 1" "0.1 1" "0.3 1" "0.2 1"
check rounds-out-of-order "1.500000 0.500000 9.000000 5 1" "9 1" "0.5 1" "1.5 1" "2 1" "1 1"
check one-wrong-run "0.150000 0.100000 0.200000 2 0" "0.1 1" "0.2 0"
check failed-round "0.100000 0.100000 0.100000 1 0" "0.1 1" "fail"
check no-runs "0 0 0 0 0"
check only-failures "0 0 0 0 0" "fail" "fail"
exit $status
