# mk/loops.mk - the parallel-loop benchmark (bench/loops/): fj against OpenMP
# (libgomp via gcc, libomp via clang; static, dynamic and guided) and oneTBB's
# parallel_for, all in one run, on the same leaf kernels compiled once.
#   make bench-loops: about a minute on an idle 2-core machine; bench-loops-quick: seconds
# A peer whose toolchain is missing is skipped with a message.

BENCH_LOOPS_DIR := build/bench/loops
BENCH_LOOPS_WORKERS ?= 2
# BENCH_LOOPS_CC="gcc -static": static binaries (make bench-portable).
BENCH_LOOPS_CC ?= gcc
BENCH_LOOPS_FLAGS := -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Ibench/loops -Iinclude
BENCH_LOOPS_COMMON := $(BENCH_LOOPS_DIR)/kernels.o $(BENCH_LOOPS_DIR)/harness.o

.PHONY: bench-loops bench-loops-quick bench-loops-build

$(BENCH_LOOPS_DIR)/%.o: bench/loops/%.c bench/loops/kernels.h bench/loops/harness.h
	@mkdir -p $(@D)
	$(BENCH_LOOPS_CC) -std=gnu11 $(BENCH_LOOPS_FLAGS) -c $< -o $@

# The leaf starts on a 64-byte boundary in every variant, so that its loop has
# the same layout in all of them (it sat at offset 32 mod 64 in libomp's binary
# only); see the same rule for bench/kernels.c in mk/bench.mk.
$(BENCH_LOOPS_DIR)/kernels.o: bench/loops/kernels.c bench/loops/kernels.h
	@mkdir -p $(@D)
	$(BENCH_LOOPS_CC) -std=gnu11 $(BENCH_LOOPS_FLAGS) -falign-functions=64 -c $< -o $@

$(BENCH_LOOPS_DIR)/loops_fj: bench/loops/loops_fj.c bench/fj_pool.h $(BENCH_LOOPS_COMMON) build/release/libfj.a
	$(MAKE) VARIANT=release lib
	$(BENCH_LOOPS_CC) -std=gnu11 $(BENCH_LOOPS_FLAGS) $< $(BENCH_LOOPS_COMMON) build/release/libfj.a -latomic_ops -pthread -o $@

# Peers: built only when their compiler and runtime answer a one-line probe.
bench-loops-build: $(BENCH_LOOPS_DIR)/loops_fj $(BENCH_LOOPS_COMMON)
	@if printf '#include <omp.h>\nint main(void){return omp_get_max_threads()<0;}\n' | \
	    gcc -fopenmp -x c - -o /dev/null 2>/dev/null; then \
	  echo "gcc -fopenmp ... -o $(BENCH_LOOPS_DIR)/loops_gomp"; \
	  $(BENCH_LOOPS_CC) -std=gnu11 $(BENCH_LOOPS_FLAGS) -fopenmp -DOMP_RUNTIME='"gomp"' bench/loops/loops_omp.c \
	    $(BENCH_LOOPS_COMMON) -o $(BENCH_LOOPS_DIR)/loops_gomp; \
	else echo "bench-loops: gcc with OpenMP (libgomp) not available: gomp peers skipped"; \
	  rm -f $(BENCH_LOOPS_DIR)/loops_gomp; fi
ifeq ($(BENCH_STATIC_ONLY),)
	@if printf '#include <omp.h>\nint main(void){return omp_get_max_threads()<0;}\n' | \
	    clang -fopenmp=libomp -x c - -o /dev/null 2>/dev/null; then \
	  echo "clang -fopenmp=libomp ... -o $(BENCH_LOOPS_DIR)/loops_libomp"; \
	  clang -std=gnu11 $(BENCH_LOOPS_FLAGS) -fopenmp=libomp -DOMP_RUNTIME='"libomp"' bench/loops/loops_omp.c \
	    $(BENCH_LOOPS_COMMON) -o $(BENCH_LOOPS_DIR)/loops_libomp; \
	else echo "bench-loops: clang with libomp (libomp-dev) not available: libomp peers skipped"; \
	  rm -f $(BENCH_LOOPS_DIR)/loops_libomp; fi
	@if printf '#include <tbb/parallel_for.h>\nint main(){tbb::parallel_for(0,1,[](int){});}\n' | \
	    g++ -std=c++17 -x c++ - -ltbb -o /dev/null 2>/dev/null; then \
	  echo "g++ ... -ltbb -o $(BENCH_LOOPS_DIR)/loops_tbb"; \
	  g++ -std=c++17 $(BENCH_LOOPS_FLAGS) bench/loops/loops_tbb.cpp $(BENCH_LOOPS_COMMON) -ltbb -pthread \
	    -o $(BENCH_LOOPS_DIR)/loops_tbb; \
	else echo "bench-loops: g++ with oneTBB (libtbb-dev) not available: tbb peer skipped"; \
	  rm -f $(BENCH_LOOPS_DIR)/loops_tbb; fi
else
	@echo "bench-loops: libomp and oneTBB do not link statically: left out"; \
	  rm -f $(BENCH_LOOPS_DIR)/loops_libomp $(BENCH_LOOPS_DIR)/loops_tbb
endif

bench-loops: bench-loops-build
	@sh bench/loops/run.sh $(BENCH_LOOPS_DIR) 1000000 7 $(BENCH_LOOPS_WORKERS) build/bench/loops.csv

bench-loops-quick: bench-loops-build
	@sh bench/loops/run.sh $(BENCH_LOOPS_DIR) 100000 5 $(BENCH_LOOPS_WORKERS) build/bench/loops.csv
