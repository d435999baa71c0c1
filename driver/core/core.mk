include driver/core/sources.mk
CORE_SRCS += $(addprefix driver/core/,$(KH_CORE_SOURCES))
