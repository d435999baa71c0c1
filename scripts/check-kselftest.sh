#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-kselftest.sh: the uapi + runtime tests (tests/selftests/kohaku) the
# kernel's way.  In a skeleton kernel tree (build/kselftest: the selftests
# Makefile, lib.mk, the harness and runner from Debian's linux-source-6.12,
# tests/selftests/kselftest.mk) the directory is copied to
# tools/testing/selftests/kohaku, as a user would, and
#
#	make -C tools/testing/selftests TARGETS=kohaku run_tests
#
# builds it against libkohaku installed into a temporary DESTDIR (found
# through pkg-config alone) and runs every binary through the kernel's
# runner on the simulated card in-process (KOHAKU_BACKEND=sim, the saxpy
# card).  TAP; a suite of `make test` (tests/run-all.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
MAKE=${MAKE:-make}
# Run from `make -jN test`, this script's makes would inherit a jobserver
# whose descriptors its parent did not pass down ("jobserver unavailable"
# on stderr, which the build-log check below would count as a warning):
# they are makes of their own, as a developer's in a kernel tree would be.
unset MAKEFLAGS MFLAGS MAKELEVEL

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-ksft.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/root
k=$tmp/linux
sel=$k/tools/testing/selftests

if $MAKE --no-print-directory build/kselftest/.extracted >"$tmp/out" 2>&1 &&
	cp -r build/kselftest "$k" && cp -r tests/selftests/kohaku "$sel/kohaku"; then
	ok "a kernel tree's selftests skeleton with tools/testing/selftests/kohaku"
else
	nok "a kernel tree's selftests skeleton"
	sed 's/^/# /' "$tmp/out" | tail -n 20
	echo "1..$n"
	exit 1
fi

if $MAKE --no-print-directory install DESTDIR="$d" PREFIX=/usr >"$tmp/out" 2>&1; then
	ok "libkohaku installed into a DESTDIR (PREFIX=/usr)"
else
	nok "libkohaku installed into a DESTDIR"
	sed 's/^/# /' "$tmp/out" | tail -n 20
fi
# pkg-config sees the install as a sysroot, in which the system's libdrm
# is, as it would be in a real root (check-install.sh does the same)
ma=$(${CC:-cc} -print-multiarch 2>/dev/null)
for l in usr/include/libdrm ${ma:+usr/lib/$ma}; do
	[ -e "/$l" ] && [ ! -e "$d/$l" ] && ln -s "/$l" "$d/$l"
done
export PKG_CONFIG_SYSROOT_DIR="$d"
export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig"
export LD_LIBRARY_PATH="$d/usr/lib"

want=$($MAKE -s --no-print-directory -f tests/selftests/kohaku/progs.mk \
	--eval 'p:;@echo $(filter-out $(RT_TEST_INTERNAL),$(RT_TEST_NAMES))' p | wc -w)

if $MAKE -C "$sel" TARGETS=kohaku >"$tmp/build.log" 2>&1; then
	ok "make -C tools/testing/selftests TARGETS=kohaku (builds $want binaries)"
else
	nok "make -C tools/testing/selftests TARGETS=kohaku"
	sed 's/^/# /' "$tmp/build.log" | tail -n 30
fi
if grep -E 'warning:' "$tmp/build.log" >"$tmp/warn"; then
	nok "the kselftest build has no warning"
	sed 's/^/# /' "$tmp/warn" | head -n 20
else
	ok "the kselftest build has no warning"
fi

KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=saxpy KOHAKU_SIM_CHECK=1 \
	KOHAKU_FIRMWARE_PATH="$top/build/firmware" \
	KOHAKU_TEST_FW="$top/build/firmware/pool.fw" \
	$MAKE -C "$sel" TARGETS=kohaku run_tests >"$tmp/run.log" 2>&1
passed=$(grep -cE '^ok [0-9]+ selftests: kohaku: ' "$tmp/run.log")
failed=$(grep -cE '^not ok [0-9]+ selftests: kohaku: ' "$tmp/run.log")
cases=$(grep -cE '^# ok [0-9]+ rt\.' "$tmp/run.log")
if [ "$passed" -eq "$want" ] && [ "$failed" -eq 0 ]; then
	ok "run_tests: $passed of $want binaries pass through the kernel's runner ($cases tests)"
else
	nok "run_tests: $passed of $want binaries passed, $failed failed"
	grep -E '^(not ok|# not ok|#   FAILED)' "$tmp/run.log" | head -n 30 | sed 's/^/# /'
fi
echo "1..$n"
[ "$passed" -eq "$want" ] && [ "$failed" -eq 0 ]
