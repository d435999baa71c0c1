# Model tests: each binary links the model objects, the checks (check.c) and the
# model test helpers directly (not libkohaku.a), so they build and run while
# other components are mid-edit.
MODEL_TESTS := model_routing model_flow model_ctrl model_credits model_dispatch \
	model_fp32 model_sx model_desc model_card model_mag \
	model_mxfp7 model_vec
# the whole card (issue 3): descriptions, meshes, clocks, IRQ, L2
MODEL_TESTS += model_params model_multi model_clk model_irq model_l2
# the meshes at their clock wizard's outputs (docs/model.md "Mesh clocks")
MODEL_TESTS += model_mclk
# the memory side: MAG, apertures, the mover, the interlink
MODEL_TESTS += model_mem model_hostap model_mover model_ilink
# the checker, fault injection, the trace and counters
MODEL_TESTS += model_check model_inject model_trace
# the POOL unit (docs/spec/pool.md): its instruction set, then the unit
MODEL_TESTS += model_pool_iss model_pool
# its bounds, version 2 (docs/spec/pool.md "Bounds")
MODEL_TESTS += model_pool_bounds
# the POOL cores' vector coprocessor (docs/spec/pool-vector.md)
MODEL_TESTS += model_pool_vec model_pool_vsched model_pool_vmem
MODEL_TESTS += model_pool_vtab model_pool_vfp
# its FPU's reference is the host's arithmetic under fesetround: no folding
# or moving of floating-point operations across the rounding mode changes
$(BUILD)/obj/tests/model/model_pool_vfp.o: CFLAGS += -frounding-math
# the cpu unit (rv_pe, docs/spec/cpu.md)
MODEL_TESTS += model_cpu
# the card's DMA engine (docs/spec/xdma.md), the host's 32-bit path to BAR0
MODEL_TESTS += model_xdma model_bar32
# the register tables against the uapi offsets, and their access rules
MODEL_TESTS += model_regs
# the POOL firmware (build/firmware/pool.fw) on the POOL unit
MODEL_TESTS += model_pool_fw
# the matmul cluster (docs/spec/mat.md)
MODEL_TESTS += model_mat
# the DXA addon and its scratch receiver (docs/spec/dxa.md)
MODEL_TESTS += model_dxa
# the model's time against the RTL's (docs/model.md "Timing against the RTL"):
# the saxpy mesh, then each unit's operations alone
MODEL_TESTS += model_timing model_timing_units
MODEL_HELP_SRCS := tests/model/mhelp.c tests/model/tunits.c tests/model/mmesh.c
MODEL_HELP_SRCS += tests/model/mclient.c tests/model/mpool.c tests/model/mtiming.c
MODEL_LINK_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS) $(CHECK_SRCS) $(MODEL_HELP_SRCS))

$(BUILD)/tests/model/%: $(BUILD)/obj/tests/model/%.o $(MODEL_LINK_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

TEST_BINS += $(addprefix $(BUILD)/tests/model/,$(MODEL_TESTS))
