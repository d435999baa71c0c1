// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host DMA on the card side (card/cardbus.h): the decode of a card bus address
 * into a mesh window, DRAM and MAG's host apertures, as the card bus handle
 * the XDMA engine is given (struct ksim_cardbus_ops), and the model-only
 * bulk copy (ksim_dma_write()/ksim_dma_read()).
 *
 * MAG's host channel is its own AXI requester with no ordering against the
 * port engines, so an access goes straight to DRAM: it does not wait for
 * mesh writes in flight (that race is a real hazard the driver handles).
 * Writes are whole 32-byte words: the bytes of a partly covered word
 * outside the range are written as 0, since the host path forces every
 * strobe on.  Data moves in memcpy-sized pieces (the DRAM's pages).
 */
#include "card.h"
#include "cardbus.h"
#include "obs.h"
#include "mag.h"
#include "util.h"

static const u8 ksim_dma_zero[KH_HOST_GRANULE];

/*
 * A hung host transaction (an aperture nobody answers, a quantising
 * upload cut mid-entry) wedges that XDMA direction for every mesh until
 * the hung mesh is reset: nothing more gets through.
 */
static bool ksim_dma_hung(struct ksim_card *c, unsigned int dir)
{
	unsigned int i;

	for (i = 0; i < c->n_mesh; i++)
		if (c->mesh[i]->mag->host_hang & dir)
			return true;
	return false;
}

/*
 * Decode a card bus address to a mesh and a local offset: 0 for DRAM, 1
 * for MAG's apertures ([39] = 1), or a negative errno as
 * struct ksim_cardbus_ops says.
 */
static int ksim_dma_decode(struct ksim_card *c, u64 addr, size_t len,
			 struct ksim_mesh **out, u64 *local)
{
	unsigned int win = (addr >> 40) & 7;
	struct ksim_mesh *m;
	u64 l;

	/* [42:40] = N + 1 selects mesh N; bits above decode nothing */
	if (addr >> 43 || win < 1 || win > KH_MAX_MESHES)
		return -ENXIO;
	m = ksim_card_mesh(c, win - 1);
	if (!m)
		return -ENXIO;
	/* MAG's host window is held in reset with its mesh */
	if (ksim_mesh_held_in_reset(m))
		return -EAGAIN;
	/* [37:36] naming another mesh hangs the card */
	if (((addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK) != win - 1)
		return -EINVAL;
	/* [38] is reserved; [39] = 1 is an aperture: MAG decodes it */
	if (addr & (1ULL << 38))
		return -EINVAL;
	if (addr & KH_MADDR_SPECIAL) {
		*out = m;
		*local = addr & ((1ULL << 40) - 1);
		return 1;
	}
	l = addr & KH_MADDR_LOCAL_MASK;
	if (!ksim_dram_in_range(&m->dram, l, len))
		return -EINVAL;
	*out = m;
	*local = l;
	return 0;
}

static u64 ksim_dma_release(void *ctx, u64 addr)
{
	struct ksim_card *c = ctx;
	struct ksim_mesh *m = ksim_card_mesh(c, ((addr >> 40) & 7) - 1);

	return m ? m->rst.release : 0;
}

/* [local, local + len) and the rest of its first and last words as 0 */
static int ksim_dma_dram_write(struct ksim_mesh *m, u64 local,
			       const void *buf, size_t len)
{
	u32 head = (u32)(local & (KH_HOST_GRANULE - 1));
	u32 tail = (u32)((local + len) & (KH_HOST_GRANULE - 1));
	int e = 0, r;

	if (!len)
		return 0;
	/* a word past the DRAM end cannot occur: sizes are MiB */
	if (head)
		e = ksim_dram_write(&m->dram, local - head, ksim_dma_zero, head);
	if (tail) {
		r = ksim_dram_write(&m->dram, local + len, ksim_dma_zero,
				    KH_HOST_GRANULE - tail);
		e = e ? e : r;
	}
	r = ksim_dram_write(&m->dram, local, buf, len);
	return e ? e : r;
}

static int ksim_dma_card_probe(void *ctx, u64 addr, size_t len, bool write)
{
	struct ksim_card *c = ctx;
	struct ksim_mesh *m;
	u64 local;
	int e;

	if (ksim_dma_hung(c, write ? KSIM_MAG_HANG_H2C : KSIM_MAG_HANG_C2H))
		return -EIO;
	e = ksim_dma_decode(c, addr, len, &m, &local);
	return e < 0 ? e : 0;
}

static int ksim_dma_card_write(void *ctx, u64 addr, const void *buf,
			       size_t len)
{
	struct ksim_card *c = ctx;
	struct ksim_mesh *m;
	u64 local;
	int e;

	if (ksim_dma_hung(c, KSIM_MAG_HANG_H2C))
		return -EIO;
	e = ksim_dma_decode(c, addr, len, &m, &local);
	if (e == 1)
		return len ? ksim_mag_host_write(m->mag, local, buf, len) : 0;
	if (e)
		return e;
	return ksim_dma_dram_write(m, local, buf, len);
}

static int ksim_dma_card_read(void *ctx, u64 addr, void *buf, size_t len)
{
	struct ksim_card *c = ctx;
	struct ksim_mesh *m;
	u64 local;
	int e;

	if (ksim_dma_hung(c, KSIM_MAG_HANG_C2H))
		return -EIO;
	e = ksim_dma_decode(c, addr, len, &m, &local);
	if (e == 1)
		return len ? ksim_mag_host_read(m->mag, local, buf, len) : 0;
	if (e || !len)
		return e;
	ksim_dram_read(&m->dram, local, buf, len);
	return 0;
}

const struct ksim_cardbus_ops ksim_cardbus_ops = {
	.probe = ksim_dma_card_probe,
	.write = ksim_dma_card_write,
	.read = ksim_dma_card_read,
	.release = ksim_dma_release,
};

/* ---- the model-only bulk copy (ksim.h; TRANSITION) ---- */

static void ksim_dma_time(struct ksim_card *c, size_t len)
{
	u64 beats = ((u64)len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE;

	ksim_run(c, c->timing.dma_cycles + beats);
}

/* its documented answers: no window is -EINVAL, a window in reset -EIO */
static int ksim_dma_legacy(int e)
{
	if (e == -ENXIO)
		return -EINVAL;
	if (e == -EAGAIN)
		return -EIO;
	return e;
}

int ksim_dma_write(struct ksim_card *card, u64 card_addr,
		     const void *buf, size_t len)
{
	if (ksim_unlikely(card->obs->dma_watched))
		ksim_obs_dma(card->obs, true, card_addr, len, 0,
			     card->timing.dma_cycles);
	card->host_dmas++;
	card->host_dma_bytes += len;
	ksim_dma_time(card, len);
	return ksim_dma_legacy(ksim_dma_card_write(card, card_addr, buf, len));
}

int ksim_dma_read(struct ksim_card *card, u64 card_addr, void *buf,
		    size_t len)
{
	if (ksim_unlikely(card->obs->dma_watched))
		ksim_obs_dma(card->obs, false, card_addr, len, 0,
			     card->timing.dma_cycles);
	card->host_dmas++;
	card->host_dma_bytes += len;
	ksim_dma_time(card, len);
	return ksim_dma_legacy(ksim_dma_card_read(card, card_addr, buf, len));
}
