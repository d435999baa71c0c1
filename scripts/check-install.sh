#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-install.sh: `make install` and `make uninstall` into a temporary
# DESTDIR (PREFIX=/usr), and an external program built against what was
# installed with nothing but `pkg-config --cflags --libs kohaku`.  TAP; a
# suite of `make test` (tests/run-all.sh).  No root, no network; it reuses
# build/ (make builds what is missing: the library, the CLI, kh-trace).
#
#   - the files land where they should: the library with its soname and
#     symlink, the headers below kohaku.pc's -I, kohaku.pc for PREFIX=/usr,
#     the CLI, kh-trace, the firmware when built, the udev rule, the
#     modprobe.d example, the bash completion (share/bash-completion/
#     completions/kohaku, sourced in bash: it completes the installed
#     kohaku's commands and --map's built-in cards); every installed
#     header compiles on its own;
#   - tests/install/hello.c builds shared and static (`pkg-config --static`,
#     -static) with pkg-config's flags alone and runs (the sim card saxpy);
#     pkg-config sees the install as a sysroot (PKG_CONFIG_SYSROOT_DIR), in
#     which the system's libdrm and libpciaccess are linked, as they would
#     be in a real root;
#   - make install PREFIX=<tmp> with no DESTDIR writes nothing outside
#     PREFIX (make -n's paths; /lib/firmware, udev's and modprobe's
#     directories, /usr/local and ld.so's cache listed before and after,
#     never changed here): the firmware to $PREFIX/lib/firmware, and no
#     ldconfig for a LIBDIR ld.so does not search; make -n install runs
#     ldconfig without DESTDIR and never with it;
#   - a DESTDIR stage of PREFIX=/usr/local as PKG_CONFIG_SYSROOT_DIR:
#     pkg-config's -I and -L inside the stage, hello.c builds and runs;
#   - make install with another PREFIX writes kohaku.pc for that PREFIX;
#   - the udev rule's syntax (udevadm verify is systemd 253+; Debian 12 has
#     252, so a check of keys and operators here), the modprobe.d example
#     against every module_param in driver/linux, dkms.conf against Kbuild,
#     `make -n modules_install`'s shape with and without DESTDIR;
#   - the Python package lands where Debian's python3 looks for the
#     PREFIX (/usr/lib/python3/dist-packages for /usr,
#     /usr/local/lib/python3.N/dist-packages for /usr/local) and, imported
#     from there, opens the sim card through the installed libkohaku.so.0
#     found by ld.so; installed to a PREFIX ld.so does not search, it
#     finds the library through the LIBDIR make install recorded;
#   - kohaku.ko's MODULE_FIRMWARE is the file it requests (the source;
#     modinfo when kohaku.ko is built);
#   - make uninstall leaves none of our files behind.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() { # description command...
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then ok "$desc"; else nok "$desc"; sed 's/^/# /' "$tmp/out" | tail -n 20; fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/root
mkdir -p "$d"
MAKE=${MAKE:-make}
mk() { $MAKE --no-print-directory "$@"; }

check "make install DESTDIR=... PREFIX=/usr" mk install DESTDIR="$d" PREFIX=/usr

files="usr/lib/libkohaku.a usr/lib/libkohaku.so.0 usr/lib/libkohaku.so usr/lib/libkohaku-asm.a
usr/lib/pkgconfig/kohaku.pc usr/bin/kohaku usr/bin/kh-trace
usr/include/kohaku/kohaku.h usr/include/kohaku/kohaku-asm.h usr/include/kohaku/drm/kohaku_accel.h
usr/lib/udev/rules.d/70-kohaku.rules usr/lib/modprobe.d/kohaku.conf
usr/share/man/man1/kohaku.1 usr/share/man/man1/kh-trace.1
usr/share/man/man3/libkohaku.3
usr/share/bash-completion/completions/kohaku
usr/lib/python3/dist-packages/kohaku/__init__.py
usr/lib/python3/dist-packages/kohaku/_lib.py
usr/lib/python3/dist-packages/kohaku/_config.py"
for h in uapi/kohaku/*.h; do files="$files usr/include/kohaku/kohaku/${h##*/}"; done
[ -f build/firmware/pool.fw ] && files="$files lib/firmware/kohaku/pool.fw"
missing=
for f in $files; do [ -e "$d/$f" ] || missing="$missing $f"; done
if [ -z "$missing" ]; then ok "installed: $(echo "$files" | wc -w) files"; else nok "installed: missing$missing"; fi

# the bash completion, installed, sourced in bash: commands and the
# built-in cards from the installed kohaku itself
if command -v bash >/dev/null 2>&1; then
	comp=$(cd / && LD_LIBRARY_PATH="$d/usr/lib" bash -c '
source "$1"
COMP_WORDS=("$2" ""); COMP_CWORD=1; _kohaku; echo "${COMPREPLY[*]}"
COMP_WORDS=("$2" --map sax); COMP_CWORD=2; _kohaku; echo "${COMPREPLY[*]}"
complete -p kohaku' sh "$d/usr/share/bash-completion/completions/kohaku" "$d/usr/bin/kohaku" 2>&1)
	echo "$comp" | sed 's/^/# /'
	if echo "$comp" | grep -q "^cdi clocks dxa examine fw help .*validate$" &&
		echo "$comp" | grep -qx "saxpy" && echo "$comp" | grep -qx "complete -F _kohaku kohaku"; then
		ok "bash completion: installed, sourced, completes the installed kohaku's commands and --map saxpy"
	else
		nok "bash completion: installed, sourced, completes the installed kohaku's commands and --map saxpy"
	fi
fi

# the man pages format without a warning
if command -v groff >/dev/null 2>&1; then
	warn=$(for m in "$d"/usr/share/man/man*/*; do groff -man -ww -z "$m" 2>&1; done)
	if [ -z "$warn" ]; then ok "man pages: groff -man -ww finds nothing"; else
		nok "man pages: groff -man -ww"; echo "$warn" | sed 's/^/# /'; fi
fi

if [ "$(readlink "$d/usr/lib/libkohaku.so")" = libkohaku.so.0 ] &&
	readelf -d "$d/usr/lib/libkohaku.so.0" | grep -q 'SONAME.*\[libkohaku\.so\.0\]'; then
	ok "libkohaku.so -> libkohaku.so.0, SONAME libkohaku.so.0"
else
	nok "libkohaku.so -> libkohaku.so.0, SONAME libkohaku.so.0"
	readelf -d "$d/usr/lib/libkohaku.so.0" | grep SONAME | sed 's/^/# /'
fi
if [ -x "$d/usr/bin/kohaku" ] && [ -x "$d/usr/bin/kh-trace" ] &&
	[ "$(stat -c %a "$d/usr/lib/pkgconfig/kohaku.pc")" = 644 ]; then
	ok "modes: binaries executable, kohaku.pc 0644"
else
	nok "modes: binaries executable, kohaku.pc 0644"
fi
if grep -qx 'prefix=/usr' "$d/usr/lib/pkgconfig/kohaku.pc"; then
	ok "kohaku.pc: prefix=/usr"
else
	nok "kohaku.pc: prefix=/usr"; sed 's/^/# /' "$d/usr/lib/pkgconfig/kohaku.pc"
fi

# the install as a sysroot, with the system's libdrm and libpciaccess in it
# (their .pc files name /usr/include/libdrm, /usr/lib/<multiarch>, which
# pkg-config moves into the sysroot like ours)
ma=$(${CC:-cc} -print-multiarch 2>/dev/null)
sys_links="usr/include/libdrm"
[ -n "$ma" ] && sys_links="$sys_links usr/lib/$ma"
for l in $sys_links; do
	[ -e "/$l" ] && [ ! -e "$d/$l" ] && ln -s "/$l" "$d/$l"
done
export PKG_CONFIG_SYSROOT_DIR="$d"
export PKG_CONFIG_PATH="$d/usr/lib/pkgconfig"
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
v=$($PKG_CONFIG --modversion kohaku 2>&1)
# kohaku.pc's Version is kohaku.h's KOHAKU_LIB_VERSION_* (the Makefile's KH_VERSION)
hv=$(sed -n 's/^#define KOHAKU_LIB_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\).*/\2/p' \
	libruntime/kohaku.h | paste -sd. -)
if [ "$v" = "$hv" ]; then
	ok "pkg-config finds the installed kohaku.pc (version $v, kohaku.h's)"
else
	nok "pkg-config finds the installed kohaku.pc"; echo "# $v"
fi
cflags=$($PKG_CONFIG --cflags kohaku)
libs=$($PKG_CONFIG --libs kohaku)
slibs=$($PKG_CONFIG --static --libs kohaku)
echo "# cflags: $cflags"
echo "# libs: $libs"
echo "# static libs: $slibs"

# every installed header on its own, with kohaku.pc's flags only
hdr_fail=
for h in "$d"/usr/include/kohaku/kohaku.h "$d"/usr/include/kohaku/drm/*.h \
	"$d"/usr/include/kohaku/kohaku/*.h; do
	rel=${h#"$d"/usr/include/kohaku/}
	# shellcheck disable=SC2086
	echo "#include <$rel>" | ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $cflags \
		-fsyntax-only -x c - >"$tmp/out" 2>&1 || {
		hdr_fail="$hdr_fail $rel"; sed 's/^/# /' "$tmp/out" | head -n 5; }
done
if [ -z "$hdr_fail" ]; then ok "every installed header compiles alone"; else nok "headers that do not compile alone:$hdr_fail"; fi

# shellcheck disable=SC2086
check "hello.c builds shared: cc hello.c \$(pkg-config --cflags --libs kohaku)" \
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -o "$tmp/hello" tests/install/hello.c $cflags $libs
out=$(LD_LIBRARY_PATH="$d/usr/lib" "$tmp/hello" saxpy 2>&1)
echo "$out" | sed "s/^/# /"
if echo "$out" | grep -q '^sim:saxpy: 2 nodes, 2 SX' &&
	LD_LIBRARY_PATH="$d/usr/lib" ldd "$tmp/hello" | grep -q "libkohaku.so.0 => $d/usr/lib/libkohaku.so.0"; then
	ok "hello (shared) runs on the installed libkohaku.so.0: saxpy has 2 nodes"
else
	nok "hello (shared) runs on the installed libkohaku.so.0: saxpy has 2 nodes"
	LD_LIBRARY_PATH="$d/usr/lib" ldd "$tmp/hello" | sed 's/^/# /'
fi
# kohaku_version() of the installed library is kohaku.pc's Version
printf '#include <stdio.h>\n#include <kohaku.h>\nint main(void) { puts(kohaku_version()); return 0; }\n' >"$tmp/ver.c"
# shellcheck disable=SC2086
if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -o "$tmp/ver" "$tmp/ver.c" $cflags $libs >"$tmp/out" 2>&1 &&
	lv=$(LD_LIBRARY_PATH="$d/usr/lib" "$tmp/ver" 2>&1) && [ "$lv" = "$v" ]; then
	ok "kohaku_version() of the installed libkohaku.so.0 is kohaku.pc's Version ($lv)"
else
	nok "kohaku_version() of the installed libkohaku.so.0 is kohaku.pc's Version ($v)"; echo "# ${lv:-}"; sed 's/^/# /' "$tmp/out" | tail -n 5
fi
# shellcheck disable=SC2086
check "hello.c builds static: cc -static hello.c \$(pkg-config --static --cflags --libs kohaku)" \
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -static -o "$tmp/hello-static" \
	tests/install/hello.c $cflags $slibs
out=$(env -u LD_LIBRARY_PATH "$tmp/hello-static" saxpy 2>&1)
echo "$out" | sed "s/^/# /"
if echo "$out" | grep -q '^sim:saxpy: 2 nodes, 2 SX' && ! readelf -d "$tmp/hello-static" 2>/dev/null | grep -q NEEDED; then
	ok "hello (static) runs: saxpy has 2 nodes, no shared library needed"
else
	nok "hello (static) runs: saxpy has 2 nodes, no shared library needed"
fi
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
for l in $sys_links; do [ -L "$d/$l" ] && rm -f "$d/$l"; done

# the Python package, imported from the install with Debian's python3:
# libkohaku.so.0 through ld.so (LD_LIBRARY_PATH standing for the system's
# directories), not the build tree's
PY=/usr/bin/python3
if [ -x "$PY" ]; then
	pyout=$(cd / && env -u KOHAKU_LIBRARY PYTHONPATH="$d/usr/lib/python3/dist-packages" \
		LD_LIBRARY_PATH="$d/usr/lib" "$PY" -c '
import kohaku
with kohaku.Device.open("saxpy", backend="sim") as dev:
    n = len(dev.nodes_of("SX"))
maps = open("/proc/self/maps").read()
lib = [l.split()[-1] for l in maps.splitlines() if "libkohaku.so" in l][0]
print(kohaku.__file__, kohaku.library_path, lib, n)' 2>&1)
	echo "$pyout" | sed 's/^/# /'
	set -- $pyout
	if [ "${1:-}" = "$d/usr/lib/python3/dist-packages/kohaku/__init__.py" ] &&
		[ "${2:-}" = libkohaku.so.0 ] && [ "${3:-}" = "$d/usr/lib/libkohaku.so.0" ] &&
		[ "${4:-}" = 2 ]; then
		ok "python3: import kohaku from usr/lib/python3/dist-packages, libkohaku.so.0 through ld.so, saxpy has 2 SX nodes"
	else
		nok "python3: import kohaku from usr/lib/python3/dist-packages, libkohaku.so.0 through ld.so, saxpy has 2 SX nodes"
	fi
	# the directories make install picks are on python3's own path
	for pfx in /usr /usr/local; do
		pd=$(mk -s --eval='kh-print-pythondir: ; @echo $(PYTHONDIR)' kh-print-pythondir PREFIX=$pfx 2>/dev/null)
		if [ -n "$pd" ] && "$PY" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pd"; then
			ok "PREFIX=$pfx: PYTHONDIR $pd is on $PY's sys.path"
		else
			nok "PREFIX=$pfx: PYTHONDIR '$pd' is on $PY's sys.path"
			"$PY" -c 'import sys; print(sys.path)' | sed 's/^/# /'
		fi
	done
	# a PREFIX ld.so does not search: the LIBDIR recorded in _config.py
	p3=$tmp/pfx
	if mk install-lib install-python PREFIX="$p3" >"$tmp/out" 2>&1 &&
		out=$(cd / && env -u KOHAKU_LIBRARY -u LD_LIBRARY_PATH \
			PYTHONPATH="$p3/lib/python3/dist-packages" "$PY" -c '
import kohaku
with kohaku.Device.open(map="saxpy") as dev: print(kohaku.library_path, len(dev.nodes()))' 2>&1) &&
		[ "$out" = "$p3/lib/libkohaku.so.0 2" ]; then
		ok "python3: installed to PREFIX=<tmp> (no ld.so path), kohaku loads \$LIBDIR/libkohaku.so.0 (_config.py)"
	else
		nok "python3: installed to PREFIX=<tmp>, kohaku loads \$LIBDIR/libkohaku.so.0"; echo "# ${out:-}"; sed 's/^/# /' "$tmp/out" | tail -n 5
	fi
	rm -rf "$p3"
else
	echo "# no $PY: the Python package's install is not tried"
fi

# make install PREFIX=<tmp> with no DESTDIR writes nothing outside PREFIX:
# the firmware goes to $PREFIX/lib/firmware, the udev rule and modprobe.d
# file below PREFIX, and no ldconfig (ld.so does not search <tmp>).  First
# `make -n`: every absolute path the install's commands name is below
# PREFIX or the tree (or a tool, or the ld.so.conf.d file a hint names);
# then the real install, with the system's
# directories listed before and after (read only: nothing of them is
# removed or changed here)
p1=$tmp/prefix-only
mk -n install PREFIX="$p1" >"$tmp/dry" 2>&1
outside=$(grep -v '^#' "$tmp/dry" | tr -s " '\";=" '[\n*]' | grep '^/' |
	grep -v -e "^$p1/" -e "^$top/" -e '^/dev/null$' -e '^/usr/bin/python3$' -e '^/sbin/ldconfig$' \
	-e '^/etc/ld.so.conf.d/kohaku.conf$' | sort -u)
if [ -z "$outside" ] && grep -q "$p1/lib/firmware/kohaku/pool.fw\|no .*pool.fw" "$tmp/dry"; then
	ok "make -n install PREFIX=<tmp>: every path is below PREFIX (firmware in \$PREFIX/lib/firmware)"
else
	nok "make -n install PREFIX=<tmp>: paths outside PREFIX"; echo "$outside" | sed 's/^/# /'
fi
watch="/lib/firmware/kohaku /usr/lib/firmware/kohaku /etc/udev/rules.d /usr/lib/udev/rules.d
/usr/local/lib/udev/rules.d /etc/modprobe.d /usr/lib/modprobe.d /usr/local/lib/modprobe.d
/usr/local/bin /usr/local/include /usr/local/share/man /usr/local/lib /etc/ld.so.cache /etc/ld.so.conf.d
/usr/share/bash-completion/completions /usr/local/share/bash-completion /etc/bash_completion.d"
snap() { for w in $watch; do [ -e "$w" ] && find "$w" -maxdepth 4 -printf '%p %s %T@\n' 2>/dev/null; done | sort; }
snap >"$tmp/before"
if mk install PREFIX="$p1" >"$tmp/out" 2>&1; then
	snap >"$tmp/after"
	changed=$(diff "$tmp/before" "$tmp/after" | grep '^[<>]')
	fw_ok=yes
	[ -f build/firmware/pool.fw ] && { [ -f "$p1/lib/firmware/kohaku/pool.fw" ] || fw_ok=no; }
	if [ -z "$changed" ] && [ $fw_ok = yes ] && [ -f "$p1/lib/udev/rules.d/70-kohaku.rules" ] &&
		[ -f "$p1/lib/modprobe.d/kohaku.conf" ] &&
		[ -f "$p1/share/bash-completion/completions/kohaku" ] && ! grep -q '^/sbin/ldconfig$' "$tmp/out" &&
		grep -q "$p1/lib is not in ld.so's search path" "$tmp/out"; then
		ok "make install PREFIX=<tmp>: firmware, udev rule, modprobe.d, bash completion below PREFIX; /lib/firmware, udev, modprobe.d, bash-completion's directories, /usr/local, ld.so.cache unchanged; no ldconfig, a hint"
	else
		nok "make install PREFIX=<tmp> wrote outside PREFIX (or missed a file)"; echo "$changed" | sed 's/^/# /'
		sed 's/^/# /' "$tmp/out" | tail -n 5
	fi
else
	nok "make install PREFIX=<tmp>"; sed 's/^/# /' "$tmp/out" | tail -n 10
fi
rm -rf "$p1"

# ldconfig after a real install into ld.so's path, never for DESTDIR
# (make -n: nothing is installed)
s1=$(mk -n install PREFIX=/usr/local 2>&1)
s2=$(mk -n install PREFIX=/usr/local DESTDIR="$tmp/never" 2>&1)
if echo "$s1" | grep -q '^[[:space:]]*/sbin/ldconfig\|"/sbin/ldconfig"' && ! echo "$s2" | grep -q ldconfig; then
	ok "make -n install: ldconfig without DESTDIR, none with DESTDIR"
else
	nok "make -n install: ldconfig without DESTDIR, none with DESTDIR"; echo "$s2" | grep ldconfig | sed 's/^/# /'
fi

# a DESTDIR stage of the default PREFIX (/usr/local) as pkg-config's
# sysroot, as README's `make install DESTDIR=` gives it: every -I and -L is
# inside the stage, and an app compiles, links and runs against the stage
# with those flags alone.  pkg-config moves the -I of libdrm (kohaku.pc's
# Requires.private, from the system's libdrm.pc) into the sysroot too, so
# the stage holds libdrm's headers as a cross sysroot would (a symlink to
# the system's)
d3=$tmp/stage
if mk install DESTDIR="$d3" >"$tmp/out" 2>&1; then
	[ -e /usr/include/libdrm ] && mkdir -p "$d3/usr/include" && ln -s /usr/include/libdrm "$d3/usr/include/libdrm"
	fl=$(PKG_CONFIG_SYSROOT_DIR="$d3" PKG_CONFIG_PATH="$d3/usr/local/lib/pkgconfig" ${PKG_CONFIG:-pkg-config} --cflags --libs kohaku 2>&1)
	echo "# sysroot flags: $fl"
	outside=$(for f in $fl; do case $f in -I*|-L*) p=${f#-?}; case $p in "$d3"/*) ;; *) echo "$f" ;; esac ;; esac; done)
	# shellcheck disable=SC2086
	if [ -z "$outside" ] && echo " $fl " | grep -q -- " -I$d3/usr/local/include/kohaku .* -L$d3/usr/local/lib " &&
		${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -o "$tmp/hello-stage" tests/install/hello.c $fl >"$tmp/out" 2>&1 &&
		LD_LIBRARY_PATH="$d3/usr/local/lib" "$tmp/hello-stage" saxpy 2>&1 | grep -q '^sim:saxpy: 2 nodes, 2 SX'; then
		ok "DESTDIR stage (PREFIX=/usr/local) as PKG_CONFIG_SYSROOT_DIR: -I and -L inside the stage; hello.c compiles, links and runs with them"
	else
		nok "DESTDIR stage as PKG_CONFIG_SYSROOT_DIR: flags outside the stage or hello.c fails"; echo "$outside" | sed 's/^/# outside: /'
		sed 's/^/# /' "$tmp/out" | tail -n 10
	fi
else
	nok "make install DESTDIR=<stage>"; sed 's/^/# /' "$tmp/out" | tail -n 10
fi
rm -rf "$d3"

# another PREFIX: kohaku.pc follows it
d2=$tmp/opt
if mk install-lib DESTDIR="$d2" PREFIX=/opt/kohaku >"$tmp/out" 2>&1 &&
	grep -qx 'prefix=/opt/kohaku' "$d2/opt/kohaku/lib/pkgconfig/kohaku.pc" &&
	[ -f "$d2/opt/kohaku/include/kohaku/kohaku.h" ]; then
	ok "make install PREFIX=/opt/kohaku: kohaku.pc says prefix=/opt/kohaku"
else
	nok "make install PREFIX=/opt/kohaku: kohaku.pc says prefix=/opt/kohaku"; sed 's/^/# /' "$tmp/out" | tail -n 5
fi
rm -rf "$d2"

# the udev rule: KEY=="v" / KEY="v" pairs of known keys, the group and mode
rules=packaging/udev/70-kohaku.rules
bad=$(grep -v '^[[:space:]]*\(#\|$\)' "$rules" | tr ',' '\n' | sed 's/^[[:space:]]*//;s/[[:space:]]*$//' |
	grep -v -E '^(SUBSYSTEM|KERNEL|DRIVERS|DRIVER|SUBSYSTEMS|ACTION)(==|!=)"[^"]*"$|^(GROUP|MODE|OWNER|TAG)(=|\+=)"[^"]*"$')
if [ -z "$bad" ] &&
	grep -q '^SUBSYSTEM=="accel", KERNEL=="accel\[0-9\]\*", DRIVERS=="kohaku", GROUP="kohaku", MODE="0660"$' "$rules" &&
	grep -q '^SUBSYSTEM=="drm", KERNEL=="renderD\[0-9\]\*|card\[0-9\]\*", DRIVERS=="kohaku", GROUP="kohaku", MODE="0660"$' "$rules"; then
	ok "udev rule: accel nodes (render and primary nodes before Linux 6.2) of driver kohaku to group kohaku, 0660 (syntax: keys and operators)"
else
	nok "udev rule: accel nodes (render and primary nodes before Linux 6.2) of driver kohaku to group kohaku, 0660"; echo "$bad" | sed 's/^/# bad: /'
fi
# the driver the rule matches is the one kohaku.ko registers
if grep -q '\.name[[:space:]]*=[[:space:]]*"kohaku"' driver/linux/kohaku_pci.c &&
	grep -q '\.name = "kohaku"' driver/linux/kohaku_drv.c; then
	ok "udev rule: DRIVERS==\"kohaku\" is the name of kohaku.ko's PCI and platform drivers"
else
	nok "udev rule: DRIVERS==\"kohaku\" is the name of kohaku.ko's PCI and platform drivers"
fi

# the modprobe.d example documents every module parameter
undoc=
for f in driver/linux/*.c; do
	case $f in *kohaku_sim*) mod=kohaku_sim ;; *) mod=kohaku ;; esac
	for p in $(sed -n 's/^module_param(\([a-z_]*\),.*/\1/p; s/^module_param_named(\([a-z_]*\),.*/\1/p' "$f"); do
		grep -q "^#options $mod $p=" packaging/modprobe.d/kohaku.conf || undoc="$undoc $mod.$p"
	done
done
if [ -z "$undoc" ]; then ok "modprobe.d example: every module_param of driver/linux"; else nok "modprobe.d example lacks:$undoc"; fi
if ! grep -q '^options' packaging/modprobe.d/kohaku.conf; then
	ok "modprobe.d example: sets nothing as installed"
else
	nok "modprobe.d example: sets nothing as installed"
fi

# kohaku.ko declares the firmware file it asks for (MODULE_FIRMWARE, for
# initramfs hooks and distribution firmware tools): in the source, and in
# modinfo when kohaku.ko is built and newer than the source
fwp=$(sed -n 's/^#define KH_FW_PATH[[:space:]]*"\([^"]*\)".*/\1/p' uapi/kohaku/kh_fw.h)
if grep -q '^MODULE_FIRMWARE(KH_FW_PATH);' driver/linux/kohaku_fw.c &&
	grep -q 'request_firmware_nowait(.*KH_FW_PATH' driver/linux/kohaku_fw.c; then
	ok "kohaku_fw.c: MODULE_FIRMWARE(KH_FW_PATH), the file request_firmware_nowait asks for ($fwp)"
else
	nok "kohaku_fw.c: MODULE_FIRMWARE(KH_FW_PATH), the file request_firmware_nowait asks for"
fi
if [ -f kohaku.ko ] && [ -n "$(find kohaku.ko -newer driver/linux/kohaku_fw.c)" ] && command -v modinfo >/dev/null 2>&1; then
	mf=$(modinfo -F firmware ./kohaku.ko 2>&1)
	if [ "$mf" = "$fwp" ]; then ok "modinfo -F firmware kohaku.ko: $mf"; else nok "modinfo -F firmware kohaku.ko: '$mf', not $fwp"; fi
else
	echo "# kohaku.ko not built (or older than kohaku_fw.c): modinfo not tried"
fi

# dkms.conf: bash syntax, the modules Kbuild builds
dk=$(bash -c '. ./dkms.conf && echo "$PACKAGE_NAME ${BUILT_MODULE_NAME[*]} $AUTOINSTALL"' 2>&1)
kb=$(sed -n 's/^obj-m[[:space:]]*+=[[:space:]]*//p' Kbuild | sed 's/\.o//g')
if [ "$dk" = "kohaku $kb yes" ]; then
	ok "dkms.conf: kohaku, modules $kb (as Kbuild), AUTOINSTALL"
else
	nok "dkms.conf: kohaku, modules $kb (as Kbuild), AUTOINSTALL"; echo "# $dk"
fi

# make modules_install's shape, without running it (MAKE=echo for the
# kernel's make)
s1=$(mk -n modules_install MAKE=echo 2>&1)
s2=$(mk -n modules_install MAKE=echo DESTDIR=/tmp/kh-root 2>&1)
if echo "$s1" | grep -q '^-C .* M=.* INSTALL_MOD_DIR=updates modules_install$' && echo "$s1" | grep -q '^depmod -a ' &&
	echo "$s2" | grep -q 'INSTALL_MOD_PATH=/tmp/kh-root INSTALL_MOD_DIR=updates modules_install$' && ! echo "$s2" | grep -q '^depmod'; then
	ok "make -n modules_install: the kernel's modules_install to updates/, then depmod -a; with DESTDIR: INSTALL_MOD_PATH and no depmod"
else
	nok "make -n modules_install shape"; echo "$s1" "$s2" | sed 's/^/# /'
fi

# kohakud and its systemd user units (socket activation): installed, and
# the units valid to systemd's own checker (systemd-analyze verify, with
# ExecStart pointed at the staged binary: it checks that it runs)
if [ -x "$d/usr/bin/kohakud" ] && [ -f "$d/usr/lib/systemd/user/kohakud.socket" ] &&
	grep -q '^ExecStart=/usr/bin/kohakud$' "$d/usr/lib/systemd/user/kohakud.service" 2>/dev/null; then
	ok "kohakud and its units in lib/systemd/user, ExecStart the installed one"
else
	nok "kohakud and its units installed"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$tmp/units"
	cp "$d/usr/lib/systemd/user/kohakud.socket" "$tmp/units/"
	sed "s|^ExecStart=/usr/bin/kohakud|ExecStart=$d/usr/bin/kohakud|" \
		"$d/usr/lib/systemd/user/kohakud.service" >"$tmp/units/kohakud.service"
	if (cd "$tmp/units" && systemd-analyze verify --man=no ./kohakud.socket ./kohakud.service) \
		>"$tmp/out" 2>&1 && ! grep -q . "$tmp/out"; then
		ok "systemd-analyze verify: kohakud.socket and kohakud.service, no warning"
	else
		nok "systemd-analyze verify of kohakud's units"; sed 's/^/# /' "$tmp/out"
	fi
else
	n=$((n + 1)); echo "ok $n - systemd-analyze verify of kohakud's units # SKIP no systemd-analyze"
fi

check "make uninstall DESTDIR=... PREFIX=/usr" mk uninstall DESTDIR="$d" PREFIX=/usr
left=$(find "$d" ! -type d 2>&1 | sed "s|^$d/||")
if [ -d "$d/usr" ] && [ -z "$left" ]; then
	ok "make uninstall leaves no file behind"
else
	nok "make uninstall leaves files behind"; echo "$left" | sed 's/^/# /'
fi
leftd=$(find "$d" -depth -type d -path '*kohaku*' 2>&1 | sed "s|^$d/||")
if [ -d "$d/usr" ] && [ -z "$leftd" ]; then ok "make uninstall removes its own directories"; else nok "directories left:"; echo "$leftd" | sed 's/^/# /'; fi

echo "1..$n"
exit $failed
