# Test binaries.  Each suite's fragment adds its binaries to TEST_BINS;
# tests/run-all.sh finds them by directory under $(BUILD)/tests/.
# Every suite's tests run on the kernel's kselftest harness with the
# checks of tests/selftests/kohaku/check.[ch] (harness.h there).
CHECK_SRCS := tests/selftests/kohaku/check.c

-include tests/model/model.mk
-include tests/unit/unit.mk
include tests/selftests/kselftest.mk
-include tests/selftests/kohaku/kohaku.mk
-include tests/fuzz/fuzz.mk

# "../kselftest_harness.h", as in a kernel tree, from the extracted copy
# (kselftest.mk), as a system header: its internals are not written for
# -Wextra; FIXTURE_SETUP defines functions without prototypes
KH_TEST_SRCS := $(wildcard tests/model/*.c tests/unit/*.c tests/selftests/kohaku/*.c)
$(call obj,$(KH_TEST_SRCS)): CFLAGS += -isystem $(KSFT_INC) -Wno-missing-prototypes
$(call obj,$(KH_TEST_SRCS)): | $(KSFT_HDRS)
