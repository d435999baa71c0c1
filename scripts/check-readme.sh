#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-readme.sh [BUILD]: the docs say what the binaries do.
#
#   - README's "Using it": every command of its first block that needs no
#     card runs on the sim backend and exits 0, in order, from a scratch
#     directory (BUILD's binaries, default build/; KOHAKU_FIRMWARE_PATH
#     made absolute); `make firmware` is not run but its image must be
#     there (else the POOL lines SKIP), and it comes before the
#     KOHAKU_FIRMWARE_PATH export; `my_card.txt` is a description written
#     from docs/spec/card-description.md (its sx_null_2x2 example); a line
#     naming a file nobody has (the artifact's a.json) SKIPs;
#   - its kohakud block: each line against a kohakud of the check's own, the
#     hang one command injects met by the next, --list showing the card;
#   - the versions the docs print are the binaries': the line README gives
#     for `kohaku --version`, kohaku(1)'s and docs/runtime.md's are the
#     first line the CLI prints ("kohaku V (libkohaku V), driver ABI A");
#     kh-trace --version and kh-trace(1) say "kh-trace V (kohaku V)";
#     the man pages' footers ("kohaku V"), libkohaku(3)'s and
#     docs/runtime.md's kohaku_version() string, kohaku.pc's Version, the
#     Python package's __version__ and README's dkms version are V;
#     README's and docs/abi.md's driver ABI
#     is A;
#   - libkohaku(3) names only constants that exist (each KOHAKU_* it sets
#     in bold is a macro or enumerator of the installed headers, a family
#     of them (KOHAKU_CAP_*), a version node of libkohaku.map, or an
#     environment variable libkohaku reads) and its EXAMPLE compiles and
#     runs against BUILD/libkohaku.so.0.
#
# Output is TAP, for tests/run-all.sh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
kohaku=$build/kohaku
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# what [file]: a failure with the file's head as TAP comments
nokf() { nok "$1"; [ -n "${2:-}" ] && head -n 15 "$2" | sed 's/^/# /'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$kohaku" ]; then
	nok "$kohaku is built (make userspace)"
	echo "1..$n"
	exit 1
fi

# ---- the versions the binaries print ----
"$kohaku" --backend sim --device saxpy --version >"$tmp/version" 2>&1
line=$(head -n 1 "$tmp/version")
V=$(echo "$line" | sed -n 's/^kohaku \([0-9][0-9.]*\) (libkohaku \([0-9.]*\)), driver ABI \([0-9.]*\)$/\1/p')
LV=$(echo "$line" | sed -n 's/^kohaku [0-9.]* (libkohaku \([0-9.]*\)), driver ABI [0-9.]*$/\1/p')
A=$(echo "$line" | sed -n 's/^kohaku [0-9.]* (libkohaku [0-9.]*), driver ABI \([0-9.]*\)$/\1/p')
if [ -n "$V" ] && [ "$V" = "$LV" ] && [ -n "$A" ]; then
	ok "kohaku --version: '$line' (tool and library one version, the driver ABI named)"
else
	nokf "kohaku --version's first line is 'kohaku V (libkohaku V), driver ABI A'" "$tmp/version"
	echo "1..$n"
	exit 1
fi

# ---- README's "Using it" ----
# its first sh block
awk '/^## Using it/ { u = 1; next } /^## / { u = 0 }
     u && /^```sh/ { if (!done) b = 1; next }
     b && /^```/ { b = 0; done = 1; next } b' README.md >"$tmp/using"
if [ "$(wc -l <"$tmp/using")" -gt 10 ]; then
	ok "README \"Using it\": $(wc -l <"$tmp/using") commands"
else
	nokf "README \"Using it\" has its block of commands" "$tmp/using"
fi
fwline=$(grep -n '^make firmware' "$tmp/using" | head -n 1 | cut -d: -f1)
exline=$(grep -n '^export KOHAKU_FIRMWARE_PATH=' "$tmp/using" | head -n 1 | cut -d: -f1)
if [ -n "$fwline" ] && [ -n "$exline" ] && [ "$fwline" -lt "$exline" ]; then
	ok "README \"Using it\": make firmware (line $fwline) before KOHAKU_FIRMWARE_PATH (line $exline)"
else
	nok "README \"Using it\": make firmware before KOHAKU_FIRMWARE_PATH"
fi

# your own description, as docs/spec/card-description.md writes one
mkdir -p "$tmp/run"
awk '/^`sx_null_2x2`:/ { s = 1; next } s && /^```/ { if (b) exit; b = 1; next }
     b' docs/spec/card-description.md >"$tmp/run/my_card.txt"
have_fw=0
[ -f "$build/firmware/kohaku/pool.fw" ] && have_fw=1
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	c=$(echo "$cmd" | sed 's/[[:space:]]*#.*$//')
	[ -n "$c" ] || continue
	case $c in
	"make firmware")
		if [ "$have_fw" = 1 ]; then
			ok "Using it $i: $c (build/firmware/kohaku/pool.fw is there)"
		else
			skip "Using it $i: $c" "no $build/firmware/kohaku/pool.fw (make firmware)"
		fi
		continue ;;
	"export KOHAKU_FIRMWARE_PATH=build/firmware")
		export KOHAKU_FIRMWARE_PATH="$build/firmware"
		ok "Using it $i: $c"
		continue ;;
	build/kohaku\ *) ;;
	*)
		nok "Using it $i: '$c' is a command this check knows"
		continue ;;
	esac
	# a file the line names that nobody has
	if echo "$c" | grep -q 'run-artifact a\.json'; then
		skip "Using it $i: $c" "needs a compiler artifact a.json and its inputs"
		continue
	fi
	if [ "$have_fw" = 0 ] && echo "$c" | grep -q -e 'fw info' -e 'crc32'; then
		skip "Using it $i: $c" "no POOL firmware built"
		continue
	fi
	# shellcheck disable=SC2086
	(cd "$tmp/run" && eval "\"$kohaku\" ${c#build/kohaku }") \
		>"$tmp/out" 2>&1 </dev/null
	rc=$?
	if [ "$rc" -ne 0 ]; then
		nokf "Using it $i: $c (exit $rc)" "$tmp/out"
	elif echo "$c" | grep -q 'fw info' &&
	     ! grep -q 'running' "$tmp/out"; then
		nokf "Using it $i: $c: the firmware running (make firmware, KOHAKU_FIRMWARE_PATH)" "$tmp/out"
	else
		ok "Using it $i: $c"
	fi
done <"$tmp/using"
unset KOHAKU_FIRMWARE_PATH

# ---- README's kohakud block: one card the commands share ----
# the "Using it" block that starts kohakud, each line run in order against
# a kohakud of this check's own (its socket in $tmp): the inject is what
# the next run meets (it times out on the hung node), --list shows the
# card; a line that stays running (`... &`) is started and stopped
awk '/^## Using it/ { u = 1; next } /^## / { u = 0 }
     u && /^```sh/ { b = 1; next }
     b && /^```/ { b = 0; if (k) exit; next }
     b && /kohakud &/ { k = 1 } b { print > "/dev/stderr"; if (k) print }' \
	README.md >"$tmp/daemon" 2>/dev/null
if [ ! -x "$build/kohakud" ]; then
	skip "README's kohakud block" "no $build/kohakud"
elif [ "$(wc -l <"$tmp/daemon")" -lt 3 ]; then
	nokf "README \"Using it\" has a block that starts kohakud" "$tmp/daemon"
else
	mkdir -p "$tmp/xdg"
	export KOHAKU_DAEMON_SOCKET="$tmp/xdg/kohaku/kohakud.sock"
	bgs=
	i=0
	while IFS= read -r dl; do
		c=$(echo "$dl" | sed 's/[[:space:]]*#.*$//; s/[[:space:]]*$//')
		[ -z "$c" ] && continue
		i=$((i + 1))
		case $c in
		export\ *)
			eval "$c"
			ok "kohakud block $i: $c"
			continue ;;
		*"&")
			c=${c%&}
			# shellcheck disable=SC2086
			(cd "$tmp/run" && eval "exec \"$build/\"${c#build/}") >"$tmp/bg$i" 2>&1 </dev/null &
			bgs="$bgs $!"
			sleep 0.5
			if kill -0 $! 2>/dev/null; then ok "kohakud block $i: $c&"; else nokf "kohakud block $i: $c& keeps running" "$tmp/bg$i"; fi
			continue ;;
		esac
		# shellcheck disable=SC2086
		(cd "$tmp/run" && eval "exec \"$build/\"${c#build/}") >"$tmp/out" 2>&1 </dev/null
		rc=$?
		case $c in
		*"run saxpy"*)
			# meets the hang the line before set: the same card
			if [ "$rc" -ne 0 ] && grep -q TIMEOUT "$tmp/out"; then
				ok "kohakud block $i: $c (TIMEOUT on the hung node: the card the last command left)"
			else
				nokf "kohakud block $i: $c meets the hang (exit $rc)" "$tmp/out"
			fi ;;
		*"kohakud --list"*)
			if [ "$rc" -eq 0 ] && grep -q '^sim:saxpy' "$tmp/out"; then
				ok "kohakud block $i: $c"
			else
				nokf "kohakud block $i: $c lists sim:saxpy (exit $rc)" "$tmp/out"
			fi ;;
		*)
			if [ "$rc" -eq 0 ]; then ok "kohakud block $i: $c"; else nokf "kohakud block $i: $c (exit $rc)" "$tmp/out"; fi ;;
		esac
	done <"$tmp/daemon"
	# the backgrounded ones, the last started first (kohakud last):
	# SIGTERM, and each gone before the check ends (exec: no shell between)
	for p in $(echo $bgs | tr ' ' '\n' | tac); do
		kill -TERM "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	unset KOHAKU_DAEMON_SOCKET KOHAKU_BACKEND
fi

# ---- the versions the docs print ----
# the --version line README gives
rv=$(grep -m 1 'build/kohaku --map pool --version' README.md |
	sed -n 's/.*#[[:space:]]*\(kohaku [0-9.]* (libkohaku [0-9.]*), driver ABI [0-9.]*\).*/\1/p')
if [ "$rv" = "$line" ]; then
	ok "README's kohaku --version: '$rv'"
else
	nok "README's kohaku --version says '$line' (README: '$rv')"
fi
# README's driver ABI (Status, the documentation table) and docs/abi.md's
bad=$(grep -o -e 'ABI [0-9]\.[0-9]*[^.0-9]' -e 'ABI, version [0-9]\.[0-9]*' -e 'ABI v[0-9]\.[0-9]*' README.md |
	sed 's/[^0-9.]*\([0-9][0-9.]*\).*/\1/' | sort -u | sort -V | tail -n 1)
if [ "$bad" = "$A" ] && ! grep -q 'ABI v[0-9]' README.md; then
	ok "README: the newest driver ABI it names is $A, the binary's"
else
	nok "README: the newest driver ABI it names ($bad) is the binary's $A"
fi
ab=$(sed -n '1s/^# The ioctl ABI, version \([0-9.]*\)$/\1/p' docs/abi.md)
if [ "$ab" = "$A" ]; then
	ok "docs/abi.md: version $A"
else
	nok "docs/abi.md's title says version $A (it says '$ab')"
fi
# the man pages' footers, and what kohaku(1) and libkohaku(3) quote
for m in man/*.[1-8]; do
	th=$(sed -n 's/^\.TH [^ ]* [0-9] [^ ]* "\([^"]*\)".*/\1/p' "$m")
	if [ "$th" = "kohaku $V" ]; then
		ok "$m: footer 'kohaku $V'"
	else
		nok "$m: footer 'kohaku $V' (it says '$th')"
	fi
done
if grep -q "\"$line\"" man/kohaku.1; then
	ok "kohaku(1) quotes the --version line '$line'"
else
	nok "kohaku(1) quotes the --version line '$line'"
fi
if grep -q "^is the running library's release (\"$V\"" man/libkohaku.3; then
	ok "libkohaku(3): kohaku_version() is \"$V\""
else
	nok "libkohaku(3): kohaku_version() is \"$V\""
fi
if grep -q "\`\"$V\"\`" docs/runtime.md &&
   [ "$(tr '\n' ' ' <docs/runtime.md | grep -c "\`kohaku $V *(libkohaku $V), *driver ABI $A\`")" -eq 1 ]; then
	ok "docs/runtime.md: kohaku_version() \"$V\", the --version line"
else
	nok "docs/runtime.md: kohaku_version() \"$V\", the --version line '$line'"
fi
kt=$("$build/kh-trace" --version 2>&1)
if [ "$kt" = "kh-trace $V (kohaku $V)" ] &&
   grep -q "\"kh-trace $V (kohaku $V)\"" man/kh-trace.1; then
	ok "kh-trace --version: '$kt', as kh-trace(1) says"
else
	nok "kh-trace --version: 'kh-trace $V (kohaku $V)', as kh-trace(1) says (it prints '$kt')"
fi
pyv=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' python/kohaku/__init__.py)
if [ "$pyv" = "$V" ]; then
	ok "python/kohaku: __version__ $V"
else
	nok "python/kohaku: __version__ $V (it says '$pyv')"
fi
pcv=$(sed -n 's/^Version:[[:space:]]*//p' "$build/kohaku.pc" 2>/dev/null)
if [ "$pcv" = "$V" ]; then
	ok "$build/kohaku.pc: Version $V"
else
	nok "$build/kohaku.pc: Version $V (it says '$pcv')"
fi
dv=$(sed -n 's/.*dkms install kohaku\/\([0-9.]*\).*/\1/p' README.md | head -n 1)
if [ "$dv" = "$V" ] && grep -q "^PACKAGE_VERSION=\"$V\"$" dkms.conf; then
	ok "README and dkms.conf: dkms package kohaku/$V"
else
	nok "README and dkms.conf: dkms package kohaku/$V (README '$dv')"
fi

# ---- libkohaku(3): its constants exist, its example runs ----
# every KOHAKU_* the page sets in bold: a macro or an enumerator of the
# headers, or (its ENVIRONMENT) a variable the library reads
sed -n 's/^\.BR\{0,1\} \(KOHAKU_[A-Z0-9_]*\).*/\1/p' man/libkohaku.3 | sort -u >"$tmp/names"
: >"$tmp/bad"
while IFS= read -r k; do
	if grep -q -E "(#define[[:space:]]+$k\\b|\\b$k[[:space:]]*=|\\b$k,)" \
		libruntime/kohaku.h libruntime/kohaku-asm.h uapi/drm/kohaku_accel.h uapi/kohaku/*.h; then
		continue
	fi
	grep -rq "\"$k\"" libruntime && continue
	# a version node of the library's
	grep -q "^$k[[:space:]]*{" libruntime/libkohaku.map && continue
	# a family, "KOHAKU_CAP_*": some constant starts so
	case $k in *_) grep -q "#define[[:space:]]*$k" libruntime/kohaku.h \
		uapi/drm/kohaku_accel.h && continue ;; esac
	echo "$k" >>"$tmp/bad"
done <"$tmp/names"
if [ -s "$tmp/names" ] && [ ! -s "$tmp/bad" ]; then
	ok "libkohaku(3): its $(wc -l <"$tmp/names") KOHAKU_ names each a constant of the headers or a variable libkohaku reads"
else
	nokf "libkohaku(3) names a KOHAKU_ constant that does not exist" "$tmp/bad"
fi
# the EXAMPLE, in a main()
{
	echo '#include <stdio.h>'
	echo '#include <kohaku.h>'
	echo 'int main(void)'
	echo '{'
	sed -n '/^\.SH EXAMPLE/,/^\.SH/p' man/libkohaku.3 | sed -n '/^\.nf/,/^\.fi/p' |
		sed -e '/^\.nf/d' -e '/^\.fi/d' -e 's/\\e/\\/g' -e 's/\\-/-/g'
	echo 'return 0;'
	echo '}'
} >"$tmp/example.c"
drm=$($PKG_CONFIG --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
if [ ! -f "$build/libkohaku.so.0" ]; then
	skip "libkohaku(3)'s EXAMPLE" "no $build/libkohaku.so.0 (a sanitizer or static build)"
# shellcheck disable=SC2086
elif ! $CC -std=gnu11 -Wall -Wextra -Werror -Ilibruntime -Iuapi $drm -o "$tmp/example" \
	"$tmp/example.c" "$build/libkohaku.so.0" -Wl,-rpath,"$build" >"$tmp/cc" 2>&1; then
	nokf "libkohaku(3)'s EXAMPLE compiles (-Wall -Wextra -Werror)" "$tmp/cc"
elif ! "$tmp/example" >"$tmp/out" 2>&1; then
	nokf "libkohaku(3)'s EXAMPLE runs" "$tmp/out"
elif grep -q "^sim:saxpy: driver ABI $A, libkohaku $V$" "$tmp/out"; then
	ok "libkohaku(3)'s EXAMPLE compiles and prints '$(cat "$tmp/out")'"
else
	nokf "libkohaku(3)'s EXAMPLE prints 'sim:saxpy: driver ABI $A, libkohaku $V'" "$tmp/out"
fi

echo "1..$n"
[ "$fail" -eq 0 ]
