# mk/cxx.mk - the C++ face (include/fj.hpp, header-only): its header check,
# tests, example and benchmark driver.  Included by the Makefile.
#
#   make tests     also builds each tests/cxx/test_X.cpp as $(BUILD)/tests/unit/test_X
#                  and, with -fno-exceptions, test_X_noexcept (run by make test, so
#                  under the sanitizers too), and checks fj.hpp alone, with and
#                  without exceptions
#   make examples  also builds each examples/cxx/X.cpp as $(BUILD)/examples/X_cxx
#                  (fib: fj::join of two; karatsuba: of three), each checked
#                  against its serial twin by make test
#   make bench-build-cxx  build/bench/fjxx_bench, the benchmark driver through fj.hpp
#
# CXX follows CC (clang -> clang++, else c++) unless given.

ifeq ($(origin CXX),default)
  CXX := $(if $(findstring clang,$(CC)),clang++,c++)
endif
CXX_WARNINGS := -Wall -Wextra -Werror -Wshadow -Wpointer-arith
CXXFLAGS_FJ := -std=c++17 -D_GNU_SOURCE $(OPT) $(CXX_WARNINGS) -pthread -Iinclude

CXX_TESTS := $(patsubst tests/cxx/%.cpp,$(BUILD)/tests/unit/%,$(wildcard tests/cxx/*.cpp))
CXX_EXAMPLES := $(patsubst examples/cxx/%.cpp,$(BUILD)/examples/%_cxx,$(wildcard examples/cxx/*.cpp))

.PHONY: header-check-cxx bench-build-cxx
tests: $(CXX_TESTS) $(addsuffix _noexcept,$(CXX_TESTS)) header-check-cxx
examples: $(CXX_EXAMPLES)

$(BUILD)/tests/unit/test_%: tests/cxx/test_%.cpp include/fj.hpp include/fj.h tests/check.h tests/counting_new.h $(LIB_A_INTERNAL)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS_FJ) -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A_INTERNAL) $(LDLIBS) -lm

# test_join_fast_path counts calls through the linker's --wrap (the Makefile's FAST_PATH_WRAP).
$(BUILD)/tests/unit/test_join_fast_path $(BUILD)/tests/unit/test_join_fast_path_noexcept: private LDFLAGS += $(FAST_PATH_WRAP)

# The same cases less those about exceptions, built without exceptions.
$(BUILD)/tests/unit/test_%_noexcept: tests/cxx/test_%.cpp include/fj.hpp include/fj.h tests/check.h tests/counting_new.h $(LIB_A_INTERNAL)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS_FJ) -fno-exceptions -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A_INTERNAL) $(LDLIBS) -lm

$(BUILD)/examples/%_cxx: examples/cxx/%.cpp include/fj.hpp include/fj.h examples/example_util.h $(LIB_A)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS_FJ) -Iexamples $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm

# fj.hpp must stand alone as C++17, with exceptions and with -fno-exceptions
# (the catch machinery is compiled out), and say it needs C++17 when it is not.
header-check-cxx: $(BUILD)/.header-hpp
$(BUILD)/.header-hpp: include/fj.hpp include/fj.h
	@mkdir -p $(@D)
	@for mode in -fexceptions -fno-exceptions; do \
	  printf '#include "fj.hpp"\nint main() { return fj::join([] { return 1; }, [] { return 2; }).first != 1; }\n' | \
	  $(CXX) -std=c++17 $$mode $(CXX_WARNINGS) -Iinclude -x c++ -fsyntax-only - || exit 1; done
	@if printf '#include "fj.hpp"\n' | $(CXX) -std=c++14 -Iinclude -x c++ -fsyntax-only - 2>/dev/null; then \
	  echo "fj.hpp: compiled as C++14 without saying it needs C++17"; exit 1; fi
	@touch $@

# The benchmark driver through fj.hpp (bench/fjxx_bench.cpp), built like
# mk/bench.mk's drivers: same leaves, same harness, the release library.
# A pattern rule, its stem the bench folder (build/bench, or make
# bench-portable's), so that it does not depend on the order mk/*.mk are read in.
FJXX_BENCH := build/bench/fjxx_bench
%/fjxx_bench: bench/fjxx_bench.cpp include/fj.hpp include/fj.h bench/harness.h bench/kernels.h \
              %/kernels.o %/harness.o build/release/libfj.a
	$(BENCH_CXX) $(BENCH_CXXFLAGS) bench/fjxx_bench.cpp $*/kernels.o $*/harness.o -o $@ build/release/libfj.a \
		-latomic_ops -pthread -lm
bench-build-cxx: $(FJXX_BENCH)
