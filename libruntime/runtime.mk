# libkohaku (the runtime, both backends, the kernel's names for the driver core)
# and the kohaku CLI.  The library also links the model (SIM_SRCS) and the
# driver core (CORE_SRCS); see the top Makefile.
#
# libruntime/ itself sees only the ABI (uapi/); libruntime/inproc/ is the
# in-process host of the driver core and the model (the sim backend, the
# model's knobs, include/ and kh_os_*.c: the kernel's headers the driver
# core is built against in userspace and their implementation), with their
# include paths (layers.mk).
RT_SRCS += \
	libruntime/errors.c \
	libruntime/version.c \
	libruntime/backend.c \
	libruntime/device.c \
	libruntime/ioctl.c \
	libruntime/nodes.c \
	libruntime/bo.c \
	libruntime/program.c \
	libruntime/jobs.c \
	libruntime/fences.c \
	libruntime/fw.c \
	libruntime/pool.c \
	libruntime/mat.c \
	libruntime/backend_kernel.c \
	libruntime/backend_daemon.c \
	libruntime/pci.c
RT_SRCS += \
	libruntime/inproc/backend_sim.c \
	libruntime/inproc/sim_knobs.c \
	libruntime/inproc/kh_os_user.c \
	libruntime/inproc/kh_os_mutex.c \
	libruntime/inproc/kh_os_wait.c \
	libruntime/inproc/kh_os_workqueue.c \
	libruntime/inproc/kh_os_xa.c \
	libruntime/inproc/kh_os_fence.c \
	libruntime/inproc/kh_os_dma.c \
	libruntime/inproc/inproc_drm.c \
	libruntime/inproc/fw_autoload.c
# the vec unit's builders and `kohaku run vec-demo`
RT_SRCS += libruntime/vec.c
CLI_SRCS += libruntime/cli/demo_vec.c
# the DXA unit's slots and builders, `kohaku dxa` and `kohaku run dxa-copy`
RT_SRCS += libruntime/dxa.c
CLI_SRCS += libruntime/cli/cmd_dxa.c libruntime/cli/demo_dxa.c
# a mesh's clocks and resets, `kohaku clocks` and `kohaku reset`
RT_SRCS += libruntime/clocks.c
CLI_SRCS += libruntime/cli/cmd_clocks.c
# the cpu unit's builders, and `kohaku run cpu-demo`
RT_SRCS += libruntime/cpu.c
CLI_SRCS += libruntime/cli/demo_cpu.c
# the cpu unit's RV32I encoders and assembler (kohaku-asm.h): a static
# library of their own, outside libkohaku.so's API; the CLI and the
# runtime tests link it ahead of libkohaku
ASM_SRCS := libruntime/rv_asm.c
LIBKOHAKU_ASM_A := $(BUILD)/libkohaku-asm.a
$(LIBKOHAKU_ASM_A): $(call obj,$(ASM_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
# compiler artifacts (docs/spec/artifact.md): a strict JSON reader with
# big integers, the parser, the check and the run; `kohaku run-artifact`
RT_SRCS += libruntime/json.c libruntime/artifact.c libruntime/artifact_run.c
CLI_SRCS += libruntime/cli/cmd_artifact.c
# a Container Device Interface spec of kohaku.ko's nodes, `kohaku cdi`
CLI_SRCS += libruntime/cli/cmd_cdi.c
CLI_SRCS += \
	libruntime/cli/main.c \
	libruntime/cli/usage.c \
	libruntime/cli/args.c \
	libruntime/cli/cmd_version.c \
	libruntime/cli/output.c \
	libruntime/cli/cmd_list.c \
	libruntime/cli/cmd_info.c \
	libruntime/cli/demo.c \
	libruntime/cli/demo_saxpy.c \
	libruntime/cli/demo_pool.c \
	libruntime/cli/demo_mat.c \
	libruntime/cli/cmd_fw.c \
	libruntime/cli/cmd_validate.c \
	libruntime/cli/cmd_sim.c \
	libruntime/cli/cmd_top.c \
	libruntime/cli/select.c \
	libruntime/cli/progress.c \
	libruntime/cli/json_put.c

# libpciaccess: only pci.c (kohaku_pci_list) uses it.  A program linked
# with libkohaku.a pulls pci.o, and so needs RT_PCI_LIBS, only when it calls
# kohaku_pci_*: the CLI does (`kohaku list`), as do the tests of the
# listing; nothing else links libpciaccess.  libkohaku.so holds every
# object, so it depends on libpciaccess.so.0.  Static builds take
# pkg-config's --static list (libpciaccess.a needs -lz).
RT_PCI_PC := $(if $(filter 1,$(STATIC)),--static)
RT_PCI_CFLAGS := $(shell $(PKG_CONFIG) --cflags pciaccess 2>/dev/null)
RT_PCI_LIBS := $(shell $(PKG_CONFIG) --libs $(RT_PCI_PC) pciaccess 2>/dev/null || echo -lpciaccess -lz)
$(call obj,libruntime/pci.c) $(call picobj,libruntime/pci.c): CFLAGS += $(RT_PCI_CFLAGS)
$(LIBKOHAKU_SO) $(KOHAKU_CLI): LDLIBS := $(RT_PCI_LIBS) $(LDLIBS)

# json-c: the CLI's --json output (and kh-trace's, tools/tools.mk); libkohaku
# itself does not use it.  Static builds take pkg-config's --static list.
KH_JSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null || echo -I/usr/include/json-c)
KH_JSON_LIBS := $(shell $(PKG_CONFIG) --libs $(RT_PCI_PC) json-c 2>/dev/null || echo -ljson-c)
$(call obj,$(CLI_SRCS)): CFLAGS += $(KH_JSON_CFLAGS)
$(KOHAKU_CLI): LDLIBS := $(KH_JSON_LIBS) $(RT_PCI_LIBS) $(LDLIBS)

# kohakud (libruntime/daemon/, docs/kohakud.md): the simulated cards as a
# service, the daemon backend's other end; a host of the in-process stack,
# linked with libkohaku.a for its internals
KOHAKUD_SRCS := \
	libruntime/daemon/kohakud.c \
	libruntime/daemon/khd_card.c \
	libruntime/daemon/khd_conn.c
