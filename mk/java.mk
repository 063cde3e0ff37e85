# mk/java.mk - the Java ForkJoin ports (examples/java/) and their benchmark
# against the Java originals.  Included by the Makefile.
#
#   make examples          also builds build/$(VARIANT)/examples/java/*
#   make demo-java         runs every port once and prints whether it is correct
#   make bench-java-ports  times the jsr166 ports: fj vs Java ForkJoinPool at 1
#                          and 2 workers (needs javac/java; Java is timed
#                          in-process after a JIT warm-up)

JAVA_PORT_SRCS := $(wildcard examples/java/*.c)
JAVA_PORTS := $(patsubst examples/java/%.c,$(BUILD)/examples/java/%,$(JAVA_PORT_SRCS))
JAVA_ORIGINALS := $(wildcard examples/java/*.java)
JAVA_CLASSES_DIR := build/java

examples: $(JAVA_PORTS)

$(BUILD)/examples/java/%: examples/java/%.c examples/java/port_util.h include/fj_java.h $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm

-include $(wildcard $(BUILD)/examples/java/*.d)

# The ports with small inputs, each printing "correct" or "WRONG".
DEMO_JAVA := fibonacci:27 sort_task:1000000 increment_task:10000000 applyer:10000000 \
             integrate:768 matrix_multiply:512 nqueens_cs:12 left_spine_fib:32 dynamic_fib:32 \
             map_reduce:1048576 for_each:1000000 searcher:1000000
.PHONY: demo-java bench-java-ports java-classes
demo-java: $(JAVA_PORTS)
	@for spec in $(DEMO_JAVA); do \
	  ex=$${spec%%:*}; size=$${spec#*:}; \
	  $(BUILD)/examples/java/$$ex --workers $(DEMO_WORKERS) $$size || exit 1; done

java-classes: $(JAVA_CLASSES_DIR)/.stamp
$(JAVA_CLASSES_DIR)/.stamp: $(JAVA_ORIGINALS)
	@command -v javac >/dev/null 2>&1 || { echo "bench-java-ports needs javac (apt-get install openjdk-17-jdk-headless)"; exit 1; }
	@mkdir -p $(JAVA_CLASSES_DIR)
	javac -d $(JAVA_CLASSES_DIR) $(JAVA_ORIGINALS)
	@touch $@

# program:C-size:Java-class:Java-args.  The same input on both sides:
# Integrate 0..1536 with the dynamic policy (Java's argument is the policy).
BENCH_JAVA_REPS ?= 5
BENCH_JAVA := integrate:1536:Integrate:0 matrix_multiply:1024:MatrixMultiply:1024 \
              nqueens_cs:13:NQueensCS:13 left_spine_fib:38:LeftSpineFib:38 dynamic_fib:38:DynamicFib:38
bench-java-ports: $(JAVA_PORTS) java-classes
	@printf '%-16s %8s %12s %12s %8s\n' program workers fj_s java_s fj/java
	@for spec in $(BENCH_JAVA); do \
	  set -- $$(echo $$spec | tr : ' '); ex=$$1; carg=$$2; cls=$$3; jarg=$$4; \
	  for w in 1 2; do \
	    c=$$($(BUILD)/examples/java/$$ex --workers $$w --reps $(BENCH_JAVA_REPS) $$carg | sed -n 's/.*: correct (best of [0-9]*: \([0-9.]*\) s.*/\1/p'); \
	    j=$$(java -cp $(JAVA_CLASSES_DIR) $$cls $$w $$jarg $(BENCH_JAVA_REPS) | sed -n 's/.*: correct (best of [0-9]*: \([0-9.]*\) s.*/\1/p'); \
	    r=$$(awk -v c="$$c" -v j="$$j" 'BEGIN { if (c > 0 && j > 0) printf "%.2f", c / j; else print "-" }'); \
	    printf '%-16s %8s %12s %12s %8s\n' $$cls $$w "$${c:-FAIL}" "$${j:-FAIL}" $$r; \
	  done; done

# test_java_result_type runs the compiler on tests/tck/compile/result_type.c:
# it needs the compiler's name and the source tree's place.
$(BUILD)/tests/unit/test_java_result_type: private CFLAGS += -DCHECK_CC='"$(CC)"' -DCHECK_SRCDIR='"$(CURDIR)"'

# The ports of the JDK's ForkJoin conformance tests (tests/tck/, JSR166 TCK).
# Built beside the unit tests, so tests/run-tests.sh runs every case in its own
# process and counts it in the closing "N passed, M failed".
TCK_SRCS := $(wildcard tests/tck/tck_*.c)
TCK_TESTS := $(patsubst tests/tck/%.c,$(BUILD)/tests/unit/%,$(TCK_SRCS))
tests: $(TCK_TESTS)
$(BUILD)/tests/unit/tck_%: tests/tck/tck_%.c tests/tck/tck.h $(wildcard tests/tck/tck_*.h) tests/check.h $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS) -lm
