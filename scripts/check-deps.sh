#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-deps.sh: scripts/install-deps.sh (what `make run` and `make deps`
# run) on a machine whose package manager is busy, and what it leaves
# behind.  TAP; a suite of `make test` (tests/run-all.sh).  Needs root,
# apt-get, python3 and a reachable package index (else it skips): it runs
# the real apt-get, through KOHAKU_DEPS_FORCE=1, which goes through
# `apt-get update` and `apt-get install` with no package, so nothing is
# installed or marked.
#   - install-deps.sh edits nothing under /etc (no sed -i, no write but
#     the deb-src entry of `all`);
#   - dpkg's lock held by another process (an fcntl lock on
#     /var/lib/dpkg/lock-frontend, as apt and dpkg take it, for 6 s):
#     `install-deps.sh run` waits for it and succeeds;
#   - the package lists' lock held (/var/lib/apt/lists/lock, 6 s): it says
#     it is waiting, then succeeds; held past KOHAKU_APT_WAIT=2: it fails
#     saying so, in a few seconds;
#   - /etc/initramfs-tools/update-initramfs.conf and apt's sources and
#     configuration have the same checksums before and after.
# Each lock is held by a python3 process this script started and ends (by
# its pid) before it exits.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
D=$top/scripts/install-deps.sh
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# the script edits no configuration: a look at its source
if grep -nE 'sed[[:space:]]+-i|>>?[[:space:]]*"?/etc/' "$D" | grep -v 'srclist' >/dev/null; then
	notok "install-deps.sh edits nothing under /etc: $(grep -nE 'sed[[:space:]]+-i|>>?[[:space:]]*"?/etc/' "$D" | grep -v srclist | head -n 3)"
else
	ok "install-deps.sh edits nothing under /etc (no sed -i; its one write there is the deb-src entry of all/debug)"
fi

skip() {
	echo "# SKIP $*"
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit $?
}
[ "$(id -u)" = 0 ] || skip "not root: the lock checks run the real apt-get"
command -v apt-get >/dev/null || skip "no apt-get"
command -v python3 >/dev/null || skip "no python3 to hold a lock"
[ -e /var/lib/dpkg/lock-frontend ] && [ -e /var/lib/apt/lists/lock ] ||
	skip "no dpkg or apt lock files"

tmp=$(mktemp -d)
holder=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the configuration install-deps.sh could touch
sums() {
	for f in /etc/initramfs-tools/update-initramfs.conf /etc/apt/sources.list \
		/etc/apt/sources.list.d/* /etc/apt/apt.conf.d/* /etc/apt/preferences.d/*; do
		[ -f "$f" ] && sha256sum "$f"
	done
	ls -la /etc/apt/sources.list.d /etc/initramfs-tools 2>/dev/null | awk '{ print $1, $NF }'
}
sums >"$tmp/before"

if ! KOHAKU_DEPS_FORCE=1 KOHAKU_APT_WAIT=30 sh "$D" run >"$tmp/plain.out" 2>&1; then
	sed 's/^/# /' "$tmp/plain.out" | tail -n 5
	skip "install-deps.sh run with nothing held failed (no package index reachable?)"
fi
ok "install-deps.sh run (KOHAKU_DEPS_FORCE=1: apt-get update and an empty install) with no lock held"

# hold LOCK (an fcntl lock, as apt takes it) for SECS seconds; $holder its pid
hold() {
	rm -f "$tmp/held"
	python3 - "$1" "$2" "$tmp/held" <<'EOF' &
import fcntl, sys, time
f = open(sys.argv[1], "r+")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[3], "w").close()
time.sleep(float(sys.argv[2]))
EOF
	holder=$!
	i=0
	while [ ! -e "$tmp/held" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
release() {
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	holder=
}
now() { date +%s; }

hold /var/lib/dpkg/lock-frontend 6
t0=$(now)
KOHAKU_DEPS_FORCE=1 KOHAKU_APT_WAIT=60 sh "$D" run >"$tmp/dpkg.out" 2>&1
rc=$?
t=$(($(now) - t0))
release
# (apt-get update or install: whichever meets the lock waits; it was held
# for 6 s from before the start)
if [ $rc -eq 0 ] && [ $t -ge 4 ]; then
	ok "dpkg's lock held by another process for 6 s: install-deps.sh run waited (${t} s) and succeeded"
else
	notok "dpkg's lock held: install-deps.sh run exit $rc after ${t} s"
	sed 's/^/# /' "$tmp/dpkg.out" | tail -n 8
fi

hold /var/lib/apt/lists/lock 6
t0=$(now)
KOHAKU_DEPS_FORCE=1 KOHAKU_APT_WAIT=60 sh "$D" run >"$tmp/lists.out" 2>&1
rc=$?
t=$(($(now) - t0))
release
if [ $rc -eq 0 ] && grep -q "waiting for the package lists' lock" "$tmp/lists.out" && [ $t -ge 4 ]; then
	ok "the lists' lock held for 6 s: install-deps.sh run said it was waiting, waited (${t} s) and succeeded"
else
	notok "the lists' lock held: install-deps.sh run exit $rc after ${t} s"
	sed 's/^/# /' "$tmp/lists.out" | tail -n 8
fi

hold /var/lib/apt/lists/lock 30
t0=$(now)
KOHAKU_DEPS_FORCE=1 KOHAKU_APT_WAIT=2 sh "$D" run >"$tmp/late.out" 2>&1
rc=$?
t=$(($(now) - t0))
release
if [ $rc -ne 0 ] && grep -q 'still locked after 2 s' "$tmp/late.out" && [ $t -lt 20 ]; then
	ok "the lists' lock held past KOHAKU_APT_WAIT=2: it failed in ${t} s saying so"
else
	notok "the lists' lock held past KOHAKU_APT_WAIT=2: exit $rc after ${t} s"
	sed 's/^/# /' "$tmp/late.out" | tail -n 8
fi

sums >"$tmp/after"
if cmp -s "$tmp/before" "$tmp/after"; then
	ok "update-initramfs.conf and apt's sources and configuration unchanged ($(grep -c . "$tmp/before") checksums and listings)"
else
	notok "the configuration changed"
	diff "$tmp/before" "$tmp/after" | sed 's/^/# /'
fi
echo "1..$n"
[ "$failed" -eq 0 ]
