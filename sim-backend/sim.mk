include sim-backend/sources.mk
SIM_SRCS += $(addprefix sim-backend/,$(KH_SIM_SOURCES))
# userspace only: the stderr half of the platform shim
SIM_SRCS += sim-backend/lib/plat_user.c
