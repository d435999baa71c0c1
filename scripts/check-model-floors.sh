#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-model-floors.sh [TREE]: the device model is a tree of floors, not a
# knot (docs/model.md "Where things live", "Wiring").
#
#   lib <- noc <- units <- mesh <- xdma <- obs <- card <- the faces
#
# Every `#include "..."` of every file under sim-backend/ is resolved the
# way the compiler resolves it: the including file's own directory first,
# then the -iquote folders of its folder's path in layers.mk (a header
# against its own folder's path: a folder's headers live on its floor,
# whoever includes them).  An include found on no path is looked up in
# every model folder, to name what it reaches for.  It fails, naming the
# file and the line, for
#
#   - an include of a higher floor, or of a sibling: units/'s subfolders
#     (one unit each) see units/ and the floors below, never one another,
#     and units/ itself never sees them; lib/ .. obs/ never see card/;
#   - an include of a face reserved to the card: ksim.h, ksim_int.h and
#     ksim_hw.h are the card's faces, which card/ implements and includes
#     (a lower floor including one is an upcall in disguise); every floor
#     may include ksim_plat.h and ksim_unit.h, which in turn include no
#     model folder;
#   - a cycle between files of different folders, and two folders that
#     include each other;
#   - two model headers of one name (the bare-name includes would depend
#     on the path's order);
#   - a model folder whose path in layers.mk holds a folder above its floor
#     (the build is what enforces the floors; this keeps layers.mk honest).
#
# Then it checks itself: on scratch copies of the tree, each with one
# violation put in (an upward include, a reserved face, a unit's header in
# another unit or in the units' base, a shared face reaching into a
# folder, a cycle across folders, a widened path), it must fail and name
# the file and line.  TREE (default: the top of this tree) is what is checked; the
# self-test runs only on the default tree.
#
# Output is TAP, for tests/run-all.sh.  Needs make and perl.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$top}
tree=$(cd "$tree" && pwd) || exit 1

# the model's folders, lowest first; units/<sub> sit on units' floor
FLOORS="lib noc units mesh xdma obs card"

# A tree's include paths: "DIR: PATH..." for every model folder with
# sources, from its layers.mk (make expands the variables).
paths() { # tree
	dirs=$(cd "$1/sim-backend" && find . -name '*.[ch]' ! -name '*.mod.c' |
	       sed 's|^\./||; s|/[^/]*$||; s|^[^/]*\.[ch]$|.|' | sort -u)
	for d in $dirs; do
		case $d in
		.) d=sim-backend ;;
		*) d=sim-backend/$d ;;
		esac
		printf 'include layers.mk\n$(info %s: $(call kh_incdirs,%s))\nall: ; @:\n' \
			"$d" "$d" | make -s -C "$1" -f - all
	done
}

# check TREE: TAP lines from 1, each failure a "#" line naming FILE:LINE;
# nonzero when one fails
check() { # tree
	p=$(paths "$1") || { echo "not ok 1 - layers.mk gives every model folder a path"; return 1; }
	(cd "$1" && find sim-backend -name '*.[ch]' ! -name '*.mod.c' | LC_ALL=C sort) |
	PATHS="$p" FLOORS="$FLOORS" TREE="$1" perl -e "$CHECK_PL"
}

# the check itself, over the file list on stdin
CHECK_PL='
use strict;
my @floors = split " ", $ENV{FLOORS};
my %rank;
@rank{@floors} = (0 .. $#floors);
$rank{shared} = -1;		# ksim_plat.h, ksim_unit.h: every floor
$rank{top} = scalar @floors;	# the card'"'"'s faces, and ksim_hw.c
my %path;
for (split /\n/, $ENV{PATHS}) {
	my ($d, $p) = /^(\S+): *(.*)$/ or next;
	$path{$d} = [ grep m{^sim-backend}, split " ", $p ];
}
my @files = map { chomp; $_ } <STDIN>;
my %exists = map { $_ => 1 } @files;

# a file'"'"'s folder: "lib" .. "card", "units/pool", "shared" or "top"
sub folder {
	my ($f) = @_;
	$f =~ s{^sim-backend/?}{};
	return $f =~ /^ksim_(plat|unit)\.h$/ ? "shared" : "top" unless $f =~ m{/};
	return $1 if $f =~ m{^(units/[^/]+)/};
	return (split m{/}, $f)[0];
}
sub rank_of { my ($d) = @_; $d =~ s{/.*}{}; return $rank{$d}; }
sub label {
	my ($d) = @_;
	return $d eq "shared" ? "ksim_plat.h/ksim_unit.h" :
	       $d eq "top" ? "the faces" : "$d/";
}
sub norm { my ($p) = @_; 1 while $p =~ s{[^/]+/\.\./}{}; $p =~ s{/\./}{/}g; return $p; }
sub dir_of { my ($f) = @_; (my $d = $f) =~ s{/[^/]*$}{}; return $d; }

my (@fail_path, @fail_inc, @fail_name, @fail_cyc);

# 1. the paths: nothing above a folder'"'"'s floor
for my $d (sort keys %path) {
	my $fd = folder("$d/x.c");
	next if $fd eq "top";
	for my $p (@{$path{$d}}) {
		my $pd = folder("$p/x.c");
		next if $pd eq "top" || $pd eq $fd;
		push @fail_path, "layers.mk: INCDIRS.$d holds $p, above " . label($fd)
			if rank_of($pd) > rank_of($fd) ||
			   (rank_of($pd) == rank_of($fd) && $pd ne "units");
	}
}

# 2. every include, resolved; the graph of files and of folders
my %byname;
for my $f (@files) {
	next unless $f =~ /\.h$/;
	(my $b = $f) =~ s{.*/}{};
	push @{$byname{$b}}, $f;
}
for my $b (sort keys %byname) {
	push @fail_name, "$b: " . join(", ", @{$byname{$b}}) if @{$byname{$b}} > 1;
}
my (%edge, %fedge);
for my $f (@files) {
	my $fd = folder($f);
	my $dir = dir_of($f);
	open(my $h, "<", "$ENV{TREE}/$f") or die "$f: $!";
	my $n = 0;
	while (my $l = <$h>) {
		$n++;
		next unless $l =~ /^\s*#\s*include\s*"([^"]+)"/;
		my $inc = $1;
		my $off = 0;
		my ($to) = grep { $exists{$_} }
			   map { norm("$_/$inc") } $dir, @{$path{$dir} || []};
		if (!defined $to) {
			# on no path: what in the model does it reach for?
			(my $b = $inc) =~ s{.*/}{};
			($to) = @{$byname{$b} || []};
			next unless defined $to;	# not the model'"'"'s (hwif, uapi)
			$off = 1;
		}
		my $td = folder($to);
		my $why;
		if ($td eq "top" && $fd ne "top" && $fd ne "card") {
			$why = "a face of the card, which only card/ and the top include";
		} elsif ($td ne $fd && rank_of($td) > rank_of($fd) &&
			 !($td eq "top" && $fd eq "card")) {
			# card/ implements the faces, so it includes them
			$why = label($td) . " is above " . label($fd);
		} elsif ($td ne $fd && rank_of($td) == rank_of($fd) &&
			 !($td eq "units" && $fd =~ m{^units/})) {
			$why = label($td) . " is beside " . label($fd) . ", not below it";
		} elsif ($off) {
			$why = "not on the path layers.mk gives " . label($fd);
		}
		push @fail_inc, "$f:$n: includes \"$inc\" ($to): $why" if $why;
		$edge{$f}{$to} = 1;
		$fedge{$fd}{$td} = "$f:$n" if $fd ne $td;
	}
	close($h);
}

# 3. cycles: the strongly connected components of the file graph (Tarjan)
my (%idx, %low, %on, @st, @scc);
my $i = 0;
my $visit;
$visit = sub {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $i++;
	push @st, $v;
	$on{$v} = 1;
	for my $w (sort keys %{$edge{$v} || {}}) {
		if (!exists $idx{$w}) {
			$visit->($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
		}
	}
	if ($low{$v} == $idx{$v}) {
		my (@c, $w);
		do { $w = pop @st; delete $on{$w}; push @c, $w; } while ($w ne $v);
		push @scc, [ sort @c ] if @c > 1;
	}
};
for my $f (@files) { $visit->($f) unless exists $idx{$f}; }
for my $c (@scc) {
	my %fd = map { folder($_) => 1 } @$c;
	push @fail_cyc, "a cycle across " . join(", ", map { label($_) } sort keys %fd) .
		": " . join(" ", @$c) if keys %fd > 1;
}
for my $a (sort keys %fedge) {
	for my $b (sort keys %{$fedge{$a}}) {
		push @fail_cyc, label($a) . " and " . label($b) .
			" include each other: $fedge{$a}{$b}, $fedge{$b}{$a}"
			if $a lt $b && exists $fedge{$b}{$a};
	}
}

my ($t, $bad) = (0, 0);
sub tap {
	my ($ok, $what, @why) = @_;
	$t++;
	print(($ok ? "ok" : "not ok") . " $t - $what\n");
	print "# $_\n" for @why;
	$bad = 1 unless $ok;
}
tap(!@fail_path, "layers.mk: the include path of each model folder is its floor (" .
    scalar(keys %path) . " folders)", @fail_path);
tap(!@fail_inc, "every #include of the model reaches its own folder, a floor below, or a face it may use (" .
    scalar(@files) . " files)", @fail_inc);
tap(!@fail_cyc, "no cycle between files of different folders, no two folders include each other",
    @fail_cyc);
tap(!@fail_name, "no two model headers share a name", @fail_name);
exit $bad;
'

status=0
out=$(check "$tree") || status=1
echo "$out"
n=$(echo "$out" | grep -c '^\(not \)\{0,1\}ok ')

if [ "$tree" = "$top" ]; then
	scratch=$(mktemp -d /tmp/kh-floors.XXXXXX)
	trap 'rm -rf "$scratch"' EXIT
	fresh() {
		rm -rf "$scratch/t"
		mkdir -p "$scratch/t"
		cp -rp "$top/sim-backend" "$top/layers.mk" "$scratch/t/"
	}
	# expect WHAT PATTERN: the check of the scratch tree fails, and a line
	# of its output matches PATTERN
	expect() { # what pattern
		n=$((n + 1))
		if res=$(check "$scratch/t"); then
			echo "not ok $n - self-test: the check misses $1 (it passed)"
			status=1
		elif echo "$res" | grep -q "$2"; then
			echo "ok $n - self-test: the check catches $1"
		else
			echo "not ok $n - self-test: the check misses $1"
			echo "$res" | sed 's/^/#   /'
			status=1
		fi
	}
	# selftest WHAT FILE INCLUDE: `#include "INCLUDE"` put before FILE's
	# first include in a fresh copy; the check must name FILE and that line
	selftest() { # what file include
		fresh
		line=$(grep -n '^#include' "$scratch/t/$2" | head -n 1 | cut -d: -f1)
		sed -i "${line}i #include \"$3\"" "$scratch/t/$2"
		expect "$1" "^# $2:$line: includes \"$3\""
	}
	selftest "an include of a higher floor" sim-backend/noc/link.c mesh.h
	selftest "a face reserved to the card" sim-backend/mesh/dram.c ksim.h
	selftest "a unit's header in another unit" sim-backend/units/mat/l1.c vec.h
	selftest "a unit's header in the units' base" sim-backend/units/base.c pool.h
	selftest "a shared face reaching into a folder" sim-backend/ksim_unit.h base.h
	# lib/lex.h -> card/desc.h -> units/table.h -> lib/lex.h
	selftest "an include that closes a cycle" sim-backend/lib/lex.h desc.h
	expect "a cycle between files of different folders" \
		"^# a cycle across .*sim-backend/card/desc.h.*sim-backend/lib/lex.h"
	fresh
	sed -i 's|^INCDIRS.sim-backend/noc := uapi hwif $(KSIM_FLOOR.noc)$|INCDIRS.sim-backend/noc := uapi hwif $(KSIM_FLOOR.mesh)|' \
		"$scratch/t/layers.mk"
	expect "a path in layers.mk above its floor" \
		"^# layers.mk: INCDIRS.sim-backend/noc holds sim-backend/units, above noc/"
fi
echo "1..$n"
exit $status
