// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARM private system calls of 32-bit tasks.
 *
 * 32-bit ARM reserves r7 = 0x0f0000..0x0f07ff for calls of its own.  A
 * number beyond the compat table comes here (via do_ni_syscall()):
 * cacheflush and set_tls are served, the rest of the private range
 * answers -ENOSYS so that a program can probe for a call, and a number
 * past it is an undefined instruction, as on a 32-bit kernel.
 */

#include <linux/compat.h>
#include <linux/cpufeature.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#include <asm/cacheflush.h>
#include <asm/ptrace.h>
#include <asm/system_misc.h>
#include <asm/tlbflush.h>
#include <asm/unistd.h>

/* Called from do_ni_syscall(): syscall.c declares it itself. */
long compat_arm_syscall(struct pt_regs *regs, int scno);

/* What the empty slots of the syscall tables point to (sys.c). */
asmlinkage long __arm64_sys_ni_syscall(const struct pt_regs *regs);

/*
 * Make user memory [start, end) safe to execute after it was written:
 * clean the data side and invalidate the instruction side to the point
 * of unification, one page at a time so that a large range can be
 * preempted and a fatal signal does not wait for it.
 */
static long aa32_sync_icache(unsigned long start, unsigned long end)
{
	/* A task being killed gets no further: its memory is going away. */
	while (start < end && !fatal_signal_pending(current)) {
		unsigned long stop = min(end, PAGE_ALIGN(start + 1));
		long err;

		/*
		 * Neoverse-N1 erratum 1542419: instructions fetched before
		 * the invalidation may survive it unless a broadcast TLBI
		 * follows.  The reserved ASID keeps that cheap.
		 */
		if (cpus_have_final_cap(ARM64_WORKAROUND_1542419)) {
			__tlbi(aside1is, __TLBI_VADDR(0, 0));
			__tlbi_sync_s1ish();
		}

		err = caches_clean_inval_user_pou(start, stop);
		if (err)
			return err;

		start = stop;
		cond_resched();
	}
	return 0;
}

/* cacheflush(start, end, flags): flags are reserved and must be 0. */
static long aa32_cacheflush(unsigned long start, unsigned long end,
			    unsigned long flags)
{
	if (flags || end < start)
		return -EINVAL;
	if (!access_ok(compat_ptr(start), end - start))
		return -EFAULT;
	return aa32_sync_icache(start, end);
}

/* set_tls(value): the thread pointer __kuser_get_tls and TPIDRURO read. */
static long aa32_set_tls(unsigned long value)
{
	current->thread.uw.tp_value = value;

	/*
	 * A context switch reloads TPIDRRO_EL0 from tp_value: the compiler
	 * must not move the register write ahead of the store above.
	 */
	barrier();
	write_sysreg(value, tpidrro_el0);
	return 0;
}

long compat_arm_syscall(struct pt_regs *regs, int scno)
{
	unsigned long insn_size;

	if (scno == __ARM_NR_compat_cacheflush)
		return aa32_cacheflush(regs->regs[0], regs->regs[1],
				       regs->regs[2]);
	if (scno == __ARM_NR_compat_set_tls)
		return aa32_set_tls(regs->regs[0]);

	/* Past the private range: an undefined instruction, as on ARM. */
	if (scno >= __ARM_NR_COMPAT_END) {
		/* SIGILL names the svc itself, which pc has already passed. */
		insn_size = compat_thumb_mode(regs) ? 2 : 4;
		arm64_notify_die("Oops - unknown ARM private syscall", regs,
				 SIGILL, ILL_ILLTRP,
				 instruction_pointer(regs) - insn_size, 0);
		return 0;
	}

	/* The rest, unused private numbers included: not implemented. */
	return __arm64_sys_ni_syscall(regs);
}
