// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Moving data between host memory and mesh memory, all through the XDMA
 * engine (kh_xdma.c).
 *
 * A caller's buffer goes zero-copy: pinned and mapped (kh_user_dma_map),
 * each bus segment's whole 32-byte card words become one descriptor
 * straight to or from the caller's pages.  The card's host path writes
 * whole words only (docs/spec/xdma.md), so a word that a segment covers in
 * part goes through a bounce line instead: the words at either end of the
 * transfer (read from the card first when written, so that their other
 * bytes stay as they were) and the words that straddle two segments when
 * the buffer and the card address are not 32-byte aligned alike.  That is
 * at most a line per page.  Transfers go in chunks of KH_DMA_CHUNK, so a
 * signal can stop a caller between two (a chunk is complete or not done).
 *
 * The core's own buffers (the firmware image) go through the bounce lines
 * by copy, and so does everything when the engine wants host addresses
 * aligned beyond a byte.
 */
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "kh_priv.h"
#include "kh_xdma_engine.h"

/* bytes a chunk pins and moves at once */
#define KH_DMA_CHUNK		(4u << 20)
#define KH_DMA_WORD		KH_HOST_GRANULE

static u64 kh_word_down(u64 a)
{
	return a & ~(u64)(KH_DMA_WORD - 1);
}

/* the pieces of one chunk: direct ones, and the words that need a bounce line */
struct kh_dma_plan {
	struct kh_xdma_seg *segs;
	unsigned int n;
	u64 *lines;		/* card word addresses, increasing */
	unsigned int n_lines;
};

static void kh_plan_line(struct kh_dma_plan *pl, u64 word)
{
	if (pl->n_lines && pl->lines[pl->n_lines - 1] == word)
		return;
	pl->lines[pl->n_lines++] = word;
}

static void kh_plan_direct(struct kh_dma_plan *pl, u64 host, u64 card, u64 len)
{
	while (len) {
		u32 l = min_t(u64, len, KH_XDMA_DESC_LEN_MAX & ~(KH_DMA_WORD - 1));

		pl->segs[pl->n].host = host;
		pl->segs[pl->n].card = card;
		pl->segs[pl->n].len = l;
		pl->n++;
		host += l;
		card += l;
		len -= l;
	}
}

/*
 * Walk the caller's bus segments for card range [card, card + len): whole
 * words inside one segment go direct, the others are bounce lines.
 */
static void kh_plan_user(struct kh_dma_plan *pl, const struct kh_user_dma *u,
			 u64 card)
{
	unsigned int i, n = kh_user_dma_count(u);
	u64 at = card;

	for (i = 0; i < n; i++) {
		u64 bus, ws, we, w;
		size_t sl;

		kh_user_dma_seg(u, i, &bus, &sl);
		ws = kh_word_down(at + KH_DMA_WORD - 1);
		we = kh_word_down(at + sl);
		if (we > ws)
			kh_plan_direct(pl, bus + (ws - at), ws, we - ws);
		else
			ws = we = kh_word_down(at + sl);
		/* the words the segment covers only in part */
		for (w = kh_word_down(at); w < ws; w += KH_DMA_WORD)
			kh_plan_line(pl, w);
		for (w = we; w < at + sl; w += KH_DMA_WORD)
			kh_plan_line(pl, w);
		at += sl;
	}
}

/* the bytes [lo, hi) of bounce line word that the transfer owns */
static void kh_line_span(u64 word, u64 card, size_t len, u32 *lo, u32 *hi)
{
	u64 s = max_t(u64, word, card), e = min_t(u64, word + KH_DMA_WORD, card + len);

	*lo = s - word;
	*hi = e - word;
}

/*
 * The card words at the transfer's two ends, for a write that covers them
 * in part: ends[0] the first word, ends[1] the last.
 */
static int kh_dma_read_ends(struct kh_device *kd, u64 card, size_t len,
			    u8 ends[2][KH_DMA_WORD])
{
	struct kh_xdma_chan *ch = &kd->xdma.c2h;
	u64 first = kh_word_down(card), last = kh_word_down(card + len - 1);
	bool head = card % KH_DMA_WORD, tail = (card + len) % KH_DMA_WORD;
	bool both = head && tail && last != first;
	struct kh_xdma_seg s[2];
	unsigned int n = 0;
	int ret;

	if (!head && !tail)
		return 0;
	s[n++] = (struct kh_xdma_seg){ ch->bounce.bus, head ? first : last,
				       KH_DMA_WORD };
	if (both)
		s[n++] = (struct kh_xdma_seg){ ch->bounce.bus + KH_DMA_WORD, last,
					      KH_DMA_WORD };
	mutex_lock(&ch->lock);
	ret = kh_xdma_run(kd, ch, s, n);
	if (!ret) {
		/* one word read: it is both ends' (one word, or one end partial) */
		memcpy(ends[0], ch->bounce.cpu, KH_DMA_WORD);
		memcpy(ends[1], (u8 *)ch->bounce.cpu + (both ? KH_DMA_WORD : 0),
		       KH_DMA_WORD);
	}
	mutex_unlock(&ch->lock);
	return ret;
}

/*
 * One chunk of a caller's buffer: user [p, p + len) <-> card [card, +len).
 * Called with nothing held; takes the channel's lock for the transfer.
 */
static int kh_dma_user_chunk(struct kh_device *kd, u64 card, u8 __user *p,
			     size_t len, bool to_card, struct kh_dma_plan *pl)
{
	struct kh_xdma_chan *ch = to_card ? &kd->xdma.h2c : &kd->xdma.c2h;
	u8 ends[2][KH_DMA_WORD];
	struct kh_user_dma *u;
	unsigned int i;
	int ret;

	if (to_card) {
		ret = kh_dma_read_ends(kd, card, len, ends);
		if (ret)
			return ret;
	}
	ret = kh_user_dma_map(kd->dev, p, len, to_card, &u);
	if (ret)
		return ret;
	pl->n = 0;
	pl->n_lines = 0;
	kh_plan_user(pl, u, card);

	mutex_lock(&ch->lock);
	for (i = 0; i < pl->n_lines && !ret; i++) {
		u8 *line = (u8 *)ch->bounce.cpu + (size_t)i * KH_DMA_WORD;
		u64 w = pl->lines[i];
		u32 lo, hi;

		kh_line_span(w, card, len, &lo, &hi);
		if (to_card) {
			/* the bytes outside the transfer as the card has them */
			if (lo)
				memcpy(line, ends[0], lo);
			if (hi < KH_DMA_WORD)
				memcpy(line + hi, ends[1] + hi, KH_DMA_WORD - hi);
			if (copy_from_user(line + lo, p + (w + lo - card), hi - lo))
				ret = -EFAULT;
		}
		pl->segs[pl->n++] = (struct kh_xdma_seg){
			ch->bounce.bus + (u64)i * KH_DMA_WORD, w, KH_DMA_WORD };
	}
	if (!ret)
		ret = kh_xdma_run(kd, ch, pl->segs, pl->n);
	for (i = 0; !ret && !to_card && i < pl->n_lines; i++) {
		const u8 *line = (u8 *)ch->bounce.cpu + (size_t)i * KH_DMA_WORD;
		u64 w = pl->lines[i];
		u32 lo, hi;

		kh_line_span(w, card, len, &lo, &hi);
		if (copy_to_user(p + (w + lo - card), line + lo, hi - lo))
			ret = -EFAULT;
	}
	mutex_unlock(&ch->lock);
	kh_user_dma_unmap(u);
	return ret;
}

/*
 * Through the bounce lines by copy, [card, card + len): card word aligned;
 * a write's last partial word is padded with zeros.  buf is a kernel
 * buffer (kernel) or a caller's (user: copy_from_user(), copy_to_user()).
 */
static int kh_dma_copy(struct kh_device *kd, u64 card, void *buf, size_t len,
		       bool to_card, bool user)
{
	struct kh_xdma_chan *ch = to_card ? &kd->xdma.h2c : &kd->xdma.c2h;
	const size_t max = (size_t)KH_XDMA_BOUNCE_LINES * KH_DMA_WORD;
	struct kh_xdma_seg s;
	size_t done, n;
	int ret = 0;

	if (card % KH_DMA_WORD)
		return -EINVAL;
	mutex_lock(&ch->lock);
	for (done = 0; done < len && !ret; done += n) {
		u8 *b = (u8 *)buf + done;

		n = min_t(size_t, len - done, max);
		s = (struct kh_xdma_seg){ ch->bounce.bus, card + done,
					  ALIGN(n, (size_t)KH_DMA_WORD) };
		if (to_card) {
			memset((u8 *)ch->bounce.cpu + n, 0, s.len - n);
			if (!user)
				memcpy(ch->bounce.cpu, b, n);
			else if (copy_from_user(ch->bounce.cpu, (void __user *)b, n))
				ret = -EFAULT;
		}
		if (!ret)
			ret = kh_xdma_run(kd, ch, &s, 1);
		if (!ret && !to_card) {
			if (!user)
				memcpy(b, ch->bounce.cpu, n);
			else if (copy_to_user((void __user *)b, ch->bounce.cpu, n))
				ret = -EFAULT;
		}
	}
	mutex_unlock(&ch->lock);
	return ret;
}

int kh_dma_kernel(struct kh_device *kd, u64 card, void *buf, size_t len,
		  bool to_card)
{
	if (!kh_xdma_usable(kd))
		return -EOPNOTSUPP;
	return kh_dma_copy(kd, card, buf, len, to_card, false);
}

/*
 * Zeros into [card, card + len), both word aligned: a new BO's memory,
 * which holds whatever its last owner left there.  The bounce lines are
 * zeroed once and every descriptor of the transfer reads them, so a BO of
 * any size costs one transfer of up to KH_XDMA_RING_DESCS descriptors a
 * pass and no copy on the host.
 */
int kh_dma_zero(struct kh_device *kd, u64 card, u64 len)
{
	struct kh_xdma_chan *ch = &kd->xdma.h2c;
	const u64 max = (u64)KH_XDMA_BOUNCE_LINES * KH_DMA_WORD;
	struct kh_xdma_seg *segs;
	unsigned int n;
	u64 done = 0;
	int ret = 0;

	if (!kh_xdma_usable(kd))
		return -EOPNOTSUPP;
	if ((card | len) % KH_DMA_WORD)
		return -EINVAL;
	segs = kvcalloc(min_t(u64, DIV_ROUND_UP(len, max), KH_XDMA_RING_DESCS),
			sizeof(*segs), GFP_KERNEL);
	if (!segs)
		return -ENOMEM;
	mutex_lock(&ch->lock);
	memset(ch->bounce.cpu, 0, max);
	while (done < len && !ret) {
		for (n = 0; n < KH_XDMA_RING_DESCS && done < len; n++) {
			u64 l = min_t(u64, len - done, max);

			segs[n] = (struct kh_xdma_seg){ ch->bounce.bus, card + done, l };
			done += l;
		}
		ret = kh_xdma_run(kd, ch, segs, n);
	}
	mutex_unlock(&ch->lock);
	kvfree(segs);
	return ret;
}

int kh_dma_user(struct kh_device *kd, u64 card, void __user *p, size_t len,
		bool to_card)
{
	struct kh_dma_plan pl = { 0 };
	size_t done, n;
	int ret = 0;

	if (!kh_xdma_usable(kd))
		return -EOPNOTSUPP;
	if (!len)
		return 0;
	if (kd->xdma.addr_align > 1) {
		/*
		 * The engine cannot take a caller's pages at any address: copy
		 * through the bounce lines, the ends read first for a write.
		 */
		if (card % KH_DMA_WORD || len % KH_DMA_WORD) {
			kh_err(kd, "XDMA wants %u-aligned host addresses: only word-aligned transfers are supported then\n",
			       kd->xdma.addr_align);
			return -EINVAL;
		}
		return kh_dma_copy(kd, card, (void __force *)p, len, to_card, true);
	}
	pl.segs = kvcalloc(KH_XDMA_RING_DESCS, sizeof(*pl.segs), GFP_KERNEL);
	pl.lines = kvcalloc(KH_XDMA_BOUNCE_LINES, sizeof(*pl.lines), GFP_KERNEL);
	if (!pl.segs || !pl.lines) {
		ret = -ENOMEM;
		goto out;
	}
	for (done = 0; done < len && !ret; done += n) {
		/* chunks end on card words, so only the whole transfer's ends are partial */
		n = min_t(size_t, len - done, KH_DMA_CHUNK);
		if (done + n < len)
			n = kh_word_down(card + done + n) - (card + done);
		if (done && signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		ret = kh_dma_user_chunk(kd, card + done, (u8 __user *)p + done, n,
					to_card, &pl);
	}
out:
	kvfree(pl.segs);
	kvfree(pl.lines);
	return ret;
}
