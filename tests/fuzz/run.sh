#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# run.sh runs [N] | seconds N: every libFuzzer target of build/fuzz (make
# fuzz) for N executions (without N: each target's own count, make test's,
# tests/run-all.sh) or N seconds each (make fuzz-run FUZZ_SECONDS=N), from
# its seed corpus, after replaying every
# saved crash input of tests/fuzz/regress/<target>/ (each a regression
# test).  TAP, one line per target and one per saved input; a crash, a
# leak, a sanitizer report or a broken promise of the code is a failure,
# and its input is in build/fuzz/ (crash-*, leak-*): copy it to
# tests/fuzz/regress/<target>/ with the fix.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
mode=${1:-runs}
amount=${2:-}
# make test's executions per target: some seconds each on this machine kind
# (fuzz_ioctl opens a card and runs up to 64 calls per input)
runs_of() {
	case $1 in
	fuzz_fw_image) echo 200000 ;;
	fuzz_desc) echo 50000 ;;
	fuzz_knobs) echo 20000 ;;
	fuzz_xdma) echo 5000 ;;
	fuzz_ioctl) echo 3000 ;;
	fuzz_artifact) echo 3000 ;;
	esac
}
fz=build/fuzz
n=0
bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); bad=1; echo "not ok $n - $1"; }

# seed corpora: build/fuzz/corpus/<target>/, kept between runs
seed() { # target dir
	mkdir -p "$2"
	case $1 in
	fuzz_fw_image)
		cp build/firmware/*.fw build/firmware/test/*.fw "$2/" 2>/dev/null
		printf 'kw1="KHFW"\n' >"$fz/fuzz_fw_image.dict" ;;
	fuzz_desc)
		FUZZ_WRITE_SEEDS="$2" "$fz/fuzz_desc" >/dev/null 2>&1
		cp tests/model/maps/*.txt "$2/" ;;
	fuzz_knobs)
		cp tests/fuzz/seeds/knobs/* "$2/" ;;
	fuzz_xdma)
		FUZZ_WRITE_SEEDS="$2" "$fz/fuzz_xdma" >/dev/null 2>&1 ;;
	fuzz_ioctl)
		cp tests/fuzz/seeds/ioctl/* "$2/" ;;
	fuzz_artifact)
		cp tests/fuzz/seeds/artifact/* "$2/" ;;
	esac
}

for t in fuzz_fw_image fuzz_desc fuzz_knobs fuzz_xdma fuzz_ioctl fuzz_artifact; do
	b=$fz/$t
	if [ ! -x "$b" ]; then
		nok "$t is built (make fuzz)"
		continue
	fi
	# the saved inputs of fixed crashes, each replayed
	for r in tests/fuzz/regress/"$t"/*; do
		[ -f "$r" ] || continue
		if "$b" "$r" >"$fz/$t.regress.log" 2>&1; then
			ok "$t: regression input $(basename "$r")"
		else
			nok "$t: regression input $(basename "$r") crashes again"
			tail -n 20 "$fz/$t.regress.log" | sed 's/^/# /'
		fi
	done
	corpus=$fz/corpus/$t
	seed "$t" "$corpus"
	dict=
	[ -f "$fz/$t.dict" ] && dict=$t.dict
	if [ "$mode" = seconds ]; then
		limit=-max_total_time=$amount
	else
		limit=-runs=${amount:-$(runs_of "$t")}
	fi
	# a sequence of calls may take more bytes than the seeds hold
	len=
	[ "$t" = fuzz_ioctl ] && len=-max_len=2048
	if (cd "$fz" && KOHAKU_FIRMWARE=none "./$t" "$limit" ${dict:+"-dict=$dict"} \
		${len:+"$len"} -print_final_stats=1 \
		"corpus/$t") >"$fz/$t.log" 2>&1; then
		ok "$t: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$fz/$t.log")s, $(grep -o 'cov: [0-9]*' "$fz/$t.log" | tail -n 1), corpus $(ls "$corpus" | wc -l)"
	else
		nok "$t found a crash (its input: $(ls "$fz"/crash-* "$fz"/leak-* 2>/dev/null | tr '\n' ' '))"
		tail -n 40 "$fz/$t.log" | sed 's/^/# /'
	fi
done
echo "1..$n"
exit $bad
