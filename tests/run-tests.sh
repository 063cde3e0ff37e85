#!/bin/sh
# Runs every case of every test program under DIR (unit/ and stress/), each in
# its own process with a time limit, on 1, 2, 4 and 8 workers when the case
# depends on them.  Prints one line per run and closes with "N passed, M failed".
# Usage: run-tests.sh DIR [unit|stress|examples|scripts]   (FJ_TEST_WORKERS="1 2" to change the set;
# FJ_TEST_RUNNER, a command that runs the test programs, e.g. qemu-aarch64: mk/cross.mk)
dir=$(cd "$1" && pwd)   # absolute: examples run from the build directory
tier=${2:-}
workers=${FJ_TEST_WORKERS:-"1 2 4 8"}
limit=${FJ_TEST_TIMEOUT:-300}
runner=${FJ_TEST_RUNNER:-}
passed=0
failed=0
failures=""
log=$(mktemp)
# run_cases BIN [SETTING]: every case of BIN, with the environment setting
# (VAR=value) if one is given; the setting is part of each run's label.
run_cases() {
    bin=$1 setting=${2:-}
    $runner "$bin" --list > "$log.list" || { echo "FAIL $bin --list"; failed=$((failed + 1)); return; }
    while read -r name per_workers; do
        if [ "$per_workers" = 1 ]; then set -- $workers; else set -- 2; fi
        for w in "$@"; do
            label="$(basename "$bin") $name"
            [ "$per_workers" = 1 ] && label="$label workers=$w"
            [ -n "$setting" ] && label="$label $setting"
            start=$(date +%s)
            if timeout "$limit" env $setting $runner "$bin" --workers "$w" "$name" > "$log" 2>&1; then
                passed=$((passed + 1))
                echo "ok   $label ($(( $(date +%s) - start ))s)"
            else
                rc=$?
                failed=$((failed + 1))
                [ $rc = 124 ] && echo "  (timed out after ${limit}s)" >> "$log"
                echo "FAIL $label (exit $rc)"
                sed 's/^/     /' "$log"
                failures="$failures
  $label"
            fi
        done
    done < "$log.list"
}
for bin in "$dir"/unit/* "$dir"/stress/*; do
    [ -x "$bin" ] || continue
    case "$bin" in *.d) continue ;; esac
    if [ -n "$tier" ]; then case "$bin" in */$tier/*) ;; *) continue ;; esac; fi
    run_cases "$bin"
done
# The deque and the typed tasks again without membarrier (FJ_FENCE=full), as
# where the kernel lacks it: the deque splits (runtime/deque.c, point 9), so
# typed frames are private until a thief asks, a spawn that finds its hint set
# publishes (runtime/frame.c, fj__spawn_wake), a sync of a public frame or an
# item fences, every item push publishes at once, and an owner about to wait
# publishes (test_java_pool's managed block of a typed spawn); an owner in
# Java's asyncMode takes its oldest item at the thieves' end (test_java_async);
# fj.hpp's joins (of two, and of more) fork through the same typed frames; tracing and
# the profiler send spawns to the slow path and back; non-strict joins wait
# on fj_tasks among typed frames; and none of it allocates, nor locks with
# nobody to interfere (test_fast_path).
for bin in unit/test_deque unit/test_typed unit/test_forkjoin unit/test_fj_hpp unit/test_join_many unit/test_trace \
    unit/test_profile unit/test_java_pool unit/test_java_async unit/test_fast_path unit/test_join_fast_path \
    stress/stress_deque stress/stress_nonstrict \
    stress/stress_typed stress/stress_settle stress/stress_forkjoin; do
    [ -x "$dir/$bin" ] || continue
    if [ -n "$tier" ]; then case "$bin" in $tier/*) ;; *) continue ;; esac; fi
    run_cases "$dir/$bin" FJ_FENCE=full
done
# The examples: each checks itself against its serial twin and exits non-zero
# on a mismatch.  Run on every worker count, with the sizes in examples.args.
examples_dir="$dir/../examples"
if [ -z "$tier" ] || [ "$tier" = examples ]; then
    for bin in "$examples_dir"/* "$examples_dir"/java/*; do
        [ -x "$bin" ] && [ -f "$bin" ] || continue
        case "$bin" in *.d) continue ;; esac
        name=$(basename "$bin")
        args=$(grep "^$name " "$(dirname "$0")/examples.args" 2>/dev/null | cut -d' ' -f2-)
        for w in $workers; do
            label="example $name workers=$w"
            if (cd "$dir/.." && timeout "$limit" "$bin" --workers "$w" $args) > "$log" 2>&1 && grep -q "matches\|correct\|PASS" "$log"; then
                passed=$((passed + 1))
                echo "ok   $label"
            else
                failed=$((failed + 1))
                echo "FAIL $label"
                sed 's/^/     /' "$log"
                failures="$failures
  $label"
            fi
        done
    done
fi
# Whole-build checks (FJ_TEST_SCRIPTS, from the Makefile's TEST_SCRIPTS): each
# script is one run, given the build directory; exit status 0 passes.
if [ -z "$tier" ] || [ "$tier" = scripts ]; then
    for script in ${FJ_TEST_SCRIPTS:-}; do
        label="script $(basename "$script")"
        if timeout "$limit" sh "$script" "$dir/.." > "$log" 2>&1; then
            passed=$((passed + 1))
            echo "ok   $label: $(tail -n 1 "$log")"
        else
            failed=$((failed + 1))
            echo "FAIL $label"
            sed 's/^/     /' "$log"
            failures="$failures
  $label"
        fi
    done
fi
rm -f "$log" "$log.list"
[ $failed -gt 0 ] && printf 'failed runs:%s\n' "$failures"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
