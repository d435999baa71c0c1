# The POOL firmware (firmware/README.md), included by the top Makefile.
#
#   make firmware          $(BUILD)/firmware/pool.elf, pool.fw and the test
#                          images in $(BUILD)/firmware/test/
#   make install-firmware  pool.fw to $(DESTDIR)/lib/firmware/kohaku/pool.fw
#                          (`make install` installs it too when it is built
#                          or the toolchain is there: packaging/install.mk)
#
# The firmware is RV32IM+Zicsr, built with Debian's riscv64-unknown-elf
# toolchain (gcc-riscv64-unknown-elf: `make deps` installs it).  The host
# tools (the packer khfw-pack, khfw-mkbad, khfw-crcgen) are plain userspace
# C and build with everything else, so `make run` needs no riscv toolchain:
# only the firmware target does.

FW_CROSS ?= riscv64-unknown-elf-
FW_CC := $(FW_CROSS)gcc
FW_DIR := $(BUILD)/firmware

# The version: firmware/VERSION, MAJOR.MINOR.PATCH, for the code (the
# mailbox) and the packer (the header) alike.
FW_VERSION := $(strip $(shell cat firmware/VERSION))
FW_VERSION_WORDS := $(subst ., ,$(FW_VERSION))
# KH_FW_PATH, read out of the header: "kohaku/pool.fw"
FW_PATH := $(shell sed -n 's/^\#define KH_FW_PATH[[:space:]]*"\([^"]*\)".*/\1/p' \
	uapi/kohaku/kh_fw.h)

# gcc 12's multilib match does not know _zicsr: compile for rv32im_zicsr,
# link with rv32im so that -lgcc is the rv32im/ilp32 one.
FW_ARCH := -march=rv32im_zicsr -mabi=ilp32
FW_LINK_ARCH := -march=rv32im -mabi=ilp32
FW_CFLAGS := $(FW_ARCH) -std=gnu11 -O2 -g -ffreestanding -nostdlib \
	-fno-pic -mcmodel=medlow -mstrict-align -fno-common \
	-fno-tree-loop-distribute-patterns -fno-stack-protector \
	-Wall -Wextra -Wno-unused-parameter -Wmissing-prototypes \
	-Wstrict-prototypes \
	-DFW_VERSION_MAJOR=$(word 1,$(FW_VERSION_WORDS)) \
	-DFW_VERSION_MINOR=$(word 2,$(FW_VERSION_WORDS)) \
	-DFW_VERSION_PATCH=$(word 3,$(FW_VERSION_WORDS))
FW_INCLUDES = $(addprefix -I,$(call kh_incdirs,firmware)) -I$(FW_DIR)/gen
FW_LDFLAGS := $(FW_LINK_ARCH) -nostdlib -nostartfiles -static \
	-Wl,-T,$(FW_DIR)/pool.ld

FW_C_SRCS := firmware/main.c firmware/kernels.c firmware/vkernels.c \
	firmware/crc32.c \
	firmware/lib.c
FW_OBJS := $(FW_DIR)/obj/start.o $(patsubst firmware/%.c,$(FW_DIR)/obj/%.o,$(FW_C_SRCS))
FW_GEN := $(FW_DIR)/gen/fw_consts.h $(FW_DIR)/gen/crc32_tab.h

# the host tools: userspace, with the rest of the project's C
KHFW_PACK := $(FW_DIR)/khfw-pack
KHFW_MKBAD := $(FW_DIR)/khfw-mkbad
KHFW_CRCGEN := $(FW_DIR)/khfw-crcgen
KHFW_LIB := $(BUILD)/obj/firmware/tools/khfw.o
TOOL_BINS += $(KHFW_PACK) $(KHFW_MKBAD) $(KHFW_CRCGEN)

KHFW_OBJS := $(patsubst %,$(BUILD)/obj/firmware/tools/%.o,khfw khfw-pack \
	khfw-mkbad khfw-crcgen)
.SECONDARY: $(KHFW_OBJS)

$(FW_DIR)/khfw-%: $(BUILD)/obj/firmware/tools/khfw-%.o $(KHFW_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

# the test images the driver's tests load (firmware/README.md)
FW_TEST_ASM := never-ready trap-boot
FW_TEST_BAD := truncated bad-magic bad-crc bad-section-crc section-oob \
	overlap entry-outside api-major oversize mailbox version-mismatch
FW_TEST_IMAGES := $(addprefix $(FW_DIR)/test/,$(addsuffix .fw,$(FW_TEST_ASM) $(FW_TEST_BAD))) \
	$(FW_DIR)/test/idle-writer.fw $(FW_DIR)/test/rogue.fw

.PHONY: firmware install-firmware fw-toolchain

firmware: fw-toolchain $(FW_DIR)/pool.fw $(FW_DIR)/$(FW_PATH) $(FW_TEST_IMAGES) \
	$(FW_DIR)/test/pv-enc.ok

# pv.h's intrinsics against kh_pool_vec.h's encodings, word for word
# (firmware/test/pv-enc.c): a drift stops the build
$(FW_DIR)/test/pv-enc.ok: firmware/test/pv-enc.c firmware/pv.h firmware/fw.h \
		uapi/kohaku/kh_pool_vec.h firmware/tools/pv-enc-check.sh
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_INCLUDES) -Ifirmware -c -o $(FW_DIR)/test/pv-enc.o $<
	sh firmware/tools/pv-enc-check.sh $(FW_CROSS) $(FW_DIR)/test/pv-enc.o
	touch $@

# $(FW_DIR) laid out as a firmware directory (kohaku/pool.fw), for the sim
# backend's KOHAKU_FIRMWARE_PATH search as for the kernel's /lib/firmware
$(FW_DIR)/$(FW_PATH): $(FW_DIR)/pool.fw
	@mkdir -p $(dir $@)
	cp $< $@

fw-toolchain:
	@command -v $(FW_CC) >/dev/null 2>&1 || { \
		echo "firmware: $(FW_CC) not found: 'make deps' (scripts/install-deps.sh all) installs gcc-riscv64-unknown-elf" >&2; \
		exit 1; }

# `make` (all) builds the firmware when the toolchain is there
ifneq ($(shell command -v $(FW_CC) 2>/dev/null),)
all: firmware
endif

$(FW_DIR)/gen/crc32_tab.h: $(KHFW_CRCGEN)
	@mkdir -p $(dir $@)
	$(KHFW_CRCGEN) > $@.tmp && mv $@.tmp $@

# kh_pool.h's numbers for start.S and pool.ld.S (see consts.c)
$(FW_DIR)/gen/fw_consts.h: firmware/consts.c firmware/fw.h \
		uapi/kohaku/kh_pool.h uapi/kohaku/kh_fw.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_INCLUDES) -S -o $@.s $<
	{ echo '/* generated from firmware/consts.c: do not edit */'; \
	  sed -n 's/^[[:space:]]*\.ascii[[:space:]]*"->\([A-Z0-9_]*\) \([-0-9]*\)"/#define \1 \2/p' $@.s; \
	} > $@.tmp && rm -f $@.s && mv $@.tmp $@

$(FW_DIR)/pool.ld: firmware/pool.ld.S $(FW_DIR)/gen/fw_consts.h
	$(FW_CC) -E -P -x c -I$(FW_DIR)/gen -o $@ $<

# VERSION reaches the code as -D flags: a new one rebuilds it
$(FW_DIR)/obj/%.o: firmware/%.c $(FW_GEN) firmware/VERSION
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_INCLUDES) -MMD -MP -c -o $@ $<

$(FW_DIR)/obj/%.o: firmware/%.S $(FW_DIR)/gen/fw_consts.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ARCH) $(FW_INCLUDES) -MMD -MP -c -o $@ $<

$(FW_DIR)/pool.elf: $(FW_OBJS) $(FW_DIR)/pool.ld
	$(FW_CC) $(FW_LDFLAGS) -Wl,-Map,$(FW_DIR)/pool.map -o $@ $(FW_OBJS) -lgcc

$(FW_DIR)/pool.fw: $(FW_DIR)/pool.elf $(KHFW_PACK) firmware/VERSION
	$(KHFW_PACK) -F firmware/VERSION -o $@ $<
	@$(KHFW_PACK) --check $@

.SECONDARY: $(patsubst %,$(FW_DIR)/obj/test/%.o,$(FW_TEST_ASM)) \
	$(patsubst %,$(FW_DIR)/test/%.elf,$(FW_TEST_ASM))

$(FW_DIR)/test/%.elf: $(FW_DIR)/obj/test/%.o $(FW_DIR)/pool.ld
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_LDFLAGS) -o $@ $<

$(addprefix $(FW_DIR)/test/,$(addsuffix .fw,$(FW_TEST_ASM))): \
		$(FW_DIR)/test/%.fw: $(FW_DIR)/test/%.elf $(KHFW_PACK)
	$(KHFW_PACK) -F firmware/VERSION -n $* -o $@ $<

# pool.fw with one core writing DRAM for ever (main.c, FW_TEST_IDLE_WRITER)
$(FW_DIR)/obj/test/idle-writer-main.o: firmware/main.c $(FW_GEN) firmware/VERSION
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_INCLUDES) -DFW_TEST_IDLE_WRITER -c -o $@ $<
$(FW_DIR)/test/idle-writer.elf: $(filter-out $(FW_DIR)/obj/main.o,$(FW_OBJS)) \
		$(FW_DIR)/obj/test/idle-writer-main.o $(FW_DIR)/pool.ld
	$(FW_CC) $(FW_LDFLAGS) -o $@ $(filter %.o,$^) -lgcc
$(FW_DIR)/test/idle-writer.fw: $(FW_DIR)/test/idle-writer.elf $(KHFW_PACK) firmware/VERSION
	$(KHFW_PACK) -F firmware/VERSION -n idle-writer -o $@ $<

# pool.fw whose FILL also writes at w5:w4, outside the job's buffers
# (main.c, FW_TEST_ROGUE): what the unit's bounds must stop
$(FW_DIR)/obj/test/rogue-main.o: firmware/main.c $(FW_GEN) firmware/VERSION
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_INCLUDES) -DFW_TEST_ROGUE -c -o $@ $<
$(FW_DIR)/test/rogue.elf: $(filter-out $(FW_DIR)/obj/main.o,$(FW_OBJS)) \
		$(FW_DIR)/obj/test/rogue-main.o $(FW_DIR)/pool.ld
	$(FW_CC) $(FW_LDFLAGS) -o $@ $(filter %.o,$^) -lgcc
$(FW_DIR)/test/rogue.fw: $(FW_DIR)/test/rogue.elf $(KHFW_PACK) firmware/VERSION
	$(KHFW_PACK) -F firmware/VERSION -n rogue -o $@ $<

$(addprefix $(FW_DIR)/test/,$(addsuffix .fw,$(FW_TEST_BAD))): \
		$(FW_DIR)/test/.bad-stamp
$(FW_DIR)/test/.bad-stamp: $(FW_DIR)/pool.fw $(KHFW_MKBAD)
	@mkdir -p $(dir $@)
	$(KHFW_MKBAD) $< $(dir $@)
	touch $@

install-firmware: firmware
	install -D -m 0644 $(FW_DIR)/pool.fw $(DESTDIR)$(FIRMWAREDIR)/$(FW_PATH)
