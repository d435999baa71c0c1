# Portable model sources, shared by the Makefile (libkohaku) and Kbuild
# (kohaku_sim.ko).  Userspace-only files are listed in sim.mk.
# ksim_hw.c is the model's adapter to the register-access seam (hwif/).
# The unit models are in units/ (the POOL unit in units/pool/, the cpu
# unit in units/cpu/, their shared RV32I decoding in units/rv32i.h, the
# DXA unit in units/dxa/ beside its scratch receiver units/scr.c), the XDMA
# engine (BAR1) in xdma/, the network on chip (the scheduler, links, flit
# FIFOs, routers) in noc/.
KH_SIM_SOURCES := \
	ksim_hw.c \
	noc/sim_fifo.c \
	noc/sim_link.c \
	noc/sim_router.c \
	noc/sim_sched.c \
	sim_bar.c \
	sim_base.c \
	sim_builtin.c \
	sim_card.c \
	sim_check.c \
	sim_clkwiz.c \
	sim_command.c \
	sim_ddrc.c \
	sim_desc.c \
	sim_dma.c \
	sim_dram.c \
	sim_fp32.c \
	sim_inject.c \
	sim_ilink.c \
	sim_l2.c \
	sim_lex.c \
	sim_mag.c \
	sim_mesh.c \
	sim_mover.c \
	sim_obs.c \
	sim_mxfp7.c \
	sim_orch.c \
	sim_params.c \
	sim_reset.c \
	sim_stats.c \
	sim_tbuf.c \
	sim_trace.c \
	sim_units.c \
	units/cpu/btb.c \
	units/cpu/core.c \
	units/cpu/cpu.c \
	units/cpu/l1.c \
	units/cpu/mem.c \
	units/cpu/req.c \
	units/cpu/rx.c \
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
	units/scr.c \
	units/sx.c \
	units/pool/cudata.c \
	units/pool/iss_decode.c \
	units/pool/iss_exec.c \
	units/pool/idma.c \
	units/pool/job.c \
	units/pool/pool.c \
	units/pool/port.c \
	units/pool/sync.c \
	units/pool/window.c \
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
