#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-dkms.sh: dkms.conf tried for real, without touching the system.
# TAP; a suite of `make test` (tests/run-all.sh), run from anywhere.
#
#   - `make dkms-src DESTDIR=$tmp/root` lays out the module sources as
#     `sudo make dkms-src` does in /usr/src/kohaku-<version>;
#   - `dkms add`, `build -k KVER` and `install -k KVER` of kohaku/<version>
#     with every tree of dkms's moved into $tmp: --sourcetree (the staged
#     /usr/src), --dkmstree (instead of /var/lib/dkms), --installtree
#     (instead of /lib/modules), --no-depmod (dkms would run `depmod -a
#     KVER` on the system's /lib/modules/KVER), TMPDIR, and the module
#     signing key pair that dkms generates on Debian when it is missing
#     (/var/lib/dkms/mok.key and mok.pub by default: mok_signing_key and
#     mok_certificate in the environment put it in $tmp);
#   - the built and the installed kohaku.ko and kohaku_sim.ko carry the
#     vermagic of KVER's own modules (modinfo, against drm.ko of KVER);
#   - `dkms remove --all` leaves nothing in the install tree;
#   - nothing below /lib/modules/KVER, /var/lib/dkms, /usr/src, /etc/dkms,
#     /etc/modprobe.d or /boot is newer than the start of the run.
#
# KVER: the kernel to build for (default: the newest /lib/modules/*deb12-amd64
# with headers, as `make modules`).  Skips when dkms is not installed.
# `dkms install` refuses to run as a user (it checks for root): as a user
# add and build are checked and install is skipped, saying so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
PATH=$PATH:/sbin:/usr/sbin

if ! command -v dkms >/dev/null 2>&1; then
	echo "1..0 # SKIP dkms is not installed (apt-get install dkms; scripts/install-deps.sh all)"
	exit 0
fi

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
finish() {
	echo "1..$n"
	exit $failed
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-dkms.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/stamp"
MAKE=${MAKE:-make}

# check DESC LOG CMD...: CMD's output in LOG; its last lines when it fails
check() {
	_d=$1
	_l=$2
	shift 2
	if "$@" >"$_l" 2>&1; then
		ok "$_d"
	else
		nok "$_d"
		tail -n 25 "$_l" | sed 's/^/# /'
		return 1
	fi
}

if [ -z "${KVER:-}" ]; then
	KVER=$(for d in /lib/modules/*deb12-amd64; do
		[ -f "$d/build/Makefile" ] && basename "$d"
	done | sort -V | tail -n 1)
fi
if [ -z "$KVER" ] || [ ! -f "/lib/modules/$KVER/build/Makefile" ]; then
	nok "kernel headers for ${KVER:-a *deb12-amd64 kernel} (/lib/modules/KVER/build: install linux-headers-6.12-amd64, or set KVER)"
	finish
fi
echo "# dkms $(dkms --version 2>/dev/null | sed 's/^dkms-//'), kernel $KVER"

# the sources, as `make dkms-src` lays them out below /usr/src
src=$tmp/root/usr/src
check "make dkms-src DESTDIR=\$tmp/root" "$tmp/dkms-src.log" \
	$MAKE --no-print-directory dkms-src DESTDIR="$tmp/root" || finish
ver=$(sed -n 's/^PACKAGE_VERSION="\([^"]*\)"$/\1/p' "$src"/kohaku-*/dkms.conf 2>/dev/null)
# the tree's one version, kohaku.h's (the Makefile's KH_VERSION)
want_ver=$(sed -n 's/^#define KOHAKU_LIB_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\).*/\2/p' \
	libruntime/kohaku.h | paste -sd. -)
sd=$src/kohaku-$ver
objs=$(find "$sd" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod' \
	-o -name '*.mod.c' \) 2>/dev/null | wc -l)
if [ -n "$ver" ] && [ "$ver" = "$want_ver" ] && [ -f "$sd/Kbuild" ] &&
	[ -f "$sd/layers.mk" ] && [ "$objs" -eq 0 ]; then
	ok "dkms-src: kohaku-$ver (kohaku.h's version) with dkms.conf, Kbuild, layers.mk, no built objects"
else
	nok "dkms-src: kohaku-<kohaku.h's version $want_ver> with dkms.conf, Kbuild, layers.mk, no built objects (got '$ver', $objs objects)"
	find "$src" -maxdepth 1 | sed 's/^/# /'
	finish
fi

# every tree dkms writes to, moved into $tmp
mkdir -p "$tmp/dkms" "$tmp/inst/$KVER" "$tmp/tmp"
export TMPDIR="$tmp/tmp"
export mok_signing_key="$tmp/mok.key" mok_certificate="$tmp/mok.pub"
dk() {
	dkms --dkmstree "$tmp/dkms" --sourcetree "$src" --installtree "$tmp/inst" \
		--no-depmod "$@"
}
arch=$(uname -m)

# vermagic_of FILE: its vermagic; want: KVER's own drm.ko's
vermagic_of() { modinfo -F vermagic "$1" 2>/dev/null; }
want=$(modinfo -k "$KVER" -F vermagic drm 2>/dev/null)
[ -n "$want" ] || want="$KVER SMP preempt mod_unload modversions "
echo "# KVER's vermagic (drm.ko): $want"
# check_vermagic WHAT DIR: kohaku and kohaku_sim in DIR have it
check_vermagic() {
	_bad=
	for _m in kohaku kohaku_sim; do
		_f=
		for _g in "$2/$_m".ko*; do
			[ -f "$_g" ] && _f=$_g && break
		done
		_v=$(vermagic_of "$_f")
		echo "# $1: ${_f#"$tmp"/}: vermagic $_v; signer $(modinfo -F signer "$_f" 2>/dev/null)"
		[ -n "$_f" ] && [ "$_v" = "$want" ] || _bad="$_bad $_m"
	done
	if [ -z "$_bad" ]; then
		ok "$1: kohaku and kohaku_sim have $KVER's vermagic"
	else
		nok "$1: kohaku and kohaku_sim have $KVER's vermagic (wrong or missing:$_bad)"
		find "$2" 2>&1 | sed 's/^/# /'
	fi
}

check "dkms add kohaku/$ver" "$tmp/add.log" dk add "kohaku/$ver" || finish
t0=$(date +%s)
if ! check "dkms build kohaku/$ver -k $KVER" "$tmp/build.log" \
	dk build "kohaku/$ver" -k "$KVER"; then
	tail -n 25 "$tmp/dkms/kohaku/$ver/build/make.log" 2>/dev/null | sed 's/^/# make.log: /'
	finish
fi
echo "# dkms build: $(($(date +%s) - t0)) s"
grep -i 'sign' "$tmp/build.log" | head -n 3 | sed 's/^/# /'
check_vermagic "built (dkms tree)" "$tmp/dkms/kohaku/$ver/$KVER/$arch/module"

inst=$tmp/inst/$KVER$(bash -c '. "$1" && echo "${DEST_MODULE_LOCATION[0]}"' sh "$sd/dkms.conf")
if [ "$(id -u)" != 0 ]; then
	skip "dkms install kohaku/$ver -k $KVER" "dkms install refuses to run as a user: run as root"
else
	if check "dkms install kohaku/$ver -k $KVER (install tree, no depmod)" \
		"$tmp/install.log" dk install "kohaku/$ver" -k "$KVER"; then
		check_vermagic "installed in ${inst#"$tmp"/}" "$inst"
		st=$(dk status "kohaku/$ver" 2>/dev/null)
		echo "# dkms status: $st"
		if echo "$st" | grep -q "^kohaku/$ver, $KVER, $arch: installed"; then
			ok "dkms status: kohaku/$ver, $KVER, $arch: installed"
		else
			nok "dkms status: kohaku/$ver, $KVER, $arch: installed"
		fi
	fi
fi

check "dkms remove kohaku/$ver --all" "$tmp/remove.log" dk remove "kohaku/$ver" --all
left=$(find "$tmp/inst" -name 'kohaku*' 2>/dev/null; find "$tmp/dkms" -mindepth 1 2>/dev/null)
if [ -z "$left" ]; then
	ok "dkms remove: no module left in the install tree, nothing in the dkms tree"
else
	nok "dkms remove: left behind"
	echo "$left" | sed "s|$tmp/|# |"
fi

# the system's trees: nothing newer than this run's start
sys=
for d in "/lib/modules/$KVER" /var/lib/dkms /usr/src /etc/dkms /etc/modprobe.d /boot; do
	[ -e "$d" ] && sys="$sys $d"
done
# shellcheck disable=SC2086
touched=$(find $sys -newer "$tmp/stamp" 2>/dev/null | head -n 20)
if [ -z "$touched" ]; then
	ok "nothing written to$sys"
else
	nok "nothing written to$sys"
	echo "$touched" | sed 's/^/# written: /'
fi
finish
