# Fine programs timed with their code at many placements (bench/placement.sh):
#   make bench-placement LACE_DIR=../shared/peers/lace-1.4.2
# A single build puts each system's task bodies at one place, which moves a
# fine cell by several per cent (docs/performance.md, typed finding 6); this
# compares the systems' medians over many.  About 5 minutes with the defaults
# on 2 cores (32 placements, two systems, 3 rounds of 3 runs of pi 2^26).
BENCH_PLACEMENT_CELL ?= pi 67108864 1
BENCH_PLACEMENT_SYSTEMS ?= fj-typed $(if $(LACE_OK),lace)
BENCH_PLACEMENTS ?= 32
BENCH_PLACEMENT_STEP ?= 16
BENCH_PLACEMENT_ROUNDS ?= 3

.PHONY: bench-placement
bench-placement: bench-fjlib
	@$(if $(LACE_OK),,echo "bench: SKIPPING lace in bench-placement (set LACE_DIR to a Lace source tree)";) \
	sh bench/placement.sh $(BENCH_DIR)/placement "$(BENCH_PLACEMENT_CELL)" "$(BENCH_PLACEMENT_SYSTEMS)" \
		$(BENCH_PLACEMENTS) $(BENCH_PLACEMENT_STEP) $(BENCH_PLACEMENT_ROUNDS)

# make test checks the script's builds and summary with a stand-in for make.
.PHONY: test-bench-placement
test: test-bench-placement
test-bench-placement:
	@sh tests/bench-placement.sh
