/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The POOL unit's model (docs/spec/pool.md, token `gp`): what its files
 * share.  One concern per file:
 *
 *   pool.c        the unit type: life cycle, the tick, run-stall and reset,
 *                 the CU_CTRL addon registers 0xe8-0xef (and 0xf0-0xf7's
 *                 door to bounds.c), CU_DBG
 *   job.c         jobs in the job CSRs, retirements and faults, LOAD
 *   cudata.c      CU_DATA bursts into IRAM and the DataRAMs (the hooks and
 *                 policy of the shared receiver, units/cudata.c)
 *   iss_decode.c  the predecoder: one IRAM word into a struct ksim_pool_op
 *   iss_exec.c    the interpreter: a core runs ahead of the mesh on its own
 *                 clock until an instruction meets the outside
 *   sync.c        the instructions that meet the outside (the job, barrier
 *                 and iDMA CSRs, WFI, FENCE), executed at their mesh cycle;
 *                 traps
 *   window.c      the DRAM window and the core's write buffer
 *   bounds.c      the bounds (version 2): the host's regions, checked at
 *                 every window access and iDMA descriptor; BOUNDS_FAULT
 *   idma.c        the per-core iDMA engines
 *   port.c        the unit's side of the MAG port: one flit out per cycle
 *                 (round robin), the read budget and write cap, the
 *                 responses back to their requesters by txn
 *   vec*.c        the cores' vector coprocessor (pool_vec.h lists its files)
 *
 * Time.  A core's `t` is the mesh cycle its next instruction issues at.
 * The unit ticks at the mesh's cycle `now`; a core due (t <= now) runs up
 * to KSIM_POOL_QUANTUM cycles ahead, alone, as long as its instructions
 * touch only its registers, its DataRAM and IRAM (nothing else can see
 * them meanwhile, docs/spec/pool.md "Timing").  It stops in front of the
 * first instruction that meets the outside and that one executes when the
 * mesh reaches its cycle (ksim_unit_timer()), so whatever others see
 * happens at the right cycle and the unit stays deterministic.
 */
#ifndef KSIM_POOL_H
#define KSIM_POOL_H

#include "ksim_unit.h"
#include "util.h"
#include <kohaku/kh_pool.h>
#include "pool_vec.h"

#define KSIM_POOL_IRAM_WORDS	(KH_POOL_IRAM_SIZE / 4)
#define KSIM_POOL_DRAM_WORDS	(KH_POOL_DRAM_SIZE / 4)
#define KSIM_POOL_WORD		KH_POOL_WORD_BYTES
#define KSIM_POOL_QUANTUM	2048	/* cycles a core may run ahead */
#define KSIM_POOL_WB_DEPTH	8	/* posted window writes per core (seed 002 §1.5) */
#define KSIM_POOL_BEATS		KH_MEM_WBURST	/* beats per read or write burst */
#define KSIM_POOL_IDMA_SLOTS	4	/* reads in flight per iDMA engine */
#define KSIM_POOL_LOAD_SLOTS	8	/* reads in flight for LOAD */
#define KSIM_POOL_WR_MAX	8	/* write bursts unacked, unit-wide */
#define KSIM_POOL_SIGQ		8	/* SIG_DATA_RECEIVED waiting to go */
#define KSIM_POOL_NEVER		(~0ULL)
#define KSIM_POOL_ALL		((1u << KH_POOL_CORES) - 1)

#define ksim_pool_likely(x)	__builtin_expect(!!(x), 1)
#define ksim_pool_unlikely(x)	__builtin_expect(!!(x), 0)

/* txn tags on the MAG port: who a response or an ack belongs to */
#define KSIM_POOL_TXN_WIN_RD(c)		(0x00 + (c))
#define KSIM_POOL_TXN_LOAD(s)		(0x10 + (s))
#define KSIM_POOL_TXN_WIN_WR(c)		(0x20 + (c))
#define KSIM_POOL_TXN_IDMA_WR(c)	(0x28 + (c))
#define KSIM_POOL_TXN_IDMA_RD(c, s)	(0x40 + (c) * KSIM_POOL_IDMA_SLOTS + (s))

/* Predecoded instruction kinds (iss_decode.c); 0 = not decoded yet. */
enum ksim_pool_kind {
	KSIM_POOL_K_UNDEC = 0,
	KSIM_POOL_K_LI,		/* LUI, AUIPC: rd = imm */
	KSIM_POOL_K_JAL,	/* imm: the target's word index */
	KSIM_POOL_K_JALR,
	KSIM_POOL_K_BEQ,	/* branches: imm the target's word index */
	KSIM_POOL_K_BNE,
	KSIM_POOL_K_BLT,
	KSIM_POOL_K_BGE,
	KSIM_POOL_K_BLTU,
	KSIM_POOL_K_BGEU,
	KSIM_POOL_K_LB,
	KSIM_POOL_K_LH,
	KSIM_POOL_K_LW,
	KSIM_POOL_K_LBU,
	KSIM_POOL_K_LHU,
	KSIM_POOL_K_SB,
	KSIM_POOL_K_SH,
	KSIM_POOL_K_SW,
	KSIM_POOL_K_ADDI,
	KSIM_POOL_K_SLTI,
	KSIM_POOL_K_SLTIU,
	KSIM_POOL_K_XORI,
	KSIM_POOL_K_ORI,
	KSIM_POOL_K_ANDI,
	KSIM_POOL_K_SLLI,
	KSIM_POOL_K_SRLI,
	KSIM_POOL_K_SRAI,
	KSIM_POOL_K_ADD,
	KSIM_POOL_K_SUB,
	KSIM_POOL_K_SLL,
	KSIM_POOL_K_SLT,
	KSIM_POOL_K_SLTU,
	KSIM_POOL_K_XOR,
	KSIM_POOL_K_SRL,
	KSIM_POOL_K_SRA,
	KSIM_POOL_K_OR,
	KSIM_POOL_K_AND,
	KSIM_POOL_K_MUL,
	KSIM_POOL_K_MULH,
	KSIM_POOL_K_MULHSU,
	KSIM_POOL_K_MULHU,
	KSIM_POOL_K_DIV,
	KSIM_POOL_K_DIVU,
	KSIM_POOL_K_REM,
	KSIM_POOL_K_REMU,
	KSIM_POOL_K_NOP,	/* FENCE.I */
	KSIM_POOL_K_FENCE,	/* meets the outside only with posted writes */
	KSIM_POOL_K_CSR,	/* a CSR of the core's own: imm the raw word */
	KSIM_POOL_K_CSRX,	/* a CSR that meets the outside: imm raw */
	KSIM_POOL_K_WFI,
	KSIM_POOL_K_ECALL,
	KSIM_POOL_K_EBREAK,
	KSIM_POOL_K_ILLEGAL,
	KSIM_POOL_K_FETCHF,	/* the word past IRAM: a fetch fault */
	KSIM_POOL_K_BRBAD,	/* a branch to a target that traps: rd = funct3 */
	KSIM_POOL_K_JALBAD,	/* a JAL to a target that traps */
	KSIM_POOL_K_VEC,	/* a vector instruction: pool_vec.h says the fields */
	KSIM_POOL_K_N
};

/*
 * struct ksim_pool_op - one predecoded IRAM word.  rd 0 is stored as 32,
 * a register nothing reads, so that no handler tests for x0.
 */
struct ksim_pool_op {
	u8 k;
	u8 rd, rs1, rs2;
	u32 imm;
};

/* What a core waits for (ksim_pool_core.wait). */
enum ksim_pool_wait {
	KSIM_POOL_W_NONE,
	KSIM_POOL_W_WIN,	/* its window read */
	KSIM_POOL_W_WB,		/* room in its write buffer: the store again */
	KSIM_POOL_W_FENCE,	/* the acks of its posted writes */
	KSIM_POOL_W_WFI,
	KSIM_POOL_W_BARRIER,
	KSIM_POOL_W_PUSH,	/* room in its iDMA queue: the push again */
};

/* What stopped the interpreter in front of the instruction at pc. */
enum ksim_pool_pend {
	KSIM_POOL_P_NONE,
	KSIM_POOL_P_EXT,	/* it meets the outside: sync.c executes it */
	KSIM_POOL_P_TRAP,	/* it traps (trap_cause, trap_pc) */
};

/* A read in flight for a multi-beat requester (iDMA, LOAD). */
struct ksim_pool_rslot {
	bool busy;
	bool discard;		/* its descriptor is gone: beats dropped */
	u8 beats, got;
	u32 off;		/* where beat 0 goes */
};

/* A queued iDMA descriptor (struct kh_pool_idma_desc, copied at push). */
struct ksim_pool_dsc {
	u64 dram;
	u32 dataram, len, flags, pattern;
	bool reserved;		/* a reserved word was nonzero */
};

struct ksim_pool_idma {
	struct ksim_pool_dsc q[KH_POOL_IDMA_QUEUE];
	u8 head, count;		/* count: queued and running, 0..32 */
	bool run;		/* q[head] is running */
	bool err;
	u8 cause;
	u16 done;		/* descriptors completed, wraps */
	u32 issued;		/* bytes requested (reads) or prepared (writes) */
	u32 landed;		/* bytes in DataRAM (reads) or acked (writes) */
	u64 pt;			/* the DataRAM port is busy until then */
	u64 done_at;		/* the running one completes then, or NEVER */
	struct ksim_pool_rslot rs[KSIM_POOL_IDMA_SLOTS];
	/* the write burst read out of DataRAM, waiting for the port */
	bool bst;
	u8 bst_beats;
	u64 bst_addr, bst_at;
	u8 bst_data[KSIM_POOL_BEATS][KSIM_POOL_WORD];
	/* write bursts sent and not acked, oldest first: their bytes */
	u8 ack_head, ack_n, ack_orphans;
	u16 ack_bytes[KSIM_POOL_WR_MAX];
};

/* A posted window write: one 32-byte word. */
struct ksim_pool_wbe {
	u64 addr;
	u8 data[KSIM_POOL_WORD];
};

struct ksim_pool_core {
	u32 x[33];		/* x[32]: where writes to x0 go */
	u32 pc;
	u32 win_base;
	u64 t;			/* the cycle its next instruction issues */
	u64 t0;			/* the cycle it left reset (the cycle CSR) */
	u64 instret;
	u8 id;
	u8 wait;		/* KSIM_POOL_W_* */
	u8 pend;		/* KSIM_POOL_P_* */
	u8 trap_cause;
	u32 trap_pc;
	bool ev;		/* a WFI wake-up event, consumed by WFI */
	/* the window: one read at a time */
	bool win_need_rd;	/* to be sent */
	bool win_rd_out;	/* sent, the response not back */
	bool win_live;		/* the core still waits for it */
	u8 win_off;		/* the access's byte in the word */
	u64 win_word;		/* the word's mesh address */
	/* the write buffer: [head, head + sent) sent, the rest queued */
	struct ksim_pool_wbe wb[KSIM_POOL_WB_DEPTH];
	u8 wb_head, wb_count, wb_sent;
	bool wb_res;		/* the newest entry waits for its store's read */
	u8 wb_orphans;		/* acks owed for writes a reset forgot */
	struct ksim_pool_idma dma;
	struct ksim_pool_vec vec;	/* the coprocessor, cpenable included */
	/* last: kept across resets */
	u8 dram[KH_POOL_DRAM_SIZE];
};

/* The instruction in flight (ksim_pool.inst). */
enum ksim_pool_inst {
	KSIM_POOL_I_NONE,
	KSIM_POOL_I_RETIRE,	/* retires the cycle after its accept */
	KSIM_POOL_I_LOAD,
	KSIM_POOL_I_JOB,	/* in the job CSRs */
};

struct ksim_pool_load {
	u8 tgt;			/* a buf_id, or KH_POOL_LOAD_ALL_DRAM */
	u32 off, len, issued, landed;
	u64 src;
	struct ksim_pool_rslot rs[KSIM_POOL_LOAD_SLOTS];
};

struct ksim_pool_port {
	unsigned int mx, my;	/* the MAG port */
	bool held;		/* a flit offered and refused: offer it again */
	struct kh_flit hflit;
	/* the write burst going out: its data follows its request */
	bool wr_on;
	u8 wr_beats, wr_sent, wr_txn;
	u8 wr_data[KSIM_POOL_BEATS][KSIM_POOL_WORD];
	u32 rd_out, rd_max;	/* read beats in flight; the receive FIFO */
	u32 wr_out, wr_max;	/* write bursts unacked */
	u8 rr;			/* round robin over the requesters */
};

struct ksim_pool {
	struct ksim_unit *u;
	u64 now;		/* the cycle being ticked */
	u64 dram_bytes;		/* the mesh's DRAM */
	unsigned int mesh;
	u8 stall, rst;		/* RUNSTALL [7:0] and [15:8] */
	u8 halted;		/* trapped, per core */
	u8 bar_in;		/* waiting at the barrier */
	u32 bar_count;
	u32 reset_pc;
	u64 trap;		/* the TRAP register */
	bool dead;		/* a core trapped: later jobs fault HALTED */
	bool load_fault;	/* the next retirement faults UNIT_LOAD */
	/* the bounds (bounds.c): the host's, a core reset keeps them */
	u64 region[KH_POOL_REGIONS];	/* REGION0..5, masked */
	u32 bounds_en;			/* BOUNDS_EN, masked */
	u64 bounds_fault;		/* BOUNDS_FAULT */
	bool bounds_job;	/* the present job met a refusal: UNIT_BOUNDS */
	u8 inst;		/* KSIM_POOL_I_* */
	u64 accept_at;
	u32 ret_result;
	bool ret_fault;
	bool job;		/* a job is present */
	u16 seq;
	u32 jw[8];
	u64 executed;		/* CU_DBG */
	struct ksim_pool_port port;
	struct ksim_pool_load ld;
	/* last: the memories, kept across resets */
	struct ksim_pool_core core[KH_POOL_CORES];
	u8 iram[KH_POOL_IRAM_SIZE];
	struct ksim_pool_op dec[KSIM_POOL_IRAM_WORDS + 1];
};

/* ---- little-endian memory words ---- */

static inline u32 ksim_pool_rd32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void ksim_pool_wr32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static inline bool ksim_pool_runs(const struct ksim_pool *p, unsigned int c)
{
	return !(((p->stall | p->rst | p->halted) >> c) & 1);
}

static inline u8 ksim_pool_running(const struct ksim_pool *p)
{
	return (u8)~(p->stall | p->rst | p->halted);
}

/* ---- pool.c ---- */
void ksim_pool_iram_written(struct ksim_pool *p, u32 off, u32 len);

/* ---- iss_decode.c, iss_exec.c ---- */
void ksim_pool_decode(struct ksim_pool *p, u32 idx);
void ksim_pool_iss_run(struct ksim_pool *p, struct ksim_pool_core *c,
		       u64 limit);
bool ksim_pool_is_store(unsigned int k);
unsigned int ksim_pool_access_size(unsigned int k);
u32 ksim_pool_load_value(unsigned int k, const u8 *b);

/* ---- sync.c ---- */
void ksim_pool_ext(struct ksim_pool *p, struct ksim_pool_core *c);
void ksim_pool_trap(struct ksim_pool *p, struct ksim_pool_core *c,
		    unsigned int cause, u32 pc);
void ksim_pool_done(struct ksim_pool *p, struct ksim_pool_core *c,
		    unsigned int lat);
void ksim_pool_again(struct ksim_pool *p, struct ksim_pool_core *c);
void ksim_pool_event(struct ksim_pool *p, unsigned int mask);
void ksim_pool_barrier_eval(struct ksim_pool *p);

/* ---- job.c ---- */
void ksim_pool_accept(struct ksim_pool *p);
void ksim_pool_retire(struct ksim_pool *p, u32 result, bool fault);
void ksim_pool_job_end(struct ksim_pool *p, u32 value, bool fault);
void ksim_pool_job_fw_end(struct ksim_pool *p, u32 value, bool fault);
u32 ksim_pool_job_status(const struct ksim_pool *p);
bool ksim_pool_load_flit(struct ksim_pool *p, struct kh_flit *f);
bool ksim_pool_load_beat(struct ksim_pool *p, unsigned int s,
			 const struct kh_flit *f);

/* ---- cudata.c ---- */
extern const struct ksim_cd_policy ksim_pool_cd;

/* ---- window.c ---- */
/*
 * Core 0's DataRAM bytes [0, 32): the boot mailbox the host reads through
 * BOOT..API_VERSION and writes with CU_DATA, so the core's accesses there
 * run at their mesh cycle, not ahead of it; 0 for the other cores.
 */
static inline u32 ksim_pool_mbox_bytes(const struct ksim_pool_core *c)
{
	return c->id ? 0 : KH_POOL_WORD_BYTES;
}

void ksim_pool_dram_access(struct ksim_pool_core *c,
			   const struct ksim_pool_op *o, u32 a);
void ksim_pool_win_access(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o);
bool ksim_pool_win_flit(struct ksim_pool *p, struct ksim_pool_core *c,
			struct kh_flit *f);
bool ksim_pool_win_resp(struct ksim_pool *p, struct ksim_pool_core *c,
			const struct kh_flit *f);
bool ksim_pool_win_ack(struct ksim_pool *p, struct ksim_pool_core *c);
void ksim_pool_win_reset(struct ksim_pool_core *c);

/* ---- bounds.c ---- */
bool ksim_pool_bounds_idx(unsigned int idx);
u64 ksim_pool_bounds_reg(struct ksim_pool *p, unsigned int idx, bool take);
void ksim_pool_bounds_write(struct ksim_pool *p, unsigned int idx, u64 v);
bool ksim_pool_bounds_ok(const struct ksim_pool *p, u64 addr, u64 len,
			 u64 need);
void ksim_pool_bounds_refuse(struct ksim_pool *p, unsigned int core,
			     bool write, bool idma, u64 addr);

/* ---- idma.c ---- */
void ksim_pool_idma_push(struct ksim_pool *p, struct ksim_pool_core *c,
			 u32 addr);
void ksim_pool_idma_clear(struct ksim_pool *p, struct ksim_pool_core *c);
u32 ksim_pool_idma_status(const struct ksim_pool_core *c);
void ksim_pool_idma_tick(struct ksim_pool *p, struct ksim_pool_core *c);
bool ksim_pool_idma_flit(struct ksim_pool *p, struct ksim_pool_core *c,
			 struct kh_flit *f);
bool ksim_pool_idma_beat(struct ksim_pool *p, struct ksim_pool_core *c,
			 unsigned int s, const struct kh_flit *f);
bool ksim_pool_idma_ack(struct ksim_pool *p, struct ksim_pool_core *c);
void ksim_pool_idma_reset(struct ksim_pool_core *c);
u64 ksim_pool_idma_next(const struct ksim_pool *p,
			const struct ksim_pool_core *c);

/* ---- port.c ---- */
bool ksim_pool_recv(struct ksim_pool *p);
bool ksim_pool_send(struct ksim_pool *p);
bool ksim_pool_rd_ok(const struct ksim_pool *p, unsigned int beats);
unsigned int ksim_pool_rd_beats(const struct ksim_pool *p, u32 bytes_left);
void ksim_pool_rd_req(struct ksim_pool *p, struct kh_flit *f, u64 addr,
		      unsigned int beats, unsigned int txn);
bool ksim_pool_wr_ok(const struct ksim_pool *p);
void ksim_pool_wr_req(struct ksim_pool *p, struct kh_flit *f, u64 addr,
		      unsigned int beats, unsigned int txn,
		      const u8 (*data)[KSIM_POOL_WORD]);
bool ksim_pool_addr_ok(const struct ksim_pool *p, u64 addr, u64 len);

/* ---- for the tests and the benchmark (pool.c) ---- */
/*
 * Direct access, bypassing the mesh: write IRAM or a core's DataRAM (the
 * decode is invalidated as for CU_DATA), write RUNSTALL or any addon
 * register (0xe8-0xef, 0xf0-0xf7) as a CU_CTRL write would, read one
 * (ksim_pool_reg() is a peek: BOUNDS_FAULT stays).  The unit must be a gp
 * unit.
 */
struct ksim_pool *ksim_pool_of(struct ksim_unit *u);
void ksim_pool_poke_iram(struct ksim_pool *p, u32 off, const void *buf,
			 u32 len);
void ksim_pool_poke_dram(struct ksim_pool *p, unsigned int core, u32 off,
			 const void *buf, u32 len);
void ksim_pool_set_runstall(struct ksim_pool *p, u64 v);
u64 ksim_pool_reg(struct ksim_pool *p, unsigned int idx);
void ksim_pool_reg_write(struct ksim_pool *p, unsigned int idx, u64 v);

#endif /* KSIM_POOL_H */
