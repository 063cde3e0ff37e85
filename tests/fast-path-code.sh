#!/bin/sh
# fast-path-code.sh - the typed fast path as a compiler makes it: the body of
# the README's first example (examples/fib_typed.c), built as a program
# would build it (-O2 -DNDEBUG), by gcc and by clang where present, holds no
# atomic read-modify-write and no fence, and calls nothing but itself, code
# the compiler put in a cold section, the stubs that keep the caller's
# registers around the spawn's cold calls (fj.h: FJ__COLD_STUBS under clang,
# FJ__KEEP_CALLS under gcc) and the runtime's slow halves (fj.h: "A
# spawn and a sync that nobody interferes with take no lock, no atomic
# read-modify-write, no library call").  tests/unit/test_fast_path.c counts
# the calls as they run; this reads the machine code.  Built again for AVX2
# and AVX-512 (-march=x86-64-v3, -v4), the body also holds no vzeroupper:
# the spawn's cold calls leave the vector registers' upper halves clean, so
# nothing need clear them before each call and return (fj.h,
# FJ__KEEP_VECTOR_DECL).  x86-64 only.
# Prints the verdict; exits 1 naming each breach.
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(uname -m)" != x86_64 ]; then
    echo "fast path code: skipped (not x86-64)"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
checked=""
for build in gcc clang "gcc -march=x86-64-v3" "clang -march=x86-64-v3" "gcc -march=x86-64-v4"; do
    cc=${build%% *}
    command -v $cc >/dev/null 2>&1 || continue
    if ! $build -std=gnu11 -O2 -DNDEBUG -I"$here/include" -c "$here/examples/fib_typed.c" -o "$work/fib.o"; then
        echo "FAIL fast path code: $build cannot build examples/fib_typed.c"
        status=1
        continue
    fi
    objdump -dr --no-show-raw-insn "$work/fib.o" >"$work/fib.s" || exit 1
    # The hot functions: fib's body and its clones, not their .cold parts.
    # A call's target is the name in the call (same section) or, on the next
    # line, its relocation's symbol.
    awk -v cc="$build" '
        /^[0-9a-f]+ <.*>:$/ { name = $2; hot = (name ~ /^<fib_fj_body/ && name !~ /\.cold>:$/); next }
        !hot { next }
        pending != "" {
            target = ""
            if ($2 ~ /^R_X86_64_/) target = $3
            verdict(pending, target); pending = ""
            if (target != "") next
        }
        /\tlock |\tmfence|\tcmpxchg|\txadd|\txchg .*\(|\tvzeroupper/ { print "FAIL fast path code (" cc "): " $0; bad = 1 }
        /\tcall / { pending = $0 }
        function verdict(line, target,    callee) {
            callee = line; sub(/.*</, "", callee); sub(/[+>].*/, "", callee)
            if (target == "" && callee ~ /^fib_fj_body/ && line !~ /\+0x/) return
            if (target == "" && callee ~ /(_cold|_keep|_fj_sync_take)$/) return
            if (target ~ /^\.text\.unlikely/ || target ~ /^fj__(spawn_settle|spawn_guarded|spawn_slow|spawn_wake|sync_slow|frame_publish|unsynced)-/) return
            print "FAIL fast path code (" cc "): a call to " (target != "" ? target : callee) ": " line; bad = 1
        }
        END { if (pending != "") verdict(pending, ""); exit bad }
    ' "$work/fib.s" || status=1
    grep -q "<fib_fj_body" "$work/fib.s" || { echo "FAIL fast path code ($build): no fib_fj_body in the object"; status=1; }
    checked="$checked, $build"
done
[ -n "$checked" ] || { echo "FAIL fast path code: no compiler"; exit 1; }
[ $status -eq 0 ] && echo "fast path code: fib's typed body (${checked#, }) has no atomic read-modify-write, no fence, no vzeroupper, no call but to itself and slow paths"
exit $status
