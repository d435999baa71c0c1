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
#                         udev checks, dkms for scripts/check-dkms.sh)
#   install-deps.sh debug all's, and what building the debug kernel of
#                         `make test-debug` needs (scripts/debug-kernel.sh:
#                         flex, bison, bc, libelf-dev, libssl-dev)
set -eu
what=${1:-all}
pkgs="gcc make pkg-config libdrm-dev zlib1g-dev libpciaccess-dev libjson-c-dev"
if [ "$what" = all ] || [ "$what" = debug ]; then
	pkgs="$pkgs linux-headers-6.12-amd64 linux-image-6.12-amd64 \
linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static cpio xz-utils zstd kmod valgrind \
gcc-riscv64-unknown-elf clang libclang-rt-14-dev linux-source-6.12 udev dkms"
fi
if [ "$what" = debug ]; then
	pkgs="$pkgs flex bison bc libelf-dev libssl-dev"
fi

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing$missing"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# The guest kernel is booted straight from /boot with our own initramfs;
# skip building a distribution initramfs nobody uses (about 50 s).
export INITRD=No
if [ -f /etc/initramfs-tools/update-initramfs.conf ]; then
	sed -i 's/^update_initramfs=yes/update_initramfs=no/' \
		/etc/initramfs-tools/update-initramfs.conf
fi
apt-get update -q >/dev/null || apt-get update
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
