# driver/core sources, shared by the Makefile (libkohaku) and Kbuild (kohaku.ko).
KH_CORE_SOURCES :=
