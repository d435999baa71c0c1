#!/bin/sh
# Build Debian 12's QEMU (the qemu source package, 7.2) with the kohaku-pcie
# device (qemu/: a KohakuAccel card on the project's device model), and
# cache the result outside the clone so a kept machine builds it once.
# docs/linux.md ("QEMU with a kohaku-pcie card") describes it;
# docs/spec/qemu-device.md the device.
#
#   build-qemu.sh [build]   build when the cache has no entry for the current
#                           sources; print the binary's path
#   build-qemu.sh path      print the binary's path when it is built (exit 1
#                           when not), never building
#   build-qemu.sh key       print the cache key and what it is made of
#
# The cache entry is ${KOHAKU_QEMU_CACHE:-/var/cache/kohaku/qemu}/<key>/,
# <key> 16 hex digits of a SHA-256 over the QEMU source package version, the
# compiler and the model's flags (make ksim-pic-flags), and every source
# file of qemu/, sim-backend/, uapi/, hwif/, layers.mk and this script.  It
# holds bin/qemu-system-x86_64 (with share/ and lib/ linking to Debian's
# firmware directories), build.log, build-seconds, key.txt and complete.
# The work tree it is built in (Debian's source with the device copied in,
# and QEMU's build directory) is kept per QEMU version in work-<version>/,
# so a new key (a model change) recompiles the glue and relinks; the first
# build configures and compiles all of QEMU's x86_64 system emulator (a
# minimal configuration: TCG and KVM, no tools, docs or optional features).
#
# The source comes from `apt-get source` of the version of the installed
# qemu-system-x86 (its source package), downloaded and unpacked with
# Debian's patches once into src/ of the cache; it needs a deb-src entry
# and dpkg-dev, meson, ninja-build, libglib2.0-dev, libpixman-1-dev and
# libfdt-dev (scripts/install-deps.sh all installs them and adds the
# deb-src entry).
#
# Environment: KOHAKU_QEMU_CACHE (the cache), JOBS (ninja's jobs; the
# number of CPUs), BUILD (the tree's userspace build directory, build/),
# QEMU_VERSION (another source version than the installed one's).  One
# build at a time (a lock in the cache); the build runs under nice.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${KOHAKU_QEMU_CACHE:-/var/cache/kohaku/qemu}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
what=${1:-build}

die() {
	echo "build-qemu: $*" >&2
	exit 1
}

# the source package's version: the installed emulator's, else the newest
qemu_version() {
	if [ -n "${QEMU_VERSION:-}" ]; then
		echo "$QEMU_VERSION"
		return
	fi
	v=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null || true)
	[ -n "$v" ] || v=$(apt-cache showsrc qemu 2>/dev/null |
		sed -n 's/^Version: //p' | sort -V | tail -n 1)
	[ -n "$v" ] || die "no qemu source version: install qemu-system-x86, or add a deb-src entry (scripts/install-deps.sh all)"
	echo "$v"
}

# the sources the binary is made of, with their contents' hashes
key_inputs() {
	echo "qemu-source $1"
	(cd "$top" && MAKEFLAGS= make -s --no-print-directory ksim-pic-flags QEMU_TOP=/kohaku) ||
		die "make ksim-pic-flags failed"
	(cd "$top" && find qemu sim-backend uapi hwif -type f \
		\( -name '*.[ch]' -o -name '*.mk' -o -name meson.build -o -name Kconfig \) \
		-print | LC_ALL=C sort | xargs sha256sum
	 sha256sum layers.mk scripts/build-qemu.sh)
}

ver=$(qemu_version)
# a version as a directory name: 1:7.2+dfsg-7+deb12u18 -> 7.2+dfsg-7+deb12u18
vdir=$(echo "$ver" | sed 's/^[0-9]*://; s/[^A-Za-z0-9.+~-]/_/g')
inputs=$(key_inputs "$ver")
key=$(echo "$inputs" | sha256sum | cut -c1-16)
entry=$CACHE/$key
bin=$entry/bin/qemu-system-x86_64

case $what in
key)
	echo "$key"
	echo "$inputs"
	exit 0
	;;
path)
	[ -f "$entry/complete" ] && [ -x "$bin" ] || exit 1
	echo "$bin"
	exit 0
	;;
build) ;;
*) die "usage: build-qemu.sh [build|path|key]" ;;
esac

if [ -f "$entry/complete" ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

for t in dpkg-source meson ninja pkg-config; do
	command -v $t >/dev/null || die "$t not found: scripts/install-deps.sh all"
done
for p in glib-2.0:libglib2.0-dev pixman-1:libpixman-1-dev; do
	pkg-config --exists "${p%%:*}" 2>/dev/null ||
		die "${p%%:*} not found: install ${p#*:} (scripts/install-deps.sh all)"
done
# Debian's libfdt-dev has no .pc file
[ -f /usr/include/libfdt.h ] || die "libfdt.h not found: install libfdt-dev (scripts/install-deps.sh all)"
mkdir -p "$CACHE" || die "cannot create $CACHE (KOHAKU_QEMU_CACHE)"

# one build at a time; the lock is the cache's own
exec 9>"$CACHE/.lock"
flock 9
if [ -f "$entry/complete" ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

t0=$(date +%s)
mkdir -p "$entry"
log=$entry/build.log
: >"$log"
echo "build-qemu: QEMU $ver with kohaku-pcie -> $entry (log $log)" >&2

# ---- Debian's source, patched, once per version ----
src=$CACHE/src/$vdir
if [ ! -f "$src/.kohaku-complete" ]; then
	rm -rf "$src" "$CACHE/src/dl-$vdir"
	mkdir -p "$CACHE/src/dl-$vdir"
	echo "build-qemu: apt-get source qemu=$ver" >&2
	(cd "$CACHE/src/dl-$vdir" && apt-get source --download-only "qemu=$ver") \
		>>"$log" 2>&1 ||
		die "apt-get source --download-only qemu=$ver failed (a deb-src entry? scripts/install-deps.sh all); $log"
	dsc=$(ls "$CACHE/src/dl-$vdir"/qemu_*.dsc | head -n 1)
	dpkg-source -x "$dsc" "$src" >>"$log" 2>&1 || die "dpkg-source -x $dsc failed; $log"
	touch "$src/.kohaku-complete"
fi

# ---- the work tree: the source with the device in hw/misc/kohaku ----
work=$CACHE/work-$vdir
tree=$work/tree
if [ ! -f "$tree/.kohaku-copied" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	cp -a "$src" "$tree"
	echo "subdir('kohaku')" >>"$tree/hw/misc/meson.build"
	echo "source kohaku/Kconfig" >>"$tree/hw/misc/Kconfig"
	touch "$tree/.kohaku-copied"
fi

# the tree's headers the glue includes, and the model's archive, in the
# entry (the build reads them there, not in the clone)
snap=$entry/kohaku
rm -rf "$snap"
mkdir -p "$snap"
(cd "$top" && find sim-backend uapi hwif -name '*.h' | cpio -pd --quiet "$snap") ||
	die "copying the headers failed"
echo "build-qemu: the model: make ksim-pic BUILD=$BUILD" >&2
(cd "$top" && MAKEFLAGS= make -s -j"$JOBS" BUILD="$BUILD" ksim-pic) >>"$log" 2>&1 ||
	die "make ksim-pic failed; $log"
cp "$BUILD/qemu/libksim.a" "$snap/libksim.a"
glue=$(cd "$top" && MAKEFLAGS= make -s --no-print-directory ksim-pic-flags QEMU_TOP="$snap" |
	sed -n 's/^glue: //p')
cflags=$(for f in $glue; do printf "'%s', " "$f"; done | sed 's/, $//')
mkdir -p "$tree/hw/misc/kohaku"
cp "$top/qemu/kohaku-pcie.c" "$top/qemu/Kconfig" "$tree/hw/misc/kohaku/"
sed -e "s|@KOHAKU_CFLAGS@|$cflags|" -e "s|@KOHAKU_MODEL@|$snap/libksim.a|" \
	"$top/qemu/meson.build" >"$tree/hw/misc/kohaku/meson.build.new"
# unchanged content keeps meson from reconfiguring
if ! cmp -s "$tree/hw/misc/kohaku/meson.build.new" "$tree/hw/misc/kohaku/meson.build"; then
	mv "$tree/hw/misc/kohaku/meson.build.new" "$tree/hw/misc/kohaku/meson.build"
else
	rm "$tree/hw/misc/kohaku/meson.build.new"
fi

# ---- configure once (again when these options change), then ninja ----
# --prefix and --firmwarepath as Debian's own build (debian/rules); QEMU
# 7.2 looks for them relative to the binary (bin/../share/qemu), where the
# entry has links to Debian's firmware (seabios, linuxboot_dma.bin), which
# the qemu-system-x86 package installed
bdir=$work/build
copts="--target-list=x86_64-softmmu --without-default-features \
--enable-fdt=system --disable-docs --disable-tools --disable-user \
--disable-werror --enable-tcg --enable-kvm --prefix=/usr \
--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu"
if [ ! -f "$bdir/build.ninja" ] || [ "$(cat "$bdir/.kohaku-configure" 2>/dev/null)" != "$copts" ]; then
	rm -rf "$bdir"
	mkdir -p "$bdir"
	echo "build-qemu: configure" >&2
	# shellcheck disable=SC2086
	(cd "$bdir" && nice -n 19 ../tree/configure $copts) >>"$log" 2>&1 ||
		die "configure failed; $log"
	echo "$copts" >"$bdir/.kohaku-configure"
fi
# the archive is a link input meson does not know of: relink when it moved
rm -f "$bdir/qemu-system-x86_64"
echo "build-qemu: ninja -j$JOBS qemu-system-x86_64" >&2
(cd "$bdir" && nice -n 19 ninja -j"$JOBS" qemu-system-x86_64) >>"$log" 2>&1 ||
	die "the build failed; $log"

mkdir -p "$entry/bin" "$entry/share" "$entry/lib/ipxe"
for d in share/qemu share/seabios lib/ipxe/qemu; do
	ln -sfn "/usr/$d" "$entry/$d"
done
cp "$bdir/qemu-system-x86_64" "$bin.tmp"
"$bin.tmp" -device kohaku-pcie,help >>"$log" 2>&1 ||
	die "the built QEMU has no kohaku-pcie device; $log"
mv "$bin.tmp" "$bin"
echo "$inputs" >"$entry/key.txt"
echo $(($(date +%s) - t0)) >"$entry/build-seconds"
touch "$entry/complete"
echo "build-qemu: built in $(cat "$entry/build-seconds") s" >&2
echo "$bin"
