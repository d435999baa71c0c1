#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-daemon.sh: kohakud as a user meets it (docs/kohakud.md), TAP.
#
#   - its options: --help, --version, a bad option (exit 2);
#   - the socket's directory made 0700 and the socket 0600; a second
#     kohakud on the same socket refused, the first untouched;
#   - the state of a card kept between kohaku commands: a knob set by one
#     (sim inject) is what the next (sim knobs) finds, and --list counts
#     the cards;
#   - KOHAKU_BACKEND=daemon with no kohakud: a message that says how to
#     start it, and the CLI's "no device" exit status (3), at once;
#   - a kohakud killed while a command waits on it: the command ends
#     within seconds, with a message naming kohakud, not a hang;
#   - validate on a card whose node an earlier command hung: WARN;
#   - SIGTERM: exit 0, the socket removed, and a client waiting on the
#     card told that kohakud is stopping;
#   - socket activation (sd_listen_fds(3)'s LISTEN_PID/LISTEN_FDS, what
#     systemd's kohakud.socket does): kohakud serves the socket it was
#     given and leaves it in place when it stops.
#
# Runs from the top of the tree against build/kohakud and build/kohaku.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
KHD=$top/build/kohakud
CLI=$top/build/kohaku
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }
check() { # description, then a command: ok when it succeeds
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else nok "$d"; fi
}

if [ ! -x "$KHD" ] || [ ! -x "$CLI" ]; then
	echo "1..0 # SKIP build/kohakud or build/kohaku not built (make userspace)"
	exit 0
fi
tmp=$(mktemp -d /tmp/check-daemon.XXXXXX)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
# as $XDG_RUNTIME_DIR/kohaku/kohakud.sock: run/ is there, kohaku/ is kohakud's
mkdir -p "$tmp/run"
export KOHAKU_DAEMON_SOCKET="$tmp/run/kohaku/kohakud.sock"
export KOHAKU_FIRMWARE_PATH="$top/build/firmware"
unset KOHAKU_BACKEND KOHAKU_DEVICE
pid=

# wait up to $1 tenths of a second for the socket to answer
wait_up() {
	i=0
	while [ $i -lt "$1" ]; do
		"$KHD" --list >/dev/null 2>&1 && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# ---- options
check "kohakud --help exits 0" "$KHD" --help
"$KHD" --version >"$tmp/v" 2>&1
if grep -q "^kohakud .*protocol [0-9]" "$tmp/v"; then ok "kohakud --version: $(cat "$tmp/v")"; else nok "kohakud --version: $(cat "$tmp/v")"; fi
"$KHD" --bogus >/dev/null 2>&1
[ $? -eq 2 ] && ok "a bad option exits 2" || nok "a bad option exits 2"

# ---- no kohakud: a message and exit 3, at once
t0=$(date +%s)
KOHAKU_BACKEND=daemon "$CLI" --map saxpy info >"$tmp/o" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "kohakud is not running" "$tmp/o" && grep -q "kohakud &" "$tmp/o" &&
	[ $(($(date +%s) - t0)) -le 2 ]; then
	ok "no kohakud: exit 3 and how to start it"
else
	nok "no kohakud: exit $rc: $(head -c 300 "$tmp/o")"
fi

# ---- start: the directory 0700, the socket 0600
"$KHD" --card saxpy --log info 2>"$tmp/log1" &
pid=$!
if wait_up 50; then ok "kohakud --card saxpy answers --list"; else nok "kohakud did not come up: $(cat "$tmp/log1")"; fi
m=$(stat -c %a "$tmp/run/kohaku" 2>/dev/null)
[ "$m" = 700 ] && ok "the socket's directory is 0700" || nok "the socket's directory is $m"
m=$(stat -c %a "$KOHAKU_DAEMON_SOCKET" 2>/dev/null)
[ "$m" = 600 ] && ok "the socket is 0600" || nok "the socket is $m"
"$KHD" >"$tmp/o" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "already serves" "$tmp/o" && "$KHD" --list >/dev/null 2>&1; then
	ok "a second kohakud on the socket is refused, the first still serves"
else
	nok "a second kohakud: exit $rc: $(cat "$tmp/o")"
fi

# ---- one card between commands
export KOHAKU_BACKEND=daemon
check "kohaku run saxpy on kohakud's card" "$CLI" --map saxpy run saxpy --n 256
check "kohaku sim inject on kohakud's card" "$CLI" --map saxpy sim inject "busy node=1,2 cycles=77777"
"$CLI" --map saxpy sim knobs >"$tmp/o" 2>&1
if [ $? -eq 0 ] && grep -q "busy mesh=0 node=1,2" "$tmp/o"; then ok "the next command finds the knob the last one set"; else nok "the knob is gone: $(cat "$tmp/o")"; fi
check "sim inject clear" "$CLI" --map saxpy sim inject clear
"$CLI" --device daemon:sx_null_2x2 info >/dev/null 2>&1
"$KHD" --list >"$tmp/o" 2>&1
if grep -q "^sim:saxpy" "$tmp/o" && grep -q "^sim:sx_null_2x2" "$tmp/o"; then
	ok "kohakud --list shows both cards"
else
	nok "kohakud --list: $(cat "$tmp/o")"
fi
"$CLI" --device daemon:no_such_card info >"$tmp/o" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "neither a built-in" "$tmp/o"; then ok "an unknown card is refused by name"; else nok "an unknown card: exit $rc: $(cat "$tmp/o")"; fi

# ---- kohakud killed under a waiting command: it ends, naming kohakud
"$CLI" --map saxpy top --interval 200 --count 100 >"$tmp/top" 2>"$tmp/top.err" &
tpid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
i=0
while kill -0 $tpid 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $tpid 2>/dev/null; then
	kill $tpid
	nok "a command kept waiting on a dead kohakud for 5 s"
else
	wait $tpid
	rc=$?
	if [ $rc -ne 0 ] && [ -s "$tmp/top" ] && grep -q "kohakud" "$tmp/top.err" &&
		! grep -q "not running" "$tmp/top.err"; then
		ok "a dead kohakud ends the waiting command (exit $rc), naming it"
	else
		nok "after kohakud died: exit $rc: $(cat "$tmp/top.err")"
	fi
fi
rm -f "$KOHAKU_DAEMON_SOCKET"

# ---- SIGTERM: exit 0, socket removed (a kohakud that leaves hung nodes
# hung, KOHAKU_RECOVER=0, for validate's WARN first)
KOHAKU_RECOVER=0 "$KHD" --log info 2>"$tmp/log2" &
pid=$!
wait_up 50
# a hung node stays marked on the shared card: validate warns, runs the rest
"$CLI" --map sx_null_2x2 sim inject "hang node=1,0" >/dev/null 2>&1
"$CLI" --map sx_null_2x2 run saxpy --timeout 500 >/dev/null 2>&1
"$CLI" --map sx_null_2x2 validate >"$tmp/o" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^validate: WARN" "$tmp/o" && grep -q "marked hung, not run" "$tmp/o"; then
	ok "validate on a card with a node the last command hung: WARN (exit 0), the others run"
else
	nok "validate after a hang: exit $rc: $(tail -n 4 "$tmp/o")"
fi
check "a card made on first use" "$CLI" --map saxpy run saxpy --n 64
"$CLI" --map saxpy top --interval 200 --count 100 >"$tmp/top" 2>"$tmp/top.err" &
tpid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -eq 0 ] && [ ! -e "$KOHAKU_DAEMON_SOCKET" ] && grep -q "stopped" "$tmp/log2"; then
	ok "SIGTERM: exit 0, the socket removed, the log says so"
else
	nok "SIGTERM: exit $rc, socket: $(ls -l "$KOHAKU_DAEMON_SOCKET" 2>&1), log: $(cat "$tmp/log2")"
fi
wait $tpid
rc=$?
if [ $rc -ne 0 ] && grep -q "kohakud is stopping" "$tmp/top.err"; then
	ok "SIGTERM: a client waiting on the card is told kohakud is stopping (exit $rc)"
else
	nok "SIGTERM: the waiting client: exit $rc: $(cat "$tmp/top.err")"
fi
pid=

# ---- socket activation: the socket systemd would pass as fd 3
python3 - "$KHD" "$KOHAKU_DAEMON_SOCKET" "$tmp/pid" 2>"$tmp/log3" <<'EOF' &
import os, socket, sys
khd, path, pidfile = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(16)
pid = os.fork()
if pid == 0:
    if s.fileno() != 3:
        os.dup2(s.fileno(), 3)
    os.set_inheritable(3, True)
    env = dict(os.environ, LISTEN_PID=str(os.getpid()), LISTEN_FDS="1")
    os.execve(khd, [khd, "--log", "info"], env)
open(pidfile, "w").write(str(pid))
os.waitpid(pid, 0)
EOF
ppid=$!
sleep 0.5
check "socket activation: kohakud serves the socket it was given" "$CLI" --map saxpy run saxpy --n 64
kill -TERM "$(cat "$tmp/pid")"
wait $ppid
if [ -S "$KOHAKU_DAEMON_SOCKET" ]; then ok "socket activation: the socket is systemd's, left in place"; else nok "socket activation: the socket was removed"; fi

echo "1..$n"
[ $fails -eq 0 ]
