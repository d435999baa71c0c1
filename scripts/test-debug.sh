#!/bin/sh
# make test-debug: the VM tests on a debug kernel (docs/linux.md, "Debug
# kernel").
#
#  1. scripts/debug-kernel.sh: the kernel (KASAN, lockdep, UBSAN, kmemleak,
#     DEBUG_OBJECTS, DMA-API debugging, failslab, fail_page_alloc), built
#     once per configuration into a cache outside the clone (about 20 min
#     on 2 cores), else found there;
#  2. kohaku.ko and kohaku_sim.ko built against it in a copy of the tree
#     (build/debug/src: a 6.12 kernel has no MO= for out-of-tree modules,
#     and the tree's own in-place modules stay Debian's);
#  3. tests/vm/run-vm.sh on it with KOHAKU_VM_DEBUG=1: the whole VM suite,
#     then tests/vm/guest-debug.sh (kmemleak after unload, allocation
#     failures aimed at the modules, the log's reports);
#  4. tests/vm/run-vm-pci.sh on it the same way: kohaku.ko bound over PCI
#     to QEMU's kohaku-pcie cards (make qemu), one on pc and two behind
#     VT-d on q35, with the checkers on and kmemleak after the unload.
# Prints one TAP stream per suite; exits nonzero on any failure.
#
#   scripts/test-debug.sh [all|vm|pci]   both suites (make test-debug), or
#                                        only the kohaku_sim.ko or the PCI one
#
# Needs the static userspace build (make BUILD=build/static STATIC=1
# userspace) and the firmware, as make test-debug builds them.
# Environment: KOHAKU_DEBUG_KERNEL_CACHE, JOBS (scripts/debug-kernel.sh);
# KOHAKU_VM_TIMEOUT (10800), KOHAKU_VM_TEST_TIMEOUT (1200), KOHAKU_VM_MEM
# (2048); KOHAKU_DEBUG_VM_DIR (build/debug/vm).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
case $what in
all | vm | pci) ;;
*)
	echo "usage: scripts/test-debug.sh [all|vm|pci]" >&2
	exit 2
	;;
esac
work=$top/build/debug
now() { date +%s; }

fail_early() {
	echo "not ok 1 - $1"
	echo "1..1"
	echo "# vm (debug kernel): 0 passed, 1 failed"
	exit 1
}

t0=$(now)
env=$("$top/scripts/debug-kernel.sh" env) || fail_early "the debug kernel (scripts/debug-kernel.sh)"
KDIR=$(echo "$env" | sed -n 's/^KDIR=//p')
KVER=$(echo "$env" | sed -n 's/^KVER=//p')
KERNEL=$(echo "$env" | sed -n 's/^KERNEL=//p')
MODROOT=$(echo "$env" | sed -n 's/^MODROOT=//p')
entry=$(dirname "$KERNEL")
t1=$(now)
echo "# debug kernel $KVER: $entry (built in $(cat "$entry/build-seconds") s; found or built now in $((t1 - t0)) s)"

# the modules, in a copy of the tree: the sources and the makefiles (the
# copy's make modules_install is run-vm.sh's), not the builds
mkdir -p "$work/src"
(cd "$top" && tar -cf - --exclude=./build --exclude=./.git --exclude='*.o' \
	--exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=Module.symvers --exclude=modules.order .) |
	(cd "$work/src" && tar -xf -) || fail_early "copy the tree to $work/src"
if ! nice -n 19 make -C "$work/src" --no-print-directory KDIR="$KDIR" KVER="$KVER" \
	modules >"$work/modules.log" 2>&1; then
	sed 's/^/# /' "$work/modules.log" | tail -n 40
	fail_early "kohaku.ko and kohaku_sim.ko against $KDIR ($work/modules.log)"
fi
grep -E 'warning:|error:' "$work/modules.log" | sed 's/^/# modules: /'
echo "# modules built against $KVER in $work/src ($(($(now) - t1)) s)"

export KDIR KVER
# what both suites take: the debug kernel, its modules, the copy's
# kohaku.ko, the checkers, more memory and time
KOHAKU_VM_KERNEL=$KERNEL KOHAKU_VM_MODDIR=$MODROOT KOHAKU_VM_KOS=$work/src
KOHAKU_VM_DEBUG=1 KOHAKU_VM_MEM=${KOHAKU_VM_MEM:-2048}
KOHAKU_VM_TIMEOUT=${KOHAKU_VM_TIMEOUT:-10800}
KOHAKU_VM_TEST_TIMEOUT=${KOHAKU_VM_TEST_TIMEOUT:-1200}
KOHAKU_STATIC=${KOHAKU_STATIC:-$top/build/static}
export KOHAKU_VM_KERNEL KOHAKU_VM_MODDIR KOHAKU_VM_KOS KOHAKU_VM_DEBUG \
	KOHAKU_VM_MEM KOHAKU_VM_TIMEOUT KOHAKU_VM_TEST_TIMEOUT KOHAKU_STATIC
# the kohaku_sim.ko suite, then guest-debug.sh's sweeps
run_vm() {
	KOHAKU_VM_DIR=${KOHAKU_DEBUG_VM_DIR:-$work/vm} \
		KOHAKU_VM_FUZZ_SEQS=${KOHAKU_VM_FUZZ_SEQS:-5000} \
		KOHAKU_VM_ACCEL=${KOHAKU_VM_ACCEL:-auto} "$top/tests/vm/run-vm.sh"
}
# the PCI suite: the same kernel and modules, the cards QEMU's
run_pci() {
	KOHAKU_VM_PCI_DIR=${KOHAKU_DEBUG_VM_PCI_DIR:-$work/vm-pci} \
		KOHAKU_VM_ACCEL=${KOHAKU_VM_ACCEL:-tcg} "$top/tests/vm/run-vm-pci.sh"
}
rc=0
rc_pci=0
t2=$(now)
if [ "$what" != pci ]; then
	run_vm
	rc=$?
	echo "# the VM suite on the debug kernel: $(($(now) - t2)) s"
fi
t3=$(now)
if [ "$what" != vm ]; then
	run_pci
	rc_pci=$?
	echo "# the PCI suite on the debug kernel: $(($(now) - t3)) s"
fi
echo "# make test-debug: $(($(now) - t0)) s in all"
[ $rc -eq 0 ] && [ $rc_pci -eq 0 ]
