# The kernel's kselftest harness, from Debian's linux-source-6.12 (the
# tarball /usr/src/linux-source-6.12.tar.xz; `make deps` installs it):
# extracted once into build/kselftest/ as the skeleton of a kernel tree
# (tools/testing/selftests/{kselftest_harness.h,kselftest.h,lib.mk,
# Makefile,kselftest/} and scripts/subarch.include), shared by every
# $(BUILD).  Nothing of it is kept in our tree.  KSFT_SRC=<a kernel tree>
# takes the files from an unpacked kernel instead.
KSFT_TARBALL ?= $(lastword $(sort $(wildcard /usr/src/linux-source-6.12*.tar.xz)))
KSFT_TREE := build/kselftest
KSFT_DIR := $(KSFT_TREE)/tools/testing/selftests
KSFT_HDRS := $(KSFT_DIR)/kselftest_harness.h $(KSFT_DIR)/kselftest.h
# a directory beside the headers, so that "../kselftest_harness.h" finds them
KSFT_INC := $(KSFT_DIR)/kselftest
KSFT_FILES := tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest.h tools/testing/selftests/lib.mk \
	tools/testing/selftests/Makefile tools/testing/selftests/kselftest \
	scripts/subarch.include

$(KSFT_HDRS): | $(KSFT_TREE)/.extracted
$(KSFT_TREE)/.extracted:
	@rm -rf $(KSFT_TREE) && mkdir -p $(KSFT_TREE)
ifneq ($(KSFT_SRC),)
	cd $(KSFT_SRC) && cp -r --parents $(KSFT_FILES) $(CURDIR)/$(KSFT_TREE)/
else
	@[ -n "$(KSFT_TARBALL)" ] || { \
		echo "The tests need the kernel's kselftest harness from Debian's" \
		     "linux-source-6.12: apt-get install linux-source-6.12 (make deps)," \
		     "or KSFT_SRC=<an unpacked kernel tree>" >&2; exit 1; }
	tar -xJf $(KSFT_TARBALL) -C $(KSFT_TREE) --strip-components=1 \
		--wildcards $(addprefix '*/',$(KSFT_FILES))
endif
	touch $@
