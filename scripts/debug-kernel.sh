#!/bin/sh
# Build, or find already built, the debug kernel `make test-debug` boots:
# Debian's linux-source-6.12 configured as x86_64_defconfig +
# kvm_guest.config + scripts/debug-kernel.config (KASAN, lockdep,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DMA_API_DEBUG, UBSAN, kmemleak,
# failslab, fail_page_alloc).  docs/linux.md, "Debug kernel".
#
# The kernel is cached outside the clone, keyed by its configuration:
#   $KOHAKU_DEBUG_KERNEL_CACHE/<sha256 of the .config, 16 hex>/
#     build/          the O= build tree: KDIR for out-of-tree modules
#     bzImage         build/arch/x86/boot/bzImage
#     System.map
#     modroot/        make modules_install INSTALL_MOD_PATH=: lib/modules/<release>
#     release         the kernel release (6.12.N-kohaku-debug)
#     config          the .config
#     build-seconds   how long the build took
#     build.log
#     complete        written last: the entry is usable
# A changed fragment, source package or compiler gives a new .config and so
# a new entry; an entry without `complete` (a build cut short) is built
# again from where it stopped.
#
# Usage: scripts/debug-kernel.sh [build|dir|env]
#   build  (default) build the kernel unless cached; prints the entry's path
#   dir    only configure; prints the entry's path (it may not be built)
#   env    as build, then prints KDIR=, KVER=, KERNEL=, MODROOT= lines
#
# Environment:
#   KOHAKU_DEBUG_KERNEL_CACHE  the cache (/var/cache/kohaku/debug-kernel)
#   KOHAKU_LINUX_SOURCE        the tarball (/usr/src/linux-source-6.12.tar.xz)
#   JOBS                       make -j (2); the build runs under nice -n 19
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-build}
CACHE=${KOHAKU_DEBUG_KERNEL_CACHE:-/var/cache/kohaku/debug-kernel}
TARBALL=${KOHAKU_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
FRAGMENT=$top/scripts/debug-kernel.config
JOBS=${JOBS:-2}
NICE="nice -n 19"

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

case $mode in build|dir|env) ;; *) die "usage: $0 [build|dir|env]" ;; esac
[ -r "$TARBALL" ] || die "no $TARBALL: install linux-source-6.12 (scripts/install-deps.sh debug)"
for t in flex bison bc make gcc; do
	command -v $t >/dev/null || die "no $t: scripts/install-deps.sh debug"
done
echo '#include <gelf.h>' | gcc -E -x c - >/dev/null 2>&1 ||
	die "no <gelf.h>: install libelf-dev (scripts/install-deps.sh debug)"
echo '#include <openssl/ssl.h>' | gcc -E -x c - >/dev/null 2>&1 ||
	die "no <openssl/ssl.h>: install libssl-dev (scripts/install-deps.sh debug)"

mkdir -p "$CACHE"
# one configure or build at a time (another clone may share the cache)
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	log "waiting for another debug-kernel build ($CACHE/.lock)"
	flock 9
fi

# ---- the source, extracted once per tarball ----
tarkey=$(stat -c '%s-%Y' "$TARBALL")
src=$CACHE/src/$tarkey
if [ ! -f "$src/.extracted" ]; then
	log "extracting $TARBALL to $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$TARBALL" -C "$src" --strip-components=1
	touch "$src/.extracted"
fi
[ -f "$src/Makefile" ] || die "$src: not a kernel tree"

# ---- the configuration, and its key ----
stage=$CACHE/.stage
# the stage keeps its host tools (scripts/kconfig) for the next run
mkdir -p "$stage"
{
	make -C "$src" O="$stage" x86_64_defconfig &&
	make -C "$src" O="$stage" kvm_guest.config &&
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$stage" "$stage/.config" "$FRAGMENT") &&
	make -C "$src" O="$stage" olddefconfig
} >"$stage.log" 2>&1 || { tail -n 30 "$stage.log" >&2; die "configuring failed ($stage.log)"; }
# every y/m/n/value the fragment asks for is what olddefconfig kept
bad=
while IFS= read -r l; do
	case $l in
	CONFIG_*=*) grep -qxF "$l" "$stage/.config" || bad="$bad $l" ;;
	"# CONFIG_"*" is not set")
		s=${l#\# }; s=${s%% *}
		grep -q "^$s=[ym]" "$stage/.config" && bad="$bad $s=n"
		;;
	esac
done <"$FRAGMENT"
[ -z "$bad" ] || die "the .config does not have:$bad (a dependency is missing; see scripts/debug-kernel.config)"
key=$(sha256sum "$stage/.config" | cut -c1-16)
dir=$CACHE/$key

if [ "$mode" = dir ]; then

	echo "$dir"
	exit 0
fi

# ---- build, unless cached ----
if [ -f "$dir/complete" ]; then
	log "cached: $dir ($(cat "$dir/release"), built in $(cat "$dir/build-seconds") s)"

else
	mkdir -p "$dir/build"
	# a build cut short goes on where it stopped (same .config)
	cmp -s "$stage/.config" "$dir/build/.config" || cp "$stage/.config" "$dir/build/.config"

	log "building $dir (nice -n 19, -j$JOBS; about 20 min on 2 cores)"
	t0=$(date +%s)
	if ! $NICE make -C "$src" O="$dir/build" -j"$JOBS" bzImage modules >"$dir/build.log" 2>&1; then
		tail -n 40 "$dir/build.log" >&2
		die "kernel build failed ($dir/build.log)"
	fi
	rm -rf "$dir/modroot"
	$NICE make -C "$src" O="$dir/build" INSTALL_MOD_PATH="$dir/modroot" \
		INSTALL_MOD_STRIP=1 modules_install >>"$dir/build.log" 2>&1 ||
		die "modules_install failed ($dir/build.log)"
	t1=$(date +%s)
	rel=$(cat "$dir/build/include/config/kernel.release")
	cp "$dir/build/arch/x86/boot/bzImage" "$dir/bzImage"
	cp "$dir/build/System.map" "$dir/System.map"
	cp "$dir/build/.config" "$dir/config"
	echo "$rel" >"$dir/release"
	# this run's time (a resumed build counts only what was left to do)
	echo $((t1 - t0)) >"$dir/build-seconds"
	touch "$dir/complete"
	log "built $rel in $((t1 - t0)) s: $dir"
fi

if [ "$mode" = env ]; then
	echo "KDIR=$dir/build"
	echo "KVER=$(cat "$dir/release")"
	echo "KERNEL=$dir/bzImage"
	echo "MODROOT=$dir/modroot"
else
	echo "$dir"
fi
