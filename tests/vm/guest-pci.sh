#!/bin/sh
# /init of the Kohaku PCI test VM: kohaku.ko alone, bound over PCI to
# QEMU's kohaku-pcie cards (qemu/, docs/spec/qemu-device.md).
# tests/vm/run-vm-pci.sh packs it into the initramfs with busybox, the
# modules (kohaku_sim.ko is not in the guest) and the static test binaries,
# and boots it twice: khvm.pci=one (one saxpy card on the pc machine) and
# khvm.pci=iommu (four cards behind PCIe root ports on q35, DMA through
# the VT-d IOMMU: two saxpy, one pool_2x2 with POOL firmware from
# /lib/firmware and the IRQ addon, one dxa_2x1 with the DXA unit).  khvm.maps names each
# card's description, in bus order.
#
# Results are console lines "KHVM: ok - ...", "KHVM: not ok - ..."; the
# host numbers them into one TAP stream.  "KHVM-QMP N {json}" asks the host to send one QMP
# command to QEMU (the fault knobs, qom-set; a hot removal, device_del).
# The last line is "KHVM-END pass=N fail=N".
#
# With khvm.debug (a debug kernel: make test-debug, run-vm-pci.sh with
# KOHAKU_VM_DEBUG=1) it sources /guest-debug.sh: the checkers are there,
# timeouts are longer, and kmemleak finds nothing after the last unload.
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /tmp /run
mount -t tmpfs tmpfs /tmp

# make vm (run-vm-pci.sh --shell): kohaku.ko bound to the card, then a shell
if grep -q 'khvm.pci=shell' /proc/cmdline; then
	modprobe kohaku
	dmesg | grep kohaku
	echo
	echo "kohaku.ko is bound to the kohaku-pcie card(s): try 'kohaku list',"
	echo "'kohaku info', 'kohaku nodes', 'kohaku run saxpy'; the runtime tests"
	echo "are in /tests (KOHAKU_BACKEND=kernel KOHAKU_DEVICE=/dev/accel/accel0, or"
	echo "/dev/dri/renderD128 on a kernel before 6.2)."
	echo "'poweroff -f' (or ctrl-a x) leaves."
	export KOHAKU_BACKEND=kernel
	exec setsid cttyhack sh -l
fi

echo "KHVM-BEGIN uptime=$(cut -d' ' -f1 /proc/uptime)"

npass=0
nfail=0
say() { echo "KHVM: $*"; }
diag() { say "# $*"; }
ok() { npass=$((npass + 1)); say "ok - $*"; }
notok() { nfail=$((nfail + 1)); say "not ok - $*"; }
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else notok "$_d"; fi
}
fails() { ! "$@"; }
contains() { echo "$1" | grep -q -- "$2"; }
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		notok "$1 (got '$2', want '$3')"
	fi
}
sysfs_write() {
	printf '%b' "$2" >/tmp/sysfs_write.txt
	dd if=/tmp/sysfs_write.txt of="$1" bs=4096 count=1 2>/dev/null
}

MODE=$(sed -n 's/.*khvm.pci=\([a-z]*\).*/\1/p' /proc/cmdline)
TEST_TIMEOUT=$(sed -n 's/.*khvm.test_timeout=\([0-9]*\).*/\1/p' /proc/cmdline)
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
export KOHAKU_TEST_TIMEOUT_SCALE=10
PCI=/sys/bus/pci/drivers/kohaku
DEVS=/sys/bus/pci/devices
MAPS=$(sed -n 's/.*khvm.maps=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline | tr , ' ')
case $MODE in
iommu) ;;
*) MODE=one ;;
esac
MAPS=${MAPS:-saxpy}
NCARDS=$(echo $MAPS | wc -w)
FWP=/lib/firmware/kohaku/pool.fw
diag "mode $MODE: $NCARDS kohaku-pcie card(s); $(uname -r)"

# ctrl32_of ACCEL: y when the driver drives that card's control space in
# 32-bit AXI-Lite accesses (KOHAKU_CAP_CTRL32, 1 << 7, in kohaku info's
# caps), as a card on a PCI bus must be driven (kohakutpu.md 8.4)
ctrl32_of() {
	_c=$(KOHAKU_BACKEND=kernel timeout 60 /bin/kohaku --device "$NODES/$1" info \
		2>/dev/null | sed -n 's/^caps *\(0x[0-9a-f]*\).*/\1/p')
	[ -n "$_c" ] && [ $((_c & 0x80)) -ne 0 ] && echo y || echo n
}

# a debug kernel's checks (tests/vm/guest-debug.sh)
KHVM_DEBUG=
if grep -q 'khvm.debug' /proc/cmdline && [ -f /guest-debug.sh ]; then
	. /guest-debug.sh
	KHVM_DEBUG=1
	debug_start
fi

# relay LABEL FILE STATUS: a test binary's TAP, results prefixed with LABEL
relay() {
	awk -v label="$1" '
	/^(not )?ok( |$)/ {
		r = ($0 ~ /^not /) ? "not ok" : "ok"
		s = $0
		sub(/^(not )?ok( [0-9]+)?( -)? ?/, "", s)
		print "KHVM: " r " - " label ": " s
		next
	}
	/^#/ { print "KHVM: " $0; next }
	/^1\.\.[0-9]+/ { print "KHVM: # " label ": plan " $0; next }
	{ print "KHVM: # " label ": " $0 }' "$2"
	_p=$(grep -cE '^ok( |$)' "$2")
	_f=$(grep -cE '^not ok( |$)' "$2")
	npass=$((npass + _p))
	nfail=$((nfail + _f))
	if [ "$3" -ne 0 ] && [ "$_f" -eq 0 ]; then
		notok "$1: exited with status $3 without a failing test line"
	elif [ $((_p + _f)) -eq 0 ]; then
		notok "$1: printed no test results"
	fi
}

# run_test LABEL DEVICE BINARY [ARGS]: a runtime test on a card whose map
# is $RT_MAP (saxpy when empty)
run_test() {
	_l=$1
	_dev=$2
	shift 2
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$_dev KOHAKU_TEST_MAP=${RT_MAP:-saxpy} \
		KOHAKU_TEST_FW=$FWP \
		KOHAKU_TEST_PCI=1 KOHAKU_TEST_DMA_MAX=4194304 timeout "$TEST_TIMEOUT" "$@" \
		>/tmp/test.out 2>&1 </dev/null
	relay "$_l" /tmp/test.out $?
}

# qmp JSON: one QMP command for the host to send to QEMU (run-vm-pci.sh
# reads the console); nothing comes back: the guest looks for its effect
nqmp=0
qmp() {
	nqmp=$((nqmp + 1))
	echo "KHVM-QMP $nqmp $1"
}

# wait_for FILE SECONDS PID: FILE exists within SECONDS, while PID lives
wait_for() {
	_n=0
	while [ ! -e "$1" ] && [ $_n -lt $(($2 * 10)) ] && kill -0 "$3" 2>/dev/null; do
		sleep 0.1
		_n=$((_n + 1))
	done
	[ -e "$1" ]
}
# in_ioctl PID: the process is inside an ioctl (x86-64's 16) right now
in_ioctl() {
	[ "$(cut -d' ' -f1 /proc/$1/syscall 2>/dev/null)" = 16 ]
}
# load_start DEVICE PROCS [OPTIONS]: vm_load in the background, PROCS
# processes running jobs on DEVICE until it goes (vm_load OPTIONS -r
# /tmp/ready DEVICE PROCS 0), $LOAD_PID; true once every process of it is
# under way
load_start() {
	_dev=$1
	_procs=$2
	shift 2
	rm -f /tmp/ready /tmp/load.out
	timeout "$TEST_TIMEOUT" /bin/vm_load -r /tmp/ready "$@" "$_dev" "$_procs" 0 \
		>/tmp/load.out 2>&1 </dev/null &
	LOAD_PID=$!
	wait_for /tmp/ready "$TEST_TIMEOUT" $LOAD_PID
}
# load_end: vm_load's status once it ends, its output relayed
load_end() {
	wait $LOAD_PID
	_rc=$?
	sed 's/^/KHVM: # /' /tmp/load.out
	return $_rc
}

# ---- the functions on the bus, before any driver ----

# cards: the functions 10ee:903f, in bus order
cards() {
	for _p in $DEVS/*; do
		[ "$(cat "$_p/vendor")" = 0x10ee ] && [ "$(cat "$_p/device")" = 0x903f ] &&
			basename "$_p"
	done
}
CARDS=$(cards)
for _p in $DEVS/*; do
	diag "pci $(basename "$_p") $(cat "$_p/vendor"):$(cat "$_p/device") class $(cat "$_p/class")"
done
expect "PCI: $NCARDS function(s) 10ee:903f on the bus" "$(echo $CARDS | wc -w)" "$NCARDS"
CARD0=$(echo $CARDS | cut -d' ' -f1)
# map_of BDF: the card's description (khvm.maps, in bus order)
map_of() {
	_i=1
	for _c in $CARDS; do
		[ "$_c" = "$1" ] && echo $MAPS | cut -d' ' -f$_i && return
		_i=$((_i + 1))
	done
}
# the card of a map (the first), and QEMU's id of a card (cardN, bus order)
card_of() {
	for _c in $CARDS; do
		[ "$(map_of $_c)" = "$1" ] && echo $_c && return
	done
}
id_of() {
	_i=0
	for _c in $CARDS; do
		[ "$_c" = "$1" ] && echo card$_i && return
		_i=$((_i + 1))
	done
}
# the saxpy cards: the node table checks, the knobs, unbind, hot removal
SAXPY=
for _c in $CARDS; do
	[ "$(map_of $_c)" = saxpy ] && SAXPY="$SAXPY $_c"
done
for _c in $CARDS; do
	diag "card $_c: $(id_of $_c), map $(map_of $_c)"
done

# bar_size BDF N: BAR N's size from the resource file (0: none); its flags
bar_size() {
	set -- $(sed -n "$(($2 + 1))p" "$DEVS/$1/resource")
	if [ $(($2)) -eq 0 ]; then echo 0; else echo $(($2 - $1 + 1)); fi
}
bar_flags() {
	sed -n "$(($2 + 1))p" "$DEVS/$1/resource" | awk '{ print $3 }'
}
# cfg BDF OFFSET LEN: LEN bytes of config space at OFFSET, little-endian, hex
cfg() {
	od -An -tx1 -v -j "$2" -N "$3" "$DEVS/$1/config" | tr -d ' \n' |
		sed 's/\(..\)/\1 /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i; print "" }'
}
# msix_cap BDF: the MSI-X capability's offset in config space (hex), or none
msix_cap() {
	_o=$((0x$(cfg "$1" 52 1)))
	_n=0
	while [ "$_o" -ne 0 ] && [ $_n -lt 48 ]; do
		if [ "$(cfg "$1" $_o 1)" = 11 ]; then
			printf '%x\n' "$_o"
			return
		fi
		_o=$((0x$(cfg "$1" $((_o + 1)) 1)))
		_n=$((_n + 1))
	done
}
for b in $CARDS; do
	expect "PCI $b: subsystem 10ee:0007" \
		"$(cat $DEVS/$b/subsystem_vendor):$(cat $DEVS/$b/subsystem_device)" "0x10ee:0x0007"
	expect "PCI $b: class 0x058000 (memory controller, PG195's default)" \
		"$(cat $DEVS/$b/class)" 0x058000
	expect "PCI $b: BAR0 is 16 MiB (the AXI-Lite control space)" "$(bar_size $b 0)" 16777216
	expect "PCI $b: BAR1 is 64 KiB (the XDMA registers)" "$(bar_size $b 1)" 65536
	for n in 0 1; do
		f=$(($(bar_flags $b $n)))
		check "PCI $b: BAR$n is memory, 32-bit, not prefetchable (flags $(bar_flags $b $n))" \
			test $((f & 0x200)) -ne 0 -a $((f & 0x2000)) -eq 0 -a $((f & 0x100000)) -eq 0
	done
	check "lspci -n -s $b: 10ee:903f" sh -c "lspci -n -s $b | grep -q ' 10ee:903f'"
	expect "PCI $b: no BAR2..5" "$(bar_size $b 2)$(bar_size $b 3)$(bar_size $b 4)$(bar_size $b 5)" 0000
	expect "PCI $b: no INTx pin (MSI-X only)" "$(cfg $b 61 1)" 00
	c=$(msix_cap $b)
	if [ -n "$c" ]; then
		ctl=$((0x$(cfg $b $((0x$c + 2)) 2)))
		tab=$((0x$(cfg $b $((0x$c + 4)) 4)))
		pba=$((0x$(cfg $b $((0x$c + 8)) 4)))
		expect "PCI $b: MSI-X with 4 vectors" $(((ctl & 0x7ff) + 1)) 4
		expect "PCI $b: MSI-X table in BAR1 at 0x8000 (PG195)" \
			"$((tab & 7)) $(printf 0x%x $((tab & ~7)))" "1 0x8000"
		expect "PCI $b: MSI-X PBA in BAR1 at 0x8fe0 (PG195)" \
			"$((pba & 7)) $(printf 0x%x $((pba & ~7)))" "1 0x8fe0"
	else
		notok "PCI $b: an MSI-X capability"
	fi
done

# kohaku list with no driver: the function, and what to do
cli() { # DESC STATUS ARGS...: the CLI exits with STATUS, output in /tmp/cli.out
	_d=$1
	_want=$2
	shift 2
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku "$@" \
		>/tmp/cli.out 2>&1 </dev/null
	_rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	expect "$_d" "$_rc" "$_want"
}
cli "kohaku list before kohaku.ko: exit 3 (no usable device)" 3 list
check "kohaku list: $CARD0 10ee:903f, subsystem 10ee:0007, BAR0 16 MiB, BAR1 64 KiB, no driver" \
	grep -q "^$CARD0 10ee:903f (subsystem 10ee:0007, rev 00): .*BAR0 16 MiB, BAR1 64 KiB, driver -$" /tmp/cli.out
check "kohaku list: why: no driver bound, modprobe kohaku" \
	grep -q "no driver bound: modprobe kohaku" /tmp/cli.out

# ---- kohaku.ko alone, bound over PCI ----

check "modprobe kohaku" modprobe kohaku
# the cards' nodes: /dev/accel/accelN, or on a kernel without DRM accel
# (before 6.2) DRM render nodes, /dev/dri/renderDN (kohaku_compat.h)
if [ -d /sys/class/accel ]; then
	NODES=/dev/accel NODEPAT='accel*'
else
	NODES=/dev/dri NODEPAT='renderD*'
fi
diag "kernel $(uname -r): the cards' nodes are in $NODES"
check "kohaku_sim.ko is not loaded (nor in the guest)" \
	sh -c "[ ! -d /sys/module/kohaku_sim ] && ! find /lib/modules -name 'kohaku_sim*' | grep -q ."
# the node of a bound function (accelN or renderDN), empty when it has none
accel_of() {
	for _a in "$DEVS/$1"/accel/accel* "$DEVS/$1"/drm/renderD*; do
		[ -e "$_a" ] && basename "$_a" && return
	done
}
# bound BDF: checks that kohaku.ko holds BDF with everything a card gets
bound() {
	_b=$1
	_w=$2
	expect "$_w: $_b bound to kohaku" "$(basename "$(readlink $DEVS/$_b/driver)")" kohaku
	_m=$(dmesg | grep "kohaku $_b" )
	check "$_w: $_b: XDMA engine found on BAR 1, 1 H2C and 1 C2H channel" \
		contains "$_m" "XDMA on BAR 1: IP version 6, 1 H2C and 1 C2H channels"
	_a=$(accel_of "$_b")
	check "$_w: $_b has a node ($NODES/$_a)" test -n "$_a" -a -c "$NODES/$_a"
}
n=0
for b in $CARDS; do
	bound $b "bind"
	check "bind: lspci -k -s $b: Kernel driver in use: kohaku" \
		sh -c "lspci -k -s $b | grep -q 'Kernel driver in use: kohaku'"
	check "bind: $b: 4 MSI-X vectors in use" \
		contains "$(dmesg | grep "kohaku $b")" "4 interrupt vectors in use"
	expect "bind: $b: 4 vectors granted (msi_irqs)" "$(ls $DEVS/$b/msi_irqs 2>/dev/null | wc -l)" 4
	expect "bind: $b: kohaku/irq_mode" "$(cat $DEVS/$b/kohaku/irq_mode)" irq
	expect "bind: $b: kohaku/irq_vectors" "$(cat $DEVS/$b/kohaku/irq_vectors)" 4
	n=0
	for i in "$DEVS/$b"/msi_irqs/*; do
		grep -q "^ *${i##*/}:.* kohaku" /proc/interrupts && n=$((n + 1))
	done
	expect "bind: $b: /proc/interrupts has its 4 MSI-X vectors, kohaku's" "$n" 4
	n=$((n + 1))
done
# BARs mapped: pcim_iomap_region() claims each as "kohaku"
grep -B1 ': kohaku$' /proc/iomem | sed 's/^/KHVM: # iomem: /'
expect "bind: BAR0 and BAR1 of each card claimed by kohaku (/proc/iomem)" \
	"$(grep -c ': kohaku$' /proc/iomem)" $((2 * NCARDS))
dmesg | grep 'kohaku 0000' | head -n 30 | sed 's/^/KHVM: # dmesg: /'

cli "kohaku list with kohaku.ko: exit 0" 0 list
cp /tmp/cli.out /tmp/list.out
# the card has no other path: kohaku.ko must say it drives it in 32 bits
expect "kohaku.ko drives the card's 32-bit control path (KOHAKU_CAP_CTRL32)" \
	"$(ctrl32_of "$(accel_of $CARD0)")" y
for b in $CARDS; do
	a=$(accel_of $b)
	check "kohaku list: $b bound to kohaku, $NODES/$a" \
		grep -q "^$b 10ee:903f (subsystem 10ee:0007, rev 00): .*driver kohaku, $NODES/$a$" /tmp/cli.out
	check "kohaku list: $NODES/$a is $b" \
		grep -q "^$NODES/$a  *kohaku  *$b  *1 mesh, $(cat $DEVS/$b/kohaku/nodes) nodes" /tmp/cli.out
done

# ---- sysfs: the card's node table ----

LIVE_ATTRS="inst_space busy retired busy_cycles"
# node_types BDF: the type names of the card's nodes, sorted, counted
node_types() {
	cat $DEVS/$1/kohaku/mesh0/node_*/type_name | sort | uniq -c | tr -s ' \n' ' '
}
for b in $CARDS; do
	K=$DEVS/$b/kohaku
	expect "sysfs $b: abi_version" "$(cat $K/abi_version)" 0.9
	expect "sysfs $b: name" "$(cat $K/name)" "$b"
	expect "sysfs $b: 1 mesh" "$(cat $K/meshes)" 1
	expect "sysfs $b: dma_channels" "$(cat $K/dma_channels)" 2
	case $(map_of $b) in
	saxpy) want=" 2 SX " ;;
	pool_2x2) want=" 2 6 GP 2 SX " ;;	# the null units' names are empty
	dxa_2x1) want=" 1 1 DX 4 SC 1 SX " ;;
	*) want=unknown ;;
	esac
	expect "sysfs $b: the nodes of $(map_of $b)" "$(node_types $b)" "$want"
	expect "sysfs $b: nodes counts them" "$(cat $K/nodes)" \
		"$(ls -d $K/mesh0/node_* | wc -l)"
	[ "$(map_of $b)" = saxpy ] || continue
	for xy in 1_0 1_2; do
		d=$K/mesh0/node_$xy
		expect "sysfs $b: node ($xy): x,y" "$(cat $d/x),$(cat $d/y)" "$(echo $xy | tr _ ,)"
		expect "sysfs $b: node ($xy): type 0x5358" "$(cat $d/type)" 0x5358
		expect "sysfs $b: node ($xy): type_name SX" "$(cat $d/type_name)" SX
		expect "sysfs $b: node ($xy): inst_depth 512" "$(cat $d/inst_depth)" 512
		expect "sysfs $b: node ($xy): version 1" "$(cat $d/version)" 1
		for a in $LIVE_ATTRS; do
			check "sysfs $b: node ($xy): $a reads (a live CU_CTRL read)" \
				sh -c "cat $d/$a >/dev/null"
		done
	done
done

# every file the PCI card shows is documented (Documentation/ABI/testing)
if ls /abi/sysfs-driver-kohaku* >/dev/null 2>&1; then
	awk '/^What:/ && $2 ~ /^\/sys\/bus\/pci\// { print $2 }' /abi/sysfs-driver-kohaku* |
		sort -u >/tmp/abi.pat
	find $DEVS/$CARD0/kohaku | sed "s|$DEVS/$CARD0|/sys/bus/pci/devices/<bdf>|" |
		sort -u >/tmp/abi.found
	awk 'NR == FNR { p = $0; gsub(/\./, "\\.", p); gsub(/<[^>]*>/, "[^/]*", p); re[++n] = "^" p "$"; next }
	{ for (i = 1; i <= n; i++) if ($0 ~ re[i]) next; print }' \
		/tmp/abi.pat /tmp/abi.found >/tmp/abi.out
	sed 's/^/KHVM: # undocumented: /' /tmp/abi.out
	expect "sysfs ABI: every path under $CARD0/kohaku is a documented PCI What: ($(wc -l </tmp/abi.found) paths)" \
		"$(wc -l </tmp/abi.out)" 0
else
	notok "sysfs ABI: the documents are in the guest (/abi)"
fi

# ---- data: BO write/read through the card's XDMA engine ----

# irqs_of BDF VECTOR: the interrupts of the function's vector so far (its
# Linux IRQs, msi_irqs, are numbered in vector order; /proc/interrupts
# names them PCI-MSIX-<bdf> N since 6.2, PCI-MSI <hwirq> before)
irqs_of() {
	_irq=$(ls $DEVS/$1/msi_irqs | sort -n | sed -n "$(($2 + 1))p")
	grep "^ *$_irq:" /proc/interrupts |
		awk '{ s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }'
}
for b in $CARDS; do
	a=$(accel_of $b)
	RT_MAP=$(map_of $b)
	run_test "vm-pci/$MODE/$b/rt_dma" $NODES/$a /tests/rt_dma
	RT_MAP=
	check "data $b: kohaku/dma_bytes_to_card > 0 ($(cat $DEVS/$b/kohaku/dma_bytes_to_card))" \
		test "$(cat $DEVS/$b/kohaku/dma_bytes_to_card)" -gt 0
	check "data $b: kohaku/dma_bytes_from_card > 0 ($(cat $DEVS/$b/kohaku/dma_bytes_from_card))" \
		test "$(cat $DEVS/$b/kohaku/dma_bytes_from_card)" -gt 0
	expect "data $b: kohaku/dma_errors" "$(cat $DEVS/$b/kohaku/dma_errors)" 0
	check "data $b: H2C completions interrupted (vector 0: $(irqs_of $b 0))" \
		test "$(irqs_of $b 0)" -gt 0
	check "data $b: C2H completions interrupted (vector 1: $(irqs_of $b 1))" \
		test "$(irqs_of $b 1)" -gt 0
	check "data $b: kohaku/irqs counts them ($(cat $DEVS/$b/kohaku/irqs))" \
		test "$(cat $DEVS/$b/kohaku/irqs)" -gt 0
done

# ---- the IOMMU (khvm.pci=iommu) ----

if [ "$MODE" = iommu ]; then
	check "IOMMU: VT-d is on (/sys/class/iommu/dmar*)" sh -c 'ls -d /sys/class/iommu/dmar* >/dev/null 2>&1'
	for b in $CARDS; do
		g=$(readlink $DEVS/$b/iommu_group)
		t=$(cat $DEVS/$b/iommu_group/type 2>/dev/null)
		diag "$b: iommu_group $(basename "$g") type $t"
		check "IOMMU: $b is in an IOMMU group with DMA translation (type $t)" \
			sh -c "[ -n '$g' ] && case '$t' in DMA|DMA-FQ) true ;; *) false ;; esac"
		check "kohaku list: $b's link 8.0 GT/s x16 (kohakutpu.md 8.2)" \
			grep -q "^$b 10ee:903f .*link 8.0 GT/s x16" /tmp/list.out
	done
fi

# ---- a fault knob armed through QMP while the guest runs ----

# The host sets the card's QOM property "inject" (qom-set: the model's
# ksim_inject) when the console asks; vm_pci keeps transferring until one
# transfer fails, then checks the recovery.  The last saxpy card has the
# knobs.
KNOB=$(echo $SAXPY | awk '{ print $NF }')
KNOB_ID=$(id_of $KNOB)
# knob_once ERROR DIR: the knob "xdma error=ERROR dir=DIR count=1" set over
# QMP on the knob card; vm_pci meets it (one transfer fails with EIO, the
# next work), and dma_errors counts it
knob_once() {
	_e0=$(cat $DEVS/$KNOB/kohaku/dma_errors)
	qmp "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine/peripheral/$KNOB_ID\", \"property\": \"inject\", \"value\": \"xdma error=$1 dir=$2 count=1\"}}"
	timeout "$TEST_TIMEOUT" /bin/vm_pci $NODES/"$(accel_of $KNOB)" "$2" 60 \
		>/tmp/pci.out 2>&1 </dev/null
	_rc=$?
	sed 's/^/KHVM: # /' /tmp/pci.out
	expect "knob $KNOB: qom-set inject 'xdma error=$1 dir=$2 count=1' at run time: one transfer fails with EIO, the next work" \
		"$_rc" 0
	expect "knob $KNOB: kohaku/dma_errors counted one failed transfer" \
		"$(cat $DEVS/$KNOB/kohaku/dma_errors)" $((_e0 + 1))
}
if [ -x /bin/vm_pci ] && [ -n "$KNOB" ]; then
	knob_once slverr h2c
	knob_once slverr c2h
	dmesg | grep "kohaku $KNOB" | grep -i xdma | tail -n 4 | sed 's/^/KHVM: # dmesg: /'
else
	notok "vm_pci and a card for the knob test"
fi

# A DMA outside what the driver mapped (inject xdma error=stray: the
# descriptor's data goes to bus address 0, an IOVA iommu-dma never gives):
# VT-d stops it and logs the fault; the card's engine logs the refused
# access, the call fails with EIO and nothing reached memory.  Only behind
# the IOMMU: on the pc machine the write would land in guest page 0.
if [ "$MODE" = iommu ] && [ -x /bin/vm_pci ]; then
	short=$(echo "$KNOB" | sed 's/^0000://')
	for dir in c2h h2c; do
		case $dir in c2h) acc=Write ;; h2c) acc=Read ;; esac
		f0=$(dmesg | grep -c "DMAR: \[DMA $acc.*\[$short\] fault addr 0x0 ")
		knob_once stray $dir
		sleep 1	# the fault event's interrupt, then its log line
		dmesg | grep "DMAR: \[DMA $acc.*fault addr 0x0 " | tail -n 2 | sed 's/^/KHVM: # dmesg: /'
		check "stray $KNOB ($dir): VT-d stopped the DMA $acc at 0x0 and logged the fault" \
			test "$(dmesg | grep -c "DMAR: \[DMA $acc.*\[$short\] fault addr 0x0 ")" -gt "$f0"
	done
	dmesg | grep "kohaku $KNOB" | grep -i 'xdma.*failed' | tail -n 2 | sed 's/^/KHVM: # dmesg: /'
fi

# ---- jobs ----

for b in $CARDS; do
	a=$(accel_of $b)
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$a \
		run saxpy >/tmp/cli.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	check "jobs $b: kohaku run saxpy on its SX units" test $rc -eq 0
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$a \
		validate >/tmp/cli.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	check "jobs $b: kohaku validate: PASS" test $rc -eq 0
done

# ---- unbind, bind, rebind through sysfs, with work in flight ----

# Two processes running jobs and a third writing and reading back a 64 MiB
# buffer object (vm_load -d 64), the card is unbound the moment the mover
# and a worker are both inside an ioctl: a transfer and a job in flight.
# Each process sees ENODEV or EIO for what it had under way and exits 0;
# the card then binds again and works.
b=$CARD0
a=$(accel_of $b)
if load_start $NODES/$a 2 -d 64; then
	ok "in flight on $b: 2 processes running jobs, a 64 MiB transfer each way"
	mover=$(awk '$2 == "mover" { print $1 }' /tmp/ready)
	worker=$(awk '$2 == "worker" { print $1; exit }' /tmp/ready)
	n=0
	seen=n
	while [ $n -lt 600 ]; do
		if in_ioctl "$mover" && in_ioctl "$worker"; then
			seen=y
			break
		fi
		sleep 0.05
		n=$((n + 1))
	done
	check "unbind $b (echo $b > $PCI/unbind) with a job and a 64 MiB transfer in flight" \
		sysfs_write $PCI/unbind "$b"
	expect "in flight on $b: the mover and a worker were inside an ioctl just before the unbind" \
		"$seen" y
	load_end
	expect "in flight on $b: every process saw its card go (ENODEV or EIO) and exited cleanly" $? 0
	check "in flight on $b: the 64 MiB transfer under way ended with ENODEV or EIO" \
		grep -q 'then BO_\(WRITE\|READ\) of 64 MiB, under way for [0-9]* ms, failed: -\(19\|5\)' /tmp/load.out
else
	load_end
	notok "in flight on $b: vm_load's processes got under way"
	check "unbind $b (echo $b > $PCI/unbind)" sysfs_write $PCI/unbind "$b"
fi
check "unbound: $b has no driver" test ! -e $DEVS/$b/driver
check "unbound: $NODES/$a is gone" test ! -e $NODES/$a
check "unbound: no kohaku/ directory" test ! -e $DEVS/$b/kohaku
expect "unbound: its MSI-X vectors are released" "$(ls $DEVS/$b/msi_irqs 2>/dev/null | wc -l)" 0
if [ "$NCARDS" -gt 1 ]; then
	cli "kohaku list ($b unbound, another card bound): exit 0" 0 list
else
	cli "kohaku list (unbound): exit 3 (no usable device)" 3 list
fi
check "kohaku list: $b with no driver, kohaku.ko loaded" \
	grep -q "^$b 10ee:903f .*driver -$" /tmp/cli.out
check "kohaku list: why: unbound, and how to bind it" \
	grep -q "not usable: no driver bound, though kohaku.ko is loaded: .*echo $b > /sys/bus/pci/drivers/kohaku/bind" /tmp/cli.out
if [ "$NCARDS" -gt 1 ]; then
	o=$(echo $SAXPY | awk '{ print $2 }')
	run_test "vm-pci/$MODE/$o/rt_dma(other card, $b unbound)" $NODES/$(accel_of $o) \
		/tests/rt_dma -t small_sizes_every_offset
fi
check "bind $b (echo $b > $PCI/bind)" sysfs_write $PCI/bind "$b"
bound $b "rebind"
expect "rebind: $b: 4 vectors again" "$(cat $DEVS/$b/kohaku/irq_vectors)" 4
run_test "vm-pci/$MODE/$b/rt_dma(rebound)" $NODES/$(accel_of $b) \
	/tests/rt_dma -t small_sizes_every_offset
KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$(accel_of $b) \
	run saxpy >/tmp/cli.out 2>&1 </dev/null
rc=$?
sed 's/^/KHVM: # /' /tmp/cli.out
check "rebind: $b runs jobs again (kohaku run saxpy)" test $rc -eq 0

# ---- rmmod and modprobe ----

check "rmmod kohaku" rmmod kohaku
for b in $CARDS; do
	check "rmmod: $b unbound" test ! -e $DEVS/$b/driver
done
check "rmmod: no node left in $NODES" sh -c "! ls $NODES/$NODEPAT >/dev/null 2>&1"
check "modprobe kohaku again" modprobe kohaku
for b in $CARDS; do
	bound $b "modprobe again"
done

# ---- poll_only=1: no interrupts at all ----

if [ "$MODE" = one ]; then
	b=$CARD0
	check "rmmod kohaku for poll_only" rmmod kohaku
	check "modprobe kohaku poll_only=1" modprobe kohaku poll_only=1
	bound $b "poll_only=1"
	expect "poll_only=1: $b: irq_mode" "$(cat $DEVS/$b/kohaku/irq_mode)" poll
	expect "poll_only=1: $b: irq_vectors" "$(cat $DEVS/$b/kohaku/irq_vectors)" 0
	expect "poll_only=1: $b: no MSI-X vector allocated" \
		"$(ls $DEVS/$b/msi_irqs 2>/dev/null | wc -l)" 0
	run_test "vm-pci/poll_only/$b/rt_dma" $NODES/$(accel_of $b) /tests/rt_dma
	expect "poll_only=1: $b: no interrupt taken" "$(cat $DEVS/$b/kohaku/irqs)" 0
	check "rmmod kohaku after poll_only" rmmod kohaku
	check "modprobe kohaku (interrupts again)" modprobe kohaku
	bound $b "interrupts again"
	expect "interrupts again: $b: irq_mode" "$(cat $DEVS/$b/kohaku/irq_mode)" irq
fi

# ---- POOL firmware from /lib/firmware, and DXA, over PCI ----

# The pool_2x2 card: request_firmware at bind booted its six POOL units
# from the guest's /lib/firmware/kohaku/pool.fw through the card's XDMA
# engine and its 32-bit control path; a POOL kernel runs; the runtime suite
# on it (KOHAKU_TEST_MAP=pool_2x2); its IRQ addon completes jobs by the
# user interrupt.  The dxa_2x1 card: the DXA unit copies.
b=$(card_of pool_2x2)
if [ -n "$b" ]; then
	a=$(accel_of $b)
	K=$DEVS/$b/kohaku
	check "pool $b: the firmware image is in /lib/firmware" test -s $FWP
	n=0
	while [ $n -lt 600 ]; do
		case $(cat $K/firmware 2>/dev/null) in running*|failed*|absent*|none*) break ;; esac
		sleep 0.1
		n=$((n + 1))
	done
	expect "pool $b: request_firmware at bind booted it" "$(cat $K/firmware)" \
		"running: kohaku/pool.fw"
	expect "pool $b: every POOL unit's fw_state is running" \
		"$(cat $K/mesh0/node_*/fw_state | sort | uniq -c | tr -s ' \n' ' ')" " 6 running "
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$a \
		run crc32 >/tmp/cli.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	check "pool $b: kohaku run crc32 (a POOL kernel) agrees with the host" \
		test $rc -eq 0 -a -n "$(grep 'crc32: PASS' /tmp/cli.out)"
	for t in /tests/*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		[ "$name" = rt_dma ] && continue
		diag "running $name on $b (pool_2x2, $NODES/$a)"
		RT_MAP=pool_2x2
		run_test "vm-pci/pool_2x2/$name" $NODES/$a "$t"
		RT_MAP=
	done
	# the clock governor over PCI: the card's wizard through BAR0's
	# 32-bit path; retunes, resets asked for, recovery, firmware after each
	RT_MAP=pool_2x2
	export KOHAKU_TEST_DESTRUCTIVE=1
	run_test "vm-pci/pool_2x2/rt_clocks(destructive)" $NODES/$a /tests/rt_clocks
	unset KOHAKU_TEST_DESTRUCTIVE
	RT_MAP=
	# its meshes have the IRQ addon: jobs completed by the user interrupt,
	# the XDMA's vector 2 (kh_xdma.c), not by polling
	check "pool $b: job events came by MSI-X vector 2, the user interrupt ($(irqs_of $b 2))" \
		test "$(irqs_of $b 2)" -gt 0
fi
b=$(card_of dxa_2x1)
if [ -n "$b" ]; then
	a=$(accel_of $b)
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$a \
		run dxa-copy >/tmp/cli.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	check "dxa $b: kohaku run dxa-copy agrees with the host" \
		test $rc -eq 0 -a -n "$(grep 'dxa-copy: PASS' /tmp/cli.out)"
	run_test "vm-pci/dxa_2x1/rt_dxa" $NODES/$a /tests/rt_dxa
fi

# ---- the runtime suite over PCI ----

# tests/selftests/kohaku on the saxpy card, every binary but rt_dma (run
# above)
if [ "$MODE" = one ]; then
	b=$CARD0
	a=$(accel_of $b)
	for t in /tests/*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		[ "$name" = rt_dma ] && continue
		diag "running $name on $b ($NODES/$a)"
		run_test "vm-pci/saxpy/$name" $NODES/$a "$t"
	done
fi

# ---- hot removal (QMP device_del) under 8 loaded processes ----

# QEMU's device_del asks the guest to give the function up (QEMU 7.2 on
# q35 does it by ACPI PCI hotplug, which the guest's acpiphp answers); the
# kernel removes it from under kohaku.ko while 8 processes run jobs and
# move buffers on it (vm_load 8 0), and QEMU unplugs it.  Each process
# sees ENODEV or EIO and exits 0; the card's node and sysfs go; the other
# card keeps working.  (A function that vanishes with no notice at all, a
# link down, is not something QEMU's device_del can do.)
if [ "$MODE" = iommu ]; then
	b=$KNOB
	o=$CARD0
	a=$(accel_of $b)
	# a kernel without a PCI hotplug driver would never answer QEMU
	for s in /sys/bus/pci/slots/*/address; do
		[ -e "$s" ] && diag "hotplug slot $(basename "$(dirname "$s")"): $(cat "$s")"
	done
	check "hot removal: the kernel has a PCI hotplug driver (acpiphp or pciehp) and slots" \
		sh -c "{ [ -d /sys/module/acpiphp ] || [ -d /sys/module/pciehp ]; } && ls /sys/bus/pci/slots/*/address >/dev/null 2>&1"
fi
if [ "$MODE" = iommu ] && ls /sys/bus/pci/slots/*/address >/dev/null 2>&1; then
	if load_start $NODES/$a 8; then
		ok "hot removal: 8 processes running jobs on $b"
	else
		notok "hot removal: 8 processes running jobs on $b got under way"
	fi
	sleep 2	# all of them at full speed
	qmp "{\"execute\": \"device_del\", \"arguments\": {\"id\": \"$(id_of $b)\"}}"
	# bounded: a removal that never comes must not hold the suite
	n=0
	while [ -e $DEVS/$b ] && [ $n -lt $((TEST_TIMEOUT * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	check "hot removal: $b is gone from the bus ($((n / 10)) s after device_del)" test ! -e $DEVS/$b
	[ -e $DEVS/$b ] && kill $(awk '{ print $1 }' /tmp/ready) 2>/dev/null
	load_end
	expect "hot removal: each of the 8 saw its card go (ENODEV or EIO) and exited cleanly" $? 0
	check "hot removal: $NODES/$a is gone" test ! -e $NODES/$a
	dmesg | grep -E "pciehp|kohaku $b" | tail -n 8 | sed 's/^/KHVM: # dmesg: /'
	run_test "vm-pci/$MODE/$o/rt_dma(after $b was removed)" $NODES/$(accel_of $o) \
		/tests/rt_dma -t small_sizes_every_offset
fi

# ---- the end: unload, the kernel log ----

check "rmmod kohaku at the end" rmmod kohaku
[ -n "$KHVM_DEBUG" ] && kmemleak_check "after rmmod kohaku"
dmesg >/tmp/dmesg.txt
grep -E 'kohaku|DMAR|iommu' /tmp/dmesg.txt | tail -n 60 | sed 's/^/KHVM: # dmesg: /'
splat='WARNING:|BUG:|Oops|Call Trace|general protection|KASAN|UBSAN|list_del corruption|refcount_t|hung task|blocked for more than|possible circular|possible recursive|inconsistent lock|DMA-API|ODEBUG'
# the checkers' boot banners (a debug kernel) are not reports
benign='DMA-API: preallocated [0-9]+ debug entries|DMA-API: debugging enabled by kernel config'
grep -E "$splat" /tmp/dmesg.txt | grep -vE "$benign" >/tmp/splat.txt
if [ -s /tmp/splat.txt ]; then
	head -n 20 /tmp/splat.txt | sed 's/^/KHVM: # splat: /'
	notok "no kernel warnings or splats in dmesg"
else
	ok "no kernel warnings or splats in dmesg"
fi
# a debug kernel's own scan: every checker's report (guest-debug.sh)
[ -n "$KHVM_DEBUG" ] && debug_dmesg
if [ "$MODE" = iommu ]; then
	# the stray knob's, at 0x0, are the only ones
	grep -E 'DMAR: \[DMA (Read|Write)' /tmp/dmesg.txt | grep -v 'fault addr 0x0 ' >/tmp/dmar.txt
	sed 's/^/KHVM: # /' /tmp/dmar.txt
	check "no DMAR faults in dmesg but the stray knob's (every other DMA was mapped)" \
		test ! -s /tmp/dmar.txt
fi
taint=$(cat /proc/sys/kernel/tainted)
diag "taint $taint"
expect "kernel taint is at most O+E (4096+8192)" $((taint & ~12288)) 0

echo "KHVM-END pass=$npass fail=$nfail uptime=$(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
