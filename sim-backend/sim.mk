include sim-backend/sources.mk
SIM_SRCS += $(addprefix sim-backend/,$(KH_SIM_SOURCES))
