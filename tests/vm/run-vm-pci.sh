#!/bin/sh
# kohaku.ko over PCI, on QEMU's kohaku-pcie cards (qemu/: a KohakuAccel card
# on the device model; docs/spec/qemu-device.md): no kohaku_sim.ko.
# Prints one TAP stream on stdout; exits nonzero on any failure.
# docs/linux.md ("kohaku.ko over PCI") describes it.
#
#   1. the device on the host, no guest: its properties, each refusal at
#      realize (desc=, descfile=, irq=), the knobs through QMP (qom-set
#      inject and command, qom-get) on a paused machine
#   2. khvm.pci=one: Debian's 6.12 kernel on the pc machine with one card
#      (saxpy): the function on the bus (ids, BARs, MSI-X in BAR1),
#      kohaku.ko bound (XDMA found, 4 MSI-X vectors), kohaku list, the node
#      table in sysfs and its ABI document, BO write/read through the XDMA
#      engine (rt_dma), a knob armed through QMP while the guest runs,
#      jobs, unbind/bind, rmmod/modprobe, poll_only=1, the runtime suite
#   3. khvm.pci=iommu: q35 with the VT-d IOMMU (intel_iommu=on) and two
#      cards behind PCIe root ports: the same on both, DMA translated,
#      one card unbound while the other works, no DMAR fault
# The guest is tests/vm/guest-pci.sh; the host answers its "KHVM-QMP"
# console lines on QEMU's QMP (stdin), and after the guest powers off
# (-no-shutdown) reads each card's counters (qom-get stats).
#
#   run-vm-pci.sh           the suite
#   run-vm-pci.sh --shell   one card, kohaku.ko bound, a shell on the
#                           console (make vm; ctrl-a x leaves)
#
# Needs, built beforehand: QEMU with the device (make qemu;
# scripts/build-qemu.sh), kohaku.ko (make modules), the static userspace
# (make BUILD=build/static STATIC=1 userspace).
#
# Environment (all optional): KVER, KERNEL, KOHAKU_MODDIR, KOHAKU_STATIC,
# KOHAKU_VM_ACCEL, KOHAKU_VM_TEST_TIMEOUT, and for another kernel
# KOHAKU_VM_KERNEL, KOHAKU_VM_MODDIR, KOHAKU_VM_KOS, KOHAKU_VM_DEBUG (a
# debug kernel's checks: tests/vm/guest-debug.sh), KOHAKU_VM_MEM (MiB,
# 1024; 2048 with KOHAKU_VM_DEBUG) as for run-vm.sh (scripts/test-debug.sh
# sets them);
# KOHAKU_QEMU (the QEMU binary; else scripts/build-qemu.sh path),
# KOHAKU_VM_PCI_DIR (work directory, build/vm-pci), KOHAKU_VM_TIMEOUT
# (seconds per boot, 1200), KOHAKU_VM_PCI_MAP (the shell's card, saxpy),
# KOHAKU_FW_IMAGE (the POOL firmware in the guest's /lib/firmware,
# build/firmware/pool.fw).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${KVER:-}" ]; then
	KVER=$(for d in /lib/modules/*deb12-amd64; do
		[ -d "$d" ] && basename "$d"
	done | sort -V | tail -n 1)
fi
KERNEL=${KOHAKU_VM_KERNEL:-${KERNEL:-/boot/vmlinuz-$KVER}}
MODDIR=${KOHAKU_VM_KOS:-${KOHAKU_MODDIR:-$top}}
# the kernel's modules: installed (/lib/modules) or under an
# INSTALL_MOD_PATH (a debug kernel's, scripts/debug-kernel.sh)
KMODROOT=${KOHAKU_VM_MODDIR:-}
KMODS=$KMODROOT/lib/modules/$KVER
DEBUG=${KOHAKU_VM_DEBUG:-0}
if [ "$DEBUG" = 1 ]; then MEM=${KOHAKU_VM_MEM:-2048}; else MEM=${KOHAKU_VM_MEM:-1024}; fi
kmodprobe() {
	if [ -n "$KMODROOT" ]; then modprobe -d "$KMODROOT" "$@"; else modprobe "$@"; fi
}
STATIC=${KOHAKU_STATIC:-$top/build/static}
FW_IMAGE=${KOHAKU_FW_IMAGE:-$top/build/firmware/pool.fw}
WORK=${KOHAKU_VM_PCI_DIR:-$top/build/vm-pci}
ACCEL=${KOHAKU_VM_ACCEL:-tcg}
VM_TIMEOUT=${KOHAKU_VM_TIMEOUT:-1200}
TEST_TIMEOUT=${KOHAKU_VM_TEST_TIMEOUT:-300}
BUSYBOX=${BUSYBOX:-/bin/busybox}
PATH=$PATH:/sbin:/usr/sbin
QEMU=${KOHAKU_QEMU:-$("$top/scripts/build-qemu.sh" path 2>/dev/null)}
SHELL_MODE=0
[ "${1:-}" = --shell ] && SHELL_MODE=1

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
finish() {
	echo "1..$n"
	echo "# vm-pci: $((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ---- prerequisites ----

missing=
[ -n "$QEMU" ] && [ -x "$QEMU" ] ||
	missing="$missing QEMU-with-kohaku-pcie (make qemu: scripts/build-qemu.sh)"
[ -n "$KVER" ] && [ -d "$KMODS" ] ||
	missing="$missing $KMODS (install linux-image-6.12-amd64)"
[ -r "$KERNEL" ] || missing="$missing $KERNEL"
[ -x "$BUSYBOX" ] || missing="$missing $BUSYBOX (busybox-static)"
[ -s "$FW_IMAGE" ] || missing="$missing $FW_IMAGE (make firmware)"
command -v lspci >/dev/null || missing="$missing lspci (pciutils)"
[ -f "$MODDIR/kohaku.ko" ] || missing="$missing $MODDIR/kohaku.ko (make modules)"
[ -x "$STATIC/kohaku" ] && [ -f "$STATIC/libkohaku.a" ] ||
	missing="$missing $STATIC/kohaku (make BUILD=build/static STATIC=1 userspace)"
if [ -n "$missing" ]; then
	notok "VM PCI test prerequisites: missing$missing"
	finish
fi
ok "VM PCI test prerequisites (kernel $KVER, $QEMU)"

# ---- 1. the device on the host, no guest ----

mkdir -p "$WORK"
device_checks() {

	# qemu_try ARGS...: QEMU on a paused pc machine, QMP commands from
	# $WORK/qmp-cmds on stdin (quit last); output in $WORK/try.out
	qemu_try() {
		# shellcheck disable=SC2086
		timeout 60 "$QEMU" -M pc -S -display none -nodefaults -accel tcg \
			-qmp stdio "$@" <"$WORK/qmp-cmds" >"$WORK/try.out" 2>&1
	}
	echo '{"execute": "quit"}' >"$WORK/qmp-cmds"
	"$QEMU" -device kohaku-pcie,help >"$WORK/try.out" 2>&1
	props=$(sed -n 's/^  \([a-z-]*\)=.*/\1/p' "$WORK/try.out" | tr '\n' ' ')
	missing=
	for p in desc descfile irq check inject command stats check-report; do
		echo " $props" | grep -q " $p " || missing="$missing $p"
	done
	if [ -z "$missing" ]; then
		ok "device: -device kohaku-pcie,help lists desc, descfile, irq, check, inject, command, stats, check-report"
	else
		notok "device: -device kohaku-pcie,help lacks$missing"
		sed 's/^/# /' "$WORK/try.out"
	fi
	# refuse WHAT PATTERN ARGS: realize refuses, saying PATTERN
	refuse() {
		_w=$1
		_p=$2
		shift 2
		qemu_try "$@"
		_rc=$?
		if [ $_rc -ne 0 ] && [ $_rc -ne 124 ] && grep -q -- "$_p" "$WORK/try.out"; then
			ok "device: $_w is refused at realize: $(grep -- "$_p" "$WORK/try.out" | head -n 1 | cut -c1-200)"
		else
			notok "device: $_w is refused at realize, saying '$_p' (status $_rc)"
			sed 's/^/# /' "$WORK/try.out" | head -n 10
		fi
	}
	refuse "desc=nope" "desc=nope: no built-in description of that name (.*saxpy.*); descfile= takes a file" \
		-device kohaku-pcie,desc=nope
	refuse "descfile= of a missing file" "descfile=$WORK/none: Failed to open file" \
		-device kohaku-pcie,descfile="$WORK/none"
	printf 'xxx sax xxx\nmag nul nul\0\nxxx sax xxx\n' >"$WORK/nul.desc"
	refuse "a descfile= with a NUL byte" "line 2: a NUL byte" \
		-device kohaku-pcie,descfile="$WORK/nul.desc"
	printf 'xxx sax xxx\nmag nul nul nul\nxxx sax xxx\n' >"$WORK/bad.desc"
	refuse "a descfile= the model refuses" "bad.desc: line 2" \
		-device kohaku-pcie,descfile="$WORK/bad.desc"
	refuse "desc= with descfile=" "desc= and descfile= are exclusive" \
		-device kohaku-pcie,desc=saxpy,descfile="$WORK/bad.desc"
	refuse "irq=bogus" "irq=bogus: expected msix or poll" \
		-device kohaku-pcie,irq=bogus
	# a card from a file, its knobs through QMP on the paused machine
	printf 'param inst_depth 8\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n' >"$WORK/card.desc"
	qset() { # PROPERTY VALUE
		printf '{"execute": "qom-set", "arguments": {"path": "/machine/peripheral/k", "property": "%s", "value": "%s"}}\n' "$1" "$2"
	}
	qget() { # PROPERTY
		printf '{"execute": "qom-get", "arguments": {"path": "/machine/peripheral/k", "property": "%s"}}\n' "$1"
	}
	{
		echo '{"execute": "qmp_capabilities"}'
		qset inject "busy node=1,0 cycles=10"
		qset inject "drop link=R9,9.E"
		qset command "inject xdma error=fetch dir=c2h count=2"
		qset command "check on"
		qset command "frobnicate"
		qget inject
		qget stats
		qget check-report
		echo '{"execute": "quit"}'
	} >"$WORK/qmp-cmds"
	qemu_try -device kohaku-pcie,id=k,descfile="$WORK/card.desc"
	rc=$?
	# QMP answers end in CRLF; a knob list is one JSON string with \n in it
	resp=$(tr -d '\r' <"$WORK/try.out" | grep -E '^\{"(return|error)"')
	line() { printf '%s\n' "$resp" | sed -n "$1p"; }
	if [ $rc -eq 0 ] && [ "$(line 1)" = '{"return": {}}' ]; then
		ok "device: descfile= of a map makes a card; QMP on the paused machine"
	else
		notok "device: descfile= of a map makes a card; QMP on the paused machine (status $rc)"
		sed 's/^/# /' "$WORK/try.out" | head -n 20
	fi
	if [ "$(line 2)" = '{"return": {}}' ]; then
		ok "knobs: qom-set inject 'busy node=1,0 cycles=10' is taken"
	else
		notok "knobs: qom-set inject 'busy node=1,0 cycles=10' is taken ($(line 2))"
	fi
	if printf "%s\n" "$(line 3)" | grep -q '"error".*inject drop link=R9,9.E: .*no link R9,9.E'; then
		ok "knobs: qom-set inject of a bad knob fails with the model's reason: $(line 3 | cut -c1-160)"
	else
		notok "knobs: qom-set inject of a bad knob fails with the model's reason ($(line 3))"
	fi
	if [ "$(line 4)" = '{"return": {}}' ] && [ "$(line 5)" = '{"return": {}}' ]; then
		ok "knobs: qom-set command 'inject xdma ...' and 'check on' are taken"
	else
		notok "knobs: qom-set command 'inject xdma ...' and 'check on' are taken ($(line 4) $(line 5))"
	fi
	if printf "%s\n" "$(line 6)" | grep -q '"error".*frobnicate'; then
		ok "knobs: qom-set command of an unknown command fails: $(line 6 | cut -c1-160)"
	else
		notok "knobs: qom-set command of an unknown command fails ($(line 6))"
	fi
	if printf "%s\n" "$(line 7)" | grep -q 'busy mesh=0 node=1,0' &&
		printf "%s\n" "$(line 7)" | grep -q 'xdma.*fetch'; then
		ok "knobs: qom-get inject lists both knobs: $(line 7 | cut -c1-200)"
	else
		notok "knobs: qom-get inject lists both knobs ($(line 7))"
	fi
	if printf "%s\n" "$(line 8)" | grep -q '"return": "qemu cycles=0 accesses=0 .* msix_vectors=0'; then
		ok "device: qom-get stats: the glue's counters and the model's ($(line 8 | cut -c1-120))"
	else
		notok "device: qom-get stats ($(line 8 | cut -c1-300))"
	fi
	if printf "%s\n" "$(line 9)" | grep -q '"return": "violations 0'; then
		ok "device: qom-get check-report: the protocol checker's report"
	else
		notok "device: qom-get check-report ($(line 9 | cut -c1-300))"
	fi
}
[ $SHELL_MODE -eq 1 ] || device_checks

# ---- the guest: initramfs ----

# vm_pci (a fault knob armed at run time) and vm_load (processes loading a
# card that goes away under them), static
vm_build_static vm_pci
vm_build_static vm_load

t0=$(now)
root=$WORK/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" "$root/abi" "$root/lib/modules/$KVER" ||
	{ notok "initramfs: work directory $WORK"; finish; }
cp "$BUSYBOX" "$root/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done
# kohaku.ko and what it needs, installed as a user installs it (the
# project's make modules_install, depmod), without kohaku_sim.ko: the card
# is the PCI function
deps_ok=1
for dep in $(modinfo -F depends "$MODDIR/kohaku.ko" | tr ',' '\n' | sort -u); do
	for f in $(kmodprobe -S "$KVER" --show-depends "$dep" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'); do
		g=${f%.xz}
		g=${g#"$KMODROOT"}
		mkdir -p "$root$(dirname "$g")"
		case $f in
		*.xz) xz -dc "$f" >"$root$g" || deps_ok=0 ;;
		*) cp "$f" "$root$g" || deps_ok=0 ;;
		esac
	done
done
for f in modules.builtin modules.builtin.modinfo; do
	[ -f "$KMODS/$f" ] && cp "$KMODS/$f" "$root/lib/modules/$KVER/"
done
(cd "$MODDIR" && make --no-print-directory modules_install KVER="$KVER" \
	INSTALL_MOD_PATH="$root") >"$WORK/modules_install.log" 2>&1 || deps_ok=0
rm -f "$root/lib/modules/$KVER"/updates/kohaku_sim.ko*
depmod -b "$root" "$KVER" >>"$WORK/modules_install.log" 2>&1 || deps_ok=0
grep -q '^updates/kohaku\.ko[.a-z]*: .*drm\.ko' "$root/lib/modules/$KVER/modules.dep" ||
	deps_ok=0
for t in "$STATIC"/tests/selftests/kohaku/*; do
	[ -f "$t" ] && [ -x "$t" ] && cp "$t" "$root/tests/"
done
cp "$STATIC/kohaku" "$root/bin/kohaku"
# lspci (pciutils) with the libraries it links, as a user would look
if LSPCI=$(command -v lspci); then
	for f in "$LSPCI" $(ldd "$LSPCI" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f" || deps_ok=0
	done
	mkdir -p "$root/usr/bin"
	[ -e "$root/usr/bin/lspci" ] || cp "$LSPCI" "$root/usr/bin/lspci"
fi
# the POOL firmware, where request_firmware("kohaku/pool.fw") finds it
mkdir -p "$root/lib/firmware/kohaku"
cp "$FW_IMAGE" "$root/lib/firmware/kohaku/pool.fw" || deps_ok=0
for t in vm_pci vm_load; do
	[ -x "$WORK/bin/$t" ] && cp "$WORK/bin/$t" "$root/bin/$t"
done
cp "$top"/Documentation/ABI/testing/sysfs-driver-kohaku* "$root/abi/"
cp "$top/tests/vm/guest-pci.sh" "$root/init"
chmod 755 "$root/init"
# a debug kernel's checks (the checkers there, kmemleak after the unload)
DEBUG_APPEND=
if [ "$DEBUG" = 1 ]; then
	cp "$top/tests/vm/guest-debug.sh" "$root/guest-debug.sh"
	# no5lvl: run-vm.sh says why
	DEBUG_APPEND="khvm.debug no5lvl log_buf_len=16M"
fi
initrd=$WORK/initrd.cpio.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd"
if [ $deps_ok -eq 1 ] && [ -s "$initrd" ]; then
	ok "initramfs: kohaku.ko (make modules_install, depmod; no kohaku_sim.ko)," \
		"$(du -k "$initrd" | cut -f1) KiB ($(elapsed "$t0" "$(now)") s)"
else
	notok "initramfs: kohaku.ko and drm by make modules_install and depmod"
	sed 's/^/# /' "$WORK/modules_install.log" | tail -n 20
	finish
fi

case $ACCEL in
kvm) accel_args="-accel kvm -cpu host" ;;
*) ACCEL=tcg accel_args="-accel tcg,thread=single -cpu max" ;;
esac

if [ $SHELL_MODE -eq 1 ]; then
	echo "# QEMU $QEMU, one kohaku-pcie card (${KOHAKU_VM_PCI_MAP:-saxpy})"
	# shellcheck disable=SC2086
	exec "$QEMU" $accel_args -smp 2 -m $MEM -nographic -no-reboot -nodefaults \
		-serial mon:stdio -kernel "$KERNEL" -initrd "$initrd" \
		-device kohaku-pcie,id=card0,desc="${KOHAKU_VM_PCI_MAP:-saxpy}" \
		-append "console=ttyS0 quiet panic=-1 khvm.pci=shell"
fi

# ---- boot: the guest's results, QMP on request ----

# boot MODE NCARDS QEMU-ARGS...: one run of the guest; its TAP into this stream
boot() {
	mode=$1
	ncards=$2
	shift 2
	serial=$WORK/serial-$mode.log
	qin=$WORK/qmp-$mode.in
	qout=$WORK/qmp-$mode.out
	rm -f "$qin" "$serial"
	mkfifo "$qin" || { notok "$mode: mkfifo $qin"; return; }
	: >"$serial"
	tb=$(now)
	# shellcheck disable=SC2086
	timeout "$VM_TIMEOUT" "$QEMU" $accel_args -smp 2 -m $MEM -display none \
		-nodefaults -no-reboot -no-shutdown -serial file:"$serial" \
		-qmp stdio -kernel "$KERNEL" -initrd "$initrd" "$@" \
		-append "console=ttyS0 quiet panic=-1 khvm.pci=$mode khvm.test_timeout=$TEST_TIMEOUT ${APPEND:-} $DEBUG_APPEND" \
		<"$qin" >"$qout" 2>"$WORK/qemu-$mode.err" &
	qpid=$!
	exec 7>"$qin"
	echo '{"execute": "qmp_capabilities"}' >&7
	sent=0
	final=0
	while kill -0 $qpid 2>/dev/null; do
		tr -d '\r' <"$serial" | sed -n 's/.*KHVM-QMP \([0-9][0-9]*\) \(.*\)$/\1 \2/p' \
			>"$WORK/qmp-req"
		while read -r i json; do
			if [ "$i" -gt "$sent" ]; then
				echo "$json" >&7
				sent=$i
			fi
		done <"$WORK/qmp-req"
		# the guest is off (-no-shutdown keeps QEMU): its cards'
		# counters (a card the guest had QEMU device_del is gone)
		if [ $final -eq 0 ] && grep -q '"event": "SHUTDOWN"' "$qout"; then
			c=0
			while [ $c -lt "$ncards" ]; do
				printf '{"execute": "qom-get", "arguments": {"path": "/machine/peripheral/card%s", "property": "stats"}}\n' $c >&7
				c=$((c + 1))
			done
			echo '{"execute": "quit"}' >&7
			final=1
		fi
		sleep 0.2
	done
	wait $qpid
	qrc=$?
	exec 7>&-
	boot_s=$(elapsed "$tb" "$(now)")

	tr -d '\r' <"$serial" >"$serial.txt"
	awk -v n="$n" '
	{ i = index($0, "KHVM: ") }
	i == 0 { next }
	{ l = substr($0, i + 6) }
	l ~ /^(not )?ok( |$)/ {
		r = (l ~ /^not /) ? "not ok" : "ok"
		sub(/^(not )?ok( [0-9]+)?( -)? ?/, "", l)
		print r " " ++n " - " l
		next
	}
	{ if (l !~ /^#/) l = "# " l; print l }
	' "$serial.txt" >"$WORK/guest-$mode.tap"
	cat "$WORK/guest-$mode.tap"
	gp=$(grep -c '^ok ' "$WORK/guest-$mode.tap")
	gf=$(grep -c '^not ok ' "$WORK/guest-$mode.tap")
	n=$((n + gp + gf))
	failed=$((failed + gf))

	end=$(grep -o 'KHVM-END .*' "$serial.txt" | tail -n 1)
	if grep -q 'KHVM-BEGIN' "$serial.txt"; then
		ok "$mode: guest booted and ran /init"
	else
		notok "$mode: guest booted and ran /init"
	fi
	if [ -n "$end" ]; then
		ok "$mode: guest finished: $end"
		w=$(echo "$end" | sed 's/.*pass=\([0-9]*\) fail=\([0-9]*\).*/\1 \2/')
		if [ "$w" = "$gp $gf" ]; then
			ok "$mode: every guest result reached the host ($gp passed, $gf failed)"
		else
			notok "$mode: guest results lost on the console: host saw $gp $gf, guest counted $w"
		fi
	else
		notok "$mode: guest finished (no KHVM-END: the guest died or hung; $serial)"
		tail -n 60 "$serial.txt" | sed 's/^/#   /'
	fi
	if grep -Eq 'Kernel panic|BUG:|Oops|general protection' "$serial.txt"; then
		notok "$mode: no panic or oops on the console"
		grep -E -A20 'Kernel panic|BUG:|Oops|general protection' "$serial.txt" |
			head -n 60 | sed 's/^/#   /'
	else
		ok "$mode: no panic or oops on the console"
	fi
	# the cards the guest had QEMU device_del: gone from QEMU at the end
	# (qom-get: DeviceNotFound), the others there
	gone=$(grep -o '"device_del", "arguments": {"id": "card[0-9]*"' "$WORK/qmp-req" |
		sed 's/.*"card\([0-9]*\)"/\1/')
	live=$((ncards - $(echo $gone | wc -w)))
	for c in $gone; do
		if grep -q "^{\"error\": {\"class\": \"DeviceNotFound\", \"desc\": \"Device '/machine/peripheral/card$c' not found\"" "$qout"; then
			ok "$mode: device_del card$c: QEMU removed the card (qom-get: DeviceNotFound)"
		else
			notok "$mode: device_del card$c: the card is still in QEMU at the end ($qout)"
		fi
	done
	# the QMP requests the guest made were answered, none refused
	nerr=$(grep '^{"error"' "$qout" | grep -vc 'DeviceNotFound')
	nret=$(grep -c '^{"return"' "$qout")
	if [ "$nerr" -eq 0 ] && [ "$nret" -ge $((1 + sent + live)) ]; then
		ok "$mode: QMP: $sent guest request(s) and $live qom-get stats answered, none refused"
	else
		notok "$mode: QMP: $sent request(s) + $live stats: $nret answers, $nerr errors ($qout)"
		grep '^{"error"' "$qout" | head -n 5 | sed 's/^/#   /'
	fi
	# the first line of each: the glue's counters
	st=$(tr -d '\r' <"$qout" | grep '"return": "qemu cycles=' | sed 's/^{"return": "//; s/\\n.*//')
	printf '%s\n' "$st" | sed 's/^/# stats: /'
	if [ "$(echo "$st" | grep -c 'reentries=0 ')" -eq "$live" ] &&
		! echo "$st" | grep -q ' msis=0 '; then
		ok "$mode: every card sent MSI-X messages, none of its DMA re-entered it (qom-get stats)"
	else
		notok "$mode: every card sent MSI-X messages and never re-entered (qom-get stats)"
	fi
	case $qrc in
	0) ok "$mode: qemu exited normally ($ACCEL, ${boot_s} s)" ;;
	124) notok "$mode: qemu killed after ${VM_TIMEOUT} s (KOHAKU_VM_TIMEOUT)" ;;
	*)
		notok "$mode: qemu exited with status $qrc"
		sed 's/^/#   /' "$WORK/qemu-$mode.err" | tail -n 10
		;;
	esac
	echo "# $mode: boot+test ${boot_s} s under $ACCEL; serial log $serial"
}

# one card on the pc machine (i440FX: conventional PCI)
APPEND="khvm.maps=saxpy"
boot one 1 -device kohaku-pcie,id=card0,desc=saxpy
# four cards behind PCIe root ports on q35, DMA through VT-d: two saxpy
# (the knobs, unbind, hot removal), POOL firmware with the IRQ addon, DXA
APPEND="intel_iommu=on iommu=nopt khvm.maps=saxpy,saxpy,pool_2x2,dxa_2x1"
boot iommu 4 -M q35 -device intel-iommu \
	-device pcie-root-port,id=rp0,chassis=1,slot=1 \
	-device pcie-root-port,id=rp1,chassis=2,slot=2 \
	-device pcie-root-port,id=rp2,chassis=3,slot=3 \
	-device pcie-root-port,id=rp3,chassis=4,slot=4 \
	-device kohaku-pcie,id=card0,bus=rp0,desc=saxpy \
	-device kohaku-pcie,id=card1,bus=rp1,desc=saxpy \
	-device kohaku-pcie,id=card2,bus=rp2,desc=pool_2x2 \
	-device kohaku-pcie,id=card3,bus=rp3,desc=dxa_2x1
finish
