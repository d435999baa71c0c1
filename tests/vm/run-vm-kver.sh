#!/bin/sh
# The VM suite on Debian 12's other kernel line: make test's run-vm.sh
# boots the 6.12 kernel (linux-image-6.12-amd64) with the tree's own
# modules; this one takes the kernel Debian 12 installs by default, 6.1
# (linux-image-amd64), which has no DRM accel subsystem, so kohaku.ko's
# node there is a DRM render node (driver/linux/kohaku_compat.h,
# docs/linux.md "Kernel versions").
#
#   tests/vm/run-vm-kver.sh [SERIES]     SERIES 6.1 (the default) or another
#                                        line's first two numbers
#
#  1. the newest Debian release of SERIES under /lib/modules, generic
#     flavour (6.1.0-N-amd64), with its headers and image;
#  2. kohaku.ko and kohaku_sim.ko built against it with W=1 in a copy of
#     the tree, build/kver/<release>/src, from scratch (the tree's in-place
#     modules stay built for 6.12; a kernel tree's Kbuild builds external
#     modules in place): any compiler or modpost warning fails;
#  3. tests/vm/run-vm.sh on that kernel with those modules (KVER,
#     KOHAKU_VM_KOS, KOHAKU_VM_DIR build/kver/<release>/vm): the whole
#     guest suite, /dev/dri/renderDN instead of /dev/accel/accelN;
#  4. tests/vm/run-vm-pci.sh the same way (KOHAKU_VM_PCI_DIR
#     build/kver/<release>/vm-pci): kohaku.ko bound over PCI to QEMU's
#     kohaku-pcie cards on the kernel Debian 12 users run.
# Prints one TAP stream; exits nonzero on any failure.  Needs what
# run-vm.sh and run-vm-pci.sh need (make BUILD=build/static STATIC=1
# userspace, make firmware, make qemu) and linux-headers-amd64 and
# linux-image-amd64 (scripts/install-deps.sh all).  The environment is
# theirs.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
series=${1:-6.1}
now() { date +%s; }

fail_early() {
	echo "not ok 1 - $1"
	echo "1..1"
	echo "# vm ($series): 0 passed, 1 failed"
	exit 1
}

kver=$(for d in /lib/modules/"$series".*-amd64; do
	[ -d "$d/build" ] && basename "$d"
done | grep -E "^$series\.[0-9]+(-[0-9]+)?(\+deb[0-9]+)?-amd64$" | sort -V | tail -n 1)
[ -n "$kver" ] ||
	fail_early "a $series kernel with its headers under /lib/modules (install linux-headers-amd64 and linux-image-amd64: scripts/install-deps.sh all)"
work=$top/build/kver/$kver

# the modules, in a fresh copy of the tree: the sources and the makefiles
# (the copy's make modules_install is run-vm.sh's), not the builds; built
# whole every time, so that every file's warnings are seen
t0=$(now)
rm -rf "$work/src"
mkdir -p "$work/src"
(cd "$top" && tar -cf - --exclude=./build --exclude=./.git --exclude='*.o' \
	--exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=Module.symvers --exclude=modules.order .) |
	(cd "$work/src" && tar -xf -) || fail_early "copy the tree to $work/src"
# its makes are its own: a jobserver inherited from `make -j2 test` would
# only print "jobserver unavailable", which the W=1 check counts as a warning
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! make -C "$work/src" --no-print-directory KVER="$kver" W=1 modules \
	>"$work/modules.log" 2>&1; then
	sed 's/^/# /' "$work/modules.log" | tail -n 40
	fail_early "kohaku.ko and kohaku_sim.ko against $kver, W=1 ($work/modules.log)"
fi
warn=$(grep -E 'warning:|WARNING:' "$work/modules.log")
if [ -z "$warn" ]; then
	ok1="ok 1 - kohaku.ko and kohaku_sim.ko against $kver with W=1, no warnings ($(($(now) - t0)) s)"
else
	ok1="not ok 1 - kohaku.ko and kohaku_sim.ko against $kver with W=1, no warnings"
	warn=$(echo "$warn" | head -n 20 | sed 's/^/# /')
fi

# run-vm.sh's stream, numbered after the build's line
KVER=$kver KOHAKU_VM_KOS=$work/src KOHAKU_VM_DIR=${KOHAKU_KVER_VM_DIR:-$work/vm} \
	"$top/tests/vm/run-vm.sh" >"$work/vm.tap" 2>&1
rc=$?
KVER=$kver KOHAKU_VM_KOS=$work/src KOHAKU_VM_PCI_DIR=${KOHAKU_KVER_VM_PCI_DIR:-$work/vm-pci} \
	"$top/tests/vm/run-vm-pci.sh" >>"$work/vm.tap" 2>&1
rc_pci=$?
echo "$ok1"
[ -n "$warn" ] && echo "$warn"
awk '
/^(not )?ok [0-9]+/ {
	r = ($0 ~ /^not /) ? "not ok" : "ok"
	sub(/^(not )?ok [0-9]+/, "")
	print r " " ++n + 1 $0
	next
}
/^1\.\.[0-9]+$/ { next }
{ print }
END { print "1.." n + 1 }
' "$work/vm.tap"
case $ok1 in not*) exit 1 ;; esac
[ $rc -eq 0 ] && [ $rc_pci -eq 0 ]
