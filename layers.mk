# Include paths per source directory: which layers each directory's sources
# may see.  Shared by the Makefile (userspace), Kbuild (the modules) and
# tests/model/mutate.sh, so the rules are written once.
#
# The model and the driver meet only at the register-access seam (hwif/):
# a header across it is not on the path, so including one fails to build
# (#include "..." still finds headers next to the source file).  Every
# directory with sources has a line; a source in a directory without one
# stops the build (kh_incdirs below) rather than building with no rules.
#
# INCDIRS.<dir> lists directories relative to the top of the tree.

# the device model: a folder per concern (docs/model.md "Where things
# live"), each seeing only the floors below it, and the faces at the top
# of sim-backend/ (ksim.h, ksim_int.h, ksim_hw.h, ksim_unit.h,
# ksim_plat.h):
#   lib <- noc <- units <- mesh <- xdma <- obs <- card <- the faces
# A floor's path is its own folder and every folder below it, so that an
# include of a higher floor's header fails to build; the parts reach
# upward only through the handles and ops tables they are given when the
# card builds them (docs/model.md "Wiring").  The top of sim-backend/ is
# on every path for ksim_plat.h and ksim_unit.h, the two faces every floor
# may include; scripts/check-model-floors.sh checks that no floor below
# card/ includes the card's faces (ksim.h, ksim_int.h, ksim_hw.h), that
# each floor includes only its own folder and the floors below, and that
# these paths are the floors.  units/'s subfolders (one unit each) see the
# units floor and their own folder (a file's own directory comes first),
# never one another.  Model headers are included by their bare name
# ("link.h"), from the folders on the path, which are given with -iquote
# (kh_incflags below) so that a system header such as <sched.h> or
# <link.h> never finds a model header of the same name.
KSIM_FLOOR.lib := sim-backend sim-backend/lib
KSIM_FLOOR.noc := $(KSIM_FLOOR.lib) sim-backend/noc
KSIM_FLOOR.units := $(KSIM_FLOOR.noc) sim-backend/units
KSIM_FLOOR.mesh := $(KSIM_FLOOR.units) sim-backend/mesh
KSIM_FLOOR.xdma := $(KSIM_FLOOR.mesh) sim-backend/xdma
KSIM_FLOOR.obs := $(KSIM_FLOOR.xdma) sim-backend/obs
KSIM_FLOOR.card := $(KSIM_FLOOR.obs) sim-backend/card
# the whole model, for its hosts and its tests
KSIM_ALL := $(KSIM_FLOOR.card)

# the top holds the adapter to the seam (ksim_hw.c), which sees everything
INCDIRS.sim-backend := uapi hwif $(KSIM_ALL)
INCDIRS.sim-backend/lib := uapi hwif $(KSIM_FLOOR.lib)
INCDIRS.sim-backend/noc := uapi hwif $(KSIM_FLOOR.noc)
INCDIRS.sim-backend/units := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/units/pool := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/units/cpu := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/units/dxa := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/units/mat := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/units/vec := uapi hwif $(KSIM_FLOOR.units)
INCDIRS.sim-backend/mesh := uapi hwif $(KSIM_FLOOR.mesh)
INCDIRS.sim-backend/xdma := uapi hwif $(KSIM_FLOOR.xdma)
INCDIRS.sim-backend/obs := uapi hwif $(KSIM_FLOOR.obs)
INCDIRS.sim-backend/card := uapi hwif $(KSIM_FLOOR.card)

# the OS-neutral driver core
INCDIRS.driver/core := uapi hwif driver/core
# driver/core is kernel code: its userspace builds (libkohaku, its unit tests
# and fuzz targets) find the kernel's headers it includes in the in-process
# host's folder (libruntime/inproc/include/README.md), ahead of their own
# paths.  USER_INCDIRS is the Makefile's only: Kbuild builds against the
# kernel's headers.
USER_INCDIRS.driver/core := libruntime/inproc/include
USER_INCDIRS.libruntime/inproc := libruntime/inproc/include
USER_INCDIRS.libruntime/daemon := libruntime/inproc/include
USER_INCDIRS.tests/unit := libruntime/inproc/include
USER_INCDIRS.tests/fuzz := libruntime/inproc/include

# the two kernel hosts: kohaku.ko (driver/linux) hosts the driver core,
# kohaku_sim.ko (driver/sim) hosts the model
INCDIRS.driver/linux := uapi hwif driver/core
INCDIRS.driver/sim := uapi hwif $(KSIM_ALL)
# the third host of the model: QEMU's kohaku-pcie device (qemu/, built by
# scripts/build-qemu.sh inside QEMU's tree), which sees only the model's
# public face: ksim.h and the host types it includes (xdma/host.h)
INCDIRS.qemu := uapi hwif sim-backend sim-backend/xdma

# libkohaku and the CLI see only the ABI; libruntime/inproc/ is the
# in-process host, which runs the driver core and the model side by side.
INCDIRS.libruntime := uapi libruntime
INCDIRS.libruntime/cli := uapi libruntime
INCDIRS.libruntime/inproc := uapi hwif libruntime driver/core $(KSIM_ALL)
# kohakud: the in-process host's devices (libruntime's internals) and its
# caller seam (<kh_os_caller.h>), not the core's nor the model's headers
INCDIRS.libruntime/daemon := uapi hwif libruntime

# tests: each suite sees the layer it tests
INCDIRS.tests/model := uapi hwif $(KSIM_ALL) tests/selftests/kohaku
INCDIRS.tests/unit := uapi hwif driver/core libruntime/inproc tests/selftests/kohaku
INCDIRS.tests/selftests/kohaku := uapi libruntime
# the fuzz targets: the image parser (a driver/core file) alone, the model,
# libkohaku's API
INCDIRS.tests/fuzz := uapi hwif driver/core $(KSIM_ALL) libruntime

# the POOL firmware (RV32IM, freestanding: its own <linux/types.h>) and
# the host tools that pack it
INCDIRS.firmware := firmware/include uapi firmware
INCDIRS.firmware/tools := uapi firmware/tools

# the model benchmark and kh-trace drive the model's internals directly;
# the driver benchmark (kh_bench_jobs) uses libkohaku's public API
INCDIRS.bench := uapi hwif $(KSIM_ALL) libruntime
INCDIRS.tools := uapi hwif $(KSIM_ALL) libruntime/cli

# $(call kh_incdirs,DIR): DIR's include directories, or a build error.
kh_incdirs = $(or $(INCDIRS.$(1)),$(error layers.mk: no include paths for $(1)/: add INCDIRS.$(1)))
# $(call kh_incflags,DIR,PREFIX): the compiler flags for them, each
# directory below PREFIX (the top of the tree, or Kbuild's $(src)/): the
# model's folders by -iquote, the rest by -I.
kh_incflags = $(foreach d,$(call kh_incdirs,$(1)),$(if $(filter sim-backend%,$(d)),-iquote $(2)$(d),-I$(2)$(d)))
