/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Signal frame placement rules shared by native (signal.c) and AArch32
 * (signal32.c) delivery.
 */
#ifndef __ARM64_KERNEL_SIGFRAME_H
#define __ARM64_KERNEL_SIGFRAME_H

#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/types.h>

/*
 * A frame to be written from @top down to @base.  When @top lies on the
 * alternate signal stack, the frame has to stay on it: running off its
 * bottom would overwrite whatever the task keeps below, so delivery is
 * refused instead (and the task gets SIGSEGV).
 */
static inline bool sigframe_fits_altstack(unsigned long top, unsigned long base)
{
	if (!current->sas_ss_size || !__on_sig_stack(top))
		return true;
	return base >= current->sas_ss_sp;
}

#endif /* __ARM64_KERNEL_SIGFRAME_H */
