# Kohaku: kernel driver, runtime and device model for KohakuAccel cards.
#
#   make run      build, then run the saxpy example on the simulated card
#   make test     build everything (userspace, sanitizer and static builds,
#                 kernel modules) and run the whole suite, VM tests included
#   make test-debug  the VM tests on a debug kernel built from
#                 linux-source-6.12 (KASAN, lockdep, UBSAN, kmemleak, fault
#                 injection; cached outside the clone, about 20 min to build
#                 once on 2 cores): scripts/test-debug.sh, docs/linux.md
#   make bench    the model benchmark (bench/kh_bench.c; not a test)
#   make bench-jobs  the driver benchmark (bench/kh_bench_jobs.c; not a test)
#   make bench-iss   the POOL unit's interpreter (bench/kh_bench_iss.c)
#   make bench-kernels  the POOL firmware's vector kernels' inner loops
#                 against the latency table (bench/kh_bench_kernels.c;
#                 needs build/firmware/pool.fw)
#
#   make firmware the POOL firmware and its test images (firmware/README.md;
#                 needs the riscv64-unknown-elf toolchain, `make deps`)
#   make install  [PREFIX=/usr/local DESTDIR=] libkohaku (.a, .so.0), its
#                 headers and kohaku.pc, kohaku, kh-trace, man pages, the
#                 POOL firmware (to /lib/firmware/kohaku/), the udev rule and
#                 the modprobe.d example; make uninstall removes them
#   make modules_install  kohaku.ko and kohaku_sim.ko for $(KVER), depmod
#                 (packaging/install.mk; dkms.conf for dkms)
#   make qemu     Debian's QEMU with the kohaku-pcie device (qemu/): the
#                 card on PCI for kohaku.ko; cached outside the clone
#                 (scripts/build-qemu.sh, docs/linux.md)
#   make vm       a VM with a kohaku-pcie card and the tree's kohaku.ko,
#                 a shell on the console (tests/vm/run-vm-pci.sh --shell)
#
# run and test install missing Debian packages first
# (scripts/install-deps.sh).
# Userspace objects go to $(BUILD); the kernel modules build in place (Kbuild).

BUILD ?= build
SAN ?= 0
STATIC ?= 0

# the kernel the modules are for: Debian 12's 6.12 (linux-image-6.12-amd64,
# make test's), else its stock 6.1 (linux-image-amd64: 6.1.0-N-amd64), the
# newest installed; never the running kernel's by itself (docs/linux.md)
KVER ?= $(or $(shell ls /lib/modules 2>/dev/null | grep 'deb12-amd64$$' | sort -V | tail -n 1),\
	$(shell ls /lib/modules 2>/dev/null | grep -E '^6\.1\.[0-9]+-[0-9]+-amd64$$' | sort -V | tail -n 1))
KDIR ?= /lib/modules/$(KVER)/build

CC ?= gcc
AR ?= ar
PKG_CONFIG ?= pkg-config
DRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
DRM_LIBS := $(shell $(PKG_CONFIG) --libs libdrm 2>/dev/null || echo -ldrm)

# The project's include paths are per source directory (layers.mk): the
# compile rules below add them, ahead of libdrm's.
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes -fno-strict-aliasing
LDLIBS := $(DRM_LIBS) -lz -lpthread -lm
ifeq ($(SAN),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(STATIC),1)
LDFLAGS += -static
endif
PIC_CFLAGS := -fPIC

# The scheduler's per-cycle loop (sim-backend/noc/sched.c) visits every
# awake node each cycle, and its speed moved by a quarter with nothing but
# where its branches fell (make bench, awake-2x2: 23.2 ns/cycle, 29.6 after
# an unrelated change moved the code, 18.8 with this flag; docs/model.md
# "Performance").  Branches kept off 32-byte boundaries (Intel's JCC
# erratum, and the decoded-icache lines of every x86 since Skylake) make
# it independent of what precedes it.  Only this file, where it was
# measured: on the whole model it cost up to 8 % elsewhere.  The loops on
# 32 bytes too: the clock domains' second copy of the step (sched.c) moved
# awake-2x2 from 19.7 to 24.1 ns/cycle with the loops where they fell, and
# to 16.1 with them aligned (baseline 10.0 -> 8.2, saxpy and sat-2x2 the same).
SCHED_CFLAGS := $(shell $(CC) -Wa,-mbranches-within-32B-boundaries -x c \
	-c -o /dev/null /dev/null 2>/dev/null && \
	echo -Wa,-mbranches-within-32B-boundaries) -falign-loops=32
$(BUILD)/obj/sim-backend/noc/sched.o $(BUILD)/pic/sim-backend/noc/sched.o: \
	CFLAGS += $(SCHED_CFLAGS)
# The POOL cores' interpreter (sim-backend/units/pool/iss_exec.c), a
# threaded dispatch whose handlers are tiny: its speed moved by 17 % when
# one handler grew and the others' code, unchanged, fell elsewhere (make
# bench-iss alu1: 0.106 s, 0.125 after the vector handler grew, 0.104 with
# this flag).  Each handler starting on 16 bytes keeps a change to one from
# moving the others.
$(BUILD)/obj/sim-backend/units/pool/iss_exec.o \
$(BUILD)/pic/sim-backend/units/pool/iss_exec.o: CFLAGS += -falign-labels=16

.PHONY: fuzz-run
# every fuzz target for FUZZ_SECONDS each (tests/fuzz/README.md)
FUZZ_SECONDS ?= 60
fuzz-run: fuzz
	sh tests/fuzz/run.sh seconds $(FUZZ_SECONDS)

.PHONY: all deps deps-run deps-debug run test test-debug modules modules-clean clean userspace bench bench-jobs
.PHONY: qemu vm ksim-pic ksim-pic-flags
.DEFAULT_GOAL := all

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
picobj = $(patsubst %.c,$(BUILD)/pic/%.o,$(1))

include layers.mk
# -I flags of the source file $(1): its directory's lines in layers.mk (the
# kernel's headers for driver/core in userspace first: USER_INCDIRS)
src_dir = $(patsubst %/,%,$(dir $(1)))
src_includes = $(addprefix -I,$(USER_INCDIRS.$(call src_dir,$(1)))) \
	$(call kh_incflags,$(call src_dir,$(1)),)

# the one version of the tree (libkohaku's release, the CLI's, kohaku.pc's,
# the dkms package's, the man pages'): kohaku.h's KOHAKU_LIB_VERSION_*
KH_VERSION := $(shell sed -n 's/^\#define KOHAKU_LIB_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\).*/\2/p' \
	libruntime/kohaku.h | paste -sd. -)

LIBKOHAKU_A := $(BUILD)/libkohaku.a
LIBKOHAKU_SO := $(BUILD)/libkohaku.so.0
KOHAKU_CLI := $(BUILD)/kohaku
KOHAKUD := $(BUILD)/kohakud

# Component fragments add their sources and binaries to these.
SIM_SRCS :=
CORE_SRCS :=
RT_SRCS :=
CLI_SRCS :=
TEST_BINS :=
BENCH_BINS :=
TOOL_BINS :=

include sim-backend/sim.mk
include driver/core/core.mk
include libruntime/runtime.mk
include tests/tests.mk
-include bench/bench.mk
-include tools/tools.mk
include firmware/firmware.mk
include packaging/install.mk

LIB_SRCS := $(SIM_SRCS) $(CORE_SRCS) $(RT_SRCS)
# libkohaku.so's objects carry the symbol versions (KH_RT_SYMVER,
# libruntime/rt_internal.h; libruntime/libkohaku.map); libkohaku.a's, and
# every other build of these sources (fuzz), one plain definition per name
$(call picobj,$(RT_SRCS)): CFLAGS += -DKH_RT_SHARED
$(BUILD)/obj/%.o: %.c | kh-check-headers
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call src_includes,$<) $(DRM_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/pic/%.o: %.c | kh-check-headers
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PIC_CFLAGS) $(call src_includes,$<) $(DRM_CFLAGS) \
		-MMD -MP -c -o $@ $<

$(LIBKOHAKU_A): $(call obj,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBKOHAKU_SO): $(call picobj,$(LIB_SRCS)) libruntime/libkohaku.map
	$(CC) -shared -Wl,-soname,libkohaku.so.0 -Wl,--version-script=libruntime/libkohaku.map \
		$(LDFLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)
	ln -sf libkohaku.so.0 $(BUILD)/libkohaku.so

$(KOHAKU_CLI): $(call obj,$(CLI_SRCS)) $(LIBKOHAKU_ASM_A) $(LIBKOHAKU_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(KOHAKUD): $(call obj,$(KOHAKUD_SRCS)) $(LIBKOHAKU_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

userspace: $(LIBKOHAKU_A) $(LIBKOHAKU_ASM_A) $(KOHAKU_CLI) $(KOHAKUD) $(TEST_BINS) $(BENCH_BINS) $(TOOL_BINS)
ifneq ($(SAN),1)
ifneq ($(STATIC),1)
userspace: $(LIBKOHAKU_SO) $(BUILD)/kohaku.pc
endif
endif

# The model as an archive of its PIC objects, compiled with the project's
# flags and layers.mk's paths, for a host built elsewhere: QEMU's
# kohaku-pcie device links it by absolute path (scripts/build-qemu.sh),
# so that no model header meets QEMU's include paths.
KSIM_PIC_A := $(BUILD)/qemu/libksim.a
$(KSIM_PIC_A): $(call picobj,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
ksim-pic: $(KSIM_PIC_A)
# what the archive was compiled with (a part of the QEMU cache's key) and
# the glue's include flags (INCDIRS.qemu), below QEMU_TOP
QEMU_TOP ?= $(CURDIR)
ksim-pic-flags:
	@echo 'cc: $(shell $(CC) --version | head -n 1)'
	@echo 'cflags: $(CFLAGS) $(PIC_CFLAGS) $(SCHED_CFLAGS) $(DRM_CFLAGS)'
	@echo 'glue: $(call kh_incflags,qemu,$(QEMU_TOP)/)'

# QEMU with the device, built once per QEMU version and sources (cached)
qemu:
	scripts/build-qemu.sh build

# a VM with one kohaku-pcie card and the tree's kohaku.ko, a shell on the
# console (ctrl-a x leaves)
vm: qemu modules
	$(MAKE) BUILD=build/static STATIC=1 userspace
	tests/vm/run-vm-pci.sh --shell

# for the default PREFIX; make install writes the one for its PREFIX
$(BUILD)/kohaku.pc: libruntime/kohaku.pc.in libruntime/kohaku.h
	@mkdir -p $(dir $@)
	sed $(KH_PC_SED) $< > $@

all: userspace

deps:
	scripts/install-deps.sh all

deps-run:
	scripts/install-deps.sh run

# only the CLI: the tests' kselftest harness comes with linux-source-6.12,
# which make deps-run does not install
run: deps-run
	$(MAKE) $(KOHAKU_CLI)
	$(KOHAKU_CLI) --backend sim --map saxpy run saxpy

modules: kh-check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules-clean: kh-check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# Clear messages for the common build failures, checked only by the targets
# that need them: the development headers userspace compiles against (once
# per make, before the first object), the kernel headers modules build with.
.PHONY: kh-check-headers kh-check-kdir
kh-check-headers:
	@for h in drm.h:libdrm-dev pciaccess.h:libpciaccess-dev zlib.h:zlib1g-dev json-c/json.h:libjson-c-dev; do \
		echo "#include <$${h%%:*}>" | $(CC) $(DRM_CFLAGS) -E -x c - >/dev/null 2>&1 || { \
		echo "build: <$${h%%:*}> not found: install $${h#*:} (or run scripts/install-deps.sh run, as root)" >&2; \
		exit 1; }; done
kh-check-kdir:
	@test -f $(KDIR)/Makefile || { \
		echo "modules: no kernel headers at KDIR=$(KDIR)$(if $(KVER),, (no Debian 12 kernel under /lib/modules: *deb12-amd64 or 6.1.0-N-amd64))." >&2; \
		echo "modules: install linux-headers-$(or $(KVER),$$(uname -r)) (the running kernel's: linux-headers-$$(uname -r); Debian 12's stock kernel's: linux-headers-amd64; make test's: linux-headers-6.12-amd64, scripts/install-deps.sh all)," >&2; \
		echo "modules: or name a kernel: make modules KVER=<release> or KDIR=<configured kernel tree>" >&2; \
		exit 1; }

test: deps
	$(MAKE) userspace
	$(MAKE) firmware
	$(MAKE) BUILD=build/asan SAN=1 userspace
	$(MAKE) BUILD=build/static STATIC=1 userspace
	$(MAKE) modules W=1
	$(MAKE) fuzz
	$(MAKE) qemu
	tests/run-all.sh

# the debug kernel's packages too (flex, bison, bc, libelf-dev, libssl-dev)
deps-debug:
	scripts/install-deps.sh debug

# make test's builds the VM needs; the kernel and the modules built for it
# are scripts/test-debug.sh's (build/debug)
test-debug: deps-debug
	$(MAKE) userspace
	$(MAKE) firmware
	$(MAKE) BUILD=build/static STATIC=1 userspace
	$(MAKE) qemu
	scripts/test-debug.sh

clean:
	rm -rf build
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1

# the compilers' dependency files (-MMD), not directories such as the VM
# initramfs's udev/rules.d and modprobe.d (below build/vm/root)
-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
