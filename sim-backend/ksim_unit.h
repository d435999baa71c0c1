/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The compute-unit API of the device model: what a unit model sees of
 * noc_cu_base, mirroring the datapath handshake of seed 001 §3-§6.
 *
 * A unit type is one file defining a `struct ksim_unit_type` plus one line in
 * the unit table (sim_units.c); the mesh never learns about it.  The base
 * (sim_base.c) owns the mesh-facing port, the instruction and receive
 * FIFOs, CU_CTRL, the completion queue and the counters; the unit owns
 * everything behind the handshake.
 *
 * Once per cycle the base calls the unit's tick().  In it the unit may:
 *
 *   ksim_unit_inst()/ksim_unit_inst_accept()   inst_flit/inst_valid, inst_ready
 *   ksim_unit_retire()                       exec_done + exec_result/fault
 *   ksim_unit_recv()/ksim_unit_recv_pop()      recv_flit/recv_valid, recv_ready
 *   ksim_unit_send()                         send_flit/send_valid, send_ready
 *   ksim_unit_set_dbg()                      dbg_ctr (CU_CTRL index 3)
 *
 * Each handshake fires at most once per cycle, as the wires do.  tick()
 * returns true when it changed the unit's own state in a way that needs
 * another tick without any input changing (computing, counting down);
 * false when it waits for an input: an instruction, a received flit,
 * send_ready, or a timer (ksim_unit_timer()).  The base ticks the unit again
 * whenever any of those may have changed.
 */
#ifndef KSIM_UNIT_H
#define KSIM_UNIT_H

#include "ksim_plat.h"
#include <kohaku/kh_flit.h>

struct ksim_unit;
struct ksim_params;

struct ksim_unit_type {
	const char *token;	/* map token, e.g. "sax" */
	const char *name;	/* what it is, for messages */
	u16 cu_type;		/* CU_CAPS [63:48] */
	u8 n_buffers;		/* CU_CAPS [39:36] */
	size_t priv_size;	/* zeroed private state, ksim_unit_priv() */
	/* optional; init() returning nonzero fails card creation */
	int (*init)(struct ksim_unit *u);
	void (*fini)(struct ksim_unit *u);
	/* NULL: the token is known but has no model (refused by the parser) */
	bool (*tick)(struct ksim_unit *u);
	/* optional: mesh reset; default is fini, zeroed private state, init */
	void (*reset)(struct ksim_unit *u);
	/*
	 * optional, for the protocol checker (rule 5): the flit types the
	 * unit handles on recv_*, bit per KSIM_T_*; 0 means MEM_RD_RESP,
	 * MEM_WR_ACK, CU_SIGNAL and CU_DATA
	 */
	u16 recv_types;
};

/* inst_valid ? the head instruction : NULL.  Capture what you need now. */
const struct kh_flit *ksim_unit_inst(struct ksim_unit *u);
/* inst_ready for this cycle: the head is consumed, in_flight set. */
void ksim_unit_inst_accept(struct ksim_unit *u);
/*
 * exec_done with exec_result and exec_fault.  The base picks the
 * completion code (fault > batch > inst) and addresses it to the
 * instruction's sender.  Never in the cycle of ksim_unit_inst_accept(): the
 * base then loses the completion exactly as the RTL does.
 */
void ksim_unit_retire(struct ksim_unit *u, u32 result, bool fault);

/* recv_valid ? the receive FIFO head : NULL. */
const struct kh_flit *ksim_unit_recv(struct ksim_unit *u);
/* recv_ready: the head is consumed (once per cycle). */
void ksim_unit_recv_pop(struct ksim_unit *u);
/* A received flit the unit drops: counted, and logged when enabled. */
void ksim_unit_drop(struct ksim_unit *u, const struct kh_flit *f,
		  const char *why);

/* send_ready this cycle (nothing of higher priority is waiting). */
bool ksim_unit_send_ready(const struct ksim_unit *u);
/*
 * send_valid with f; returns true when the base took it this cycle (the
 * flit is copied).  On false, offer it again next tick.  The base sends
 * the flit verbatim: the unit sets every header field, src included.
 */
bool ksim_unit_send(struct ksim_unit *u, const struct kh_flit *f);

void ksim_unit_set_dbg(struct ksim_unit *u, u64 dbg);

void *ksim_unit_priv(struct ksim_unit *u);
const struct ksim_unit_type *ksim_unit_type_of(const struct ksim_unit *u);
unsigned int ksim_unit_x(const struct ksim_unit *u);
unsigned int ksim_unit_y(const struct ksim_unit *u);
unsigned int ksim_unit_mesh(const struct ksim_unit *u);
const struct ksim_params *ksim_unit_params(const struct ksim_unit *u);
u64 ksim_unit_now(const struct ksim_unit *u);
/* Be ticked at cycle `at` even if no input changes. */
void ksim_unit_timer(struct ksim_unit *u, u64 at);
/*
 * The MAG port a unit sends memory requests to: the port on the unit's
 * row, else the port on the nearest row (the lower row on a tie).
 */
void ksim_unit_mag_port(const struct ksim_unit *u, unsigned int *x,
		      unsigned int *y);

/* Build a header for a flit this unit sends (src = the unit). */
void ksim_unit_hdr(const struct ksim_unit *u, struct kh_flit *f, unsigned int dx,
		 unsigned int dy, unsigned int type, unsigned int txn,
		 unsigned int last);

#endif /* KSIM_UNIT_H */
