#!/bin/sh
# Installs what fj needs to build on Debian: libatomic-ops-dev.
# --check: only verify, and explain how to install when missing.
set -e
have_atomic_ops() {
    printf '#include <atomic_ops.h>\nint main(void){return 0;}\n' | ${CC:-cc} -x c - -o /dev/null >/dev/null 2>&1
}
if have_atomic_ops; then exit 0; fi
if [ "$1" = "--check" ] && [ "$(id -u)" != 0 ]; then
    echo "fj needs libatomic_ops: run 'sudo apt-get install -y libatomic-ops-dev' (or 'make deps' as root)" >&2
    exit 1
fi
if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "fj: installing libatomic-ops-dev" >&2
    $SUDO apt-get install -y libatomic-ops-dev >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y libatomic-ops-dev; }
fi
have_atomic_ops || { echo "fj: libatomic_ops is still missing; install libatomic-ops-dev" >&2; exit 1; }
