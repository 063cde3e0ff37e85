#!/bin/sh
# timeline-usage.sh BUILD_DIR - fj_timeline's answers to bad input (make test).
#
# Each bad invocation must exit with the status the man page gives (2: usage,
# 1: a file that cannot be read or written) and say on stderr what was wrong,
# naming the option and the value given; a good one draws a real trace.
set -u
build=${1:?usage: timeline-usage.sh BUILD_DIR}
tool="$build/tools/fj_timeline"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL timeline-usage: $*"; exit 1; }
[ -x "$tool" ] || fail "$tool not built"

FJ_TRACE="$work/trace.json" "$build/examples/fib" --workers 2 16 >"$work/fib.log" 2>&1 ||
    fail "examples/fib under FJ_TRACE failed: $(cat "$work/fib.log")"

checked=0
# expect STATUS MESSAGE ARGS...: fj_timeline ARGS exits with STATUS and its
# stderr contains MESSAGE.
expect() {
    status=$1 message=$2
    shift 2
    "$tool" "$@" >"$work/out" 2>"$work/err"
    got=$?
    [ "$got" = "$status" ] || fail "fj_timeline $*: exit $got, expected $status ($(cat "$work/err"))"
    grep -qF -- "$message" "$work/err" || fail "fj_timeline $*: stderr '$(cat "$work/err")' does not say '$message'"
    checked=$((checked + 1))
}
trace="$work/trace.json"
expect 2 "--color blue: expected depth or kind" --color blue "$trace"
expect 2 "--width -5: expected a number of pixels from 400 to 100000" --width -5 "$trace"
expect 2 "--width 12px: expected a number of pixels" --width 12px "$trace"
expect 2 "--width 1e9: expected a number of pixels" --width 1e9 "$trace"
expect 2 "--width 399: expected a number of pixels" --width 399 "$trace"
expect 2 "--title needs a value" "$trace" --title
expect 2 "unknown option --colour" --colour kind "$trace"
expect 2 "one trace at a time (given $trace and $trace)" "$trace" "$trace"
expect 2 "no trace file given" -o "$work/x.svg"
expect 1 "cannot read $work/missing.json: No such file or directory" "$work/missing.json"
expect 1 "cannot write $work/no/such/dir.svg: No such file or directory" -o "$work/no/such/dir.svg" "$trace"
: >"$work/empty.json"
expect 1 "$work/empty.json: unexpected end at byte 0" "$work/empty.json"
[ ! -e "$work/x.svg" ] || fail "a refused invocation wrote its output"

"$tool" --color kind --width 400 --title "usage check" -o "$work/good.svg" "$trace" 2>"$work/err" ||
    fail "a good invocation failed: $(cat "$work/err")"
grep -q '</svg>' "$work/good.svg" && grep -q 'usage check' "$work/good.svg" ||
    fail "the good invocation wrote no complete SVG with its title"
echo "timeline-usage: $checked bad invocations refused with the option and value named; a good one drew fib(16)"
