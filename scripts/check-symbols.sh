#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-symbols.sh [BUILD]: libkohaku keeps its insides to itself.
#
# libkohaku links the driver core, the device model and the kernel's names
# the core calls in userspace (libruntime/inproc/include/README.md) into an
# application.  None of that may take a name the application, or another
# library in it, could also define.  Over the built libraries (BUILD,
# default build/):
#
#   1. every global symbol libkohaku.a defines has a layer's prefix:
#      kohaku_ (the API), kh_ (the driver core; kh_rt_ the runtime, kh_os_
#      the in-process host), ksim_ (the model);
#   2. libkohaku.a defines none of the names libruntime/inproc/include
#      provides (mutex_lock, kzalloc, xa_load, dma_fence_signal, ...): each
#      is a macro or a static inline there, over a kh_os_ function;
#   3. the in-process host's implementation of them (kh_os_*.o) defines
#      kh_os_* and the interface driver/core/kh_os.h leaves to its host,
#      nothing else;
#   4. the version script (libruntime/libkohaku.map) names kohaku.h's
#      functions one by one, no wildcard, and none of kohaku-asm.h's RV32
#      assembler (libkohaku-asm.a's, never libkohaku.so's);
#   5. libkohaku.so exports exactly the map's names, each at a version
#      node (KOHAKU_0, KOHAKU_0.2, ...; a changed call keeps its old entry
#      point at the older node), and none of the names of 2.
#
# Output is TAP, for tests/run-all.sh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
build=${1:-build}
a=$build/libkohaku.a
so=$build/libkohaku.so.0

n=0
fail=0
tap() { # ok|fail what [notes file]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		fail=$((fail + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && head -n 20 "$3" | sed 's/^/# /'
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$a" ]; then
	tap fail "$a is built (make userspace)"
	echo "1..$n"
	exit 1
fi

# global symbols defined: "member symbol"
nm -A -g --defined-only "$a" 2>/dev/null |
	sed -n 's/^[^:]*:\([^:]*\):[0-9a-f]* [A-Za-z] \(.*\)$/\1 \2/p' >"$tmp/a"
total=$(wc -l <"$tmp/a")
awk '$2 !~ /^(kohaku_|kh_|ksim_)/' "$tmp/a" >"$tmp/bad"
if [ "$total" -gt 0 ] && [ ! -s "$tmp/bad" ]; then
	tap ok "libkohaku.a: $total global symbols, each kohaku_, kh_ or ksim_"
else
	tap fail "libkohaku.a: $total global symbols, each kohaku_, kh_ or ksim_" "$tmp/bad"
fi

# the names the shim provides: its macros and static inlines
find libruntime/inproc/include -name '*.h' -exec cat {} + |
	sed -n -e 's/^#define[ 	]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' \
	    -e 's/^static inline [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' |
	sort -u >"$tmp/names"
kernel=$(wc -l <"$tmp/names")
awk 'NR == FNR { k[$1] = 1; next } k[$2]' "$tmp/names" "$tmp/a" >"$tmp/bad"
if [ "$kernel" -gt 20 ] && [ ! -s "$tmp/bad" ]; then
	tap ok "libkohaku.a defines none of the $kernel kernel names of libruntime/inproc/include"
else
	tap fail "libkohaku.a defines none of the $kernel kernel names of libruntime/inproc/include" "$tmp/bad"
fi

# the shim's objects: kh_os_*, and what kh_os.h leaves to the host
grep -E '^(int|void|bool|unsigned int) \**kh_[a-z_]+\(' driver/core/kh_os.h |
	sed 's/^[^(]*[ *]\(kh_[a-z_]*\)(.*/\1/' >"$tmp/host"
awk 'NR == FNR { h[$1] = 1; next }
     $1 ~ /^kh_os_/ && $2 !~ /^kh_os_/ && !h[$2]' "$tmp/host" "$tmp/a" >"$tmp/bad"
shim=$(awk '$1 ~ /^kh_os_/' "$tmp/a" | wc -l)
if [ "$shim" -gt 0 ] && [ ! -s "$tmp/bad" ]; then
	tap ok "the in-process host's kh_os_*.o: $shim symbols, kh_os_* or kh_os.h's ($(tr '\n' ' ' <"$tmp/host"| sed 's/ $//'))"
else
	tap fail "the in-process host's kh_os_*.o: $shim symbols, kh_os_* or kh_os.h's" "$tmp/bad"
fi

# the version script: kohaku.h's API, name by name (no wildcard), and
# nothing of kohaku-asm.h's assembler (libkohaku-asm.a's)
map=libruntime/libkohaku.map
perl scripts/c-decls.pl libruntime/kohaku.h |
	awk '$2 == "proto" { print $3 }' | sort -u >"$tmp/api"
perl scripts/c-decls.pl libruntime/kohaku-asm.h |
	awk '$2 == "proto" { print $3 }' | sort -u >"$tmp/asm"
# the names the map lists (comments dropped), and any pattern in it
perl -0pe 's{/\*.*?\*/}{}gs' "$map" | tr -d ' \t' >"$tmp/map.txt"
sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' "$tmp/map.txt" | sort -u >"$tmp/map"
{
	comm -23 "$tmp/api" "$tmp/map" | sed 's/^/in kohaku.h, not in the map: /'
	comm -13 "$tmp/api" "$tmp/map" | sed 's/^/in the map, not in kohaku.h: /'
	comm -12 "$tmp/asm" "$tmp/map" | sed 's/^/the assembler in the map: /'
	# a pattern anywhere but local's "*;"
	grep -v -e '^\*;$' "$tmp/map.txt" | grep '[*?[]' | sed 's/^/a pattern: /'
} >"$tmp/bad"
if [ "$(wc -l <"$tmp/api")" -gt 100 ] && [ "$(wc -l <"$tmp/asm")" -gt 40 ] &&
   [ ! -s "$tmp/bad" ]; then
	tap ok "$map: kohaku.h's $(wc -l <"$tmp/api") functions by name, none of kohaku-asm.h's $(wc -l <"$tmp/asm")"
else
	tap fail "$map: kohaku.h's functions by name, none of kohaku-asm.h's" "$tmp/bad"
fi

# the shared library: exactly the map's names, each at a version node (a
# changed call also keeps its old entry point at the older node), the
# version nodes themselves, and nothing else
if [ -f "$so" ]; then
	nm -D --defined-only "$so" | awk '{ print $NF }' >"$tmp/so"
	sed 's/@.*//' "$tmp/so" | grep -v '^KOHAKU_[0-9.]*$' | sort -u >"$tmp/so.names"
	{
		grep -v -e '^kohaku_[a-z0-9_]*@@\{0,1\}KOHAKU_[0-9.]*$' \
			-e '^KOHAKU_[0-9.]*$' "$tmp/so" | sed 's/^/not a versioned API name: /'
		comm -23 "$tmp/so.names" "$tmp/map" | sed 's/^/exported, not in the map: /'
		comm -13 "$tmp/so.names" "$tmp/map" | sed 's/^/in the map, not exported: /'
		awk 'NR == FNR { k[$1] = 1; next } k[$1]' "$tmp/names" "$tmp/so.names"
		grep '^kohaku_rv_' "$tmp/so.names"
	} >"$tmp/bad"
	if [ -s "$tmp/so" ] && [ ! -s "$tmp/bad" ]; then
		tap ok "libkohaku.so.0: $(wc -l <"$tmp/so.names") exported names, the map's, each versioned ($(grep -c '[^@]@KOHAKU_' "$tmp/so") old entry points kept), no kohaku_rv_"
	else
		tap fail "libkohaku.so.0: exactly the map's names, versioned" "$tmp/bad"
	fi
	# one default version per name (what a new link binds to)
	if [ "$(grep -c '@@KOHAKU_' "$tmp/so")" -eq "$(wc -l <"$tmp/so.names")" ]; then
		tap ok "libkohaku.so.0: every exported name has one default version"
	else
		tap fail "libkohaku.so.0: every exported name has one default version" "$tmp/so"
	fi
else
	echo "ok $((n + 1)) - libkohaku.so.0 # SKIP not built ($build is a sanitizer or static build)"
	echo "ok $((n + 2)) - libkohaku.so.0's default versions # SKIP not built"
	n=$((n + 2))
fi

echo "1..$n"
[ "$fail" -eq 0 ]
