# Unit tests of driver/core pieces that need no device (linked against libkohaku.a).
UNIT_TESTS := test_core_mem
TEST_BINS += $(addprefix $(BUILD)/tests/unit/,$(UNIT_TESTS))

$(BUILD)/tests/unit/%: $(BUILD)/obj/tests/unit/%.o $(call obj,$(TAP_SRCS)) $(LIBKOHAKU_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
