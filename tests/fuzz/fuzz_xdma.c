// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the card's XDMA engine (the model's sim-backend/xdma/)
 * driven as a host driver would drive it, by anything: the input's first
 * 4 KiB are host memory at bus address BUS0 (descriptor chains, data,
 * write-back words), the rest is a program of register writes to the DMA
 * BAR (H2C and C2H channels, their SGDMA blocks, the IRQ block, SGDMA
 * common), each followed by some cycles of the card.  Host memory past the
 * input is a 1 MiB arena; any other bus address is refused, as an
 * unmapped one.
 *
 * Promises: no crash, leak or undefined behaviour; the engine asks the
 * host for at most 64 KiB at a time and never for memory it was not given
 * without hearing the refusal; MSI-X messages only to the vectors the card
 * offers.  Seeds: valid H2C and C2H chains (FUZZ_WRITE_SEEDS=DIR writes
 * them there and exits).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksim.h"
#include <kohaku/kh_regs.h>
#include <kohaku/kh_xdma.h>
#include "fuzz_promise.h"

#define BUS0		0x200000000ULL
#define ARENA_SIZE	(1u << 20)
#define IMAGE		4096
#define XDMA_BAR	1
#define MAX_WRITES	64

static uint8_t arena[ARENA_SIZE];

static int in_arena(u64 bus, size_t n)
{
	promise(n <= 64 * 1024);
	return bus >= BUS0 && bus - BUS0 <= ARENA_SIZE &&
	       n <= ARENA_SIZE - (bus - BUS0);
}

static int mem_read(void *ctx, u64 bus, void *dst, size_t n)
{
	if (!in_arena(bus, n))
		return -EFAULT;
	memcpy(dst, arena + (bus - BUS0), n);
	return 0;
}

static int mem_write(void *ctx, u64 bus, const void *src, size_t n)
{
	if (!in_arena(bus, n))
		return -EFAULT;
	memcpy(arena + (bus - BUS0), src, n);
	return 0;
}

static void *mem_map(void *ctx, u64 bus, size_t n)
{
	return in_arena(bus, n) ? arena + (bus - BUS0) : NULL;
}

static const struct ksim_host_ops host = { mem_read, mem_write, mem_map };

static void on_msi(void *arg, unsigned int vector)
{
	promise(vector < KSIM_MSI_VECTORS);
}

/* a register write of the program: block, register, value (6 bytes) */
struct wr {
	uint8_t block;		/* [2:0] target, [5:4] channel */
	uint8_t reg;		/* the register's offset / 4 */
	uint8_t value[4];	/* little-endian */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct ksim_card *c = NULL;
	char err[128];
	size_t at, n = len < IMAGE ? len : IMAGE;
	unsigned int i;

	if (ksim_card_create(ksim_builtin_desc("saxpy"), &c, err, sizeof(err)))
		abort();
	memset(arena, 0, sizeof(arena));
	memcpy(arena, data, n);
	ksim_set_host_ops(c, &host, NULL);
	ksim_set_msi(c, KSIM_MSI_VECTORS, on_msi, NULL);
	for (at = IMAGE, i = 0; at + sizeof(struct wr) <= len && i < MAX_WRITES;
	     at += sizeof(struct wr), i++) {
		const struct wr *w = (const void *)(data + at);
		uint32_t v = w->value[0] | w->value[1] << 8 | w->value[2] << 16 |
			     (uint32_t)w->value[3] << 24;

		ksim_bar_write32(c, XDMA_BAR,
				 KH_XDMA_BLOCK(w->block & 7, (w->block >> 4) & 3) +
				 (w->reg & 0x3f) * 4, v);
		ksim_run(c, 500);
		ksim_bar_read32(c, XDMA_BAR, KH_XDMA_BLOCK(w->block & 7,
				(w->block >> 4) & 3) + KH_XDMA_CH_STATUS);
	}
	ksim_run(c, 20000);
	ksim_card_destroy(c);
	return 0;
}

/* FUZZ_WRITE_SEEDS=DIR: valid H2C and C2H chains as seed files, then exit */
static void seed(const char *dir, const char *name, unsigned int target,
		 unsigned int n_desc)
{
	uint8_t in[IMAGE + MAX_WRITES * sizeof(struct wr)];
	struct kh_xdma_desc d;
	struct wr *w = (void *)(in + IMAGE);
	unsigned int i, k = 0;
	char path[4096];
	FILE *f;

	memset(in, 0, sizeof(in));
	for (i = 0; i < n_desc; i++) {
		uint64_t host = BUS0 + 0x1000 + i * 0x400, card = KH_CARD_ADDR(0, i * 0x400);

		memset(&d, 0, sizeof(d));
		d.control = KH_XDMA_DESC_CONTROL(0, i + 1 == n_desc ?
				KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED : 0);
		d.len = 0x400;
		d.src = target == KH_XDMA_T_H2C ? host : card;
		d.dst = target == KH_XDMA_T_H2C ? card : host;
		d.next = i + 1 == n_desc ? 0 : BUS0 + (i + 1) * sizeof(d);
		memcpy(in + i * sizeof(d), &d, sizeof(d));
	}
#define WR(t, r, v) do {						\
		uint32_t v_ = (v);					\
		w[k].block = (t);					\
		w[k].reg = (r) / 4;					\
		w[k].value[0] = v_ & 0xff;				\
		w[k].value[1] = (v_ >> 8) & 0xff;			\
		w[k].value[2] = (v_ >> 16) & 0xff;			\
		w[k].value[3] = v_ >> 24;				\
		k++;							\
	} while (0)
	WR(KH_XDMA_T_IRQ, KH_XDMA_IRQ_CHAN_EN, 0x3);
	WR(target + KH_XDMA_T_H2C_SGDMA, KH_XDMA_SG_DESC_LO, (uint32_t)BUS0);
	WR(target + KH_XDMA_T_H2C_SGDMA, KH_XDMA_SG_DESC_HI, (uint32_t)(BUS0 >> 32));
	WR(target, KH_XDMA_CH_IRQ_MASK, 0x00fffe7e);
	WR(target, KH_XDMA_CH_CTRL, KH_XDMA_CTRL_RUN | 0x00fffe7e);
	WR(target, KH_XDMA_CH_STATUS_RC, 0);
	WR(target, KH_XDMA_CH_CTRL, 0);
#undef WR
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(in, 1, IMAGE + k * sizeof(*w), f) != IMAGE + k * sizeof(*w)) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_WRITE_SEEDS");

	if (!dir)
		return 0;
	seed(dir, "h2c-1", KH_XDMA_T_H2C, 1);
	seed(dir, "h2c-3", KH_XDMA_T_H2C, 3);
	seed(dir, "c2h-2", KH_XDMA_T_C2H, 2);
	exit(0);
}
