#!/bin/sh
# The benchmark suite's per-cell figures (bench/summarise.sh): medians over
# rounds, min and max, and a cell counted unverified if any run was wrong or
# any round failed; and the ratio of two cells taken round by round
# (bench/pair.sh).  Prints one line per case; exits 1 if any case mismatched.
here=$(cd "$(dirname "$0")/.." && pwd)
in=$(mktemp)
other=$(mktemp)
trap 'rm -f "$in" "$other"' EXIT
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
# pair NAME EXPECTED "A's rounds" "B's rounds": one round per word.
pair() {
    name=$1 want=$2
    printf '%s\n' $3 >"$in"
    printf '%s\n' $4 >"$other"
    got=$(sh "$here/bench/pair.sh" "$in" "$other")
    if [ "$got" = "$want" ]; then
        echo "ok   bench-pair $name"
    else
        echo "FAIL bench-pair $name: expected '$want', got '$got'"
        status=1
    fi
}
# A slow minute slows both cells of its round: the quotients stay 0.9 while
# the medians of the columns (0.9 against 0.5) would say A is 1.8x slower.
pair slow-minute-cancels "0.9000 0.9000 0.9000 3" "0.9 0.9 1.8" "1 1 2"
pair median-of-quotients "1.0000 0.5000 2.0000 3" "1 1 1" "2 0.5 1"
pair even-count "1.0000 0.5000 2.0000 4" "1 1 1 1" "2 0.5 1 1"
pair failed-rounds-left-out "0.5000 0.5000 0.5000 1" "fail 1 2" "1 2 fail"
pair no-round-in-common "0 0 0 0" "fail 1" "1 fail"
exit $status
