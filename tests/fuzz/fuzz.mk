# The libFuzzer targets (`make fuzz`; tests/fuzz/README.md), built with
# clang -fsanitize=fuzzer,address,undefined: each target and the code under
# it instrumented, nothing else.  `make test` runs each for a fixed number
# of executions and replays every saved crash input (tests/run-all.sh).
#
#   fuzz_fw_image  the POOL firmware image parser (driver/core)
#   fuzz_desc      the card-description parser (the model)
#   fuzz_knobs     the model's command and fault-knob parser
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(addprefix -I,$(call kh_incdirs,tests/fuzz)) $(DRM_CFLAGS)
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_TARGETS := fuzz_fw_image fuzz_desc fuzz_knobs
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))
FUZZ_SRCS.fuzz_fw_image := driver/core/kh_fw_image.c
FUZZ_LIBS.fuzz_fw_image := -lz
FUZZ_SRCS.fuzz_desc := $(SIM_SRCS)
FUZZ_SRCS.fuzz_knobs := $(SIM_SRCS)

.PHONY: fuzz
fuzz: $(FUZZ_BINS)

.SECONDEXPANSION:
$(FUZZ_BINS): $(FUZZ_DIR)/%: tests/fuzz/%.c $$(FUZZ_SRCS.$$*) tests/fuzz/fuzz_promise.h \
		$(wildcard driver/core/*.h sim-backend/*.h uapi/kohaku/*.h uapi/drm/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/$*.c $(FUZZ_SRCS.$*) $(FUZZ_LIBS.$*) -lm
