#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-cdi.sh: `kohaku cdi` (a Container Device Interface spec of
# kohaku.ko's nodes) on a fake sysfs tree (KOHAKU_TEST_SYSFS, which exists
# for tests), its output checked against the CDI schema's required fields
# by scripts/cdi-validate.py (python3 alone: no network, no pip).  TAP; a
# suite of `make test` (tests/run-all.sh).  The tree:
#   accel0  a kohaku_sim.0 platform device bound to kohaku
#   accel1  a PCI function bound to kohaku
#   accel2  a PCI function bound to another driver (ivpu): left out
#   renderD128  a kohaku render node (Linux before 6.2), card0 beside it
#   renderD129  another driver's render node: left out
# Checked: the spec validates; devices 0, 1, 128 and all, each node's
# path, type, major, minor, fileMode 0660 and (when this machine has the
# group kohaku) its gid; -o FILE the same bytes as stdout; -o into a
# missing directory and -o /dev/full exit 2, an existing -o FILE left as
# it was; a tree with no kohaku node (only another driver's, or no
# class at all) exits 3 saying so and writes nothing; help cdi; an
# unexpected argument exit 2.  The VM runs it on the real nodes
# (tests/vm/guest-init.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
K=${KOHAKU_CLI:-$top/build/kohaku}
V=$top/scripts/cdi-validate.py
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
finish() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit $?
}
if [ ! -x "$K" ]; then
	make -C "$top" --no-print-directory userspace >/dev/null 2>&1
fi
[ -x "$K" ] || { notok "the CLI is built ($K)"; finish; }
command -v python3 >/dev/null || { notok "python3 for the spec's check"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ---- a fake sysfs ----
S=$tmp/sys
# node CLASS NAME MAJ:MIN DEVNAME PARENT-DIR DRIVER-DIR
node() {
	d=$S/devices/$5/$1/$2
	mkdir -p "$d" "$S/class/$1" "$S/$6"
	echo "$3" >"$d/dev"
	printf 'MAJOR=%s\nMINOR=%s\nDEVNAME=%s\n' "${3%%:*}" "${3#*:}" "$4" >"$d/uevent"
	ln -sfn "$S/devices/$5" "$d/device"
	ln -sfn "$S/$6" "$S/devices/$5/driver"
	ln -sfn "$d" "$S/class/$1/$2"
}
node accel accel0 261:0 accel/accel0 platform/kohaku_sim.0 bus/platform/drivers/kohaku
node accel accel1 261:1 accel/accel1 pci0000:00/0000:01:00.0 bus/pci/drivers/kohaku
node accel accel2 261:2 accel/accel2 pci0000:00/0000:02:00.0 bus/pci/drivers/intel_vpu
node drm renderD128 226:128 dri/renderD128 pci0000:00/0000:03:00.0 bus/pci/drivers/kohaku
node drm card0 226:0 dri/card0 pci0000:00/0000:03:00.0 bus/pci/drivers/kohaku
node drm renderD129 226:129 dri/renderD129 pci0000:00/0000:04:00.0 bus/pci/drivers/i915

gid=$(getent group kohaku 2>/dev/null | cut -d: -f3)

out=$tmp/spec.json
KOHAKU_TEST_SYSFS=$S "$K" cdi >"$out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -s "$out" ]; then
	ok "cdi on the fake tree: exit 0, $(wc -c <"$out") bytes"
else
	notok "cdi on the fake tree: exit $rc"
	sed 's/^/# /' "$tmp/err"
fi
r=$(python3 "$V" "$out" 2>&1)
if [ "$r" = ok ]; then
	ok "the spec has the CDI schema's required fields and types, names and kind (cdi-validate.py)"
else
	notok "the spec against the CDI schema: $r"
	sed 's/^/# /' "$out"
fi
# the expected devices, node by node
r=$(GID="$gid" python3 - "$out" <<'EOF' 2>&1
import json, os, sys
s = json.load(open(sys.argv[1]))
gid = os.environ.get("GID") or None
want = {"0": ("/dev/accel/accel0", 261, 0), "1": ("/dev/accel/accel1", 261, 1),
        "128": ("/dev/dri/renderD128", 226, 128)}
errs = []
if s.get("cdiVersion") != "0.5.0":
    errs.append("cdiVersion %r" % s.get("cdiVersion"))
if s.get("kind") != "kohaku.io/card":
    errs.append("kind %r" % s.get("kind"))
devs = {d["name"]: d["containerEdits"].get("deviceNodes", []) for d in s["devices"]}
if sorted(devs) != sorted(list(want) + ["all"]):
    errs.append("device names %r" % sorted(devs))
def node_ok(name, nd, w):
    e = {"path": w[0], "type": "c", "major": w[1], "minor": w[2], "fileMode": 0o660}
    if gid is not None:
        e["gid"] = int(gid)
    if nd != e:
        errs.append("%s: %r, not %r" % (name, nd, e))
for name, w in want.items():
    nodes = devs.get(name, [])
    if len(nodes) != 1:
        errs.append("%s: %d nodes" % (name, len(nodes)))
        continue
    node_ok(name, nodes[0], w)
allp = [x["path"] for x in devs.get("all", [])]
if allp != [want[k][0] for k in ("0", "1", "128")]:
    errs.append("all: %r" % allp)
print("\n".join(errs) or "ok")
EOF
)
if [ "$r" = ok ]; then
	ok "devices 0, 1 (accel), 128 (render node) and all; other drivers' nodes and card0 left out; type c, major:minor, fileMode 0660${gid:+, gid $gid (group kohaku)}"
else
	notok "the devices: $r"
fi

# -o FILE: the same bytes, written whole
KOHAKU_TEST_SYSFS=$S "$K" cdi -o "$tmp/kohaku.json" >"$tmp/o.out" 2>"$tmp/o.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$out" "$tmp/kohaku.json" && [ ! -s "$tmp/o.out" ] &&
	grep -q "kohaku.json" "$tmp/o.err" && [ -z "$(ls "$tmp" | grep tmp)" ]; then
	ok "cdi -o FILE: the same spec, nothing on stdout, no temporary file left, stderr says what was written"
else
	notok "cdi -o FILE: exit $rc, $(cat "$tmp/o.err")"
fi
# write errors fail the command; an existing file is left as it was
echo keep >"$tmp/old.json"
chmod 0555 "$tmp" 2>/dev/null
if [ "$(id -u)" != 0 ]; then
	KOHAKU_TEST_SYSFS=$S "$K" cdi -o "$tmp/old.json" >/dev/null 2>&1
	rc=$?
	chmod 0755 "$tmp"
	if [ $rc -eq 2 ] && [ "$(cat "$tmp/old.json")" = keep ]; then
		ok "cdi -o FILE in a directory it cannot write: exit 2, FILE left as it was"
	else
		notok "cdi -o FILE in a read-only directory: exit $rc"
	fi
else
	chmod 0755 "$tmp"
fi
KOHAKU_TEST_SYSFS=$S "$K" cdi -o "$tmp/no/such/dir/kohaku.json" >/dev/null 2>"$tmp/e1"
rc=$?
if [ $rc -eq 2 ] && grep -q "no/such/dir/kohaku.json" "$tmp/e1"; then
	ok "cdi -o into a missing directory: exit 2 naming it ($(tail -n 1 "$tmp/e1"))"
else
	notok "cdi -o into a missing directory: exit $rc, $(cat "$tmp/e1")"
fi
if [ -w /dev/full ]; then
	KOHAKU_TEST_SYSFS=$S "$K" cdi -o /dev/full >/dev/null 2>"$tmp/e2"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "/dev/full" "$tmp/e2" && [ -c /dev/full ]; then
		ok "cdi -o /dev/full: exit 2 naming the write error ($(tail -n 1 "$tmp/e2")), the device left a device"
	else
		notok "cdi -o /dev/full: exit $rc, $(cat "$tmp/e2")"
	fi
	KOHAKU_TEST_SYSFS=$S "$K" cdi >/dev/full 2>"$tmp/e3"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "writing the output failed" "$tmp/e3"; then
		ok "cdi >/dev/full: exit 2, the write error said"
	else
		notok "cdi >/dev/full: exit $rc, $(cat "$tmp/e3")"
	fi
fi

# no kohaku node: exit 3, why, nothing written
E=$tmp/sys-other
mkdir -p "$E/class/accel" "$E/devices/x/accel/accel0" "$E/bus/pci/drivers/intel_vpu"
echo 261:0 >"$E/devices/x/accel/accel0/dev"
ln -s "$E/devices/x" "$E/devices/x/accel/accel0/device"
ln -s "$E/bus/pci/drivers/intel_vpu" "$E/devices/x/driver"
ln -s "$E/devices/x/accel/accel0" "$E/class/accel/accel0"
echo keep >"$tmp/old.json"
KOHAKU_TEST_SYSFS=$E "$K" cdi -o "$tmp/old.json" >"$tmp/n.out" 2>"$tmp/n.err"
rc=$?
if [ $rc -eq 3 ] && grep -q "no kohaku device" "$tmp/n.err" &&
	grep -q "other drivers" "$tmp/n.err" && [ "$(cat "$tmp/old.json")" = keep ] &&
	[ ! -s "$tmp/n.out" ]; then
	ok "only another driver's node: exit 3, 'no kohaku device' and why, -o FILE left as it was"
else
	notok "only another driver's node: exit $rc, $(cat "$tmp/n.err")"
fi
KOHAKU_TEST_SYSFS=$tmp/nothing "$K" cdi >"$tmp/n.out" 2>"$tmp/n.err"
rc=$?
if [ $rc -eq 3 ] && grep -q "modprobe kohaku" "$tmp/n.err" && [ ! -s "$tmp/n.out" ]; then
	ok "no accel or drm class: exit 3, nothing on stdout ($(tail -n 1 "$tmp/n.err"))"
else
	notok "no accel or drm class: exit $rc, $(cat "$tmp/n.err")"
fi
KOHAKU_TEST_SYSFS=$tmp/nothing "$K" --json cdi >"$tmp/n.out" 2>/dev/null
rc=$?
if [ $rc -eq 3 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["exit"] == 3 and "no kohaku device" in j["error"]' "$tmp/n.out" 2>/dev/null; then
	ok "--json cdi with no device: the error object, exit 3"
else
	notok "--json cdi with no device: exit $rc, $(cat "$tmp/n.out")"
fi

# the usage
if "$K" help cdi 2>&1 | grep -q "kohaku.io/card" && "$K" cdi --help 2>&1 | grep -q "cdi \[-o FILE\]" &&
	"$K" --help | grep -q "^  cdi "; then
	ok "help cdi, cdi --help and --help describe it"
else
	notok "help cdi, cdi --help and --help describe it"
fi
"$K" cdi extra >/dev/null 2>"$tmp/u.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "unexpected argument 'extra'" "$tmp/u.err"; then
	ok "cdi extra: exit 2, the argument named"
else
	notok "cdi extra: exit $rc, $(cat "$tmp/u.err")"
fi
"$K" cdi --n 5 >/dev/null 2>"$tmp/u.err"
rc=$?
if [ $rc -eq 2 ]; then
	ok "cdi --n 5: refused, exit 2"
else
	notok "cdi --n 5: exit $rc"
fi
finish
