# libkohaku (the runtime, both backends, the driver core's userspace OS shim)
# and the kohaku CLI.  The library also links the model (SIM_SRCS) and the
# driver core (CORE_SRCS); see the top Makefile.
RT_SRCS += \
	libruntime/kohaku.c \
	libruntime/program.c \
	libruntime/backend_kernel.c \
	libruntime/backend_sim.c \
	libruntime/sim_knobs.c \
	libruntime/kh_os_user.c
CLI_SRCS += libruntime/cli/kohaku_cli.c
