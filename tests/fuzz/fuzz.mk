# The libFuzzer targets (`make fuzz`; tests/fuzz/README.md), built with
# clang -fsanitize=fuzzer,address,undefined: each target and the code under
# it instrumented (objects of their own, with each directory's include
# paths, layers.mk), nothing else.  `make test` runs each for a fixed
# number of executions and replays every saved crash input
# (tests/run-all.sh).
#
#   fuzz_fw_image  the POOL firmware image parser (driver/core)
#   fuzz_desc      the card-description parser (the model)
#   fuzz_knobs     the model's command and fault-knob parser
#   fuzz_xdma      the card's XDMA engine (descriptors, registers)
#   fuzz_ioctl     the driver core's ioctls in sequences, on two files of a
#                  simulated card (libkohaku's in-process host)
#   fuzz_artifact  compiler artifacts: libkohaku's JSON reader and artifact
#                  parser, and what parses run on a simulated saxpy card
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	$(FUZZ_SAN) $(DRM_CFLAGS)
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_TARGETS := fuzz_fw_image fuzz_desc fuzz_knobs fuzz_xdma fuzz_ioctl \
	fuzz_artifact
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))
FUZZ_SRCS.fuzz_fw_image := driver/core/kh_fw_image.c
FUZZ_LIBS.fuzz_fw_image := -lz
FUZZ_SRCS.fuzz_desc := $(SIM_SRCS)
FUZZ_SRCS.fuzz_knobs := $(SIM_SRCS)
FUZZ_SRCS.fuzz_xdma := $(SIM_SRCS)
FUZZ_SRCS.fuzz_ioctl := $(SIM_SRCS) $(CORE_SRCS) $(RT_SRCS)
FUZZ_LIBS.fuzz_ioctl := $(RT_PCI_LIBS) $(DRM_LIBS) -lz -lpthread
FUZZ_SRCS.fuzz_artifact := $(SIM_SRCS) $(CORE_SRCS) $(RT_SRCS)
FUZZ_LIBS.fuzz_artifact := $(RT_PCI_LIBS) $(DRM_LIBS) -lz -lpthread
fuzz_obj = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))

.PHONY: fuzz
fuzz: $(FUZZ_BINS)

# the code under test: coverage and the sanitizers, libFuzzer's main not
$(FUZZ_DIR)/obj/%.o: %.c | kh-check-headers
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(call src_includes,$<) \
		-MMD -MP -c -o $@ $<

.SECONDEXPANSION:
$(FUZZ_BINS): $(FUZZ_DIR)/%: $(FUZZ_DIR)/obj/tests/fuzz/%.o $$(call fuzz_obj,$$(FUZZ_SRCS.$$*))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS.$*) -lm
