#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-cli.sh: the kohaku CLI's arguments and --version, on the in-process
# simulated card (build/kohaku --backend sim --map saxpy; make builds the
# CLI when it is missing).  TAP; a suite of `make test` (tests/run-all.sh).
#
#   - --version: exit 0 and the tool's, libkohaku's and the ABI's versions,
#     the device's; --json is one JSON object; with no device it says so
#     and still exits 0;
#   - --n=64, --n 64, --n 0x40 run saxpy; --n 010 is ten (never octal);
#     options before or after the command; -- ends the options;
#   - refused with exit 2 and a message naming what: --n -1, --n 12abc,
#     --a nan, --a inf, an unknown option, an option the command does not
#     take (nodes --n 5), an extra argument (info extra), a missing value;
#   - validate: every applicable step PASS, --json one object (schema 2,
#     thirteen steps, seven of them compute steps, verdict PASS); on the
#     pool card (KOHAKU_FIRMWARE_PATH=build/firmware) the null and
#     firmware steps; mat and vec on mesh_2x2_8+2, cpu on cpu_2x1, dxa on
#     dxa_2x1, null on sx_null_2x2; --test (comma list and repeated) runs
#     those steps alone, an unknown name exit 2 with the names; a card of
#     scratch units alone is NOTHING COMPUTED, exit 5 (JSON too); a DXA
#     unit without a scratch unit WARNs (exit 0), and --quiet keeps that
#     line and the verdict; a card with an injected fault fails saxpy,
#     exit != 0;
#   - bash completion (scripts/check-completion.bash): sourced in bash
#     and driven by COMP_WORDS/COMP_CWORD: commands, second words, options,
#     --map's built-in cards, --test's steps (after a comma too), option
#     values, files for fw load, -o and run-artifact; what it offers
#     checked against the binary (every command has help, --map's list is
#     `list --backend sim`'s, the options that take a value are those the
#     CLI says need one, every POOL kernel is one run knows);
#   - --quiet: run saxpy prints the verdict alone, a failing unit's line
#     stays; a two-second run draws a progress line on a terminal
#     (script(1), else python3's pty), cleared at the end, none with
#     --quiet and none on a stderr that is a file;
#   - sim stats/check/trace, sim inject (a bad spec exit 2); top --count
#     --csv a header and rows; the new commands refuse options they do not
#     take;
#   - JSON (json-c): info, nodes, list, --version and examine --json parse
#     (python3's json module; grep without it), info and examine carry
#     "schema": 1; a failure under --json (no such device, a refused
#     option) prints an object with "error" and exits as usual; examine's
#     text has its schema line; -o FILE writes the output there and none
#     on stdout, -o into a missing directory exits 2 naming it; output
#     that cannot be written (stdout or -o into /dev/full: info, nodes,
#     run, --help, examine, top --count 0) exits 2 saying so, a command
#     that failed anyway keeps its status; --json with a non-UTF-8
#     --map is strict UTF-8 JSON (0xff as \u00ff, ESC, DEL and C1
#     escaped, valid UTF-8 kept); top --json is JSON Lines and help top
#     says so; kh-trace --demo writes Chrome trace JSON, and of a trace
#     with bytes that are not UTF-8 strict UTF-8 JSON (the CLI's escaping);
#   - clocks: mesh 0's block with its profile and four MHz values, --json
#     one object with "meshes" and every field, four blocks on quad;
#     clocks set (each invocation is a fresh card: its own output is the
#     state after the call): --policy fixed --profile mid says mid and noc
#     200 MHz, --profile alone implies fixed, the auto knobs and --recover
#     0 (off); nothing to set, no --mesh, a bad profile, policy, --idle-ms
#     or --recover refused (exit 2) naming the option; reset --mesh 0 its
#     counts (text and JSON; on the pool card the POOL units running
#     firmware again), --mesh 9 refused naming it; top's clock column;
#     --mesh and the clock options refused by commands that do not take
#     them;
#   - run-artifact: a hand-written saxpy artifact with --in and --out (y =
#     2x + y read back), --json one object; refused with exit 2 naming
#     what: an operand outside its --arena (the round, step, flit and
#     operand), a kick at no node (the step), JSON with a trailing comma
#     (line and column), --out into a missing directory, --in outside the
#     arenas, no file, an option it does not take;
#   - fw load of a directory, a FIFO (without hanging) and /dev/zero
#     refused (exit 2) naming what each is; run-artifact of a FIFO too,
#     and --in ADDR=FIFO (or a directory); KOHAKU_FIRMWARE of a FIFO or
#     a directory refused before the open (exit 2, naming it, no hang);
#     --map of a FIFO nobody writes: exit 3 after a bounded wait, naming
#     it; --map /dev/stdin from a pipe still works; a description with a
#     UTF-8 BOM at its start (and CRLF) loads, a BOM past the start is an
#     unknown token; --n past what fits (crc32 2^64-1, vadd 2^62 whose
#     byte count wraps, saxpy) is refused as too large with the bound, a
#     --n that is no multiple as that alone; KOHAKU_LOG=bogus warns once
#     (and runs), KOHAKU_LOG=warn does not;
#   - run KERNEL with no firmware (KOHAKU_FIRMWARE_PATH at nothing): one
#     message naming where it looked and `make firmware` /
#     KOHAKU_FIRMWARE_PATH, nothing submitted, exit 4 (JSON: one error
#     object); with build/firmware it runs;
#   - help CMD for every command: exit 0, that command's text alone; help
#     run every demo, run saxpy --help saxpy's alone, run crc32 --help run
#     KERNEL's, help clocks set with its options, --help wins over an
#     option the command does not take; help frob and frob --help exit 2.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

K=build/kohaku
if [ ! -x "$K" ]; then
	${MAKE:-make} --no-print-directory "$K" >/dev/null 2>&1
fi
if [ ! -x "$K" ]; then
	nok "build/kohaku built"
	echo "1..$n"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
SIM="--backend sim --map saxpy"

# run DESC WANT_RC ARGS...: the CLI's exit status, output in $tmp/out
run() {
	_d=$1 _want=$2
	shift 2
	timeout 20 "$K" "$@" >"$tmp/out" 2>&1 </dev/null
	_rc=$?
	if [ "$_rc" -eq "$_want" ]; then
		ok "$_d (exit $_want)"
		return 0
	fi
	nok "$_d: exit $_rc, expected $_want"
	sed 's/^/# /' "$tmp/out" | tail -n 10
	return 1
}
# has DESC TEXT: the last run's output contains TEXT
has() {
	if grep -qF -- "$2" "$tmp/out"; then
		ok "$1"
	else
		nok "$1: no '$2' in the output"
		sed 's/^/# /' "$tmp/out" | tail -n 10
	fi
}
# refused DESC TEXT ARGS...: exit 2, the message naming TEXT
refused() {
	_d=$1 _t=$2
	shift 2
	run "$_d refused" 2 "$@" && has "... naming '$_t'" "$_t"
}

# ---- --version ----
run "--version on the sim card" 0 $SIM --version
# the tree's one version (kohaku.h), and the driver ABI's, each named
libver=$(sed -n 's/^#define KOHAKU_LIB_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\).*/\2/p' \
	libruntime/kohaku.h | paste -sd. -)
abiver=$(sed -n 's/^#define KOHAKU_ABI_\(MAJOR\|MINOR\)[[:space:]]*\([0-9]*\).*/\2/p' \
	uapi/drm/kohaku_accel.h | paste -sd. -)
has "... tool, library and driver ABI on one line" "kohaku $libver (libkohaku $libver), driver ABI $abiver"
has "... the tool's version" "kohaku     $libver (this tool)"
has "... libkohaku's version" "libkohaku  $libver (the library running"
has "... the ABI it was built with" "abi        $abiver (the driver ABI"
has "... the device" "device     sim:saxpy (sim backend)"
has "... the driver" "driver abi "
run "--version --json" 0 $SIM --version --json
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(sys.stdin); assert isinstance(d, dict) and d["kohaku"] and d["libkohaku"] and d["abi"] and d["device"]["path"] == "sim:saxpy"' <"$tmp/out" 2>"$tmp/err"; then
		ok "... one JSON object with kohaku, libkohaku, abi and the device"
	else
		nok "... not one JSON object"; sed 's/^/# /' "$tmp/out" "$tmp/err"
	fi
else
	has "... a JSON object (no python3: grep)" '"kohaku": "'
fi
run "--version with no device" 0 --backend sim --device no-such-card-here --version
has "... saying there is none" "device     none: "
run "--version --json with no device" 0 --backend sim --device no-such-card-here --version --json
has "... device null and why" '"device": null, "device_error": '
refused "--version with a command" "unexpected argument 'info'" $SIM --version info

# ---- numbers and option forms ----
run "run saxpy --n=64" 0 $SIM run saxpy --n=64
has "... n = 64" "n = 64 "
run "run saxpy --n 64" 0 $SIM run saxpy --n 64
has "... n = 64" "n = 64 "
run "run saxpy --n 0x40" 0 $SIM run saxpy --n 0x40
has "... n = 64" "n = 64 "
run "run saxpy --n 010 (decimal, never octal)" 0 $SIM run saxpy --n 010
has "... n = 10" "n = 10 "
run "options before the command" 0 --n 8 --a=-2.5 $SIM run saxpy
has "... n = 8, a = -2.5" "n = 8 (1 instruction of up to 64), a = -2.5"
run "-- ends the options" 0 $SIM --n 8 -- run saxpy
has "... n = 8" "n = 8 "
refused "an option after --" "unknown command '--json'" $SIM -- --json info
refused "--n -1" "--n: '-1'" $SIM run saxpy --n -1
refused "--n 12abc" "--n: '12abc'" $SIM run saxpy --n 12abc
refused "--n 0x" "--n: '0x'" $SIM run saxpy --n 0x
refused "--n ' 5'" "--n: ' 5'" $SIM run saxpy --n ' 5'
refused "--n 99999999999999999999999" "too large" $SIM run saxpy --n 99999999999999999999999
refused "--a nan" "--a: 'nan'" $SIM run saxpy --a nan
refused "--a inf" "--a: 'inf'" $SIM run saxpy --a inf
refused "--a 1x" "--a: '1x'" $SIM run saxpy --a 1x
refused "--timeout -5" "--timeout: '-5'" $SIM run saxpy --timeout -5

# ---- options and arguments refused by name ----
refused "an unknown option" "unknown option '--bogus'" $SIM --bogus info
refused "an unknown option with a value" "unknown option '--bogus'" $SIM info --bogus=3
refused "an unknown short option" "unknown option '-x'" $SIM -x info
refused "nodes --n 5 (an option nodes does not take)" "nodes does not take --n" $SIM nodes --n 5
refused "info --live" "info does not take --live" $SIM info --live
refused "run saxpy --mailbox" "run saxpy does not take --mailbox" $SIM run saxpy --mailbox
refused "info extra" "info: unexpected argument 'extra'" $SIM info extra
refused "run saxpy extra" "run saxpy: unexpected argument 'extra'" $SIM run saxpy extra
refused "a missing value" "--n needs a value" $SIM run saxpy --n
refused "a value for a flag" "--json takes no value" $SIM --json=yes info
refused "an unknown command" "unknown command 'frobnicate'" $SIM frobnicate
# a usage error is one line: the message and where to read more
run "a usage error" 2 $SIM --bogus info
if [ "$(wc -l <"$tmp/out")" -eq 1 ]; then
	ok "... one line: $(cat "$tmp/out")"
else
	nok "... on $(wc -l <"$tmp/out") lines"; sed 's/^/# /' "$tmp/out"
fi
has "... naming --help" "(see kohaku --help)"
# a description that describes no card is refused (2), not absent (3)
printf 'xxx sax xxx\nmag nul\n' >"$tmp/bad.map"
refused "a description with a short row" "line 2: row has 2 tokens" --map "$tmp/bad.map" info
printf 'xxx sax xxx\nmag nul nul\0xxx sax xxx\n' >"$tmp/nul.map"
refused "a description with a NUL byte" "line 2: a NUL byte (at byte 23)" --map "$tmp/nul.map" info
run "a description file that does not exist" 3 --map "$tmp/no-such.map" info

# ---- validate, sim, top ----
# json_ok0 DESC PYEXPR: the last run's output is one JSON object d with
# PYEXPR (without python3: skipped)
json_ok0() {
	if command -v python3 >/dev/null 2>&1; then
		if python3 -c "import json,sys; d=json.load(sys.stdin); assert isinstance(d, dict); assert $2" <"$tmp/out" 2>"$tmp/err"; then
			ok "$1"
		else
			nok "$1"; sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -n 10
		fi
	else
		n=$((n + 1)); echo "ok $n # SKIP $1: no python3"
	fi
}
run "validate on the saxpy card" 0 $SIM validate
for st in open abi enumerate bo bandwidth saxpy checker; do
	if grep -Eq "^[0-9]+/[0-9]+ $st +PASS" "$tmp/out"; then
		ok "... $st PASS"
	else
		nok "... $st not PASS"; sed 's/^/# /' "$tmp/out"
	fi
done
has "... null SKIP (no null unit)" "null       SKIP"
has "... the verdict" "validate: PASS"
run "validate --json" 0 $SIM validate --json
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["schema"] == 2 and d["ok"] and len(d["steps"]) == 13 and all(s["result"] in ("PASS", "SKIP") for s in d["steps"]) and d["verdict"] == "PASS" and d["exit"] == 0 and d["computed"] == 1 and d["warned"] == 0 and d["error"] is None and [s["name"] for s in d["steps"] if s["kind"] == "compute"] == ["mat", "vec", "cpu", "firmware", "dxa", "saxpy", "null"]' <"$tmp/out" 2>"$tmp/err"; then
		ok "... one JSON object, schema 2, thirteen steps (seven compute), none FAIL, verdict PASS"
	else
		nok "... not the JSON expected"; sed 's/^/# /' "$tmp/out" "$tmp/err"
	fi
else
	has "... a JSON object (no python3: grep)" '"schema": 2, '
fi
if [ -f build/firmware/pool.fw ]; then
	KOHAKU_FIRMWARE_PATH="$top/build/firmware" run "validate on the pool card" 0 --map pool validate
	has "... null PASS" "null       PASS"
	has "... firmware PASS" "firmware   PASS"
	has "... saxpy PASS" "saxpy      PASS"
	has "... the verdict" "validate: PASS"
else
	n=$((n + 1)); echo "ok $n # SKIP validate on the pool card: no build/firmware/pool.fw"
fi
# every built-in card computes on each unit type it has
run "validate on mesh_2x2_8+2 (mat and vec units)" 0 --map mesh_2x2_8+2 validate
has "... mat PASS on its 8 mat units" "mat        PASS  8 mat units"
has "... vec PASS on its 2 vec units" "vec        PASS  2 vec units"
has "... saxpy SKIP" "saxpy      SKIP  no SX unit"
has "... the verdict" "validate: PASS"
run "validate on cpu_2x1" 0 --map cpu_2x1 validate
has "... cpu PASS" "cpu        PASS  4 cpu units"
run "validate on dxa_2x1" 0 --map dxa_2x1 validate
has "... dxa PASS" "dxa        PASS  1 DXA unit"
run "validate on sx_null_2x2" 0 --map sx_null_2x2 validate
has "... null PASS" "null       PASS  5 null units"
# a mesh the driver refuses at bring-up: enumerate FAILs, its units SKIP
run "validate on mesh_2x2_6+2_pe (its mesh refused at bring-up)" 4 --map mesh_2x2_6+2_pe validate
has "... enumerate FAIL" "enumerate  FAIL  mesh 0 is not READY"
has "... mat SKIP, not run on that mesh" "mat        SKIP  6 mat units, on a mesh that is not READY"
has "... one step failed" "validate: FAIL (1 of 13 steps failed)"
# --test: the steps named, numbered among themselves
run "validate --test mat,vec --test checker" 0 --map mesh_2x2_8+2 validate --test mat,vec --test checker
has "... three steps" "kohaku validate: 3 steps"
has "... mat first" "1/3 mat        PASS"
has "... checker last" "3/3 checker    PASS"
if grep -q "open\|saxpy" "$tmp/out"; then nok "... steps not named were printed"; sed 's/^/# /' "$tmp/out"; else ok "... no other step"; fi
refused "validate --test bogus" "unknown test 'bogus' (the tests: open, abi, enumerate, bo, bandwidth, mat, vec, cpu, firmware, dxa, saxpy, null, checker)" $SIM validate --test bogus
refused "validate --test ''" "--test needs a name" $SIM validate --test ''
refused "validate --test ," "--test needs a name" $SIM validate --test ,
refused "info --test bo" "info does not take --test" $SIM info --test bo
run "validate --test bo on no device" 3 --backend sim --device no-such-card-here validate --test bo
has "... the open that failed, in the verdict" "validate: FAIL (open: no device opened"
# a card of scratch units alone: nothing to compute on is not a PASS
printf 'profile rtl\nxxx scr xxx\nmag scr scr\nxxx scr xxx\n' >"$tmp/scr.desc"
run "validate on a card with no unit to compute on" 5 --map "$tmp/scr.desc" validate
has "... the verdict" "validate: NOTHING COMPUTED"
run "validate --json on it" 5 --map "$tmp/scr.desc" validate --json
json_ok0 "... verdict NOTHING COMPUTED, exit 5, not ok" 'd["verdict"] == "NOTHING COMPUTED" and d["exit"] == 5 and not d["ok"] and d["computed"] == 0'
run "validate --test bo on it (no compute step asked for)" 0 --map "$tmp/scr.desc" validate --test bo
# a DXA unit with no scratch unit on its mesh: WARN, and nothing computed
printf 'profile rtl\nxxx dxa xxx\nmag sax xxx\nxxx xxx xxx\n' >"$tmp/dxa.desc"
run "validate with a DXA unit that has no scratch unit" 0 --map "$tmp/dxa.desc" validate
has "... dxa WARN" "dxa        WARN  nothing computed; 1 of 1 DXA unit with no scratch unit on its mesh, not run"
has "... the verdict WARN" "validate: WARN (7 passed, 1 warned, 5 skipped)"
run "validate --quiet" 0 --map "$tmp/dxa.desc" validate --quiet
if [ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -q "^10/13 dxa        WARN" "$tmp/out" && grep -q "^validate: WARN" "$tmp/out"; then
	ok "... the WARN line and the verdict alone"
else
	nok "... not two lines"; sed 's/^/# /' "$tmp/out"
fi
printf 'profile rtl\nxxx dxa xxx\nmag xxx xxx\nxxx xxx xxx\n' >"$tmp/dxa0.desc"
run "validate where the only unit warned and computed nothing" 5 --map "$tmp/dxa0.desc" validate
has "... NOTHING COMPUTED" "validate: NOTHING COMPUTED (6 passed, 1 warned, 6 skipped"
# the saxpy card with every instruction of the unit at (1,2) faulting
printf 'profile rtl\nxxx sax xxx\nmag nul nul\nxxx sax xxx\ninject fault node=1,2 count=forever\n' >"$tmp/fault.desc"
timeout 20 "$K" --map "$tmp/fault.desc" validate >"$tmp/out" 2>&1 </dev/null
rc=$?
if [ "$rc" -ne 0 ]; then ok "validate with an injected fault exits $rc"; else nok "validate with an injected fault exits 0"; fi
has "... saxpy FAIL" "saxpy      FAIL"
has "... the verdict" "validate: FAIL"
run "sim stats" 0 $SIM sim stats
has "... the card's counters" "card cycles="
refused "sim inject with a bad spec" "unknown knob 'bogus'" $SIM sim inject bogus
run "sim inject fault node=1,2" 0 $SIM sim inject fault node=1,2
run "sim check" 0 $SIM sim check
has "... no violation" "violations 0"
run "sim trace" 0 $SIM sim trace
refused "sim with no subcommand" "sim: which?" $SIM sim
run "top --count 2 --interval 10 --csv" 0 $SIM top --count 2 --interval 10 --csv
has "... the header" "sample,time_s,mesh,x,y,type,busy_cycles,retired,hung,mesh_jobs_per_s,mesh_clock"
if [ "$(grep -Ec '^[12],.*,(low|mid|ship) [0-9]+MHz$' "$tmp/out")" -eq 4 ]; then ok "... each row ends with its mesh's clock"; else nok "... rows without the clock column"; sed 's/^/# /' "$tmp/out"; fi
has "... a row of sample 2" "2,"
if [ "$(grep -c '^[12],' "$tmp/out")" -eq 4 ]; then ok "... two samples of two nodes"; else nok "... not four rows"; sed 's/^/# /' "$tmp/out"; fi
run "top --count 1 --interval 10" 0 $SIM top --count 1 --interval 10
has "... a block" "sample 1 at "
has "... the clock column" "state clock"
if grep -Eq ' jobs/s at (low|mid|ship) [0-9]+MHz' "$tmp/out" && grep -Eq '^0 +\(1,0\) .* (low|mid|ship) [0-9]+MHz$' "$tmp/out"; then ok "... mesh 0's clock, on its line and its nodes' rows"; else nok "... no mesh clock"; sed 's/^/# /' "$tmp/out"; fi
refused "validate --n 5" "validate does not take --n" $SIM validate --n 5
refused "top --live" "top does not take --live" $SIM top --live
refused "sim stats --csv" "sim stats does not take --csv" $SIM sim stats --csv
refused "sim inject --count 3" "sim inject does not take --count" $SIM sim inject fault node=1,2 --count 3
refused "nodes --interval 5" "nodes does not take --interval" $SIM nodes --interval 5
refused "top --interval 0" "--interval: '0'" $SIM top --interval 0

# ---- --quiet, and progress on a terminal ----
run "run saxpy --quiet" 0 $SIM run saxpy --quiet
if [ "$(cat "$tmp/out")" = "saxpy: PASS (every element matches)" ]; then
	ok "... the verdict alone"
else
	nok "... more than the verdict"; sed 's/^/# /' "$tmp/out"
fi
run "-q before the command" 0 -q --map mesh_2x2_8+2 run mat-demo
has "... the verdict" "mat-demo: PASS"
if grep -q "nodes\|mesh 0 (" "$tmp/out"; then nok "... the node table or a unit's line"; sed 's/^/# /' "$tmp/out"; else ok "... no node table, no unit line"; fi
timeout 20 "$K" --map "$tmp/fault.desc" run saxpy --quiet >"$tmp/out" 2>&1 </dev/null
rc=$?
if [ "$rc" -ne 0 ]; then ok "run saxpy --quiet with a faulting unit exits $rc"; else nok "run saxpy --quiet with a faulting unit exits 0"; fi
has "... the failed unit's line" "FAILED:"
has "... the verdict" "saxpy: FAIL"
if grep -q "nodes\|: ok" "$tmp/out"; then nok "... the node table or a passing unit's line"; sed 's/^/# /' "$tmp/out"; else ok "... no node table, no passing unit"; fi
# a run of about two seconds: cpu-demo of 65536 words on four cpu units
LONG="--map cpu_2x1 run cpu-demo --n 65536"
timeout 60 "$K" $LONG >"$tmp/out" 2>"$tmp/err" </dev/null
if [ $? -eq 0 ] && [ ! -s "$tmp/err" ]; then ok "a long run with stderr a file: no progress on it"; else nok "a long run with stderr a file"; sed 's/^/# /' "$tmp/err" | tail -n 5; fi
# on a terminal: script(1) (util-linux) or python3's pty module
on_tty() {
	if command -v script >/dev/null 2>&1; then
		script -qec "$1" /dev/null
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import pty,sys; sys.exit(pty.spawn(["sh", "-c", sys.argv[1]]) >> 8)' "$1"
	else
		return 77
	fi
}
on_tty "timeout 60 $K $LONG >/dev/null" >"$tmp/tty" 2>&1 </dev/null
rc=$?
if [ "$rc" -eq 77 ]; then
	n=$((n + 1)); echo "ok $n # SKIP progress on a terminal: neither script nor python3"
else
	if [ "$rc" -eq 0 ] && grep -q "kohaku: cpu-demo: [0-4]/4 units, [0-9.]* s" "$tmp/tty"; then
		ok "a long run on a terminal: a progress line on stderr"
	else
		nok "a long run on a terminal: no progress line (exit $rc)"; od -c "$tmp/tty" | head -n 5 | sed 's/^/# /'
	fi
	if [ "$(tail -c 7 "$tmp/tty" | od -An -c | tr -d ' \n')" = "\\r033[K\\r\\n" ] ||
	   [ "$(tail -c 6 "$tmp/tty" | od -An -c | tr -d ' \n')" = "\\r033[K\\n" ] ||
	   [ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' \n')" = "\\r033[K" ]; then
		ok "... cleared at the end"
	else
		nok "... not cleared at the end"; tail -c 32 "$tmp/tty" | od -c | sed 's/^/# /'
	fi
	on_tty "timeout 60 $K --quiet $LONG >/dev/null" >"$tmp/tty" 2>&1 </dev/null
	if grep -q "units, " "$tmp/tty"; then nok "... --quiet still draws it"; od -c "$tmp/tty" | head -n 5 | sed 's/^/# /'; else ok "... none with --quiet"; fi
fi

# ---- bash completion (packaging/bash-completion/kohaku) ----
if command -v bash >/dev/null 2>&1; then
	bash scripts/check-completion.bash "$K" packaging/bash-completion/kohaku >"$tmp/comp" 2>&1
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${line#ok }" ;;
		"not ok "*) nok "${line#not ok }" ;;
		*) echo "# $line" ;;
		esac
	done <"$tmp/comp"
	if ! grep -q "^ok " "$tmp/comp"; then nok "bash completion: nothing checked"; fi
else
	n=$((n + 1)); echo "ok $n # SKIP bash completion: no bash"
fi

# ---- JSON (json-c), errors as JSON, -o FILE, examine ----
# json_ok DESC PYEXPR: the last run's output is one JSON object d with PYEXPR
json_ok() {
	if command -v python3 >/dev/null 2>&1; then
		if python3 -c "import json,sys; d=json.load(sys.stdin); assert isinstance(d, dict); assert $2" <"$tmp/out" 2>"$tmp/err"; then
			ok "$1"
		else
			nok "$1"; sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -n 10
		fi
	else
		has "$1 (no python3: grep)" '{ "'
	fi
}
run "info --json" 0 $SIM info --json
json_ok "... one JSON object, schema 1, the path and meshes" 'd["schema"] == 1 and d["path"] == "sim:saxpy" and d["meshes"][0]["n_nodes"] == 2'
run "nodes --json" 0 $SIM nodes --json
json_ok "... one JSON object with the path and two nodes" 'd["path"] == "sim:saxpy" and len(d["nodes"]) == 2 and d["nodes"][0]["type"] == "SX"'
run "list --json (sim)" 0 $SIM list --json
json_ok "... one JSON object with the device" 'd["backend"] == "sim" and d["usable"] == 1 and d["devices"][0]["path"] == "sim:saxpy"'
run "--version --json (json-c)" 0 $SIM --version --json
json_ok "... kohaku, libkohaku, abi and the device" 'd["kohaku"] and d["abi"] and d["device"]["path"] == "sim:saxpy"'
json_ok "... kohaku and libkohaku the tree's $libver, abi $abiver" "d['kohaku'] == '$libver' and d['libkohaku'] == '$libver' and d['abi'] == '$abiver'"
run "examine" 0 $SIM examine
has "... the schema line" "schema      1"
has "... info" "device      sim:saxpy (sim backend)"
has "... the node table" "sim:saxpy: 2 nodes"
has "... firmware" "firmware    "
run "examine --json" 0 $SIM examine --json
json_ok "... schema 1, info, nodes, firmware, dxa" 'd["schema"] == 1 and d["info"]["path"] == "sim:saxpy" and len(d["nodes"]) == 2 and "firmware" in d and d["dxa"] == []'
run "examine --json on dxa_2x1" 0 --map dxa_2x1 examine --json
json_ok "... the DXA unit's 16 slots free" 'd["dxa"][0]["free"] == 16'
refused "examine --n 5" "examine does not take --n" $SIM examine --n 5
timeout 20 "$K" --backend kernel --device /dev/accel/accel99 info --json >"$tmp/out" 2>"$tmp/stderr" </dev/null
rc=$?
if [ "$rc" -eq 3 ]; then ok "info --json with no such device exits 3"; else nok "info --json with no such device exits $rc, expected 3"; fi
json_ok "... stdout: one object with error, exit 3, the command" '"accel99" in d["error"] and d["exit"] == 3 and d["command"] == "info"'
if grep -qF "cannot open a device" "$tmp/stderr"; then ok "... stderr keeps the message"; else nok "... no message on stderr"; fi
timeout 20 "$K" $SIM --json --bogus info >"$tmp/out" 2>/dev/null </dev/null
rc=$?
if [ "$rc" -eq 2 ]; then ok "a refused option under --json exits 2"; else nok "a refused option under --json exits $rc, expected 2"; fi
json_ok "... stdout: one object naming it" '"--bogus" in d["error"] and d["exit"] == 2'
rm -f "$tmp/o.txt"
timeout 20 "$K" $SIM -o "$tmp/o.txt" info >"$tmp/out" 2>&1 </dev/null
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ]; then ok "-o FILE info: exit 0, nothing on stdout"; else nok "-o FILE info: exit $rc, stdout: $(head -c 200 "$tmp/out")"; fi
if grep -qF "device      sim:saxpy" "$tmp/o.txt" 2>/dev/null; then ok "... FILE holds info"; else nok "... FILE does not hold info"; fi
timeout 20 "$K" $SIM --json --output="$tmp/o.json" nodes >"$tmp/out" 2>&1 </dev/null
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ]; then ok "--output=FILE --json nodes: exit 0, nothing on stdout"; else nok "--output=FILE: exit $rc"; fi
cp "$tmp/o.json" "$tmp/out" 2>/dev/null
json_ok "... FILE holds the JSON" 'len(d["nodes"]) == 2'
refused "-o into a missing directory" "/nonexistent/dir/x" $SIM -o /nonexistent/dir/x info
refused "-o with no value" "-o needs a value" $SIM info -o
# output that cannot be written (/dev/full: every write ENOSPC) is a
# failure with a message, never a silent exit 0 (cli_output_close)
# full DESC WANT_RC TEXT ARGS...: stdout into /dev/full, stderr in $tmp/out
full() {
	_d=$1 _want=$2 _t=$3
	shift 3
	timeout 20 "$K" "$@" >/dev/full 2>"$tmp/out" </dev/null
	_rc=$?
	if [ "$_rc" -eq "$_want" ]; then ok "$_d: exit $_want"; else nok "$_d: exit $_rc, expected $_want"; fi
	has "... saying so" "$_t"
}
if [ -c /dev/full ]; then
	full "info > /dev/full" 2 "writing the output failed: No space left on device" $SIM info
	full "nodes > /dev/full" 2 "writing the output failed: No space left on device" $SIM nodes
	full "run saxpy > /dev/full" 2 "writing the output failed" $SIM run saxpy
	full "--help > /dev/full" 2 "writing the output failed" --help
	full "examine --json -o /dev/full" 2 "-o/--output: writing '/dev/full' failed: No space left on device" $SIM examine --json -o /dev/full
	full "top --count 0 > /dev/full: stops" 2 "writing the output failed: No space left on device" $SIM top --count 0 --interval 10
	full "a failed command keeps its exit status" 3 "writing the output failed" --json --map "$tmp/no-such.map" info
else
	n=$((n + 1)); echo "ok $n # SKIP writing into /dev/full: no /dev/full"
fi
TR=build/kh-trace
if [ ! -x "$TR" ]; then
	${MAKE:-make} --no-print-directory "$TR" >/dev/null 2>&1
fi
if timeout 20 "$TR" --demo saxpy -o "$tmp/trace.json" >/dev/null 2>&1; then
	ok "kh-trace --demo saxpy"
	cp "$tmp/trace.json" "$tmp/out"
	json_ok "... Chrome trace JSON: events, spans with ts and dur" 'd["displayTimeUnit"] == "ns" and any(e["ph"] == "X" and e["dur"] > 0 for e in d["traceEvents"]) and any(e["ph"] == "M" for e in d["traceEvents"])'
else
	nok "kh-trace --demo saxpy"
fi
# kh-trace writes strict UTF-8 JSON whatever the trace's bytes (the CLI's
# cli_json_put): 0xff as \u00ff, ESC and C1 escaped, valid UTF-8 kept
printf '# kohaku-sim trace v1 clock_mhz=300\n12 0 drop x\377y\033z\302\233\303\251 rule=a\377b\n' >"$tmp/bad.trace"
if timeout 20 "$TR" -o "$tmp/out" "$tmp/bad.trace" >/dev/null 2>&1; then
	if command -v python3 >/dev/null 2>&1; then
		if python3 -c 'import json,sys; d=json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict")); e=d["traceEvents"][-1]; assert e["args"]["rule"] == "a\u00ffb" and e["name"] == "drop x\u00ffy\x1bz\x9b\u00e9"' "$tmp/out" 2>"$tmp/err"; then
			ok "kh-trace of a trace with bytes that are not UTF-8: strict UTF-8 JSON"
		else
			nok "kh-trace of a trace with bytes that are not UTF-8"; sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -n 5
		fi
	fi
	has "... 0xff written \\u00ff" 'a\u00ffb'
	has "... C1 written \\u009b" 'z\u009b'
else
	nok "kh-trace of a trace with bytes that are not UTF-8: exit $?"
fi

# JSON is UTF-8 whatever the arguments: a byte that starts no valid
# sequence is \u00XX, DEL and the controls (C0, C1) escaped, valid UTF-8
# kept (output.c's cli_json_put)
bad=$(printf 'sa\377x\033[31m\177\302\233\303\251py')
timeout 20 "$K" --json --map "$bad" info >"$tmp/out" 2>/dev/null </dev/null
rc=$?
if [ "$rc" -eq 3 ]; then ok "--json --map with non-UTF-8 bytes exits 3"; else nok "--json --map with non-UTF-8 bytes exits $rc, expected 3"; fi
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; t=open(sys.argv[1],"rb").read(); assert all(b < 0x7f for b in t.replace("\u00e9".encode(), b"")), t; d=json.loads(t.decode("utf-8", "strict")); assert "sa\u00ffx\u001b[31m\u007f\u009b\u00e9py" in d["error"], d' "$tmp/out" 2>"$tmp/err"; then
		ok "... strict UTF-8 JSON: 0xff as \\u00ff, ESC, DEL, C1 escaped, e-acute kept"
	else
		nok "... not strict UTF-8 JSON with the bytes escaped"; sed 's/^/# /' "$tmp/out" "$tmp/err"
	fi
else
	has "... 0xff as \\u00ff (no python3: grep)" 'sa\u00ffx\u001b[31m\u007f\u009b'
fi
run "top --json --count 2 --interval 10" 0 $SIM top --json --count 2 --interval 10
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; l=open(sys.argv[1]).read().splitlines(); assert len(l) == 2; d=[json.loads(x) for x in l]; assert [x["sample"] for x in d] == [1, 2] and all(x["schema"] == 1 for x in d)' "$tmp/out" 2>"$tmp/err"; then
		ok "... JSON Lines: two lines, an object per sample"
	else
		nok "... not two JSON lines"; sed 's/^/# /' "$tmp/out" "$tmp/err"
	fi
else
	has "... a sample object (no python3: grep)" '"sample": 2'
fi
run "help top" 0 help top
has "... says JSON Lines" "--json: JSON Lines, one object per"

# ---- bad input: files that are not what they should be ----
mkfifo "$tmp/fifo"
refused "fw load of a directory" "/etc is a directory, not a firmware image" --map pool fw load /etc
refused "fw load of a FIFO (no hang)" "is a FIFO, not a firmware image" --map pool fw load "$tmp/fifo"
refused "fw load /dev/zero" "/dev/zero is a character device" --map pool fw load /dev/zero
if [ -f build/firmware/pool.fw ]; then
	run "fw load build/firmware/pool.fw (a regular file)" 0 --map pool fw load build/firmware/pool.fw
	has "... running on the POOL units" "running on 3 POOL units"
else
	n=$((n + 1)); echo "ok $n # SKIP fw load of an image: no build/firmware/pool.fw"
fi
refused "run-artifact of a FIFO (no hang)" "not a regular file" $SIM run-artifact "$tmp/fifo"
printf '{"machine": "saxpy-2", "flits": [452314580759839752801930967682922259562878807375710770371640639094331015168], "steps": [["seed", 32], ["kick", 1, 0, 0, 1], ["await", 1, 0, 1]], "meta": {"unit": "SX"}}\n' >"$tmp/fifo-a.json"
refused "run-artifact --in ADDR=FIFO (no hang)" "--in: '0x18000000=$tmp/fifo': '$tmp/fifo' is a FIFO, not a regular file" $SIM run-artifact "$tmp/fifo-a.json" --in "0x18000000=$tmp/fifo"
refused "run-artifact --in ADDR=directory" "'/etc' is a directory, not a regular file" $SIM run-artifact "$tmp/fifo-a.json" --in "0x18000000=/etc"
# KOHAKU_FIRMWARE (the sim backend's image, read at open) of a FIFO: refused
# before the open, naming it, instead of waiting for a writer forever
KOHAKU_FIRMWARE="$tmp/fifo" run "KOHAKU_FIRMWARE=FIFO (no hang) refused" 2 --map pool fw info
has "... naming it a FIFO" "KOHAKU_FIRMWARE=$tmp/fifo is a FIFO, not a regular file"
KOHAKU_FIRMWARE=/etc run "KOHAKU_FIRMWARE=directory refused" 2 --map pool info
has "... naming it a directory" "KOHAKU_FIRMWARE=/etc is a directory, not a regular file"
KOHAKU_FIRMWARE=none run "KOHAKU_FIRMWARE=none still loads none" 0 --map pool fw info
# --map FIFO: nothing writes it; the wait is bounded (2 s), then exit 3
run "--map FIFO with no writer (no hang)" 3 --map "$tmp/fifo" info
has "... naming it a FIFO nobody wrote" "is a FIFO and nothing came from it in 2 s (no writer?)"
# a pipe that writes the description still works
printf 'profile rtl\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n' | timeout 20 "$K" --map /dev/stdin nodes >"$tmp/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then ok "--map /dev/stdin from a pipe (exit 0)"; else nok "--map /dev/stdin from a pipe: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
has "... its two nodes" "sim:stdin: 2 nodes"

# --n past what fits: the bound, said as such (checked by division: a
# product that wraps past 2^64 is no way round it); the multiple apart
refused "run crc32 --n 2^64-1" "run crc32: --n 18446744073709551615 is too large: at most 2147483647" --map pool run crc32 --n 0xffffffffffffffff
refused "run vadd --n 2^62 (n * 4 wraps to 0)" "run vadd: --n 4611686018427387904 is too large: at most 536870904" --map pool run vadd --n 0x4000000000000000
refused "run vadd --n 12" "run vadd: --n 12 is not a multiple of 8" --map pool run vadd --n 12
refused "run saxpy --n 0xffffffff" "run saxpy: --n 4294967295 is too large: at most 1048576" $SIM run saxpy --n 0xffffffff

# a POOL kernel with no firmware: said once, with how to get it, before
# any job is submitted (exit 4, as the refused submits were)
KOHAKU_FIRMWARE_PATH="$tmp/none"
export KOHAKU_FIRMWARE_PATH
run "run crc32 with no firmware" 4 --map pool run crc32
has "... says no firmware runs" "run crc32: no firmware runs on the POOL units of sim:pool (absent: kohaku/pool.fw not found in $tmp/none"
has "... and how to get it" "Build it with \`make firmware\`, then run with KOHAKU_FIRMWARE_PATH=build/firmware"
if grep -q "^POOL mesh\|FAILED" "$tmp/out"; then nok "... yet submitted"; sed 's/^/# /' "$tmp/out" | head; else ok "... before submitting anything"; fi
timeout 20 "$K" --map pool run ping --json >"$tmp/out" 2>/dev/null </dev/null
rc=$?
if [ "$rc" -eq 4 ]; then ok "run ping --json with no firmware exits 4"; else nok "run ping --json with no firmware exits $rc, expected 4"; fi
json_ok "... one error object saying so" '"no firmware runs" in d["error"] and "make firmware" in d["error"] and d["exit"] == 4'
unset KOHAKU_FIRMWARE_PATH
if [ -f build/firmware/pool.fw ]; then
	KOHAKU_FIRMWARE_PATH="$top/build/firmware" run "run ping with KOHAKU_FIRMWARE_PATH=build/firmware" 0 --map pool run ping
	has "... passes" "ping: PASS"
	# the in-tree CLI finds the in-tree firmware: no variable set
	kf=${KOHAKU_FIRMWARE-}
	unset KOHAKU_FIRMWARE
	run "fw info with no KOHAKU_FIRMWARE_PATH: the build's firmware" 0 --map pool fw info
	has "... the build tree's image, beside build/kohaku" "running: $top/build/firmware/kohaku/pool.fw"
	[ -n "$kf" ] && export KOHAKU_FIRMWARE="$kf"
else
	n=$((n + 1)); echo "ok $n # SKIP run ping with the firmware: no build/firmware/pool.fw"
fi

# KOHAKU_LOG that names no level: logged at info as before, but said once
# (exported and unset by hand: an assignment before a function call may
# outlive the call in a POSIX shell)
KOHAKU_LOG=bogus
export KOHAKU_LOG
run "KOHAKU_LOG=bogus" 0 $SIM info
has "... warned" "kohaku: warning: KOHAKU_LOG='bogus' is not a log level (err, warn, info, debug; or 3, 4, 6, 7): logging at info"
if [ "$(grep -c "KOHAKU_LOG='bogus'" "$tmp/out")" -eq 1 ]; then ok "... once"; else nok "... not once"; sed 's/^/# /' "$tmp/out" | head; fi
KOHAKU_LOG=warn
run "KOHAKU_LOG=warn" 0 $SIM info
if grep -q "is not a log level" "$tmp/out"; then nok "... warned about a level"; else ok "... no warning"; fi
unset KOHAKU_LOG

# a UTF-8 byte order mark at the start of a description (Windows editors) is
# skipped; CRLF line ends too
printf '\357\273\277profile rtl\r\nxxx sax xxx\r\nmag nul nul\r\nxxx sax xxx\r\n' >"$tmp/bom.desc"
run "--map of a description with a UTF-8 BOM" 0 --map "$tmp/bom.desc" nodes
has "... its two nodes" "sim:bom.desc: 2 nodes"
printf 'profile rtl\nxxx sax xxx\n\357\273\277mag nul nul\nxxx sax xxx\n' >"$tmp/bom2.desc"
refused "a BOM past the start" "line 3: unknown token '\xef\xbb\xbfmag'" --map "$tmp/bom2.desc" nodes

# ---- clocks, clocks set, reset ----
run "clocks" 0 $SIM clocks
has "... mesh 0" "sim:saxpy: mesh 0"
if grep -Eq '^  profile +(low|mid|ship)$' "$tmp/out"; then ok "... its profile"; else nok "... no profile line"; sed 's/^/# /' "$tmp/out"; fi
if grep -Eq '^  clocks +noc [0-9]+ MHz, mat2x [0-9]+ MHz, vec [0-9]+ MHz, mag [0-9]+ MHz$' "$tmp/out"; then ok "... four MHz values"; else nok "... not four MHz values"; sed 's/^/# /' "$tmp/out"; fi
has "... the policy" "policy      auto"
has "... time at each profile" "time at     low "
has "... the recovery limit" "recover     at most "
run "clocks --json" 0 $SIM clocks --json
json_ok "... one object, meshes[0] with every field" 'len(d["meshes"]) == 1 and all(k in d["meshes"][0] for k in ("mesh", "policy", "profile", "mhz", "idle_profile", "run_profile", "fixed_profile", "idle_ms", "retunes", "time_s", "time_pct", "resets", "recoveries", "recover_max")) and sorted(d["meshes"][0]["mhz"]) == ["mag", "mat2x", "noc", "vec"] and d["meshes"][0]["profile"] in ("low", "mid", "ship") and d["meshes"][0]["mhz"]["noc"] in (100, 200, 300)'
run "clocks --mesh 0" 0 $SIM clocks --mesh 0
has "... mesh 0" "sim:saxpy: mesh 0"
run "clocks on quad (four meshes)" 0 --map quad clocks
if [ "$(grep -c '^sim:quad: mesh [0-3]$' "$tmp/out")" -eq 4 ]; then ok "... a block per mesh"; else nok "... not four blocks"; sed 's/^/# /' "$tmp/out"; fi
run "clocks set --mesh 0 --policy fixed --profile mid" 0 $SIM clocks set --mesh 0 --policy fixed --profile mid
has "... the policy fixed" "policy      fixed"
has "... the profile mid" "profile     mid"
has "... noc 200 MHz" "noc 200 MHz, mat2x 400 MHz, vec 200 MHz, mag 200 MHz"
run "clocks set --mesh 0 --profile ship --json (implies fixed)" 0 $SIM clocks set --mesh 0 --profile ship --json
json_ok "... fixed, ship, noc 300" 'd["meshes"][0]["policy"] == "fixed" and d["meshes"][0]["profile"] == "ship" and d["meshes"][0]["mhz"]["noc"] == 300 and not d["pending"]'
run "clocks set the auto knobs, --recover 0" 0 $SIM clocks set --mesh 0 --policy auto --idle mid --run ship --idle-ms 50 --recover 0
has "... idle mid after 50 ms" "idle        mid after 50 ms without a job"
has "... recovery off" "recover     off"
refused "clocks set with nothing to set" "nothing to set" $SIM clocks set --mesh 0
refused "clocks set without --mesh" "--mesh" $SIM clocks set --profile mid
refused "clocks set --profile turbo" "--profile: 'turbo'" $SIM clocks set --mesh 0 --profile turbo
refused "clocks set --idle default" "--idle: 'default'" $SIM clocks set --mesh 0 --idle default
refused "clocks set --policy none" "--policy: 'none'" $SIM clocks set --mesh 0 --policy none
refused "clocks set --idle-ms 0" "--idle-ms: '0'" $SIM clocks set --mesh 0 --idle-ms 0
refused "clocks set --idle-ms 3600001" "--idle-ms: '3600001' is too large" $SIM clocks set --mesh 0 --idle-ms 3600001
refused "clocks set --recover 101" "--recover: '101' is too large" $SIM clocks set --mesh 0 --recover 101
refused "clocks set --mesh 9" "--mesh: mesh 9 is not present" $SIM clocks set --mesh 9 --profile mid
refused "clocks --mesh 1 on a one-mesh card" "--mesh: mesh 1 is not present" $SIM clocks --mesh 1
run "reset --mesh 0" 0 $SIM reset --mesh 0
has "... its counts" "sim:saxpy: mesh 0 reset in "
has "... jobs aborted, hung marks, POOL units" "0 jobs aborted, 0 hung marks cleared, 0 POOL units running firmware again"
run "reset --json" 0 $SIM reset --json
json_ok "... one object, mesh 0 ok with its counts" 'd["ok"] and d["meshes"][0]["mesh"] == 0 and d["meshes"][0]["ok"] and d["meshes"][0]["aborted"] == 0 and d["meshes"][0]["hung_cleared"] == 0 and d["meshes"][0]["device_ns"] > 0'
run "reset on quad (every mesh)" 0 --map quad reset
if [ "$(grep -c '^sim:quad: mesh [0-3] reset in ' "$tmp/out")" -eq 4 ]; then ok "... each of the four meshes"; else nok "... not four resets"; sed 's/^/# /' "$tmp/out"; fi
refused "reset --mesh 9" "--mesh: mesh 9 is not present on this device (its meshes: 0)" $SIM reset --mesh 9
if [ -f build/firmware/pool.fw ]; then
	KOHAKU_FIRMWARE_PATH="$top/build/firmware" run "reset on the pool card" 0 --map pool reset --mesh 0
	has "... the POOL units boot the firmware again" "3 POOL units running firmware again"
else
	n=$((n + 1)); echo "ok $n # SKIP reset on the pool card: no build/firmware/pool.fw"
fi
refused "info --mesh 0" "info does not take --mesh" $SIM info --mesh 0
refused "clocks --profile mid" "clocks does not take --profile" $SIM clocks --profile mid
refused "reset --policy auto" "reset does not take --policy" $SIM reset --policy auto
refused "top --mesh 0" "top does not take --mesh" $SIM top --mesh 0
refused "clocks set --count 3" "clocks set does not take --count" $SIM clocks set --mesh 0 --profile mid --count 3
refused "clocks extra" "clocks: unexpected argument 'extra'" $SIM clocks extra

# ---- run-artifact: a hand-written saxpy artifact (docs/runtime.md "Artifacts") ----
# y = 2x + y on 64 floats at 0x18000000 (x) and 0x18001000 (y), SX (1,0)
printf '{"machine": "saxpy-2", "flits": [452314580759839752801930967682922259562878807375710770371640639094331015168], "steps": [["seed", 32], ["kick", 1, 0, 0, 1], ["await", 1, 0, 1]], "meta": {"unit": "SX"}}\n' >"$tmp/a.json"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<64f",*range(64))); open(sys.argv[2],"wb").write(struct.pack("<64f",*[1.0]*64))' "$tmp/x.bin" "$tmp/y.bin"
	run "run-artifact with --in and --out" 0 $SIM run-artifact "$tmp/a.json" --in "0x18000000=$tmp/x.bin" --in "0x18001000=$tmp/y.bin" --out "0x18001000:256=$tmp/y.out"
	has "... its rounds and status" "rounds 1/1 DONE, device time"
	if python3 -c 'import struct,sys; v=struct.unpack("<64f",open(sys.argv[1],"rb").read()); assert v == tuple(2.0*i+1 for i in range(64))' "$tmp/y.out" 2>/dev/null; then
		ok "... y = 2x + y read back through --out"
	else
		nok "... --out does not hold 2x + y"
	fi
	run "run-artifact --json" 0 $SIM run-artifact "$tmp/a.json" --json
	json_ok "... one object, every round DONE" 'd["ok"] and d["rounds_done"] == 1 and d["failed_round"] is None and d["status"] == "DONE" and d["arenas"][0]["addr"] == "0x18000000"'
else
	n=$((n + 1)); echo "ok $n # SKIP run-artifact: no python3"
fi
refused "run-artifact outside its arena" "operand 0: 0x18000000, 256 bytes, lies in no buffer" $SIM run-artifact "$tmp/a.json" --arena 0:0x18001000:4096
sed 's/"kick", 1, 0, 0, 1/"kick", 0, 0, 0, 1/' "$tmp/a.json" >"$tmp/b.json"
refused "run-artifact at no node" "step 1 (kick 0,0): no node at (0,0)" $SIM run-artifact "$tmp/b.json"
printf '{"steps": [],}' >"$tmp/c.json"
refused "run-artifact of bad JSON" "line 1, column 14: a trailing comma in an object" $SIM run-artifact "$tmp/c.json"
refused "run-artifact --out into a missing directory" "--out: cannot open '$tmp/none/y.out'" $SIM run-artifact "$tmp/a.json" --out "0x18001000:256=$tmp/none/y.out"
refused "run-artifact --in outside the arenas" "lies in no arena" $SIM run-artifact "$tmp/a.json" --in "0x10000000=$tmp/a.json"
refused "run-artifact with no file" "which artifact?" $SIM run-artifact
refused "run-artifact --n 5" "run-artifact does not take --n" $SIM run-artifact "$tmp/a.json" --n 5

# ---- what worked before still does ----
run "nodes --live --json" 0 $SIM nodes --live --json
run "--backend=sim --device=saxpy info" 0 --backend=sim --device=saxpy info
run "--help" 0 --help
has "... the usage" "usage: kohaku"

# ---- per-command help (usage.c's tables) ----
for c in list info examine nodes run run-artifact dxa fw validate top clocks reset sim help; do
	timeout 20 "$K" help "$c" >"$tmp/out" 2>&1 </dev/null
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q "^  $c" "$tmp/out" && ! grep -q "^commands:" "$tmp/out"; then
		ok "help $c: exit 0, its own text alone"
	else
		nok "help $c: exit $rc"; sed 's/^/# /' "$tmp/out" | tail -n 10
	fi
done
run "help run" 0 help run
has "... every run demo" "  run cpu-demo [--n N]"
has "... and the POOL kernels" "  run KERNEL [--n N]"
run "run saxpy --help" 0 $SIM run saxpy --help
has "... saxpy's text" "  run saxpy [--n N] [--a A]"
if grep -q "mat-demo\|^commands:" "$tmp/out"; then nok "... not saxpy's alone"; sed 's/^/# /' "$tmp/out"; else ok "... saxpy's alone"; fi
run "run crc32 --help (a POOL kernel)" 0 $SIM run crc32 --help
has "... run KERNEL's text" "  run KERNEL [--n N]"
run "help clocks set" 0 help clocks set
has "... clocks set's text" "  clocks set --mesh M"
has "... and the options it takes" "  --policy auto|fixed"
run "nodes --n 5 --help: help before the options are checked" 0 $SIM nodes --n 5 --help
has "... nodes' text" "  nodes [--live]"
run "help --help" 0 help --help
has "... help's own text" "  help [COMMAND [SUB]]"
refused "help frob" "help: unknown command 'frob'" help frob
refused "frob --help" "unknown command 'frob'" frob --help
refused "help run saxpy extra" "unexpected argument 'extra'" help run saxpy extra

echo "1..$n"
exit $failed
