# bench.mk - peer benchmarks (bench/, docs/performance.md).
#
#   make bench        full sizes: fj vs serial C, OpenMP (libgomp, libomp),
#                     oneTBB and Java ForkJoinPool at 1, 2 (and all) workers;
#                     table on stdout, build/bench/results.csv, build/bench/chart.svg
#   make bench-quick  the same programs on smaller inputs (< 3 minutes)
#   make bench-build  only build the binaries (peers that are missing are skipped)
#   make bench-floor  the least a fork+join of fj's shape can cost (bench/fib_floor.c)
#
# Missing peers (libomp-dev, libtbb-dev, default-jdk-headless) are installed
# with apt-get when run as root on Debian/Ubuntu, else skipped with a message.
# Leaf code (bench/kernels.c) is compiled once, by gcc, and linked into every
# C/C++ binary so that only the runtime differs between systems.

BENCH_DIR := build/bench
BENCH_CC ?= gcc
BENCH_CXX ?= g++
BENCH_CLANG ?= clang
BENCH_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude -Ibench
BENCH_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude -Ibench
BENCH_COMMON := $(BENCH_DIR)/kernels.o $(BENCH_DIR)/harness.o
# Override to benchmark another build of the library (e.g. a snapshot).
BENCH_RELEASE_LIB ?= build/release/libfj.a

.PHONY: bench bench-quick bench-build bench-peers bench-fjlib bench-clean bench-floor

bench: bench-peers bench-fjlib
	@$(MAKE) --no-print-directory bench-build
	@sh bench/run.sh full

bench-quick: bench-peers bench-fjlib
	@$(MAKE) --no-print-directory bench-build
	@sh bench/run.sh quick

bench-peers:
	@sh bench/peers.sh install

bench-fjlib:
	@$(MAKE) --no-print-directory VARIANT=release lib

bench-clean:
	rm -rf $(BENCH_DIR)

# Probe the peers only when a bench target is asked for (each probe compiles).
ifneq ($(filter bench-build,$(MAKECMDGOALS)),)
BENCH_BINS := $(BENCH_DIR)/serial_bench $(BENCH_DIR)/fj_bench $(BENCH_DIR)/fj_micro $(BENCH_DIR)/report \
	$(BENCH_DIR)/fib_floor
ifeq ($(shell sh bench/peers.sh has libgomp && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/libgomp_bench
endif
ifeq ($(shell sh bench/peers.sh has libomp && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/libomp_bench
endif
ifeq ($(shell sh bench/peers.sh has tbb && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/tbb_bench
endif
ifeq ($(shell sh bench/peers.sh has java && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/java/Bench.class
endif
bench-build: $(BENCH_BINS)
endif

$(BENCH_DIR)/%.o: bench/%.c bench/kernels.h bench/harness.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -c $< -o $@

# The shared leaves start on a 64-byte boundary in every binary.  Linked at
# whatever offset each binary left them, kern_mm_base's inner loop straddled a
# cache line in the fj, libgomp and libomp binaries and not in the serial and
# oneTBB ones, and matmul ran 5-7 % slower in the first three with the same
# instructions: the layout, not the runtime.
$(BENCH_DIR)/kernels.o: bench/kernels.c bench/kernels.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -falign-functions=64 -c $< -o $@

$(BENCH_DIR)/serial_bench: $(BENCH_DIR)/serial_bench.o $(BENCH_COMMON)
	$(BENCH_CC) $^ -o $@ -lm

$(BENCH_DIR)/fj_bench: $(BENCH_DIR)/fj_bench.o $(BENCH_COMMON) $(BENCH_RELEASE_LIB)
	$(BENCH_CC) $(filter %.o,$^) -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

$(BENCH_DIR)/fib_floor: $(BENCH_DIR)/fib_floor.o $(BENCH_DIR)/kernels.o
	$(BENCH_CC) $^ -o $@ -lm

bench-floor: $(BENCH_DIR)/fib_floor
	$(BENCH_DIR)/fib_floor 40 5

$(BENCH_DIR)/fj_micro: bench/fj_micro.c $(BENCH_DIR)/kernels.o $(BENCH_RELEASE_LIB) bench/kernels.h
	$(BENCH_CC) $(BENCH_CFLAGS) bench/fj_micro.c $(BENCH_DIR)/kernels.o -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

$(BENCH_DIR)/report: bench/report.c
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) $< -o $@ -lm

$(BENCH_DIR)/libgomp_bench: bench/omp_bench.c $(BENCH_COMMON)
	$(BENCH_CC) $(BENCH_CFLAGS) -fopenmp -DOMP_SYSTEM='"libgomp"' bench/omp_bench.c $(BENCH_COMMON) -o $@ -lm

$(BENCH_DIR)/libomp_bench: bench/omp_bench.c $(BENCH_COMMON)
	$(BENCH_CLANG) $(BENCH_CFLAGS) -fopenmp=libomp -DOMP_SYSTEM='"libomp"' bench/omp_bench.c $(BENCH_COMMON) -o $@ -lm

$(BENCH_DIR)/tbb_bench: bench/tbb_bench.cpp $(BENCH_COMMON)
	$(BENCH_CXX) $(BENCH_CXXFLAGS) bench/tbb_bench.cpp $(BENCH_COMMON) -o $@ -ltbb -pthread -lm

$(BENCH_DIR)/java/Bench.class: bench/java/Bench.java
	@mkdir -p $(@D)
	javac -d $(@D) $<

# make test also checks how the suite turns a cell's runs into its figures
# (bench/summarise.sh); no benchmark is run.
.PHONY: test-bench-summarise
test: test-bench-summarise
test-bench-summarise:
	@sh tests/bench-summarise.sh
