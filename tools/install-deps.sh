#!/bin/sh
# Installs what fj needs on Debian, split by need:
#   install-deps.sh          what `make demo` and the library need: make, gcc,
#                            libc6-dev, libatomic-ops-dev, and pkg-config, which
#                            the README's line for building against an
#                            installed fj uses
#   install-deps.sh --tests  that, and what `make test` needs besides: the
#                            packages listed in .ci/packages.d/* (clang for the
#                            sanitizer runs, a headless browser for the timeline
#                            render test, cmake for the install test, ...)
#   install-deps.sh --check  only check that libatomic_ops is usable, and say
#                            how to get it if not; the Makefile calls this
#                            before compiling, so it installs nothing: a
#                            `sudo make install` must not run apt-get
# It installs only what is missing, with sudo when not run as root.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)

have_atomic_ops() {
    printf '#include <atomic_ops.h>\nint main(void){return 0;}\n' | ${CC:-cc} -x c - -o /dev/null >/dev/null 2>&1
}

apt_install() {
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "fj: installing $*" >&2
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null 2>&1; then
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
    fi
}

if [ "${1:-}" = "--check" ]; then
    have_atomic_ops && exit 0
    echo "fj needs libatomic_ops: run 'sh tools/install-deps.sh' (Debian: apt-get install libatomic-ops-dev)" >&2
    exit 1
fi

packages="make gcc libc6-dev libatomic-ops-dev pkg-config"
case "${1:-}" in
"") ;;
--tests)
    for f in "$here"/.ci/packages.d/*; do
        [ -f "$f" ] && packages="$packages $(grep -v '^#' "$f" | tr '\n' ' ')"
    done ;;
*)
    echo "usage: install-deps.sh [--tests | --check]" >&2
    exit 2 ;;
esac
missing=""
for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    command -v apt-get >/dev/null 2>&1 || { echo "fj: please install:$missing" >&2; exit 1; }
    apt_install $missing
fi
have_atomic_ops || { echo "fj: libatomic_ops is still not usable" >&2; exit 1; }
