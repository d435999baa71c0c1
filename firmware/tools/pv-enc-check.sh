#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# pv-enc-check.sh CROSS OBJ: the words the assembler made of pv.h's
# intrinsics in firmware/test/pv-enc.c (between pv_enc_begin and
# pv_enc_end) against the table pv_enc_want the uapi's KH_PV_ENC_* built,
# word for word.  Exit 1 and the first difference when they disagree.
set -eu
cross=$1
obj=$2
tmp=${obj%.o}
sym() {
	"${cross}nm" -S "$obj" | awk -v s="$1" '$NF == s { print $1, ($2 ~ /^[0-9a-f]+$/ && NF == 4 ? $2 : 0) }'
}
words() {	# FILE OFFSET BYTES: one word a line
	od -An -tx4 -v -j "$2" -N "$3" "$1" | tr -s ' \n' '\n\n' | sed '/^$/d'
}
"${cross}objcopy" -O binary -j .text "$obj" "$tmp.text"
"${cross}objcopy" -O binary -j .rodata "$obj" "$tmp.rodata"
set -- $(sym pv_enc_begin)
begin=$((0x$1))
set -- $(sym pv_enc_end)
end=$((0x$1))
set -- $(sym pv_enc_want)
want=$((0x$1))
wsize=$((0x$2))
words "$tmp.text" "$begin" $((end - begin)) > "$tmp.got"
words "$tmp.rodata" "$want" "$wsize" > "$tmp.want"
if ! cmp -s "$tmp.got" "$tmp.want"; then
	echo "pv.h: the intrinsics encode differently from kh_pool_vec.h (got, want):" >&2
	paste "$tmp.got" "$tmp.want" | awk '$1 != $2 { print NR - 1 ": " $0; exit }' >&2
	exit 1
fi
echo "pv.h: $(wc -l < "$tmp.got") intrinsics encode as kh_pool_vec.h says"
