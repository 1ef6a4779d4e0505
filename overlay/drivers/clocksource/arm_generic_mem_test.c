// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "arm_generic_frame": the memory-mapped frame driver of
 * arm_generic_mem.c (#included at its end) against a frame made of plain
 * memory, since no emulated machine here has one.  Plain memory keeps
 * what is written, status bits included, so each case sets the registers
 * the hardware would and reads back what the driver programmed.
 */

#include <kunit/test.h>
#include <linux/sizes.h>

static unsigned int agt_test_events;

static void agt_test_event(struct clock_event_device *evt)
{
	agt_test_events++;
}

static struct agt_frame *agt_test_frame(struct kunit *test, bool virt)
{
	struct agt_frame *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	void *regs = kunit_kzalloc(test, SZ_4K, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, regs);
	f->base = (void __iomem __force *)regs;
	f->virt = virt;
	f->evt.event_handler = agt_test_event;
	agt_test_events = 0;
	return f;
}

static u32 agt_test_r32(struct agt_frame *f, unsigned int off)
{
	return readl_relaxed(f->base + off);
}

static u64 agt_test_r64(struct agt_frame *f, unsigned int off)
{
	return readq_relaxed(f->base + off);
}

static void agt_test_w32(struct agt_frame *f, unsigned int off, u32 v)
{
	writel_relaxed(v, f->base + off);
}

static void agt_test_w64(struct agt_frame *f, unsigned int off, u64 v)
{
	writeq_relaxed(v, f->base + off);
}

/* Both halves of each count, and the view the frame was set up with */
static void agt_test_frame_count(struct kunit *test)
{
	struct agt_frame *virt = agt_test_frame(test, true);
	struct agt_frame *phys = agt_test_frame(test, false);

	agt_test_w64(virt, ARM_GENERIC_FRAME_CNTPCT, 0x1111111122222222ULL);
	agt_test_w64(virt, ARM_GENERIC_FRAME_CNTVCT, 0x0000003344444444ULL);
	KUNIT_EXPECT_EQ(test, agt_frame_count(virt), 0x0000003344444444ULL);

	agt_test_w64(phys, ARM_GENERIC_FRAME_CNTPCT, 0x00000055ffffffffULL);
	agt_test_w64(phys, ARM_GENERIC_FRAME_CNTVCT, 0x7ULL);
	KUNIT_EXPECT_EQ(test, agt_frame_count(phys), 0x00000055ffffffffULL);
}

/* CVAL = count + delta, then enabled and unmasked; the other timer alone */
static void agt_test_frame_arm_virt(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, true);

	agt_test_w64(f, ARM_GENERIC_FRAME_CNTVCT, 0x123456789ULL);
	agt_test_w64(f, ARM_GENERIC_FRAME_CNTPCT, 0x987654321ULL);
	KUNIT_EXPECT_EQ(test, agt_frame_arm(1000, &f->evt), 0);
	KUNIT_EXPECT_EQ(test, agt_test_r64(f, ARM_GENERIC_FRAME_CNTV_CVAL),
			0x123456789ULL + 1000);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTV_CTL),
			ARM_GENERIC_CTL_ENABLE);
	KUNIT_EXPECT_EQ(test, agt_test_r64(f, ARM_GENERIC_FRAME_CNTP_CVAL), 0ULL);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTP_CTL), 0U);
}

static void agt_test_frame_arm_phys(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, false);

	agt_test_w64(f, ARM_GENERIC_FRAME_CNTPCT, 0xffffff00ULL);
	agt_test_w64(f, ARM_GENERIC_FRAME_CNTVCT, 0x5ULL);
	KUNIT_EXPECT_EQ(test, agt_frame_arm(0x200, &f->evt), 0);
	KUNIT_EXPECT_EQ(test, agt_test_r64(f, ARM_GENERIC_FRAME_CNTP_CVAL),
			0x100000100ULL);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTP_CTL),
			ARM_GENERIC_CTL_ENABLE);
	KUNIT_EXPECT_EQ(test, agt_test_r64(f, ARM_GENERIC_FRAME_CNTV_CVAL), 0ULL);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTV_CTL), 0U);
}

/* Re-armed after it fired and was masked: unmasked again */
static void agt_test_frame_rearm(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, true);

	agt_test_w64(f, ARM_GENERIC_FRAME_CNTVCT, 5000);
	agt_test_w64(f, ARM_GENERIC_FRAME_CNTV_CVAL, 4000);
	agt_test_w32(f, ARM_GENERIC_FRAME_CNTV_CTL, ARM_GENERIC_CTL_ENABLE |
		     ARM_GENERIC_CTL_IMASK);
	agt_frame_arm(16, &f->evt);
	KUNIT_EXPECT_EQ(test, agt_test_r64(f, ARM_GENERIC_FRAME_CNTV_CVAL), 5016ULL);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTV_CTL),
			ARM_GENERIC_CTL_ENABLE);
}

static void agt_test_frame_shutdown(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, false);

	agt_test_w32(f, ARM_GENERIC_FRAME_CNTP_CTL, ARM_GENERIC_CTL_ENABLE);
	KUNIT_EXPECT_EQ(test, agt_frame_quiesce(&f->evt), 0);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTP_CTL),
			ARM_GENERIC_CTL_IMASK);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTV_CTL), 0U);
}

/* Enabled and firing: masked (acknowledged), then the event handled */
static void agt_test_frame_irq_ack(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, true);
	const u32 firing = ARM_GENERIC_CTL_ENABLE | ARM_GENERIC_CTL_ISTATUS;

	agt_test_w32(f, ARM_GENERIC_FRAME_CNTV_CTL, firing);
	KUNIT_EXPECT_EQ(test, agt_frame_fired(42, &f->evt), IRQ_HANDLED);
	KUNIT_EXPECT_EQ(test, agt_test_events, 1U);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTV_CTL),
			firing | ARM_GENERIC_CTL_IMASK);
}

/* Not ours to handle: disabled, or not yet expired */
static void agt_test_frame_irq_spurious(struct kunit *test)
{
	struct agt_frame *f = agt_test_frame(test, false);

	agt_test_w32(f, ARM_GENERIC_FRAME_CNTP_CTL, ARM_GENERIC_CTL_ENABLE);
	KUNIT_EXPECT_EQ(test, agt_frame_fired(42, &f->evt), IRQ_NONE);
	KUNIT_EXPECT_EQ(test, agt_test_r32(f, ARM_GENERIC_FRAME_CNTP_CTL),
			ARM_GENERIC_CTL_ENABLE);

	/* ISTATUS is UNKNOWN while the timer is off */
	agt_test_w32(f, ARM_GENERIC_FRAME_CNTP_CTL, ARM_GENERIC_CTL_ISTATUS);
	KUNIT_EXPECT_EQ(test, agt_frame_fired(42, &f->evt), IRQ_NONE);
	KUNIT_EXPECT_EQ(test, agt_test_events, 0U);
}

#define T_VIRT_RW	(ARM_GENERIC_CNTACR_RWVT | ARM_GENERIC_CNTACR_RVCT)
#define T_PHYS_RW	(ARM_GENERIC_CNTACR_RWPT | ARM_GENERIC_CNTACR_RPCT)
#define T_ALL		(T_VIRT_RW | T_PHYS_RW | ARM_GENERIC_CNTACR_RFRQ | \
			 ARM_GENERIC_CNTACR_RVOFF)

static void agt_test_frame_pick(struct kunit *test)
{
	u32 acr[ARCH_TIMER_MEM_MAX_FRAMES] = { 0 };
	bool virt = false;

	/* frames 0 and 1; only 1 has a virtual timer: take it */
	acr[0] = T_ALL;
	acr[1] = T_ALL;
	KUNIT_EXPECT_EQ(test, agt_frame_pick(0x3, 0x20, acr, &virt), 1);
	KUNIT_EXPECT_TRUE(test, virt);

	/* its virtual timer not granted: the first physical frame */
	acr[1] = T_PHYS_RW | ARM_GENERIC_CNTACR_RVCT;
	KUNIT_EXPECT_EQ(test, agt_frame_pick(0x3, 0x20, acr, &virt), 0);
	KUNIT_EXPECT_FALSE(test, virt);

	/* frame 0 may not read its count: frame 1's physical timer */
	acr[0] = T_ALL & ~ARM_GENERIC_CNTACR_RPCT;
	KUNIT_EXPECT_EQ(test, agt_frame_pick(0x3, 0x0, acr, &virt), 1);
	KUNIT_EXPECT_FALSE(test, virt);

	/* frames that are not there count for nothing */
	acr[5] = T_ALL;
	KUNIT_EXPECT_EQ(test, agt_frame_pick(0x1, 0x200000, acr, &virt), -1);
	KUNIT_EXPECT_EQ(test, agt_frame_pick(0x21, 0x200000, acr, &virt), 5);
	KUNIT_EXPECT_TRUE(test, virt);

	KUNIT_EXPECT_EQ(test, agt_frame_pick(0, 0xffffffff, acr, &virt), -1);
}

static struct kunit_case agt_frame_test_cases[] = {
	KUNIT_CASE(agt_test_frame_count),
	KUNIT_CASE(agt_test_frame_arm_virt),
	KUNIT_CASE(agt_test_frame_arm_phys),
	KUNIT_CASE(agt_test_frame_rearm),
	KUNIT_CASE(agt_test_frame_shutdown),
	KUNIT_CASE(agt_test_frame_irq_ack),
	KUNIT_CASE(agt_test_frame_irq_spurious),
	KUNIT_CASE(agt_test_frame_pick),
	{}
};

static struct kunit_suite agt_frame_test_suite = {
	.name = "arm_generic_frame",
	.test_cases = agt_frame_test_cases,
};

kunit_test_suites(&agt_frame_test_suite);
