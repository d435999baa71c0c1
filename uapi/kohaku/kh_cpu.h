/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The control processor unit `cpu` (KohakuAccel rv_pe, cu_type 'RV'): an
 * RV32I core on one NoC port.  Every number the model, its tests and a
 * host share about it is here, once; docs/spec/cpu.md is the prose and
 * cites the RTL (src/kohakuaccel/pe/rv32/ of KohakuBlueleaf/KohakuTPU at
 * 7703ee8) for each.  The modelled build is rv_pe's default one: DSP_EN 0,
 * IMEM_WORDS 2048, SPAD_WORDS 2048, L1_LINES 128, BTB_ENTRIES 32, FWD_X 1,
 * DRAM_BASE 0.  Field positions are KH_FIELD(hi, lo) of the whole flit,
 * for kh_flit_get().
 */
#ifndef _UAPI_KOHAKU_KH_CPU_H
#define _UAPI_KOHAKU_KH_CPU_H

#include <linux/types.h>
#include <kohaku/kh_flit.h>

/* ---- identity (rv_pe.v:133, noc_cu_base parameters) ---- */
/** KH_CPU_VERSION - CU_CAPS [47:40] of rv_pe (CU_VERSION 8'h01). */
#define KH_CPU_VERSION		0x01
/** KH_CPU_NBUF - CU_CAPS [39:36] (N_BUFFERS 4; buffers 4 and 5 exist too). */
#define KH_CPU_NBUF		4

/* ---- local memories (rv_pe.v:43-48) ---- */
/** KH_CPU_IMEM_WORDS - 32-bit words in the instruction window. */
#define KH_CPU_IMEM_WORDS	2048
/** KH_CPU_SPAD_WORDS - 32-bit words in the scratchpad. */
#define KH_CPU_SPAD_WORDS	2048
/** KH_CPU_GRANULE_BYTES - one CU_DATA data flit: eight 32-bit words. */
#define KH_CPU_GRANULE_BYTES	32
/** KH_CPU_GRANULE_WORDS - 32-bit words per granule. */
#define KH_CPU_GRANULE_WORDS	8
/** KH_CPU_WINDOW_GRANULES - granules in either window (2048 / 8). */
#define KH_CPU_WINDOW_GRANULES	256
/** KH_CPU_L1_LINES - lines of the internal L1 (direct mapped, write back). */
#define KH_CPU_L1_LINES		128
/** KH_CPU_L1_LINE_BYTES - one line is one memory word, one flit. */
#define KH_CPU_L1_LINE_BYTES	32
/** KH_CPU_BTB_ENTRIES - branch target buffer entries (rv_bpred.v). */
#define KH_CPU_BTB_ENTRIES	32

/* ---- CU_DATA buffers (rv_pe.v:19-26, 105-106, 186-211) ---- */
/** KH_CPU_BUF_SPAD - scratchpad, raw 32-byte granules at offset. */
#define KH_CPU_BUF_SPAD		0
/** KH_CPU_BUF_IMEM - instruction window, raw 32-byte granules. */
#define KH_CPU_BUF_IMEM		1
/** KH_CPU_BUF_VSPAD - vector scratchpad: DSP builds only, refused here. */
#define KH_CPU_BUF_VSPAD	2
/** KH_CPU_BUF_RESERVED - reserved to the framework (staging): refused. */
#define KH_CPU_BUF_RESERVED	3
/** KH_CPU_BUF_SPAD_W - scratchpad, one 32-bit word per data flit, byte enabled. */
#define KH_CPU_BUF_SPAD_W	4
/** KH_CPU_BUF_IMEM_W - instruction window, one 32-bit word (enables ignored). */
#define KH_CPU_BUF_IMEM_W	5
/** KH_CPU_BUF_VSPAD_W - vector scratchpad word: DSP builds only, refused. */
#define KH_CPU_BUF_VSPAD_W	6
/*
 * A word data flit (buffers 4, 5): the word at window word index
 * offset * 8 + sel, offset the descriptor's granule offset plus the flit's
 * position in the burst.  A burst must satisfy offset + len < 256, else
 * it is counted out and discarded (no fault, no signal, no ack).
 */
/** KH_CPU_WORD_SEL - word-in-granule of a word data flit. */
#define KH_CPU_WORD_SEL		KH_FIELD(38, 36)
/** KH_CPU_WORD_BE - byte enables of a word data flit (scratchpad only). */
#define KH_CPU_WORD_BE		KH_FIELD(35, 32)
/** KH_CPU_WORD_DATA - the 32-bit word of a word data flit. */
#define KH_CPU_WORD_DATA	KH_FIELD(31, 0)

/* ---- CU_INST: the kick (rv_pe.v:301-303, 338-341) ---- */
/** KH_CPU_INST_OP - opcode; KH_CPU_OP_KICK runs, any other retires at once. */
#define KH_CPU_INST_OP		KH_FIELD(255, 248)
/** KH_CPU_INST_PC - the start PC (byte address in the instruction window). */
#define KH_CPU_INST_PC		KH_FIELD(247, 216)
/** KH_CPU_INST_ARG - the argument word, read by the program at KH_CPU_CTL_ARG. */
#define KH_CPU_INST_ARG		KH_FIELD(215, 184)
/** KH_CPU_OP_KICK - start the core at KH_CPU_INST_PC. */
#define KH_CPU_OP_KICK		0x01

/* ---- the core's memory map (rv_mem.v:127-142): top address bits only ---- */
/** KH_CPU_IMEM_BASE - the instruction window: fetch only, data access faults. */
#define KH_CPU_IMEM_BASE	0x00000000u
/** KH_CPU_SPAD_BASE - scratchpad; aliases every 8 KiB inside 0x1xxx_xxxx. */
#define KH_CPU_SPAD_BASE	0x10000000u
/** KH_CPU_CTL_BASE - local control words; aliases every 256 bytes. */
#define KH_CPU_CTL_BASE		0x20000000u
/** KH_CPU_PEER_BASE - peer push window: stores only, a load faults. */
#define KH_CPU_PEER_BASE	0x30000000u
/** KH_CPU_VSPAD_BASE - vector scratchpad of DSP builds: faults here. */
#define KH_CPU_VSPAD_BASE	0x40000000u
/** KH_CPU_DRAM_BASE - global DRAM through the L1: phys = addr & 0x7fffffff. */
#define KH_CPU_DRAM_BASE	0x80000000u
/** KH_CPU_DRAM_MASK - the 31 bits of a DRAM address that reach MAG. */
#define KH_CPU_DRAM_MASK	0x7fffffffu

/* ---- the local control words at KH_CPU_CTL_BASE (rv_mem.v:194-250) ---- */
/** KH_CPU_CTL_STATUS - R: [0] flush/inval sweep busy, [1] writes unacked. */
#define KH_CPU_CTL_STATUS	0x00
/** KH_CPU_CTL_FLUSH - W: write back every dirty line; blocks until acked. */
#define KH_CPU_CTL_FLUSH	0x04
/** KH_CPU_CTL_INVAL - W: drop every line, dirty included; blocks. */
#define KH_CPU_CTL_INVAL	0x08
/** KH_CPU_CTL_CAUSE - R: halt cause register (cleared by the kick). */
#define KH_CPU_CTL_CAUSE	0x0c
/** KH_CPU_CTL_COREID - R: {y[3:0], x[3:0]} of this unit. */
#define KH_CPU_CTL_COREID	0x10
/** KH_CPU_CTL_ARG - R: the kick's argument word. */
#define KH_CPU_CTL_ARG		0x14
/** KH_CPU_CTL_CYCLE - R: cycles since the kick. */
#define KH_CPU_CTL_CYCLE	0x18
/** KH_CPU_CTL_INSTRET - R: instructions retired since the kick. */
#define KH_CPU_CTL_INSTRET	0x1c
/** KH_CPU_CTL_WROUT - R: DRAM writes not yet acknowledged. */
#define KH_CPU_CTL_WROUT	0x20
/** KH_CPU_CTL_STATUS_SWEEP - CTL_STATUS bit 0. */
#define KH_CPU_CTL_STATUS_SWEEP	0x1u
/** KH_CPU_CTL_STATUS_WROUT - CTL_STATUS bit 1. */
#define KH_CPU_CTL_STATUS_WROUT	0x2u

/* ---- the peer push window (rv_mem.v:183-191, rv_noc_req.v:177-230) ---- */
/**
 * KH_CPU_PEER_ADDR() - the store address that pushes a word to a unit
 * @x: destination x.
 * @y: destination y.
 * @win: 0 its scratchpad (CU_DATA buffer 4), 1 its instruction window (5).
 * @gran: the granule (CU_DATA offset), 14 bits.
 * @word: the word in the granule (KH_CPU_WORD_SEL).
 *
 * The store's byte enables travel as KH_CPU_WORD_BE; an sb/sh sends the
 * byte or halfword replicated across the word, as the store path has it.
 */
#define KH_CPU_PEER_ADDR(x, y, win, gran, word) \
	(KH_CPU_PEER_BASE | (((__u32)(x) & 0xf) << 24) | \
	 (((__u32)(y) & 0xf) << 20) | (((__u32)(win) & 1) << 19) | \
	 (((__u32)(gran) & 0x3fff) << 5) | (((__u32)(word) & 7) << 2))

/* ---- memory requests the unit sends (rv_noc_req.v:149-230) ---- */
/** KH_CPU_TXN_FILL_MASK - a line fill's txn is a 4-bit tag, rotating. */
#define KH_CPU_TXN_FILL_MASK	0x0f
/** KH_CPU_TXN_WB - txn of every write-back MEM_WR_REQ and its data. */
#define KH_CPU_TXN_WB		0x20

/* ---- halt and completion (rv_ex.v:62, 157-161; rv_pe.v:347-354) ---- */
/** KH_CPU_CAUSE_NONE - never halted since reset or the kick. */
#define KH_CPU_CAUSE_NONE	0
/** KH_CPU_CAUSE_ECALL - halted by ECALL: exec_result = a0, no fault. */
#define KH_CPU_CAUSE_ECALL	1
/** KH_CPU_CAUSE_EBREAK - halted by EBREAK: exec_result = a0, exec_fault. */
#define KH_CPU_CAUSE_EBREAK	2
/**
 * KH_CPU_CAUSE_FAULT - an illegal instruction, a misaligned access, an
 * unmapped region, a load from the peer window: exec_fault, and the
 * exec_result (SIG_FAULT arg) is the faulting instruction's PC.  rv_pe has
 * no fault code beyond that: the PC is the code.
 */
#define KH_CPU_CAUSE_FAULT	3

/*
 * ---- the driver's L1 flush (docs/spec/cpu.md "The driver's L1 flush") ----
 *
 * A halt does not write the L1 back, and nothing on the NoC reaches the
 * control words, so after every job that kicked a cpu unit the driver runs
 * a stub of its own there: it sends KH_CPU_STUB_GRANULE of the instruction
 * window as CU_DATA (buffer KH_CPU_BUF_IMEM, offset KH_CPU_STUB_GRANULE,
 * the eight words below), then a kick at KH_CPU_STUB_PC, once every
 * program of the job has retired.  The granule is the driver's: a job's
 * data that writes it (KH_CPU_BUF_IMEM or KH_CPU_BUF_IMEM_W, any burst
 * that covers granule 255) is refused at SUBMIT with EINVAL.  The stub
 * uses t0 (x5) and nothing else, so the halt's exec_result (a0) is the
 * program's.
 */
/** KH_CPU_STUB_GRANULE - the instruction window's granule the driver keeps. */
#define KH_CPU_STUB_GRANULE	(KH_CPU_WINDOW_GRANULES - 1)
/** KH_CPU_STUB_PC - the stub's first instruction: 0x1fe0 (word 2040). */
#define KH_CPU_STUB_PC		(KH_CPU_STUB_GRANULE * KH_CPU_GRANULE_BYTES)
/** KH_CPU_STUB_W0 - lui t0, 0x20000: t0 = KH_CPU_CTL_BASE. */
#define KH_CPU_STUB_W0		0x200002b7u
/** KH_CPU_STUB_W1 - sw zero, 4(t0): KH_CPU_CTL_FLUSH, every dirty line written back and acked. */
#define KH_CPU_STUB_W1		0x0002a223u
/** KH_CPU_STUB_W2 - sw zero, 8(t0): KH_CPU_CTL_INVAL, every line dropped. */
#define KH_CPU_STUB_W2		0x0002a423u
/** KH_CPU_STUB_W3 - ecall: halt, exec_result = a0 as the program left it. */
#define KH_CPU_STUB_W3		0x00000073u
/**
 * KH_CPU_STUB_FILL - the granule's other four words (2044..2047): 0, an
 * illegal instruction, never reached (the ECALL halts first).
 */
#define KH_CPU_STUB_FILL	0x00000000u
/** KH_CPU_STUB_INSNS - instructions the stub retires (CU_DBG after it). */
#define KH_CPU_STUB_INSNS	4

/* ---- CU_DBG (rv_pe.v:143) ---- */
/** KH_CPU_DBG_RETIRED() - CU_DBG [63:32]: instructions retired since the kick. */
#define KH_CPU_DBG_RETIRED(v)	((__u32)((v) >> 32))
/** KH_CPU_DBG_CYCLES() - CU_DBG [31:0]: cycles run since the kick. */
#define KH_CPU_DBG_CYCLES(v)	((__u32)((v) & 0xffffffffULL))

/*
 * ---- the DSP extension (KohakuMPE; khd_isa.vh), NOT in the modelled
 * build: with DSP_EN 0 every one of these opcodes is an illegal
 * instruction (KH_CPU_CAUSE_FAULT), as the RTL has it.
 */
/** KH_CPU_OPC_CUSTOM0 - the DSP extension's integer major opcode. */
#define KH_CPU_OPC_CUSTOM0	0x0b
/** KH_CPU_OPC_CUSTOM1 - the DSP extension's float (FP16) major opcode. */
#define KH_CPU_OPC_CUSTOM1	0x2b
/** KH_CPU_DSP_F3_VLD - custom-0 funct3 group: vector load. */
#define KH_CPU_DSP_F3_VLD	0
/** KH_CPU_DSP_F3_VST - custom-0 group: vector store. */
#define KH_CPU_DSP_F3_VST	1
/** KH_CPU_DSP_F3_VINT - custom-0 group: packed integer arithmetic. */
#define KH_CPU_DSP_F3_VINT	2
/** KH_CPU_DSP_F3_VBIT - custom-0 group: bitwise. */
#define KH_CPU_DSP_F3_VBIT	3
/** KH_CPU_DSP_F3_VSHI - custom-0 group: shifts by immediate. */
#define KH_CPU_DSP_F3_VSHI	4
/** KH_CPU_DSP_F3_VMAC - custom-0 group: multiply-accumulate. */
#define KH_CPU_DSP_F3_VMAC	5
/** KH_CPU_DSP_F3_VMOV - custom-0 group: moves and reductions. */
#define KH_CPU_DSP_F3_VMOV	6
/** KH_CPU_DSP_F3_VPRM - custom-0 group: permutes. */
#define KH_CPU_DSP_F3_VPRM	7
/** KH_CPU_DSP_F3_FMAC - custom-1 group: FP16 multiply-accumulate. */
#define KH_CPU_DSP_F3_FMAC	0
/** KH_CPU_DSP_F3_FRED - custom-1 group: FP16 reduction. */
#define KH_CPU_DSP_F3_FRED	1
/** KH_CPU_DSP_F3_FCVT - custom-1 group: conversions. */
#define KH_CPU_DSP_F3_FCVT	2

#endif /* _UAPI_KOHAKU_KH_CPU_H */
