# bench.mk - peer benchmarks (bench/, docs/performance.md).
#
#   make bench        full sizes: fj vs serial C, OpenMP (libgomp, libomp),
#                     oneTBB and Java ForkJoinPool at 1, 2 (and all) workers;
#                     table on stdout, build/bench/results.csv, build/bench/chart.svg
#   make bench-quick  the same programs on smaller inputs (about 5 minutes)
#   make bench-build  only build the binaries (peers that are missing are skipped)
#   make bench-floor  the least a fork+join of fj's shape can cost (bench/fib_floor.c)
#   make bench-join-lag  join lag with unrelated work around (mk/joinlag.mk)
#   make bench-instructions  instructions per fork+join of fib at 1 worker
#                     under callgrind: build/bench/instructions.csv
#
# Lace (a C work-stealing library) is a peer when LACE_DIR names its source
# tree (make bench LACE_DIR=../shared/peers/lace-1.4.2): its lace.c is built
# into build/bench/lace/ at bench time, never copied into this repository.
# The fine-grained programs (bench/fine/: fib, dfs, knapsack, pi) are built for
# serial, fj-classic, fj-typed (when include/fj.h has the typed API), fj++ (the
# C++ face, include/fj.hpp: fj::join), fj++cx (fj::join through an
# fj::context) and lace, all with the flags of Lace's benchmark programs
# (FINE_CFLAGS; FINE_CXXFLAGS for fj++ and fj++cx) so that only the runtime
# differs.
#
# BENCH_CXX follows BENCH_CC (clang -> clang++, else g++) unless given, so that
# `make bench-fine-build BENCH_CC=clang` builds fj++ with clang++ too: with
# -flto, main.c's object and fj++'s driver must come from the same compiler.
#
# Missing peers (libomp-dev, libtbb-dev, default-jdk-headless) are installed
# with apt-get when run as root on Debian/Ubuntu, else skipped with a message.
# Leaf code (bench/kernels.c) is compiled once, by gcc, and linked into every
# C/C++ binary so that only the runtime differs between systems.

BENCH_DIR := build/bench
BENCH_CC ?= gcc
BENCH_CXX ?= $(if $(findstring clang,$(BENCH_CC)),clang++,g++)
BENCH_CLANG ?= clang
BENCH_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude -Ibench
BENCH_CXXFLAGS := -std=c++17 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude -Ibench
BENCH_COMMON := $(BENCH_DIR)/kernels.o $(BENCH_DIR)/harness.o
# Override to benchmark another build of the library (e.g. a snapshot).
BENCH_RELEASE_LIB ?= build/release/libfj.a

# ---- fine-grained programs and the Lace peer (bench/fine/) ----
FINE_DIR ?= $(BENCH_DIR)/fine
LACE_BUILD ?= $(BENCH_DIR)/lace
# Lace v1.4.2's own CMake: programs -O3 -DNDEBUG -flto -std=gnu11
# (benchmarks/CMakeLists.txt), the library -O3 -march=native.  The same
# -march for every fine program and for lace.c, so that only the runtime
# differs; override FINE_MARCH= (empty) for a portable build.
FINE_MARCH ?= -march=native
# Where a program's code falls in the 64-byte windows the CPU fetches moves a
# fine cell by 2-30 %, differently for each system (docs/performance.md,
# finding 13): one build is one draw.  So functions start on 16-byte
# boundaries, and the fine programs are built once more for each pad in
# FINE_PHASE_PADS, an object of that many bytes linked first (FINE_PAD) that
# moves all of the program's code by it, into $(FINE_DIR)/phaseN/: with the
# unpadded build, every function at each of the four 16-byte phases of a
# window.  bench/run.sh runs a fine cell's rounds through the phases in turn,
# every system alike.
FINE_ALIGN := -falign-functions=16
FINE_PHASE_PADS ?= 16 32 48
FINE_CFLAGS := -O3 -DNDEBUG -flto -std=gnu11 $(FINE_MARCH) $(FINE_ALIGN) -Wall -Wextra -Werror -Iinclude -Ibench/fine
# An object linked first into every fine program, empty by default: mk/placement.mk
# passes one of N bytes of padding to move the programs' code by N bytes.
FINE_PAD ?=
LACE_CFLAGS := -O3 $(FINE_MARCH) $(FINE_ALIGN) -DNDEBUG -DLACE_USE_MMAP=1 -std=gnu11
# fj++: the same optimisation, -march, LTO and alignment as C++17 (main.c is
# still compiled as C, with FINE_CFLAGS, and linked in by LTO).
FINE_CXXFLAGS := -O3 -DNDEBUG -flto -std=c++17 $(FINE_MARCH) $(FINE_ALIGN) -Wall -Wextra -Werror -Iinclude -Ibench/fine
FINE_SRC := bench/fine/main.c bench/fine/fine.h bench/fj_pool.h
# The typed API (FJ_TASK, FJ_SPAWN, ...) is built only when fj.h has it.
FINE_TYPED := $(shell grep -qs FJ_SPAWN include/fj.h && echo yes)
, := ,
# LACE_DIR counts only if it holds Lace's sources.
LACE_OK := $(if $(LACE_DIR),$(wildcard $(LACE_DIR)/src/lace.h))
# The fine binaries alone (bench-build builds them with the other peers).
FINE_BINS := $(FINE_DIR)/serial $(FINE_DIR)/fj-classic $(if $(FINE_TYPED),$(FINE_DIR)/fj-typed $(FINE_DIR)/fj++ $(FINE_DIR)/fj++cx) \
	$(if $(LACE_OK),$(FINE_DIR)/lace)
# A peer that cannot be built now leaves no old binary for bench/run.sh.
FINE_STALE := $(if $(FINE_TYPED),,echo "bench: SKIPPING fj-typed, fj++ and fj++cx (include/fj.h has no FJ_SPAWN yet)"; \
	rm -f $(FINE_DIR)/fj-typed $(FINE_DIR)/fj++ $(FINE_DIR)/fj++cx;) \
	$(if $(LACE_OK),,echo "bench: SKIPPING lace ($(if $(LACE_DIR),LACE_DIR=$(LACE_DIR) has no src/lace.h,set LACE_DIR to a Lace source tree$(,) e.g. LACE_DIR=../shared/peers/lace-1.4.2))"; \
	rm -f $(FINE_DIR)/lace;) true

.PHONY: bench bench-quick bench-build bench-peers bench-fjlib bench-clean bench-floor bench-instructions

bench: bench-peers bench-fjlib
	@$(MAKE) --no-print-directory bench-build
	@sh bench/run.sh full
	@$(MAKE) --no-print-directory bench-instructions
	@$(MAKE) --no-print-directory bench-join-lag

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
BENCH_BINS := $(BENCH_DIR)/serial_bench $(BENCH_DIR)/fj_bench $(BENCH_DIR)/fj-typed_bench $(BENCH_DIR)/fj_micro $(BENCH_DIR)/report \
	$(BENCH_DIR)/fib_floor
ifeq ($(shell sh bench/peers.sh has libgomp && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/libgomp_bench
endif
ifeq ($(BENCH_STATIC_ONLY),)
ifeq ($(shell sh bench/peers.sh has libomp && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/libomp_bench
endif
ifeq ($(shell sh bench/peers.sh has tbb && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/tbb_bench
endif
ifeq ($(shell sh bench/peers.sh has java && echo yes),yes)
BENCH_BINS += $(BENCH_DIR)/java/Bench.class
endif
endif
BENCH_BINS += $(FINE_BINS)
BENCH_BINS += $(BENCH_DIR)/fjxx_bench
bench-build: $(BENCH_BINS)
	@$(MAKE) --no-print-directory bench-fine-build
endif

$(FINE_DIR)/serial: $(FINE_SRC) bench/fine/serial.c
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) $(FINE_PAD) bench/fine/main.c bench/fine/serial.c -o $@

$(FINE_DIR)/fj-classic: $(FINE_SRC) bench/fine/fj_classic.c $(BENCH_RELEASE_LIB)
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) $(FINE_PAD) bench/fine/main.c bench/fine/fj_classic.c -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

$(FINE_DIR)/fj-typed: $(FINE_SRC) bench/fine/fj_typed.c $(BENCH_RELEASE_LIB) include/fj.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) $(FINE_PAD) bench/fine/main.c bench/fine/fj_typed.c -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

# fj++ (bench/fine/fjxx.cpp): main.c compiled as C, as for the other systems,
# into an LTO object of this FINE_DIR's flags; the C++ driver and the link
# with FINE_CXXFLAGS.
$(FINE_DIR)/main.o: $(FINE_SRC)
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) -c bench/fine/main.c -o $@

$(FINE_DIR)/fj++: $(FINE_DIR)/main.o bench/fine/fjxx.cpp bench/fine/fjxx_pool.h bench/fine/fine.h $(BENCH_RELEASE_LIB) include/fj.hpp include/fj.h
	@mkdir -p $(@D)
	$(BENCH_CXX) $(FINE_CXXFLAGS) $(FINE_PAD) bench/fine/fjxx.cpp $(FINE_DIR)/main.o -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

# fj++cx (bench/fine/fjxx_context.cpp): fj++'s programs, joins through fj::context.
$(FINE_DIR)/fj++cx: $(FINE_DIR)/main.o bench/fine/fjxx_context.cpp bench/fine/fjxx_pool.h bench/fine/fine.h $(BENCH_RELEASE_LIB) include/fj.hpp include/fj.h
	@mkdir -p $(@D)
	$(BENCH_CXX) $(FINE_CXXFLAGS) $(FINE_PAD) bench/fine/fjxx_context.cpp $(FINE_DIR)/main.o -o $@ $(BENCH_RELEASE_LIB) -latomic_ops -pthread -lm

# lace_config.h as Lace's CMake writes it with its counters and timers off.
$(LACE_BUILD)/lace_config.h: $(LACE_DIR)/src/lace_config.h.in
	@mkdir -p $(@D)
	sed -e 's/#cmakedefine01 \(.*\)/#define \1 0/' $< >$@

$(LACE_BUILD)/lace.o: $(LACE_DIR)/src/lace.c $(LACE_DIR)/src/lace.h $(LACE_BUILD)/lace_config.h
	$(BENCH_CC) $(LACE_CFLAGS) -I$(LACE_DIR)/src -I$(LACE_BUILD) -c $< -o $@

$(FINE_DIR)/lace: $(FINE_SRC) bench/fine/lace.c $(LACE_BUILD)/lace.o
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) -I$(LACE_DIR)/src -I$(LACE_BUILD) $(FINE_PAD) bench/fine/main.c bench/fine/lace.c \
		$(LACE_BUILD)/lace.o -o $@ -pthread -lm

# lace-wake: Lace with one test more at the end of every spawn, fj's wake test
# in shape (a compare of a word of its worker, a branch never taken, a call
# behind it).  fj's idle workers park, so its spawn must test for a sleeper
# after publishing; Lace's spin and make no such test.  Not a peer of make
# bench: it prices parking on Lace's own code (docs/performance.md, "Typed
# tasks against Lace"), e.g.
#   make bench-placement LACE_DIR=... BENCH_PLACEMENT_CELL="knapsack 64 1" \
#        BENCH_PLACEMENT_SYSTEMS="fj-typed lace-wake lace"
# The test goes before the closing brace of each SPAWN, the one after its
# last PR_COUNTSPLITS; the build stops if it lands anywhere but the 14 spawns.
$(LACE_BUILD)/wake/lace.h: $(LACE_DIR)/src/lace.h
	@mkdir -p $(@D)
	awk '/^#include <stdint.h>/ { print; print "#include <sched.h>"; next } \
	     state == 2 && /^}/ { print "    if (unlikely(*(Task *volatile *)&w->end == (Task *)1)) sched_yield(); \\"; n++ } \
	     { state = /PR_COUNTSPLITS\(w, CTR_split_grow\);/ ? 1 : (state == 1 && /^    }/ ? 2 : 0); print } \
	     END { if (n != 14) { print "lace-wake: " n " spawns patched, not 14" > "/dev/stderr"; exit 1 } }' $< >$@

$(FINE_DIR)/lace-wake: $(FINE_SRC) bench/fine/lace.c $(LACE_BUILD)/lace.o $(LACE_BUILD)/wake/lace.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(FINE_CFLAGS) -I$(LACE_BUILD)/wake -I$(LACE_DIR)/src -I$(LACE_BUILD) $(FINE_PAD) bench/fine/main.c \
		bench/fine/lace.c $(LACE_BUILD)/lace.o -o $@ -pthread -lm

.PHONY: bench-fine-build
bench-fine-build: $(FINE_BINS) $(foreach n,$(FINE_PHASE_PADS),$(BENCH_DIR)/pad$(n).o)
	@$(FINE_STALE)
	@$(foreach n,$(FINE_PHASE_PADS),$(MAKE) --no-print-directory FINE_DIR=$(FINE_DIR)/phase$(n) \
		FINE_PAD=$(BENCH_DIR)/pad$(n).o FINE_PHASE_PADS= bench-fine-build &&) true

# fj-typed against Lace on the fine programs alone (issue 11's bar), in the 48
# rounds `make bench` gives those two cells (bench/run.sh, BENCH_LACE_ROUNDS;
# the other fine cells get 8, too few to decide a cell within 10 % on a VM
# whose speed switches by about 1.9x within a process: docs/performance.md,
# "Typed tasks against Lace").  Serial, fj-typed and Lace through the four
# code phases, without the rest of the suite: about 10 minutes on 2 cores.
# Results in build/bench/lace-only/ (results.csv, ratios.csv).
BENCH_LACE_DIR := $(BENCH_DIR)/lace-only
BENCH_LACE_SYSTEMS ?= serial fj-typed lace
BENCH_LACE_ROUNDS ?= 48
.PHONY: bench-lace
bench-lace: bench-fjlib
	@$(if $(LACE_OK),true,echo "bench-lace: needs LACE_DIR, a Lace source tree ($(if $(LACE_DIR),LACE_DIR=$(LACE_DIR) has no src/lace.h,e.g. LACE_DIR=../shared/peers/lace-1.4.2))" >&2; exit 2)
	@$(MAKE) --no-print-directory bench-fine-build $(BENCH_DIR)/serial_bench $(BENCH_DIR)/report
	@rm -rf $(BENCH_LACE_DIR)
	@for phase in . $(foreach n,$(FINE_PHASE_PADS),phase$(n)); do \
		mkdir -p $(BENCH_LACE_DIR)/fine/$$phase && \
		for s in $(BENCH_LACE_SYSTEMS); do cp $(FINE_DIR)/$$phase/$$s $(BENCH_LACE_DIR)/fine/$$phase/ || exit 1; done; \
	done
	@cp $(BENCH_DIR)/serial_bench $(BENCH_DIR)/report $(BENCH_LACE_DIR)/
	@BENCH_DIR=$(BENCH_LACE_DIR) BENCH_PROGRAMS="fib dfs knapsack pi" BENCH_RUNS=$(BENCH_LACE_ROUNDS) \
		BENCH_ROUNDS=$(BENCH_LACE_ROUNDS) sh bench/run.sh full

# N bytes of no-ops in .text, linked before a fine program's own objects.
$(BENCH_DIR)/pad%.o:
	@mkdir -p $(@D)
	printf '\t.text\n\t.skip %s, 0x90\n\t.section .note.GNU-stack,"",@progbits\n' $* >$(@:.o=.s)
	$(BENCH_CC) -c $(@:.o=.s) -o $@

# Instructions per fork+join at 1 worker (bench/instructions.sh), counted on
# a build without -march (valgrind cannot decode AVX-512) in its own folders.
bench-instructions: bench-fjlib
	@$(MAKE) --no-print-directory FINE_MARCH= FINE_DIR=$(BENCH_DIR)/fine-cg LACE_BUILD=$(BENCH_DIR)/lace-cg \
		FINE_PHASE_PADS= bench-fine-build
	@sh bench/instructions.sh $(BENCH_DIR)/fine-cg

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

# The same programs with typed tasks (system fj-typed; its fib is bench/fine's).
$(BENCH_DIR)/fj_bench.o $(BENCH_DIR)/fj_typed_bench.o: bench/fj_pool.h include/fj.h
$(BENCH_DIR)/fj-typed_bench: $(BENCH_DIR)/fj_typed_bench.o $(BENCH_COMMON) $(BENCH_RELEASE_LIB)
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
	$(BENCH_CLANG) $(BENCH_CFLAGS) -fopenmp=libomp -DOMP_SYSTEM='"libomp"' -DOMP_RUNS_TASKS_AT_CREATION_ON_ONE_THREAD bench/omp_bench.c $(BENCH_COMMON) -o $@ -lm

$(BENCH_DIR)/tbb_bench: bench/tbb_bench.cpp $(BENCH_COMMON)
	$(BENCH_CXX) $(BENCH_CXXFLAGS) bench/tbb_bench.cpp $(BENCH_COMMON) -o $@ -ltbb -pthread -lm

$(BENCH_DIR)/java/Bench.class: bench/java/Bench.java
	@mkdir -p $(@D)
	javac -d $(@D) $<

# ---- a bundle for another machine (make bench-portable) ----
# The benchmark binaries, the loop benchmark and the test programs as static
# executables for any x86-64-v3 Linux machine, under BENCH_PORTABLE_DIR: for a
# machine with more cores but no compiler or libatomic_ops (a cluster node, a
# lent server).  Copy the checkout with that folder there, then:
#   BENCH_DIR=build/portable/bench BENCH_WORKERS="1 16" BENCH_PROGRAMS="fib uts" sh bench/run.sh full
#   sh bench/loops/run.sh build/portable/loops 1000000 5 16 loops16.csv
#   FJ_TEST_WORKERS=16 sh tests/run-tests.sh build/portable/tests
# The fine programs take FINE_MARCH=BENCH_PORTABLE_MARCH (Lace too, with
# LACE_DIR).  libomp, oneTBB and Java do not link statically and are left out.
BENCH_PORTABLE_DIR ?= build/portable
BENCH_PORTABLE_MARCH ?= -march=x86-64-v3
.PHONY: bench-portable
bench-portable: bench-fjlib
	@$(MAKE) --no-print-directory BENCH_STATIC_ONLY=1 BENCH_DIR=$(BENCH_PORTABLE_DIR)/bench \
		BENCH_CC="gcc -static" BENCH_CXX="g++ -static" FINE_MARCH=$(BENCH_PORTABLE_MARCH) bench-build
	@$(MAKE) --no-print-directory BENCH_STATIC_ONLY=1 BENCH_LOOPS_DIR=$(BENCH_PORTABLE_DIR)/loops \
		BENCH_LOOPS_CC="gcc -static" bench-loops-build
	@$(MAKE) --no-print-directory BUILD=$(BENCH_PORTABLE_DIR) CC="gcc -static" CXX="g++ -static" tests
	@# test_java_result_type runs the compiler on this checkout's sources: not
	@# a test for a machine without either.
	@rm -f $(BENCH_PORTABLE_DIR)/tests/unit/test_java_result_type
	@echo "bench-portable: static binaries in $(BENCH_PORTABLE_DIR)/ (how to run them: mk/bench.mk)"

# make check-portable (in CI): the bundle keeps its promises.  Every program
# in it is statically linked (no dynamic section: it needs no library of the
# other machine), and each part runs from the bundle alone: bench/run.sh
# through BENCH_DIR on one fine and one coarse program, the loops, and the
# unit tests at 2 workers.  About 2 minutes on 2 cores.
.PHONY: check-portable
check-portable: bench-portable
	@dynamic=$$(for f in $$(find $(BENCH_PORTABLE_DIR)/bench $(BENCH_PORTABLE_DIR)/loops $(BENCH_PORTABLE_DIR)/tests \
	    -type f -perm -u+x ! -name '*.class'); do \
	  readelf -d "$$f" 2>/dev/null | grep -q "NEEDED" && echo "$$f"; done); \
	if [ -n "$$dynamic" ]; then echo "check-portable: FAIL, dynamically linked:"; echo "$$dynamic"; exit 1; fi
	@BENCH_DIR=$(BENCH_PORTABLE_DIR)/bench BENCH_PROGRAMS="knapsack uts" BENCH_RUNS=2 sh bench/run.sh quick \
	  > $(BENCH_PORTABLE_DIR)/check-run.log 2>&1 || { tail -20 $(BENCH_PORTABLE_DIR)/check-run.log; exit 1; }
	@n=$$(grep -c '^knapsack,\|^uts,' $(BENCH_PORTABLE_DIR)/bench/results.csv); \
	  bad=$$(awk -F, 'NR > 1 && $$9 != 1' $(BENCH_PORTABLE_DIR)/bench/results.csv | wc -l); \
	  [ "$$n" -ge 10 ] && [ "$$bad" -eq 0 ] || { echo "check-portable: FAIL, $$n results, $$bad unverified"; exit 1; }
	@sh bench/loops/run.sh $(BENCH_PORTABLE_DIR)/loops 100000 2 2 $(BENCH_PORTABLE_DIR)/loops.csv > /dev/null
	@[ $$(awk -F, 'NR > 1 && $$9 == "yes"' $(BENCH_PORTABLE_DIR)/loops.csv | wc -l) -ge 8 ] || \
	  { echo "check-portable: FAIL, the loops did not verify"; cat $(BENCH_PORTABLE_DIR)/loops.csv; exit 1; }
	@FJ_TEST_WORKERS=2 sh tests/run-tests.sh $(BENCH_PORTABLE_DIR)/tests unit > $(BENCH_PORTABLE_DIR)/check-tests.log 2>&1 || \
	  { grep -A5 '^FAIL' $(BENCH_PORTABLE_DIR)/check-tests.log | head -40; tail -1 $(BENCH_PORTABLE_DIR)/check-tests.log; exit 1; }
	@echo "check-portable: every program static; bench, loops and $$(tail -1 $(BENCH_PORTABLE_DIR)/check-tests.log) from the bundle"

# make test also checks how the suite turns a cell's runs into its figures
# (bench/summarise.sh) and two cells into a ratio round by round
# (bench/pair.sh), which programs bench/run.sh pairs with Lace and how many
# rounds each cell runs (stand-in binaries), and how instructions are counted from a qemu log
# (bench/qemu-count.awk); no benchmark is run.
.PHONY: test-bench-summarise test-bench-run test-qemu-count
test: test-bench-summarise test-bench-run test-qemu-count
test-bench-summarise:
	@sh tests/bench-summarise.sh
test-bench-run:
	@sh tests/bench-run.sh
test-qemu-count:
	@sh tests/qemu-count.sh
