// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arm64 side of /proc/sys/debug/exception-trace.
 *
 * When the sysctl is non-zero, a user task about to be killed by a signal
 * it does not handle (a bad pointer, an undefined instruction, a bus error,
 * a signal frame that rt_sigreturn or sigreturn refused, ...) leaves one
 * line in the kernel log: who, where it was and what it touched.  One
 * line, not a register dump, so that a stream of faults cannot flood the
 * log, and rate limited on top of that.  32-bit tasks report their AArch32
 * stack pointer.
 *
 * The boot-time value comes from CONFIG_ARM64_EXCEPTION_TRACE_DEFAULT (the
 * 2012 port printed these by default; stock 6.1 does not).
 */
#include <linux/compat.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>

#include <asm/esr.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

int show_unhandled_signals = CONFIG_ARM64_EXCEPTION_TRACE_DEFAULT;

static DEFINE_RATELIMIT_STATE(exception_trace_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

static unsigned long user_stack_pointer_of(struct pt_regs *regs)
{
	return compat_user_mode(regs) ? regs->compat_sp : regs->sp;
}

void arm64_show_signal(int signo, unsigned long far, const char *str)
{
	struct task_struct *tsk = current;
	struct pt_regs *regs = task_pt_regs(tsk);
	unsigned long esr = tsk->thread.fault_code;
	char syndrome[64] = "";

	if (!show_unhandled_signals || !unhandled_signal(tsk, signo))
		return;
	if (!__ratelimit(&exception_trace_rs))
		return;

	if (esr)
		scnprintf(syndrome, sizeof(syndrome), ", %s, ESR 0x%016lx",
			  esr_get_class_string(esr), esr);

	pr_info("%s[%d]: unhandled signal %d (%s%s) at pc 0x%016llx, fault address 0x%016lx, sp 0x%016lx%s\n",
		tsk->comm, task_pid_nr(tsk), signo, str,
		compat_user_mode(regs) ? ", aarch32" : "",
		regs->pc, far, user_stack_pointer_of(regs), syndrome);
}
