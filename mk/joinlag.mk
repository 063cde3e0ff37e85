# Join lag (issue #13): how long a join stays busy after its stolen child
# finished, with unrelated 1 ms work available.  `make bench-join-lag`.
# After each join_lag run, wake_lag runs the same shape in plain threads (no
# fj): its lag is the operating system's part, the floor under join_lag's.
.PHONY: bench-join-lag
$(BUILD)/bench/join_lag: bench/join_lag.c bench/spin_clock.h $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS)
$(BUILD)/bench/wake_lag: bench/wake_lag.c bench/spin_clock.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS)
bench-join-lag: $(BUILD)/bench/join_lag $(BUILD)/bench/wake_lag
	@for w in 2 4; do $(BUILD)/bench/join_lag --workers $$w --joins 200 || exit 1; \
	  $(BUILD)/bench/wake_lag --threads $$w --wakes 200 || exit 1; done
