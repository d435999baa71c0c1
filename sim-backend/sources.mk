# Portable model sources, shared by the Makefile (libkohaku) and Kbuild
# (kohaku_sim.ko).  Userspace-only files are listed in sim.mk.
# ksim_hw.c is the model's adapter to the register-access seam (hwif/).
# The unit models are in units/ (the POOL unit in units/pool/, the cpu
# unit in units/cpu/, their shared RV32I decoding in units/rv32i.h, the
# DXA unit in units/dxa/ beside its scratch receiver units/scr.c), behind
# the base units/base.c and the one CU_DATA receiver units/cudata.c; the XDMA
# engine (BAR1) in xdma/, the network on chip (the scheduler, links, flit
# FIFOs, routers) in noc/.
KH_SIM_SOURCES := \
	card/bar.c \
	card/builtin.c \
	card/card.c \
	card/cardbus.c \
	card/clkwiz.c \
	card/ddrc.c \
	card/desc.c \
	card/irq.c \
	card/knobs.c \
	card/meshes.c \
	card/stats.c \
	ksim_hw.c \
	lib/fp32.c \
	lib/lex.c \
	lib/mxfp7.c \
	lib/params.c \
	lib/regs.c \
	lib/softfp.c \
	lib/tbuf.c \
	mesh/dram.c \
	mesh/ilink.c \
	mesh/l2.c \
	mesh/mag.c \
	mesh/mesh.c \
	mesh/mover.c \
	mesh/orch.c \
	mesh/reset.c \
	mesh/topo.c \
	noc/fifo.c \
	noc/link.c \
	noc/router.c \
	noc/sched.c \
	obs/checker.c \
	obs/command.c \
	obs/inject.c \
	obs/obs.c \
	obs/trace.c \
	units/base.c \
	units/cpu/btb.c \
	units/cpu/core.c \
	units/cpu/cpu.c \
	units/cpu/l1.c \
	units/cpu/mem.c \
	units/cpu/req.c \
	units/cpu/rx.c \
	units/cudata.c \
	units/dxa/burst.c \
	units/dxa/dxa.c \
	units/dxa/lines.c \
	units/dxa/setup.c \
	units/dxa/stage.c \
	units/dxa/table.c \
	units/mat/acu.c \
	units/mat/cudata.c \
	units/mat/drain.c \
	units/mat/l1.c \
	units/mat/mat.c \
	units/mat/sweep.c \
	units/null.c \
	units/pool/bounds.c \
	units/pool/cudata.c \
	units/pool/idma.c \
	units/pool/iss_decode.c \
	units/pool/iss_exec.c \
	units/pool/job.c \
	units/pool/pool.c \
	units/pool/port.c \
	units/pool/sync.c \
	units/pool/vec_alu.c \
	units/pool/vec_decode.c \
	units/pool/vec_exec.c \
	units/pool/vec_mac.c \
	units/pool/vec_fp.c \
	units/pool/vec_tab.c \
	units/pool/vec_perm.c \
	units/pool/vec_sched.c \
	units/pool/vec_stream.c \
	units/pool/window.c \
	units/scr.c \
	units/sx.c \
	units/table.c \
	units/vec/agu.c \
	units/vec/e8.c \
	units/vec/kernel.c \
	units/vec/lanes.c \
	units/vec/ldst.c \
	units/vec/mem.c \
	units/vec/port.c \
	units/vec/vec.c \
	xdma/engine.c \
	xdma/irq.c \
	xdma/regs.c
