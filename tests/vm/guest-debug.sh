# shellcheck shell=sh
# The debug kernel's part of the VM tests (make test-debug; docs/linux.md,
# "Debug kernel").  tests/vm/run-vm.sh packs this file as /guest-debug.sh
# when KOHAKU_VM_DEBUG=1 and boots with khvm.debug; guest-init.sh sources
# it and calls debug_start before the modules are loaded and debug_end
# after its own last check.  It uses guest-init.sh's ok, notok, diag,
# check, expect, sysfs_write, accel_of, relay and $S.
#
#   debug_start  the checkers are there (KASAN, lockdep, kmemleak, fault
#                injection); kmemleak scanned and cleared, so that only
#                what the tests leave is reported; slower timeouts
#   debug_end    kmemleak after the suite's module unload; the allocation
#                failure sweeps (/bin/vm_faultinj) for card creation, bind,
#                open, BO_CREATE and SUBMIT, each a clean errno, the card
#                working after; kmemleak after that unload; then the whole
#                kernel log for KASAN, lockdep, UBSAN, DMA-API, kmemleak,
#                ODEBUG reports, BUG and WARNING

KL=/sys/kernel/debug/kmemleak
FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc

# kmemleak_scan: twice, as Documentation/dev-tools/kmemleak.rst advises (an
# object is reported only once it is 5 s old and still unreferenced)
kmemleak_scan() {
	sleep 6
	echo scan >$KL
	sleep 6
	echo scan >$KL
}

debug_start() {
	diag "debug kernel $(uname -r): $(cat /proc/cmdline)"
	for _f in $KL $FS $FP /proc/self/fail-nth; do
		check "debug kernel: $_f exists" test -e $_f
	done
	check "debug kernel: lockdep is on (/proc/lockdep)" test -e /proc/lockdep
	check "debug kernel: KASAN is on (dmesg)" sh -c "dmesg | grep -q 'KernelAddressSanitizer initialized'"
	check "debug kernel: DMA-API debugging is on (dmesg)" sh -c "dmesg | grep -q 'DMA-API: debugging enabled'"
	# what boot left (the kernel's own, before any module of ours) is
	# scanned and cleared: later reports are the tests'
	echo scan >$KL 2>/dev/null
	echo clear >$KL 2>/dev/null
	# everything runs some times slower than on Debian's kernel (KASAN,
	# lockdep, kmemleak under TCG)
	KOHAKU_TEST_TIMEOUT_SCALE=$((KOHAKU_TEST_TIMEOUT_SCALE * 4))
	export KOHAKU_TEST_TIMEOUT_SCALE
}

# kmemleak_check WHEN: scan, report every unreferenced object, clear
kmemleak_check() {
	if [ ! -e $KL ]; then
		notok "kmemleak: nothing unreferenced $1 (no $KL: CONFIG_DEBUG_KMEMLEAK)"
		return
	fi
	kmemleak_scan
	cat $KL >/tmp/kmemleak.txt 2>&1
	_n=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
	if [ "$_n" -eq 0 ]; then
		ok "kmemleak: nothing unreferenced $1"
	else
		head -n 120 /tmp/kmemleak.txt | sed 's/^/KHVM: # kmemleak: /'
		notok "kmemleak: nothing unreferenced $1 ($_n objects)"
	fi
	echo clear >$KL
}

# the sweeps not aimed at a module fail a sample of this many checks at
# most (an aimed sweep fails each of its module's)
FI_BUDGET_ANY=${FI_BUDGET_ANY:-300}
# fi_aim OPTION ARG: the label's words for an aim
fi_aim() {
	case $1 in
	-m) echo "aimed at $2.ko" ;;
	*) echo "any allocation of the task" ;;
	esac
}

# faultinj ARGS...: /bin/vm_faultinj ARGS, its results relayed, timed
faultinj() {
	_t0=$(cut -d' ' -f1 /proc/uptime)
	timeout "$TEST_TIMEOUT" /bin/vm_faultinj "$@" >/tmp/fi.out 2>&1 </dev/null
	_rc=$?
	relay "vm/faultinj" /tmp/fi.out $_rc
	diag "faultinj: exit $_rc after $(awk -v a="$_t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }') s"
}

debug_faults() {
	P=/sys/bus/platform/drivers/kohaku
	if [ ! -x /bin/vm_faultinj ]; then
		notok "fault injection: /bin/vm_faultinj is in the guest"
		return
	fi
	# fail-nth fails the N-th check of the task in both; the checks must
	# not skip GFP_KERNEL (ignore-gfp-wait) nor order-0 pages (min-order);
	# nothing fails at random (probability 0); verbose 2: each failure's
	# stack in the log, which vm_faultinj reads to tell ours from others
	for _d in $FS $FP; do
		echo 0 >$_d/probability
		echo N >$_d/ignore-gfp-wait
		echo N >$_d/task-filter
		echo 2 >$_d/verbose
	done
	echo N >$FP/ignore-gfp-highmem
	echo 0 >$FP/min-order
	check "fault injection: modprobe kohaku_sim cards= (no card)" \
		modprobe kohaku_sim cards= check=1
	check "fault injection: modprobe kohaku" modprobe kohaku
	# card creation alone: new cards stay unbound until bound below
	echo 0 >/sys/bus/platform/drivers_autoprobe
	# -r dev_set_name: platform_device_add() ignores dev_set_name()'s
	# ENOMEM, and device_add() then fails the nameless device with EINVAL
	# (the kernel's, not kohaku_sim's: seen at N=97..99 of the aimed sweep)
	for _aim in "-m kohaku_sim" "-b $FI_BUDGET_ANY"; do
		faultinj $_aim -r dev_set_name -x $S/kohaku_sim.30 write "card creation, new_card 30 saxpy ($(fi_aim $_aim))" \
			$S/new_card '30 saxpy\n' $S/del_card '30\n'
	done
	check "fault injection: new_card 30 saxpy" sysfs_write $S/new_card "30 saxpy\n"
	check "fault injection: card 30 is not bound (drivers_autoprobe 0)" \
		test ! -e /sys/bus/platform/devices/kohaku_sim.30/driver
	# -r drm_sysfs_minor_alloc: Debian's 6.12 DRM core oopses when that
	# fails (drm_minor_alloc leaves minor->kdev an ERR_PTR, and its release
	# action put_device()s it: a general protection fault in kobject_put
	# from drm_minor_alloc_release, the bind's task dies holding the
	# device lock); not kohaku's, so its allocations are left out
	for _aim in "-m kohaku" "-b $FI_BUDGET_ANY"; do
		faultinj $_aim -r drm_sysfs_minor_alloc \
			-x /sys/bus/platform/devices/kohaku_sim.30/driver write \
			"bind kohaku_sim.30 ($(fi_aim $_aim))" $P/bind kohaku_sim.30 $P/unbind kohaku_sim.30
	done
	echo 1 >/sys/bus/platform/drivers_autoprobe
	check "fault injection: bind kohaku_sim.30" sysfs_write $P/bind kohaku_sim.30
	_acc=$(accel_of 30)
	check "fault injection: card 30 has an accel node ($_acc)" test -n "$_acc"
	if [ -n "$_acc" ]; then
		for _op in open:open bo:"BO create" submit:submit; do
			for _aim in "-m kohaku" "-b $FI_BUDGET_ANY"; do
				faultinj $_aim "${_op%%:*}" "${_op#*:} on /dev/accel/$_acc ($(fi_aim $_aim))" \
					/dev/accel/$_acc
			done
		done
		cli "fault injection: kohaku run saxpy on card 30 after the sweeps" \
			--device /dev/accel/$_acc run saxpy
	fi
	rep=$(cat /sys/kernel/debug/kohaku_sim/card30/check 2>/dev/null | head -n 1)
	expect "fault injection: card 30's checker found no violations" "$rep" "violations 0"
	check "fault injection: del_card 30" sysfs_write $S/del_card "30\n"
	check "fault injection: rmmod kohaku" rmmod kohaku
	check "fault injection: rmmod kohaku_sim" rmmod kohaku_sim
}

# the kernel log, from boot: reports of the checkers, BUG, WARNING; stack
# frames (the fault injection's own stacks name kmemleak_alloc) and the
# checkers' boot banners are not reports
DEBUG_SPLAT='KASAN|BUG:|WARNING:|possible circular locking|possible recursive locking|inconsistent lock state|lockdep|UBSAN|DMA-API|kmemleak|unreferenced object|ODEBUG|sleeping function called from invalid context|Oops|general protection|list_del corruption|refcount_t|hung task'
DEBUG_BENIGN='RCU lockdep checking is enabled|kmemleak: Kernel memory leak detector initialized|DMA-API: preallocated [0-9]+ debug entries|DMA-API: debugging enabled by kernel config|KernelAddressSanitizer initialized|Lock dependency validator|lockdep: fixing up alternatives|\] +(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+'
debug_dmesg() {
	dmesg >/tmp/dmesg.debug.txt
	grep -E "$DEBUG_SPLAT" /tmp/dmesg.debug.txt | grep -vE "$DEBUG_BENIGN" >/tmp/splat.txt
	if [ -s /tmp/splat.txt ]; then
		head -n 40 /tmp/splat.txt | sed 's/^/KHVM: # debug splat: /'
		# the first report whole
		_l=$(grep -nE "$DEBUG_SPLAT" /tmp/dmesg.debug.txt | grep -vE "$DEBUG_BENIGN" |
			head -n 1 | cut -d: -f1)
		sed -n "$((_l > 5 ? _l - 5 : 1)),$((_l + 60))p" /tmp/dmesg.debug.txt |
			sed 's/^/KHVM: # debug report: /'
		notok "debug kernel: no KASAN, lockdep, UBSAN, DMA-API, kmemleak, ODEBUG report, BUG or WARNING in the kernel log ($(wc -l </tmp/splat.txt) lines)"
	else
		ok "debug kernel: no KASAN, lockdep, UBSAN, DMA-API, kmemleak, ODEBUG report, BUG or WARNING in the kernel log"
	fi
	diag "debug kernel: $(grep -c 'FAULT_INJECTION: forcing a failure' /tmp/dmesg.debug.txt) injected failures in the log; lockdep: $(grep -E 'lock-classes|direct dependencies' /proc/lockdep_stats 2>/dev/null | tr -s ' \n' ' ')"
}

debug_end() {
	for _m in kohaku kohaku_sim; do
		[ -d /sys/module/$_m ] && rmmod $_m
	done
	check "debug: kohaku and kohaku_sim unloaded" \
		sh -c "[ ! -d /sys/module/kohaku ] && [ ! -d /sys/module/kohaku_sim ]"
	kmemleak_check "after the suite's module unload"
	debug_faults
	kmemleak_check "after the fault injection's module unload"
	debug_dmesg
	taint=$(cat /proc/sys/kernel/tainted)
	diag "debug kernel: taint $taint"
	expect "debug kernel: taint is at most O+E (4096+8192)" $((taint & ~12288)) 0
}
