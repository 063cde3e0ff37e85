#!/bin/sh
# check.sh - one exhaustive Spin run of a model (tests/model/*.pml).
#
# Usage: check.sh WORKDIR NAME EXPECT MODEL [SPIN_DEFINES...]
#   EXPECT  pass: the checker must find no error in the whole state space;
#           fail: a mutant (or a known bug), the checker must find a
#                 counterexample (its trail is left in WORKDIR/NAME/: replay it
#                 there with `spin -t -p -g DEFINES MODEL`); fail-assert / fail-deadlock: and it must be
#                 an assertion / an invalid end state (a thread blocked for ever).
# PAN_CFLAGS (default -DSAFETY -DCOLLAPSE: safety properties, lossless state
# compression, so every state is still visited), PAN_OPT (default -O1: pan.c
# compiles in half the time -O2 takes, and these searches run about as fast;
# the compile is most of a small entry's time) and PAN_RUN (extra pan flags)
# come from the environment.  Prints one line: name, verdict, states, depth,
# memory, time.  A search that was cut short (hash or depth limit, out of
# memory) counts as a failure of a `pass` run: exhaustive means exhaustive.
set -eu
work=$1 name=$2 expect=$3 model=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
dir=$work/$name
rm -rf "$dir" && mkdir -p "$dir"
cp "$here"/*.pml "$dir"/
cd "$dir"
spin "$@" -a "$(basename "$model")" >spin.log 2>&1 || { cat spin.log; echo "$name: spin -a failed"; exit 1; }
${CC:-cc} ${PAN_OPT:--O1} -w ${PAN_CFLAGS:--DSAFETY -DCOLLAPSE} -DVECTORSZ=4096 -o pan pan.c >cc.log 2>&1 ||
    { cat cc.log; echo "$name: pan does not compile"; exit 1; }
start=$(date +%s.%N)
./pan -m1000000 -w24 ${PAN_RUN:-} >pan.log 2>&1 || true
secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | tail -1)
states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | tail -1)
depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' pan.log | tail -1)
memory=$(sed -n 's/^ *\([0-9.]*\).*total actual memory usage.*/\1/p' pan.log | tail -1)
summary="states=${states:-?} depth=${depth:-?} memory=${memory:-?}MB time=${secs}s"
if [ -z "$errors" ]; then
    cat pan.log
    echo "$name: pan did not finish"
    exit 1
fi
if grep -q -e "max search depth too small" -e "out of memory" -e "hash table is full" pan.log; then
    truncated=1
else
    truncated=0
fi
if [ "$expect" = pass ]; then
    if [ "$errors" != 0 ] || [ "$truncated" = 1 ]; then
        grep -E "pan:|violated|error|depth too small" pan.log | head -5
        [ "$errors" != 0 ] && spin -t -p -g "$@" "$(basename "$model")" >trail.txt 2>&1 || true
        echo "FAIL $name: $errors error(s) or an incomplete search, $summary (counterexample: $dir/trail.txt)"
        exit 1
    fi
    echo "ok   $name: exhaustive, no error, $summary"
else
    if [ "$errors" = 0 ]; then
        echo "FAIL $name: no counterexample: the model no longer sees this mistake ($summary)"
        exit 1
    fi
    case $expect in
    fail-assert) kind="assertion violated" ;;
    fail-deadlock) kind="invalid end state" ;;
    *) kind="" ;;
    esac
    if [ -n "$kind" ] && ! grep -q "$kind" pan.log; then
        grep -m1 "^pan:" pan.log
        echo "FAIL $name: a counterexample, but not the expected kind ($kind)"
        exit 1
    fi
    what=$(grep -m1 -E "^pan:[0-9]*:|pan: " pan.log | sed 's/^pan:[0-9]*: *//; s/ (at depth.*//')
    echo "ok   $name: counterexample found as expected: $what, $summary"
fi
