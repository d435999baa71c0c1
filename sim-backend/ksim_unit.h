/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The compute-unit API of the device model: what a unit model sees of
 * noc_cu_base, mirroring the datapath handshake of seed 001 §3-§6.
 *
 * A unit type is one file (or a directory of files) under units/ defining a
 * `struct ksim_unit_type` plus one line in the unit table (units/table.c); the
 * mesh never learns about it.  The base
 * (units/base.c) owns the mesh-facing port, the instruction and receive
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
 * and, with a `cudata` policy, hand CU_DATA flits to the one receiver the
 * units share (ksim_unit_cd_take()) and send the SIG_DATA_RECEIVED acks it
 * owes (ksim_unit_cd_ack()).
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

/* the deepest ack queue a unit type may declare (ksim_cd_policy.acks) */
#define KSIM_CD_ACKS_MAX	8

/**
 * enum ksim_cd_ack - when a unit owes SIG_DATA_RECEIVED for a CU_DATA burst
 * @KSIM_CD_ACK_ON_FLAG: whenever the descriptor's flags[0] asks, a refused
 *	burst too (kohakutpu.md 2.5: a receiver should still ack it).
 * @KSIM_CD_ACK_NONE_AFTER_REFUSE: when flags[0] asks and the burst landed;
 *	a refused burst is not acknowledged.
 * @KSIM_CD_ACK_NEVER: never, whatever flags[0] says.
 */
enum ksim_cd_ack {
	KSIM_CD_ACK_ON_FLAG,
	KSIM_CD_ACK_NONE_AFTER_REFUSE,
	KSIM_CD_ACK_NEVER,
};

/**
 * enum ksim_cd_foreign - a CU_DATA flit from another source than the open
 *	burst's
 * @KSIM_CD_FOREIGN_DROP: dropped (ksim_unit_drop()); the burst goes on,
 *	counting its own source's flits only.
 * @KSIM_CD_FOREIGN_SPOILS: dropped, but counted as one of the open burst's
 *	flits, and the burst is refused from there on (@refuse is called for
 *	each such flit): neither burst can be completed.
 * @KSIM_CD_FOREIGN_SPLICES: taken as the open burst's next data flit:
 *	the receiver does not look at the source.
 */
enum ksim_cd_foreign {
	KSIM_CD_FOREIGN_DROP,
	KSIM_CD_FOREIGN_SPOILS,
	KSIM_CD_FOREIGN_SPLICES,
};

/**
 * struct ksim_cd_policy - a unit type's CU_DATA receiver: hooks and quirks
 * @ok: the bound check: may a burst of @len + 1 data flits into buffer @buf
 *	from @off on (granules, or what the buffer counts) land?  Called at
 *	the descriptor; false refuses the burst: counted out to its last
 *	flit, nothing lands.
 * @word: land data flit @f at @off (the descriptor's offset plus the flit's
 *	index in the burst) of buffer @buf.  Called, in the cycle the flit is
 *	taken, for each data flit of a burst not refused.
 * @refuse: optional: a burst was refused (@f: its descriptor, with
 *	@recheck the data flit that found it no longer fits, with
 *	KSIM_CD_FOREIGN_SPOILS the other source's flit); the unit's own
 *	record of it (a counter, a fault for its next retirement).
 * @recheck: ask @ok again at every data flit of a burst not yet refused,
 *	with the descriptor's values: for a unit whose state, not only the
 *	burst, decides (the POOL unit: a core let out of reset mid-burst).
 * @foreign: a CU_DATA flit from another source while a burst is open
 *	(enum ksim_cd_foreign).
 * @ack: when a burst is acknowledged (enum ksim_cd_ack).
 * @ack_txn0: the ack's txn is 0, not the descriptor's.
 * @acks: how many acks may wait for the unit's send path (its ack register
 *	or queue, 1 to KSIM_CD_ACKS_MAX; 0 with KSIM_CD_ACK_NEVER); the last
 *	flit of a burst owed an ack waits, at the head of the receive FIFO,
 *	while that many wait.
 * @ack_lat: cycles after its burst's last flit before an ack may go.
 * @hold: every CU_DATA flit waits while an ack is owed, not only the last
 *	flit of a burst owed another.
 *
 * The receiver (units/cudata.c) frames by count: any CU_DATA flit while no
 * burst is open is a descriptor, then len + 1 data flits from its source;
 * the ack goes to {ack_y, ack_x}, or to the descriptor's source when that
 * is 0, with arg = buf_id and the descriptor's txn (kohakutpu.md 2.5, 5.7).
 * Everything a unit does differently is declared here.
 */
struct ksim_cd_policy {
	bool (*ok)(struct ksim_unit *u, unsigned int buf, u32 off, u32 len);
	void (*word)(struct ksim_unit *u, unsigned int buf, u32 off,
		     const struct kh_flit *f);
	void (*refuse)(struct ksim_unit *u, const struct kh_flit *f);
	bool recheck;
	u8 foreign;
	u8 ack;
	bool ack_txn0;
	u8 acks;
	u8 ack_lat;
	bool hold;
};

/**
 * struct ksim_unit_type - a kind of compute unit: its facts and its model
 * @token: the map token, e.g. "sax".
 * @name: what it is, for messages.
 * @cu_type: CU_CAPS [63:48].
 * @cu_version: the module's own CU_VERSION parameter default, what CU_CAPS
 *	[47:40] reads on a mesh built with the RTL's defaults (`profile rtl`,
 *	`param cu_version module`); a generated top passes one build number
 *	to every unit instead (`param cu_version N`, `profile ship`).
 * @cu_version_fixed: the module wires @cu_version into its noc_cu_base
 *	itself (rv_pe.v:133), so no top can give it another: CU_CAPS shows
 *	@cu_version whatever the mesh's build number.
 * @n_buffers: CU_CAPS [39:36].
 * @priv_size: bytes of private state per unit, zeroed at creation
 *	(ksim_unit_priv()).
 * @init: optional; returning nonzero fails card creation.
 * @fini: optional; undoes @init.
 * @tick: the unit's cycle, as the top of this file says.  NULL: the token
 *	is known but has no model (refused by the parser).
 * @reset: optional: mesh reset; the default is @fini, zeroed private state,
 *	@init.
 * @recv_types: optional, for the protocol checker (rule 5): the flit types
 *	the unit handles on recv_*, bit 1u << KH_T_* (kh_flit.h) per type;
 *	0 means MEM_RD_RESP, MEM_WR_ACK, CU_SIGNAL and CU_DATA.
 * @ctrl_read: optional: a CU_CTRL addon window of the unit's own (the POOL
 *	unit's 0xe8-0xef, KH_CTRL_IDX_IS_POOL).  The base calls it when it
 *	captures a request for an index it does not answer itself (above
 *	KH_CTRL_IDX_DBG); returning true with *val claims the index and the
 *	reply carries *val, the register as it stands at capture.  Without
 *	it, or on false, the index reads 0 as in noc_cu_base.
 * @ctrl_write: optional: a request with op KH_CTRL_OP_WRITE to an index
 *	@ctrl_read claimed, called right after it (so the reply carries the
 *	value before the write, as the L2 adapter's window does) with the
 *	request's value.  Any other op is a read.
 * @stats: optional: the unit's own counters as ` key=value` pairs, up to
 *	@len bytes at @buf (NUL-terminated), appended to its line of
 *	ksim_dump_stats().  Returns the length written.
 * @cudata: optional: the unit's CU_DATA receiver, its hooks and its
 *	quirks (struct ksim_cd_policy); the unit hands each CU_DATA flit to
 *	ksim_unit_cd_take().  NULL: the unit takes no CU_DATA (it drops what
 *	comes, as any type it does not know).
 * @clk_out: the clock wizard output that clocks the unit, base included
 *	(KH_CLK_OUT_*: KH_CLK_OUT_MAT2X for mat, KH_CLK_OUT_VEC for vec);
 *	0, CLKOUT0 noc, for every other type.  Its latencies, timers and
 *	busy count are in that clock's cycles (docs/model.md "Mesh clocks").
 * @mem_in_job: optional: true while the unit's spec lets it reach memory
 *	only with an instruction of its in flight or queued (a POOL unit
 *	whose firmware the host has claimed: the job API's firmware touches
 *	DRAM for a job, docs/spec/pool.md); the checker reports a memory
 *	request sent otherwise (its `idle_mem` count).
 */
struct ksim_unit_type {
	const char *token;
	const char *name;
	u16 cu_type;
	u8 cu_version;
	bool cu_version_fixed;
	u8 n_buffers;
	size_t priv_size;
	int (*init)(struct ksim_unit *u);
	void (*fini)(struct ksim_unit *u);
	bool (*tick)(struct ksim_unit *u);
	void (*reset)(struct ksim_unit *u);
	u16 recv_types;
	bool (*ctrl_read)(struct ksim_unit *u, unsigned int idx, u64 *val);
	void (*ctrl_write)(struct ksim_unit *u, unsigned int idx, u64 val);
	size_t (*stats)(struct ksim_unit *u, char *buf, size_t len);
	const struct ksim_cd_policy *cudata;
	u8 clk_out;
	bool (*mem_in_job)(struct ksim_unit *u);
};

/**
 * ksim_unit_inst() - inst_flit, when inst_valid
 * @u: the unit.
 *
 * Capture what you need now.
 *
 * Return: the head instruction when inst_valid, else NULL.
 */
const struct kh_flit *ksim_unit_inst(struct ksim_unit *u);
/**
 * ksim_unit_inst_accept() - inst_ready for this cycle
 * @u: the unit.
 *
 * The head instruction is consumed and in_flight set.  Without inst_valid
 * it does nothing.
 */
void ksim_unit_inst_accept(struct ksim_unit *u);
/**
 * ksim_unit_retire() - exec_done, with exec_result and exec_fault
 * @u: the unit.
 * @result: exec_result.
 * @fault: exec_fault.
 *
 * The base picks the completion code (fault > batch > inst) and addresses
 * it to the instruction's sender.  Never in the cycle of
 * ksim_unit_inst_accept(): the base then loses the completion exactly as
 * the RTL does.
 */
void ksim_unit_retire(struct ksim_unit *u, u32 result, bool fault);

/**
 * ksim_unit_recv() - recv_flit, when recv_valid
 * @u: the unit.
 *
 * Return: the receive FIFO's head when recv_valid, else NULL.
 */
const struct kh_flit *ksim_unit_recv(struct ksim_unit *u);
/**
 * ksim_unit_recv_pop() - recv_ready: the head is consumed
 * @u: the unit.
 *
 * Once per cycle.
 */
void ksim_unit_recv_pop(struct ksim_unit *u);
/**
 * ksim_unit_drop() - a received flit the unit drops
 * @u: the unit.
 * @f: the flit.
 * @why: for the log.
 *
 * Counted, and logged when enabled.
 */
void ksim_unit_drop(struct ksim_unit *u, const struct kh_flit *f,
		  const char *why);

/**
 * ksim_unit_cd_take() - a CU_DATA flit at the head of the receive FIFO
 * @u: the unit; its type has a &ksim_unit_type.cudata policy.
 * @f: the flit (ksim_unit_recv()).
 *
 * The port contract's receiver, once for every unit (units/cudata.c): it
 * opens, counts, lands through the policy's hooks, refuses and owes the
 * ack, as the unit's policy declares.
 *
 * Return: true when the flit was taken (pop it: ksim_unit_recv_pop());
 * false when it must wait at the head of the FIFO (take nothing else this
 * cycle).
 */
bool ksim_unit_cd_take(struct ksim_unit *u, const struct kh_flit *f);
/**
 * ksim_unit_cd_open() - a CU_DATA burst is being counted
 * @u: the unit.
 * @buf: if not NULL, set to its buf_id.
 *
 * Return: true from its descriptor to its last data flit, refused or not.
 */
bool ksim_unit_cd_open(const struct ksim_unit *u, unsigned int *buf);
/**
 * ksim_unit_cd_acks() - SIG_DATA_RECEIVED acks owed
 * @u: the unit.
 *
 * Return: how many wait for the unit's send path.
 */
unsigned int ksim_unit_cd_acks(const struct ksim_unit *u);
/**
 * ksim_unit_cd_ack_at() - when the oldest ack owed may go
 * @u: the unit.
 *
 * Return: the cycle, or ~0ULL when none is owed.
 */
u64 ksim_unit_cd_ack_at(const struct ksim_unit *u);
/**
 * ksim_unit_cd_ack() - the oldest ack owed, if it may go now
 * @u: the unit.
 * @f: set to its CU_SIGNAL flit (SIG_DATA_RECEIVED, arg buf_id).
 *
 * The unit offers it on send_* where its send path puts acks, and calls
 * ksim_unit_cd_ack_pop() once it is taken (or loaded into a register that
 * holds it until taken).
 *
 * Return: true with @f built; false when none may go.
 */
bool ksim_unit_cd_ack(const struct ksim_unit *u, struct kh_flit *f);
/**
 * ksim_unit_cd_ack_pop() - the oldest ack owed has left
 * @u: the unit.
 */
void ksim_unit_cd_ack_pop(struct ksim_unit *u);

/**
 * ksim_unit_send_ready() - send_ready this cycle
 * @u: the unit.
 *
 * Return: true when nothing of higher priority is waiting and the unit has
 * not sent this cycle.
 */
bool ksim_unit_send_ready(const struct ksim_unit *u);
/**
 * ksim_unit_send() - send_valid with a flit
 * @u: the unit.
 * @f: the flit, copied.  The base sends it verbatim: the unit sets every
 *	header field, src included.
 *
 * Return: true when the base took it this cycle; on false, offer it again
 * next tick.
 */
bool ksim_unit_send(struct ksim_unit *u, const struct kh_flit *f);

/**
 * ksim_unit_set_dbg() - dbg_ctr (CU_CTRL index 3)
 * @u: the unit.
 * @dbg: the value CU_DBG reads.
 */
void ksim_unit_set_dbg(struct ksim_unit *u, u64 dbg);

/**
 * ksim_unit_priv() - the unit's private state
 * @u: the unit.
 *
 * Return: &ksim_unit_type.priv_size bytes, zeroed at creation.
 */
void *ksim_unit_priv(struct ksim_unit *u);
/**
 * ksim_unit_type_of() - what kind of unit this is
 * @u: the unit.
 *
 * Return: its type.
 */
const struct ksim_unit_type *ksim_unit_type_of(const struct ksim_unit *u);
/**
 * ksim_unit_x() - the unit's column in its mesh
 * @u: the unit.
 *
 * Return: x.
 */
unsigned int ksim_unit_x(const struct ksim_unit *u);
/**
 * ksim_unit_y() - the unit's row in its mesh
 * @u: the unit.
 *
 * Return: y.
 */
unsigned int ksim_unit_y(const struct ksim_unit *u);
/**
 * ksim_unit_mesh() - the unit's mesh
 * @u: the unit.
 *
 * Return: the mesh index on the card.
 */
unsigned int ksim_unit_mesh(const struct ksim_unit *u);
/**
 * ksim_unit_params() - the parameters of the unit's mesh
 * @u: the unit.
 *
 * Return: the card description's parameters for the mesh.
 */
const struct ksim_params *ksim_unit_params(const struct ksim_unit *u);
/**
 * ksim_unit_now() - the current cycle
 * @u: the unit.
 *
 * Return: the card's cycle count.
 */
u64 ksim_unit_now(const struct ksim_unit *u);
/**
 * ksim_unit_timer() - be ticked at a cycle even if no input changes
 * @u: the unit.
 * @at: the cycle.
 */
void ksim_unit_timer(struct ksim_unit *u, u64 at);
/**
 * ksim_unit_mag_port() - the MAG port a unit sends memory requests to
 * @u: the unit.
 * @x: the port's x.
 * @y: the port's y.
 *
 * The port on the unit's row, else the port on the nearest row (the lower
 * row on a tie).
 */
void ksim_unit_mag_port(const struct ksim_unit *u, unsigned int *x,
		      unsigned int *y);

/**
 * ksim_unit_hdr() - build a header for a flit this unit sends
 * @u: the unit, the flit's src.
 * @f: the flit.
 * @dx: destination x.
 * @dy: destination y.
 * @type: the flit type (KH_T_*).
 * @txn: the transaction tag.
 * @last: the last flag.
 */
void ksim_unit_hdr(const struct ksim_unit *u, struct kh_flit *f, unsigned int dx,
		 unsigned int dy, unsigned int type, unsigned int txn,
		 unsigned int last);

#endif /* KSIM_UNIT_H */
