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

#endif /* __CLOCKSOURCE_ARM_GENERIC_H */
