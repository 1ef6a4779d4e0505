/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Our ARMv8 generic timer driver, drivers/clocksource/arm_generic.c.
 *
 * The rest of the kernel keeps calling the functions it always has
 * (arch_timer_get_rate(), arch_timer_read_counter(),
 * arch_timer_get_kvm_info(), ...) through <clocksource/arm_arch_timer.h>;
 * with CONFIG_CLKSRC_ARM_GENERIC our driver is the one that defines them,
 * and the timers are named by that header's enum arch_timer_ppi_nr.  This
 * header holds what is ours: the register fields the driver programs and
 * the figures it is configured with.
 */
#ifndef __CLOCKSOURCE_ARM_GENERIC_H
#define __CLOCKSOURCE_ARM_GENERIC_H

#include <linux/bits.h>
#include <clocksource/arm_arch_timer.h>

/* CNT{P,V}_CTL_EL0: one timer's control and status */
#define ARM_GENERIC_CTL_ENABLE		BIT(0)
#define ARM_GENERIC_CTL_IMASK		BIT(1)
#define ARM_GENERIC_CTL_ISTATUS		BIT(2)

/*
 * CNTKCTL_EL1 (CNTHCTL_EL2 when the kernel runs at EL2 with VHE; the EL0
 * fields sit at the same places): what EL0 may read or program, and the
 * event stream.
 */
#define ARM_GENERIC_KCTL_EL0PCTEN	BIT(0)
#define ARM_GENERIC_KCTL_EL0VCTEN	BIT(1)
#define ARM_GENERIC_KCTL_EVNTEN		BIT(2)
#define ARM_GENERIC_KCTL_EVNTDIR	BIT(3)
#define ARM_GENERIC_KCTL_EVNTI		GENMASK(7, 4)
#define ARM_GENERIC_KCTL_EL0VTEN	BIT(8)
#define ARM_GENERIC_KCTL_EL0PTEN	BIT(9)
#define ARM_GENERIC_KCTL_EVNTIS		BIT(17)

/* Largest trigger bit EVNTI can name */
#define ARM_GENERIC_EVNTI_MAX		15

/*
 * Events closer than this many ticks are not asked for: they would expire
 * while being set.
 */
#define ARM_GENERIC_MIN_DELTA		16

/*
 * The per-CPU timers outrank any memory-mapped or external timer, as in
 * the stock driver.
 */
#define ARM_GENERIC_EVT_RATING		450

/* The counter has at least 56 bits and rolls over in no less than 40 years */
#define ARM_GENERIC_COUNTER_MIN_BITS	56
#define ARM_GENERIC_ROLLOVER_SECS	(40ULL * 365 * 24 * 60 * 60)

/* A slower counter is a firmware bug worth a line at boot */
#define ARM_GENERIC_MIN_RATE		1000000

/*
 * Memory-mapped timers: a CNTCTLBase frame says which CNTBaseN frames
 * exist and what each lets the non-secure world do; each CNTBaseN frame
 * is a counter and a timer (physical, and virtual when implemented).
 */
#define ARM_GENERIC_CNTTIDR		0x08
#define ARM_GENERIC_CNTTIDR_VIRT(n)	BIT(4 * (n) + 1)
#define ARM_GENERIC_CNTACR(n)		(0x40 + 4 * (n))
#define ARM_GENERIC_CNTACR_RPCT		BIT(0)
#define ARM_GENERIC_CNTACR_RVCT		BIT(1)
#define ARM_GENERIC_CNTACR_RFRQ		BIT(2)
#define ARM_GENERIC_CNTACR_RVOFF	BIT(3)
#define ARM_GENERIC_CNTACR_RWVT		BIT(4)
#define ARM_GENERIC_CNTACR_RWPT		BIT(5)

#define ARM_GENERIC_FRAME_CNTPCT	0x00
#define ARM_GENERIC_FRAME_CNTVCT	0x08
#define ARM_GENERIC_FRAME_CNTFRQ	0x10
#define ARM_GENERIC_FRAME_CNTP_CVAL	0x20
#define ARM_GENERIC_FRAME_CNTP_CTL	0x2c
#define ARM_GENERIC_FRAME_CNTV_CVAL	0x30
#define ARM_GENERIC_FRAME_CNTV_CTL	0x3c

/* A frame's timer against the CPU timers: below them, above bc_hrtimer */
#define ARM_GENERIC_FRAME_RATING	400
#define ARM_GENERIC_FRAME_COUNTER_BITS	56

/* Between the two halves of the driver, arm_generic.c and arm_generic_mem.c */
void arm_generic_counter_from_frame(u64 (*read)(void), u32 rate);
#ifdef CONFIG_ACPI_GTDT
void arm_generic_gtdt_frames(int platform_timers, u32 rate);
#endif

#endif /* __CLOCKSOURCE_ARM_GENERIC_H */
