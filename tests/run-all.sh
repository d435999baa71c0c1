#!/bin/sh
# Run the whole suite and print one summary line: "N passed, N failed".
#
#   0. source checks                          scripts/check-*.sh
#      kernel-doc on the ABI and the seams, one name per thing with its
#      layer's prefix, the device model's floors, libkohaku's symbols private
#      and its exports the API's, version by version, older callers' entry
#      points and struct sizes kept (check-abi.sh) (scripts/README.md); the
#      CLI's options, numbers and --version on the sim card (check-cli.sh);
#      README's "Using it" run and the docs' versions the binaries'
#      (check-readme.sh); kohaku cdi's CDI spec on a fake sysfs tree
#      against the CDI schema (check-cdi.sh); make install and uninstall
#      into a temporary DESTDIR, an external program built and run with
#      `pkg-config --cflags --libs kohaku` alone (check-install.sh);
#      install-deps.sh waiting for dpkg's and apt's locks and editing no
#      configuration (check-deps.sh: root and a package index); the
#      sysfs ABI documents' format (check-sysfs-doc.sh)
#   1. model and core unit tests              build/tests/{model,unit}/*
#      (model_pool_fw boots build/firmware/pool.fw: KOHAKU_TEST_FW)
#      the firmware images against the packer  tests/firmware/images.sh
#   2. runtime + uapi tests, sim backend      build/tests/selftests/kohaku/*
#      (kselftest binaries, tests/selftests/kohaku/README.md), and once
#      the kernel's way: make -C tools/testing/selftests TARGETS=kohaku
#      run_tests in a skeleton kernel tree, against a DESTDIR install;
#      again on the card's own 32-bit control path (KOHAKU_SIM_CTRL=32:
#      instructions through the mailbox, docs/driver-core.md "A control
#      path of 32 bits"), plain and one map under the sanitizers;
#      the same against kohakud, the daemon backend's cards, one daemon
#      for all maps, with rt_clients' 8 processes and bad clients, then
#      the Python package's; kohakud's own checks (scripts/check-daemon.sh);
#      the Python package's unittest suite     tests/python/run.sh
#      (python/kohaku on the build's libkohaku.so.0), with and without numpy
#   3. the same under ASan/UBSan              build/asan/tests/...
#      (and kohakud under them, its clients too, on pool_2x2)
#   4. runtime tests under valgrind           build/tests/selftests/kohaku/*
#      (pool_2x2)
#   5. runtime tests in a QEMU VM on kohaku.ko + kohaku_sim.ko, on Debian's
#      6.12 kernel, then on its default 6.1 (tests/vm/run-vm-kver.sh: the
#      modules built for it with W=1 first; render nodes, no DRM accel;
#      then the PCI suite of 5b on 6.1 too)
#   5b. kohaku.ko alone over PCI, on QEMU's kohaku-pcie cards (qemu/,
#      make qemu): tests/vm/run-vm-pci.sh
#   6. the fuzz targets (image parser, descriptions, fault knobs), a fixed
#      number of executions each, and every saved crash input  build/fuzz/*
#
# The POOL firmware under test is build/firmware/pool.fw: the in-process
# backend finds it as kohaku.ko would (KOHAKU_FIRMWARE_PATH=build/firmware,
# holding kohaku/pool.fw), and the tests compare against KOHAKU_TEST_FW.
#
# Each test binary prints TAP; every "ok" line is a pass, every "not ok" a
# failure, and a binary that exits nonzero without a "not ok" line (a crash,
# a sanitizer report) counts as one failure.  There are no expected
# failures: a "not ok" line is a failure whatever directive it carries.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
log=build/test-logs
mkdir -p "$log"
pass=0
fail=0
failed_names=

record() { # name logfile status
	p=$(grep -c '^ok ' "$2")
	f=$(grep -c '^not ok ' "$2")
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "# $1 exited with status $3 without a failing test line" >>"$2"
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	[ "$f" -gt 0 ] && failed_names="$failed_names $1"
	printf '%-46s %4d passed %4d failed\n' "$1" "$p" "$f"
	if [ "$f" -gt 0 ]; then
		grep -E '^(not ok|#)' "$2" | grep -v '^# SKIP' |
			head -n 40 | sed 's/^/    /'
	fi
}

run_suite() { # label runner-prefix binaries...
	label=$1
	prefix=$2
	shift 2
	for b in "$@"; do
		[ -x "$b" ] || continue
		name="$label/$(basename "$b")"
		out="$log/$(echo "$name" | tr '/' '_').tap"
		# shellcheck disable=SC2086
		$prefix "$b" >"$out" 2>&1
		record "$name" "$out" $?
	done
}

# the source checks: scripts that print TAP, run from the top of the tree
run_check() { # name script
	out="$log/check_$1.tap"
	sh "$2" >"$out" 2>&1
	record "check/$1" "$out" $?
}
run_check kernel-doc scripts/check-kernel-doc.sh
run_check names scripts/check-names.sh
# the model's floors: includes only downward, no cycle across folders,
# layers.mk's paths the floors; with its self-test
# (scripts/check-model-floors.sh)
run_check model-floors scripts/check-model-floors.sh
# libkohaku defines no name an application could also define: the layers'
# prefixes only, none of the kernel's names the driver core calls
run_check symbols scripts/check-symbols.sh
# libkohaku.so.0's binary compatibility: 0.1's entry points (symbol
# versions), caller-sized structs never overrun (scripts/check-abi.sh)
run_check abi scripts/check-abi.sh
# the kohaku CLI's arguments and --version on the sim card
# (scripts/check-cli.sh)
run_check cli scripts/check-cli.sh
# README's "Using it" commands that need no card, on the sim backend, and
# the versions README, the man pages and docs print against the binaries'
# (scripts/check-readme.sh)
run_check readme scripts/check-readme.sh
# kohaku cdi on a fake sysfs tree, its Container Device Interface spec
# against the CDI schema's required fields (scripts/check-cdi.sh)
run_check cdi scripts/check-cdi.sh
# make install/uninstall into a temporary DESTDIR, an external program
# built with pkg-config alone (scripts/check-install.sh)
run_check install scripts/check-install.sh
# make run's dependencies on a busy package manager: install-deps.sh waits
# for dpkg's and the lists' locks, and edits no configuration
# (scripts/check-deps.sh; root and a package index, else it skips)
run_check deps scripts/check-deps.sh
# the sysfs ABI documents' format, PCI paths twinned with the platform
# paths the VM checks (scripts/check-sysfs-doc.sh)
run_check sysfs-doc scripts/check-sysfs-doc.sh
# dkms.conf tried for real in temporary trees (scripts/check-dkms.sh), for
# the 6.12 kernel and for Debian 12's default line, 6.1
run_check dkms scripts/check-dkms.sh
k61=$(ls /lib/modules 2>/dev/null | grep -E '^6\.1\.[0-9]+-[0-9]+-amd64$' | sort -V | tail -n 1)
KVER=${k61:-6.1-not-installed} run_check dkms-6.1 scripts/check-dkms.sh

# the POOL firmware the model tests boot (make firmware)
KOHAKU_TEST_FW=${KOHAKU_TEST_FW:-$top/build/firmware/pool.fw}
export KOHAKU_TEST_FW
# the firmware images against the packer's checker (TAP; skips without
# the riscv toolchain), with the packer built plain or under ASan
run_images() { # name packer
	out="$log/firmware_$1.tap"
	sh tests/firmware/images.sh "$2" >"$out" 2>&1
	record "firmware/$1" "$out" $?
}

run_suite model "" build/tests/model/*
run_suite unit "" build/tests/unit/*
run_images images build/firmware/khfw-pack
# the model's protocol checker on in every in-process card (a violation
# fails the test that caused it: tests/selftests/kohaku/README.md)
export KOHAKU_SIM_CHECK=1
export KOHAKU_FIRMWARE_PATH="$top/build/firmware"
maps="saxpy sx_null_2x2 pool pool_2x2"
# the runtime suite once per built-in card (tests/selftests/kohaku/README.md)
for map in $maps; do
	KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=$map \
		run_suite runtime-sim/$map "" build/tests/selftests/kohaku/*
done
# the whole suite again on the card's 32-bit control path (KH_HW_CTRL32):
# bring-up without GRID_HI, jobs through the mailbox; rt_mat, rt_vec and
# rt_jobdata run on mesh_2x2_8+2 cards of their own within each
for map in $maps; do
	KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=$map KOHAKU_SIM_CTRL=32 \
		run_suite runtime-sim-ctrl32/$map "" build/tests/selftests/kohaku/*
done
# the Python package (python/kohaku, docs/python.md): its unittest suite
# on the in-process backend through the build's libkohaku.so.0, with
# Debian's python3, as TAP (tests/python/run.sh); again with numpy hidden
# (KOHAKU_TEST_NO_NUMPY=1: the package needs none, its numpy tests skip)
run_python() { # name [env...]
	name=$1
	shift
	out="$log/python_$name.tap"
	env KOHAKU_LIBRARY="$top/build/libkohaku.so.0" KOHAKU_BACKEND=sim \
		"$@" sh tests/python/run.sh /usr/bin/python3 >"$out" 2>&1
	record "python/$name" "$out" $?
}
run_python unittest
run_python unittest-no-numpy KOHAKU_TEST_NO_NUMPY=1

# the whole suite a third time against kohakud (docs/kohakud.md): one
# daemon holds every map's card, each suite's files are its clients, and
# rt_clients adds 8 client processes on one card and clients that break
# the protocol; the Python package's suite on them; then kohakud's own checks (scripts/check-daemon.sh: the
# CLI's state kept between commands, --list, SIGTERM, socket activation,
# a daemon gone mid-call)
# kohakud_suite LABEL KOHAKUD TESTDIR MAPS [python]: one kohakud, the
# runtime suite of TESTDIR against its cards for each map (and the Python
# package's, with "python"), then SIGTERM: it must exit 0, its socket gone
kohakud_suite() {
	khd_label=$1
	khd_bin=$2
	khd_tests=$3
	khd_maps=$4
	khd_dir=$(mktemp -d /tmp/kohakud-test.XXXXXX)
	chmod 700 "$khd_dir"
	KOHAKU_DAEMON_SOCKET=$khd_dir/kohakud.sock
	export KOHAKU_DAEMON_SOCKET
	"$khd_bin" --log warn 2>"$log/$khd_label.log" &
	khd_pid=$!
	# rt_dma's largest transfer 4 MiB, as under the sanitizers: 64 MiB
	# through kohakud's 1 MiB slots took 20 s a map
	for map in $khd_maps; do
		KOHAKU_BACKEND=daemon KOHAKU_TEST_MAP=$map KOHAKU_TEST_DMA_MAX=4194304 \
			run_suite "$khd_label/$map" "" "$khd_tests"/*
	done
	[ "${5:-}" = python ] && run_python unittest-daemon KOHAKU_BACKEND=daemon
	kill -TERM "$khd_pid"
	wait "$khd_pid"
	khd_rc=$?
	{
		if [ "$khd_rc" -eq 0 ] && [ ! -e "$KOHAKU_DAEMON_SOCKET" ]; then
			echo "ok 1 kohakud stopped on SIGTERM (exit 0), its socket removed"
		else
			echo "not ok 1 kohakud on SIGTERM: exit $khd_rc, socket $(ls "$KOHAKU_DAEMON_SOCKET" 2>&1)"
		fi
		sed 's/^/# /' "$log/$khd_label.log"
	} >"$log/${khd_label}_stop.tap"
	record "$khd_label/stop" "$log/${khd_label}_stop.tap" 0
	unset KOHAKU_DAEMON_SOCKET
	rm -rf "$khd_dir"
}
kohakud_suite runtime-daemon build/kohakud build/tests/selftests/kohaku "$maps" python
run_check daemon scripts/check-daemon.sh
# the same tests the kernel's way: copied into a kernel tree's
# tools/testing/selftests, built against a DESTDIR install through
# pkg-config, run by the kernel's runner (scripts/check-kselftest.sh)
run_check kselftest scripts/check-kselftest.sh
# rt_dma's largest transfer under the sanitizers and valgrind (64 MiB plain)
export KOHAKU_TEST_DMA_MAX=4194304
# the data path and jobs again on cards that offer no interrupt at all
KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=sx_null_2x2 KOHAKU_SIM_IRQ=poll \
	run_suite runtime-sim-poll/sx_null_2x2 "" build/tests/selftests/kohaku/rt_dma \
	build/tests/selftests/kohaku/rt_jobs build/tests/selftests/kohaku/rt_fences
# the kselftest harness's per-test timeouts, stretched for the sanitizers
export KOHAKU_TEST_TIMEOUT_SCALE=4
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_suite asan-model "" build/asan/tests/model/*
run_suite asan-unit "" build/asan/tests/unit/*
run_images asan-images build/asan/firmware/khfw-pack
for map in $maps; do
	KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=$map \
		run_suite asan-runtime/$map "" build/asan/tests/selftests/kohaku/*
done
# kohakud and its clients under the sanitizers, on one map
kohakud_suite asan-runtime-daemon build/asan/kohakud build/asan/tests/selftests/kohaku pool_2x2
KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=pool KOHAKU_SIM_CTRL=32 \
	run_suite asan-runtime-ctrl32/pool "" build/asan/tests/selftests/kohaku/*
export KOHAKU_TEST_TIMEOUT_SCALE=20
# --fair-sched=yes: valgrind runs one thread at a time, and by default
# the engine's worker, polling a running job, kept the test's thread out
# for up to 89 s of wall time (rt_clocks no_retune_while_a_job_is_on_the_mesh:
# 30, 59 and 89 s default, 1.0 and 1.1 s fair; whole suites rt_clocks 101
# against 75 s, rt_faults 103 against 39 s, pool map)
# the suites whose every test makes a card of its own (rt_open_card:
# cpu_2x1, mesh_2x2_8+2) run alike whatever the map: under valgrind, on
# the first map only (rt_lease alone took 33 s a map)
own_card=" rt_cpu rt_lease rt_mat rt_peer rt_vec "
# and on one map of the four, the one with the most paths (pool_2x2: SX
# and POOL units, four meshes, the interlink; saxpy's paths are a subset);
# every map runs under ASan/UBSan above.  Per map the phase took 3.3, 2.0,
# 3.9 and 5.2 minutes (saxpy, sx_null_2x2, pool, pool_2x2) with the machine
# shared; saxpy was dropped, and rt_clocks (108 s of pool_2x2's 349 here,
# most of it the governor's idle windows passing under valgrind), when
# kohakud's runs came (the suite's time: README).
valgrind_maps="pool_2x2"
valgrind_skip=" rt_clocks "
first_map=1
for map in $valgrind_maps; do
	bins=
	for b in build/tests/selftests/kohaku/*; do
		case $own_card in
		*" $(basename "$b") "*) [ $first_map -eq 1 ] || continue ;;
		esac
		case $valgrind_skip in
		*" $(basename "$b") "*) continue ;;
		esac
		bins="$bins $b"
	done
	first_map=0
	# shellcheck disable=SC2086
	KOHAKU_BACKEND=sim KOHAKU_TEST_MAP=$map run_suite valgrind-runtime/$map \
		"valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
		$bins
done

unset KOHAKU_TEST_TIMEOUT_SCALE

out="$log/vm.tap"
tests/vm/run-vm.sh >"$out" 2>&1
record vm/kohaku.ko+kohaku_sim.ko "$out" $?

# the same suites on Debian 12's default kernel line, 6.1, which has no DRM
# accel (the card's node is a render node): the modules built against it
# with W=1 in a copy of the tree first, then the VM suite and the PCI suite
# (tests/vm/run-vm-kver.sh)
out="$log/vm-6.1.tap"
tests/vm/run-vm-kver.sh 6.1 >"$out" 2>&1
record vm-6.1/kohaku.ko+kohaku_sim.ko,kohaku.ko-over-PCI "$out" $?

# kohaku.ko alone, bound over PCI to QEMU's kohaku-pcie cards: one card on
# pc, two behind PCIe root ports on q35 with the VT-d IOMMU; the QEMU built
# by make qemu (scripts/build-qemu.sh, cached outside the clone)
out="$log/vm-pci.tap"
tests/vm/run-vm-pci.sh >"$out" 2>&1
record vm-pci/kohaku.ko-over-PCI "$out" $?

# the fuzz targets, a fixed number of executions each, after replaying
# every saved crash input (tests/fuzz/run.sh, tests/fuzz/README.md)
out="$log/fuzz.tap"
sh tests/fuzz/run.sh runs ${KOHAKU_FUZZ_RUNS:-} >"$out" 2>&1
record fuzz/libFuzzer "$out" $?

echo
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
