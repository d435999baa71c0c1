// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host window's apertures ([39] = 1): the L2 staging aperture from
 * the host (and the same RAM from a unit), the quantising upload in both
 * layouts with its destination rule and its 4 KiB bursts, a burst that is
 * not a multiple of 8 beats hanging the host channel, apertures nobody
 * answers, and a mesh reset ending the hang.
 */
#include "mclient.h"
#include "mxfp7.h"
#include "util.h"
#include "harness.h"

CHECK_FIXTURE(model)

static const char ship_map[] =
	"profile ship\n"
	"xxx  mcl  xxx\n"
	"mag  mcl  nul\n"
	"xxx  mcl  xxx\n";

static const char rtl_map[] =
	"profile rtl\n"
	"xxx  mcl  xxx\n"
	"mag  mcl  nul\n"
	"xxx  mcl  xxx\n";

static u64 rng = 0x853c49e6748fea9bULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void rnd_fp16(u8 *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		u16 h = (u16)(((rnd() & 1) << 15) | ((8 + rnd() % 14) << 10) |
			      (rnd() & 0x3ff));

		buf[2 * i] = (u8)h;
		buf[2 * i + 1] = (u8)(h >> 8);
	}
}

/* A reset, then the endpoints' recovery: the host window answers again. */
static void reset_mesh(struct ksim_card *c)
{
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	ksim_run(c, 1000);
}

TEST_F(model, l2_staging_from_the_host)
{
	struct ksim_card *c = mc_card(ship_map);
	u8 in[100], out[128], z[64];
	struct mc_client *a;
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 1);
	REQUIRE(a);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)(i + 1);
	/* whole words: the partly covered ones are zero outside the range */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 0, 0x1008), in, 100), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 0, 0x1000), out, 128), 0);
	memset(z, 0, sizeof(z));
	CHECK(!memcmp(out, z, 8));
	CHECK(!memcmp(out + 8, in, 100));
	CHECK(!memcmp(out + 108, z, 20));
	/* an unaligned read returns just its bytes */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 0, 0x1011), out, 5), 0);
	CHECK(!memcmp(out, in + 9, 5));
	/* DRAM at the same offset is another memory */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x1000), out, 128), 0);
	CHECK(!memcmp(out, z, 64));
	/* a unit sees the host's data through aperture 0 */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, 1, 1, KH_T_MEM_RD_REQ, 3, 1);
	kh_flit_set(&f, KH_MEM_ADDR, KH_MADDR_AP(0, 0, 0x1000));
	kh_flit_set(&f, KH_MEM_LEN, 1);
	mc_send(c, 0, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 2, 2000));
	ksim_payload_to_bytes(out, a->rec[0].f.w);
	ksim_payload_to_bytes(out + 32, a->rec[1].f.w);
	CHECK(!memcmp(out + 8, in, 56));
	ksim_card_destroy(c);
}

static void upload_case(unsigned int ap, bool blayout)
{
	struct ksim_card *c = mc_card(ship_map);
	u8 src[4 * 256], want[128], got[4 * 128];
	struct ksim_stats st;
	unsigned int i;

	REQUIRE(c);
	rnd_fp16(src, sizeof(src));
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, ap, 0x4000), src,
				  sizeof(src)), 0);
	/* 8 beats of FP16 in, 4 words out, at the address & low 32 bits */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x4000), got, sizeof(got)), 0);
	for (i = 0; i < 4; i++) {
		ksim_mxfp7_entry(src + 256 * i, blayout, want);
		CHECK_MSG(!memcmp(got + 128 * i, want, 128), "entry %u", i);
	}
	/* and nothing past them */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x4200), got, 128), 0);
	for (i = 0; i < 128; i++)
		CHECK_EQ(got[i], 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_quant_uploads, 4);
	ksim_card_destroy(c);
}

TEST_F(model, quant_upload_a_layout)
{
	upload_case(KH_AP_QUANT_A, false);
}

TEST_F(model, quant_upload_b_layout)
{
	upload_case(KH_AP_QUANT_B, true);
}

/* Each AXI burst stops at a 4 KiB boundary and restarts the destination. */
TEST_F(model, quant_upload_bursts_split_at_4k)
{
	static u8 src[8192], got[8192];
	struct ksim_card *c = mc_card(ship_map);
	u8 want[128];
	unsigned int i;

	REQUIRE(c);
	rnd_fp16(src, sizeof(src));
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 4, 0x10000), src, 8192), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x10000), got, 8192), 0);
	for (i = 0; i < 32; i++) {
		/* burst 1: 0x10000.. -> 0x10000..0x10800; burst 2 -> 0x11000.. */
		unsigned int dst = i < 16 ? i * 128 : 4096 + (i - 16) * 128;

		ksim_mxfp7_entry(src + 256 * i, false, want);
		CHECK_MSG(!memcmp(got + dst, want, 128), "entry %u", i);
	}
	for (i = 2048; i < 4096; i++)
		if (got[i])
			break;
	CHECK_MSG(i == 4096, "the gap 0x10800-0x11000 was written at %u", i);
	ksim_card_destroy(c);
}

TEST_F(model, quant_upload_needs_multiples_of_8_beats)
{
	struct ksim_card *c = mc_card(ship_map);
	u8 src[512], got[256], want[128];
	struct ksim_stats st;

	REQUIRE(c);
	rnd_fp16(src, sizeof(src));
	/* 9 beats: the first entry lands, then the host AXI hangs */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 4, 0x2000), src, 9 * 32),
		 -EIO);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x2000), got, 256), 0);
	ksim_mxfp7_entry(src, false, want);
	CHECK(!memcmp(got, want, 128));
	CHECK_EQ(got[128] | got[200] | got[255], 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_host_hangs, 1);
	/* the write channel stays hung (reads are another channel) */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x0), src, 32), -EIO);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x0), got, 32), 0);
	/* until the mesh is reset */
	reset_mesh(c);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x0), src, 32), 0);
	/* a burst cut short by the 4 KiB boundary: 4 beats before it */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 5, 0x2f80), src, 512), -EIO);
	reset_mesh(c);
	/* 7 beats: nothing lands */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 4, 0x3000), src, 7 * 32),
		 -EIO);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x3000), got, 128), 0);
	CHECK_EQ(got[0] | got[64] | got[127], 0);
	ksim_card_destroy(c);
}

TEST_F(model, unserved_apertures_hang_the_host)
{
	struct ksim_card *c = mc_card(ship_map);
	u8 b[64] = { 0 };

	REQUIRE(c);
	/* aperture 1: a read nobody answers; C2H hangs, H2C does not */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 1, 0), b, 32), -EIO);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0), b, 32), -EIO);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0), b, 32), 0);
	reset_mesh(c);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0), b, 32), 0);
	/* aperture 2 writes, aperture 4 and 5 reads, aperture 3: nobody */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 2, 0), b, 32), -EIO);
	reset_mesh(c);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 4, 0), b, 32), -EIO);
	reset_mesh(c);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 5, 0), b, 32), -EIO);
	reset_mesh(c);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 3, 0), b, 32), -EIO);
	ksim_card_destroy(c);

	/* without L2 staging (profile rtl), aperture 0 does not answer */
	c = mc_card(rtl_map);
	REQUIRE(c);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, 0, 0), b, 32), -EIO);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 0, 0), b, 32), -EIO);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
