# open.mk - tests of bugs not fixed yet (tests/open/README.md).
#
#   make check-open   builds and runs them; fails while the bugs are open

.PHONY: check-open

OPEN_TESTS := $(patsubst tests/open/%.c,$(BUILD)/tests/open/%,$(wildcard tests/open/*.c))

$(BUILD)/tests/open/%: tests/open/%.c tests/check.h $(LIB_A_INTERNAL)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iruntime -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A_INTERNAL) $(LDLIBS) -lm

check-open: $(OPEN_TESTS)
	@for t in $(OPEN_TESTS); do for c in $$($$t --list | cut -d' ' -f1); do \
	  timeout 60 $$t --workers 2 $$c >/dev/null 2>&1 && echo "passes now: $$t $$c" || echo "still open: $$t $$c"; \
	done; done
