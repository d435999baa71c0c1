# shellcheck shell=sh
# What the VM scripts on the host share (tests/vm/run-vm.sh,
# run-vm-pci.sh): sourced after they define $top, $STATIC, $WORK and their
# TAP helpers ok and notok.

# vm_build_static NAME [EXTRA...]: tests/vm/NAME.c linked static against the
# static libkohaku into $WORK/bin/NAME (the guest has no libc of its own);
# EXTRA are more compiler arguments (flags, objects).  One TAP line; the
# compiler's output under it on failure.  True when it built.
vm_build_static() {
	_t=$1
	shift
	mkdir -p "$WORK/bin"
	# shellcheck disable=SC2046
	if "${CC:-gcc}" -static -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
		-I"$top/uapi" -I"$top/libruntime" "$@" \
		$(pkg-config --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm) \
		-o "$WORK/bin/$_t" "$top/tests/vm/$_t.c" "$STATIC/libkohaku.a" \
		$(pkg-config --libs libdrm 2>/dev/null || echo -ldrm) -lz -lpthread -lm \
		>"$WORK/$_t.build.log" 2>&1; then
		ok "build tests/vm/$_t.c (static)"
	else
		notok "build tests/vm/$_t.c (static)"
		sed 's/^/# /' "$WORK/$_t.build.log"
		return 1
	fi
}
