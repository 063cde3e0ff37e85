# fj - GNU Make build.  `make help` lists the targets.
#
# Variants build into build/<VARIANT>: release (default), debug, tsan, asan
# (AddressSanitizer + UndefinedBehaviorSanitizer).  Other parts of the project
# add their targets in mk/*.mk, included at the end.

VARIANT ?= release
CC ?= cc
PREFIX ?= /usr/local
BUILD ?= build/$(VARIANT)

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wno-unused-parameter
CSTD := -std=gnu11
DEPFLAGS = -MMD -MP

ifeq ($(VARIANT),release)
  OPT := -O2 -DNDEBUG
else ifeq ($(VARIANT),debug)
  OPT := -O0 -g3
else ifeq ($(VARIANT),tsan)
  # gcc warns that TSan does not model fences (-Wtsan); we know, see atomics.h.
  OPT := -O1 -g -fsanitize=thread $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-Wno-tsan)
else ifeq ($(VARIANT),asan)
  OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
  $(error VARIANT must be release, debug, tsan or asan)
endif

CFLAGS ?=
CFLAGS += $(CSTD) -D_GNU_SOURCE $(OPT) $(WARNINGS) -fPIC -pthread -Iinclude
LDFLAGS += $(filter -fsanitize=%,$(OPT)) -pthread
LDLIBS += -latomic_ops

# The version is written once, in include/fj.h; the shared library's name,
# fj.pc and the CMake package read it from there.  A missing FJ_VERSION_PATCH
# reads as 0.
version_part = $(shell sed -n 's/^.define FJ_VERSION_$(1) *\([0-9][0-9]*\).*/\1/p' include/fj.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_part,MINOR).$(or $(call version_part,PATCH),0)

LIB_SRCS := $(wildcard runtime/*.c)
LIB_OBJS := $(patsubst runtime/%.c,$(BUILD)/runtime/%.o,$(LIB_SRCS))
LIB_A := $(BUILD)/libfj.a
# The same objects with the runtime's names global, for the tests that call
# runtime/ directly or wrap its calls (--wrap acts only between objects).
LIB_A_INTERNAL := $(BUILD)/libfj-internal.a
OBJCOPY ?= objcopy
# libfj.so.MAJOR.MINOR.PATCH is the file; programs record its SONAME,
# libfj.so.MAJOR, and the linker finds libfj.so: both are symlinks.
SONAME := libfj.so.$(VERSION_MAJOR)
LIB_SO_FILE := $(BUILD)/libfj.so.$(VERSION)
LIB_SO := $(BUILD)/libfj.so

EXAMPLE_SRCS := $(wildcard examples/*.c)
EXAMPLES := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRCS))
TOOL_SRCS := $(wildcard tools/*.c)
TOOLS := $(patsubst tools/%.c,$(BUILD)/tools/%,$(TOOL_SRCS))
TEST_SRCS := $(wildcard tests/unit/*.c tests/stress/*.c)
TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
# One test is built twice: test_cold_call_registers, and with -finstrument-functions (below).
TESTS += $(BUILD)/tests/unit/test_cold_call_registers_instrumented

.PHONY: all lib examples tools tests test test-loaded check-sanitize check-tsan check-asan stress stress-loop \
        demo clean format help deps header-check

all: lib examples tools

lib: $(LIB_A) $(LIB_SO)
examples: $(EXAMPLES)
tools: $(TOOLS)
tests: $(TESTS) header-check

deps:
	@sh tools/install-deps.sh

# libatomic_ops must be present before anything compiles; say how to get it
# (and install nothing: `sudo make install` must not run apt-get).
$(BUILD)/.deps-ok:
	@sh tools/install-deps.sh --check
	@mkdir -p $(@D) && touch $@

# The library exports only what its public headers declare: they switch
# visibility back to default around their declarations (#pragma GCC visibility).
# Objects depend on this Makefile too, so that a change of flags rebuilds them.
$(BUILD)/runtime/%.o: runtime/%.c Makefile | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fvisibility=hidden $(DEPFLAGS) -c $< -o $@

# What programs link statically: the objects joined into one (ld -r) with
# their hidden names made local, so that, as from libfj.so, only the headers'
# fj_ names are seen, and a program may have its own worker_main or
# trace_event.  A whole program links all of it, as it loads all of libfj.so.
$(LIB_A): $(LIB_OBJS)
	$(CC) -r -nostdlib -o $(BUILD)/libfj.o $^
	$(OBJCOPY) --localize-hidden $(BUILD)/libfj.o
	rm -f $@ && $(AR) rcs $@ $(BUILD)/libfj.o

$(LIB_A_INTERNAL): $(LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

$(LIB_SO_FILE): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/$(SONAME): $(LIB_SO_FILE)
	ln -sf $(notdir $<) $@
$(LIB_SO): $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

$(BUILD)/examples/%: examples/%.c $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm

$(BUILD)/tools/%: tools/%.c $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm

$(BUILD)/tests/%: tests/%.c tests/check.h $(LIB_A_INTERNAL)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iruntime -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A_INTERNAL) $(LDLIBS) -lm

# test_fast_path (and test_join_fast_path, mk/cxx.mk; both under qemu too,
# mk/cross.mk) count calls to the allocator, to mutex locks and to the slow
# halves of the inline spawn and sync: the linker sends libfj-internal.a's references
# and the test's to the wrappers of tests/call_count.h.
WRAPPED_CALLS := malloc calloc realloc aligned_alloc posix_memalign pthread_mutex_lock pthread_mutex_trylock \
    fj__spawn_settle fj__spawn_guarded fj__spawn_slow fj__spawn_wake fj__sync_slow fj__frame_publish fj__unsynced
FAST_PATH_WRAP := $(foreach f,$(WRAPPED_CALLS),-Wl,--wrap=$(f))
$(BUILD)/tests/unit/test_fast_path: private LDFLAGS += $(FAST_PATH_WRAP)
# test_cold_call_registers fills the registers an ordinary call may clobber
# with garbage around three slow halves of the spawn, through the same --wrap.
COLD_CALL_WRAP := $(foreach f,fj__spawn_guarded fj__spawn_slow fj__spawn_wake,-Wl,--wrap=$(f))
$(BUILD)/tests/unit/test_cold_call_registers: private LDFLAGS += $(COLD_CALL_WRAP)
# The same test built with -finstrument-functions, whose hooks fill the
# registers too: the stubs must stay free of them (fj.h, FJ__KEEP_STUB_ATTRS).
$(BUILD)/tests/unit/test_cold_call_registers_instrumented: tests/unit/test_cold_call_registers.c tests/check.h $(LIB_A_INTERNAL)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DCOLD_CALL_INSTRUMENTED -finstrument-functions -Iruntime -Itests $(DEPFLAGS) $< -o $@ \
	    $(LDFLAGS) $(COLD_CALL_WRAP) $(LIB_A_INTERNAL) $(LDLIBS) -lm

# Every public header must stand alone, as C and as C++, and stay silent under
# -Wshadow in a program whose globals are named like the parameters of the
# header's inline code (SHADOW_GLOBALS), and under -Wpedantic in ISO C11 and
# ISO C++.
PUBLIC_HEADERS := $(wildcard include/*.h)
SHADOW_GLOBALS := int w, t, f, d, p, n, run, tp, idle, args, size, top, word, task, pool, status, data, result, error, head, first, second, fn, arg;
header-check: $(BUILD)/.header-c $(BUILD)/.header-cxx
$(BUILD)/.header-c: $(PUBLIC_HEADERS)
	@mkdir -p $(@D)
	@for h in $(notdir $(PUBLIC_HEADERS)); do \
	  printf '%s\n#include "%s"\nint main(void) { return fj_strerror(0) == 0; }\n' '$(SHADOW_GLOBALS)' $$h | \
	  $(CC) $(CSTD) $(WARNINGS) -Wshadow -Iinclude -x c -fsyntax-only - || exit 1; \
	  printf '#include "%s"\nint main(void) { return fj_strerror(0) == 0; }\n' $$h | \
	  $(CC) -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -x c -fsyntax-only - || exit 1; done
	@touch $@
$(BUILD)/.header-cxx: $(PUBLIC_HEADERS) include/fj.hpp
	@mkdir -p $(@D)
	@if command -v c++ >/dev/null 2>&1; then for h in $(notdir $(PUBLIC_HEADERS)) fj.hpp; do \
	  std=c++11; [ $$h = fj.hpp ] && std=c++17; \
	  printf '%s\n#include "%s"\nint main() { fj_task probe = FJ_TASK_INIT(nullptr); return probe.fn != nullptr; }\n' '$(SHADOW_GLOBALS)' $$h | \
	  c++ -std=$$std -Wall -Wextra -Wshadow -Wpedantic -Werror -Iinclude -x c++ -fsyntax-only - || exit 1; done; \
	else echo "header-check: no C++ compiler, C++ check skipped"; fi
	@touch $@

# The test suite: every case of every test program, in its own process, on 1,
# 2, 4 and 8 workers where the case depends on them, then the whole-build
# checks that mk/*.mk add to TEST_SCRIPTS.  Closing line: "N passed, M failed".
# docs/design.md's floors, held against runtime/'s includes; the typed fast
# path's machine code, held against fj.h's promise; the compile errors of a
# typed task declared wrongly and of an fj::join it cannot call; typed tasks
# in ISO and GNU C and ISO C++, silent under -Wpedantic; the examples' answers
# to bad arguments and FJ_* values.
TEST_SCRIPTS += tests/floors.sh tests/fast-path-code.sh tests/compile-misuse.sh tests/typed-language-modes.sh \
                tests/examples-usage.sh
test: tests examples
	@FJ_TEST_SCRIPTS="$(TEST_SCRIPTS)" sh tests/run-tests.sh $(BUILD)/tests

# The suite LOADED_ROUNDS times (default 3) with every core kept busy (#13).
test-loaded: tests examples
	@sh tests/loaded.sh $${LOADED_ROUNDS:-3}

check-tsan:
	$(MAKE) VARIANT=tsan test FJ_TEST_SCALE=$${FJ_TEST_SCALE:-4}
# ASan+UBSan also runs every case at 16 workers: a test's array sized for the
# usual 8 and indexed by a worker index is out of bounds there, which UBSan
# reports (docs/performance.md, "Fine cells, loops and the suite at 16 workers").
check-asan:
	FJ_TEST_WORKERS="$${FJ_TEST_WORKERS:-1 2 4 8 16}" $(MAKE) VARIANT=asan test FJ_TEST_SCALE=$${FJ_TEST_SCALE:-2}
check-sanitize: check-tsan check-asan

# Stress tier with full-size knobs; stress-loop repeats until the first failure.
stress: tests
	@FJ_TEST_SCALE=1 FJ_TEST_STRESS=1 sh tests/run-tests.sh $(BUILD)/tests stress
stress-loop: tests
	@n=0; while FJ_TEST_STRESS=1 sh tests/run-tests.sh $(BUILD)/tests stress >/tmp/fj-stress.log 2>&1; do \
	  n=$$((n+1)); echo "stress round $$n passed"; done; cat /tmp/fj-stress.log; exit 1

DEMO_WORKERS ?= 2
# fib first with a cut-off (a speedup), then without one (the cost of a task).
demo: examples
	@echo "== fib(38) with a cut-off: calls below fib(20) run serially, so each task has real work (--workers $(DEMO_WORKERS))"
	@FJ_STATS=1 $(BUILD)/examples/trace_demo --workers $(DEMO_WORKERS) --cutoff 20 38 || exit 1
	@echo "== fib without a cut-off: a task per call, one addition each; this measures what a fork + join costs, not a speedup"
	@for ex in fib fib_typed nqueens mergesort; do \
	  [ $$ex = fib ] || echo "== $$ex (--workers $(DEMO_WORKERS))"; \
	  FJ_STATS=1 $(BUILD)/examples/$$ex --workers $(DEMO_WORKERS) || exit 1; done

format:
	clang-format -i include/*.h runtime/*.[ch] tests/*.h tests/*/*.c examples/*.c examples/*/*.c tools/*.c

clean:
	rm -rf build

help:
	@echo "make [VARIANT=release|debug|tsan|asan] [CC=gcc|clang] TARGET"
	@echo "  all            library, examples, tools (default)"
	@echo "  test           build and run the test suite"
	@echo "  test-loaded    the suite 3 times with every core kept busy"
	@echo "  check-sanitize the suite under ThreadSanitizer, then ASan+UBSan"
	@echo "  stress         stress tier at full size; stress-loop: until first failure"
	@echo "  demo           run fib, nqueens, mergesort with statistics"
	@echo "  bench          peer benchmarks (bench/); bench-quick: smaller inputs; LACE_DIR=... adds Lace"
	@echo "  bench-instructions  instructions per fork+join (callgrind): build/bench/instructions.csv"
	@echo "  bench-instructions-aarch64  the same for aarch64, counted under qemu-aarch64"
	@echo "  bench-lace     LACE_DIR=...: fj-typed against Lace on the fine programs, 48 rounds (about 10 min)"
	@echo "  bench-portable  the benchmarks and tests as static x86-64 executables (build/portable/); check-portable checks them"
	@echo "  install        PREFIX=/usr/local LIBDIR=PREFIX/lib DESTDIR=: libraries, headers, fj.pc, CMake package,"
	@echo "                 fj_timeline and its man page; uninstall removes them"
	@echo "  docs           HTML reference of the public headers (Doxygen) in build/docs"
	@echo "  deps           install libatomic-ops-dev (Debian) if missing"
	@echo "  check-mpi      MPI examples on 2 and 3 ranks (Open MPI); bench-mpi: docs/mpi.md's measurement"
	@echo "  check-aarch64  the runtime built for aarch64, its deque, typed, fork/join and C++ tests under qemu-user"
	@echo "  format clean"

-include $(wildcard mk/*.mk)
-include $(LIB_OBJS:.o=.d) $(wildcard $(BUILD)/examples/*.d $(BUILD)/tools/*.d $(BUILD)/tests/*/*.d)
