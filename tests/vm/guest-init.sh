#!/bin/sh
# /init of the Kohaku test VM; tests/vm/run-vm.sh packs it into the
# initramfs with busybox, the modules and the static test binaries.
#
# Every result is one console line "KHVM: ok - ..." or "KHVM: not ok - ...";
# the host numbers them into one TAP stream.  Other lines it relays are
# "KHVM: # ..." diagnostics.  The last line is "KHVM-END pass=N fail=N", so
# the host can tell a finished run from a guest that died.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /tmp /run
mount -t tmpfs tmpfs /tmp
# systemd-udevd's control socket and database (the udev checks)
mount -t tmpfs -o mode=0755 tmpfs /run

# run-vm.sh's KVM probe only wants to see a guest get this far
if grep -q 'khvm.probe' /proc/cmdline; then
	echo KHVM-PROBE-OK
	poweroff -f
fi

echo "KHVM-BEGIN uptime=$(cut -d' ' -f1 /proc/uptime)"

npass=0
nfail=0
say() { echo "KHVM: $*"; }
diag() { say "# $*"; }
ok() { npass=$((npass + 1)); say "ok - $*"; }
notok() { nfail=$((nfail + 1)); say "not ok - $*"; }
# check DESC CMD...: CMD's status is the result
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else notok "$_d"; fi
}
# fails CMD...: true when CMD fails
fails() { ! "$@"; }
# contains TEXT PATTERN
contains() { echo "$1" | grep -q -- "$2"; }
# expect DESC ACTUAL WANTED
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		notok "$1 (got '$2', want '$3')"
	fi
}

S=/sys/devices/kohaku_sim
TEST_TIMEOUT=$(sed -n 's/.*khvm.test_timeout=\([0-9]*\).*/\1/p' /proc/cmdline)
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
# the kselftest harness bounds each test (30 s unless the test says): TCG
# runs the guest many times slower than a host
export KOHAKU_TEST_TIMEOUT_SCALE=10

# sysfs_write FILE TEXT: one write(2) of TEXT; fails when the store fails
sysfs_write() {
	printf '%b' "$2" >/tmp/sysfs_write.txt
	dd if=/tmp/sysfs_write.txt of="$1" bs=4096 count=1 2>/dev/null
}

# the node (accelN; before Linux 6.2 the render node renderDN) of
# simulated card ID, empty when it has none
accel_of() {
	for _a in "$S/kohaku_sim.$1"/accel/accel* "$S/kohaku_sim.$1"/drm/renderD*; do
		[ -e "$_a" ] && basename "$_a" && return
	done
}

# ---- a debug kernel's checks (run-vm.sh KOHAKU_VM_DEBUG=1) ----

# tests/vm/guest-debug.sh: debug_start now, debug_end after the last check
KHVM_DEBUG=
if grep -q 'khvm.debug' /proc/cmdline && [ -f /guest-debug.sh ]; then
	. /guest-debug.sh
	KHVM_DEBUG=1
	debug_start
fi

# ---- modules: modprobe, from /lib/modules/$(uname -r) ----

# run-vm.sh installed kohaku.ko and kohaku_sim.ko there with the project's
# `make modules_install` (INSTALL_MOD_PATH: updates/, .ko.xz) next to the
# kernel's modules they need (/modules.list), and ran depmod -b over the
# tree; busybox modprobe reads its text modules.dep.  (It first offers the
# .ko.xz to finit_module, which the kernel refuses with "Invalid ELF header
# magic" in dmesg, then decompresses it itself.)  check=1: the model's
# protocol checker runs in every card; the runtime tests' rt_close fails a
# test for what it finds (debugfs, below).  Should modprobe fail, the
# modules are insmod'ed from / so that the other tests still run.
diag "modules.dep: $(grep '^updates/' "/lib/modules/$(uname -r)/modules.dep" | tr '\n' ';')"
check "modprobe kohaku_sim cards=saxpy,sx_null_2x2 check=1" \
	modprobe kohaku_sim cards=saxpy,sx_null_2x2 check=1
expect "modprobe kohaku_sim: check=1 reached the module" \
	"$(cat /sys/module/kohaku_sim/parameters/check 2>&1)" Y
check "modprobe kohaku" modprobe kohaku
check "modprobe kohaku: /sys/module/kohaku exists" test -d /sys/module/kohaku
while read -r m; do
	_n=$(basename "$m" .ko | tr - _)
	check "modprobe kohaku loaded its dependency $_n (modules.dep)" \
		test -d "/sys/module/$_n"
done </modules.list
if [ ! -d /sys/module/kohaku_sim ]; then
	diag "modprobe kohaku_sim failed: insmod /kohaku_sim.ko for the tests below"
	insmod /kohaku_sim.ko cards=saxpy,sx_null_2x2 check=1
fi
if [ ! -d /sys/module/kohaku ]; then
	diag "modprobe kohaku failed: insmod its dependencies and /kohaku.ko"
	while read -r m; do insmod "$m"; done </modules.list
	insmod /kohaku.ko
fi
# the cards' nodes: /dev/accel/accelN, or on a kernel without DRM accel
# (before 6.2) DRM render nodes, /dev/dri/renderDN (kohaku_compat.h);
# NODEKIND is their class in sysfs
if [ -d /sys/class/accel ]; then
	NODES=/dev/accel NODEKIND=accel NODE0=accel0 NODE1=accel1
else
	NODES=/dev/dri NODEKIND=drm NODE0=renderD128 NODE1=renderD129
fi
diag "kernel $(uname -r): the cards' nodes are $NODES/$NODE0, $NODE1, ..."
check "$NODES/$NODE0 exists" test -c $NODES/$NODE0
check "$NODES/$NODE1 exists" test -c $NODES/$NODE1
expect "card 0 is $NODE0" "$(accel_of 0)" $NODE0
expect "card 1 is $NODE1" "$(accel_of 1)" $NODE1

# ---- the driver's benchmark instead of the tests (run-vm.sh KOHAKU_VM_BENCH) ----

# run-vm.sh KOHAKU_VM_BENCH_PROFILE: where a job's time goes, before the
# benchmark.  trace: the driver's tracepoints, the scheduler's switches and
# wakeups, the workqueues and every ioctl's entry and exit, with
# timestamps, over 200 null jobs through kohaku.ko (after 200 to warm up),
# raw into the serial log between KHVM-TRACE-BEGIN and KHVM-TRACE-END
# (bench/vm_trace_phases.py sums them up per job).  perf: the host's perf,
# packed by run-vm.sh, sampling each backend's null jobs (the benchmark's
# process only: CPU time, kernel and user).
bench_profile() {
	_p=$(sed -n 's/.*khvm.bench_profile=\([^ ]*\).*/\1/p' /proc/cmdline)
	[ -n "$_p" ] || return 0
	_jobs="/bin/kh_bench_jobs -b kernel -s job -r 1 -j 200 -m sx_null_2x2 -d $NODES/$(accel_of 2)"
	diag "profile: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
		"spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2 2>&1)"
	if contains "$_p" trace; then
		T=/sys/kernel/tracing
		mount -t tracefs tracefs $T 2>/dev/null
		echo 8192 >$T/buffer_size_kb
		for _e in kohaku sched/sched_switch sched/sched_wakeup \
			sched/sched_migrate_task workqueue/workqueue_queue_work \
			workqueue/workqueue_execute_start workqueue/workqueue_execute_end; do
			echo 1 >$T/events/$_e/enable
		done
		# ioctl(2) is system call 16 on x86-64
		echo 'id == 16' >$T/events/raw_syscalls/sys_enter/filter
		echo 'id == 16' >$T/events/raw_syscalls/sys_exit/filter
		echo 1 >$T/events/raw_syscalls/enable
		KOHAKU_SIM_CHECK=0 $_jobs >/dev/null 2>&1
		echo >$T/trace
		KOHAKU_SIM_CHECK=0 $_jobs >/tmp/trace.out 2>&1
		check "profile: 200 null jobs through kohaku.ko traced" test $? -eq 0
		echo 0 >$T/tracing_on
		for _e in kohaku sched workqueue raw_syscalls; do
			echo 0 >$T/events/$_e/enable
		done
		echo KHVM-TRACE-BEGIN
		cat $T/trace
		echo KHVM-TRACE-END
		echo >$T/trace
		echo 1 >$T/tracing_on
	fi
	if contains "$_p" perf && [ -x /bin/perf ]; then
		for _b in kernel sim; do
			(cd /tmp && KOHAKU_SIM_CHECK=0 perf record -o /tmp/perf.$_b -g -F 2000 \
				-e cpu-clock -- /bin/kh_bench_jobs -b $_b -s job -r 1 -j 20000 \
				-m sx_null_2x2 -d "$NODES/$(accel_of 2)" >/tmp/perf.out 2>&1)
			check "profile: perf record of 20000 null jobs ($_b)" test $? -eq 0
			echo "KHVM-PERF-BEGIN $_b"
			perf report -i /tmp/perf.$_b --stdio --no-children --sort sym \
				-g none --percent-limit 0.4 2>&1 | grep -v '^#' | grep -v '^$'
			echo "KHVM-PERF-CHILDREN $_b"
			perf report -i /tmp/perf.$_b --stdio --children --sort sym \
				-g none --percent-limit 0.8 2>&1 | grep -v '^#' | grep -v '^$'
			echo "KHVM-PERF-END $_b"
			rm -f /tmp/perf.$_b
		done
	elif contains "$_p" perf; then
		notok "profile: perf in the guest (run-vm.sh packs the host's /usr/bin/perf: install linux-perf)"
	fi
}

# in-process and through kohaku.ko on the same card shape, in one guest,
# interleaved (bench/kh_bench_jobs.c); the checker off: it is not a test
bench=$(sed -n 's/.*khvm.bench=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$bench" ] && [ -x "/bin/$bench" ]; then
	echo 0 >/sys/module/kohaku_sim/parameters/check
	check "new_card 2 sx_null_2x2 for the benchmark" \
		sysfs_write $S/new_card "2 sx_null_2x2\n"
	bench_profile
	KOHAKU_SIM_CHECK=0 "/bin/$bench" -b both -m sx_null_2x2 \
		-d $NODES/$(accel_of 2) $(sed -n 's/.*khvm.bench_args=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ') \
		>/tmp/bench.out 2>&1
	check "$bench ran" test $? -eq 0
	while IFS= read -r l; do diag "bench: $l"; done </tmp/bench.out
	echo "KHVM-END pass=$npass fail=$nfail uptime=$(cut -d' ' -f1 /proc/uptime)"
	poweroff -f
fi

# ---- udev: the installed rule, its group, a user in it and one not ----

# run-vm.sh packed the host's systemd-udevd and udevadm with their libraries,
# 70-kohaku.rules and the modprobe.d example as `make install` installs them
# (PREFIX /usr/local), the system's 80-drivers.rules, and an /etc/group
# with the rule's group, khmember in it and khother not.  udevd runs for
# this section only: the tests below expect the nodes and modules as they
# leave them.  Every wait is bounded.
UDEVD=/lib/systemd/systemd-udevd
ufail=$nfail
# alive PID: running, not a zombie
alive() {
	_s=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)
	[ -n "$_s" ] && [ "$_s" != Z ]
}
rule=
for _d in /etc/udev/rules.d /run/udev/rules.d /usr/local/lib/udev/rules.d \
	/usr/lib/udev/rules.d; do
	[ -f "$_d/70-kohaku.rules" ] && rule=$_d/70-kohaku.rules && break
done
check "udev: 70-kohaku.rules is where systemd-udevd reads rules ($rule)" test -n "$rule"
grp=$(sed -n 's/^[^#].*GROUP="\([^"]*\)".*/\1/p' "$rule" 2>/dev/null | head -n 1)
diag "id khmember: $(id khmember 2>&1); id khother: $(id khother 2>&1)"
check "udev: the rule's group '$grp' exists, khmember is in it, khother is not" \
	sh -c "[ -n '$grp' ] && id -Gn khmember | grep -qw '$grp' && ! id -Gn khother | grep -qw '$grp'"
udevd_pid=
if [ -x $UDEVD ]; then
	$UDEVD >/tmp/udevd.log 2>&1 </dev/null &
	udevd_pid=$!
	_i=0
	while [ $_i -lt 100 ] && [ ! -S /run/udev/control ] && alive $udevd_pid; do
		usleep 100000
		_i=$((_i + 1))
	done
fi
check "udev: systemd-udevd runs ($(udevadm --version 2>&1))" \
	timeout 10 udevadm control --ping
# the nodes already there, as docs/linux.md says to apply the rule to them
check "udev: udevadm trigger -s $NODEKIND" timeout 30 udevadm trigger -s $NODEKIND
check "udev: udevadm settle" timeout 60 udevadm settle --timeout=50
for _a in $NODE0 $NODE1; do
	expect "udev: $NODES/$_a is root:$grp, mode 0660" \
		"$(stat -c '%U:%G %a' $NODES/$_a 2>&1)" "root:$grp 660"
done
# before 6.2 the render node has a primary node beside it, cardN
for _a in "$S"/kohaku_sim.[01]/drm/card*; do
	[ -e "$_a" ] || continue
	_a=$(basename "$_a")
	expect "udev: primary node /dev/dri/$_a is root:$grp, mode 0660" \
		"$(stat -c '%U:%G %a' /dev/dri/$_a 2>&1)" "root:$grp 660"
done

# as_user USER ARGS...: id, then the CLI as USER (su from root asks for no
# password; it sets USER's groups from /etc/group), in /tmp/user.out
as_user() {
	_u=$1
	shift
	timeout "$TEST_TIMEOUT" su -s /bin/sh "$_u" -c \
		"id; KOHAKU_BACKEND=kernel exec /bin/kohaku $*" >/tmp/user.out 2>&1 </dev/null
	_rc=$?
	sed "s/^/KHVM: # $_u: /" /tmp/user.out
	return $_rc
}
as_user khmember --device $NODES/$NODE0 validate
expect "udev: khmember (group $grp) runs kohaku validate on $NODE0: exit 0" "$?" 0
check "udev: ... as uid 1000 with $grp among its groups" \
	contains "$(cat /tmp/user.out)" "^uid=1000(khmember) .*($grp)"
check "udev: ... validate: PASS" contains "$(cat /tmp/user.out)" "^validate: PASS"
as_user khother --device $NODES/$NODE0 validate
expect "udev: khother (not in $grp): kohaku validate refused, exit 3 (no device)" "$?" 3
check "udev: ... saying permission denied, with the node's mode and group" \
	contains "$(cat /tmp/user.out)" \
	"permission denied opening $NODES/$NODE0 (rw-rw---- root:$grp)"
check "udev: ... validate: FAIL at step 1, open" \
	contains "$(cat /tmp/user.out)" "^1/13 open *FAIL"
timeout 10 su -s /bin/sh khother -c "exec 3<>$NODES/$NODE0" >/tmp/user.out 2>&1 </dev/null
_rc=$?
diag "khother: $(cat /tmp/user.out)"
check "udev: khother's open(2) of $NODES/$NODE0 fails with EACCES" \
	sh -c "[ $_rc -ne 0 ] && grep -q 'Permission denied' /tmp/user.out"

# hotplug, as the install instructions do it: with udevd running, modprobe
# kohaku_sim alone; udev loads kohaku.ko by its alias platform:kohaku_sim
# (80-drivers.rules' kmod builtin, from the depmod'ed tree), kohaku binds
# the cards, and their new nodes get the rule at once
check "udev: rmmod kohaku" rmmod kohaku
check "udev: rmmod kohaku_sim" rmmod kohaku_sim
check "udev: modprobe kohaku_sim cards=saxpy,sx_null_2x2 check=1 (kohaku.ko not loaded)" \
	modprobe kohaku_sim cards=saxpy,sx_null_2x2 check=1
check "udev: udevadm settle" timeout 60 udevadm settle --timeout=50
check "udev: kohaku.ko loaded by its alias platform:kohaku_sim" test -d /sys/module/kohaku
if [ ! -d /sys/module/kohaku ]; then
	diag "udev did not load kohaku.ko: modprobe kohaku for the tests below"
	modprobe kohaku || insmod /kohaku.ko
fi
expect "udev: card 0 is $NODE0 again" "$(accel_of 0)" $NODE0
expect "udev: card 1 is $NODE1 again" "$(accel_of 1)" $NODE1
for _a in $NODE0 $NODE1; do
	expect "udev: hotplugged $NODES/$_a is root:$grp, mode 0660" \
		"$(stat -c '%U:%G %a' $NODES/$_a 2>&1)" "root:$grp 660"
done

timeout 10 udevadm control --exit
_i=0
while [ $_i -lt 100 ] && [ -n "$udevd_pid" ] && alive $udevd_pid; do
	usleep 100000
	_i=$((_i + 1))
done
if [ -n "$udevd_pid" ] && ! alive $udevd_pid; then
	ok "udev: systemd-udevd exited (udevadm control --exit)"
else
	notok "udev: systemd-udevd exited (udevadm control --exit)"
	[ -n "$udevd_pid" ] && kill $udevd_pid
fi
[ -n "$udevd_pid" ] && wait $udevd_pid 2>/dev/null
if [ $nfail -ne $ufail ]; then
	tail -n 40 /tmp/udevd.log | sed 's/^/KHVM: # udevd: /'
fi

# ---- kohaku cdi: a Container Device Interface spec of the real nodes ----

# (scripts/check-cdi.sh checks it on a fake sysfs tree in make test) the
# nodes as udev left them (root:$grp 0660), both cards: devices N (as
# --device N) and all, each node's path, major:minor from sysfs, the rule's
# mode and group ($grp is 999 in run-vm.sh's /etc/group); the spec checked
# by scripts/cdi-validate.py with the guest's python3
if [ -x /bin/kohaku ]; then
	/bin/kohaku cdi -o /tmp/kohaku.json >/tmp/cdi.out 2>&1 </dev/null
	expect "kohaku cdi -o /tmp/kohaku.json: exit 0" "$?" 0
	sed 's/^/KHVM: # cdi: /' /tmp/cdi.out
	check "kohaku cdi: no warning (the nodes are the udev rule's mode and group)" \
		fails grep -q warning /tmp/cdi.out
	cdi_want=
	for _id in 0 1; do
		_a=$(accel_of $_id)
		_dev=$(cat "$S/kohaku_sim.$_id"/*/"$_a"/dev 2>/dev/null)
		cdi_want="$cdi_want ${_a##*[a-zD]}=$NODES/$_a=$_dev"
	done
	_gid=$(sed -n "s/^$grp:x:\([0-9]*\):.*/\1/p" /etc/group)
	if [ -x /usr/bin/python3 ] && [ -f /cdi-validate.py ]; then
		check "kohaku cdi: the spec against the CDI schema's required fields (cdi-validate.py)" \
			/usr/bin/python3 /cdi-validate.py /tmp/kohaku.json
		/usr/bin/python3 - /tmp/kohaku.json "$_gid" $cdi_want >/tmp/cdi.chk 2>&1 <<'EOF2'
import json, sys
s = json.load(open(sys.argv[1]))
gid = int(sys.argv[2])
devs = {d["name"]: d["containerEdits"]["deviceNodes"] for d in s["devices"]}
want, errs = {}, []
for w in sys.argv[3:]:
    name, path, dev = w.split("=")
    ma, mi = dev.split(":")
    want[name] = {"path": path, "type": "c", "major": int(ma), "minor": int(mi),
                  "fileMode": 0o660, "gid": gid}
if sorted(devs) != sorted(list(want) + ["all"]):
    errs.append("devices %r, want %r" % (sorted(devs), sorted(want)))
for name, node in want.items():
    if devs.get(name) != [node]:
        errs.append("%s: %r, want %r" % (name, devs.get(name), node))
if devs.get("all") != [want[k] for k in sorted(want, key=int)]:
    errs.append("all: %r" % devs.get("all"))
print("\n".join(errs) or "ok")
sys.exit(1 if errs else 0)
EOF2
		_rc=$?
		sed 's/^/KHVM: # cdi check: /' /tmp/cdi.chk
		expect "kohaku cdi: devices$cdi_want (N=path=major:minor), all, each 0660 gid $_gid" "$_rc" 0
	else
		notok "kohaku cdi: python3 and cdi-validate.py in the guest (run-vm.sh packs them)"
	fi
fi

# ---- podman: a container given the card through CDI ----

# run-vm.sh packed Debian 12's podman 4.3.1, crun and conmon, a
# containers.conf for this guest (cgroupfs, no network, no pivot_root on
# the initramfs) and /ctr, a directory rootfs holding the static CLI.  The
# spec goes where podman reads it, /etc/cdi; container 0 runs kohaku
# validate on the card CDI put in it; without --device the container has
# no node; the node in the container has the spec's mode and gid; with
# --user, podman makes that user the node's owner (podman's rule, not the
# spec's); a device the spec does not have is refused by podman.  (About
# 17 s under TCG.)
if [ -x /usr/bin/podman ]; then
	pm_t0=$(cut -d' ' -f1 /proc/uptime)
	mkdir -p /sys/fs/cgroup /dev/pts /dev/shm /etc/cdi
	mount -t cgroup2 cgroup2 /sys/fs/cgroup
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	/bin/kohaku cdi -o /etc/cdi/kohaku.json >/tmp/cdi.out 2>&1 </dev/null
	expect "podman: kohaku cdi -o /etc/cdi/kohaku.json: exit 0" "$?" 0
	_n0=${NODE0##*[a-zD]}
	_gid=$(sed -n "s/^$grp:x:\([0-9]*\):.*/\1/p" /etc/group)
	# podman_run ARGS...: podman run --rm ARGS, output in /tmp/podman.out
	podman_run() {
		timeout "$TEST_TIMEOUT" /usr/bin/podman run --rm "$@" \
			>/tmp/podman.out 2>&1 </dev/null
		_rc=$?
		sed 's/^/KHVM: # podman: /' /tmp/podman.out
		return $_rc
	}
	podman_run --device kohaku.io/card=$_n0 --rootfs /ctr /kohaku --backend kernel validate
	expect "podman run --device kohaku.io/card=$_n0 --rootfs /ctr /kohaku validate: exit 0" "$?" 0
	check "podman: ... validate: PASS in the container, on $NODES/$NODE0" \
		sh -c "grep -q '^validate: PASS' /tmp/podman.out && grep -q '^1/[0-9]* *open *PASS *$NODES/$NODE0' /tmp/podman.out"
	podman_run --rootfs /ctr /kohaku --backend kernel list
	expect "podman: without --device the container has no kohaku node (kohaku list: exit 3)" "$?" 3
	# the node as the spec makes it: 0660, the group's gid (a root container)
	podman_run --device kohaku.io/card=$_n0 --rootfs /ctr /busybox stat -c '%a %g %t:%T' $NODES/$NODE0
	expect "podman: in the container $NODES/$NODE0 is the spec's fileMode 0660, gid $_gid, $(cat "$S/kohaku_sim.0"/*/$NODE0/dev)" \
		"$(cat /tmp/podman.out)" "660 $_gid $(awk -F: '{ printf "%x:%x", $1, $2 }' "$S/kohaku_sim.0"/*/$NODE0/dev)"
	# --user: podman 4.3 makes the container's user the node's owner itself
	# (the spec's gid and mode kept)
	podman_run --device kohaku.io/card=$_n0 --user 1001:1001 --rootfs /ctr /busybox sh -c \
		"/busybox stat -c 'node %u:%g %a' $NODES/$NODE0 && exec /kohaku --backend kernel --device $_n0 info"
	expect "podman: --user 1001:1001: kohaku info on the node: exit 0" "$?" 0
	check "podman: ... the node is 1001:$_gid 0660 (owner the user, the spec's gid and mode)" \
		grep -q "^node 1001:$_gid 660\$" /tmp/podman.out
	podman_run --device kohaku.io/card=99 --rootfs /ctr /kohaku list
	_rc=$?
	check "podman: --device kohaku.io/card=99 refused by podman (exit $_rc): unresolvable" \
		sh -c "[ $_rc -ne 0 ] && grep -q 'unresolvable CDI devices kohaku.io/card=99' /tmp/podman.out"
	# and podman's files out of the guest's memory (the initramfs is RAM)
	rm -rf /etc/cdi/kohaku.json /tmp/containers /run/containers /run/libpod \
		/usr/bin/podman /usr/bin/crun /usr/bin/conmon /ctr
	umount /dev/shm
	umount /dev/pts
	umount /sys/fs/cgroup
	diag "podman: $(awk -v a="$pm_t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
else
	diag "podman: not packed (KOHAKU_VM_PODMAN=0, or run-vm.sh could not): no container checks"
fi

# ---- sysfs ----

NODE_ATTRS="x y type type_name version inst_depth inst_space busy retired busy_cycles"

# sysfs_card ID: print every attribute, check what holds for every card
sysfs_card() {
	_k=$S/kohaku_sim.$1/kohaku
	if [ ! -d "$_k" ]; then
		notok "card $1: $_k exists"
		return
	fi
	for _a in abi_version meshes nodes name; do
		diag "card $1 kohaku/$_a: $(cat "$_k/$_a")"
	done
	expect "card $1: abi_version" "$(cat "$_k/abi_version")" 0.9
	_bad=0
	_n=0
	for _d in "$_k"/mesh*/node_*; do
		[ -d "$_d" ] || continue
		_n=$((_n + 1))
		_line=
		for _a in $NODE_ATTRS; do
			_v=$(cat "$_d/$_a") || { _v=ERROR; _bad=$((_bad + 1)); }
			_line="$_line $_a=$(echo "$_v" | tr ' ' '_')"
		done
		diag "card $1 ${_d#"$_k"/}:$_line"
		# node_X_Y holds x X and y Y
		_xy=$(basename "$_d" | sed 's/^node_\([0-9]*\)_\([0-9]*\)$/\1,\2/')
		[ "$(cat "$_d/x"),$(cat "$_d/y")" = "$_xy" ] || _bad=$((_bad + 1))
	done
	expect "card $1: every node attribute reads, x and y match the directory" \
		"$_bad" 0
	expect "card $1: kohaku/nodes counts the node directories" \
		"$(cat "$_k/nodes")" "$_n"
}

# count_type ID TYPE: nodes of card ID whose type and type_name read TYPE
# ("0x5358 SX", or "0x0000" when it has no name)
count_type() {
	for _d in "$S/kohaku_sim.$1"/kohaku/mesh*/node_*; do
		[ -d "$_d" ] && echo "$(cat "$_d/type") $(cat "$_d/type_name")"
	done 2>/dev/null | sed 's/ $//' | grep -cx "$2"
}

sysfs_card 0
sysfs_card 1

# ---- sysfs against its ABI document (Documentation/ABI/testing) ----

# Every file and directory the driver shows is documented, and every
# documented What: exists on some card: abi_collect gathers what the cards
# show, abi_check compares (run-vm.sh packs the documents in /abi).
: >/tmp/abi.files
# abi_collect ID: card ID's kohaku/ tree, by its /sys/bus/platform path
abi_collect() {
	find "/sys/bus/platform/devices/kohaku_sim.$1/kohaku" >>/tmp/abi.files
}
# the modules' own files: kohaku_sim's control files, both modules' parameters
abi_collect_modules() {
	find $S -maxdepth 1 -type f ! -name uevent >>/tmp/abi.files
	find /sys/module/kohaku/parameters /sys/module/kohaku_sim/parameters \
		-type f >>/tmp/abi.files
}
abi_check() {
	if ! ls /abi/sysfs-driver-kohaku* >/dev/null 2>&1; then
		notok "sysfs ABI: the documents are in the guest (/abi)"
		return
	fi
	# What: lines; <...> is one path component; PCI paths need a PCI card
	awk '/^What:/ && $2 !~ /^\/sys\/bus\/pci\// { print $2 }' \
		/abi/sysfs-driver-kohaku* | sort -u >/tmp/abi.pat
	sort -u /tmp/abi.files >/tmp/abi.found
	awk 'NR == FNR {
		p = $0
		gsub(/\./, "\\.", p)
		gsub(/<[^>]*>/, "[^/]*", p)
		pat[++n] = $0
		re[n] = "^" p "$"
		next
	}
	{
		m = 0
		for (i = 1; i <= n; i++)
			if ($0 ~ re[i]) {
				used[i] = 1
				m = 1
			}
		if (!m)
			print "undocumented " $0
	}
	END {
		for (i = 1; i <= n; i++)
			if (!used[i])
				print "absent " pat[i]
	}' /tmp/abi.pat /tmp/abi.found >/tmp/abi.out
	diag "sysfs ABI: $(wc -l </tmp/abi.found) paths shown, $(wc -l </tmp/abi.pat) What: patterns (PCI paths not checked: no PCI card)"
	while read -r _w _p; do
		case $_w in
		undocumented) notok "sysfs ABI: $_p is documented in Documentation/ABI" ;;
		absent) notok "sysfs ABI: documented $_p exists on a card" ;;
		esac
	done </tmp/abi.out
	expect "sysfs ABI: every path documented, every What: present" \
		"$(wc -l </tmp/abi.out)" 0
}
abi_collect 0
abi_collect 1
abi_collect_modules


K0=$S/kohaku_sim.0/kohaku
expect "saxpy: 2 nodes" "$(cat $K0/nodes)" 2
expect "saxpy: 1 mesh" "$(cat $K0/meshes)" 1
for xy in 1_0 1_2; do
	d=$K0/mesh0/node_$xy
	expect "saxpy: node ($xy) type" "$(cat $d/type)" 0x5358
	expect "saxpy: node ($xy) type_name" "$(cat $d/type_name)" SX
	# the generated saxpy_mesh top: INST_DEPTH 512, saxpy_cu's version 1
	expect "saxpy: node ($xy) inst_depth" "$(cat $d/inst_depth)" 512
	expect "saxpy: node ($xy) version" "$(cat $d/version)" 1
	expect "saxpy: node ($xy) busy" "$(cat $d/busy)" 0
done

K1=$S/kohaku_sim.1/kohaku
expect "sx_null_2x2: 10 nodes" "$(cat $K1/nodes)" 10
expect "sx_null_2x2: 5 SX units" "$(count_type 1 "0x5358 SX")" 5
expect "sx_null_2x2: 5 null units" "$(count_type 1 0x0000)" 5

# ---- kohaku_sim control files ----

# the uevents of the card's kohaku/ directories, through busybox uevent
printf '#!/bin/sh\necho "$ACTION $SUBSYSTEM $DEVPATH" >>/tmp/uevents\n' >/tmp/uevlog
chmod +x /tmp/uevlog
: >/tmp/uevents
uevent /tmp/uevlog &
uev_pid=$!
usleep 200000
check "new_card: card 5 from a description text" sysfs_write $S/new_card \
	'5\nparam inst_depth 8\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n'
expect "card 5: 2 nodes" "$(cat $S/kohaku_sim.5/kohaku/nodes 2>&1)" 2
expect "card 5: param inst_depth 8 took" \
	"$(cat $S/kohaku_sim.5/kohaku/mesh0/node_1_0/inst_depth 2>&1)" 8
acc5=$(accel_of 5)
usleep 500000
K5=/devices/kohaku_sim/kohaku_sim.5/kohaku
for _p in "" /mesh0 /mesh0/node_1_0 /mesh0/node_1_2; do
	check "uevent: add kohaku $K5$_p" grep -qx "add kohaku $K5$_p" /tmp/uevents
done
check "card 5 has an accel node ($acc5)" test -n "$acc5" -a -c "$NODES/$acc5"

check "new_card: a bad description is refused" fails sysfs_write $S/new_card \
	'6\nxxx sax xxx\nmag nul nul nul\nxxx sax xxx\n'
msg=$(dmesg | grep 'kohaku_sim: card 6' | tail -n 1)
diag "dmesg: $msg"
check "new_card: dmesg names the bad line" contains "$msg" "line 2"
check "new_card: no card 6" test ! -e $S/kohaku_sim.6
# a description is text: a NUL byte (which would end the text early) or a
# control byte is refused by line and byte, and dmesg shows no raw byte
check "new_card: a description with a NUL byte is refused" fails sysfs_write \
	$S/new_card '6\nxxx sax xxx\nmag nul nul\0\nxxx sax xxx\n'
msg=$(dmesg | grep 'kohaku_sim: new_card:' | tail -n 1)
diag "dmesg: $msg"
check "new_card: dmesg names the NUL byte and its line" contains "$msg" \
	"the description: line 2: a NUL byte (at byte 23): a card description is text"
check "new_card: a description with an escape byte is refused" fails sysfs_write \
	$S/new_card '6\nxxx sax xxx\nmag \033[2Jnul nul\nxxx sax xxx\n'
check "new_card: dmesg names the control byte, never prints it" sh -c \
	"dmesg | grep -q 'the description: line 2: control byte 0x1b (at byte 16)' && ! dmesg | grep -q \"\$(printf '\\033')\""
check "new_card: still no card 6" test ! -e $S/kohaku_sim.6
check "new_card: duplicate id refused" fails sysfs_write $S/new_card "0 saxpy\n"
check "new_card: unknown name refused" fails sysfs_write $S/new_card "7 no_such_card\n"
check "new_card: bad id refused" fails sysfs_write $S/new_card "x saxpy\n"
check "new_card: empty description refused" fails sysfs_write $S/new_card "7\n\n"
check "del_card: unknown id refused" fails sysfs_write $S/del_card "99\n"

# delete a card whose device node is held open (by a background sleep)
if [ -n "$acc5" ] && [ -c "$NODES/$acc5" ]; then
	# shellcheck disable=SC2217
	sleep 600 <"$NODES/$acc5" &
	holder=$!
	for _i in $(seq 50); do
		[ "$(readlink /proc/$holder/fd/0)" = "$NODES/$acc5" ] && break
		usleep 100000
	done
	check "del_card 5 while $NODES/$acc5 is open" sysfs_write $S/del_card '5\n'
	kill "$holder"
	wait "$holder" 2>/dev/null
else
	notok "card 5 has a device node to hold open"
fi
check "del_card: card 5 gone" test ! -e $S/kohaku_sim.5
usleep 500000
for _p in /mesh0/node_1_0 /mesh0 ""; do
	check "uevent: remove kohaku $K5$_p" grep -qx "remove kohaku $K5$_p" /tmp/uevents
done
kill "$uev_pid" 2>/dev/null
grep kohaku /tmp/uevents | sed 's/^/KHVM: # uevent: /'
check "del_card: $NODES/$acc5 gone" test ! -e "$NODES/$acc5"

# unbind and rebind a card
P=/sys/bus/platform/drivers/kohaku
check "unbind kohaku_sim.1" sysfs_write $P/unbind kohaku_sim.1
check "unbound: no kohaku/ directory" test ! -e $K1
check "bind kohaku_sim.1" sysfs_write $P/bind kohaku_sim.1
expect "rebound: 10 nodes" "$(cat $K1/nodes 2>&1)" 10

# ---- the PCI binding, on stand-in functions QEMU provides ----

# pci_dev VENDOR DEVICE: the first function with these ids
pci_dev() {
	for _p in /sys/bus/pci/devices/*; do
		if [ "$(cat "$_p/vendor")" = "0x$1" ] &&
			[ "$(cat "$_p/device")" = "0x$2" ]; then
			basename "$_p"
			return
		fi
	done
}

# pci_try VENDOR DEVICE WHAT DMESG: bind kohaku.ko by new_id; expect a refusal
pci_try() {
	_bdf=$(pci_dev "$1" "$2")
	if [ -z "$_bdf" ]; then
		notok "PCI $3: $1:$2 present"
		return
	fi
	check "PCI $3: new_id $1 $2" sysfs_write $PCI/new_id "$1 $2\n"
	sysfs_write $PCI/remove_id "$1 $2\n"
	_m=$(dmesg | grep "kohaku $_bdf" | tail -n 1)
	diag "dmesg: $_m"
	check "PCI $3: refused, as dmesg says" contains "$_m" "$4"
	check "PCI $3: left unbound" test ! -e "/sys/bus/pci/devices/$_bdf/driver"
}
# kohaku list's PCI functions, with the stand-ins' ids added: output in
# /tmp/pci.out (relayed); pci_line BDF is the function's line
pci_list() {
	KOHAKU_BACKEND=kernel KOHAKU_PCI_MATCH=1234:1111,1234:11e8 \
		timeout "$TEST_TIMEOUT" /bin/kohaku "$@" >/tmp/pci.out 2>&1 </dev/null
	_rc=$?
	sed 's/^/KHVM: # /' /tmp/pci.out
	return $_rc
}
pci_line() { grep "^$1 " /tmp/pci.out; }
VGA=$(pci_dev 1234 1111)
EDU=$(pci_dev 1234 11e8)
# pci_unbound WHEN: both stand-ins listed, at their addresses, no driver
pci_unbound() {
	check "kohaku list $1: exit 0" pci_list list
	check "kohaku list $1: the PCI section has both stand-ins" contains \
		"$(cat /tmp/pci.out)" \
		"^PCI functions 10ee:903f and KOHAKU_PCI_MATCH 1234:1111,1234:11e8: 2$"
	check "kohaku list $1: std VGA at $VGA, BAR0 16 MiB, no driver" contains \
		"$(pci_line "$VGA")" "^$VGA 1234:1111 (subsystem .*BAR0 16 MiB.*, driver -$"
	check "kohaku list $1: edu at $EDU, BAR0 1 MiB, no driver" contains \
		"$(pci_line "$EDU")" "^$EDU 1234:11e8 (subsystem .*BAR0 1 MiB.*, driver -$"
	check "kohaku list $1: why: kohaku.ko needs new_id for 1234:1111" contains \
		"$(cat /tmp/pci.out)" \
		"not usable: no driver bound, and kohaku.ko binds only 10ee:903f by itself: echo '1234 1111' > $PCI/new_id"
}
PCI=/sys/bus/pci/drivers/kohaku
pci_unbound "(before binding)"
pci_try 1234 11e8 "edu (1 MiB BAR0)" "BAR0 is not a 16 MiB memory BAR"
pci_try 1234 1111 "std VGA (16 MiB BAR0, no mesh)" "no KohakuAccel mesh"
pci_unbound "(kohaku.ko refused both)"

# another driver bound: edu to pci-stub (run-vm.sh packs pci-stub.ko)
STUB=/sys/bus/pci/drivers/pci-stub
[ -d $STUB ] || check "insmod pci-stub.ko" insmod /pci-stub.ko
if [ -d $STUB ] && [ -n "$EDU" ]; then
	check "pci-stub: new_id 1234 11e8" sysfs_write $STUB/new_id "1234 11e8\n"
	check "kohaku list (edu on pci-stub): exit 0" pci_list list
	check "kohaku list: edu at $EDU bound to pci-stub" contains \
		"$(pci_line "$EDU")" "^$EDU 1234:11e8 .*, driver pci-stub$"
	check "kohaku list: why: bound to pci-stub, and how to rebind" contains \
		"$(cat /tmp/pci.out)" \
		"not usable: bound to pci-stub .*echo $EDU > $STUB/unbind"
	check "kohaku list --json (edu on pci-stub): exit 0" pci_list --json list
	check "kohaku list --json: edu's address, id, driver" contains \
		"$(cat /tmp/pci.out)" \
		"\"address\": \"$EDU\", \"id\": \"1234:11e8\", .*\"driver\": \"pci-stub\", \"accel\": \"\", \"usable\": false"
	sysfs_write $STUB/remove_id "1234 11e8\n"
	check "pci-stub: unbind edu" sysfs_write $STUB/unbind "$EDU"
	check "rmmod pci_stub" rmmod pci_stub
else
	notok "pci-stub present to bind edu to"
fi

# ---- the CLI, on fresh cards ----

cli() { # DESC ARGS...
	_d=$1
	shift
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku "$@" \
		>/tmp/cli.out 2>&1 </dev/null
	_rc=$?
	sed 's/^/KHVM: # /' /tmp/cli.out
	expect "$_d" "$_rc" 0
}
if [ -x /bin/kohaku ]; then
	cli "kohaku --backend kernel list" --backend kernel list
	cli "kohaku --backend kernel nodes" --backend kernel nodes
	cli "kohaku --backend kernel run saxpy" --backend kernel run saxpy
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --backend kernel \
		run mat-demo >/tmp/cli.out 2>&1 </dev/null
	expect "kohaku run mat-demo on a card without mat units (exit 2)" "$?" 2
	check "... saying it has no mat unit" contains "$(cat /tmp/cli.out)" \
		"this device has no mat unit"
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --backend kernel \
		run dxa-copy >/tmp/cli.out 2>&1 </dev/null
	expect "kohaku run dxa-copy on a card without a DXA unit (exit 2)" "$?" 2
	check "... saying it has no DXA unit" contains "$(cat /tmp/cli.out)" \
		"this device has no DXA unit"
else
	notok "CLI /bin/kohaku present"
fi

# ---- runtime tests, once per card ----

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

for card in 0:saxpy 1:sx_null_2x2; do
	id=${card%%:*}
	map=${card#*:}
	acc=$(accel_of "$id")
	for t in /tests/*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		diag "running $name on card $id ($map, $NODES/$acc)"
		KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc \
			KOHAKU_TEST_MAP=$map timeout "$TEST_TIMEOUT" "$t" \
			>/tmp/test.out 2>&1 </dev/null
		relay "vm/$map/$name" /tmp/test.out $?
	done
done

FWP=/lib/firmware/kohaku/pool.fw
# fw_settle ID: the asynchronous request at bind has come to something
fw_settle() {
	_i=0
	while [ $_i -lt 300 ]; do
		_st=$(cat "$S/kohaku_sim.$1/kohaku/firmware" 2>/dev/null)
		case $_st in running*|failed*|absent*|none*) break ;; esac
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_st"
}
# fw_states ID: every POOL unit's fw_state, one line
fw_states() {
	cat "$S/kohaku_sim.$1"/kohaku/mesh*/node_*/fw_state 2>/dev/null | sort | uniq -c |
		tr -s ' \n' ' '
}

# ---- destructive runtime tests, on cards of their own ----

# rt_timeout hangs a node for good (the card has no soft reset): give it
# throwaway cards, then delete them, hung node and all
for card in 8:saxpy 9:sx_null_2x2; do
	id=${card%%:*}
	map=${card#*:}
	check "new_card $id $map for the destructive tests" \
		sysfs_write $S/new_card "$id $map\n"
	acc=$(accel_of "$id")
	t=/tests/rt_timeout
	if [ -x $t ]; then
		diag "running rt_timeout on card $id ($map, $NODES/$acc), destructive"
		KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc \
			KOHAKU_TEST_MAP=$map KOHAKU_TEST_DESTRUCTIVE=1 \
			timeout "$TEST_TIMEOUT" $t >/tmp/test.out 2>&1 </dev/null
		relay "vm/$map/rt_timeout(destructive)" /tmp/test.out $?
	fi
	check "del_card $id after the destructive tests" \
		sysfs_write $S/del_card "$id\n"
done

# rt_faults injects faults through the cards' debugfs knobs (hung node,
# lost CU_CTRL replies, mesh resets): cards of its own too, one with POOL
# units (their firmware after a reset)
for card in 11:saxpy 12:sx_null_2x2 18:pool; do
	id=${card%%:*}
	map=${card#*:}
	check "new_card $id $map for rt_faults" sysfs_write $S/new_card "$id $map\n"
	acc=$(accel_of "$id")
	# the firmware request at bind is asynchronous: let it finish first
	[ "$map" = pool ] && expect "card $id ($map): request_firmware at bind booted it" \
		"$(fw_settle $id)" "running: kohaku/pool.fw"
	# rt_clocks: the governor, resets asked for, recovery, firmware after each
	for t in /tests/rt_faults /tests/rt_clocks; do
		[ -x $t ] || continue
		name=$(basename $t)
		diag "running $name on card $id ($map, $NODES/$acc), destructive"
		KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc \
			KOHAKU_TEST_MAP=$map KOHAKU_TEST_DESTRUCTIVE=1 KOHAKU_TEST_FW=$FWP \
			timeout "$TEST_TIMEOUT" $t >/tmp/test.out 2>&1 </dev/null
		relay "vm/$map/$name(destructive)" /tmp/test.out $?
	done
	check "del_card $id after rt_faults" sysfs_write $S/del_card "$id\n"
done

# ---- a mesh's clocks and resets through sysfs and the CLI (root) ----

# clk_read ID FILE: one of mesh0's files on card ID
clk_read() { cat "$S/kohaku_sim.$1/kohaku/mesh0/$2" 2>/dev/null; }
# clk_wait ID PROFILE: read clock_profile (each read reads the wizard: the
# simulated card's time passes) until it says PROFILE; bounded
clk_wait() {
	_i=0
	while [ $_i -lt 3000 ]; do
		[ "$(clk_read $1 clock_profile)" = "$2" ] && return 0
		_i=$((_i + 1))
	done
	return 1
}
check "new_card 22 pool for the clock governor" sysfs_write $S/new_card "22 pool\n"
acc=$(accel_of 22)
expect "card 22 (pool): request_firmware at bind booted it" "$(fw_settle 22)" \
	"running: kohaku/pool.fw"
expect "module parameter clk_policy" "$(cat /sys/module/kohaku/parameters/clk_policy)" auto
expect "module parameter clk_idle" "$(cat /sys/module/kohaku/parameters/clk_idle)" low
expect "module parameter clk_idle_ms" "$(cat /sys/module/kohaku/parameters/clk_idle_ms)" 10000
expect "module parameter recover" "$(cat /sys/module/kohaku/parameters/recover)" 3
expect "card 22: clock_policy" "$(clk_read 22 clock_policy)" auto
expect "card 22: reset is write-only (root)" "$(stat -c %a $S/kohaku_sim.22/kohaku/mesh0/reset)" 200
expect "card 22: clock_profile is rw for root" "$(stat -c %a $S/kohaku_sim.22/kohaku/mesh0/clock_profile)" 644
if [ -n "$acc" ]; then
	cli "card 22: kohaku run saxpy raises mesh 0" --device $NODES/$acc run saxpy
	expect "card 22: a job raised mesh 0 to ship" "$(clk_read 22 clock_profile)" ship
	expect "card 22: noc at ship" "$(clk_read 22 clock_noc_mhz)" 300
	expect "card 22: mat2x at ship" "$(clk_read 22 clock_mat2x_mhz)" 600
	r0=$(clk_read 22 clock_retunes)
	check "card 22: clock_idle_ms 1" sysfs_write $S/kohaku_sim.22/kohaku/mesh0/clock_idle_ms "1\n"
	check "card 22: the mesh drops to its idle profile" clk_wait 22 low
	expect "card 22: noc at low" "$(clk_read 22 clock_noc_mhz)" 100
	check "card 22: the drop was counted" test "$(clk_read 22 clock_retunes)" -gt "$r0"
	check "card 22: clock_profile mid (fixes the policy)" \
		sysfs_write $S/kohaku_sim.22/kohaku/mesh0/clock_profile "mid\n"
	expect "card 22: ... policy fixed" "$(clk_read 22 clock_policy)" fixed
	check "card 22: the mesh goes to mid" clk_wait 22 mid
	expect "card 22: vec at mid" "$(clk_read 22 clock_vec_mhz)" 200
	cli "card 22: crc32 (POOL firmware booted again after the retunes)" \
		--device $NODES/$acc run crc32
	check "card 22: ... agrees with the host" contains "$(cat /tmp/cli.out)" "crc32: PASS"
	check "card 22: a bad profile is refused" fails \
		sysfs_write $S/kohaku_sim.22/kohaku/mesh0/clock_profile "turbo\n"
	check "card 22: clock_policy auto" sysfs_write $S/kohaku_sim.22/kohaku/mesh0/clock_policy "auto\n"
	check "card 22: clock_idle_ms 10000" sysfs_write $S/kohaku_sim.22/kohaku/mesh0/clock_idle_ms "10000\n"
	cli "card 22: kohaku clocks" --device $NODES/$acc clocks
	check "card 22: kohaku clocks shows mesh 0's policy" contains "$(cat /tmp/cli.out)" "auto"
	cli "card 22: kohaku clocks --json" --device $NODES/$acc clocks --json
	check "card 22: ... JSON with the meshes" contains "$(cat /tmp/cli.out)" '"meshes"'
	rs=$(clk_read 22 resets)
	check "card 22: echo 1 > mesh0/reset" sysfs_write $S/kohaku_sim.22/kohaku/mesh0/reset "1\n"
	expect "card 22: the reset was counted" "$(clk_read 22 resets)" $((rs + 1))
	check "card 22: echo 0 > mesh0/reset is refused" fails \
		sysfs_write $S/kohaku_sim.22/kohaku/mesh0/reset "0\n"
	expect "card 22: every POOL unit runs firmware again after the reset" "$(fw_states 22)" \
		" 3 running "
	cli "card 22: kohaku reset --mesh 0" --device $NODES/$acc reset --mesh 0
	check "card 22: ... says the firmware runs again" contains "$(cat /tmp/cli.out)" "3 POOL units running firmware again"
	expect "card 22: resets counted again" "$(clk_read 22 resets)" $((rs + 2))
	cli "card 22: then crc32 runs" --device $NODES/$acc run crc32
	msg=$(dmesg | grep -E 'mesh 0: (reset done|clocks )' | tail -n 2 | tr '\n' ';')
	diag "dmesg: $msg"
	check "card 22: dmesg says what the reset did" contains "$msg" "reset done in"
fi
check "del_card 22" sysfs_write $S/del_card "22\n"

# a four-mesh card through kohaku.ko: enumeration, memory and jobs per mesh
check "new_card 13 quad" sysfs_write $S/new_card "13 quad\n"
acc=$(accel_of 13)
if [ -x /tests/rt_multimesh ] && [ -n "$acc" ]; then
	diag "running rt_multimesh on card 13 (quad, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		KOHAKU_TEST_QUAD=$NODES/$acc \
		timeout "$TEST_TIMEOUT" /tests/rt_multimesh >/tmp/test.out 2>&1 </dev/null
	relay "vm/quad/rt_multimesh" /tmp/test.out $?
fi
check "del_card 13" sysfs_write $S/del_card "13\n"

# the card that ships, KohakuTPU's own map: its mat and vec units through
# kohaku.ko, enumerated and named in sysfs
check "new_card 14 mesh_2x2_8+2" sysfs_write $S/new_card "14 mesh_2x2_8+2\n"
expect "mesh_2x2_8+2: 10 nodes" "$(cat $S/kohaku_sim.14/kohaku/nodes)" 10
expect "mesh_2x2_8+2: 8 matmul clusters" "$(count_type 14 "0x4d47 MG")" 8
expect "mesh_2x2_8+2: 2 vector cores" "$(count_type 14 "0x5643 VC")" 2
acc=$(accel_of 14)
if [ -n "$acc" ] && [ -x /bin/kohaku ]; then
	cli "mesh_2x2_8+2: kohaku run mat-demo on its 8 clusters" \
		--device $NODES/$acc run mat-demo
	cli "mesh_2x2_8+2: kohaku run vec-demo on its 2 vector cores" \
		--device $NODES/$acc run vec-demo
fi
if [ -n "$acc" ] && [ -x /tests/rt_mat ]; then
	diag "running rt_mat on card 14 (mesh_2x2_8+2, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_mat >/tmp/test.out 2>&1 </dev/null
	relay "vm/mesh_2x2_8+2/rt_mat" /tmp/test.out $?
fi
if [ -n "$acc" ] && [ -x /tests/rt_vec ]; then
	diag "running rt_vec on card 14 (mesh_2x2_8+2, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_vec >/tmp/test.out 2>&1 </dev/null
	relay "vm/mesh_2x2_8+2/rt_vec" /tmp/test.out $?
fi
if [ -n "$acc" ] && [ -x /tests/rt_peer ]; then
	diag "running rt_peer on card 14 (mesh_2x2_8+2: peer signals between mat clusters)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_peer >/tmp/test.out 2>&1 </dev/null
	relay "vm/mesh_2x2_8+2/rt_peer" /tmp/test.out $?
fi
if [ -n "$acc" ] && [ -x /tests/rt_artifact ]; then
	diag "running rt_artifact on card 14 (mesh_2x2_8+2: artifacts on mat and vec units, a peer await)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_artifact >/tmp/test.out 2>&1 </dev/null
	relay "vm/mesh_2x2_8+2/rt_artifact" /tmp/test.out $?
fi
if [ -n "$acc" ] && [ -x /tests/rt_jobdata ]; then
	diag "running rt_jobdata on card 14 (mesh_2x2_8+2: job data into vec units)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_jobdata >/tmp/test.out 2>&1 </dev/null
	relay "vm/mesh_2x2_8+2/rt_jobdata" /tmp/test.out $?
fi
check "del_card 14" sysfs_write $S/del_card "14\n"

# the card's own 32-bit control path (KH_HW_CTRL32): a card made while
# kohaku_sim's ctrl=32 offers kohaku.ko 32-bit BAR0 accesses only; its
# bring-up reads no GRID_HI, its jobs go through the mailbox
check "ctrl=32 for the cards created next" \
	sysfs_write /sys/module/kohaku_sim/parameters/ctrl "32"
check "new_card 17 sx_null_2x2 on a 32-bit control path" \
	sysfs_write $S/new_card "17 sx_null_2x2\n"
check "ctrl=64 again" sysfs_write /sys/module/kohaku_sim/parameters/ctrl "64"
expect "ctrl=32: sx_null_2x2 enumerated, 10 nodes" \
	"$(cat $S/kohaku_sim.17/kohaku/nodes 2>&1)" 10
acc=$(accel_of 17)
check "ctrl=32: kohaku.ko says so at bind" sh -c \
	"dmesg | grep 'kohaku_sim.17' | grep -q '32-bit control path'"
if [ -n "$acc" ] && [ -x /bin/kohaku ]; then
	cli "ctrl=32: kohaku info" --device $NODES/$acc info
	check "ctrl=32: kohaku info shows ctrl32" contains "$(cat /tmp/cli.out)" ctrl32
fi
for t in rt_info rt_jobs rt_credit rt_jobdata; do
	[ -n "$acc" ] && [ -x /tests/$t ] || continue
	diag "running $t on card 17 (sx_null_2x2, 32-bit control path, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc \
		KOHAKU_TEST_MAP=sx_null_2x2 timeout "$TEST_TIMEOUT" /tests/$t \
		>/tmp/test.out 2>&1 </dev/null
	relay "vm/ctrl32/sx_null_2x2/$t" /tmp/test.out $?
done
check "del_card 17" sysfs_write $S/del_card "17\n"

# cpu units through kohaku.ko: job data (the image before the kick), the
# cpu unit's builders and its demo, on the card made for them
check "new_card 15 cpu_2x1" sysfs_write $S/new_card "15 cpu_2x1\n"
expect "cpu_2x1: 4 cpu units" "$(count_type 15 "0x5256 RV")" 4
acc=$(accel_of 15)
if [ -n "$acc" ] && [ -x /bin/kohaku ] && /bin/kohaku run 2>&1 | grep -q cpu-demo; then
	cli "cpu_2x1: kohaku run cpu-demo on its 4 cpu units" \
		--device $NODES/$acc run cpu-demo
fi
for t in /tests/rt_jobdata /tests/rt_cpu; do
	[ -n "$acc" ] && [ -x $t ] || continue
	diag "running ${t#/tests/} on card 15 (cpu_2x1, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" $t >/tmp/test.out 2>&1 </dev/null
	relay "vm/cpu_2x1/${t#/tests/}" /tmp/test.out $?
done
check "del_card 15" sysfs_write $S/del_card "15\n"

# the DXA addon through kohaku.ko: descriptor slots, copies checked at
# SUBMIT and their slots sent as job data, the unit's table read back, on
# the card made for it (a dxa unit, four scr units, SX, null)
check "new_card 16 dxa_2x1" sysfs_write $S/new_card "16 dxa_2x1\n"
expect "dxa_2x1: 1 DXA unit" "$(count_type 16 "0x4458 DX")" 1
expect "dxa_2x1: 4 scratch units" "$(count_type 16 "0x5343 SC")" 4
acc=$(accel_of 16)
if [ -n "$acc" ] && [ -x /bin/kohaku ]; then
	cli "dxa_2x1: kohaku run dxa-copy" --device $NODES/$acc run dxa-copy
	check "kohaku run dxa-copy agrees with the host" \
		contains "$(cat /tmp/cli.out)" "dxa-copy: PASS"
	cli "dxa_2x1: kohaku dxa" --device $NODES/$acc dxa
	check "kohaku dxa shows the unit's 16 slots" \
		contains "$(cat /tmp/cli.out)" "slot 15"
fi
if [ -n "$acc" ] && [ -x /tests/rt_dxa ]; then
	diag "running rt_dxa on card 16 (dxa_2x1, $NODES/$acc)"
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		timeout "$TEST_TIMEOUT" /tests/rt_dxa >/tmp/test.out 2>&1 </dev/null
	relay "vm/dxa_2x1/rt_dxa" /tmp/test.out $?
fi
check "del_card 16" sysfs_write $S/del_card "16\n"

# bring-up with a lost CU_CTRL reply: a card whose description sets the
# knob, so that it acts while kohaku.ko enumerates
check "new_card 10: saxpy with the confirming CAPS reply of (1,2) lost" \
	sysfs_write $S/new_card \
	'10\ninject ctrl node=1,2 field=drop after=1\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n'
acc=$(accel_of 10)
if [ -x /tests/rt_faults ] && [ -n "$acc" ]; then
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc KOHAKU_TEST_MAP=saxpy \
		KOHAKU_TEST_BRINGUP_DEVICE=$NODES/$acc \
		timeout "$TEST_TIMEOUT" /tests/rt_faults -t ctrl_reply_lost_at_bringup \
		>/tmp/test.out 2>&1 </dev/null
	relay "vm/bringup/rt_faults" /tmp/test.out $?
fi
check "del_card 10" sysfs_write $S/del_card "10\n"

# ---- POOL firmware: request_firmware at bind, FW_LOAD, the kernels ----

check "the firmware image is in the guest's /lib/firmware" test -s $FWP
check "new_card 20 pool" sysfs_write $S/new_card "20 pool\n"
acc=$(accel_of 20)
expect "card 20 (pool): request_firmware at bind booted it" "$(fw_settle 20)" \
	"running: kohaku/pool.fw"
npool=$(count_type 20 "0x4750 GP")
check "card 20 has POOL units ($npool)" test "$npool" -gt 0
expect "card 20: every POOL unit's fw_state is running" "$(fw_states 20)" \
	" $npool running "
for _d in "$S"/kohaku_sim.20/kohaku/mesh*/node_*; do
	[ -f "$_d/fw_state" ] || continue
	diag "card 20 ${_d#"$S"/kohaku_sim.20/kohaku/}: fw_state=$(cat "$_d/fw_state") fw_version=$(cat "$_d/fw_version") fw_api=$(cat "$_d/fw_api") fw_boot_ns=$(cat "$_d/fw_boot_ns")"
done
expect "card 20: SX units have no fw_state" \
	"$(ls "$S"/kohaku_sim.20/kohaku/mesh*/node_*/fw_state | wc -l)" "$npool"
diag "dmesg: $(dmesg | grep -i 'firmware' | tail -n 3 | tr '\n' ';')"
if [ -n "$acc" ]; then
	cli "kohaku fw info (card 20)" --device $NODES/$acc fw info
	check "kohaku fw info shows the firmware running" contains "$(cat /tmp/cli.out)" \
		"$npool running firmware"
	cli "kohaku run crc32 (card 20)" --device $NODES/$acc run crc32
	check "kohaku run crc32 agrees with the host" contains "$(cat /tmp/cli.out)" \
		"crc32: PASS"
	cli "kohaku fw load $FWP (card 20)" --device $NODES/$acc fw load $FWP
	for t in /tests/rt_fw /tests/rt_pool /tests/rt_info; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		diag "running $name on card 20 (pool, $NODES/$acc)"
		KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$acc \
			KOHAKU_TEST_MAP=pool KOHAKU_TEST_FW=$FWP timeout "$TEST_TIMEOUT" "$t" \
			>/tmp/test.out 2>&1 </dev/null
		relay "vm/pool/$name" /tmp/test.out $?
	done
fi
abi_collect 20
abi_check
check "del_card 20" sysfs_write $S/del_card "20\n"

# no image: the bind goes on, the card works, the reason is in sysfs
mv $FWP $FWP.away
check "new_card 21 pool without /lib/firmware/kohaku/pool.fw" \
	sysfs_write $S/new_card "21 pool\n"
acc=$(accel_of 21)
expect "card 21: firmware absent, and why" "$(fw_settle 21)" \
	"absent: kohaku/pool.fw not found"
check "card 21: its POOL units are absent" contains "$(fw_states 21)" " absent "
if [ -n "$acc" ]; then
	cli "card 21: saxpy runs without the firmware" --device $NODES/$acc run saxpy
	KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku --device $NODES/$acc \
		run crc32 --n 64 >/tmp/cli.out 2>&1 </dev/null
	expect "card 21: a POOL job without firmware fails (exit 4)" "$?" 4
	check "card 21: ... saying no firmware runs" contains "$(cat /tmp/cli.out)" \
		"no firmware runs"
	cli "card 21: kohaku fw load" --device $NODES/$acc fw load $FWP.away
	cli "card 21: then crc32 runs" --device $NODES/$acc run crc32
fi
mv $FWP.away $FWP
check "del_card 21" sysfs_write $S/del_card "21\n"

# ---- the model's knobs in debugfs ----

D=/sys/kernel/debug/kohaku_sim/card0
for f in inject check trace knobs stats; do
	check "debugfs: card0/$f exists" test -e "$D/$f"
done
check "debugfs: a knob is taken" sysfs_write "$D/inject" "busy node=1,0 cycles=10\n"
check "debugfs: the knob is listed" contains "$(cat $D/knobs)" "busy mesh=0 node=1,0"
check "debugfs: a bad knob is refused" fails sysfs_write "$D/inject" "drop link=R9,9.E\n"
msg=$(dmesg | grep 'kohaku_sim: card 0: inject' | tail -n 1)
diag "dmesg: $msg"
check "debugfs: dmesg says why" contains "$msg" "no link R9,9.E"
check "debugfs: clear" sysfs_write "$D/inject" "clear\n"
expect "debugfs: no knobs left" "$(cat $D/knobs)" ""
check "debugfs: trace on" sysfs_write "$D/trace" "on size=1024 events=unit,orch\n"
cli "kohaku run saxpy, traced" --backend kernel --device $NODES/$NODE0 run saxpy
check "debugfs: the trace has the job's retire" contains "$(cat $D/trace)" " retire "
check "debugfs: trace off" sysfs_write "$D/trace" "off\n"
check "debugfs: stats name the links" contains "$(cat $D/stats)" "link 0 R1,1.N flits="
rep=$(cat $D/check)
diag "card0 checker: $(echo "$rep" | head -n 4 | tr '\n' ';')"
expect "debugfs: card0's checker found no violations" "$(echo "$rep" | head -n 1)" "violations 0"

# ---- kohaku.ko's tracepoints (events/kohaku in tracefs) ----

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
check "tracefs: events/kohaku exists" test -d $T/events/kohaku
for e in submit dispatch retire fault timeout mailbox dma; do
	check "tracefs: event kohaku_$e exists" test -d $T/events/kohaku/kohaku_$e
done
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/kohaku/enable
echo 1 >$T/tracing_on
cli "kohaku run saxpy, under ftrace" --backend kernel --device $NODES/$NODE0 run saxpy
echo 0 >$T/tracing_on
echo 0 >$T/events/kohaku/enable
cat $T/trace >/tmp/ftrace.txt
grep -E 'kohaku_(submit|dispatch|retire|fault|timeout)' /tmp/ftrace.txt | head -n 12 |
	sed 's/^ */KHVM: # ftrace: /'
tj=$(sed -n 's/.*kohaku_submit: dev=kohaku_sim.0 .* job=\([0-9]*\) .*/\1/p' /tmp/ftrace.txt | head -n 1)
check "ftrace: kohaku_submit of a job on kohaku_sim.0 (job $tj)" test -n "$tj"
check "ftrace: kohaku_dispatch of job $tj" \
	grep -q "kohaku_dispatch: dev=kohaku_sim.0 mesh=[0-9]* job=$tj " /tmp/ftrace.txt
check "ftrace: kohaku_retire of job $tj, status=done" \
	grep -q "kohaku_retire: dev=kohaku_sim.0 mesh=[0-9]* job=$tj status=done" /tmp/ftrace.txt
check "ftrace: kohaku_dma transfers (BO data)" \
	grep -q "kohaku_dma: dev=kohaku_sim.0 h2c bytes=[0-9]* descs=[0-9]* result=0" /tmp/ftrace.txt
diag "ftrace: $(grep -c kohaku_ /tmp/ftrace.txt) kohaku events; $(grep -c kohaku_mailbox /tmp/ftrace.txt) mailbox, $(grep -c kohaku_dma /tmp/ftrace.txt) dma"
# a CU_CTRL read through the mailbox: a live sysfs attribute
echo 1 >$T/events/kohaku/kohaku_mailbox/enable
echo 1 >$T/tracing_on
cat $S/kohaku_sim.0/kohaku/mesh0/node_1_0/busy >/dev/null
echo 0 >$T/tracing_on
echo 0 >$T/events/kohaku/kohaku_mailbox/enable
check "ftrace: kohaku_mailbox request and reply for a live sysfs read" \
	grep -q "kohaku_mailbox: dev=kohaku_sim.0 mesh=0 node=1,0 read reply .*result=0" $T/trace
grep kohaku_mailbox $T/trace | tail -n 2 | sed 's/^ */KHVM: # ftrace: /'
echo >$T/trace

# ---- fdinfo: an open accel node's DRM client keys ----

exec 3<$NODES/$NODE0
cat /proc/$$/fdinfo/3 >/tmp/fdinfo.txt
exec 3<&-
sed 's/^/KHVM: # fdinfo: /' /tmp/fdinfo.txt
tab=$(printf '\t')
check "fdinfo: drm-driver: kohaku" grep -qx "drm-driver:${tab}kohaku" /tmp/fdinfo.txt
# DRM files have a client id since 6.5 (before, the line is not there)
if [ "$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')" -ge 6005 ]; then
	check "fdinfo: drm-client-id" grep -q "^drm-client-id:${tab}[0-9][0-9]*$" /tmp/fdinfo.txt
else
	check "fdinfo: no drm-client-id before 6.5" fails grep -q "^drm-client-id:" /tmp/fdinfo.txt
fi
check "fdinfo: drm-engine-mesh busy time (0 ns: no job)" \
	grep -qx "drm-engine-mesh:${tab}0 ns" /tmp/fdinfo.txt
check "fdinfo: drm-total-memory and drm-resident-memory" \
	sh -c "grep -q '^drm-total-memory:' /tmp/fdinfo.txt && grep -q '^drm-resident-memory:' /tmp/fdinfo.txt"

# ---- the Python package (tests/python) through kohaku.ko ----

# run-vm.sh packed Debian's python3 and its standard library, the package
# as `make install` installs it for PREFIX=/usr and the dynamic
# libkohaku.so.0 in the multiarch directory: `import kohaku` finds the
# library through ld.so.  The suite that runs in-process in make test,
# here on kohaku.ko (KOHAKU_BACKEND=kernel): cards 0 (saxpy) and 1
# (sx_null_2x2), and cards of its own for POOL (its tests load firmware
# and trap cores) and mat; the numpy tests skip (no numpy packed), and so
# do the in-process-only ones (a job's own timeout hangs a unit for good).
if [ -x /usr/bin/python3 ] && [ -f /python-tests/run.sh ]; then
	check "new_card 30 pool for the Python tests" sysfs_write $S/new_card "30 pool\n"
	check "new_card 31 mesh_2x2_8+2 for the Python tests" \
		sysfs_write $S/new_card "31 mesh_2x2_8+2\n"
	expect "card 30 (pool): request_firmware at bind booted it" "$(fw_settle 30)" \
		"running: kohaku/pool.fw"
	cards="saxpy=$NODES/$(accel_of 0),sx_null_2x2=$NODES/$(accel_of 1)"
	cards="$cards,pool=$NODES/$(accel_of 30),mesh_2x2_8+2=$NODES/$(accel_of 31)"
	diag "python: $(/usr/bin/python3 --version 2>&1), cards $cards"
	KOHAKU_BACKEND=kernel KOHAKU_TEST_CARDS=$cards KOHAKU_TEST_FW=$FWP \
		timeout "$TEST_TIMEOUT" sh /python-tests/run.sh /usr/bin/python3 \
		>/tmp/test.out 2>&1 </dev/null
	relay "vm/python" /tmp/test.out $?
	check "del_card 30" sysfs_write $S/del_card "30\n"
	check "del_card 31" sysfs_write $S/del_card "31\n"
else
	notok "python3 and the Python tests in the guest (run-vm.sh packs them)"
fi

# ---- the CLI again, on a card the runtime tests have been through ----

if [ -x /bin/kohaku ]; then
	cli "kohaku --backend kernel run saxpy, after the runtime tests" \
		--backend kernel run saxpy
fi

# ---- the ioctl fuzzer (tests/vm/vm_fuzz.c) ----

# random sequences of calls over the real commands, sizes, pointers and
# handles across files, from 4 threads with files closed and reopened under
# them, on a card of its own; then the same until the card is unbound under
# it.  Kernel reports (KASAN, lockdep, WARN) are the dmesg check's, at the
# end.  khvm.fuzz_seqs= on the kernel command line sets the count.
FUZZ_SEQS=$(sed -n 's/.*khvm.fuzz_seqs=\([0-9]*\).*/\1/p' /proc/cmdline)
FUZZ_SEQS=${FUZZ_SEQS:-1000}
if [ -x /bin/vm_fuzz ]; then
	check "fuzz: new_card 11 saxpy" sysfs_write $S/new_card "11 saxpy\n"
	acc11=$(accel_of 11)
	timeout "$TEST_TIMEOUT" /bin/vm_fuzz "$NODES/$acc11" "$FUZZ_SEQS" 4 1 \
		>/tmp/fuzz.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/fuzz.out
	expect "fuzz: $FUZZ_SEQS sequences of 32 calls from 4 threads, every answer an ABI errno, a saxpy after" "$rc" 0
	timeout 300 /bin/vm_fuzz "$NODES/$acc11" 1000000 4 2 >/tmp/fuzz.out 2>&1 </dev/null &
	fp=$!
	sleep 5
	check "fuzz: unbind card 11 under the fuzzer" sysfs_write $P/unbind kohaku_sim.11
	wait $fp
	rc=$?
	sed 's/^/KHVM: # /' /tmp/fuzz.out
	expect "fuzz: the fuzzer saw the device go and ended cleanly" "$rc" 0
	check "fuzz: del_card 11" sysfs_write $S/del_card "11\n"
fi

# ---- load on one card from many processes (tests/vm/vm_load.c) ----

# 8 processes x 1000 jobs with BO traffic on card 0, each checking its own
# results, while one more is killed in the middle of a long job (its jobs
# and buffers reclaimed: the card's free memory as before); then 8
# processes running jobs until their card is unbound under them, and until
# kohaku_sim.ko is unloaded under them: each sees ENODEV and exits cleanly.
# A hung task or a warning is caught by the dmesg check at the end.
if [ -x /bin/vm_load ]; then
	acc=$(accel_of 0)
	timeout "$TEST_TIMEOUT" /bin/vm_load "$NODES/$acc" 8 1000 \
		>/tmp/load.out 2>&1 </dev/null
	rc=$?
	sed 's/^/KHVM: # /' /tmp/load.out
	expect "load: 8 processes x 1000 jobs on card 0, one more killed mid-job" "$rc" 0
	check "load: new_card 9 saxpy" sysfs_write $S/new_card "9 saxpy\n"
	acc9=$(accel_of 9)
	timeout 300 /bin/vm_load "$NODES/$acc9" 8 0 >/tmp/load.out 2>&1 </dev/null &
	lp=$!
	sleep 5
	check "load: unbind card 9 under 8 processes' jobs" \
		sysfs_write $P/unbind kohaku_sim.9
	wait $lp
	rc=$?
	sed 's/^/KHVM: # /' /tmp/load.out
	expect "load: each saw its device go (ENODEV) and exited cleanly" "$rc" 0
	check "load: del_card 9" sysfs_write $S/del_card "9\n"
	timeout 300 /bin/vm_load "$NODES/$acc" 8 0 >/tmp/load.out 2>&1 </dev/null &
	lp=$!
	sleep 5
	check "load: rmmod kohaku_sim under 8 processes' jobs" rmmod kohaku_sim
	wait $lp
	rc=$?
	sed 's/^/KHVM: # /' /tmp/load.out
	expect "load: each saw its device go when kohaku_sim went, exited cleanly" "$rc" 0
	check "load: insmod kohaku_sim.ko cards=saxpy again" \
		insmod /kohaku_sim.ko cards=saxpy
fi

# ---- unload, both orders ----

check "rmmod kohaku" rmmod kohaku
check "rmmod kohaku_sim" rmmod kohaku_sim
check "kohaku_sim root device gone" test ! -e $S
check "insmod kohaku_sim.ko again" insmod /kohaku_sim.ko cards=saxpy
check "insmod kohaku.ko again" insmod /kohaku.ko
check "$NODE0 is back" test -c $NODES/$NODE0

# ---- the same data path and jobs without interrupts (poll_only=1) ----

expect "interrupts in use by default" "$(cat $S/kohaku_sim.0/kohaku/irq_mode)" irq
check "irq_vectors counts the vectors in use ($(cat $S/kohaku_sim.0/kohaku/irq_vectors))" \
	test "$(cat $S/kohaku_sim.0/kohaku/irq_vectors)" -gt 0
diag "irqs taken so far: $(cat $S/kohaku_sim.0/kohaku/irqs)"
check "rmmod kohaku for poll_only" rmmod kohaku
check "insmod kohaku.ko poll_only=1" insmod /kohaku.ko poll_only=1
expect "poll_only=1: irq_mode" "$(cat $S/kohaku_sim.0/kohaku/irq_mode)" poll
expect "poll_only=1: irq_vectors" "$(cat $S/kohaku_sim.0/kohaku/irq_vectors)" 0
for t in /tests/rt_dma /tests/rt_jobs; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	KOHAKU_BACKEND=kernel KOHAKU_DEVICE=$NODES/$NODE0 KOHAKU_TEST_MAP=saxpy \
		KOHAKU_TEST_DMA_MAX=4194304 timeout "$TEST_TIMEOUT" "$t" \
		>/tmp/test.out 2>&1 </dev/null
	relay "vm/poll_only/$name" /tmp/test.out $?
done
expect "poll_only=1: no interrupt taken" "$(cat $S/kohaku_sim.0/kohaku/irqs)" 0
check "rmmod kohaku after poll_only" rmmod kohaku

# ---- /etc/modprobe.d: the installed example, copied and one line set ----

# as its header says: copy it to /etc/modprobe.d/kohaku.conf and uncomment
# a line.  busybox modprobe reads /etc/modprobe.conf and /etc/modprobe.d
# only; where `make install` puts the example ($(PREFIX)/lib/modprobe.d,
# for kmod) it does not look, so only the copy is tried here.
mpex=
for _d in /usr/local/lib/modprobe.d /usr/lib/modprobe.d; do
	[ -f "$_d/kohaku.conf" ] && mpex=$_d/kohaku.conf && break
done
mkdir -p /etc/modprobe.d
sed 's/^#\(options kohaku poll_only=1\)$/\1/' "$mpex" >/etc/modprobe.d/kohaku.conf 2>/dev/null
check "modprobe.d: $mpex copied to /etc/modprobe.d, 'options kohaku poll_only=1' uncommented" \
	sh -c "grep -qx 'options kohaku poll_only=1' /etc/modprobe.d/kohaku.conf && [ \$(grep -c '^options' /etc/modprobe.d/kohaku.conf) -eq 1 ]"
check "modprobe.d: modprobe kohaku (no options on the command line)" modprobe kohaku
expect "modprobe.d: the option reached kohaku.ko (parameters/poll_only)" \
	"$(cat /sys/module/kohaku/parameters/poll_only 2>&1)" Y
expect "modprobe.d: card 0 polls (irq_mode)" "$(cat $S/kohaku_sim.0/kohaku/irq_mode 2>&1)" poll
rm -f /etc/modprobe.d/kohaku.conf
check "rmmod kohaku after the modprobe.d test" rmmod kohaku
check "insmod kohaku.ko (interrupts again)" insmod /kohaku.ko
check "rmmod kohaku_sim with kohaku bound" rmmod kohaku_sim
check "$NODE0 gone with its card" test ! -e $NODES/$NODE0
# no card: libkohaku says so, in the words of this kernel's kind of node
KOHAKU_BACKEND=kernel timeout "$TEST_TIMEOUT" /bin/kohaku list >/tmp/cli.out 2>&1 </dev/null
_rc=$?
sed 's/^/KHVM: # /' /tmp/cli.out
expect "kohaku list without a card: exit 3 (no device)" "$_rc" 3
check "kohaku list without a card: 'no kohaku device', naming $NODES" \
	contains "$(cat /tmp/cli.out)" "no kohaku device: .*$NODES"
check "rmmod kohaku" rmmod kohaku

# ---- the kernel log ----

dmesg >/tmp/dmesg.txt
sed 's/^/KHVM: # dmesg: /' /tmp/dmesg.txt
splat='WARNING:|BUG:|Oops|Call Trace|general protection|KASAN|UBSAN|list_del corruption|refcount_t|hung task'
if grep -Eq "$splat" /tmp/dmesg.txt; then
	grep -E "$splat" /tmp/dmesg.txt | head -n 20 | sed 's/^/KHVM: # splat: /'
	notok "no kernel warnings or splats in dmesg"
else
	ok "no kernel warnings or splats in dmesg"
fi
taint=$(cat /proc/sys/kernel/tainted)
# 4096 = O (out-of-tree module), 8192 = E (unsigned module): expected
diag "taint $taint"
expect "kernel taint is at most O+E (4096+8192)" $((taint & ~12288)) 0

[ -n "$KHVM_DEBUG" ] && debug_end

echo "KHVM-END pass=$npass fail=$nfail uptime=$(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
