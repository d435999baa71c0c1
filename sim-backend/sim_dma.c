// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host DMA through the XDMA path.  MAG's host channel is its own AXI
 * requester with no ordering against the port engines, so an access goes
 * straight to DRAM: it does not wait for mesh writes in flight (that race
 * is a real hazard the driver handles).  Writes are whole 32-byte words:
 * the bytes of a partly covered word outside the range are written as 0,
 * since the host path forces every strobe on.
 */
#include "sim_card.h"
#include "sim_obs.h"
#include "sim_mag.h"

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

/* Decode a card bus address to a mesh and a local offset. */
static int ksim_dma_decode(struct ksim_card *c, u64 addr, size_t len,
			 struct ksim_mesh **out, u64 *local)
{
	unsigned int win = (addr >> 40) & 7;
	struct ksim_mesh *m;
	u64 l;

	/* [42:40] = N + 1 selects mesh N; bits above decode nothing */
	if (addr >> 43 || win < 1 || win > KH_MAX_MESHES)
		return -EINVAL;
	m = ksim_card_mesh(c, win - 1);
	if (!m)
		return -EINVAL;
	/* MAG's host window is held in reset with its mesh: the card hangs */
	if (ksim_mesh_held_in_reset(m))
		return -EIO;
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

static void ksim_dma_time(struct ksim_card *c, size_t len)
{
	u64 beats = ((u64)len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE;

	ksim_run(c, c->timing.dma_cycles + beats);
}

int ksim_dma_write(struct ksim_card *card, u64 card_addr,
		     const void *buf, size_t len)
{
	const u8 *in = buf;
	struct ksim_mesh *m;
	u64 local, w, end;
	int e;

	if (ksim_unlikely(card->obs->trace_on))
		ksim_obs_dma(card, true, card_addr, len, 0);
	card->host_dmas++;
	card->host_dma_bytes += len;
	ksim_dma_time(card, len);
	if (ksim_dma_hung(card, KSIM_MAG_HANG_H2C))
		return -EIO;
	e = ksim_dma_decode(card, card_addr, len, &m, &local);
	if (e == 1)
		return len ? ksim_mag_host_write(m->mag, local, buf, len) : 0;
	if (e || !len)
		return e;
	end = local + len;
	for (w = local & ~(u64)(KH_HOST_GRANULE - 1); w < end;
	     w += KH_HOST_GRANULE) {
		u8 word[KH_HOST_GRANULE];
		u64 b = w < local ? local : w;
		u64 t = w + KH_HOST_GRANULE < end ? w + KH_HOST_GRANULE : end;

		memset(word, 0, sizeof(word));
		memcpy(word + (b - w), in + (b - local), (size_t)(t - b));
		/* a whole word past the DRAM end cannot occur: sizes are MiB */
		e = ksim_dram_write(&m->dram, w, word, sizeof(word));
		if (e)
			return e;
	}
	return 0;
}

int ksim_dma_read(struct ksim_card *card, u64 card_addr, void *buf,
		    size_t len)
{
	struct ksim_mesh *m;
	u64 local;
	int e;

	if (ksim_unlikely(card->obs->trace_on))
		ksim_obs_dma(card, false, card_addr, len, 0);
	card->host_dmas++;
	card->host_dma_bytes += len;
	ksim_dma_time(card, len);
	if (ksim_dma_hung(card, KSIM_MAG_HANG_C2H))
		return -EIO;
	e = ksim_dma_decode(card, card_addr, len, &m, &local);
	if (e == 1)
		return len ? ksim_mag_host_read(m->mag, local, buf, len) : 0;
	if (e || !len)
		return e;
	ksim_dram_read(&m->dram, local, buf, len);
	return 0;
}
