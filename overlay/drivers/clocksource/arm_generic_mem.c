// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARMv8 generic timer, the memory-mapped half of our driver: one timer
 * frame, from a device tree node ("arm,armv7-timer-mem") or a GT block of
 * ACPI's GTDT, as a clock event for the whole system, "arch_mem_timer".
 *
 * Why drive it.  A CPU timer that stops in deep idle (a timer node without
 * "always-on", a GTDT without its always-on flag) hands its CPU's next
 * event to the broadcast device before the CPU powers down.  Without a
 * frame, that device is bc_hrtimer, an hrtimer that some other CPU must
 * keep, and that CPU then never powers down itself: on most Snapdragon
 * platforms and on Juno, cluster idle is lost.  A frame counts through
 * every CPU idle state, and its interrupt is steered to whichever CPU is
 * due next (CLOCK_EVT_FEAT_DYNIRQ).
 *
 * Where the device tree describes no CPU timer at all, the frame's counter
 * is the clocksource as well (arm_generic_counter_from_frame()).
 *
 * The frames.  CNTCTLBase says which CNTBaseN frames exist (CNTTIDR) and,
 * per frame, what the non-secure world may reach of it (CNTACR): we ask for
 * everything and see what sticks, then drive the first frame whose virtual
 * timer and count we were granted, else the first whose physical ones we
 * were.  Unlike the system registers, a frame's 64-bit registers need not
 * be accessed in one go: the count is read in halves until the high half
 * holds still, and the timer is off while CVAL changes.
 */

#define pr_fmt(fmt) "arm_generic: " fmt

#include <linux/acpi.h>
#include <linux/bitmap.h>
#include <linux/clockchips.h>
#include <linux/clocksource.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/irqdomain.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_irq.h>
#include <linux/slab.h>

#include <clocksource/arm_generic.h>

struct agt_frame {
	void __iomem *base;
	bool virt;		/* its virtual timer and count, else physical */
	u32 rate;
	struct clock_event_device evt;
};

/* The frame in use; its counter may be the clocksource */
static struct agt_frame *agt_frame_used __ro_after_init;

static struct agt_frame *agt_frame_of(struct clock_event_device *evt)
{
	return container_of(evt, struct agt_frame, evt);
}

static void __iomem *agt_frame_ctl(const struct agt_frame *f)
{
	return f->base + (f->virt ? ARM_GENERIC_FRAME_CNTV_CTL :
				    ARM_GENERIC_FRAME_CNTP_CTL);
}

/* The count in two 32-bit reads, again until the high half holds still */
static notrace u64 agt_frame_count(const struct agt_frame *f)
{
	void __iomem *low = f->base + (f->virt ? ARM_GENERIC_FRAME_CNTVCT :
						 ARM_GENERIC_FRAME_CNTPCT);
	u32 hi = readl_relaxed(low + 4), lo, hi_after;

	for (;;) {
		lo = readl_relaxed(low);
		hi_after = readl_relaxed(low + 4);
		if (hi_after == hi)
			return (u64)hi << 32 | lo;
		hi = hi_after;
	}
}

static int agt_frame_arm(unsigned long ticks, struct clock_event_device *evt)
{
	struct agt_frame *f = agt_frame_of(evt);
	void __iomem *ctl = agt_frame_ctl(f);
	u64 at;

	/* CVAL may be written in two halves: never while the timer runs */
	if (readl_relaxed(ctl) & ARM_GENERIC_CTL_ENABLE)
		writel_relaxed(ARM_GENERIC_CTL_IMASK, ctl);
	at = agt_frame_count(f) + ticks;
	writeq_relaxed(at, f->base + (f->virt ? ARM_GENERIC_FRAME_CNTV_CVAL :
					       ARM_GENERIC_FRAME_CNTP_CVAL));
	writel_relaxed(ARM_GENERIC_CTL_ENABLE, ctl);
	return 0;
}

/* Off and masked, as the CPU timers are when shut down */
static int agt_frame_quiesce(struct clock_event_device *evt)
{
	writel_relaxed(ARM_GENERIC_CTL_IMASK, agt_frame_ctl(agt_frame_of(evt)));
	return 0;
}

static irqreturn_t agt_frame_fired(int irq, void *dev_id)
{
	struct clock_event_device *evt = dev_id;
	void __iomem *ctl = agt_frame_ctl(agt_frame_of(evt));
	u32 pending = ARM_GENERIC_CTL_ENABLE | ARM_GENERIC_CTL_ISTATUS;
	u32 now = readl_relaxed(ctl);

	if ((now & pending) != pending)
		return IRQ_NONE;

	/* The level stays up until masked: mask, then hand the event on */
	writel_relaxed(now | ARM_GENERIC_CTL_IMASK, ctl);
	evt->event_handler(evt);
	return IRQ_HANDLED;
}

/*
 * Which frame, among the frame numbers set in @valid: @cnttidr is the
 * block's CNTTIDR, @cntacr[n] what frame n's CNTACR kept of a request for
 * every access.  The number of the first frame whose virtual timer and
 * count we may use (*virt set), else of the first whose physical ones we
 * may, else -1.
 */
static int agt_frame_pick(unsigned long valid, u32 cnttidr, const u32 *cntacr,
			  bool *virt)
{
	const u32 virt_rw = ARM_GENERIC_CNTACR_RWVT | ARM_GENERIC_CNTACR_RVCT;
	const u32 phys_rw = ARM_GENERIC_CNTACR_RWPT | ARM_GENERIC_CNTACR_RPCT;
	unsigned int n;
	int phys = -1;

	for_each_set_bit(n, &valid, ARCH_TIMER_MEM_MAX_FRAMES) {
		if ((cnttidr & ARM_GENERIC_CNTTIDR_VIRT(n)) &&
		    (cntacr[n] & virt_rw) == virt_rw) {
			*virt = true;
			return n;
		}
		if (phys < 0 && (cntacr[n] & phys_rw) == phys_rw)
			phys = n;
	}
	*virt = false;
	return phys;
}

/* Ask CNTCTLBase for every frame's registers, and pick from what we got */
static int __init agt_frame_choose(const struct arch_timer_mem *blk,
				   bool *virt)
{
	u32 cntacr[ARCH_TIMER_MEM_MAX_FRAMES] = { 0 };
	const u32 all = ARM_GENERIC_CNTACR_RPCT | ARM_GENERIC_CNTACR_RVCT |
			ARM_GENERIC_CNTACR_RFRQ | ARM_GENERIC_CNTACR_RVOFF |
			ARM_GENERIC_CNTACR_RWVT | ARM_GENERIC_CNTACR_RWPT;
	unsigned long valid = 0;
	void __iomem *ctlbase;
	unsigned int n;
	u32 cnttidr;

	ctlbase = ioremap(blk->cntctlbase, blk->size);
	if (!ctlbase) {
		pr_err("cannot map the timer block's CNTCTLBase at %pa\n",
		       &blk->cntctlbase);
		return -1;
	}
	cnttidr = readl_relaxed(ctlbase + ARM_GENERIC_CNTTIDR);
	for (n = 0; n < ARCH_TIMER_MEM_MAX_FRAMES; n++) {
		if (!blk->frame[n].valid)
			continue;
		__set_bit(n, &valid);
		writel_relaxed(all, ctlbase + ARM_GENERIC_CNTACR(n));
		cntacr[n] = readl_relaxed(ctlbase + ARM_GENERIC_CNTACR(n));
	}
	iounmap(ctlbase);
	return agt_frame_pick(valid, cnttidr, cntacr, virt);
}

/*
 * Drive frame @fr's virtual (@virt) or physical timer, interrupt @irq, at
 * @rate (0: what the frame's CNTFRQ says).
 */
static int __init agt_frame_start(const struct arch_timer_mem_frame *fr,
				  bool virt, int irq, u32 rate)
{
	const char *which = virt ? "virtual" : "physical";
	struct agt_frame *f;
	int err = -ENOMEM;

	if (irq <= 0) {
		pr_err(FW_BUG "timer frame at %pa: no interrupt for its %s timer\n",
		       &fr->cntbase, which);
		return -EINVAL;
	}
	if (!request_mem_region(fr->cntbase, fr->size, "arch_mem_timer")) {
		pr_err("timer frame at %pa: registers already claimed\n",
		       &fr->cntbase);
		return -EBUSY;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto out_region;
	f->base = ioremap(fr->cntbase, fr->size);
	if (!f->base)
		goto out_free;
	f->virt = virt;
	f->rate = rate ?: readl_relaxed(f->base + ARM_GENERIC_FRAME_CNTFRQ);
	if (!f->rate) {
		pr_err(FW_BUG "timer frame at %pa: counter rate unknown (no clock-frequency, CNTFRQ 0)\n",
		       &fr->cntbase);
		err = -EINVAL;
		goto out_unmap;
	}

	f->evt.name = "arch_mem_timer";
	f->evt.features = CLOCK_EVT_FEAT_ONESHOT | CLOCK_EVT_FEAT_DYNIRQ;
	f->evt.rating = ARM_GENERIC_FRAME_RATING;
	f->evt.cpumask = cpu_possible_mask;
	f->evt.irq = irq;
	f->evt.set_next_event = agt_frame_arm;
	f->evt.set_state_shutdown = agt_frame_quiesce;
	f->evt.set_state_oneshot_stopped = agt_frame_quiesce;
	agt_frame_quiesce(&f->evt);

	err = request_irq(irq, agt_frame_fired, IRQF_TIMER, "arch_mem_timer",
			  &f->evt);
	if (err) {
		pr_err("timer frame at %pa: cannot have interrupt %d: %d\n",
		       &fr->cntbase, irq, err);
		goto out_unmap;
	}
	clockevents_config_and_register(&f->evt, f->rate, ARM_GENERIC_MIN_DELTA,
					CLOCKSOURCE_MASK(ARM_GENERIC_FRAME_COUNTER_BITS));
	agt_frame_used = f;
	pr_info("timer frame at %pa: %s timer, interrupt %d, %u Hz\n",
		&fr->cntbase, which, irq, f->rate);
	return 0;

out_unmap:
	iounmap(f->base);
out_free:
	kfree(f);
out_region:
	release_mem_region(fr->cntbase, fr->size);
	return err;
}

static notrace u64 agt_frame_read(void)
{
	return agt_frame_count(agt_frame_used);
}

static bool __init agt_cpu_timer_described(void)
{
	static const struct of_device_id cpu_timers[] __initconst = {
		{ .compatible = "arm,armv8-timer" },
		{ .compatible = "arm,armv7-timer" },
		{ }
	};
	struct device_node *np = of_find_matching_node(NULL, cpu_timers);
	bool described = np && of_device_is_available(np);

	of_node_put(np);
	return described;
}

static int __init agt_of_frames_probe(struct device_node *np)
{
	struct device_node *child, *frame_np[ARCH_TIMER_MEM_MAX_FRAMES] = { };
	struct arch_timer_mem *blk;
	struct resource res;
	int pick, irq, err = -EINVAL;
	u32 n, rate;
	bool virt;

	if (agt_frame_used) {
		pr_warn("%pOF: a timer frame is already in use, node ignored\n",
			np);
		return 0;
	}
	blk = kzalloc(sizeof(*blk), GFP_KERNEL);
	if (!blk)
		return -ENOMEM;
	if (of_address_to_resource(np, 0, &res)) {
		pr_err(FW_BUG "%pOF: no CNTCTLBase (reg)\n", np);
		goto out;
	}
	blk->cntctlbase = res.start;
	blk->size = resource_size(&res);

	for_each_available_child_of_node(np, child) {
		if (of_property_read_u32(child, "frame-number", &n) ||
		    n >= ARCH_TIMER_MEM_MAX_FRAMES || blk->frame[n].valid ||
		    of_address_to_resource(child, 0, &res)) {
			pr_err(FW_BUG "%pOF: needs a reg and a frame-number of its own, below %u\n",
			       child, ARCH_TIMER_MEM_MAX_FRAMES);
			of_node_put(child);
			goto out;
		}
		blk->frame[n].cntbase = res.start;
		blk->frame[n].size = resource_size(&res);
		blk->frame[n].valid = true;
		frame_np[n] = of_node_get(child);
	}

	pick = agt_frame_choose(blk, &virt);
	if (pick < 0) {
		pr_err("%pOF: no frame whose timer we may use\n", np);
		goto out;
	}

	/* Only the interrupt we take is mapped: no stray mappings */
	irq = irq_of_parse_and_map(frame_np[pick], virt ? ARCH_TIMER_VIRT_SPI :
							  ARCH_TIMER_PHYS_SPI);
	rate = arch_timer_get_rate();
	if (!rate && of_property_read_u32(np, "clock-frequency", &rate))
		rate = 0;
	err = agt_frame_start(&blk->frame[pick], virt, irq, rate);
	if (err) {
		if (irq > 0)
			irq_dispose_mapping(irq);
		goto out;
	}
	if (!agt_cpu_timer_described())
		arm_generic_counter_from_frame(agt_frame_read,
					       agt_frame_used->rate);
out:
	for (n = 0; n < ARCH_TIMER_MEM_MAX_FRAMES; n++)
		of_node_put(frame_np[n]);
	kfree(blk);
	return err;
}

TIMER_OF_DECLARE(arm_generic_mem, "arm,armv7-timer-mem", agt_of_frames_probe);

#ifdef CONFIG_ACPI_GTDT
/* A frame's own idea of the counter rate (0 when it will not say) */
static u32 __init agt_frame_rate(const struct arch_timer_mem_frame *fr)
{
	void __iomem *base = ioremap(fr->cntbase, fr->size);
	u32 rate;

	if (!base)
		return 0;
	rate = readl_relaxed(base + ARM_GENERIC_FRAME_CNTFRQ);
	iounmap(base);
	return rate;
}

/* Every frame of @blk counts at @rate, the CPUs' rate, or none is used */
static bool __init agt_frames_agree(const struct arch_timer_mem *blk, u32 rate)
{
	unsigned int n;
	u32 theirs;

	for (n = 0; n < ARCH_TIMER_MEM_MAX_FRAMES; n++) {
		if (!blk->frame[n].valid)
			continue;
		theirs = agt_frame_rate(&blk->frame[n]);
		if (theirs != rate) {
			pr_err(FW_BUG "GTDT: timer frame at %pa counts at %u Hz, the CPUs at %u Hz: no memory-mapped timer used\n",
			       &blk->frame[n].cntbase, theirs, rate);
			return false;
		}
	}
	return true;
}

static void __init agt_frame_unmap(int irq, int used)
{
	if (irq > 0 && irq != used)
		irq_dispose_mapping(irq);
}

/*
 * The GTDT's GT blocks, once the CPU timers run at @rate.  The tree's
 * parser maps the interrupts of every frame it reads; the ones we do not
 * take are unmapped again.
 */
void __init arm_generic_gtdt_frames(int platform_timers, u32 rate)
{
	const struct arch_timer_mem_frame *fr = NULL;
	struct arch_timer_mem *blks;
	int blocks = 0, i, pick, used = 0;
	bool virt = false, v;
	unsigned int n;

	blks = kcalloc(platform_timers, sizeof(*blks), GFP_KERNEL);
	if (!blks)
		return;
	/* On an error, @blocks counts the blocks parsed (and mapped) before */
	if (acpi_arch_timer_mem_init(blks, &blocks))
		pr_err(FW_BUG "GTDT: unusable GT block; memory-mapped timers not used\n");
	else
		for (i = 0; i < blocks; i++) {
			pick = agt_frame_choose(&blks[i], &v);
			if (!agt_frames_agree(&blks[i], rate)) {
				fr = NULL;
				break;
			}
			if (pick >= 0 && !fr) {
				fr = &blks[i].frame[pick];
				virt = v;
			}
		}

	if (fr) {
		used = virt ? fr->virt_irq : fr->phys_irq;
		if (agt_frame_start(fr, virt, used, rate))
			used = 0;
	} else if (blocks) {
		pr_err("GTDT: no frame whose timer we may use\n");
	}

	for (i = 0; i < blocks; i++) {
		for (n = 0; n < ARCH_TIMER_MEM_MAX_FRAMES; n++) {
			if (!blks[i].frame[n].valid)
				continue;
			agt_frame_unmap(blks[i].frame[n].phys_irq, used);
			agt_frame_unmap(blks[i].frame[n].virt_irq, used);
		}
	}
	kfree(blks);
}
#endif

#if IS_ENABLED(CONFIG_CLKSRC_ARM_GENERIC_KUNIT_TEST)
#include "arm_generic_mem_test.c"
#endif
