// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal delivery and rt_sigreturn for native AArch64 tasks; AArch32
 * tasks are handed to the compat code in signal32.c.
 *
 * A native frame, lowest address first:
 *
 *	struct rt_sigframe		<- sp of the handler
 *	    siginfo			(zero unless SA_SIGINFO)
 *	    ucontext			flags, link, altstack, mask, sigcontext
 *	        __reserved[]		records, 16-byte aligned, ending with
 *					a null record { 0, 0 }
 *	extra space			only when the records outgrow
 *					__reserved[]; reached through an
 *					extra_context record
 *	frame record { x29, x30 }	<- x29 of the handler
 *	sp of the interrupted code, or the top of the alternate stack
 *
 * Building a frame is two passes: sigframe_plan_records() decides where
 * every record goes, then sigframe_write() fills the frame in.  Bytes the
 * plan gives no meaning to are written as zeroes, so the frame never
 * shows a handler what happened to be on its stack before.
 */

#include <linux/compat.h>
#include <linux/cpufeature.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/processor.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/daifflags.h>
#include <asm/debug-monitors.h>
#include <asm/exception.h>
#include <asm/fpsimd.h>
#include <asm/ptrace.h>
#include <asm/signal32.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <asm/ucontext.h>
#include <asm/unistd.h>
#include <asm/vdso.h>

#include "sigframe.h"

/*
 * Streaming mode and ZA would need their own records and an exit from
 * streaming mode on handler entry; neither is implemented here.
 */
static_assert(!IS_ENABLED(CONFIG_ARM64_SME),
	      "signal.c has no ZA/streaming SVE support");

struct rt_sigframe {
	struct siginfo info;
	struct ucontext uc;
};

/* AAPCS64 frame record: lets an unwinder step out of the handler. */
struct sig_frame_record {
	u64 fp;
	u64 lr;
};

/*
 * struct ucontext up to __reserved[], staged in kernel memory so that it
 * crosses the user boundary in one copy each way.  The general registers
 * are laid out exactly as struct user_pt_regs.
 */
struct uc_fixed {
	unsigned long flags;
	struct ucontext __user *link;
	stack_t stack;
	sigset_t mask;
	u8 glibc_mask_tail[1024 / 8 - sizeof(sigset_t)];
	u64 align_pad;
	u64 fault_address;
	struct user_pt_regs gprs;
	u64 reserved_pad;
};

static_assert(offsetof(struct uc_fixed, stack) ==
	      offsetof(struct ucontext, uc_stack));
static_assert(offsetof(struct uc_fixed, mask) ==
	      offsetof(struct ucontext, uc_sigmask));
static_assert(offsetof(struct uc_fixed, fault_address) ==
	      offsetof(struct ucontext, uc_mcontext.fault_address));
static_assert(offsetof(struct uc_fixed, gprs.regs) ==
	      offsetof(struct ucontext, uc_mcontext.regs));
static_assert(offsetof(struct uc_fixed, gprs.pstate) ==
	      offsetof(struct ucontext, uc_mcontext.pstate));
static_assert(sizeof(struct uc_fixed) ==
	      offsetof(struct ucontext, uc_mcontext.__reserved));

/* Head of an FPSIMD record, everything before V0. */
struct fpsimd_record_head {
	struct _aarch64_ctx head;
	u32 fpsr;
	u32 fpcr;
};

static_assert(sizeof(struct fpsimd_record_head) ==
	      offsetof(struct fpsimd_context, vregs));

#define RESV_START	offsetof(struct rt_sigframe, uc.uc_mcontext.__reserved)
#define RESV_END	(RESV_START + sizeof_field(struct sigcontext, __reserved))
#define NULL_REC_SIZE	round_up(sizeof(struct _aarch64_ctx), 16)
#define EXTRA_REC_SIZE	round_up(sizeof(struct extra_context), 16)

/*
 * Upper bound on the frame we build or accept through extra_context.
 * An implementation limit, not ABI.
 */
#define SIGFRAME_CAP	SZ_256K

/* Optional records, in the order they are laid out. */
enum sigframe_rec {
	SIGREC_FPSIMD,
	SIGREC_ESR,
	SIGREC_COUNT
};

struct sigframe_plan {
	/* Offsets from the frame base; 0 means absent from this frame. */
	unsigned long rec[SIGREC_COUNT];
	unsigned long extra;	/* extra_context, then a null record */
	unsigned long end;	/* the null record closing the list */
	unsigned long size;	/* whole rt_sigframe + extra space */

	struct rt_sigframe __user *frame;	/* base of the frame */
	struct sig_frame_record __user *record;
};

/*
 * Sizes of the records a frame for the current task needs, or, for
 * @worst_case, the most any task on this system can need.
 */
static void sigframe_wanted(size_t want[SIGREC_COUNT], bool worst_case)
{
	want[SIGREC_FPSIMD] = system_supports_fpsimd() ?
			      sizeof(struct fpsimd_context) : 0;
	want[SIGREC_ESR] = (worst_case || current->thread.fault_code) ?
			   sizeof(struct esr_context) : 0;
}

/*
 * Layout pass.  Records go into __reserved[] one after another.  Room
 * for an extra_context and a null record is always kept back there: the
 * first record that would eat into it is preceded by that pair instead,
 * and it and everything after it go into the extra space, which starts
 * right behind the pair and may run past the end of __reserved[].
 */
static int sigframe_plan_records(struct sigframe_plan *plan,
				 const size_t want[SIGREC_COUNT])
{
	const unsigned long inline_end = RESV_END - EXTRA_REC_SIZE -
					 NULL_REC_SIZE;
	unsigned long at = RESV_START;
	int i;

	memset(plan, 0, sizeof(*plan));

	for (i = 0; i < SIGREC_COUNT; i++) {
		unsigned long len = round_up(want[i], 16);

		if (!len)
			continue;
		if (!plan->extra && at + len > inline_end) {
			plan->extra = at;
			at += EXTRA_REC_SIZE + NULL_REC_SIZE;
		}
		plan->rec[i] = at;
		at += len;
	}

	plan->end = at;
	at += NULL_REC_SIZE;
	if (at > SIGFRAME_CAP)
		return -ENOMEM;

	plan->size = max_t(unsigned long, at, sizeof(struct rt_sigframe));
	return 0;
}

/*
 * Find room for the planned frame below @sp, or below the top of the
 * alternate stack when the handler asked for it.  A frame that would run
 * off the bottom of the alternate stack is refused rather than written
 * over whatever lies below it.
 */
static int sigframe_place(struct sigframe_plan *plan, struct ksignal *ksig,
			  unsigned long sp)
{
	unsigned long top = sigsp(sp, ksig);
	unsigned long rec = round_down(top - sizeof(struct sig_frame_record),
				       16);
	unsigned long base = rec - plan->size;

	if (!sigframe_fits_altstack(top, base))
		return -ENOSPC;

	if (!access_ok((void __user *)base, top - base))
		return -EFAULT;

	plan->frame = (struct rt_sigframe __user *)base;
	plan->record = (struct sig_frame_record __user *)rec;
	return 0;
}

static void __user *sigframe_at(const struct sigframe_plan *plan,
				unsigned long offset)
{
	return (char __user *)plan->frame + offset;
}

static int fpsimd_record_save(struct fpsimd_context __user *ctx)
{
	const struct user_fpsimd_state *st = &current->thread.uw.fpsimd_state;
	struct fpsimd_record_head hdr = {
		.head.magic = FPSIMD_MAGIC,
		.head.size = sizeof(struct fpsimd_context),
		.fpsr = st->fpsr,
		.fpcr = st->fpcr,
	};

	if (__copy_to_user(ctx, &hdr, sizeof(hdr)) ||
	    __copy_to_user(ctx->vregs, st->vregs, sizeof(st->vregs)))
		return -EFAULT;
	return 0;
}

static int esr_record_save(struct esr_context __user *ctx)
{
	struct esr_context rec = {
		.head.magic = ESR_MAGIC,
		.head.size = sizeof(rec),
		.esr = current->thread.fault_code,
	};

	return __copy_to_user(ctx, &rec, sizeof(rec)) ? -EFAULT : 0;
}

/* extra_context plus the null record that closes __reserved[]. */
static int extra_record_save(const struct sigframe_plan *plan)
{
	struct {
		struct extra_context ctx;
		u8 closing_null[NULL_REC_SIZE];
	} pair;
	unsigned long data = plan->extra + sizeof(pair);

	static_assert(sizeof(pair) == EXTRA_REC_SIZE + NULL_REC_SIZE);

	memset(&pair, 0, sizeof(pair));
	pair.ctx.head.magic = EXTRA_MAGIC;
	pair.ctx.head.size = EXTRA_REC_SIZE;
	pair.ctx.datap = (__force u64)sigframe_at(plan, data);
	pair.ctx.size = plan->size - data;

	return __copy_to_user(sigframe_at(plan, plan->extra), &pair,
			      sizeof(pair)) ? -EFAULT : 0;
}

/* Write pass: fill in the frame sigframe_plan_records() laid out. */
static int sigframe_write(struct pt_regs *regs,
			  const struct sigframe_plan *plan,
			  const kernel_siginfo_t *info, const sigset_t *set)
{
	struct rt_sigframe __user *sf = plan->frame;
	struct sig_frame_record link = {
		.fp = regs->regs[29],
		.lr = regs->regs[30],
	};
	struct uc_fixed fixed;
	unsigned long off;
	int err;

	if (__copy_to_user(plan->record, &link, sizeof(link)))
		return -EFAULT;

	memset(&fixed, 0, sizeof(fixed));
	fixed.stack.ss_sp = (void __user *)current->sas_ss_sp;
	fixed.stack.ss_flags = current->sas_ss_flags;
	fixed.stack.ss_size = current->sas_ss_size;
	fixed.mask = *set;
	fixed.fault_address = current->thread.fault_address;
	fixed.gprs = regs->user_regs;
	if (__copy_to_user(&sf->uc, &fixed, sizeof(fixed)))
		return -EFAULT;

	if (info)
		err = copy_siginfo_to_user(&sf->info, info);
	else
		err = __clear_user(&sf->info, sizeof(sf->info)) ? -EFAULT : 0;
	if (err)
		return err;

	off = plan->rec[SIGREC_FPSIMD];
	if (off) {
		err = fpsimd_record_save(sigframe_at(plan, off));
		if (err)
			return err;
	}

	off = plan->rec[SIGREC_ESR];
	if (off) {
		err = esr_record_save(sigframe_at(plan, off));
		if (err)
			return err;
	}

	if (plan->extra) {
		err = extra_record_save(plan);
		if (err)
			return err;
	}

	/* The closing null record and all unused space after it. */
	if (__clear_user(sigframe_at(plan, plan->end), plan->size - plan->end))
		return -EFAULT;

	return 0;
}

/* Point the task at the handler, with the frame as its stack. */
static void enter_handler(struct pt_regs *regs,
			  const struct sigframe_plan *plan,
			  const struct k_sigaction *ka, int sig)
{
	unsigned long entry = (unsigned long)ka->sa.sa_handler;
	unsigned long ret_addr;

	if (ka->sa.sa_flags & SA_RESTORER)	/* the caller's own trampoline */
		ret_addr = (unsigned long)ka->sa.sa_restorer;
	else
		ret_addr = (unsigned long)VDSO_SYMBOL(current->mm->context.vdso,
						      sigtramp);

	regs->regs[0] = sig;
	regs->regs[29] = (unsigned long)plan->record;
	regs->regs[30] = ret_addr;
	regs->sp = (unsigned long)plan->frame;
	regs->pc = entry;

	/*
	 * The handler is entered as if called by BLR, which matters when it
	 * sits in a PROT_BTI page: it must start with a landing pad.
	 */
	if (system_supports_bti())
		regs->pstate = (regs->pstate & ~PSR_BTYPE_MASK) | PSR_BTYPE_C;

	/* No handler starts with MTE tag checks overridden. */
	regs->pstate &= ~PSR_TCO_BIT;
}

static int deliver_native(struct pt_regs *regs, struct ksignal *ksig,
			  sigset_t *set)
{
	bool with_info = ksig->ka.sa.sa_flags & SA_SIGINFO;
	size_t want[SIGREC_COUNT];
	struct sigframe_plan plan;
	int err;

	/* Make thread.uw.fpsimd_state current before it is copied out. */
	fpsimd_signal_preserve_current_state();

	sigframe_wanted(want, false);
	err = sigframe_plan_records(&plan, want);
	if (!err)
		err = sigframe_place(&plan, ksig, regs->sp);
	if (!err)
		err = sigframe_write(regs, &plan, with_info ? &ksig->info : NULL,
				     set);
	if (err)
		return err;

	enter_handler(regs, &plan, &ksig->ka, ksig->sig);
	if (with_info) {
		regs->regs[1] = (unsigned long)&plan.frame->info;
		regs->regs[2] = (unsigned long)&plan.frame->uc;
	}
	return 0;
}

/*
 * Where the caller's extra_context at @rec (@size bytes, with @room bytes
 * left in __reserved[]) says the record list goes on.  The extra space
 * must start right after the null record that follows the extra_context,
 * and must stay within SIGFRAME_CAP of the frame.
 */
static int extra_space_find(struct rt_sigframe __user *sf,
			    char __user *rec, u32 size, unsigned long room,
			    char __user **from, char __user **to)
{
	struct extra_context ctx;
	struct _aarch64_ctx closing;
	char __user *after = rec + size;
	char __user *data;

	if (size < sizeof(ctx) || room - size < NULL_REC_SIZE)
		return -EINVAL;
	if (__copy_from_user(&ctx, rec, sizeof(ctx)) ||
	    __copy_from_user(&closing, after, sizeof(closing)))
		return -EFAULT;
	if (closing.magic || closing.size)
		return -EINVAL;

	data = (char __user *)(unsigned long)ctx.datap;
	if (data != after + NULL_REC_SIZE || !IS_ALIGNED(ctx.size, 16))
		return -EINVAL;
	if (ctx.size > (char __user *)sf + SIGFRAME_CAP - data)
		return -EINVAL;
	if (!access_ok(data, ctx.size))
		return -EINVAL;

	*from = data;
	*to = data + ctx.size;
	return 0;
}

/*
 * Walk the records a handler hands back.  Every record must be 16-byte
 * aligned, no smaller than its header and wholly inside its area; the
 * list must end with a null record; only one FPSIMD record and one
 * extra_context are allowed and unknown records are refused.  On success
 * *fpsimd is the FPSIMD record, or NULL when there was none.
 */
static int sigframe_scan(struct rt_sigframe __user *sf,
			 struct fpsimd_context __user **fpsimd)
{
	char __user *at = (char __user *)sf->uc.uc_mcontext.__reserved;
	char __user *stop = at + sizeof(sf->uc.uc_mcontext.__reserved);
	bool extra_seen = false;
	int err;

	*fpsimd = NULL;

	for (;;) {
		unsigned long room = stop - at;
		struct _aarch64_ctx head;

		if (room < sizeof(head))
			return -EINVAL;
		if (__copy_from_user(&head, at, sizeof(head)))
			return -EFAULT;

		if (!head.magic)
			return head.size ? -EINVAL : 0;

		if (head.size < sizeof(head) || head.size > room ||
		    !IS_ALIGNED(head.size, 16))
			return -EINVAL;

		switch (head.magic) {
		case FPSIMD_MAGIC:
			if (!system_supports_fpsimd() || *fpsimd ||
			    head.size != sizeof(struct fpsimd_context))
				return -EINVAL;
			*fpsimd = (struct fpsimd_context __user *)at;
			break;

		case ESR_MAGIC:
			/* Information for the handler; nothing to restore. */
			break;

		case EXTRA_MAGIC:
			if (extra_seen)
				return -EINVAL;
			extra_seen = true;
			err = extra_space_find(sf, at, head.size, room,
					       &at, &stop);
			if (err)
				return err;
			continue;

		default:
			return -EINVAL;
		}

		at += head.size;
	}
}

static int fpsimd_record_load(struct fpsimd_context __user *ctx,
			      struct user_fpsimd_state *st)
{
	struct fpsimd_record_head hdr;

	if (__copy_from_user(&hdr, ctx, sizeof(hdr)) ||
	    __copy_from_user(st->vregs, ctx->vregs, sizeof(st->vregs)))
		return -EFAULT;

	/* Another thread may have rewritten the record since the scan. */
	if (hdr.head.magic != FPSIMD_MAGIC ||
	    hdr.head.size != sizeof(struct fpsimd_context))
		return -EINVAL;

	st->fpsr = hdr.fpsr;
	st->fpcr = hdr.fpcr;
	return 0;
}

/*
 * Read and check the whole frame before anything of it is applied: a
 * frame that fails any check leaves the task as rt_sigreturn found it.
 */
static int sigframe_restore(struct pt_regs *regs, struct rt_sigframe __user *sf)
{
	bool has_fp = system_supports_fpsimd();
	struct fpsimd_context __user *fp_rec;
	struct user_fpsimd_state fp_state;
	struct uc_fixed fixed;
	int err;

	if (__copy_from_user(&fixed, &sf->uc, sizeof(fixed)))
		return -EFAULT;

	/*
	 * valid_user_regs() refuses EL1-3, AArch32 and masked DAIF, and
	 * clears RES0 bits; an IL bit would only fault on the next
	 * instruction, so it is refused here.
	 */
	if ((fixed.gprs.pstate & PSR_IL_BIT) ||
	    !valid_user_regs(&fixed.gprs, current))
		return -EINVAL;

	err = sigframe_scan(sf, &fp_rec);
	if (err)
		return err;

	if (has_fp) {
		if (!fp_rec)
			return -EINVAL;
		memset(&fp_state, 0, sizeof(fp_state));
		err = fpsimd_record_load(fp_rec, &fp_state);
		if (err)
			return err;
	}

	set_current_blocked(&fixed.mask);
	regs->user_regs = fixed.gprs;

	if (has_fp) {
		/* Only the FPSIMD view came back: any SVE state is gone. */
		clear_thread_flag(TIF_SVE);
		current->thread.fp_type = FP_STATE_FPSIMD;
		fpsimd_update_current_state(&fp_state);
	}
	return 0;
}

SYSCALL_DEFINE0(rt_sigreturn)
{
	struct pt_regs *regs = current_pt_regs();
	struct rt_sigframe __user *sf = (struct rt_sigframe __user *)regs->sp;

	/* A restart still pending belonged to a call the handler broke. */
	current->restart_block.fn = do_no_restart_syscall;

	/* rt_sigreturn itself must never be restarted. */
	forget_syscall(regs);

	/* Frames are built 16-byte aligned: anything else is forged. */
	if (!IS_ALIGNED(regs->sp, 16) || !access_ok(sf, sizeof(*sf)) ||
	    sigframe_restore(regs, sf) || restore_altstack(&sf->uc.uc_stack)) {
		arm64_notify_segfault(regs->sp);
		return 0;
	}

	return regs->regs[0];
}

static void run_handler(struct ksignal *ksig, struct pt_regs *regs)
{
	sigset_t *mask = sigmask_to_save();
	int failed;

	rseq_signal_deliver(ksig, regs);

	if (!is_compat_task())
		failed = deliver_native(regs, ksig, mask);
	else if (ksig->ka.sa.sa_flags & SA_SIGINFO)
		failed = compat_setup_rt_frame(ksig->sig, ksig, mask, regs);
	else
		failed = compat_setup_frame(ksig->sig, ksig, mask, regs);

	/* Always run: it also settles the single-step state bit. */
	if (!valid_user_regs(&regs->user_regs, current))
		failed = -EINVAL;

	signal_setup_done(failed, ksig, test_thread_flag(TIF_SINGLESTEP));
}

/*
 * Whether a handler about to run cancels the restart that a syscall
 * returning @ret asked for, making the syscall fail with -EINTR.
 */
static bool handler_cancels_restart(long ret, const struct k_sigaction *ka)
{
	switch (ret) {
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		return true;
	case -ERESTARTSYS:
		return !(ka->sa.sa_flags & SA_RESTART);
	default:
		return false;
	}
}

static bool wants_restart(long ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	       ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK;
}

static void signal_work(struct pt_regs *regs)
{
	bool from_syscall = in_syscall(regs);
	unsigned long resume_pc = regs->pc;
	unsigned long retry_pc = 0;
	struct ksignal ksig;
	long ret = 0;

	if (from_syscall) {
		/* AArch32 tasks see 32-bit results. */
		ret = is_compat_task() ? (long)(int)regs->regs[0] :
					 (long)regs->regs[0];
		retry_pc = resume_pc - (compat_thumb_mode(regs) ? 2 : 4);

		/* Nothing after this point restarts it behind our back. */
		forget_syscall(regs);

		/*
		 * Rewind to the SVC now, so that a debugger stopping us in
		 * get_signal() sees the call about to be retried.
		 */
		if (wants_restart(ret)) {
			regs->regs[0] = regs->orig_x0;
			regs->pc = retry_pc;
		}
	}

	if (get_signal(&ksig)) {
		/* Unless a debugger moved pc, the handler may cancel it. */
		if (regs->pc == retry_pc &&
		    handler_cancels_restart(ret, &ksig.ka)) {
			syscall_set_return_value(current, regs, -EINTR, 0);
			regs->pc = resume_pc;
		}
		run_handler(&ksig, regs);
		return;
	}

	/* No handler: the rewound SVC runs again as it is. */
	if (from_syscall && regs->pc == retry_pc) {
		if (ret == -ERESTART_RESTARTBLOCK) {
			if (is_compat_task())
				compat_setup_restart_syscall(regs);
			else
				regs->regs[8] = __NR_restart_syscall;
		}
		user_rewind_single_step(current);
	}

	restore_saved_sigmask();
}

/* One round of the work due before returning to EL0, IRQs enabled. */
static void user_return_work(struct pt_regs *regs, unsigned long flags)
{
	if (flags & _TIF_UPROBE)
		uprobe_notify_resume(regs);

	if (flags & _TIF_MTE_ASYNC_FAULT) {
		clear_thread_flag(TIF_MTE_ASYNC_FAULT);
		send_sig_fault(SIGSEGV, SEGV_MTEAERR, (void __user *)NULL,
			       current);
	}

	if (flags & (_TIF_SIGPENDING | _TIF_NOTIFY_SIGNAL))
		signal_work(regs);

	if (flags & _TIF_NOTIFY_RESUME)
		resume_user_mode_work(regs);

	/* Last: the work above may have used the FPSIMD registers. */
	if (flags & _TIF_FOREIGN_FPSTATE)
		fpsimd_restore_current_state();
}

void do_notify_resume(struct pt_regs *regs, unsigned long flags)
{
	for (;;) {
		if (flags & _TIF_NEED_RESCHED) {
			/* Debug and SError on, IRQs still off. */
			local_daif_restore(DAIF_PROCCTX_NOIRQ);
			schedule();
		} else {
			local_daif_restore(DAIF_PROCCTX);
			user_return_work(regs, flags);
		}

		local_daif_mask();
		flags = read_thread_flags();
		if (!(flags & _TIF_WORK_MASK))
			break;
	}
}

unsigned long __ro_after_init signal_minsigstksz;

/*
 * AT_MINSIGSTKSZ: the largest frame any task can get, plus its frame
 * record and 16 bytes of slack for aligning the top of the stack.  Runs
 * once the CPU features are final.
 */
void __init minsigstksz_setup(void)
{
	size_t want[SIGREC_COUNT];
	struct sigframe_plan plan;

	sigframe_wanted(want, true);
	if (WARN_ON(sigframe_plan_records(&plan, want)))
		return;

	signal_minsigstksz = plan.size + sizeof(struct sig_frame_record) + 16;
}
