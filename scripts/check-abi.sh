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
# backend, cards saxpy and pool.  Then a real old binary: one built as
# with libkohaku 0.1 (tests/abi/old_binary.c, bound at KOHAKU_0) runs
# against this library, a canary after its structs.  docs/runtime.md
# "Binary compatibility".
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
# ---- a binary built as with libkohaku 0.1 ----
# tests/abi/old_binary.c declares 0.1's calls itself and links against a
# stand-in libkohaku.so.0 with version node KOHAKU_0 alone, so the binary
# binds kohaku_get_info@KOHAKU_0 as one built with 0.1 does; it runs
# against BUILD's library.
mkdir -p "$tmp/stub"
cat >"$tmp/stub/stub.c" <<'EOC'
int kohaku_open(void) { return -1; }
void kohaku_close(void) { }
const char *kohaku_version(void) { return "stub"; }
int kohaku_get_info(void) { return -1; }
int kohaku_nodes(void) { return -1; }
EOC
printf 'KOHAKU_0 { global: kohaku_open; kohaku_close; kohaku_version; kohaku_get_info; kohaku_nodes; local: *; };\n' \
	>"$tmp/stub/v0.map"
# shellcheck disable=SC2086
if $CC -shared -fPIC -Wl,-soname,libkohaku.so.0 -Wl,--version-script="$tmp/stub/v0.map" \
	-o "$tmp/stub/libkohaku.so" "$tmp/stub/stub.c" >"$tmp/cc" 2>&1 &&
   $CC -std=gnu11 -O2 -Wall -Wextra -Werror -Iuapi $drm -o "$tmp/old_binary" \
	tests/abi/old_binary.c -L"$tmp/stub" -lkohaku >>"$tmp/cc" 2>&1; then
	n=$((n + 1))
	echo "ok $n - tests/abi/old_binary.c built against a KOHAKU_0-only libkohaku.so.0"
else
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - tests/abi/old_binary.c built against a KOHAKU_0-only libkohaku.so.0"
	sed 's/^/# /' "$tmp/cc" | head -n 20
fi
if [ -x "$tmp/old_binary" ]; then
	bound=$(objdump -T "$tmp/old_binary" 2>/dev/null |
		sed -n 's/.*[ (]KOHAKU_0)\{0,1\}[[:space:]]*\(kohaku_[a-z_]*\)$/\1/p' | sort | tr '\n' ' ')
	n=$((n + 1))
	case $bound in
	*kohaku_get_info*kohaku_nodes*)
		echo "ok $n - the binary binds at KOHAKU_0: $bound" ;;
	*)
		fail=$((fail + 1))
		echo "not ok $n - the binary binds kohaku_get_info and kohaku_nodes at KOHAKU_0 (it binds: $bound)" ;;
	esac
	for map in saxpy pool; do
		LD_LIBRARY_PATH=$(cd "$build" && pwd) "$tmp/old_binary" "$map" \
			>"$tmp/out" 2>&1
		rc=$?
		while IFS= read -r line; do
			case $line in
			"ok "*|"not ok "*)
				n=$((n + 1))
				st=${line%% [0-9]*}
				[ "$st" = "not ok" ] && fail=$((fail + 1))
				echo "$st $n - 0.1 binary, $map: ${line#* - }" ;;
			1..*) ;;
			*) echo "# $line" ;;
			esac
		done <"$tmp/out"
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$tmp/out"; then
			n=$((n + 1))
			fail=$((fail + 1))
			echo "not ok $n - 0.1 binary, $map: exited with status $rc"
		fi
	done
fi

echo "1..$n"
[ "$fail" -eq 0 ]
