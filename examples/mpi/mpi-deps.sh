#!/bin/sh
# Makes sure mpicc and mpirun (Open MPI) are there: installs Debian's
# openmpi-bin and libopenmpi-dev when root, else says what to install.
set -e
command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "check-mpi: installing openmpi-bin libopenmpi-dev" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null
    fi
    command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && exit 0
fi
echo "check-mpi needs Open MPI (mpicc, mpirun): on Debian, sudo apt-get install openmpi-bin libopenmpi-dev" >&2
exit 1
