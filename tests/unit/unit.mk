# Unit tests of driver/core pieces that need no device model (linked against
# libkohaku.a).  The bring-up and job-engine tests run the core on the
# scripted fake card of fake_card.c and fake_script.c, through the rig of
# core_rig.c.
UNIT_TESTS := test_core_mem test_core_bringup test_core_jobs test_core_credit \
	test_core_wait test_core_ctrl32 test_fw_image test_lockdep test_shim
UNIT_HELP_SRCS := tests/unit/fake_card.c tests/unit/fake_script.c tests/unit/core_rig.c
TEST_BINS += $(addprefix $(BUILD)/tests/unit/,$(UNIT_TESTS))

$(BUILD)/tests/unit/%: $(BUILD)/obj/tests/unit/%.o $(call obj,$(CHECK_SRCS) $(UNIT_HELP_SRCS)) \
		$(LIBKOHAKU_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
