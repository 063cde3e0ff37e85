#!/bin/sh
# install-check.sh BUILD_DIR - fj as another project sees it once installed
# (make test-install; a run of `make test`).
#
# Installs this build with `make install PREFIX=<temporary>` and checks:
#   - exactly the documented files are installed, the .so links included;
#   - readelf: the library's SONAME is libfj.so.FJ_VERSION_MAJOR (from fj.h);
#   - nm -D: it exports fj_* symbols only, and every function the installed C
#     headers declare; nm: libfj.a defines fj_* globals only, so the program
#     below may define names the runtime uses inside (worker_main, ...);
#   - a CMake project (find_package(fj CONFIG REQUIRED), fj::fj) builds and
#     runs a fork/join fib, linked shared and static; a request for another
#     major version is refused;
#   - the same program built with pkg-config, shared and static (-static);
#     the shared flags come from fj.pc alone (no atomic_ops.pc needed);
#   - the installed fj_timeline draws a trace that program wrote, and its man
#     page formats without warnings;
#   - DESTDIR: a staged install writes only under DESTDIR and records PREFIX;
#   - uninstall leaves no file behind, in both;
#   - an earlier install's libfj.so.MAJOR.* of another version is replaced;
#   - a version range is held at both ends;
#   - LIBDIR (a multiarch layout): CMake and pkg-config find it there;
#   - make refuses, before writing or removing anything, a PREFIX that holds a
#     space or is relative;
#   - the check make runs before compiling (install-deps.sh --check) installs
#     nothing, even as root, and says how to get libatomic_ops.
# Prints "ok ..." per check and closes with one PASS line; a failure prints
# "FAIL install-check: ..." with the log of the step and exits 1.
#
# Needs cmake, pkg-config, a C compiler (and c++ when include/fj.hpp exists),
# readelf and nm: `sh tools/install-deps.sh --tests` installs them.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src" || exit 1
build=$(cd "${1:?usage: install-check.sh BUILD_DIR}" && pwd) || exit 1
work="$build/install-check"
# make is given BUILD as the Makefile names it (build/release), so that the
# dependency files it wrote, which use that name, still apply.
build=${build#"$src"/}
prefix="$work/prefix"
log="$work/step.log"
rm -rf "$work" && mkdir -p "$work/app" || exit 1

fail() {
    echo "FAIL install-check: $*"
    [ -s "$log" ] && sed 's/^/     /' "$log"
    echo "     (files kept in $work)"
    exit 1
}
ok() { echo "ok   $*"; : >"$log"; }   # a later failure shows only its own log
# Runs a step with its output in $log: the log is shown only when it fails.
step() { "$@" >"$log" 2>&1; }

for tool in make cmake pkg-config cc readelf nm; do
    command -v $tool >/dev/null 2>&1 || fail "$tool not found: run 'sh tools/install-deps.sh --tests'"
done

version_part() { sed -n "s/^#define FJ_VERSION_$1 *\([0-9][0-9]*\).*/\1/p" include/fj.h; }
major=$(version_part MAJOR)
patch=$(version_part PATCH)
version="$major.$(version_part MINOR).${patch:-0}"
soname="libfj.so.$major"

# make inherits VARIANT and CC from a calling make through MAKEFLAGS.
# An earlier version of the same SONAME, which install must replace (the
# file list below would show it left behind).
mkdir -p "$prefix/lib" && : >"$prefix/lib/libfj.so.$major.99.99" || exit 1
step make --no-print-directory BUILD="$build" install PREFIX="$prefix" || fail "make install PREFIX=$prefix"

# --- the files --------------------------------------------------------------
{
    printf '%s\n' lib/libfj.a "lib/libfj.so.$version" "lib/$soname" lib/libfj.so lib/pkgconfig/fj.pc \
        lib/cmake/fj/fjConfig.cmake lib/cmake/fj/fjConfigVersion.cmake bin/fj_timeline \
        share/man/man1/fj_timeline.1
    for h in include/fj*.h include/*.hpp; do [ -f "$h" ] && echo "$h"; done
} | sort >"$work/expected"
(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort) >"$work/installed"
diff "$work/expected" "$work/installed" >"$log" || fail "installed files differ from the expected list (< expected, > installed)"
[ "$(readlink "$prefix/lib/libfj.so")" = "$soname" ] && [ "$(readlink "$prefix/lib/$soname")" = "libfj.so.$version" ] \
    || fail "symlinks: libfj.so -> $(readlink "$prefix/lib/libfj.so"), $soname -> $(readlink "$prefix/lib/$soname")"
ok "make install: $(wc -l <"$work/installed") files in PREFIX, links libfj.so -> $soname -> libfj.so.$version"

# --- the shared library's identity and exports -----------------------------
lib="$prefix/lib/libfj.so.$version"
readelf -d "$lib" >"$log" 2>&1 || fail "readelf -d $lib"
grep -q "(SONAME).*\[$soname\]" "$log" || fail "SONAME is not $soname"
ok "readelf -d: SONAME $soname"

nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$work/exported"
grep -v '^fj_' "$work/exported" >"$log" && fail "libfj.so exports symbols outside the fj_ prefix"
grep -ho '^[a-z][a-z_ 0-9]*[ *]fj_[a-z0-9_]*(' "$prefix"/include/fj*.h | grep -v '^static' |
    sed 's/.*[ *]\(fj_[a-z0-9_]*\)(/\1/' | sort -u >"$work/declared"
[ -s "$work/declared" ] || fail "found no function declarations in the installed headers"
comm -23 "$work/declared" "$work/exported" >"$log"
[ -s "$log" ] && fail "functions declared in the installed headers but not exported by libfj.so"
ok "nm -D: $(wc -l <"$work/exported") symbols exported, all fj_*; the $(wc -l <"$work/declared") declared functions among them"
nm -g --defined-only "$prefix/lib/libfj.a" | awk 'NF == 3 { print $3 }' | grep -v '^fj_' >"$log" &&
    fail "libfj.a defines global symbols outside the fj_ prefix"
ok "nm: libfj.a defines $(nm -g --defined-only "$prefix/lib/libfj.a" | grep -c ' [A-Z] fj_') globals, all fj_*"

# --- a program that uses fj ---------------------------------------------------
cat >"$work/app/fib.c" <<'EOF'
/* fib with fj_fork/fj_join, compared with a serial fib. */
#include <fj.h>
#include <stdio.h>

typedef struct { fj_task task; int n; long result; } fib_task;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

/* The program's own globals, named as functions inside the runtime are: a
 * static link must not clash with them. */
int worker_main = 1, trace_event = 2, deque_init = 3, task_execute = 4;

static int fib(fj_task *t)
{
    fib_task *f = FJ_CONTAINER_OF(t, fib_task, task);
    if (f->n < 2) { f->result = f->n; return 0; }
    fib_task a = { FJ_TASK_INIT(fib), f->n - 1, 0 };
    fib_task b = { FJ_TASK_INIT(fib), f->n - 2, 0 };
    fj_fork(&a.task);
    fib(&b.task);
    int rc = fj_join(&a.task);
    f->result = a.result + b.result;
    return rc;
}

int main(void)
{
    fj_pool *pool;
    int rc = fj_pool_create(&pool, NULL);
    if (rc != 0) { fprintf(stderr, "fj_pool_create: %s\n", fj_strerror(rc)); return 1; }
    fib_task root = { FJ_TASK_INIT(fib), 22, 0 };
    rc = fj_pool_invoke(pool, &root.task);
    int destroyed = fj_pool_destroy(pool);
    long want = fib_serial(22);
    printf("fib(22) = %ld, serial %ld: %s\n", root.result, want, root.result == want ? "matches" : "WRONG");
    return rc != 0 || destroyed != 0 || root.result != want || worker_main + trace_event + deque_init + task_execute != 10;
}
EOF
cat >"$work/app/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(fj_install_check C)
set(FJ_WANT_VERSION "" CACHE STRING "version to ask find_package for")
find_package(fj ${FJ_WANT_VERSION} CONFIG REQUIRED)
add_executable(app fib.c)
target_link_libraries(app fj::fj)
EOF

# Runs a built program (on 2 workers); it must say its result matches.
run_app() {
    FJ_WORKERS=2 "$@" >"$log" 2>&1 && grep -q matches "$log"
}

# --- CMake: find_package(fj CONFIG REQUIRED) and fj::fj ------------------------
for kind in shared static; do
    dir="$work/cmake-$kind"
    static=OFF
    [ $kind = static ] && static=ON
    step cmake -S "$work/app" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" -Dfj_USE_STATIC_LIBS=$static \
        || fail "cmake configure ($kind)"
    step cmake --build "$dir" || fail "cmake --build ($kind)"
    run_app "$dir/app" || fail "the CMake-built program ($kind) did not compute fib"
    readelf -d "$dir/app" >"$log" 2>&1
    if [ $kind = shared ]; then
        grep -q "(NEEDED).*\[$soname\]" "$log" || fail "the CMake-built program does not need $soname"
        ldd "$dir/app" >"$log" 2>&1
        grep -q "$soname => $prefix/lib/$soname" "$log" || fail "the CMake-built program does not load the installed $soname"
    else
        grep -q "(NEEDED).*libfj" "$log" && fail "fj_USE_STATIC_LIBS=ON still links libfj.so"
    fi
    ok "cmake, find_package(fj CONFIG REQUIRED) + fj::fj, $kind: fib matches"
done
step cmake -S "$work/app" -B "$work/cmake-version" -DCMAKE_PREFIX_PATH="$prefix" -DFJ_WANT_VERSION=$((major + 1)) \
    && fail "find_package(fj $((major + 1))) accepted fj $version"
grep -q "$version" "$log" || fail "find_package(fj $((major + 1))) failed without naming the version found"
ok "cmake, find_package(fj $((major + 1))) refused: fj $version is installed"
for range in "$version...<$((major + 1))" "0.0.1...$version"; do
    step cmake -S "$work/app" -B "$work/cmake-range" -DCMAKE_PREFIX_PATH="$prefix" "-DFJ_WANT_VERSION=$range" \
        || fail "find_package(fj $range) refused fj $version"
    rm -rf "$work/cmake-range"
done
step cmake -S "$work/app" -B "$work/cmake-range" -DCMAKE_PREFIX_PATH="$prefix" "-DFJ_WANT_VERSION=0.0.1...<$version" \
    && fail "find_package(fj 0.0.1...<$version) accepted fj $version"
rm -rf "$work/cmake-range"
ok "cmake, version ranges: $version...<$((major + 1)) and 0.0.1...$version accepted, 0.0.1...<$version refused"

# --- pkg-config -----------------------------------------------------------------
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion fj)" = "$version" ] || fail "pkg-config --modversion fj: '$(pkg-config --modversion fj)'"
step sh -c "cc '$work/app/fib.c' \$(pkg-config --cflags --libs fj) -Wl,-rpath,'$prefix/lib' -o '$work/fib-pc-shared'" \
    || fail "cc fib.c \$(pkg-config --cflags --libs fj)"
run_app "$work/fib-pc-shared" || fail "the pkg-config shared program did not compute fib"
readelf -d "$work/fib-pc-shared" | grep -q "(NEEDED).*\[$soname\]" || fail "the pkg-config shared program does not need $soname"
step sh -c "cc -static '$work/app/fib.c' \$(pkg-config --static --cflags --libs fj) -o '$work/fib-pc-static'" \
    || fail "cc -static fib.c \$(pkg-config --static --cflags --libs fj)"
run_app "$work/fib-pc-static" || fail "the pkg-config static program did not compute fib"
readelf -d "$work/fib-pc-static" 2>&1 | grep -q "(NEEDED)" && fail "the -static program still needs shared libraries"
ok "pkg-config fj $version: shared (rpath) and -static builds compute fib"
# fj.h includes no header of libatomic_ops and libfj.so needs none of it, so
# a shared build's flags must not depend on atomic_ops.pc being there.
PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" pkg-config --cflags --libs fj >"$log" 2>&1 \
    || fail "pkg-config --cflags --libs fj needs more than fj.pc"
ok "pkg-config --cflags --libs fj with fj.pc alone on the search path"

# --- C++: the installed C++ header stands alone ----------------------------------
if [ -f include/fj.hpp ]; then
    command -v c++ >/dev/null 2>&1 || fail "include/fj.hpp exists but there is no c++ compiler"
    printf '#include <fj.hpp>\nint main() { return 0; }\n' >"$work/app/hpp.cpp"
    step c++ -std=c++17 -fsyntax-only -I"$prefix/include" "$work/app/hpp.cpp" || fail "the installed fj.hpp does not compile alone"
    ok "c++ -std=c++17: the installed fj.hpp compiles on its own"
fi

# --- fj_timeline and its man page -------------------------------------------------
run_app env FJ_TRACE="$work/trace.json" "$work/cmake-shared/app" || fail "the traced run failed"
step "$prefix/bin/fj_timeline" --title "install check" -o "$work/timeline.svg" "$work/trace.json" \
    || fail "the installed fj_timeline failed on a trace"
grep -q '<svg' "$work/timeline.svg" && grep -q '</svg>' "$work/timeline.svg" && grep -q 'install check' "$work/timeline.svg" \
    || fail "the installed fj_timeline wrote no complete SVG"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$prefix/share/man/man1/fj_timeline.1" >"$log" 2>&1
    [ -s "$log" ] && fail "the man page has formatting warnings"
    ok "bin/fj_timeline drew a trace of the installed library; man page formats without warnings"
else
    ok "bin/fj_timeline drew a trace of the installed library (no groff: man page not formatted)"
fi

# --- uninstall, and DESTDIR ------------------------------------------------------------
step make --no-print-directory BUILD="$build" uninstall PREFIX="$prefix" || fail "make uninstall"
(cd "$prefix" && find . ! -type d) >"$log"
[ -s "$log" ] && fail "make uninstall left files behind"
[ -d "$prefix/lib/cmake/fj" ] && fail "make uninstall left lib/cmake/fj"
ok "make uninstall: no file left in PREFIX"

stage="$work/stage"
step make --no-print-directory BUILD="$build" install DESTDIR="$stage" PREFIX=/opt/fj-check || fail "make install DESTDIR=$stage"
(cd "$stage" && find . ! -type d | sed 's|^\./opt/fj-check/||' | sort) >"$work/staged"
diff "$work/expected" "$work/staged" >"$log" || fail "DESTDIR install: files differ from the PREFIX install (< expected, > staged)"
grep -q '^prefix=/opt/fj-check$' "$stage/opt/fj-check/lib/pkgconfig/fj.pc" || fail "fj.pc does not record PREFIX=/opt/fj-check"
grep -rq "$stage" "$stage/opt/fj-check/lib/pkgconfig" "$stage/opt/fj-check/lib/cmake" && fail "DESTDIR is recorded in an installed file"
step make --no-print-directory BUILD="$build" uninstall DESTDIR="$stage" PREFIX=/opt/fj-check || fail "make uninstall DESTDIR=$stage"
(cd "$stage" && find . ! -type d) >"$log"
[ -s "$log" ] && fail "make uninstall DESTDIR=... left files behind"
ok "DESTDIR: staged under DESTDIR/PREFIX, PREFIX recorded, uninstall leaves no file"

# --- LIBDIR: the libraries, fj.pc and the CMake package elsewhere -----------------
# A Debian multiarch layout; CMake is pointed at the package (fj_DIR) rather
# than left to search, whose list of lib directories differs by distribution.
multi="$work/multi"
libdir="$multi/lib/$(cc -print-multiarch 2>/dev/null || echo multiarch)"
step make --no-print-directory BUILD="$build" install PREFIX="$multi" LIBDIR="$libdir" \
    || fail "make install LIBDIR=$libdir"
[ -f "$libdir/libfj.a" ] && [ -f "$libdir/cmake/fj/fjConfig.cmake" ] && [ ! -e "$multi/lib/libfj.a" ] \
    || fail "LIBDIR=$libdir: the libraries are not all there"
step cmake -S "$work/app" -B "$work/cmake-multi" -Dfj_DIR="$libdir/cmake/fj" || fail "cmake configure (LIBDIR)"
step cmake --build "$work/cmake-multi" || fail "cmake --build (LIBDIR)"
LD_LIBRARY_PATH="$libdir" run_app "$work/cmake-multi/app" || fail "the CMake-built program (LIBDIR) did not compute fib"
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --libs-only-L --cflags-only-I fj)
[ "${flags% }" = "-I$multi/include -L$libdir" ] \
    || fail "pkg-config (LIBDIR): $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --libs-only-L --cflags-only-I fj)"
step make --no-print-directory BUILD="$build" uninstall PREFIX="$multi" LIBDIR="$libdir" || fail "make uninstall (LIBDIR)"
[ -z "$(find "$multi" ! -type d)" ] || fail "make uninstall LIBDIR=... left files behind"
ok "LIBDIR=PREFIX/lib/$(basename "$libdir"): CMake and pkg-config find fj there; uninstall leaves no file"

# --- paths make cannot install to -------------------------------------------------
: >"$work/my"
step make --no-print-directory BUILD="$build" uninstall PREFIX="$work/my libs" && fail "make uninstall PREFIX='$work/my libs' ran"
grep -q "PREFIX='$work/my libs': holds a space" "$log" || fail "make uninstall PREFIX='... libs' did not name the setting"
[ -f "$work/my" ] || fail "make uninstall PREFIX='$work/my libs' removed $work/my"
step make --no-print-directory BUILD="$build" install PREFIX="$work/p 2" && fail "make install PREFIX='$work/p 2' ran"
[ -e "$work/p" ] || [ -e 2 ] && fail "make install PREFIX='$work/p 2' wrote before refusing"
step make --no-print-directory BUILD="$build" install PREFIX=relative && fail "make install PREFIX=relative ran"
grep -q "PREFIX='relative': not an absolute path" "$log" && [ ! -e relative ] \
    || fail "make install PREFIX=relative: not refused by name, or wrote"
ok "make refuses PREFIX with a space (install and uninstall) or relative, and writes or removes nothing"

# --- the check before compiling installs nothing ------------------------------------
# A compiler that finds no atomic_ops.h, and an apt-get and sudo that only
# write down that they were called.
mkdir -p "$work/fakebin" || exit 1
for tool in apt-get sudo; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/called"\n' "$tool" "$work" >"$work/fakebin/$tool"
    chmod +x "$work/fakebin/$tool"
done
PATH="$work/fakebin:$PATH" CC=false sh tools/install-deps.sh --check >"$log" 2>&1 \
    && fail "install-deps.sh --check passed without libatomic_ops"
grep -q "apt-get install libatomic-ops-dev" "$log" || fail "install-deps.sh --check did not say how to get libatomic_ops"
[ -e "$work/called" ] && fail "install-deps.sh --check ran: $(cat "$work/called")"
ok "install-deps.sh --check (make's check) installs nothing and says what to install"

rm -rf "$work"
echo "install-check: PASS (fj $version: files, SONAME, exports, CMake shared+static, pkg-config shared+static, fj_timeline, DESTDIR, uninstall, LIBDIR, refusals, setup check)"
