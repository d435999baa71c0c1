// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Whole-card test helpers. */
#include "mmesh.h"
#include <stdio.h>

u64 mm_rd(struct ksim_card *c, unsigned int mesh, u32 off)
{
	return ksim_read64(c, KH_MESH_BASE(mesh) + off);
}

void mm_wr(struct ksim_card *c, unsigned int mesh, u32 off, u64 v)
{
	ksim_write64(c, KH_MESH_BASE(mesh) + off, v);
}

void mm_mb_send(struct ksim_card *c, unsigned int mesh,
		const struct kh_flit *f)
{
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		mm_wr(c, mesh, KH_ORC_TX_FLIT(i), f->w[i]);
	mm_wr(c, mesh, KH_ORC_TX_KICK, 1);
}

int mm_mb_recv(struct ksim_card *c, unsigned int mesh, struct kh_flit *f,
	       unsigned int polls)
{
	unsigned int i;

	while (polls--) {
		if (mm_rd(c, mesh, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY)
			continue;
		for (i = 0; i < KH_FLIT_WORDS; i++)
			f->w[i] = mm_rd(c, mesh, KH_ORC_RX_FLIT(i));
		mm_wr(c, mesh, KH_ORC_RX_POP, 1);
		return 1;
	}
	return 0;
}

int mm_ctrl(struct ksim_card *c, unsigned int mesh, unsigned int x,
	    unsigned int y, unsigned int op, unsigned int idx, u64 value,
	    unsigned int txn, struct kh_flit *reply)
{
	struct kh_flit f;

	mh_ctrl_req(&f, x, y, idx, txn);
	kh_flit_set(&f, KH_CTRL_OP, op);
	kh_flit_set(&f, KH_CTRL_VALUE, value);
	mm_mb_send(c, mesh, &f);
	return mm_mb_recv(c, mesh, reply, 40);
}

static u64 mm_ctrl_checked(struct ksim_card *c, unsigned int mesh,
			   unsigned int x, unsigned int y, unsigned int op,
			   unsigned int idx, u64 value)
{
	struct kh_flit r;

	if (!mm_ctrl(c, mesh, x, y, op, idx, value, 0x5c, &r))
		return ~0ULL;
	if (kh_flit_get(&r, KH_CTRL_OP) != KH_CTRL_OP_REPLY ||
	    kh_flit_get(&r, KH_CTRL_INDEX) != idx ||
	    kh_flit_get(&r, KH_HDR_TXN) != 0x5c ||
	    kh_flit_get(&r, KH_HDR_SRC_X) != x ||
	    kh_flit_get(&r, KH_HDR_SRC_Y) != y)
		return ~0ULL;
	return mh_ctrl_value(&r);
}

u64 mm_ctrl_rd(struct ksim_card *c, unsigned int mesh, unsigned int x,
	       unsigned int y, unsigned int idx)
{
	return mm_ctrl_checked(c, mesh, x, y, KH_CTRL_OP_READ, idx, 0);
}

u64 mm_ctrl_wr(struct ksim_card *c, unsigned int mesh, unsigned int x,
	       unsigned int y, unsigned int idx, u64 value)
{
	return mm_ctrl_checked(c, mesh, x, y, KH_CTRL_OP_WRITE, idx, value);
}

void mm_null_prog(struct ksim_card *c, unsigned int mesh, unsigned int x,
		  unsigned int y, unsigned int n, unsigned int cred)
{
	struct kh_flit f;
	unsigned int i, w;

	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x30 + i,
			    i + 1 == n);
		f.w[0] = 0x100 + i;
		for (w = 0; w < KH_FLIT_WORDS; w++)
			mm_wr(c, mesh, KH_ORC_STAGE(i) + w * 8, f.w[w]);
	}
	mm_wr(c, mesh, KH_ORC_PROG_CRED, cred);
	mm_wr(c, mesh, KH_ORC_PROG_DST, KH_YX(x, y));
	mm_wr(c, mesh, KH_ORC_PROG_BASE, 0);
	mm_wr(c, mesh, KH_ORC_PROG_LEN, n);
	mm_wr(c, mesh, KH_ORC_PROG_KICK, 1);
}

u64 mm_ns(struct ksim_card *c, unsigned int mesh, unsigned int x,
	  unsigned int y)
{
	return mm_rd(c, mesh, KH_ORC_NODE_STATUS(KH_YX(x, y)));
}

static u32 mm_reg32(struct ksim_card *c, u32 base, u32 off)
{
	u64 v = ksim_read64(c, base + (off & ~7u));

	return (u32)(off & 4 ? v >> 32 : v);
}

u32 mm_clk_rd(struct ksim_card *c, unsigned int mesh, u32 off)
{
	return mm_reg32(c, KH_CLKWIZ_BASE(mesh), off);
}

u32 mm_ddrc_rd(struct ksim_card *c, unsigned int mesh, u32 off)
{
	return mm_reg32(c, KH_DDRC_BASE(mesh), off);
}

/*
 * One 32-bit beat: the wizard takes nothing wider, and a read-merge-write
 * of a pair would put back a duty's 0 (kohakutpu.md 8.5)
 */
void mm_clk_wr(struct ksim_card *c, unsigned int mesh, u32 off, u32 v)
{
	ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(mesh) + off, v);
}

const char *mm_fixture(const char *name)
{
	static char buf[8192];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/model/maps/%s", name);
	f = fopen(path, "r");
	if (!f) {
		check_fail_at(__FILE__, __LINE__,
			    "cannot open %s (run from the repo top)", path);
		return NULL;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

void mm_expect_err(const char *desc, const char *msg)
{
	struct ksim_card *c = NULL;
	char err[256];
	int e;

	err[0] = 0;
	e = ksim_card_create(desc, &c, err, sizeof(err));
	CHECK_MSG(e == -EINVAL, "expected -EINVAL, got %d for:\n%s", e, desc);
	CHECK_MSG(!strcmp(err, msg), "message '%s', expected '%s'", err, msg);
	CHECK(c == NULL);
	ksim_card_destroy(c);
}
