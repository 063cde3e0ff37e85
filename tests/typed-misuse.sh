#!/bin/sh
# typed-misuse.sh - a typed task declared wrongly gets a compile error that
# names the task and says what is wrong (fj.h: FJ_TASK, FJ_VOID_TASK), as the
# first error a compiler prints, before the errors of the code the macro
# builds from the wrong declaration:
#   - FJ_TASK(void, ...): "declared with FJ_VOID_TASK";
#   - an odd number of arguments, or more than 6 pairs: "0 to 6 type, name pairs".
# The declarations that are right (0 and 6 pairs, a void task) must compile
# with -Werror.  Each of gcc, clang, g++ and clang++ that is installed checks
# every case, C compilers on a .c file, C++ compilers on a .cpp one.
# Prints the verdict; exits 1 naming each breach.
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
checked=""

# case NAME DECLARATION: a file that declares one typed task.
write_case() {
    printf '#include <fj.h>\n%s\n' "$2" >"$work/$1.c"
    cp "$work/$1.c" "$work/$1.cpp"
}
write_case void 'FJ_TASK(void, t, int, n) { (void)n; }'
write_case odd 'FJ_TASK(long, t, int) { return 0; }'
write_case seven 'FJ_TASK(long, t, int, a, int, b, int, c, int, d, int, e, int, f, int, g) { return a + g; }'
write_case void_odd 'FJ_VOID_TASK(t, int, n, long) { (void)n; }'
write_case right 'FJ_TASK(long, none) { return 1; }
FJ_TASK(long, six, int, a, int, b, int, c, int, d, int, e, int, f) { return a + b + c + d + e + f; }
FJ_VOID_TASK(nothing, int, n) { (void)n; }
long use(void);
long use(void) { return FJ_RUN(NULL, none) + FJ_RUN(NULL, six, 1, 2, 3, 4, 5, 6); }
void use_void(void);
void use_void(void) { FJ_RUN(NULL, nothing, 1); }'

# expect CC EXT CASE MESSAGE: CASE fails to compile, its first error says MESSAGE.
expect() {
    if $1 -Wall -Wextra -I"$here/include" -c "$work/$3.$2" -o "$work/$3.o" 2>"$work/$3.err"; then
        echo "FAIL typed misuse ($1): '$3' compiled"
        status=1
        return
    fi
    first=$(grep -m1 'error' "$work/$3.err")
    case "$first" in
    *"typed task t: $4"*) ;;
    *) echo "FAIL typed misuse ($1): '$3' first error is: $first"; status=1 ;;
    esac
}

for pair in gcc:c clang:c g++:cpp clang++:cpp; do
    cc=${pair%:*} ext=${pair#*:}
    command -v $cc >/dev/null 2>&1 || continue
    if ! $cc -Wall -Wextra -Werror -I"$here/include" -c "$work/right.$ext" -o "$work/right.o" 2>"$work/right.err"; then
        echo "FAIL typed misuse ($cc): the right declarations do not compile:"
        cat "$work/right.err"
        status=1
        continue
    fi
    expect $cc $ext void "a task without a result is declared with FJ_VOID_TASK(t, ...)"
    expect $cc $ext odd "the arguments must be 0 to 6 type, name pairs"
    expect $cc $ext seven "the arguments must be 0 to 6 type, name pairs"
    expect $cc $ext void_odd "the arguments must be 0 to 6 type, name pairs"
    checked="$checked $cc"
done
[ -n "$checked" ] || { echo "FAIL typed misuse: no compiler"; exit 1; }
[ $status -eq 0 ] && echo "typed misuse: a void FJ_TASK and wrong argument lists get errors that say so (${checked# })"
exit $status
