/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel interfaces our arm64 files meet differently on the two
 * trees they are built into, Debian's 6.1.y and 6.12.y, in one place.
 * Where the tree itself offers a test (a uapi magic, a Kconfig symbol,
 * a macro the header defines) the code uses that instead; what is left
 * here has no such test and is keyed on the version.  Each entry says
 * which release changed it, as far as our two trees show.
 */
#ifndef __ASM_KVER_COMPAT_H
#define __ASM_KVER_COMPAT_H

#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/thread_info.h>
#include <linux/version.h>

#define AA64_KVER_612	(KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE)

/*
 * The uaccess primitives take a label to jump to on a fault (6.11: arm64
 * got asm-goto stores and loads, and a real user_access_begin()); 6.1's
 * take an int that a fault sets to -EFAULT.  uaccess_put()/uaccess_get()
 * give both the 6.1 form: @err is set to -EFAULT on a fault (a load then
 * gives 0) and left alone otherwise, so that a run of accesses is
 * checked once at its end.
 */
#if AA64_KVER_612
#define uaccess_put(insn, val, uptr, err, type) do {			\
	__label__ uaccess_put_fault;					\
	__raw_put_mem(insn, val, uptr, uaccess_put_fault, type);	\
	break;								\
uaccess_put_fault:							\
	(err) = -EFAULT;						\
} while (0)
#define uaccess_get(insn, var, uptr, err, type) do {			\
	__label__ uaccess_get_fault;					\
	__raw_get_mem(insn, var, uptr, uaccess_get_fault, type);	\
	break;								\
uaccess_get_fault:							\
	(var) = 0;							\
	(err) = -EFAULT;						\
} while (0)
#else
#define uaccess_put(insn, val, uptr, err, type)				\
	__raw_put_mem(insn, val, uptr, err, type)
#define uaccess_get(insn, var, uptr, err, type)				\
	__raw_get_mem(insn, var, uptr, err, type)
#endif

/*
 * Return to user: 6.12's entry-common.c runs the work loop itself and
 * calls do_signal() (asm/exception.h) for pending signals; 6.1 leaves
 * the whole loop, do_notify_resume(), to signal.c.
 */
#define AA64_SIGNAL_OWNS_NOTIFY_RESUME	(!AA64_KVER_612)

/*
 * rt_sigreturn: 6.12.y refuses an FPSIMD record whose size is not
 * exactly sizeof(struct fpsimd_context) even beside an SVE record
 * ("arm64/fpsimd: signal: Consistently read FPSIMD context"); 6.1.y
 * checks the size only when there is no SVE record.
 */
#define AA64_FPSIMD_SIZE_ALWAYS_EXACT	AA64_KVER_612

/*
 * Which copy of the SVE registers is the task's while it sits in a
 * syscall.  6.1 clears TIF_SVE on syscall entry and loads from sve_state
 * only while TIF_SVE is set.  6.12 keeps TIF_SVE across the syscall and
 * loads by thread.fp_type; on entry it makes any save during the call
 * store the FPSIMD view alone, so sve_state holds the task's registers
 * only when they were saved there (fp_type) and are not live on a CPU.
 */
static inline bool aa64_sve_state_is_live(struct task_struct *tsk)
{
	if (!AA64_KVER_612)
		return test_tsk_thread_flag(tsk, TIF_SVE);
	return test_tsk_thread_flag(tsk, TIF_FOREIGN_FPSTATE) &&
	       tsk->thread.fp_type == FP_STATE_SVE;
}

/*
 * kvm_arch_ptp_get_crosststamp() names the clocksource by its id
 * (enum clocksource_ids *) since 6.9, by pointer before.
 */
#define AA64_PTP_CS_BY_ID	AA64_KVER_612

#endif /* __ASM_KVER_COMPAT_H */
