# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# unittest's verbose output (python3 -m unittest -v) as TAP, the format
# tests/run-all.sh and the VM's guest-init.sh count (one "ok" or "not ok"
# line per test).  Skipped tests are "ok ... # SKIP reason", as the
# kselftest suites print theirs; an expected failure is ok, an unexpected
# success not ok.  The failure reports after the results become "#"
# lines, and a mismatch between the results read and unittest's own
# "Ran N tests" is one more "not ok" line (output that broke a result
# line apart).  busybox awk runs it too (the VM).
function emit(res, rest) {
	n++
	if (res == "ok") {
		print "ok " n " - " name rest
	} else {
		print "not ok " n " - " name rest
		nbad++
	}
}
{ sub(/\r$/, "") }
# "test_x (mod.Class.test_x)" starts a test (its docstring's first line
# may follow on the next line, before the result)
match($0, /^[A-Za-z_][A-Za-z0-9_]* \([A-Za-z0-9_]+\.[A-Za-z0-9_.]+\)/) {
	s = substr($0, RSTART, RLENGTH)
	i = index(s, "(")
	name = substr(s, i + 1, length(s) - i - 1)
}
/ \.\.\. ok$/ { emit("ok", ""); next }
/ \.\.\. FAIL$/ { emit("not ok", " (FAIL)"); next }
/ \.\.\. ERROR$/ { emit("not ok", " (ERROR)"); next }
/ \.\.\. expected failure$/ { emit("ok", " (expected failure)"); next }
/ \.\.\. unexpected success$/ { emit("not ok", " (unexpected success)"); next }
/ \.\.\. skipped / {
	r = $0
	sub(/.* \.\.\. skipped /, "", r)
	emit("ok", " # SKIP " r)
	next
}
/^Ran [0-9]+ tests? in / { ran = $2; print "# " $0; next }
/^(OK|FAILED)/ { print "# " $0; next }
/^(=+|-+)$/ { inreport = 1 }
inreport { print "# " $0; next }
END {
	if (ran != "" && ran + 0 != n) {
		n++
		print "not ok " n " - unittest ran " ran " tests, " (n - 1) " results were read"
	}
	if (ran == "") {
		n++
		print "not ok " n " - unittest did not finish (no \"Ran N tests\" line)"
	}
	print "1.." n
}
