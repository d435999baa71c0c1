// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Booting one POOL unit (docs/spec/firmware-image.md "How the driver boots
 * it", docs/spec/pool.md): hold every core in run-stall and reset, load
 * the sections, clear the boot mailbox, set RESET_PC, release, wait for
 * READY in device time, answer CLAIM, check the versions it published.
 *
 * Two ways to load.  Through the mailbox, every 32 bytes is a CU_DATA data
 * flit (five register writes and a kick on a card); with LOAD, the image is
 * copied to device memory once by the card's DMA and each section is one
 * instruction the unit carries out itself.  The caller has the unit's mesh
 * held (kh_mesh.fw_hold), so the mailbox is the loader's between its
 * steps; each step takes the mesh lock, and the LOAD job runs through the
 * progress engine like any job.
 */
#include "kh_priv.h"
#include "kh_fw_boot.h"

/*
 * An addon register write, read back: the write's reply carries the value
 * before it, so only a read says the unit took it.
 */
static int kh_pool_set(struct kh_mesh *m, struct kh_node *n, u8 index, u64 v)
{
	u64 rb = 0;
	int ret;

	ret = kh_ctrl_write(m, n->x, n->y, index, v, NULL);
	if (!ret)
		ret = kh_ctrl_read(m, n->x, n->y, index, &rb);
	if (!ret && rb != v) {
		kh_err(m->kd, "mesh %u: POOL unit (%u,%u) register 0x%02x reads 0x%llx after writing 0x%llx\n",
		       m->id, n->x, n->y, index, rb, v);
		ret = -EIO;
	}
	return ret;
}

static int kh_boot_fail(struct kh_boot *b, u32 reason, int err)
{
	if (!b->reason)
		b->reason = reason;
	return err;
}

/* the CU_DATA buffers a section lands in: @count of them from @first */
static void kh_fw_section_bufs(const struct kh_fw_section *s, u8 *first,
			       unsigned int *count)
{
	*count = 1;
	if (s->target == KH_FW_T_IRAM) {
		*first = KH_POOL_BUF_IRAM;
	} else if (s->target == KH_FW_T_DATARAM_ALL) {
		*first = KH_POOL_BUF_DATARAM(0);
		*count = KH_POOL_CORES;
	} else {
		*first = KH_POOL_BUF_DATARAM(s->target - KH_FW_T_DATARAM(0));
	}
}

static int kh_fw_load_mbox(struct kh_boot *b)
{
	const struct kh_fw_image *img = b->img;
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	unsigned int i, c, count;
	int ret = 0;
	u8 buf;

	mutex_lock(&m->lock);
	for (i = 0; i < img->n && !ret; i++) {
		const struct kh_fw_section *s = &img->sec[i];
		const u8 *src = (s->flags & KH_FW_S_ZERO) ? NULL :
				img->data + s->file_offset;
		u32 flits = s->size / KH_PAYLOAD_BYTES, done;

		kh_fw_section_bufs(s, &buf, &count);
		for (c = 0; c < count && !ret; c++) {
			for (done = 0; done < flits && !ret; done += KH_DATA_MAX_FLITS) {
				u32 k = min_t(u32, flits - done, KH_DATA_MAX_FLITS);

				ret = kh_data_burst(m, n, buf + c,
						    s->dest / KH_PAYLOAD_BYTES + done,
						    src ? src + (size_t)done * KH_PAYLOAD_BYTES : NULL,
						    k);
			}
		}
	}
	mutex_unlock(&m->lock);
	if (ret)
		kh_err(m->kd, "mesh %u: POOL unit (%u,%u): loading section %u through the mailbox failed (%d)\n",
		       m->id, n->x, n->y, i - 1, ret);
	return ret;
}

/* One LOAD per section, from the copy at b->src (zeros at b->zeros). */
static int kh_fw_load_dram(struct kh_boot *b)
{
	const struct kh_fw_image *img = b->img;
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	struct kohaku_inst insts[KH_FW_MAX_SECTIONS];
	u32 status = 0, fault = 0;
	unsigned int i;
	int ret;

	memset(insts, 0, sizeof(insts));
	for (i = 0; i < img->n; i++) {
		const struct kh_fw_section *s = &img->sec[i];
		u64 from = (s->flags & KH_FW_S_ZERO) ? b->zeros : b->src + s->file_offset;
		u8 sel;

		if (s->target == KH_FW_T_IRAM)
			sel = KH_POOL_BUF_IRAM;
		else if (s->target == KH_FW_T_DATARAM_ALL)
			sel = KH_POOL_LOAD_ALL_DRAM;
		else
			sel = KH_POOL_BUF_DATARAM(s->target - KH_FW_T_DATARAM(0));
		kh_pool_set_w(insts[i].w, 7, KH_POOL_W7(KH_POOL_OP_LOAD, sel));
		kh_pool_set_w(insts[i].w, KH_POOL_LOAD_W_OFFSET, s->dest);
		kh_pool_set_w(insts[i].w, KH_POOL_LOAD_W_LEN, s->size);
		kh_pool_set_w(insts[i].w, 0, (u32)from);
		kh_pool_set_w(insts[i].w, 1, (u32)(from >> 32));
	}
	ret = kh_job_run_internal(n, insts, img->n, KH_FW_LOAD_TIMEOUT_NS,
				  &status, &fault);
	if (!ret && status != KOHAKU_JOB_DONE) {
		kh_err(m->kd, "mesh %u: POOL unit (%u,%u): the LOAD job ended with status %u, fault 0x%08x\n",
		       m->id, n->x, n->y, status, fault);
		ret = -EIO;
	}
	return ret;
}

/* Mailbox cleared, entry point set, cores released: the firmware runs. */
static int kh_fw_release(struct kh_boot *b)
{
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	int ret;

	mutex_lock(&m->lock);
	ret = kh_data_burst(m, n, KH_POOL_BUF_DATARAM(0), 0, NULL, 1);
	if (!ret)
		ret = kh_pool_set(m, n, KH_CTRL_IDX_POOL_RESET_PC, b->img->hdr.entry);
	if (!ret)	/* out of reset, still stalled: then run */
		ret = kh_pool_set(m, n, KH_CTRL_IDX_POOL_RUNSTALL, KH_POOL_STALL_ALL);
	if (!ret)
		ret = kh_pool_set(m, n, KH_CTRL_IDX_POOL_RUNSTALL, 0);
	b->t_release = kh_now(m->kd);
	mutex_unlock(&m->lock);
	return ret;
}

/* READY in the mailbox, or a core halted, or the timeout. */
static int kh_fw_wait_ready(struct kh_boot *b)
{
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	u64 deadline = b->t_release + b->timeout_ns;
	u64 boot = 0, state = 0;
	int ret;

	for (;;) {
		mutex_lock(&m->lock);
		ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_POOL_BOOT, &boot);
		if (!ret && (u32)boot != KH_POOL_BOOT_READY)
			ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_POOL_STATE, &state);
		if (!ret && KH_POOL_STATE_HALTED(state))
			ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_POOL_TRAP, &b->trap);
		mutex_unlock(&m->lock);
		if (ret)
			return kh_boot_fail(b, KOHAKU_FW_ERR_LOAD, ret);
		if ((u32)boot == KH_POOL_BOOT_READY)
			break;
		if (KH_POOL_STATE_HALTED(state)) {
			kh_err(m->kd, "mesh %u: POOL unit (%u,%u): core %u trapped while booting: cause %u at pc 0x%08x\n",
			       m->id, n->x, n->y, KH_POOL_TRAP_CORE(b->trap),
			       KH_POOL_TRAP_CAUSE(b->trap), KH_POOL_TRAP_PC(b->trap));
			return kh_boot_fail(b, KOHAKU_FW_ERR_TRAP, -EIO);
		}
		if (kh_now(m->kd) >= deadline) {
			kh_err(m->kd, "mesh %u: POOL unit (%u,%u): no READY within %llu us of device time (the mailbox reads 0x%08x)\n",
			       m->id, n->x, n->y, b->timeout_ns / 1000, (u32)boot);
			return kh_boot_fail(b, KOHAKU_FW_ERR_TIMEOUT, -ETIMEDOUT);
		}
		kh_relax(m->kd);
	}
	b->boot_ns = kh_now(m->kd) - b->t_release;
	return 0;
}

/* CLAIM, then what the firmware says it is. */
static int kh_fw_claim(struct kh_boot *b)
{
	const struct kh_fw_header *h = &b->img->hdr;
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	u64 ver = 0, api = 0;
	int ret;

	mutex_lock(&m->lock);
	ret = kh_data_word(m, n, KH_POOL_BUF_WORD(0), KH_POOL_MBOX_BOOT,
			   KH_POOL_BOOT_CLAIM);
	if (!ret)
		ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_POOL_FW_VERSION, &ver);
	if (!ret)
		ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_POOL_API_VERSION, &api);
	mutex_unlock(&m->lock);
	if (ret)
		return kh_boot_fail(b, KOHAKU_FW_ERR_LOAD, ret);
	b->fw_version = ver;
	b->fw_api = api;
	if (b->fw_version != h->fw_version ||
	    b->fw_api != KH_POOL_API(h->api_major, h->api_minor)) {
		kh_err(m->kd, "mesh %u: POOL unit (%u,%u) published version 0x%x API 0x%x; the image says 0x%x API %u.%u\n",
		       m->id, n->x, n->y, b->fw_version, b->fw_api, h->fw_version,
		       h->api_major, h->api_minor);
		return kh_boot_fail(b, KOHAKU_FW_ERR_VERSION, -EIO);
	}
	return 0;
}

int kh_fw_boot_unit(struct kh_boot *b)
{
	struct kh_node *n = b->node;
	struct kh_mesh *m = n->mesh;
	int ret;

	mutex_lock(&m->lock);
	n->fw_state = KOHAKU_FW_STATE_BOOTING;
	ret = kh_pool_set(m, n, KH_CTRL_IDX_POOL_RUNSTALL,
			  KH_POOL_STALL_ALL | KH_POOL_RESET_ALL);
	/* bounds (version 2) are granted per job: learn if it has them */
	if (!ret)
		ret = kh_pool_bounds_probe(n);
	mutex_unlock(&m->lock);
	if (ret)
		return kh_boot_fail(b, KOHAKU_FW_ERR_LOAD, ret);
	ret = b->by_dma ? kh_fw_load_dram(b) : kh_fw_load_mbox(b);
	if (ret)
		return kh_boot_fail(b, KOHAKU_FW_ERR_LOAD, ret);
	ret = kh_fw_release(b);
	if (ret)
		return kh_boot_fail(b, KOHAKU_FW_ERR_LOAD, ret);
	ret = kh_fw_wait_ready(b);
	if (!ret)
		ret = kh_fw_claim(b);
	return ret;
}

/* A unit whose boot failed: every core held, so it runs nothing half-loaded. */
void kh_fw_hold_unit(struct kh_node *n)
{
	struct kh_mesh *m = n->mesh;

	mutex_lock(&m->lock);
	if (kh_pool_set(m, n, KH_CTRL_IDX_POOL_RUNSTALL,
			KH_POOL_STALL_ALL | KH_POOL_RESET_ALL))
		kh_warn(m->kd, "mesh %u: POOL unit (%u,%u): could not hold its cores in reset\n",
			m->id, n->x, n->y);
	mutex_unlock(&m->lock);
}
