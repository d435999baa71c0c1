# Installing and uninstalling (packaging/README.md):
#
#   make install    [PREFIX=/usr/local] [DESTDIR=]   libkohaku, headers,
#                   kohaku.pc, kohaku, kh-trace and kohakud (with its
#                   systemd user units), its bash completion, man pages, the POOL
#                   firmware, the udev rule, the modprobe.d example and
#                   the Python package (python/kohaku, to PYTHONDIR)
#   make uninstall  the same PREFIX and DESTDIR: removes exactly those files
#   make install-udev  the udev rule alone, and the group it needs
#   make modules_install [KVER=] [INSTALL_MOD_PATH=|DESTDIR=]   kohaku.ko and
#                   kohaku_sim.ko into /lib/modules/$(KVER)/updates, depmod
#   make dkms-src   [DESTDIR=]   the module sources for dkms, in
#                   $(DESTDIR)/usr/src/kohaku-$(KH_VERSION) (dkms.conf)
#
# Every directory can be overridden on the command line (BINDIR, LIBDIR,
# INCLUDEDIR, PKGCONFIGDIR, MANDIR, BASHCOMPDIR, FIRMWAREDIR, UDEVRULESDIR, MODPROBEDIR,
# PYTHONDIR).
# kohaku.pc is generated for the directories given, so that
# `pkg-config --cflags --libs kohaku` finds what `make install` put.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
# bash completion, where Debian's bash-completion loads it on demand (it
# looks in share/bash-completion/completions of each XDG_DATA_DIRS entry:
# /usr/local/share and /usr/share by default)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# the firmware: for the system's PREFIXes (/usr, /usr/local) the kernel's
# firmware search path, /lib/firmware (request_firmware looks nowhere
# else by default); any other PREFIX keeps it below PREFIX, in
# $(PREFIX)/lib/firmware (KOHAKU_FIRMWARE_PATH's layout is the same), so
# that `make install PREFIX=dir` writes nothing outside dir and DESTDIR
ifneq ($(filter /usr /usr/local,$(PREFIX)),)
FIRMWAREDIR ?= /lib/firmware
else
FIRMWAREDIR ?= $(PREFIX)/lib/firmware
endif
# systemd-udevd (252, Debian 12) reads /usr/lib/udev/rules.d and
# /usr/local/lib/udev/rules.d; kmod reads /usr/lib/modprobe.d and
# /usr/local/lib/modprobe.d: so PREFIX=/usr and /usr/local both work
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# kohakud's systemd user units (socket activation, docs/kohakud.md): the
# user manager of systemd 252 reads /usr/lib/systemd/user and
# /usr/local/lib/systemd/user
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
MODPROBEDIR ?= $(PREFIX)/lib/modprobe.d
KH_GROUP ?= kohaku
# the Python package, where Debian's python3 looks for that PREFIX
# (docs/python.md "Install"): its site.py puts /usr/lib/python3/dist-packages
# on sys.path for /usr, and /usr/local/lib/python3.N/dist-packages (N the
# interpreter's minor version) for /usr/local; any other PREFIX gets
# $(PREFIX)/lib/python3/dist-packages, which python3 finds through
# PYTHONPATH.  Pure Python: nothing is compiled for a Python version.
PYTHON ?= /usr/bin/python3
KH_PYVER = $(or $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null),3)
ifeq ($(PREFIX),/usr)
PYTHONDIR ?= /usr/lib/python3/dist-packages
else ifeq ($(PREFIX),/usr/local)
PYTHONDIR ?= /usr/local/lib/python$(KH_PYVER)/dist-packages
else
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
endif
KH_PY_FILES := $(notdir $(wildcard python/kohaku/*.py))

# the headers: kohaku.h, and the uapi it includes ("drm/kohaku_accel.h")
# or names (the KH_* constants of kohaku/kh_*.h), below
# $(INCLUDEDIR)/kohaku, which is kohaku.pc's -I
KH_INC := $(INCLUDEDIR)/kohaku
KH_UAPI_KOHAKU := $(notdir $(wildcard uapi/kohaku/*.h))
# man pages, wherever they are written or generated
KH_MAN := $(sort $(notdir $(wildcard man/*.[1-8] $(BUILD)/man/*.[1-8])))
kh_man_src = $(firstword $(wildcard man/$(1) $(BUILD)/man/$(1)))

# kohaku.pc's directories relative to ${prefix} where they are below it
kh_pcdir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
KH_PC_SED := -e 's|@VERSION@|$(KH_VERSION)|' -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call kh_pcdir,$(LIBDIR))|' \
	-e 's|@INCLUDEDIR@|$(call kh_pcdir,$(INCLUDEDIR))|'

.PHONY: install uninstall install-lib install-bin install-man install-fw-if-built install-completion \
	install-udev install-modprobe install-python uninstall-files modules_install dkms-src

# the firmware goes in when it is built or can be (make firmware needs the
# riscv toolchain); without either, install says so and goes on
ifneq ($(shell command -v $(FW_CC) 2>/dev/null),)
install-fw-if-built: firmware
endif
install-fw-if-built:
	@if [ -f $(FW_DIR)/pool.fw ]; then \
		echo "install -D -m 0644 $(FW_DIR)/pool.fw $(DESTDIR)$(FIRMWAREDIR)/$(FW_PATH)"; \
		install -D -m 0644 $(FW_DIR)/pool.fw $(DESTDIR)$(FIRMWAREDIR)/$(FW_PATH); \
	else \
		echo "install: no $(FW_DIR)/pool.fw and no $(FW_CC): the POOL firmware is not installed ('make deps', then 'make firmware')"; \
	fi

install: install-lib install-bin install-man install-fw-if-built install-udev install-modprobe \
	install-python install-completion

# ld.so finds a library outside /lib and /usr/lib (/usr/local/lib) only
# through its cache, /etc/ld.so.cache: after a real install (DESTDIR
# empty) into a directory ld.so.conf names, ldconfig refreshes it, so that
# an app linked against the installed libkohaku.so.0 starts.  Never for a
# DESTDIR stage (its packager's postinst runs ldconfig), and not for a
# LIBDIR ld.so.conf does not name (the cache would not list it anyway):
# that needs an /etc/ld.so.conf.d/ entry, or LD_LIBRARY_PATH (README,
# "Install").  LDCONFIG=true skips it.
LDCONFIG ?= /sbin/ldconfig
ifeq ($(DESTDIR),)
install:
	@lib=$$(readlink -f '$(LIBDIR)'); \
	if $(LDCONFIG) -N -X -v 2>/dev/null | sed -n 's|^\(/[^:]*\):.*|\1|p' | \
		while read -r d; do [ "$$(readlink -f "$$d")" = "$$lib" ] && echo y; done | grep -q y; then \
		echo "$(LDCONFIG)"; \
		$(LDCONFIG) || echo "install: $(LDCONFIG) failed: run it as root, or an app using libkohaku.so.0 will not find it"; \
	else \
		echo "install: $(LIBDIR) is not in ld.so's search path: an app linked against libkohaku.so.0 finds it with LD_LIBRARY_PATH=$(LIBDIR), or after 'echo $(LIBDIR) > /etc/ld.so.conf.d/kohaku.conf; ldconfig' (as root)"; \
	fi
endif

# the package, and kohaku/_config.py recording LIBDIR: the installed
# package loads libkohaku.so.0 through ld.so, and from LIBDIR when ld.so's
# cache does not list it yet (/usr/local/lib before ldconfig)
install-python:
	install -d -m 0755 $(DESTDIR)$(PYTHONDIR)/kohaku
	install -m 0644 $(addprefix python/kohaku/,$(filter-out _config.py,$(KH_PY_FILES))) \
		$(DESTDIR)$(PYTHONDIR)/kohaku/
	printf '# written by make install\nLIBDIR = "%s"\n' '$(LIBDIR)' >$(DESTDIR)$(PYTHONDIR)/kohaku/_config.py
	chmod 0644 $(DESTDIR)$(PYTHONDIR)/kohaku/_config.py

install-lib: $(LIBKOHAKU_A) $(LIBKOHAKU_ASM_A) $(LIBKOHAKU_SO) libruntime/kohaku.pc.in
	install -D -m 0644 $(LIBKOHAKU_A) $(DESTDIR)$(LIBDIR)/libkohaku.a
	install -D -m 0755 $(LIBKOHAKU_SO) $(DESTDIR)$(LIBDIR)/libkohaku.so.0
	ln -sf libkohaku.so.0 $(DESTDIR)$(LIBDIR)/libkohaku.so
	install -D -m 0644 $(LIBKOHAKU_ASM_A) $(DESTDIR)$(LIBDIR)/libkohaku-asm.a
	install -D -m 0644 libruntime/kohaku.h $(DESTDIR)$(KH_INC)/kohaku.h
	install -D -m 0644 libruntime/kohaku-asm.h $(DESTDIR)$(KH_INC)/kohaku-asm.h
	install -D -m 0644 uapi/drm/kohaku_accel.h $(DESTDIR)$(KH_INC)/drm/kohaku_accel.h
	install -d -m 0755 $(DESTDIR)$(KH_INC)/kohaku
	install -m 0644 $(addprefix uapi/kohaku/,$(KH_UAPI_KOHAKU)) $(DESTDIR)$(KH_INC)/kohaku/
	@mkdir -p $(BUILD)
	sed $(KH_PC_SED) libruntime/kohaku.pc.in > $(BUILD)/kohaku.pc.install
	install -D -m 0644 $(BUILD)/kohaku.pc.install $(DESTDIR)$(PKGCONFIGDIR)/kohaku.pc

install-bin: $(KOHAKU_CLI) $(BUILD)/kh-trace $(KOHAKUD)
	install -D -m 0755 $(KOHAKU_CLI) $(DESTDIR)$(BINDIR)/kohaku
	install -D -m 0755 $(BUILD)/kh-trace $(DESTDIR)$(BINDIR)/kh-trace
	install -D -m 0755 $(KOHAKUD) $(DESTDIR)$(BINDIR)/kohakud
	install -D -m 0644 packaging/systemd/kohakud.socket $(DESTDIR)$(SYSTEMDUSERDIR)/kohakud.socket
	@mkdir -p $(BUILD)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@FIRMWAREDIR@|$(FIRMWAREDIR)|g' \
		packaging/systemd/kohakud.service.in > $(BUILD)/kohakud.service
	install -D -m 0644 $(BUILD)/kohakud.service $(DESTDIR)$(SYSTEMDUSERDIR)/kohakud.service

install-completion:
	install -D -m 0644 packaging/bash-completion/kohaku $(DESTDIR)$(BASHCOMPDIR)/kohaku

install-man:
	$(foreach m,$(KH_MAN),install -D -m 0644 $(call kh_man_src,$(m)) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(m);)

# /dev/accel/accel* of kohaku devices to group $(KH_GROUP), mode 0660
install-udev:
	install -D -m 0644 packaging/udev/70-kohaku.rules $(DESTDIR)$(UDEVRULESDIR)/70-kohaku.rules
	@getent group $(KH_GROUP) >/dev/null 2>&1 || \
		echo "install-udev: the rule gives kohaku's accel nodes to group '$(KH_GROUP)', which does not exist here: run 'groupadd -r $(KH_GROUP)' and 'usermod -aG $(KH_GROUP) USER', then 'udevadm control --reload && udevadm trigger -s accel'"

# every module parameter, commented out: copy it to /etc/modprobe.d to set one
install-modprobe:
	install -D -m 0644 packaging/modprobe.d/kohaku.conf $(DESTDIR)$(MODPROBEDIR)/kohaku.conf

# what install put, file by file; then the directories that are ours alone
# when they are empty
KH_INSTALLED := $(LIBDIR)/libkohaku.a $(LIBDIR)/libkohaku.so.0 $(LIBDIR)/libkohaku.so \
	$(LIBDIR)/libkohaku-asm.a $(KH_INC)/kohaku.h $(KH_INC)/kohaku-asm.h \
	$(KH_INC)/drm/kohaku_accel.h \
	$(addprefix $(KH_INC)/kohaku/,$(KH_UAPI_KOHAKU)) \
	$(PKGCONFIGDIR)/kohaku.pc $(BINDIR)/kohaku $(BINDIR)/kh-trace $(BINDIR)/kohakud \
	$(SYSTEMDUSERDIR)/kohakud.socket $(SYSTEMDUSERDIR)/kohakud.service $(BASHCOMPDIR)/kohaku \
	$(foreach m,$(KH_MAN),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(m)) \
	$(FIRMWAREDIR)/$(FW_PATH) $(UDEVRULESDIR)/70-kohaku.rules $(MODPROBEDIR)/kohaku.conf \
	$(addprefix $(PYTHONDIR)/kohaku/,$(sort $(KH_PY_FILES) _config.py))
KH_OWN_DIRS := $(KH_INC)/drm $(KH_INC)/kohaku $(KH_INC) $(FIRMWAREDIR)/$(patsubst %/,%,$(dir $(FW_PATH))) \
	$(PYTHONDIR)/kohaku

uninstall:
	rm -f $(addprefix $(DESTDIR),$(KH_INSTALLED))
	rm -rf $(DESTDIR)$(PYTHONDIR)/kohaku/__pycache__
	-rmdir $(addprefix $(DESTDIR),$(KH_OWN_DIRS)) 2>/dev/null || true

# ---- kernel modules ----

# the kernel's modules_install (to $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/
# updates), then depmod for $(KVER) when installing to this system's root
# (make modules first: like the kernel's, this target does not build).
# updates/ is named: 6.12's Kbuild puts external modules there by itself,
# 6.1's in extra/; depmod's default search order puts updates/ first.
INSTALL_MOD_PATH ?= $(DESTDIR)
INSTALL_MOD_DIR ?= updates
# the release KDIR is configured for (KVER unless KDIR names another tree)
KH_KREL = $(or $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null),$(KVER))
modules_install: kh-check-kdir
	@test -f kohaku.ko -a -f kohaku_sim.ko || { \
		echo "modules_install: kohaku.ko and kohaku_sim.ko are not built: run 'make modules' first (as your user)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	$(if $(INSTALL_MOD_PATH),@echo "modules_install: installed below $(INSTALL_MOD_PATH): no depmod for this system",depmod -a $(KH_KREL))

# the sources kohaku.ko and kohaku_sim.ko build from (Kbuild), laid out for
# dkms: `make dkms-src`, then `dkms add kohaku/$(KH_VERSION)`,
# `dkms build ...`, `dkms install ...` (or `dkms autoinstall`)
KH_DKMS_SRC := $(DESTDIR)/usr/src/kohaku-$(KH_VERSION)
dkms-src:
	rm -rf $(KH_DKMS_SRC)
	install -d $(KH_DKMS_SRC)
	tar -cf - --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.mod' \
		--exclude='*.mod.c' Kbuild layers.mk dkms.conf uapi hwif driver/core driver/linux driver/sim \
		sim-backend | tar -xf - -C $(KH_DKMS_SRC)
	sed -i 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(KH_VERSION)"/' $(KH_DKMS_SRC)/dkms.conf
