#!/bin/sh
# typed-language-modes.sh - typed tasks in every language mode a user may
# pick: a program that declares tasks of 0 to 6 arguments, with and without a
# result, and spawns, calls, syncs and runs each, compiles silently with
# -Wall -Wextra -Wpedantic -Werror as ISO C (c11, c17, c23 where the compiler
# knows it), as GNU C and as ISO C++ (11 to 20), by gcc, clang, g++ and
# clang++ where present, and each build gives the serial answers when it runs
# on the library in DIR (the build directory, the first argument).  The macros
# never pass an empty `...` nor use GNU's `, ##__VA_ARGS__`, which ISO modes
# keep only in part and clang's -Wpedantic reports.  Under a sanitizer build
# the library cannot link into plain programs: then it compiles only.
# Prints the verdict; exits 1 naming each breach.
here=$(cd "$(dirname "$0")/.." && pwd)
lib="$1/libfj.a"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
checked=""
run=yes
if [ ! -f "$lib" ]; then
    echo "FAIL typed language modes: no $lib"
    exit 1
fi
if nm "$lib" 2>/dev/null | grep -q -E '__(tsan|asan|ubsan)_'; then
    run=no
fi

# Each arity, each result kind; the answers weigh every argument by its
# position, so a dropped, repeated or swapped argument changes them.
cat >"$work/modes.c" <<'EOF'
#include <fj.h>
#include <stdio.h>

static int visits;
FJ_TASK(long, zero) { return 7; }
FJ_VOID_TASK(visit) { __atomic_fetch_add(&visits, 1, __ATOMIC_RELAXED); }
FJ_TASK(long, one, long, a) { return a; }
FJ_TASK(long, two, long, a, long, b) { return a + 10 * b; }
FJ_TASK(long, three, long, a, long, b, long, c) { return a + 10 * b + 100 * c; }
FJ_TASK(long, four, long, a, long, b, long, c, long, d) { return a + 10 * b + 100 * c + 1000 * d; }
FJ_TASK(long, five, long, a, long, b, long, c, long, d, long, e)
{
    return a + 10 * b + 100 * c + 1000 * d + 10000 * e;
}
FJ_VOID_TASK(six, long, a, long, b, long, c, long, d, long, e, long *, out)
{
    *out = a + 10 * b + 100 * c + 1000 * d + 10000 * e;
}
/* Every task spawned and synced at each level of a fib recursion. */
FJ_TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    long six_out = 0;
    FJ_SPAWN(fib, n - 1);
    FJ_SPAWN(zero);
    FJ_SPAWN(visit);
    FJ_SPAWN(one, 1);
    FJ_SPAWN(two, 1, 2);
    FJ_SPAWN(three, 1, 2, 3);
    FJ_SPAWN(four, 1, 2, 3, 4);
    FJ_SPAWN(five, 1, 2, 3, 4, 5);
    FJ_SPAWN(six, 1, 2, 3, 4, 5, &six_out);
    long b = FJ_CALL(fib, n - 2);
    FJ_SYNC(six);
    long checks = FJ_SYNC(five) - 54321 + FJ_SYNC(four) - 4321 + FJ_SYNC(three) - 321 + FJ_SYNC(two) - 21;
    checks += FJ_SYNC(one) - 1;
    FJ_SYNC(visit);
    checks += FJ_SYNC(zero) - 7 + six_out - 54321 + FJ_CALL(zero) - 7 + FJ_CALL(three, 3, 2, 1) - 123;
    long a = FJ_SYNC(fib);
    return a + b + 1000000 * checks;
}

int main(void)
{
    int rc = -1;
    long six_out = 0;
    long fib20 = FJ_RUN_RC(NULL, &rc, fib, 20);
    FJ_RUN(NULL, six, 6, 5, 4, 3, 2, &six_out);
    long zero_run = FJ_RUN(NULL, zero);
    FJ_RUN(NULL, visit);
    printf("fib(20)=%ld rc=%d six=%ld zero=%ld visits=%d\n", fib20, rc, six_out, zero_run, visits);
    return !(fib20 == 6765 && rc == 0 && six_out == 23456 && zero_run == 7 && visits == 10946);
}
EOF
cp "$work/modes.c" "$work/modes.cpp"
expected="fib(20)=6765 rc=0 six=23456 zero=7 visits=10946"

# try CC EXT MODE: compiles (and runs) the program as MODE; a mode the
# compiler does not know is left out.
try() {
    lang=c
    [ $2 = cpp ] && lang=c++
    $1 -std=$3 -x $lang -fsyntax-only /dev/null 2>/dev/null || return
    out="$work/modes-$1-$3"
    if ! $1 -std=$3 -O1 -Wall -Wextra -Wpedantic -Werror -I"$here/include" -c "$work/modes.$2" -o "$out.o" 2>"$out.err"; then
        echo "FAIL typed language modes ($1 -std=$3): the typed tasks do not compile silently:"
        head -20 "$out.err"
        status=1
        return
    fi
    checked="$checked $1:$3"
    [ $run = yes ] || return
    if ! $1 "$out.o" "$lib" -latomic_ops -pthread -o "$out" 2>"$out.err"; then
        echo "FAIL typed language modes ($1 -std=$3): does not link:"
        head -20 "$out.err"
        status=1
        return
    fi
    answer=$("$out")
    if [ "$answer" != "$expected" ]; then
        echo "FAIL typed language modes ($1 -std=$3): printed '$answer', expected '$expected'"
        status=1
    fi
}

for cc in gcc clang; do
    command -v $cc >/dev/null 2>&1 || continue
    for mode in c11 c17 c2x gnu11 gnu17; do try $cc c $mode; done
done
for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 || continue
    for mode in c++11 c++14 c++17 c++20; do try $cxx cpp $mode; done
done
[ -n "$checked" ] || { echo "FAIL typed language modes: no compiler"; exit 1; }
ran="built and ran"
[ $run = yes ] || ran="compiled (sanitizer build: not linked)"
[ $status -eq 0 ] && echo "typed language modes: $ran silently under -Wpedantic -Werror:$checked"
exit $status
