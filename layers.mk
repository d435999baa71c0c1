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

# the device model (sim-backend/, its network on chip in sim-backend/noc/)
# and the OS-neutral driver core
INCDIRS.sim-backend := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units/pool := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units/cpu := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units/dxa := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units/mat := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/units/vec := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/xdma := uapi hwif sim-backend sim-backend/noc
INCDIRS.sim-backend/noc := uapi hwif sim-backend sim-backend/noc
INCDIRS.driver/core := uapi hwif driver/core

# driver/linux holds two hosts: kohaku.ko's kohaku_*.c host the driver core,
# kohaku_sim.ko's kohaku_sim*.c host the model (Kbuild tells them apart).
INCDIRS.driver/linux := uapi hwif driver/core
INCDIRS.driver/linux.sim := uapi hwif sim-backend sim-backend/noc

# libkohaku and the CLI see only the ABI; libruntime/inproc/ is the
# in-process host, which runs the driver core and the model side by side.
INCDIRS.libruntime := uapi libruntime
INCDIRS.libruntime/cli := uapi libruntime
INCDIRS.libruntime/inproc := uapi hwif libruntime driver/core sim-backend sim-backend/noc

# tests: each suite sees the layer it tests
INCDIRS.tests/model := uapi hwif sim-backend sim-backend/noc tests/selftests/kohaku
INCDIRS.tests/unit := uapi hwif driver/core libruntime/inproc tests/selftests/kohaku
INCDIRS.tests/selftests/kohaku := uapi libruntime
# the fuzz targets: the image parser (a driver/core file) alone, the model,
# libkohaku's API
INCDIRS.tests/fuzz := uapi hwif driver/core sim-backend sim-backend/noc libruntime

# the POOL firmware (RV32IM, freestanding: its own <linux/types.h>) and
# the host tools that pack it
INCDIRS.firmware := firmware/include uapi firmware
INCDIRS.firmware/tools := uapi firmware/tools

# the model benchmark and kh-trace drive the model's internals directly;
# the driver benchmark (kh_bench_jobs) uses libkohaku's public API
INCDIRS.bench := uapi hwif sim-backend sim-backend/noc libruntime
INCDIRS.tools := uapi hwif sim-backend sim-backend/noc

# $(call kh_incdirs,DIR): DIR's include directories, or a build error.
kh_incdirs = $(or $(INCDIRS.$(1)),$(error layers.mk: no include paths for $(1)/: add INCDIRS.$(1)))
