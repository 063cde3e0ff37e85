#!/bin/sh
# examples-usage.sh BUILD_DIR - every example's answers to bad arguments (make test).
#
# An example is often the first fj program someone runs, with a typo in it:
# each must refuse a worker count or a size that is not a whole number in its
# range, and an unknown option, with exit status 2 and a line naming the
# argument and the value; and a bad FJ_* variable must reach the person who
# set it, named, with a non-zero exit, never a silent default.
set -u
build=${1:?usage: examples-usage.sh BUILD_DIR}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL examples-usage: $*"; exit 1; }

# expect NAME STATUS MESSAGE COMMAND...: COMMAND exits with STATUS ("nonzero":
# any but 0) and its stderr contains MESSAGE.
expect() {
    name=$1 status=$2 message=$3
    shift 3
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    case $status in
    nonzero) [ "$got" != 0 ] || fail "$name: $*: exit 0, expected a failure" ;;
    *) [ "$got" = "$status" ] || fail "$name: $*: exit $got, expected $status ($(head -c 300 "$work/err"))" ;;
    esac
    grep -qF -- "$message" "$work/err" || fail "$name: $*: stderr '$(head -c 300 "$work/err")' does not say '$message'"
}

count=0
for bin in "$build"/examples/* "$build"/examples/java/* "$build"/examples/tutorial/*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    name=$(basename "$bin")
    expect "$name" 2 "--workers two: expected a whole number from 0 to 1024" "$bin" --workers two
    expect "$name" 2 "--workers -1: expected a whole number from 0 to 1024" "$bin" --workers -1
    expect "$name" 2 "SIZE 12x: expected a whole number" "$bin" 12x
    expect "$name" 2 "SIZE 99999999999999999999: expected a whole number" "$bin" 99999999999999999999
    expect "$name" 2 "unknown option --bogus" "$bin" --bogus
    expect "$name" 2 "a value must follow --workers" "$bin" --workers
    # The pool is refused before any work: the smallest size keeps it quick.
    expect "$name" nonzero "FJ_SPIN=-1: out of range" env FJ_SPIN=-1 "$bin" --workers 2
    count=$((count + 1))
done
[ "$count" -ge 10 ] || fail "only $count examples found under $build/examples"
expect nqueens 2 "SIZE 17: expected a whole number from 1 to 16" "$build/examples/nqueens" 17
expect nqueens_cs 2 "--reps 0: expected a whole number from 1 to 1000000" "$build/examples/java/nqueens_cs" --reps 0
echo "examples-usage: $count examples refuse bad worker counts, sizes, options and FJ_* values, naming them"
