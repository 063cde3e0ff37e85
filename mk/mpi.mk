# mpi.mk - fj inside MPI ranks (issue 16; docs/mpi.md).
#
#   make check-mpi      installs Open MPI when root and missing (else says what
#                       to install), builds examples/mpi/, runs each example on
#                       2 and 3 ranks and checks it against the serial count
#                       (about 10 s on 2 cores)
#   make mpi-examples   only builds them
#   make bench-mpi      the measurement of docs/mpi.md: uts_mpi on 1 rank x 2
#                       workers against 2 ranks x 1 worker, interleaved runs
#
# The examples compile bench/kernels.c in (the trees and boards of bench/)
# and link the static library of this variant.

MPICC ?= mpicc
MPI_BUILD := $(BUILD)/examples/mpi
MPI_EXAMPLES := $(MPI_BUILD)/uts_mpi $(MPI_BUILD)/reduce_mpi
BENCH_MPI_SIZE ?= 20000
BENCH_MPI_RUNS ?= 7

.PHONY: check-mpi mpi-examples mpi-deps bench-mpi

mpi-deps:
	@sh examples/mpi/mpi-deps.sh

mpi-examples: mpi-deps
	@$(MAKE) --no-print-directory $(MPI_EXAMPLES)

# OMPI_CC: mpicc wraps the compiler this variant uses.
$(MPI_BUILD)/%: examples/mpi/%.c examples/mpi/mpi_rank.h bench/kernels.c bench/kernels.h $(LIB_A)
	@mkdir -p $(@D)
	OMPI_CC=$(CC) $(MPICC) $(CFLAGS) -Ibench $< bench/kernels.c -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm

check-mpi: mpi-examples
	@sh examples/mpi/check-mpi.sh $(MPI_BUILD)

bench-mpi: mpi-examples
	@sh examples/mpi/bench-mpi.sh $(MPI_BUILD) $(BENCH_MPI_SIZE) $(BENCH_MPI_RUNS)
