# cross.mk - the runtime on a second architecture (make check-aarch64, in CI).
#
#   make check-aarch64   installs the aarch64 cross compilers and qemu-user
#                        when root and missing (else says what to install),
#                        builds the runtime and four test programs for aarch64
#                        in build/aarch64, and runs them under qemu-aarch64 on
#                        1, 2 and 4 workers, and again with FJ_FENCE=full
#                        (tests/run-tests.sh; about 2 minutes on 2 cores)
#
# Why: on x86-64, fj.h's fast path compares top and head with `asm goto`
# (fj__top_moved, fj__head_above, fj__word_nonzero); every other architecture
# compiles the portable C branches beside them, which no x86-64 build ever
# compiles.  This builds them with -Werror and runs the tests that exercise
# them: test_deque (the THE protocol), test_typed (typed spawn and sync),
# test_forkjoin (fj_task on the same deque) and test_fj_hpp (fj::join, typed
# tasks from C++).  qemu-user runs the threads with the host's memory order
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
AARCH64_TESTS := $(addprefix $(AARCH64_BUILD)/tests/unit/,test_deque test_typed test_forkjoin test_fj_hpp)

.PHONY: check-aarch64 aarch64-deps

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
	$(AARCH64_CC) $(AARCH64_CFLAGS) -Iruntime -Itests $< -o $@ $(AARCH64_LIB) -static -lm

$(AARCH64_BUILD)/tests/unit/test_fj_hpp: tests/cxx/test_fj_hpp.cpp include/fj.hpp tests/check.h $(AARCH64_LIB)
	@mkdir -p $(@D)
	$(AARCH64_CXX) -std=c++17 $(AARCH64_FLAGS) -Itests $< -o $@ $(AARCH64_LIB) -static -lm
