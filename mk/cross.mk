# cross.mk - the runtime on a second architecture (make check-aarch64, in CI).
#
#   make check-aarch64   installs the aarch64 cross compilers and qemu-user
#                        when root and missing (else says what to install),
#                        builds the runtime and four test programs for aarch64
#                        in build/aarch64, and runs them under qemu-aarch64 on
#                        1, 2 and 4 workers, and again with FJ_FENCE=full
#                        (tests/run-tests.sh; about 2 minutes on 2 cores)
#   make bench-instructions-aarch64 LACE_DIR=../shared/peers/lace-1.4.2
#                        instructions per fork+join of the fine programs
#                        (bench/fine/) built for aarch64 with the flags of
#                        make bench-instructions, counted from qemu-aarch64's
#                        log (bench/qemu-count.awk):
#                        build/bench/instructions-aarch64.csv
#
# Why: on x86-64, fj.h's fast path compares top and head with `asm goto`
# (fj__top_moved, fj__head_above, fj__word_nonzero); every other architecture
# compiles the portable C branches beside them, which no x86-64 build ever
# compiles.  This builds them with -Werror and runs the tests that exercise
# them: test_deque (the THE protocol), test_typed (typed spawn and sync),
# test_forkjoin (fj_task on the same deque), test_fj_hpp (fj::join, typed
# tasks from C++), test_join_many (fj::join of three or more) and
# test_join_context (joins through an fj::context, two pointers packed in one
# 128-bit integer).  qemu-user runs the threads with the host's memory order
# (x86-64's), so this checks that the portable code is right as code, not the
# ordering arguments on a weakly ordered machine: those are the Spin models'
# (make check-model) and the release/acquire annotations' job.
# Static binaries: qemu-user then needs no aarch64 libraries at run time.
# atomic_ops.h is the host's (its headers cover every architecture), searched
# after the cross compiler's own headers (-idirafter).

AARCH64_CC ?= aarch64-linux-gnu-gcc
AARCH64_CXX ?= aarch64-linux-gnu-g++
AARCH64_RUN ?= qemu-aarch64
AARCH64_PACKAGES := gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
AARCH64_BUILD := build/aarch64
AARCH64_FLAGS := -D_GNU_SOURCE -O2 -DNDEBUG -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wno-unused-parameter \
	-pthread -Iinclude -idirafter /usr/include
AARCH64_CFLAGS := -std=gnu11 $(AARCH64_FLAGS) -Wstrict-prototypes -Wmissing-prototypes
AARCH64_LIB := $(AARCH64_BUILD)/libfj.a
AARCH64_OBJS := $(patsubst runtime/%.c,$(AARCH64_BUILD)/runtime/%.o,$(wildcard runtime/*.c))
AARCH64_TESTS := $(addprefix $(AARCH64_BUILD)/tests/unit/,test_deque test_typed test_forkjoin test_fj_hpp test_join_many \
	test_join_context test_fences test_fast_path test_join_fast_path)

.PHONY: check-aarch64 aarch64-deps bench-instructions-aarch64

aarch64-deps:
	@missing=""; for tool in $(AARCH64_CC) $(AARCH64_CXX) $(AARCH64_RUN); do \
	  command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "check-aarch64: installing $(AARCH64_PACKAGES)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(AARCH64_PACKAGES) >/dev/null 2>&1 || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(AARCH64_PACKAGES) >/dev/null; }; \
	else echo "check-aarch64: missing$$missing (Debian: apt-get install $(AARCH64_PACKAGES))"; exit 1; fi

check-aarch64: aarch64-deps
	@$(MAKE) --no-print-directory $(AARCH64_TESTS)
	@FJ_TEST_RUNNER=$(AARCH64_RUN) FJ_TEST_WORKERS="1 2 4" sh tests/run-tests.sh $(AARCH64_BUILD)/tests unit

$(AARCH64_BUILD)/runtime/%.o: runtime/%.c $(wildcard runtime/*.h) include/fj.h
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_CFLAGS) -c $< -o $@

$(AARCH64_LIB): $(AARCH64_OBJS)
	rm -f $@
	$(AARCH64_CC:gcc=ar) rcs $@ $^

$(AARCH64_BUILD)/tests/unit/%: tests/unit/%.c tests/check.h $(AARCH64_LIB)
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_CFLAGS) -Iruntime -Itests $< -o $@ $(AARCH64_TEST_LDFLAGS) $(AARCH64_LIB) -static -lm
# test_fast_path and test_join_fast_path count calls through the linker's
# --wrap (the Makefile's FAST_PATH_WRAP).
$(AARCH64_BUILD)/tests/unit/test_fast_path $(AARCH64_BUILD)/tests/unit/test_join_fast_path: \
	private AARCH64_TEST_LDFLAGS = $(FAST_PATH_WRAP)

$(AARCH64_BUILD)/tests/unit/test_%: tests/cxx/test_%.cpp include/fj.hpp tests/check.h tests/counting_new.h $(AARCH64_LIB)
	@mkdir -p $(@D)
	$(AARCH64_CXX) -std=c++17 $(AARCH64_FLAGS) -Itests $< -o $@ $(AARCH64_TEST_LDFLAGS) $(AARCH64_LIB) -static -lm

# ---- the fine programs for aarch64: what the fast path costs there ----
# The flags of make bench-instructions (mk/bench.mk: FINE_CFLAGS without
# -march), static.  valgrind/callgrind.h (the host's, -idirafter) gives the
# counting toggles: its client request is a no-op sequence on aarch64 too,
# which bench/qemu-count.awk recognises.  Lace's lace_config.h does not depend
# on the architecture: the x86-64 build's is used.
AARCH64_FINE := $(AARCH64_BUILD)/fine
AARCH64_FINE_CFLAGS := $(filter-out -march=%,$(FINE_CFLAGS)) -idirafter /usr/include -static
AARCH64_FINE_CXXFLAGS := $(filter-out -march=%,$(FINE_CXXFLAGS)) -idirafter /usr/include -static
AARCH64_LACE_CFLAGS := $(filter-out -march=%,$(LACE_CFLAGS))
AARCH64_FINE_BINS := $(AARCH64_FINE)/serial $(AARCH64_FINE)/fj-classic \
	$(if $(FINE_TYPED),$(AARCH64_FINE)/fj-typed $(AARCH64_FINE)/fj++ $(AARCH64_FINE)/fj++cx) $(if $(LACE_OK),$(AARCH64_FINE)/lace)

bench-instructions-aarch64: aarch64-deps
	@$(MAKE) --no-print-directory $(AARCH64_FINE_BINS)
	@$(if $(LACE_OK),,echo "bench: SKIPPING lace (set LACE_DIR to a Lace source tree$(,) e.g. LACE_DIR=../shared/peers/lace-1.4.2)"; \
	  rm -f $(AARCH64_FINE)/lace;) sh bench/instructions.sh $(AARCH64_FINE) $(AARCH64_RUN)

$(AARCH64_FINE)/serial: $(FINE_SRC) bench/fine/serial.c
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_FINE_CFLAGS) bench/fine/main.c bench/fine/serial.c -o $@ -lm

$(AARCH64_FINE)/fj-%: $(FINE_SRC) bench/fine/fj_%.c $(AARCH64_LIB) include/fj.h
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_FINE_CFLAGS) bench/fine/main.c bench/fine/fj_$*.c -o $@ $(AARCH64_LIB) -pthread -lm

$(AARCH64_FINE)/main.o: $(FINE_SRC)
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_FINE_CFLAGS) -c bench/fine/main.c -o $@

$(AARCH64_FINE)/fj++: $(AARCH64_FINE)/main.o bench/fine/fjxx.cpp bench/fine/fjxx_pool.h bench/fine/fine.h $(AARCH64_LIB) include/fj.hpp include/fj.h
	$(AARCH64_CXX) $(AARCH64_FINE_CXXFLAGS) bench/fine/fjxx.cpp $(AARCH64_FINE)/main.o -o $@ $(AARCH64_LIB) -pthread -lm

$(AARCH64_FINE)/fj++cx: $(AARCH64_FINE)/main.o bench/fine/fjxx_context.cpp bench/fine/fjxx_pool.h bench/fine/fine.h $(AARCH64_LIB) \
		include/fj.hpp include/fj.h
	$(AARCH64_CXX) $(AARCH64_FINE_CXXFLAGS) bench/fine/fjxx_context.cpp $(AARCH64_FINE)/main.o -o $@ $(AARCH64_LIB) -pthread -lm

$(AARCH64_FINE)/lace.o: $(LACE_DIR)/src/lace.c $(LACE_DIR)/src/lace.h $(LACE_BUILD)/lace_config.h
	@mkdir -p $(@D)
	$(AARCH64_CC) $(AARCH64_LACE_CFLAGS) -I$(LACE_DIR)/src -I$(LACE_BUILD) -c $< -o $@

$(AARCH64_FINE)/lace: $(FINE_SRC) bench/fine/lace.c $(AARCH64_FINE)/lace.o
	$(AARCH64_CC) $(AARCH64_FINE_CFLAGS) -I$(LACE_DIR)/src -I$(LACE_BUILD) bench/fine/main.c bench/fine/lace.c \
		$(AARCH64_FINE)/lace.o -o $@ -pthread -lm
