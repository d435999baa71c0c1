#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-kernel-doc.sh: the ABI and the seams between the layers are
# documented in kernel-doc, and the kernel's own tool finds nothing wrong.
#
# The files (FILES below) are where one layer meets another: the ioctl ABI
# (every struct and every field: it is what applications are built against),
# the register-access seam, the driver core's interface to its hosts, and the
# device model's public, unit and seam-adapter interfaces.  For each file it
# runs the kernel's scripts/kernel-doc as the kernel's own `make W=1` does
# (`kernel-doc -none -Wall FILE`: a member or parameter not described, a
# missing Return:, a doc naming something else than what follows it, ...)
# and, since kernel-doc only checks the comments that exist, also lists
# what FILE declares (scripts/c-decls.pl): every struct, union and enum it
# defines, every typedef and every function not static in a .c must have a
# kernel-doc comment in one of FILES (a header's prototype may be
# documented at its definition: ksim_hw.h's functions are, in ksim_hw.c).
#
# Output is TAP, one line per file, the warnings as "#" lines, for
# tests/run-all.sh.  kernel-doc comes with Debian's kernel build scripts
# (package linux-kbuild-6.12.*, installed with linux-headers-6.12-amd64 by
# scripts/install-deps.sh); KERNEL_DOC=path overrides where it is looked for.
# Without it the check fails rather than pass unchecked.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

FILES="uapi/drm/kohaku_accel.h
hwif/kh_hw.h
driver/core/kh_core.h
sim-backend/ksim.h
sim-backend/ksim_unit.h
sim-backend/ksim_hw.h
sim-backend/ksim_hw.c
sim-backend/xdma/host.h"

find_kernel_doc() {
	if [ -n "${KERNEL_DOC:-}" ]; then
		echo "$KERNEL_DOC"
		return
	fi
	if command -v kernel-doc >/dev/null 2>&1; then
		command -v kernel-doc
		return
	fi
	# the kbuild scripts of 6.12 (the kernel the modules are built for),
	# then of any kernel, the newest of each
	for pat in '/usr/lib/linux-kbuild-6.12*' '/usr/src/linux-headers-6.12*' \
		   '/usr/lib/linux-kbuild-*' '/usr/src/linux-headers-*'; do
		# the paths are Debian's, without blanks
		# shellcheck disable=SC2086,SC2012
		for kd in $(ls -d $pat/scripts/kernel-doc 2>/dev/null | sort -V -r); do
			[ -x "$kd" ] && { echo "$kd"; return; }
		done
	done
}

kd=$(find_kernel_doc)
if [ -z "$kd" ] || [ ! -x "$kd" ]; then
	echo "not ok 1 - kernel-doc found"
	echo "# no scripts/kernel-doc${KERNEL_DOC:+ at $KERNEL_DOC}: install linux-headers-6.12-amd64 (it brings linux-kbuild-6.12.*, which ships it), e.g. scripts/install-deps.sh all as root"
	echo "1..1"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# what FILES document: "struct x", "union x", "enum x", "typedef x", "func x"
# (the -rst output of kernel-doc, in the Sphinx 1.x and 3.x dialects)
# shellcheck disable=SC2086
"$kd" -rst -no-doc-sections $FILES 2>/dev/null | perl -ne '
	next unless /^\.\. c:(\w+):: (.*)$/;
	my ($dir, $what) = ($1, $2);
	if ($dir eq "function" || $dir eq "macro") {
		my ($n) = $what =~ /(\w+)\s*\(/;
		($n) = $what =~ /(\w+)\s*$/ unless defined $n;
		print "func $n\n" if defined $n;
	} elsif ($dir eq "type") {
		if ($what =~ /^(struct|union|enum|typedef)\s+(\w+)/) {
			print "$1 $2\n";
		} elsif ($what =~ /^(\w+)$/) {
			print "typedef $1\n";
		}
	} elsif ($dir =~ /^(struct|union|enum)$/) {
		my ($n) = $what =~ /(\w+)\s*$/;
		print "$dir $n\n";
	}
' | sort -u >"$tmp/documented"

n=0
fail=0
for f in $FILES; do
	n=$((n + 1))
	if [ ! -f "$f" ]; then
		echo "not ok $n - $f"
		echo "# $f: no such file"
		fail=$((fail + 1))
		continue
	fi
	"$kd" -none -Wall "$f" >/dev/null 2>"$tmp/warn"
	# what $f declares that needs a comment, not documented anywhere in FILES
	perl scripts/c-decls.pl "$f" | perl -e '
		my $file = shift;
		open(my $doc, "<", shift) or die;
		my %doc = map { chomp; $_ => 1 } <$doc>;
		my $header = $file =~ /\.h$/;
		while (<STDIN>) {
			my ($where, $kind, $name, $extra) = split;
			$extra //= "";
			my $key;
			if ($kind =~ /^(struct|union|enum)$/) {
				$key = "$kind $name";
			} elsif ($kind eq "typedef") {
				next if $extra eq "alias";
				$key = "typedef $name";
			} elsif ($kind eq "proto" || $kind eq "func") {
				next if $extra eq "static" && !$header;
				$key = "func $name";
			} else {
				next;
			}
			next if $doc{$key};
			my $what = $key =~ /^func (.*)/ ? "$1()" : $key;
			print "$where: warning: no kernel-doc for $what\n";
		}
	' "$f" "$tmp/documented" >"$tmp/undoc"
	cat "$tmp/undoc" >>"$tmp/warn"
	if [ -s "$tmp/warn" ]; then
		echo "not ok $n - $f: kernel-doc -none -Wall, and every declaration documented"
		sed 's/^/# /' "$tmp/warn"
		fail=$((fail + 1))
	else
		echo "ok $n - $f: kernel-doc -none -Wall, and every declaration documented"
	fi
done
echo "# kernel-doc: $kd"
echo "1..$n"
[ "$fail" -eq 0 ]
