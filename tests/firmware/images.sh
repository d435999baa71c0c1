#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The firmware images against the packer's checker (khfw-pack --check, the
# driver's checks of docs/spec/firmware-image.md): pool.fw, the two
# assembly test firmwares and rogue.fw pass, every bad image of khfw-mkbad
# is refused for its own reason, and a repack with -V carries the
# version.  TAP.
#
#   tests/firmware/images.sh [KHFW_PACK]   (default build/firmware/khfw-pack)
#
# The images are build/firmware's (`make firmware`); without them, and
# without the riscv toolchain that builds them, it skips; with the
# toolchain there and no images, it fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
pack=${1:-build/firmware/khfw-pack}
dir=build/firmware
n=0
bad=0

ok() { # cond-status description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		bad=$((bad + 1))
	fi
}

if [ ! -f "$dir/pool.fw" ]; then
	if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1; then
		echo "not ok 1 - $dir/pool.fw missing although the toolchain is installed: make firmware"
		echo "1..1"
		exit 1
	fi
	echo "ok 1 # SKIP no riscv64-unknown-elf toolchain: no firmware images (make deps)"
	echo "1..1"
	exit 0
fi
if [ ! -x "$pack" ]; then
	echo "not ok 1 - $pack not built"
	echo "1..1"
	exit 1
fi

# image  expected-exit  expected text in the verdict
while read -r img want text; do
	out=$("$pack" --check "$dir/$img" 2>&1)
	st=$?
	echo "# $out"
	[ "$st" -eq "$want" ] && echo "$out" | grep -q -- "$text"
	ok $? "$img: $text"
done <<'LIST'
pool.fw 0 : ok
test/never-ready.fw 0 : ok
test/trap-boot.fw 0 : ok
test/rogue.fw 0 : ok
test/version-mismatch.fw 0 : ok
test/truncated.fw 1 refused: truncated
test/bad-magic.fw 1 refused: magic
test/bad-crc.fw 1 refused: crc32
test/bad-section-crc.fw 1 refused: section 0: crc32
test/section-oob.fw 1 past the memory
test/overlap.fw 1 overlap
test/entry-outside.fw 1 refused: entry
test/api-major.fw 1 (EPROTO)
test/oversize.fw 1 (E2BIG)
test/mailbox.fw 1 boot mailbox
LIST

# --dump prints the header and the sections
out=$("$pack" --dump "$dir/pool.fw")
echo "$out" | grep -q '^name *"kohaku-pool"' &&
	echo "$out" | grep -q 'IRAM *DATA dest 0x00000'
ok $? "--dump shows the name and the IRAM section at 0"

# a repack carries -V into the header, and stays valid
tmp=$(mktemp)
"$pack" -V 2.3.4 -n repack -o "$tmp" "$dir/pool.elf" &&
	"$pack" --dump "$tmp" | grep -q 'fw_version *2.3.4 (0x020304)'
ok $? "-V 2.3.4 sets fw_version 0x020304"
"$pack" -V 2.3 -o "$tmp" "$dir/pool.elf" 2>/dev/null
[ $? -eq 2 ]
ok $? "-V 2.3 is refused"
"$pack" -o "$tmp" "$dir/pool.fw" 2>/dev/null
[ $? -ne 0 ]
ok $? "an image is not an ELF to pack"
rm -f "$tmp"

echo "1..$n"
[ "$bad" -eq 0 ]
