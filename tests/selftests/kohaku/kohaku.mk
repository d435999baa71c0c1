# The runtime + uapi tests (a kselftest directory: README.md), as the
# project builds them: written once, run on the sim backend in-process and
# on the kernel backend in the VM.  Every binary links libkohaku
# statically, so the static build runs under busybox.  The kselftest
# harness header comes from Debian's linux-source-6.12 (tests/selftests/
# kselftest.mk); Makefile here is the kernel's convention for the same.
include tests/selftests/kohaku/progs.mk

RT_TEST_DIR := $(BUILD)/tests/selftests/kohaku
RT_TEST_BINS := $(addprefix $(RT_TEST_DIR)/,$(RT_TEST_NAMES))
RT_TEST_COMMON_OBJS := $(call obj,tests/selftests/kohaku/rt_common.c $(CHECK_SRCS))

$(RT_TEST_BINS): $(RT_TEST_DIR)/%: $(call obj,tests/selftests/kohaku/%.c) \
		$(RT_TEST_COMMON_OBJS) $(BUILD)/libkohaku-asm.a $(BUILD)/libkohaku.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

TEST_BINS += $(RT_TEST_BINS)

# rt_pci calls kohaku_pci_list(), so it links libpciaccess (runtime.mk)
$(RT_TEST_DIR)/rt_pci: LDLIBS := $(RT_PCI_LIBS) $(LDLIBS)
