# libkohaku (the runtime, both backends, the driver core's userspace OS shim)
# and the kohaku CLI.  The library also links the model (SIM_SRCS) and the
# driver core (CORE_SRCS); see the top Makefile.
#
# libruntime/ itself sees only the ABI (uapi/); libruntime/inproc/ is the
# in-process host of the driver core and the model (the sim backend, the
# model's knobs, the core's OS shim), with their include paths (layers.mk).
RT_SRCS += \
	libruntime/errors.c \
	libruntime/device.c \
	libruntime/ioctl.c \
	libruntime/nodes.c \
	libruntime/bo.c \
	libruntime/program.c \
	libruntime/jobs.c \
	libruntime/fences.c \
	libruntime/fw.c \
	libruntime/pool.c \
	libruntime/backend_kernel.c
RT_SRCS += \
	libruntime/inproc/backend_sim.c \
	libruntime/inproc/sim_knobs.c \
	libruntime/inproc/kh_os_user.c \
	libruntime/inproc/kh_os_sync.c \
	libruntime/inproc/kh_os_xa.c \
	libruntime/inproc/kh_os_fence.c \
	libruntime/inproc/kh_os_dma.c \
	libruntime/inproc/inproc_drm.c \
	libruntime/inproc/fw_autoload.c
CLI_SRCS += \
	libruntime/cli/main.c \
	libruntime/cli/output.c \
	libruntime/cli/cmd_list.c \
	libruntime/cli/cmd_info.c \
	libruntime/cli/cmd_run.c \
	libruntime/cli/cmd_pool.c \
	libruntime/cli/cmd_fw.c \
	libruntime/cli/select.c
