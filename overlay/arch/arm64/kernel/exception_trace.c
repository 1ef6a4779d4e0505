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
 * The line is built whole and printed with one printk: pr_cont() pieces
 * would interleave with another CPU's messages.  The task name and the
 * name of the file mapped at pc are chosen by the task, so both are
 * escaped: a name holding a newline must not make up a log line of its own.
 *
 * The boot-time value comes from CONFIG_ARM64_EXCEPTION_TRACE_DEFAULT (the
 * 2012 port printed these by default; stock 6.1 does not).
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/preempt.h>
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

/* Enough of a file name to recognise it; longer names are cut. */
#define TRACE_NAME_LEN	64

static unsigned long user_stack_pointer_of(struct pt_regs *regs)
{
	return compat_user_mode(regs) ? regs->compat_sp : regs->sp;
}

/*
 * " in NAME[START+SIZE]" for the file mapping that holds @pc, as stock's
 * register dump names it, or nothing: for an anonymous mapping, when the
 * mmap lock is contended, or where sleeping is not allowed.
 */
static void describe_pc_mapping(char *buf, size_t size, unsigned long pc)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	char name[TRACE_NAME_LEN];

	buf[0] = '\0';
	if (!mm || preempt_count() || !mmap_read_trylock(mm))
		return;
	vma = vma_lookup(mm, pc);
	if (vma && vma->vm_file) {
		scnprintf(name, sizeof(name), "%pD", vma->vm_file);
		scnprintf(buf, size, " in %*pE[%lx+%lx]", (int)strlen(name), name,
			  vma->vm_start, vma->vm_end - vma->vm_start);
	}
	mmap_read_unlock(mm);
}

void arm64_show_signal(int signo, unsigned long far, const char *str)
{
	struct task_struct *tsk = current;
	struct pt_regs *regs = task_pt_regs(tsk);
	unsigned long esr = tsk->thread.fault_code;
	char syndrome[64] = "", where[4 * TRACE_NAME_LEN + 48];
	char comm[TASK_COMM_LEN];

	if (!show_unhandled_signals || !unhandled_signal(tsk, signo))
		return;
	if (!__ratelimit(&exception_trace_rs))
		return;

	if (esr)
		scnprintf(syndrome, sizeof(syndrome), ", %s, ESR 0x%016lx",
			  esr_get_class_string(esr), esr);
	describe_pc_mapping(where, sizeof(where), regs->pc);
	get_task_comm(comm, tsk);

	pr_info("%*pE[%d]: unhandled signal %d (%s%s) at pc 0x%016llx%s, fault address 0x%016lx, sp 0x%016lx%s\n",
		(int)strlen(comm), comm, task_pid_nr(tsk), signo, str,
		compat_user_mode(regs) ? ", aarch32" : "",
		regs->pc, where, far, user_stack_pointer_of(regs), syndrome);
}
