# trace.mk - tracing, the timeline picture, the profiler (issue 6).
#
#   make test-render   trace examples/fib, draw it with tools/fj_timeline and
#                      check in headless Chromium that the picture is not empty
#                      (part of `make test`; FJ_SKIP_RENDER=1 skips it where
#                      Chromium cannot be installed); tests/timeline-usage.sh,
#                      in make test's scripts, checks its answers to bad input
#   make bench-hooks   the cost of the hook tests on the fork/join fast path:
#                      examples/fib on 1 worker, this build against one with
#                      every hook test compiled out (-DFJ_NO_HOOKS)
#   make docs-figures  regenerates the pictures of docs/tutorial.md
#   make test-tutorial runs every command of docs/tutorial.md in order (part
#                      of `make test`): each must succeed, write only under
#                      build/ and leave every tracked file as it was

.PHONY: test-render bench-hooks docs-figures test-tutorial

# The tutorial's own programs (a deliberate race): built with the examples,
# but not run by the example tier, which expects every example to be correct.
TUTORIAL_EXAMPLES := $(patsubst examples/tutorial/%.c,$(BUILD)/examples/tutorial/%,$(wildcard examples/tutorial/*.c))
examples: $(TUTORIAL_EXAMPLES)
-include $(wildcard $(BUILD)/examples/tutorial/*.d)

test: test-render
# fj_timeline's answers to bad options and files (exit status and message).
TEST_SCRIPTS += tests/timeline-usage.sh

test-render: examples tools
	@sh tests/render-timeline.sh $(BUILD)

# The baseline library: the sources with every test of fj_worker.hooks replaced
# by 0, so the compiler removes the branches and the calls behind them.
NOHOOKS := build/nohooks
HOOKS_BENCH_N ?= 34
HOOKS_BENCH_RUNS ?= 9

$(NOHOOKS)/fib: $(LIB_SRCS) $(wildcard runtime/*.h) examples/fib.c | $(BUILD)/.deps-ok
	@rm -rf $(NOHOOKS)/src && mkdir -p $(NOHOOKS)/src && cp -r runtime include examples $(NOHOOKS)/src/
	@sed -i 's/\bw->hooks\b/0/g' $(NOHOOKS)/src/runtime/task_inline.h $(NOHOOKS)/src/runtime/task.c \
	  $(NOHOOKS)/src/runtime/worker.c
	$(CC) $(CSTD) -D_GNU_SOURCE -O2 -DNDEBUG -DFJ_NO_HOOKS -fPIC -pthread -I$(NOHOOKS)/src/include \
	  $(NOHOOKS)/src/runtime/*.c $(NOHOOKS)/src/examples/fib.c -o $@ $(LDLIBS) -lm

bench-hooks: $(NOHOOKS)/fib
	@$(MAKE) --no-print-directory VARIANT=release build/release/examples/fib
	@echo "fib($(HOOKS_BENCH_N)) on 1 worker, $(HOOKS_BENCH_RUNS) runs each, alternating (seconds):"
	@for i in $$(seq $(HOOKS_BENCH_RUNS)); do \
	  printf 'hooks %s\n' "$$(build/release/examples/fib --workers 1 $(HOOKS_BENCH_N) | sed -n 's/.*parallel \([0-9.]*\) s.*/\1/p')"; \
	  printf 'nohooks %s\n' "$$($(NOHOOKS)/fib --workers 1 $(HOOKS_BENCH_N) | sed -n 's/.*parallel \([0-9.]*\) s.*/\1/p')"; \
	done | sort -k1,1 -k2,2n | awk '{ t[$$1] = t[$$1] " " $$2; n[$$1]++; v[$$1, n[$$1]] = $$2 } \
	  END { for (k in n) printf "  %-8s median %s  min %s  (all:%s)\n", k, v[k, int((n[k] + 1) / 2)], v[k, 1], t[k] }'

# Each picture is made by the command written next to it in docs/tutorial.md
# (which writes it under build/tutorial/), then copied into docs/img/.
TUT := build/tutorial
docs-figures: examples tools
	@mkdir -p $(TUT) docs/img
	FJ_TRACE=$(TUT)/fib.json $(BUILD)/examples/fib --workers 2 21
	$(BUILD)/tools/fj_timeline --title "fib(21) on 2 workers: bars by nesting depth" -o $(TUT)/fib-depth.svg $(TUT)/fib.json
	$(BUILD)/tools/fj_timeline --color kind --title "fib(21) on 2 workers: how each task was obtained" \
	  -o $(TUT)/fib-kind.svg $(TUT)/fib.json
	FJ_TRACE=$(TUT)/cut0.json $(BUILD)/examples/trace_demo --workers 2 --cutoff 0 22
	$(BUILD)/tools/fj_timeline --title "fib(22), a task per call (cut-off 0)" -o $(TUT)/cutoff-0.svg $(TUT)/cut0.json
	FJ_TRACE=$(TUT)/cut14.json $(BUILD)/examples/trace_demo --workers 2 --cutoff 14 28
	$(BUILD)/tools/fj_timeline --color kind --title "fib(28), serial below 14 (cut-off 14)" \
	  -o $(TUT)/cutoff-14.svg $(TUT)/cut14.json
	cp $(TUT)/fib-depth.svg $(TUT)/fib-kind.svg $(TUT)/cutoff-0.svg $(TUT)/cutoff-14.svg docs/img/

# Every command of docs/tutorial.md, in order, as a reader would type them
# after `make` (tests/tutorial.sh); part of `make test`.
test: test-tutorial
test-tutorial: examples tools
	@sh tests/tutorial.sh $(BUILD)
