#!/bin/sh
# Boot Debian's packaged kernel in QEMU with kohaku.ko + kohaku_sim.ko and
# run the VM tests in the guest (tests/vm/guest-init.sh is its /init).
# Prints one TAP stream on stdout; exits nonzero on any failure.
# docs/linux.md describes it.
#
# Needs, built beforehand:
#   kohaku.ko kohaku_sim.ko            make modules
#   build/static/kohaku                make BUILD=build/static STATIC=1 userspace
#   build/static/tests/selftests/kohaku/*  (the same)
#
# Environment (all optional):
#   KVER                  kernel release (newest /lib/modules/*deb12-amd64)
#   KERNEL                kernel image (/boot/vmlinuz-$KVER)
#   KOHAKU_MODDIR         where the two .ko files are (the top of the tree);
#                         `make modules_install` runs there
#   KOHAKU_STATIC         static userspace build (build/static)
#   KOHAKU_FW_IMAGE       the POOL firmware put in the guest's /lib/firmware
#                         (build/firmware/pool.fw)
#   KOHAKU_SHARED_LIB     the dynamic libkohaku.so.0 the guest's Python
#                         package loads (build/libkohaku.so.0, make
#                         userspace); KOHAKU_VM_PYTHON the interpreter
#                         packed with its stdlib (/usr/bin/python3)
#   KOHAKU_VM_DIR         work directory: initramfs, serial log (build/vm)
#   KOHAKU_VM_ACCEL       auto (probe KVM, else TCG), kvm or tcg
#   KOHAKU_VM_TIMEOUT     seconds for the whole boot + test run (1800)
#   KOHAKU_VM_TEST_TIMEOUT  seconds per test binary in the guest (300)
#   KOHAKU_VM_BENCH       1 or jobs: run bench/kh_bench_jobs in the guest
#                         instead of the tests; dma: bench/kh_bench_dma
#                         (build/static/bench/); KOHAKU_VM_BENCH_ARGS its
#                         options ("-r 7 -j 400")
#   KOHAKU_VM_BENCH_PROFILE  with KOHAKU_VM_BENCH=1, first where a null
#                         job's time goes: trace (the driver's tracepoints,
#                         the scheduler and the ioctls with timestamps, in
#                         the serial log: bench/vm_trace_phases.py), perf
#                         (the host's perf packed into the guest: a
#                         profile of each backend), or trace,perf
#   KOHAKU_VM_PODMAN      1 (default): pack Debian 12's podman, crun and
#                         conmon (apt-get download into KOHAKU_VM_PODMAN_DEBS,
#                         build/podman-debs, once) so that the guest
#                         runs kohaku in a container given the card through
#                         CDI; 0: not (the guest then skips those checks)
#   KOHAKU_VM_FUZZ_SEQS   sequences the guest's ioctl fuzzer runs
#                         (tests/vm/vm_fuzz.c; default 1000)
# Another kernel than Debian's (make test-debug, scripts/test-debug.sh):
#   KOHAKU_VM_KERNEL      its image (else KERNEL)
#   KOHAKU_VM_MODDIR      its modules: the INSTALL_MOD_PATH they were
#                         installed to, holding lib/modules/$KVER (else /)
#   KOHAKU_VM_KOS         the tree kohaku.ko and kohaku_sim.ko were built
#                         in for it (else KOHAKU_MODDIR); export KDIR too,
#                         for its `make modules_install`
#   KOHAKU_VM_DEBUG       1: a debug kernel's checks (tests/vm/guest-debug.sh:
#                         kmemleak, allocation-failure sweeps, the log's
#                         reports); boots with khvm.debug
#   KOHAKU_VM_APPEND      more kernel command line
#   KOHAKU_VM_MEM         guest memory, MiB (1024)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${KVER:-}" ]; then
	KVER=$(for d in /lib/modules/*deb12-amd64; do
		[ -d "$d" ] && basename "$d"
	done | sort -V | tail -n 1)
fi
KERNEL=${KOHAKU_VM_KERNEL:-${KERNEL:-/boot/vmlinuz-$KVER}}
MODDIR=${KOHAKU_VM_KOS:-${KOHAKU_MODDIR:-$top}}
# the kernel's own modules (drm.ko, pci-stub.ko), and modprobe over them
KMODROOT=${KOHAKU_VM_MODDIR:-}
KMODS=$KMODROOT/lib/modules/$KVER
kmodprobe() {
	if [ -n "$KMODROOT" ]; then modprobe -d "$KMODROOT" "$@"; else modprobe "$@"; fi
}
STATIC=${KOHAKU_STATIC:-$top/build/static}
WORK=${KOHAKU_VM_DIR:-$top/build/vm}
FW_IMAGE=${KOHAKU_FW_IMAGE:-$top/build/firmware/pool.fw}
ACCEL=${KOHAKU_VM_ACCEL:-auto}
VM_TIMEOUT=${KOHAKU_VM_TIMEOUT:-1800}
TEST_TIMEOUT=${KOHAKU_VM_TEST_TIMEOUT:-300}
QEMU=${QEMU:-qemu-system-x86_64}
BUSYBOX=${BUSYBOX:-/bin/busybox}
PATH=$PATH:/sbin:/usr/sbin

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# shellcheck source=tests/vm/lib.sh
. "$top/tests/vm/lib.sh"
finish() {
	echo "1..$n"
	echo "# vm: $((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# ---- prerequisites ----

missing=
[ -n "$KVER" ] && [ -d "$KMODS" ] ||
	missing="$missing $KMODS (install $KVER's linux-image package: linux-image-6.12-amd64, or linux-image-amd64 for 6.1)"
[ -r "$KERNEL" ] || missing="$missing $KERNEL"
command -v "$QEMU" >/dev/null || missing="$missing $QEMU (qemu-system-x86)"
[ -x "$BUSYBOX" ] || missing="$missing $BUSYBOX (busybox-static)"
for m in kohaku.ko kohaku_sim.ko; do
	[ -f "$MODDIR/$m" ] || missing="$missing $MODDIR/$m (make modules)"
done
[ -s "$FW_IMAGE" ] || missing="$missing $FW_IMAGE (make firmware)"
[ -x "$STATIC/kohaku" ] ||
	missing="$missing $STATIC/kohaku (make BUILD=build/static STATIC=1 userspace)"
tests=
for t in "$STATIC"/tests/selftests/kohaku/*; do
	[ -f "$t" ] && [ -x "$t" ] && tests="$tests $t"
done
[ -n "$tests" ] ||
	missing="$missing $STATIC/tests/selftests/kohaku/* (make BUILD=build/static STATIC=1 userspace)"
# tests/vm/vm_kernel.c links against the same static build
vm_objs="$STATIC/obj/tests/selftests/kohaku/rt_common.o $STATIC/obj/tests/selftests/kohaku/check.o $STATIC/libkohaku.a"
for o in $vm_objs; do
	[ -f "$o" ] || missing="$missing $o (make BUILD=build/static STATIC=1 userspace)"
done
command -v file >/dev/null &&
for t in $tests "$STATIC/kohaku"; do
	[ -x "$t" ] || continue
	file -L "$t" 2>/dev/null | grep -q 'statically linked' ||
		missing="$missing $t-is-not-static"
done
if [ -n "$missing" ]; then
	notok "VM test prerequisites: missing$missing"
	finish
fi
ok "VM test prerequisites (kernel $KVER)"

# ---- the kernel-host tests (tests/vm/vm_kernel.c) ----

# shellcheck disable=SC2086
vm_build_static vm_kernel -I"$top/tests/selftests/kohaku" \
	-isystem "$top/build/kselftest/tools/testing/selftests/kselftest" \
	-Wno-missing-prototypes $vm_objs && tests="$tests $WORK/bin/vm_kernel"

# the load test and the ioctl fuzzer (tests/vm/vm_load.c, vm_fuzz.c), run
# by guest-init on their own
vm_build_static vm_load
vm_build_static vm_fuzz

# ---- initramfs ----

t0=$(now)
root=$WORK/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" || { notok "initramfs: work directory $WORK"; finish; }
cp "$BUSYBOX" "$root/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done

# in-tree modules kohaku.ko and kohaku_sim.ko need, in load order
: >"$root/modules.list"
deps_ok=1
for dep in $(modinfo -F depends "$MODDIR/kohaku.ko" "$MODDIR/kohaku_sim.ko" |
	tr ',' '\n' | sort -u); do
	files=$(kmodprobe -S "$KVER" --show-depends "$dep" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }')
	if [ -z "$files" ]; then
		deps_ok=0
		echo "# module dependency $dep not found for $KVER"
	fi
	for f in $files; do
		# decompressed: busybox insmod would try the .xz as ELF first
		g=${f%.xz}
		g=${g#"$KMODROOT"}
		grep -qx "$g" "$root/modules.list" && continue
		mkdir -p "$root$(dirname "$g")"
		case $f in
		*.xz) xz -dc "$f" >"$root$g" || deps_ok=0 ;;
		*) cp "$f" "$root$g" || deps_ok=0 ;;
		esac
		echo "$g" >>"$root/modules.list"
	done
done
cp "$MODDIR/kohaku.ko" "$MODDIR/kohaku_sim.ko" "$root/"

# kohaku.ko and kohaku_sim.ko installed as a user installs them: the
# project's `make modules_install` (packaging/install.mk) with the initramfs
# as INSTALL_MOD_PATH, to /lib/modules/$KVER/updates (compressed, as the
# kernel's config says: .ko.xz on Debian's 6.12); then depmod over that
# tree, which holds the kernel's modules they need (above, decompressed, at
# their own paths), for the guest's modprobe (busybox's reads the text
# modules.dep, and /etc/modprobe.d)
mkdir -p "$root/lib/modules/$KVER"
for f in modules.builtin modules.builtin.modinfo; do
	[ -f "$KMODS/$f" ] && cp "$KMODS/$f" "$root/lib/modules/$KVER/"
done
mi=$(cd "$MODDIR" && make --no-print-directory modules_install KVER="$KVER" \
	INSTALL_MOD_PATH="$root" 2>&1)
mi_rc=$?
echo "$mi" >"$WORK/modules_install.log"
dep=
if [ $mi_rc -eq 0 ] && depmod -b "$root" "$KVER" >>"$WORK/modules_install.log" 2>&1; then
	dep=$(grep '^updates/' "$root/lib/modules/$KVER/modules.dep")
fi
if echo "$dep" | grep -q '^updates/kohaku\.ko[.a-z]*: .*drm\.ko' &&
	echo "$dep" | grep -q '^updates/kohaku_sim\.ko[.a-z]*:'; then
	ok "make modules_install INSTALL_MOD_PATH=<initramfs> KVER=$KVER, depmod -b:" \
		"$(echo "$dep" | tr '\n' ' ')"
else
	notok "make modules_install INSTALL_MOD_PATH=<initramfs> KVER=$KVER, depmod -b: modules.dep lists updates/kohaku.ko (with drm) and updates/kohaku_sim.ko"
	sed 's/^/# /' "$WORK/modules_install.log" | tail -n 30
fi

# udev in the guest (guest-init.sh's udev checks): the host's
# systemd-udevd (a link to udevadm) and the libraries ldd names; the rule
# and the modprobe.d example as `make install` installs them (its
# install-udev and install-modprobe parts, the default PREFIX /usr/local);
# the system's 80-drivers.rules (a device's modalias -> kmod load); an
# /etc/passwd and /etc/group with the rule's group, khmember in it (a
# supplementary group, as `usermod -aG` makes it) and khother not
udev_ok=1
udevadm=$(command -v udevadm)
udevd=/lib/systemd/systemd-udevd
if [ -n "$udevadm" ] && [ -x "$udevd" ]; then
	mkdir -p "$root/lib/systemd"
	cp -L "$udevadm" "$root/bin/udevadm"
	ln -sf /bin/udevadm "$root/lib/systemd/systemd-udevd"
	libs=$(ldd "$udevadm" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
	[ -n "$libs" ] || udev_ok=0
	for l in $libs; do
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l" || udev_ok=0
	done
else
	udev_ok=0
	echo "# no udevadm or $udevd on this host (install udev)"
fi
make -C "$top" --no-print-directory install-udev install-modprobe DESTDIR="$root" \
	>"$WORK/install-udev.log" 2>&1 || udev_ok=0
rule=$(cd "$root" && find . -name 70-kohaku.rules | sed 's/^\.//' | head -n 1)
grp=$(sed -n 's/^[^#].*GROUP="\([^"]*\)".*/\1/p' "$root$rule" 2>/dev/null | head -n 1)
[ -n "$grp" ] || udev_ok=0
if [ -f /lib/udev/rules.d/80-drivers.rules ]; then
	mkdir -p "$root/usr/lib/udev/rules.d"
	cp /lib/udev/rules.d/80-drivers.rules "$root/usr/lib/udev/rules.d/"
else
	udev_ok=0
fi
mkdir -p "$root/etc" "$root/run"
cat >"$root/etc/passwd" <<EOF
root:x:0:0:root:/root:/bin/sh
khmember:x:1000:1000:in group $grp:/tmp:/bin/sh
khother:x:1001:1001:not in group $grp:/tmp:/bin/sh
EOF
cat >"$root/etc/group" <<EOF
root:x:0:
$grp:x:999:khmember
khmember:x:1000:
khother:x:1001:
EOF
printf 'passwd: files\ngroup: files\n' >"$root/etc/nsswitch.conf"
if [ $udev_ok -eq 1 ]; then
	ok "udev for the guest: $udevd ($("$udevadm" --version)), $(echo "$libs" | wc -l) libraries;" \
		"make install-udev install-modprobe DESTDIR=<initramfs>: $rule (group $grp)," \
		"$(cd "$root" && find . -name kohaku.conf | sed 's/^\.//'); 80-drivers.rules"
else
	notok "udev for the guest: systemd-udevd and its libraries, 70-kohaku.rules by make install-udev, 80-drivers.rules"
	sed 's/^/# /' "$WORK/install-udev.log"
fi

# pci-stub.ko, a driver other than kohaku to bind a stand-in function to
# (guest-init.sh: `kohaku list` says which driver holds it); absent when
# built in
stub=$(kmodprobe -S "$KVER" --show-depends pci-stub 2>/dev/null |
	awk '$1 == "insmod" { print $2 }' | tail -n 1)
case $stub in
*.xz) xz -dc "$stub" >"$root/pci-stub.ko" ;;
?*) cp "$stub" "$root/pci-stub.ko" ;;
esac
for t in $tests; do
	cp "$t" "$root/tests/"
done
cp "$STATIC/kohaku" "$root/bin/kohaku"
# the host's perf and the libraries ldd names, for the bench's profile
case ${KOHAKU_VM_BENCH_PROFILE:-} in
*perf*)
	if command -v perf >/dev/null; then
		perf=$(command -v perf)
		cp -L "$perf" "$root/bin/perf"
		for l in $(ldd "$perf" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$root$(dirname "$l")"
			cp -L "$l" "$root$l"
		done
	else
		echo "# no perf on this host (linux-perf): the guest profiles no backend"
	fi
	;;
esac
for t in vm_load vm_fuzz; do
	[ -x "$WORK/bin/$t" ] && cp "$WORK/bin/$t" "$root/bin/$t"
done
# where request_firmware("kohaku/pool.fw") finds it
mkdir -p "$root/lib/firmware/kohaku"
cp "$FW_IMAGE" "$root/lib/firmware/kohaku/pool.fw"
# the test images the suites load from beside it (rt_faults: a firmware
# that writes with no job; rt_pool: one whose FILL strays), when the
# firmware build made them
for t in idle-writer rogue; do
	[ -s "$(dirname "$FW_IMAGE")/test/$t.fw" ] || continue
	mkdir -p "$root/lib/firmware/kohaku/test"
	cp "$(dirname "$FW_IMAGE")/test/$t.fw" "$root/lib/firmware/kohaku/test/"
done
bench_append=
case ${KOHAKU_VM_BENCH:-0} in
1|jobs|dma)
	bench=kh_bench_jobs
	[ "${KOHAKU_VM_BENCH}" = dma ] && bench=kh_bench_dma
	cp "$STATIC/bench/$bench" "$root/bin/$bench" ||
		notok "the benchmark is built (make BUILD=build/static STATIC=1 userspace)"
	bench_append="khvm.bench=$bench khvm.bench_args=$(echo "${KOHAKU_VM_BENCH_ARGS:-}" | tr ' ' ,)"
	[ -n "${KOHAKU_VM_BENCH_PROFILE:-}" ] &&
		bench_append="$bench_append khvm.bench_profile=$KOHAKU_VM_BENCH_PROFILE"
	;;
esac
# the Python package's tests (tests/python) on kohaku.ko: Debian's
# python3 with the libraries ldd names and its standard library (less
# what no test imports: the test suite, tkinter, idlelib, lib2to3, the
# build configuration), the package installed as `make install` does for
# PREFIX=/usr (/usr/lib/python3/dist-packages) and the dynamic
# libkohaku.so.0 where ld.so finds it without a cache (the multiarch
# directory, LIBDIR); numpy is not packed: the numpy tests skip there.
# About 30 MiB unpacked (14 of it the stdlib's .pyc files, kept: imports
# under TCG are slow enough) and 9 MiB more in the gzip'ed initramfs.
PY=${KOHAKU_VM_PYTHON:-/usr/bin/python3}
SHLIB=${KOHAKU_SHARED_LIB:-$top/build/libkohaku.so.0}
py_ok=1
pyreal=$(readlink -f "$PY" 2>/dev/null)
pyver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
ma=$(${CC:-gcc} -print-multiarch 2>/dev/null)
ma=${ma:-x86_64-linux-gnu}
if [ -x "$pyreal" ] && [ -n "$pyver" ] && [ -s "$SHLIB" ] && [ -d "/usr/lib/python$pyver" ]; then
	mkdir -p "$root/usr/bin" "$root/usr/lib/$ma" "$root/usr/lib/python$pyver"
	cp "$pyreal" "$root/usr/bin/python$pyver" && ln -sf "python$pyver" "$root/usr/bin/python3" || py_ok=0
	(cd "/usr/lib/python$pyver" && tar -cf - --exclude=./test --exclude=./idlelib \
		--exclude=./tkinter --exclude=./turtledemo --exclude=./ensurepip \
		--exclude=./lib2to3 --exclude=./pydoc_data --exclude=./distutils \
		--exclude="./config-$pyver-*" --exclude=./site-packages --exclude=./dist-packages \
		--exclude='*/_test*.so' --exclude='*/_ctypes_test*' .) |
		(cd "$root/usr/lib/python$pyver" && tar -xf -) || py_ok=0
	install -m 0755 "$SHLIB" "$root/usr/lib/$ma/libkohaku.so.0" || py_ok=0
	make -C "$top" --no-print-directory install-python DESTDIR="$root" PREFIX=/usr \
		LIBDIR="/usr/lib/$ma" PYTHON="$PY" >"$WORK/install-python.log" 2>&1 || py_ok=0
	pylibs=$( (ldd "$pyreal"; ldd "$SHLIB"; for so in "/usr/lib/python$pyver"/lib-dynload/*.so; do
		# not the modules whose libraries weigh most and no test imports
		case ${so##*/} in _ssl*|_hashlib*|_sqlite3*|_curses*|readline*|_dbm*|nis*) continue ;; esac
		ldd "$so"; done) 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)
	for l in $pylibs; do
		[ -e "$root$l" ] && continue
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l" || py_ok=0
	done
	mkdir -p "$root/python-tests"
	cp "$top"/tests/python/*.py "$top"/tests/python/run.sh "$top"/tests/python/unittest-tap.awk \
		"$root/python-tests/" || py_ok=0
	if [ $py_ok -eq 1 ]; then
		ok "python for the guest: $pyreal ($pyver), its stdlib ($(du -sk "$root/usr/lib/python$pyver" | cut -f1) KiB)," \
			"$(echo "$pylibs" | wc -l) libraries, make install-python DESTDIR=<initramfs> PREFIX=/usr," \
			"$(basename "$SHLIB") in /usr/lib/$ma"
	else
		notok "python for the guest: $pyreal, its stdlib and libraries, the package, libkohaku.so.0"
		sed 's/^/# /' "$WORK/install-python.log" | tail -n 10
	fi
else
	notok "python for the guest: $PY (python3) and $SHLIB (make userspace)"
fi
# kohaku cdi's spec is checked in the guest as check-cdi.sh checks it
cp "$top/scripts/cdi-validate.py" "$root/cdi-validate.py"
# podman in the guest (guest-init.sh, "podman"): Debian 12's podman 4.3.1,
# crun and conmon, from their .debs (apt-get download, kept in $PODMAN_DEBS;
# nothing is installed on the host), with the libraries ldd names (those
# .debs' first, then the host's); a containers.conf for a guest without
# systemd or a network (cgroupfs, events to a file, no network, no
# pivot_root: the initramfs is rootfs, which pivot_root(2) refuses), vfs
# storage in /tmp, and /ctr: a directory rootfs (podman run --rootfs) with
# the static CLI and busybox.  About 19 MiB more in the gzip'ed initramfs.
PODMAN_DEBS=${KOHAKU_VM_PODMAN_DEBS:-$top/build/podman-debs}
podman_pkgs="podman crun conmon golang-github-containers-common libgpgme11 libsubid4 libyajl2 libdevmapper1.02.1 libassuan0 libgpg-error0"
if [ "${KOHAKU_VM_PODMAN:-1}" = 1 ]; then
	pm_ok=1
	mkdir -p "$PODMAN_DEBS"
	: >"$WORK/podman-download.log"
	need=
	for p in $podman_pkgs; do
		ls "$PODMAN_DEBS/${p}_"*.deb >/dev/null 2>&1 || need="$need $p"
	done
	# shellcheck disable=SC2086
	[ -z "$need" ] || (cd "$PODMAN_DEBS" && apt-get download $need) \
		>"$WORK/podman-download.log" 2>&1 || pm_ok=0
	px=$WORK/podman-x
	rm -rf "$px"
	mkdir -p "$px"
	for d in "$PODMAN_DEBS"/*.deb; do
		dpkg-deb -x "$d" "$px" || pm_ok=0
	done
	mkdir -p "$root/usr/bin" "$root/etc/containers" "$root/usr/share/containers" \
		"$root/etc/cdi" "$root/ctr/dev" "$root/ctr/proc" "$root/ctr/sys" \
		"$root/ctr/tmp" "$root/ctr/etc"
	for b in podman crun conmon; do
		cp "$px/usr/bin/$b" "$root/usr/bin/" || pm_ok=0
	done
	cp "$px/usr/share/containers/containers.conf" "$px/usr/share/containers/seccomp.json" \
		"$root/usr/share/containers/" || pm_ok=0
	cp "$px/etc/containers/policy.json" "$root/etc/containers/" || pm_ok=0
	pmlibs=$(for b in podman crun conmon; do
		LD_LIBRARY_PATH="$px/usr/lib/$ma:$px/lib/$ma" ldd "$px/usr/bin/$b"
	done 2>&1 | awk '/not found/ { print "MISSING:" $1; next }
		$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)
	for l in $pmlibs; do
		case $l in
		MISSING:*)
			echo "# podman for the guest: ${l#MISSING:} not found"
			pm_ok=0
			continue
			;;
		"$px"/*) dst=${l#"$px"} ;;
		*) dst=$l ;;
		esac
		[ -e "$root$dst" ] && continue
		mkdir -p "$root$(dirname "$dst")"
		cp -L "$l" "$root$dst" || pm_ok=0
	done
	printf '%s\n' '[containers]' 'netns = "none"' '[engine]' \
		'cgroup_manager = "cgroupfs"' 'events_logger = "file"' \
		'runtime = "crun"' 'no_pivot_root = true' \
		>"$root/etc/containers/containers.conf"
	printf '%s\n' '[storage]' 'driver = "vfs"' \
		'runroot = "/run/containers/storage"' \
		'graphroot = "/tmp/containers/storage"' \
		>"$root/etc/containers/storage.conf"
	cp "$STATIC/kohaku" "$root/ctr/kohaku" || pm_ok=0
	cp "$BUSYBOX" "$root/ctr/busybox" || pm_ok=0
	if [ $pm_ok -eq 1 ]; then
		ok "podman for the guest: $(cd "$PODMAN_DEBS" && ls podman_*.deb crun_*.deb conmon_*.deb | tr '\n' ' ')" \
			"($(echo "$pmlibs" | wc -l) libraries), /ctr with the static CLI and busybox"
	else
		notok "podman for the guest: apt-get download $podman_pkgs into $PODMAN_DEBS, their binaries and libraries"
		sed 's/^/# /' "$WORK/podman-download.log" | tail -n 5
		rm -f "$root/usr/bin/podman"
	fi
fi
# the sysfs ABI documents, which the guest checks the driver's files against
mkdir -p "$root/abi"
cp "$top"/Documentation/ABI/testing/sysfs-driver-kohaku* "$root/abi/"
cp "$top/tests/vm/guest-init.sh" "$root/init"
# a debug kernel's checks (tests/vm/guest-debug.sh, tests/vm/vm_faultinj.c)
debug_append=
if [ "${KOHAKU_VM_DEBUG:-0}" = 1 ]; then
	cp "$top/tests/vm/guest-debug.sh" "$root/guest-debug.sh"
	vm_build_static vm_faultinj && cp "$WORK/bin/vm_faultinj" "$root/bin/vm_faultinj"
	# no5lvl: TCG's -cpu max offers LA57, and KASAN then reports a wild
	# access in early identify_cpu; the fault sweeps' stacks want a big log
	debug_append="khvm.debug no5lvl log_buf_len=16M"
fi
chmod 755 "$root/init"
initrd=$WORK/initrd.cpio.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd"
t1=$(now)
if [ $deps_ok -eq 1 ] && [ -s "$initrd" ]; then
	ok "initramfs built: $(du -k "$initrd" | cut -f1) KiB," \
		"modules $(tr '\n' ' ' <"$root/modules.list")($(elapsed "$t0" "$t1") s)"
else
	notok "initramfs built"
	finish
fi

# ---- accelerator: KVM when a guest really boots with it, else TCG ----

# Two stand-in PCI functions for kohaku.ko's PCI binding (bound by new_id in
# the guest): edu (1234:11e8, a 1 MiB BAR0: refused) and the std VGA
# (1234:1111, a 16 MiB RAM BAR0: mapped, then no mesh CAPS: refused).
qemu_base="-smp 2 -m ${KOHAKU_VM_MEM:-1024} -nographic -no-reboot -serial stdio -monitor none \
-display none -nodefaults -device edu -device VGA \
-kernel $KERNEL -initrd $initrd"

# Fail fast: KVM needs the CPU's virtualisation extensions in this VM
# (a PVM host exposes /dev/kvm without them, and a guest there dies on an
# MSR or hangs in emulation); then a probe boot is watched, and given up
# as soon as it says it failed, or after 20 s.
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	grep -qwE 'vmx|svm' /proc/cpuinfo || {
		echo "no vmx/svm CPU flag: nested KVM cannot run" >"$WORK/kvm-probe.log"
		return 1
	}
	# shellcheck disable=SC2086
	"$QEMU" -accel kvm -cpu host $qemu_base \
		-append "console=ttyS0 quiet panic=-1 khvm.probe" \
		</dev/null >"$WORK/kvm-probe.log" 2>&1 &
	qpid=$!
	i=0
	while [ $i -lt 40 ] && kill -0 "$qpid" 2>/dev/null; do
		grep -qE 'KHVM-PROBE-OK|KVM internal error|emulation failure|kvm_.*Assertion' \
			"$WORK/kvm-probe.log" && break
		sleep 0.5
		i=$((i + 1))
	done
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	grep -q KHVM-PROBE-OK "$WORK/kvm-probe.log"
}

case $ACCEL in
kvm) accel_args="-accel kvm -cpu host" ;;
tcg) accel_args="-accel tcg,thread=single -cpu max" ;;
*)
	tp=$(now)
	if kvm_works; then
		ACCEL=kvm
		accel_args="-accel kvm -cpu host"
	else
		ACCEL=tcg
		accel_args="-accel tcg,thread=single -cpu max"
	fi
	echo "# KVM probe: $ACCEL ($(elapsed "$tp" "$(now)") s, $WORK/kvm-probe.log)"
	;;
esac

# ---- boot and test ----

serial=$WORK/serial.log
boot() {
	tb=$(now)
	# shellcheck disable=SC2086
	timeout "$VM_TIMEOUT" "$QEMU" $accel_args $qemu_base \
		-append "console=ttyS0 quiet panic=-1 khvm.test_timeout=$TEST_TIMEOUT ${KOHAKU_VM_FUZZ_SEQS:+khvm.fuzz_seqs=$KOHAKU_VM_FUZZ_SEQS} $bench_append $debug_append ${KOHAKU_VM_APPEND:-}" \
		</dev/null >"$serial" 2>&1
	qrc=$?
	te=$(now)
	boot_s=$(elapsed "$tb" "$te")
}
boot
# A guest that dies before /init never ran our code: that is the emulator
# (multi-threaded TCG once hit an int3 in early text patching).  Boot once
# more, and say so; a second death is reported as a failure below.
if ! grep -q 'KHVM-BEGIN' "$serial"; then
	echo "# the guest died before /init (qemu status $qrc); booting once more"
	tail -n 20 "$serial" | tr -d '\r' | sed 's/^/#   /'
	boot
fi

# the guest's results, numbered into this stream
tr -d '\r' <"$serial" >"$serial.txt"
# (a marker is found anywhere in a line: the console may prefix it)
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
' "$serial.txt" >"$WORK/guest.tap"
cat "$WORK/guest.tap"
gp=$(grep -c '^ok ' "$WORK/guest.tap")
gf=$(grep -c '^not ok ' "$WORK/guest.tap")
n=$((n + gp + gf))
failed=$((failed + gf))

end=$(grep -o 'KHVM-END .*' "$serial.txt" | tail -n 1)
begin=$(grep -o 'KHVM-BEGIN .*' "$serial.txt" | head -n 1)
if [ -n "$begin" ]; then
	ok "guest booted and ran /init ($begin)"
else
	notok "guest booted and ran /init"
fi
if [ -n "$end" ]; then
	ok "guest finished: $end"
	want_p=$(echo "$end" | sed 's/.*pass=\([0-9]*\).*/\1/')
	want_f=$(echo "$end" | sed 's/.*fail=\([0-9]*\).*/\1/')
	if [ "$want_p" = "$gp" ] && [ "$want_f" = "$gf" ]; then
		ok "every guest result reached the host ($gp passed, $gf failed)"
	else
		notok "guest results lost on the console: host saw $gp/$gf, guest counted $want_p/$want_f"
	fi
else
	notok "guest finished (no KHVM-END: the guest died or hung; $serial)"
	echo "# last lines of the serial log:"
	tail -n 60 "$serial.txt" | sed 's/^/#   /'
fi
if grep -Eq 'Kernel panic|BUG:|Oops|general protection' "$serial.txt"; then
	notok "no panic or oops on the console"
	grep -E -A20 'Kernel panic|BUG:|Oops|general protection' "$serial.txt" |
		head -n 60 | sed 's/^/#   /'
else
	ok "no panic or oops on the console"
fi
case $qrc in
0) ok "qemu exited normally ($ACCEL, ${boot_s} s)" ;;
124) notok "qemu killed after ${VM_TIMEOUT} s (KOHAKU_VM_TIMEOUT)" ;;
*) notok "qemu exited with status $qrc" ;;
esac
echo "# boot+test: ${boot_s} s under $ACCEL; serial log $serial"
finish
