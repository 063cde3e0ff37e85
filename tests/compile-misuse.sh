#!/bin/sh
# compile-misuse.sh - a typed task declared wrongly, or an fj::join given sides
# it cannot call, gets a compile error that says what is wrong, as the first
# error a compiler prints, before the errors of the code built from it:
#   - FJ_TASK(void, ...): "declared with FJ_VOID_TASK" (fj.h);
#   - a typed task's arguments an odd number, or more than 6 pairs: "0 to 6
#     type, name pairs" (fj.h, FJ_TASK and FJ_VOID_TASK);
#   - arguments or a result larger than a frame holds: "exceed(s)
#     FJ_FRAME_DATA_SIZE bytes";
#   - fj::join with sides that take an fj::context but no context, with a
#     context but sides that take none, or with one side: how join calls its
#     sides (fj.hpp).
# The declarations and joins that are right must compile with -Werror.  Each
# of gcc, clang, g++ and clang++ that is installed checks the typed tasks, C
# compilers on a .c file, C++ compilers on a .cpp one; g++ and clang++ check
# the joins.  Prints the verdict; exits 1 naming each breach.
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
write_case big_arguments 'struct big { char bytes[FJ_FRAME_DATA_SIZE + 1]; };
FJ_TASK(long, t, struct big, b) { return b.bytes[0]; }'
write_case big_result 'struct big { char bytes[FJ_FRAME_DATA_SIZE + 1]; };
FJ_TASK(struct big, t, int, n) { struct big r = {{0}}; r.bytes[0] = (char)n; return r; }'
write_case right 'FJ_TASK(long, none) { return 1; }
FJ_TASK(long, six, int, a, int, b, int, c, int, d, int, e, int, f) { return a + b + c + d + e + f; }
FJ_VOID_TASK(nothing, int, n) { (void)n; }
long use(void);
long use(void) { return FJ_RUN(NULL, none) + FJ_RUN(NULL, six, 1, 2, 3, 4, 5, 6); }
void use_void(void);
void use_void(void) { FJ_RUN(NULL, nothing, 1); }'

# The joins, C++ only: a recursion through contexts, written three ways.
write_join() {
    printf '#include <fj.hpp>\nlong f(fj::context cx, int n)\n{\n    if (n < 2)\n        return n;\n    auto [a, b] = %s;\n    return a + b;\n}\n' "$2" >"$work/$1.cpp"
}
write_join join_right 'fj::join(cx, [n](fj::context c) { return f(c, n - 1); }, [n](fj::context c) { return f(c, n - 2); })'
write_join join_no_context 'fj::join([n](fj::context c) { return f(c, n - 1); }, [n](fj::context c) { return f(c, n - 2); })'
write_join join_plain_sides 'fj::join(cx, [n] { return n - 1; }, [n] { return n - 2; })'
printf '#include <fj.hpp>\nint one() { return fj::join([] { return 1; }); }\n' >"$work/join_one.cpp"
join_message="fj::join: two or more sides, each callable as side() (fj::join(f, g, ...)), or an fj::context first and sides callable as side(fj::context) (fj::join(cx, f, g, ...))"

# expect CC EXT CASE MESSAGE: CASE fails to compile, its first error says MESSAGE.
expect() {
    if $1 -Wall -Wextra -I"$here/include" -c "$work/$3.$2" -o "$work/$3.o" 2>"$work/$3.err"; then
        echo "FAIL compile misuse ($1): '$3' compiled"
        status=1
        return
    fi
    first=$(grep -m1 'error' "$work/$3.err")
    case "$first" in
    *"$4"*) ;;
    *) echo "FAIL compile misuse ($1): '$3' first error is: $first"; status=1 ;;
    esac
}

for pair in gcc:c clang:c g++:cpp clang++:cpp; do
    cc=${pair%:*} ext=${pair#*:}
    command -v $cc >/dev/null 2>&1 || continue
    if ! $cc -Wall -Wextra -Werror -I"$here/include" -c "$work/right.$ext" -o "$work/right.o" 2>"$work/right.err"; then
        echo "FAIL compile misuse ($cc): the right declarations do not compile:"
        cat "$work/right.err"
        status=1
        continue
    fi
    expect $cc $ext void "typed task t: a task without a result is declared with FJ_VOID_TASK(t, ...)"
    expect $cc $ext odd "typed task t: the arguments must be 0 to 6 type, name pairs"
    expect $cc $ext seven "typed task t: the arguments must be 0 to 6 type, name pairs"
    expect $cc $ext void_odd "typed task t: the arguments must be 0 to 6 type, name pairs"
    expect $cc $ext big_arguments "typed task t: arguments exceed FJ_FRAME_DATA_SIZE bytes"
    expect $cc $ext big_result "typed task t: result exceeds FJ_FRAME_DATA_SIZE bytes"
    if [ $ext = cpp ]; then
        if ! $cc -std=c++17 -Wall -Wextra -Werror -I"$here/include" -c "$work/join_right.cpp" -o "$work/join_right.o" 2>"$work/join_right.err"; then
            echo "FAIL compile misuse ($cc): the right join does not compile:"
            cat "$work/join_right.err"
            status=1
        fi
        expect "$cc -std=c++17" cpp join_no_context "$join_message"
        expect "$cc -std=c++17" cpp join_plain_sides "$join_message"
        expect "$cc -std=c++17" cpp join_one "$join_message"
    fi
    checked="$checked $cc"
done
[ -n "$checked" ] || { echo "FAIL compile misuse: no compiler"; exit 1; }
[ $status -eq 0 ] && echo "compile misuse: a void FJ_TASK, wrong argument lists, frames too small for a task and joins of sides join cannot call get errors that say so (${checked# })"
exit $status
