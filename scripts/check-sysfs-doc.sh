#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-sysfs-doc.sh: the sysfs ABI documents (Documentation/ABI/testing/
# sysfs-driver-kohaku*) in the kernel's format, read on the host.  TAP; a
# suite of `make test` (tests/run-all.sh).  The VM checks the documents
# against the files the driver shows (tests/vm/guest-init.sh, abi_check),
# on simulated cards, whose paths are /sys/bus/platform/..., and the PCI
# VM suite a kohaku-pcie card's files against the /sys/bus/pci/ What:
# lines (tests/vm/guest-pci.sh; a saxpy card, so no fw_* file); here every
# /sys/bus/pci/ What: must have the same path under the platform device
# beside it in the same entry (the driver adds one attribute tree to either
# device: driver/linux/kohaku_sysfs.c).
#
#   - every entry has What:, Date:, KernelVersion:, Contact: and a
#     Description: with text, in that order (Documentation/ABI/README);
#   - no What: is documented twice;
#   - every PCI path has its platform twin in its entry, and the reverse
#     for paths below a card's kohaku/ directory.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=0
bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); bad=1; echo "not ok $n - $1"; }

for f in Documentation/ABI/testing/sysfs-driver-kohaku*; do
	out=$(awk -v f="$f" '
	function flush() {
		if (!nw)
			return
		if (!date || !kver || !contact || !desc)
			printf "%s: entry of %s lacks %s%s%s%s\n", f, what[1],
				date ? "" : "Date: ", kver ? "" : "KernelVersion: ",
				contact ? "" : "Contact: ", desc ? "" : "Description text"
		for (i = 1; i <= nw; i++) {
			p = what[i]
			if (p in seen)
				printf "%s: %s documented twice\n", f, p
			seen[p] = 1
			if (p ~ /^\/sys\/bus\/pci\/devices\/<bdf>\//) {
				t = p
				sub(/^\/sys\/bus\/pci\/devices\/<bdf>\//,
				    "/sys/bus/platform/devices/kohaku_sim.<N>/", t)
				if (!(t in here))
					printf "%s: %s has no platform twin in its entry\n", f, p
			}
			if (p ~ /^\/sys\/bus\/platform\/devices\/kohaku_sim\.<N>\/kohaku/) {
				t = p
				sub(/^\/sys\/bus\/platform\/devices\/kohaku_sim\.<N>\//,
				    "/sys/bus/pci/devices/<bdf>/", t)
				if (!(t in here))
					printf "%s: %s has no PCI twin in its entry\n", f, p
			}
		}
		nw = 0; date = kver = contact = desc = 0; indesc = 0
		delete here
	}
	/^What:/ {
		if (date || kver || contact || indesc)
			flush()
		what[++nw] = $2
		here[$2] = 1
		next
	}
	/^Date:/ { if (!nw || kver || contact) printf "%s:%d: Date: out of order\n", f, NR; date = 1; next }
	/^KernelVersion:/ { if (!date) printf "%s:%d: KernelVersion: before Date:\n", f, NR; kver = 1; next }
	/^Contact:/ { if (!kver) printf "%s:%d: Contact: before KernelVersion:\n", f, NR; contact = 1; next }
	/^Description:/ { if (!contact) printf "%s:%d: Description: before Contact:\n", f, NR; indesc = 1; next }
	indesc && /[^[:space:]]/ { desc = 1 }
	END { flush() }' "$f")
	entries=$(grep -c '^Date:' "$f")
	whats=$(grep -c '^What:' "$f")
	if [ -z "$out" ]; then
		ok "$f: $entries entries, $whats What: lines, each complete and in order"
	else
		nok "$f: the kernel's ABI format"
		echo "$out" | sed 's/^/# /' | head -n 20
	fi
done
pci=$(grep -c '^What:[[:space:]]*/sys/bus/pci/' Documentation/ABI/testing/sysfs-driver-kohaku)
if [ "$pci" -gt 0 ]; then
	ok "PCI paths: $pci, each the twin of a platform path the VM checks"
else
	nok "PCI paths are documented"
fi
echo "1..$n"
exit $bad
