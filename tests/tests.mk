# Test binaries.  Each suite's fragment adds its binaries to TEST_BINS;
# tests/run-all.sh finds them by directory under $(BUILD)/tests/.
TAP_SRCS := tests/tap.c

-include tests/model/model.mk
-include tests/unit/unit.mk
include tests/selftests/kselftest.mk
-include tests/selftests/kohaku/kohaku.mk
-include tests/fuzz/fuzz.mk
