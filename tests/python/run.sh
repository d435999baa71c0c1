#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# tests/python/run.sh [PYTHON]: the Python package's tests,
# `PYTHON -m unittest discover -s tests/python -v`, printed as TAP
# (unittest-tap.awk) for tests/run-all.sh and the VM; exits with
# unittest's status.  PYTHON defaults to Debian's /usr/bin/python3.  The
# environment says which library and which cards (khtest.py):
# KOHAKU_LIBRARY, KOHAKU_BACKEND, KOHAKU_TEST_CARDS, KOHAKU_TEST_FW,
# KOHAKU_FIRMWARE_PATH, KOHAKU_TEST_NO_NUMPY.
here=$(cd "$(dirname "$0")" && pwd)
py=${1:-/usr/bin/python3}
out=${TMPDIR:-/tmp}/kh-pytest.$$
PYTHONDONTWRITEBYTECODE=1 "$py" -m unittest discover -s "$here" -v >"$out" 2>&1
rc=$?
awk -f "$here/unittest-tap.awk" "$out"
rm -f "$out"
exit $rc
