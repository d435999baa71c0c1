/*
 * kohaku-pcie: a KohakuAccel card as a QEMU PCI device (docs/spec/qemu-device.md).
 *
 * The function a KohakuAccel bitstream presents over PCIe (Xilinx XDMA,
 * 10ee:903f, subsystem 10ee:0007): BAR0 the 16 MiB AXI-Lite control space,
 * BAR1 the XDMA register space with the MSI-X table and PBA where PG195
 * puts them (0x8000, 0x8fe0), four MSI-X vectors.  Behind them is the
 * project's device model, sim-backend/, compiled with the project's own
 * flags into an archive this file is linked with (scripts/build-qemu.sh):
 * this file is the only glue, and the model includes no QEMU header.
 *
 *   MemoryRegionOps   -> ksim_bar_read32() / ksim_bar_write32()
 *   pci_dma_read/write <- struct ksim_host_ops (the XDMA engine's host memory)
 *   msix_notify()     <- ksim_set_msi()'s handler
 *   a QEMU_CLOCK_VIRTUAL timer -> ksim_run_until_irq(): the card's time
 *   QOM properties    -> ksim_command() / ksim_inject() (fault knobs, qom-set)
 *
 * The model is not thread-safe: every call into it is made with the BQL
 * held (MMIO dispatch, timers and QMP all take it), and a flag refuses a
 * guest access that would re-enter it from inside its own stepping (a
 * descriptor pointing the card's DMA at its own BARs).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/host-utils.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "qom/object.h"

/* the model's public face (sim-backend/ksim.h) and the card's ids (uapi/) */
#include "ksim.h"
#include "kohaku/kh_regs.h"

#define TYPE_KOHAKU_PCIE "kohaku-pcie"
OBJECT_DECLARE_SIMPLE_TYPE(KohakuPCIeState, KOHAKU_PCIE)

/* PG195: the MSI-X table and PBA in the DMA BAR (the model decodes neither) */
#define KOHAKU_BAR_CTRL		0
#define KOHAKU_BAR_XDMA		1
#define KOHAKU_MSIX_TABLE	0x8000
#define KOHAKU_MSIX_PBA		0x8fe0
#define KOHAKU_MSIX_VECTORS	KSIM_MSI_VECTORS

/*
 * Time (docs/spec/qemu-device.md "Time").  The card's clock follows
 * QEMU_CLOCK_VIRTUAL: a timer runs the model up to "now" in slices of at
 * most KOHAKU_SLICE_NS of host time, so a guest access (which waits for the
 * BQL the timer holds) is never held up longer than one slice, and a busy
 * card that the host cannot simulate in real time falls behind instead of
 * stalling the guest.  The debt is bounded, so that a card that is never
 * idle (firmware spinning) does not run minutes of catching up later.
 */
#define KOHAKU_SLICE_NS		(1 * SCALE_MS)	/* host time a slice may take */
#define KOHAKU_BUSY_GAP_NS	(500 * SCALE_US) /* after a slice that fell short */
#define KOHAKU_TICK_NS		(100 * SCALE_US) /* while the guest uses the card */
#define KOHAKU_MSI_GAP_NS	(20 * SCALE_US)	/* after an MSI-X message */
#define KOHAKU_IDLE_TICK_NS	(10 * SCALE_MS)	/* nobody touched it for a while */
#define KOHAKU_ACTIVE_NS	(1 * NANOSECONDS_PER_SECOND)
#define KOHAKU_MAX_DEBT_NS	(100 * SCALE_MS) /* the card's lag is capped here */
#define KOHAKU_CHUNK_MIN	1000u		/* cycles per model run: from this, */
#define KOHAKU_CHUNK_MAX	3000000u	/* doubled while runs are cheap */
#define KOHAKU_RUN_CHEAP_NS	(20 * SCALE_US)
#define KOHAKU_RUN_DEAR_NS	(200 * SCALE_US)

struct KohakuPCIeState {
    PCIDevice parent_obj;

    MemoryRegion bar_ctrl;      /* BAR0: the AXI-Lite control space */
    MemoryRegion bar_xdma;      /* BAR1: a container ... */
    MemoryRegion xdma;          /* ... of the XDMA registers under MSI-X */

    /* properties */
    char *desc;                 /* a built-in description's name */
    char *descfile;             /* or a card description file */
    char *irq;                  /* "msix" (default) or "poll" */
    bool check;                 /* the model's protocol checker from the start */

    struct ksim_card *card;
    char *desc_text;            /* what the card was made from (reset) */
    unsigned int msi_vectors;   /* what the model was last told */
    bool in_model;              /* a call into the model is running */
    bool msi_sent;              /* the model sent a message in this run */

    /* time: card cycle `cycle_base` is virtual time `vbase` */
    QEMUTimer *timer;
    int64_t vbase;
    uint64_t cycle_base;
    int64_t last_access;        /* virtual time of the last guest access */
    uint32_t mhz;

    /* counters, for the `stats` property */
    uint64_t accesses, reentries, msis, slices, short_slices, debt_dropped;
    int64_t slice_ns_max;
};

/* ---- the model's calls, guarded ---- */

static bool kohaku_enter(KohakuPCIeState *s, const char *what, hwaddr addr)
{
    if (s->in_model) {
        /* the card's own DMA reached its BARs: no re-entry into the model */
        s->reentries++;
        qemu_log_mask(LOG_GUEST_ERROR,
                      "kohaku-pcie: %s at 0x%" HWADDR_PRIx
                      " from the card's own DMA: refused\n", what, addr);
        return false;
    }
    s->in_model = true;
    return true;
}

static void kohaku_leave(KohakuPCIeState *s)
{
    s->in_model = false;
}

static void kohaku_kick(KohakuPCIeState *s);

static uint64_t kohaku_bar_read(KohakuPCIeState *s, unsigned int bar,
                                hwaddr addr)
{
    uint64_t v;

    if (!kohaku_enter(s, "read", addr)) {
        return ~0u;
    }
    v = ksim_bar_read32(s->card, bar, addr);
    kohaku_leave(s);
    s->accesses++;
    kohaku_kick(s);
    return v;
}

static void kohaku_bar_write(KohakuPCIeState *s, unsigned int bar,
                             hwaddr addr, uint64_t val)
{
    if (!kohaku_enter(s, "write", addr)) {
        return;
    }
    ksim_bar_write32(s->card, bar, addr, val);
    kohaku_leave(s);
    s->accesses++;
    kohaku_kick(s);
}

/*
 * BAR0 is the XDMA's AXI-Lite master, 32 bits wide (kohakutpu.md 8.2): a
 * 64-bit guest access arrives as two 32-bit AXI-Lite transactions, the low
 * half first, which QEMU does for us (impl 4, valid up to 8).  The 32-to-64
 * upsizer in front of the orchestrator, and what each register makes of a
 * half, are the model's (ksim_bar_write32(); 8.4, [INFERRED]).
 */
static uint64_t kohaku_ctrl_read(void *opaque, hwaddr addr, unsigned size)
{
    return kohaku_bar_read(opaque, KOHAKU_BAR_CTRL, addr);
}

static void kohaku_ctrl_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    kohaku_bar_write(opaque, KOHAKU_BAR_CTRL, addr, val);
}

static const MemoryRegionOps kohaku_ctrl_ops = {
    .read = kohaku_ctrl_read,
    .write = kohaku_ctrl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* BAR1: PG195's registers are 32 bits, accessed as such */
static uint64_t kohaku_xdma_read(void *opaque, hwaddr addr, unsigned size)
{
    return kohaku_bar_read(opaque, KOHAKU_BAR_XDMA, addr);
}

static void kohaku_xdma_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    kohaku_bar_write(opaque, KOHAKU_BAR_XDMA, addr, val);
}

static const MemoryRegionOps kohaku_xdma_ops = {
    .read = kohaku_xdma_read,
    .write = kohaku_xdma_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- host memory and interrupts, for the card's XDMA engine ---- */

/*
 * Bus addresses through the function's bus-master address space: the
 * IOMMU's translation when there is one, nothing while bus mastering is
 * off.  A refusal is the error the card logs (docs/spec/xdma.md "Errors").
 */
static int kohaku_mem_read(void *ctx, u64 bus, void *dst, size_t n)
{
    KohakuPCIeState *s = ctx;

    return pci_dma_read(PCI_DEVICE(s), bus, dst, n) == MEMTX_OK ? 0 : -EFAULT;
}

static int kohaku_mem_write(void *ctx, u64 bus, const void *src, size_t n)
{
    KohakuPCIeState *s = ctx;

    return pci_dma_write(PCI_DEVICE(s), bus, src, n) == MEMTX_OK ? 0 : -EFAULT;
}

static const struct ksim_host_ops kohaku_host_ops = {
    .mem_read = kohaku_mem_read,
    .mem_write = kohaku_mem_write,
    /* no mem_map: every byte goes through the address space (and IOMMU) */
};

/* Called from inside the model's stepping with the vector it programmed. */
static void kohaku_msi(void *arg, unsigned int vector)
{
    KohakuPCIeState *s = arg;

    if (vector < KOHAKU_MSIX_VECTORS) {
        s->msis++;
        s->msi_sent = true;
        msix_notify(PCI_DEVICE(s), vector);
    }
}

/* The vectors the guest took: all four while MSI-X is on, none otherwise. */
static void kohaku_msi_update(KohakuPCIeState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    unsigned int n = msix_enabled(pdev) ? KOHAKU_MSIX_VECTORS : 0;

    if (n != s->msi_vectors) {
        s->msi_vectors = n;
        ksim_set_msi(s->card, n, kohaku_msi, s);
    }
}

static void kohaku_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                                int len)
{
    pci_default_write_config(pdev, addr, val, len);
    kohaku_msi_update(KOHAKU_PCIE(pdev));
}

/* ---- time ---- */

static uint64_t kohaku_ns_to_cycles(KohakuPCIeState *s, int64_t ns)
{
    return ns > 0 ? muldiv64(ns, s->mhz, 1000) : 0;
}

/* The card's clock starts at virtual time now, where it stands. */
static void kohaku_time_anchor(KohakuPCIeState *s, int64_t vnow)
{
    s->vbase = vnow;
    s->cycle_base = ksim_cycles(s->card);
}

/*
 * Run the card towards virtual time vnow for at most one slice of host
 * time; false when it got there (or was ahead: then its clock is
 * re-anchored, and it runs on from where its accesses took it).
 */
static bool kohaku_run_to(KohakuPCIeState *s, int64_t vnow)
{
    uint64_t now = ksim_cycles(s->card);
    uint64_t target = s->cycle_base + kohaku_ns_to_cycles(s, vnow - s->vbase);
    uint64_t debt = kohaku_ns_to_cycles(s, KOHAKU_MAX_DEBT_NS);
    uint64_t chunk = KOHAKU_CHUNK_MIN;
    int64_t t0, t1, el;

    s->msi_sent = false;
    if (now >= target) {
        kohaku_time_anchor(s, vnow);
        return false;
    }
    if (target - now > debt) {
        s->debt_dropped += target - now - debt;
        s->vbase = vnow;
        s->cycle_base = now + debt;
        target = s->cycle_base;
    }
    s->slices++;
    t0 = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    t1 = t0;
    while (now < target && !s->msi_sent) {
        int64_t c0 = t1;
        uint64_t n = MIN(target - now, chunk);

        if (!kohaku_enter(s, "tick", 0)) {
            break;
        }
        /* an MSI-X message ends the run: the guest should see it now */
        ksim_run_until_irq(s->card, n);
        kohaku_leave(s);
        now = ksim_cycles(s->card);
        t1 = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
        /*
         * Idle spans cost nothing to skip, busy cycles tens of ns each:
         * runs start small and grow while they stay cheap, so one run
         * rarely takes much of a slice.
         */
        if (t1 - c0 < KOHAKU_RUN_CHEAP_NS) {
            chunk = MIN(chunk * 2, KOHAKU_CHUNK_MAX);
        } else if (t1 - c0 > KOHAKU_RUN_DEAR_NS) {
            chunk = MAX(chunk / 4, KOHAKU_CHUNK_MIN);
        }
        if (t1 - t0 >= KOHAKU_SLICE_NS) {
            break;
        }
    }
    el = t1 - t0;
    s->slice_ns_max = MAX(s->slice_ns_max, el);
    if (now < target && !s->msi_sent) {
        s->short_slices++;
        return true;
    }
    return false;
}

static void kohaku_tick(void *opaque)
{
    KohakuPCIeState *s = opaque;
    int64_t vnow = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    bool behind = kohaku_run_to(s, vnow);
    int64_t gap;

    if (behind) {
        gap = KOHAKU_BUSY_GAP_NS;
    } else if (s->msi_sent) {
        gap = KOHAKU_MSI_GAP_NS;
    } else if (vnow - s->last_access < KOHAKU_ACTIVE_NS) {
        gap = KOHAKU_TICK_NS;
    } else {
        gap = KOHAKU_IDLE_TICK_NS;
    }
    timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + gap);
}

/* A guest access: the card is in use, tick soon if the timer idles. */
static void kohaku_kick(KohakuPCIeState *s)
{
    int64_t vnow = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    s->last_access = vnow;
    timer_mod_anticipate(s->timer, vnow + KOHAKU_TICK_NS);
}

/* ---- the card ---- */

static struct ksim_card *kohaku_card_create(KohakuPCIeState *s, Error **errp)
{
    struct ksim_card *card;
    char err[512] = "";
    int ret;

    ret = ksim_card_create_flags(s->desc_text, s->check ? KSIM_CHECK : 0,
                                 &card, err, sizeof(err));
    if (ret) {
        error_setg(errp, "kohaku-pcie: %s: %s",
                   s->descfile ? s->descfile : s->desc,
                   err[0] ? err : "the description was refused");
        return NULL;
    }
    ksim_set_host_ops(card, &kohaku_host_ops, s);
    return card;
}

/* The description the card is made from: desc= or descfile=, checked. */
static bool kohaku_desc_load(KohakuPCIeState *s, Error **errp)
{
    g_autoptr(GError) gerr = NULL;
    char err[256] = "";
    gsize len;
    char *text;

    if (s->desc && s->descfile) {
        error_setg(errp, "kohaku-pcie: desc= and descfile= are exclusive");
        return false;
    }
    if (s->descfile) {
        if (!g_file_get_contents(s->descfile, &text, &len, &gerr)) {
            error_setg(errp, "kohaku-pcie: descfile=%s: %s", s->descfile,
                       gerr->message);
            return false;
        }
        if (ksim_desc_text_check(text, len, err, sizeof(err))) {
            error_setg(errp, "kohaku-pcie: descfile=%s: %s", s->descfile, err);
            g_free(text);
            return false;
        }
        s->desc_text = text;
        return true;
    }
    if (!s->desc) {
        s->desc = g_strdup("saxpy");
    }
    if (!ksim_builtin_desc(s->desc)) {
        g_autofree char *names = g_strjoinv(", ",
                                            (char **)ksim_builtin_names());

        error_setg(errp, "kohaku-pcie: desc=%s: no built-in description of "
                   "that name (%s); descfile= takes a file", s->desc, names);
        return false;
    }
    s->desc_text = g_strdup(ksim_builtin_desc(s->desc));
    return true;
}

static void kohaku_realize(PCIDevice *pdev, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(pdev);
    bool poll;

    if (!s->irq || !strcmp(s->irq, "msix")) {
        poll = false;
    } else if (!strcmp(s->irq, "poll")) {
        poll = true;
    } else {
        error_setg(errp, "kohaku-pcie: irq=%s: expected msix or poll", s->irq);
        return;
    }
    if (!kohaku_desc_load(s, errp)) {
        return;
    }
    s->card = kohaku_card_create(s, errp);
    if (!s->card) {
        return;
    }
    s->mhz = ksim_clock_mhz(s->card) ? ksim_clock_mhz(s->card) : 1;

    pci_config_set_interrupt_pin(pdev->config, 0);  /* MSI-X only */
    memory_region_init_io(&s->bar_ctrl, OBJECT(s), &kohaku_ctrl_ops, s,
                          "kohaku-pcie-ctrl", ksim_bar_size(KOHAKU_BAR_CTRL));
    pci_register_bar(pdev, KOHAKU_BAR_CTRL, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->bar_ctrl);
    memory_region_init(&s->bar_xdma, OBJECT(s), "kohaku-pcie-bar1",
                       ksim_bar_size(KOHAKU_BAR_XDMA));
    memory_region_init_io(&s->xdma, OBJECT(s), &kohaku_xdma_ops, s,
                          "kohaku-pcie-xdma", ksim_bar_size(KOHAKU_BAR_XDMA));
    /* under the MSI-X table and PBA, which msix_init() maps at priority 0 */
    memory_region_add_subregion_overlap(&s->bar_xdma, 0, &s->xdma, -1);
    pci_register_bar(pdev, KOHAKU_BAR_XDMA, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->bar_xdma);

    if (pci_is_express(pdev) && pcie_endpoint_cap_init(pdev, 0) < 0) {
        error_setg(errp, "kohaku-pcie: no room for the PCIe capability");
        goto fail;
    }
    if (pci_is_express(pdev)) {
        /* kohakutpu.md 8.2: Gen3 (8.0 GT/s) x16 */
        uint8_t *exp = pdev->config + pdev->exp.exp_cap;

        pci_long_test_and_clear_mask(exp + PCI_EXP_LNKCAP,
                                     PCI_EXP_LNKCAP_MLW | PCI_EXP_LNKCAP_SLS);
        pci_long_test_and_set_mask(exp + PCI_EXP_LNKCAP,
                                   QEMU_PCI_EXP_LNKCAP_MLW(QEMU_PCI_EXP_LNK_X16) |
                                   QEMU_PCI_EXP_LNKCAP_MLS(QEMU_PCI_EXP_LNK_8GT));
        pci_set_long(exp + PCI_EXP_LNKCAP2, PCI_EXP_LNKCAP2_SLS_2_5GB |
                     PCI_EXP_LNKCAP2_SLS_5_0GB | PCI_EXP_LNKCAP2_SLS_8_0GB);
        pci_word_test_and_clear_mask(exp + PCI_EXP_LNKSTA,
                                     PCI_EXP_LNKSTA_CLS | PCI_EXP_LNKSTA_NLW);
        pci_word_test_and_set_mask(exp + PCI_EXP_LNKSTA,
                                   QEMU_PCI_EXP_LNKSTA_CLS(QEMU_PCI_EXP_LNK_8GT) |
                                   QEMU_PCI_EXP_LNKSTA_NLW(QEMU_PCI_EXP_LNK_X16));
    }
    if (!poll) {
        unsigned int i;

        if (msix_init(pdev, KOHAKU_MSIX_VECTORS,
                      &s->bar_xdma, KOHAKU_BAR_XDMA, KOHAKU_MSIX_TABLE,
                      &s->bar_xdma, KOHAKU_BAR_XDMA, KOHAKU_MSIX_PBA,
                      0, errp)) {
            goto fail;
        }
        for (i = 0; i < KOHAKU_MSIX_VECTORS; i++) {
            msix_vector_use(pdev, i);
        }
    }
    s->msi_vectors = 0;
    ksim_set_msi(s->card, 0, kohaku_msi, s);

    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, kohaku_tick, s);
    kohaku_time_anchor(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
              KOHAKU_IDLE_TICK_NS);
    return;

fail:
    ksim_card_destroy(s->card);
    s->card = NULL;
}

static void kohaku_exit(PCIDevice *pdev)
{
    KohakuPCIeState *s = KOHAKU_PCIE(pdev);

    if (s->timer) {
        timer_free(s->timer);
        s->timer = NULL;
    }
    if (msix_present(pdev)) {
        msix_unuse_all_vectors(pdev);
        msix_uninit(pdev, &s->bar_xdma, &s->bar_xdma);
    }
    ksim_card_destroy(s->card);
    s->card = NULL;
}

/*
 * A reset (machine reset, a guest reboot, a bus reset) is the card's power
 * cycle: a new model card from the same description, as a board comes up
 * with the bitstream loaded and nothing else.
 */
static void kohaku_reset(DeviceState *dev)
{
    KohakuPCIeState *s = KOHAKU_PCIE(dev);
    struct ksim_card *card;

    if (!s->card || !s->accesses) {
        return;  /* never touched: already as new */
    }
    card = kohaku_card_create(s, &error_abort);
    ksim_card_destroy(s->card);
    s->card = card;
    s->accesses = 0;
    s->msi_vectors = 0;
    ksim_set_msi(s->card, 0, kohaku_msi, s);
    if (msix_present(PCI_DEVICE(s))) {
        msix_reset(PCI_DEVICE(s));
    }
    kohaku_time_anchor(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/* ---- the model's knobs, at run time (qom-set) ---- */

static char *kohaku_get_knobs(Object *obj, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(obj);
    size_t n;
    char *buf;

    if (!s->card) {
        return g_strdup("");
    }
    n = ksim_dump_knobs(s->card, NULL, 0) + 1;
    buf = g_malloc(n);
    ksim_dump_knobs(s->card, buf, n);
    return buf;
}

/* set "inject": the words after "inject" of a knob (fault-injection.md) */
static void kohaku_set_inject(Object *obj, const char *value, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(obj);
    char err[512] = "";

    if (!s->card) {
        error_setg(errp, "kohaku-pcie: no card yet");
    } else if (ksim_inject(s->card, value, err, sizeof(err))) {
        error_setg(errp, "kohaku-pcie: inject %s: %s", value, err);
    }
}

/* set "command": one knob command line, "inject ...", "check ...", "trace ..." */
static void kohaku_set_command(Object *obj, const char *value, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(obj);
    char err[512] = "";

    if (!s->card) {
        error_setg(errp, "kohaku-pcie: no card yet");
    } else if (ksim_command(s->card, value, err, sizeof(err))) {
        error_setg(errp, "kohaku-pcie: %s: %s", value, err);
    }
}

static char *kohaku_get_stats(Object *obj, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(obj);
    g_autofree char *model = NULL;
    size_t n;

    if (!s->card) {
        return g_strdup("");
    }
    n = ksim_dump_stats(s->card, NULL, 0) + 1;
    model = g_malloc(n);
    ksim_dump_stats(s->card, model, n);
    return g_strdup_printf("qemu cycles=%" PRIu64 " accesses=%" PRIu64
                           " msis=%" PRIu64 " slices=%" PRIu64
                           " short_slices=%" PRIu64 " slice_ns_max=%" PRId64
                           " debt_dropped_cycles=%" PRIu64
                           " reentries=%" PRIu64 " msix_vectors=%u\n%s",
                           (uint64_t)ksim_cycles(s->card), s->accesses, s->msis,
                           s->slices, s->short_slices, s->slice_ns_max,
                           s->debt_dropped, s->reentries, s->msi_vectors,
                           model);
}

static char *kohaku_get_check(Object *obj, Error **errp)
{
    KohakuPCIeState *s = KOHAKU_PCIE(obj);
    char *buf;

    if (!s->card) {
        return g_strdup("");
    }
    buf = g_malloc(64 * KiB);
    ksim_check_report(s->card, buf, 64 * KiB);
    return buf;
}

static void kohaku_instance_init(Object *obj)
{
    object_property_add_str(obj, "inject", kohaku_get_knobs,
                            kohaku_set_inject);
    object_property_add_str(obj, "command", kohaku_get_knobs,
                            kohaku_set_command);
    object_property_add_str(obj, "stats", kohaku_get_stats, NULL);
    object_property_add_str(obj, "check-report", kohaku_get_check, NULL);
}

/* a hybrid device: PCIe when its bus is, conventional PCI otherwise */
static DeviceRealize kohaku_parent_dc_realize;

static void kohaku_dc_realize(DeviceState *dev, Error **errp)
{
    BusState *bus = qdev_get_parent_bus(dev);

    if (bus && pci_bus_is_express(PCI_BUS(bus))) {
        PCI_DEVICE(dev)->cap_present |= QEMU_PCI_CAP_EXPRESS;
    }
    kohaku_parent_dc_realize(dev, errp);
}

static Property kohaku_properties[] = {
    DEFINE_PROP_STRING("desc", KohakuPCIeState, desc),
    DEFINE_PROP_STRING("descfile", KohakuPCIeState, descfile),
    DEFINE_PROP_STRING("irq", KohakuPCIeState, irq),
    DEFINE_PROP_BOOL("check", KohakuPCIeState, check, false),
    DEFINE_PROP_END_OF_LIST(),
};

/* the model's state is not migrated */
static const VMStateDescription kohaku_vmstate = {
    .name = TYPE_KOHAKU_PCIE,
    .unmigratable = 1,
};

static void kohaku_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = kohaku_realize;
    k->exit = kohaku_exit;
    k->config_write = kohaku_config_write;
    k->vendor_id = KH_PCI_VENDOR;
    k->device_id = KH_PCI_DEVICE;
    k->subsystem_vendor_id = KH_PCI_VENDOR;
    k->subsystem_id = KH_PCI_SUBSYS;
    k->revision = 0;
    /* PG195's default class code: memory controller, other */
    k->class_id = PCI_CLASS_MEMORY_OTHER;
    dc->desc = "KohakuAccel card (XDMA 10ee:903f) on the Kohaku device model";
    dc->reset = kohaku_reset;
    dc->vmsd = &kohaku_vmstate;
    device_class_set_parent_realize(dc, kohaku_dc_realize,
                                    &kohaku_parent_dc_realize);
    device_class_set_props(dc, kohaku_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo kohaku_info = {
    .name = TYPE_KOHAKU_PCIE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(KohakuPCIeState),
    .instance_init = kohaku_instance_init,
    .class_init = kohaku_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void kohaku_register_types(void)
{
    type_register_static(&kohaku_info);
}

type_init(kohaku_register_types)
