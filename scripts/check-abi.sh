#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-abi.sh [BUILD]: libkohaku.so.0 keeps its older callers working.
#
# tests/abi/abi_compat.c, compiled here against kohaku.h but not linked
# with libkohaku, dlopen()s BUILD/libkohaku.so.0 (default build/) and
# calls it as binaries of each release would: libkohaku 0.1's entry points
# by their version node (dlvsym KOHAKU_0: calls without a size, 0.1's
# struct sizes) and the current ones with caller structs smaller and
# bigger than the library's, a canary after each (never overwritten), the
# rest of a bigger one zeroed, arrays at the caller's stride; and that the
# RV32 assembler and the library's insides are not exported.  On the sim
# backend, cards saxpy and pool.  docs/runtime.md "Binary compatibility".
#
# Output is TAP, for tests/run-all.sh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
build=${1:-build}
so=$build/libkohaku.so.0
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$so" ]; then
	echo "ok 1 - libkohaku.so.0 # SKIP not built ($build is a sanitizer or static build)"
	echo "1..1"
	exit 0
fi
drm=$($PKG_CONFIG --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
# shellcheck disable=SC2086
if ! $CC -std=gnu11 -O2 -Wall -Wextra -Werror -Ilibruntime -Iuapi $drm \
	-o "$tmp/abi_compat" tests/abi/abi_compat.c -ldl >"$tmp/cc" 2>&1; then
	echo "not ok 1 - tests/abi/abi_compat.c compiles"
	sed 's/^/# /' "$tmp/cc" | head -n 20
	echo "1..1"
	exit 1
fi

n=0
fail=0
for map in saxpy pool; do
	KOHAKU_FIRMWARE_PATH=$build/firmware "$tmp/abi_compat" "$so" "$map" \
		>"$tmp/out" 2>&1
	rc=$?
	# one numbering for both runs; the card in each description
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			st=${line%% [0-9]*}
			desc=${line#* - }
			[ "$st" = "not ok" ] && fail=$((fail + 1))
			echo "$st $n - $map: $desc" ;;
		1..*) ;;
		*) echo "# $line" ;;
		esac
	done <"$tmp/out"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$tmp/out"; then
		n=$((n + 1))
		fail=$((fail + 1))
		echo "not ok $n - $map: abi_compat exited with status $rc"
	fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
