# Runtime + uapi tests: written once, run on the sim backend in-process and
# on the kernel backend in the VM (tests/runtime/README.md).  Every binary
# links libkohaku statically, so the static build runs under busybox.
RT_TEST_NAMES := rt_api rt_bo rt_badargs rt_credit rt_multimesh rt_info rt_jobs rt_layout rt_timeout \
	rt_faults rt_fences rt_abi rt_threads rt_fw rt_pool rt_dma rt_pci rt_mat
# the vec unit through libkohaku
RT_TEST_NAMES += rt_vec
# CU_DATA carried by jobs (ABI 0.5)
RT_TEST_NAMES += rt_jobdata
# the DXA unit's slots and copies (ABI 0.5)
RT_TEST_NAMES += rt_dxa
# the cpu unit (rv_pe) through libkohaku
RT_TEST_NAMES += rt_cpu
RT_TEST_BINS := $(addprefix $(BUILD)/tests/runtime/,$(RT_TEST_NAMES))
RT_TEST_COMMON_OBJS := $(BUILD)/obj/tests/runtime/rt_common.o $(BUILD)/obj/tests/tap.o

$(RT_TEST_BINS): $(BUILD)/tests/runtime/%: $(BUILD)/obj/tests/runtime/%.o \
		$(RT_TEST_COMMON_OBJS) $(BUILD)/libkohaku.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

TEST_BINS += $(RT_TEST_BINS)

# rt_pci calls kohaku_pci_list(), so it links libpciaccess (runtime.mk)
$(BUILD)/tests/runtime/rt_pci: LDLIBS := $(RT_PCI_LIBS) $(LDLIBS)
