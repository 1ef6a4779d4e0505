/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Our ARMv8 generic timer driver, drivers/clocksource/arm_generic.c.
 *
 * The rest of the kernel keeps calling the functions it always has
 * (arch_timer_get_rate(), arch_timer_read_counter(), ...) through
 * <clocksource/arm_arch_timer.h>; with CONFIG_CLKSRC_ARM_GENERIC our driver
 * is the one that defines them.  This header holds what is ours: the
 * register fields the driver programs and the layout of the device tree
 * node it is probed from.
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
 * TVAL is a signed 32-bit count down from the moment it is written: an
 * event can be at most S32_MAX ticks away.  The lower bound keeps the
 * clockevents core from asking for events that expire while being set.
 */
#define ARM_GENERIC_TVAL_MIN		16
#define ARM_GENERIC_TVAL_MAX		0x7fffffffUL

/* The counter is at least this wide on every ARMv8 CPU */
#define ARM_GENERIC_COUNTER_BITS	56

/* Order of the interrupts in an "arm,armv8-timer" node */
enum arm_generic_dt_irq {
	ARM_GENERIC_IRQ_SECURE_PHYS,
	ARM_GENERIC_IRQ_NONSECURE_PHYS,
	ARM_GENERIC_IRQ_EL1_VIRT,
	ARM_GENERIC_IRQ_EL2_PHYS,
	ARM_GENERIC_IRQ_EL2_VIRT,
};

#endif /* __CLOCKSOURCE_ARM_GENERIC_H */
