# Portable model sources, shared by the Makefile (libkohaku) and Kbuild
# (kohaku_sim.ko).  Userspace-only files are listed in sim.mk.
KH_SIM_SOURCES :=
