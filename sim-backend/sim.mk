SIM_SRCS += $(wildcard sim-backend/*.c)
