#!/bin/sh
# Install the Debian 12 packages a Kohaku build needs, when they are missing.
#   install-deps.sh run   what `make run` needs (compiler, libdrm,
#                         libpciaccess: libkohaku.so and the CLI link it;
#                         libjson-c: the CLI's and kh-trace's --json)
#   install-deps.sh all   everything `make test` needs (kernel headers and
#                         image for the VM tests: 6.12's, and 6.1's, the
#                         Debian 12 default, for the modules' build and VM
#                         suite on it; qemu, busybox, valgrind,
#                         the riscv64-unknown-elf toolchain for the POOL
#                         firmware, clang and libFuzzer for the image-parser
#                         fuzzer, linux-source-6.12 for the kselftest
#                         harness the tests build on, udev for the VM's
#                         udev checks, dkms for scripts/check-dkms.sh,
#                         python3 and python3-numpy for the Python
#                         package's tests, which the VM runs too),
#                         and what building QEMU with the kohaku-pcie device
#                         takes (scripts/build-qemu.sh: dpkg-dev, meson,
#                         ninja-build, libglib2.0-dev, libpixman-1-dev,
#                         libfdt-dev, python3), with a deb-src entry for
#                         `apt-get source qemu` when the system has none
#   install-deps.sh debug all's, and what building the debug kernel of
#                         `make test-debug` needs (scripts/debug-kernel.sh:
#                         flex, bison, bc, libelf-dev, libssl-dev)
#
# On a fresh machine another package manager may hold the locks (cloud-init,
# unattended-upgrades' first run): apt-get waits for dpkg's lock
# (-o DPkg::Lock::Timeout), and `apt-get update`, which does not wait for
# the package lists' lock, is tried again while that lock is held; both
# for up to KOHAKU_APT_WAIT seconds (600).  The system's configuration is
# left as it was: nothing under /etc is edited (the distribution initramfs
# of the guest kernel is skipped with INITRD=No, for this run alone); the
# one file added is the deb-src entry below, for `all` and `debug` only.
# KOHAKU_DEPS_FORCE=1, for tests (scripts/check-deps.sh): go through
# `apt-get update` and `apt-get install` with no package even when nothing
# is missing, so that the waits above are exercised without installing.
set -eu
what=${1:-all}
pkgs="gcc make pkg-config libdrm-dev zlib1g-dev libpciaccess-dev libjson-c-dev"
if [ "$what" = all ] || [ "$what" = debug ]; then
	pkgs="$pkgs linux-headers-6.12-amd64 linux-image-6.12-amd64 \
linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static cpio xz-utils zstd kmod valgrind \
gcc-riscv64-unknown-elf clang libclang-rt-14-dev linux-source-6.12 udev dkms \
dpkg-dev meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev python3 pciutils python3-numpy"
fi
if [ "$what" = debug ]; then
	pkgs="$pkgs flex bison bc libelf-dev libssl-dev"
fi

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done

# scripts/build-qemu.sh gets Debian's QEMU source with `apt-get source`,
# which needs a deb-src entry; Debian 12 installs none by default.  Only
# this is added (source indexes of main, for bookworm, its updates and
# security), and only when no deb-src entry exists.
srclist=/etc/apt/sources.list.d/kohaku-src.sources
need_src=0
if [ "$what" = all ] || [ "$what" = debug ]; then
	grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources || need_src=1
fi
if [ $need_src -eq 1 ] && [ "$(id -u)" != 0 ]; then
	# only a QEMU build from an empty cache needs it: say so, go on
	echo "install-deps: no deb-src entry: make qemu cannot apt-get source qemu until root adds one (scripts/install-deps.sh all as root)" >&2
	need_src=0
fi
force=${KOHAKU_DEPS_FORCE:-0}
wait_s=${KOHAKU_APT_WAIT:-600}
apt_get() {
	apt-get -o DPkg::Lock::Timeout="$wait_s" "$@"
}
# apt-get update, tried again while another process holds the lists' lock
# (apt 2.6 waits for dpkg's lock alone); its output only when it failed
apt_update() {
	end=$(($(date +%s) + wait_s))
	said=0
	while :; do
		out=$(apt_get update -q 2>&1) && return 0
		case $out in
		*"Could not get lock"*) ;;
		*)
			echo "$out" >&2
			return 1
			;;
		esac
		if [ "$(date +%s)" -ge "$end" ]; then
			echo "$out" >&2
			echo "install-deps: the package lists were still locked after ${wait_s} s (KOHAKU_APT_WAIT)" >&2
			return 1
		fi
		[ $said -eq 1 ] || echo "install-deps: waiting for the package lists' lock: $(echo "$out" | grep -m 1 'Could not get lock' | sed 's/^E: //')" >&2
		said=1
		sleep 2
	done
}

[ -z "$missing" ] && [ $need_src -eq 0 ] && [ "$force" != 1 ] && exit 0
if [ $need_src -eq 1 ]; then
	echo "install-deps: adding $srclist (deb-src, for apt-get source qemu)"
	cat >"$srclist" <<'EOF2'
# Added by Kohaku's scripts/install-deps.sh: source indexes only, for
# `apt-get source qemu` (scripts/build-qemu.sh builds QEMU with the
# kohaku-pcie device from Debian's own source).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF2
	apt_update
	[ -z "$missing" ] && [ "$force" != 1 ] && exit 0
fi

[ -n "$missing" ] && echo "install-deps: installing$missing"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# The guest kernel is booted straight from /boot with our own initramfs;
# skip building a distribution initramfs nobody uses (about 50 s): the
# kernel's postinst hook (/etc/kernel/postinst.d/initramfs-tools) honours
# INITRD=No.  update-initramfs.conf is not touched: the running system's
# own initramfs keeps being updated when a package asks for it.
export INITRD=No
apt_update
# shellcheck disable=SC2086
apt_get install -y -q --no-install-recommends $missing
