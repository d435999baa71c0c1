CORE_SRCS += $(wildcard driver/core/*.c)
