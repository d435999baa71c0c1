# The model benchmark (not a test): simulated cycles per second, saturated
# and idle, against a baseline measured in the same run.  `make bench`.
# Like the model tests it links the model objects directly.
BENCH_BINS += $(BUILD)/bench/kh_bench

$(BUILD)/bench/kh_bench: $(BUILD)/obj/bench/kh_bench.o \
		$(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

bench: $(BUILD)/bench/kh_bench
	$(BUILD)/bench/kh_bench $(BENCH_ARGS)
