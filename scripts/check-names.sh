#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-names.sh: one name per thing, and each name with its layer's prefix.
#
# Every struct, union and enum tag and every typedef name DEFINED (a tag with
# its body, a typedef; not a forward declaration, not a use) in the sources
# that are not tests: uapi/, hwif/, sim-backend/, driver/core/, driver/linux/,
# libruntime/ (with inproc/ and cli/), bench/, tools/.  It fails when
#
#   - one name is defined in two files: the layers are built into one
#     library (libkohaku holds the core, the model and the runtime) and one
#     debugger, so two things of one name are one too many.  The two arms of
#     an #ifdef __KERNEL__ in one file are one place;
#     `typedef struct x x;` is the tag under its own name, not a second thing;
#   - a name does not carry its layer's prefix, so that a name says where its
#     thing lives and two layers cannot collide:
#       uapi/                 kh_, KH_, kohaku_, drm_kohaku_
#       hwif/                 kh_hw (kh_hw, kh_hw_*)
#       sim-backend/          ksim_
#       driver/core/          kh_, but not kh_hw* (hwif's) nor kh_rt_ (libruntime's)
#       driver/linux/         kohaku_ (kohaku.ko), kohaku_sim (kohaku_sim*.[ch]);
#                             kohaku.ko implements what driver/core/kh_os.h
#                             asks of its host too, so the tags kh_os.h
#                             leaves to the host (below) may be defined there
#       libruntime/, cli/     kohaku_, kh_rt_
#       libruntime/daemon/    khd_ (kohakud, a program of its own)
#       libruntime/inproc/include/  the kernel's headers for the userspace
#                             builds of driver/core (its README.md): the
#                             kernel's own names (KERNEL below) and kh_os_*
#       libruntime/inproc/    kohaku_, kh_rt_, and the implementation of the
#                             kernel's headers above and of kh_os.h: kh_os_*,
#                             and the tags driver/core/kh_os.h declares and
#                             leaves to the host (struct kh_user_dma).  Such
#                             a tag is defined once per host, never twice in
#                             one: the two hosts are never linked into one
#                             binary.
#     bench/ and tools/ are programs of their own: no prefix, but no name of
#     theirs may be another's.
#
# KERNEL below lists the kernel's own names that a userspace shim recreates
# (u8 ... s64 for the model and the core, the kernel headers of
# libruntime/inproc/include/ for the core), or that kohaku.ko's
# driver/linux/kohaku_compat.h recreates on kernels older than the one that
# brought them: the same thing as the kernel's, allowed where they are.  KNOWN lists today's wrong prefixes in files whose owners are to rename
# them: they are printed, not failed.  A KNOWN entry that no longer matches
# anything (renamed, moved) is printed as stale, to be removed; it does not
# fail, so a rename elsewhere never breaks `make test`.
#
# The definitions come from scripts/c-decls.pl (a lexer and brace matcher
# over comment-stripped sources, not a compiler: what a macro expands to is
# not seen).  Output is TAP, for tests/run-all.sh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

dirs="uapi hwif sim-backend driver/core driver/linux driver/sim libruntime bench tools"

# the kernel's names recreated by a userspace shim: NAME FILE
KERNEL='
u8 hwif/kh_ktypes.h
u16 hwif/kh_ktypes.h
u32 hwif/kh_ktypes.h
u64 hwif/kh_ktypes.h
s8 hwif/kh_ktypes.h
s16 hwif/kh_ktypes.h
s32 hwif/kh_ktypes.h
s64 hwif/kh_ktypes.h
gfp_t libruntime/inproc/include/linux/types.h
cmp_func_t libruntime/inproc/include/linux/sort.h
list_head libruntime/inproc/include/linux/list.h
lock_class_key libruntime/inproc/include/linux/lockdep.h
mutex libruntime/inproc/include/linux/mutex.h
refcount_struct libruntime/inproc/include/linux/refcount.h
refcount_t libruntime/inproc/include/linux/refcount.h
atomic_t libruntime/inproc/include/linux/atomic.h
wait_queue_head libruntime/inproc/include/linux/wait.h
wait_queue_head_t libruntime/inproc/include/linux/wait.h
work_func_t libruntime/inproc/include/linux/workqueue.h
work_struct libruntime/inproc/include/linux/workqueue.h
delayed_work libruntime/inproc/include/linux/workqueue.h
workqueue_struct libruntime/inproc/kh_os_workqueue.c
xarray libruntime/inproc/include/linux/xarray.h
xa_limit libruntime/inproc/include/linux/xarray.h
dma_fence libruntime/inproc/include/linux/dma-fence.h
dma_fence_cb libruntime/inproc/include/linux/dma-fence.h
dma_fence_func_t libruntime/inproc/include/linux/dma-fence.h
dma_fence_ops libruntime/inproc/include/linux/dma-fence.h
spinlock libruntime/inproc/include/linux/spinlock.h
spinlock_t libruntime/inproc/include/linux/spinlock.h
drm_file libruntime/inproc/include/drm/drm_file.h
drm_syncobj libruntime/inproc/include/drm/drm_syncobj.h
device libruntime/inproc/include/linux/device.h
drm_gem_object_status driver/linux/kohaku_compat.h
drm_memory_stats driver/linux/kohaku_compat.h
'

# wrong prefixes found when this check was written, to be renamed by the
# files' owners: NAME FILE
KNOWN='
'

# shellcheck disable=SC2086
files=$(find $dirs -name '*.[ch]' ! -name '*.mod.c' | LC_ALL=C sort)
decls=$(mktemp)
trap 'rm -f "$decls"' EXIT
# shellcheck disable=SC2086
if ! perl scripts/c-decls.pl $files >"$decls"; then
	echo "not ok 1 - scripts/c-decls.pl failed"
	exit 1
fi

KERNEL=$KERNEL KNOWN=$KNOWN perl -e '
use strict;
use warnings;

my %kernel = map { $_ => 1 } grep { /\S/ } split /\n/, $ENV{KERNEL};
my %known = map { $_ => 0 } grep { /\S/ } split /\n/, $ENV{KNOWN};
my (%defs, %shim, $nfiles, %files);

while (<STDIN>) {
	my ($where, $kind, $name, $extra) = split;
	my ($file, $line) = $where =~ /^(.*):(\d+)$/;
	$files{$file} = 1;
	if ($kind eq "struct-decl" && $file eq "driver/core/kh_os.h") {
		$shim{$name} = 1;
		next;
	}
	next unless $kind =~ /^(struct|union|enum|typedef)$/;
	next if $kind eq "typedef" && defined $extra && $extra eq "alias";
	push @{$defs{$name}}, { file => $file, line => $line, kind => $kind };
}

# the layer of a file, with the test of its prefix
sub layer {
	my ($f) = @_;
	return ["uapi", "kh_, KH_, kohaku_, drm_kohaku_",
		sub { $_[0] =~ /^(kh_|KH_|kohaku_|drm_kohaku_)/ }] if $f =~ m{^uapi/};
	return ["hwif", "kh_hw, kh_hw_*", sub { $_[0] =~ /^kh_hw(_|$)/ }] if $f =~ m{^hwif/};
	return ["sim-backend", "ksim_*", sub { $_[0] =~ /^ksim_/ }] if $f =~ m{^sim-backend/};
	return ["driver/core", "kh_*, not kh_hw* nor kh_rt_*",
		sub { $_[0] =~ /^kh_/ && $_[0] !~ /^kh_(hw(_|$)|rt_)/ }] if $f =~ m{^driver/core/};
	return ["driver/sim kohaku_sim.ko", "kohaku_sim*",
		sub { $_[0] =~ /^kohaku_sim(_|$)/ }] if $f =~ m{^driver/sim/};
	return ["driver/linux kohaku.ko", "kohaku_*, not kohaku_sim*, and the core shim\x27s tags",
		sub { ($_[0] =~ /^kohaku_/ && $_[0] !~ /^kohaku_sim(_|$)/) || $shim{$_[0]} }]
		if $f =~ m{^driver/linux/};
	return ["libruntime/inproc/include", "the kernel\x27s names (KERNEL), kh_os_*",
		sub { $_[0] =~ /^kh_os_/ }] if $f =~ m{^libruntime/inproc/include/};
	return ["libruntime/inproc", "kohaku_*, kh_rt_*, kh_os_*, the core shim\x27s tags",
		sub { $_[0] =~ /^(kohaku_|kh_rt_|kh_os_)/ || $shim{$_[0]} }] if $f =~ m{^libruntime/inproc/};
	return ["libruntime/daemon", "khd_*",
		sub { $_[0] =~ /^khd_/ }] if $f =~ m{^libruntime/daemon/};
	return ["libruntime", "kohaku_*, kh_rt_*",
		sub { $_[0] =~ /^(kohaku_|kh_rt_)/ }] if $f =~ m{^libruntime/};
	return ["bench, tools", "any", sub { 1 }];
}

my $n = 0;
my $fail = 0;
sub tap {
	my ($ok, $what, @notes) = @_;
	$n++;
	$fail++ unless $ok;
	print(($ok ? "ok" : "not ok"), " $n - $what\n");
	print "# $_\n" for @notes;
}

my $nfile = keys %files;
my $nname = keys %defs;
tap($nfile > 0 && $nname > 0, "$nname names defined in $nfile files read");

# one place per name: distinct files
my @dups;
for my $name (sort keys %defs) {
	my %by_file;
	for my $d (@{$defs{$name}}) {
		$by_file{$d->{file}} //= $d;
	}
	next if keys %by_file < 2;
	my @places = map { "$_->{kind} $name $_->{file}:$_->{line}" }
		     map { $by_file{$_} } sort keys %by_file;
	if (!grep { !$kernel{"$name $_"} } keys %by_file) {
		next;	# the kernel name recreated by each userspace shim
	}
	if ($shim{$name}) {
		# the host own definition of a shim tag: one per host
		my %host;
		my $other = 0;
		for (keys %by_file) {
			if (m{^libruntime/inproc/}) { $host{inproc}++ }
			elsif (m{^driver/linux/}) { $host{kernel}++ }
			else { $other++ }
		}
		next unless $other || grep { $_ > 1 } values %host;
	}
	push @dups, join("; ", @places);
}
tap(!@dups, "no name defined in two places", @dups);

# prefixes, one line per layer
my (%layer_names, %layer_bad, %layer_known, %layer_rule);
for my $name (sort keys %defs) {
	my %seen;
	for my $d (@{$defs{$name}}) {
		next if $seen{$d->{file}}++;
		my ($lname, $rule, $test) = @{layer($d->{file})};
		$layer_rule{$lname} = $rule;
		$layer_names{$lname}++;
		next if $test->($name);
		my $where = "$d->{file}:$d->{line}: $d->{kind} $name";
		if ($kernel{"$name $d->{file}"}) {
			next;
		} elsif (exists $known{"$name $d->{file}"}) {
			$known{"$name $d->{file}"} = 1;
			push @{$layer_known{$lname}}, "known, to rename: $where";
		} else {
			push @{$layer_bad{$lname}}, "$where: $lname wants $rule";
		}
	}
}
for my $l (sort keys %layer_names) {
	my @bad = @{$layer_bad{$l} // []};
	my @known = @{$layer_known{$l} // []};
	tap(!@bad, "$l: $layer_names{$l} names, each $layer_rule{$l}", @bad, @known);
}

my @stale = map { "stale: $_ no longer wrong there; remove it from KNOWN in scripts/check-names.sh" }
	    grep { !$known{$_} } sort keys %known;
my $nknown = grep { $known{$_} } keys %known;
tap(1, "$nknown known wrong prefixes left to rename (KNOWN)", @stale);

print "1..$n\n";
exit($fail ? 1 : 0);
' <"$decls"
