# Join lag (issue #13): how long a join stays busy after its stolen child
# finished, with unrelated 1 ms work available.  `make bench-join-lag`.
.PHONY: bench-join-lag
$(BUILD)/bench/join_lag: bench/join_lag.c $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS)
bench-join-lag: $(BUILD)/bench/join_lag
	@for w in 2 4; do $(BUILD)/bench/join_lag --workers $$w --joins 200 || exit 1; done
