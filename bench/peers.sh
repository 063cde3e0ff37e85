#!/bin/sh
# peers.sh - find (and, as root on Debian/Ubuntu, install) the peer runtimes.
#
#   sh bench/peers.sh has PEER     exit 0 if PEER (libgomp|libomp|tbb|java|valgrind) builds here
#                                  (valgrind: the counter of make bench-instructions)
#   sh bench/peers.sh install      install what is missing, or say what will be skipped
tmp=${TMPDIR:-/tmp}/fj-peers.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

has() {
    case $1 in
    libgomp)
        printf '#include <omp.h>\nint main(void){return omp_get_max_threads()<1;}\n' >"$tmp/p.c"
        gcc -fopenmp "$tmp/p.c" -o "$tmp/p" >/dev/null 2>&1 && "$tmp/p" ;;
    libomp)
        printf '#include <omp.h>\nint main(void){return omp_get_max_threads()<1;}\n' >"$tmp/p.c"
        command -v clang >/dev/null 2>&1 && clang -fopenmp=libomp "$tmp/p.c" -o "$tmp/p" >/dev/null 2>&1 && "$tmp/p" ;;
    tbb)
        printf '#include <tbb/task_group.h>\nint main(){tbb::task_group g; int x=0; g.run([&]{x=1;}); g.wait(); return x!=1;}\n' >"$tmp/p.cpp"
        g++ -std=c++17 "$tmp/p.cpp" -o "$tmp/p" -ltbb -pthread >/dev/null 2>&1 && "$tmp/p" ;;
    java)
        command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1 ;;
    valgrind)
        command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ] ;;
    *) return 1 ;;
    esac
}

package_of() {
    case $1 in
    libgomp) echo "gcc" ;;   # libgomp ships with gcc on Debian
    libomp) echo "clang libomp-dev" ;;
    tbb) echo "libtbb-dev" ;;
    java) echo "default-jdk-headless" ;;
    valgrind) echo "valgrind" ;;
    esac
}

case $1 in
has) has "$2" ;;
install)
    for peer in libgomp libomp tbb java valgrind; do
        has $peer && continue
        pkgs=$(package_of $peer)
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "bench: $peer missing, installing $pkgs"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >/dev/null 2>&1 ||
                { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >/dev/null 2>&1; }
        fi
        has $peer || echo "bench: SKIPPING $peer (not found; install: apt-get install $pkgs)"
    done
    exit 0 ;;
*) echo "usage: $0 has PEER | install" >&2; exit 2 ;;
esac
