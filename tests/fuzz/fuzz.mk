# The libFuzzer target of the firmware image parser, built with clang
# (`make fuzz`; `make test` builds and runs it briefly through
# tests/run-all.sh).  Its own rule: libFuzzer needs clang and its
# -fsanitize=fuzzer, and only these two files are instrumented.
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(addprefix -I,$(call kh_incdirs,tests/fuzz)) $(DRM_CFLAGS)
FUZZ_SRCS := tests/fuzz/fuzz_fw_image.c driver/core/kh_fw_image.c
FUZZ_BIN := $(BUILD)/fuzz/fuzz_fw_image

.PHONY: fuzz
fuzz: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard driver/core/*.h uapi/kohaku/*.h uapi/drm/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRCS) -lz
