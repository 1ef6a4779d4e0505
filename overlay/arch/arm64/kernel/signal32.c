// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal frames of 32-bit (AArch32) tasks.
 *
 * The frames are those a 32-bit ARM kernel builds, since 32-bit C
 * libraries and debuggers know them.  A non-RT frame is a ucontext
 * followed by room for a return trampoline; an RT frame puts a
 * compat_siginfo in front of the same thing.  uc_regspace holds a list
 * of coprocessor records ended by a zero word: we write one record, VFP
 * (d0-d31 and FPSCR), which is all the AArch32 view of FP/SIMD has.
 *
 * signal.c decides which frame to build and handles syscall restart;
 * this file only lays out frames and takes them down again.
 */

#include <linux/compat.h>
#include <linux/cpufeature.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#include <asm/esr.h>
#include <asm/fpsimd.h>
#include <asm/signal32.h>
#include <asm/traps.h>
#include <asm/unistd_compat_32.h>

#include "sigframe.h"
#include "sigreturn32.h"

/* uc_flags of a non-RT frame: no value a trap number ever takes. */
#define AA32_SIGFRAME_UC_FLAGS	0x5ac3c35a

/* ARM FSR bit 11 (WnR): the faulting access was a write. */
#define AA32_FSR_WRITE		BIT(11)

#define AA32_VFP_MAGIC		0x56465001

/* FPEXC.EN: what a 32-bit task would read while it may use VFP. */
#define AA32_FPEXC_EN		BIT(30)

/* FPSCR.Len and FPSCR.Stride (VFP short vectors), kept in FPCR on arm64 */
#define AA32_FPSCR_LEN_STRIDE	(GENMASK(18, 16) | GENMASK(21, 20))

/*
 * The FPSCR control bits, held in FPCR.  VFP_FPSCR_CTRL_MASK leaves out
 * bit 19, FZ16 (flush-to-zero for half precision, FEAT_FP16), which a
 * 32-bit ARM kernel keeps across a handler with the rest of FPSCR: so do
 * we.  Where the CPU has no FP16 the bit reads as zero anyway.
 */
#define AA32_FPSCR_CTRL		(VFP_FPSCR_CTRL_MASK | BIT(19))

/*
 * struct compat_ucontext up to uc_sigmask, staged in kernel memory so
 * that it crosses the user boundary in one copy.
 */
struct aa32_uc_head {
	compat_ulong_t uc_flags;
	compat_uptr_t uc_link;
	compat_stack_t uc_stack;
	struct compat_sigcontext uc_mcontext;
	compat_sigset_t uc_sigmask;
};

static_assert(offsetof(struct aa32_uc_head, uc_stack) ==
	      offsetof(struct compat_ucontext, uc_stack));
static_assert(offsetof(struct aa32_uc_head, uc_mcontext) ==
	      offsetof(struct compat_ucontext, uc_mcontext));
static_assert(offsetof(struct aa32_uc_head, uc_sigmask) ==
	      offsetof(struct compat_ucontext, uc_sigmask));
static_assert(sizeof(struct aa32_uc_head) ==
	      offsetof(struct compat_ucontext, __unused));
static_assert(sizeof(struct aa32_uc_head) == 28 * sizeof(u32));

/*
 * The VFP record in uc_regspace.  The register block and the exception
 * block are separate structures in the ABI: the 64-bit alignment of
 * the D registers pads the first one to 264 bytes.
 */
struct aa32_vfp_record {
	u32 magic;
	u32 size;
	struct {
		u64 d[32];
		u32 fpscr;
	} regs;
	struct {
		u32 fpexc;
		u32 fpinst;
		u32 fpinst2;
	} exc;
} __aligned(8);

static_assert(offsetof(struct aa32_vfp_record, exc) == 272);
static_assert(sizeof(struct aa32_vfp_record) == 288);
static_assert(sizeof(struct aa32_vfp_record) + sizeof(u32) <=
	      sizeof_field(struct compat_ucontext, uc_regspace));

/* What sigreturn takes from the VFP record: all but the exception block. */
struct aa32_vfp_in {
	u32 magic;
	u32 size;
	u64 d[32];
	u32 fpscr;
};

static_assert(offsetof(struct aa32_vfp_in, d) ==
	      offsetof(struct aa32_vfp_record, regs.d));
static_assert(offsetof(struct aa32_vfp_in, fpscr) ==
	      offsetof(struct aa32_vfp_record, regs.fpscr));

/* Everything sigreturn reads of a frame, to be checked before use. */
struct aa32_frame_in {
	struct {
		struct compat_sigcontext sc;
		compat_sigset_t mask;
	} mc;
	struct aa32_vfp_in vfp;
	bool has_mask;		/* mc.mask could be read */
};

static_assert(offsetof(struct aa32_frame_in, mc.mask) ==
	      offsetof(struct compat_ucontext, uc_sigmask) -
	      offsetof(struct compat_ucontext, uc_mcontext));

/*
 * d(2n) is the low half of q(n) and d(2n + 1) the high half: in a
 * little-endian kernel q0-q15 in memory already are d0-d31, in order.
 */
static int aa32_put_dregs(u64 __user *d, const __uint128_t *q)
{
	u64 tmp[32];
	int n;

	if (!IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		return __copy_to_user(d, q, sizeof(tmp));

	for (n = 0; n < ARRAY_SIZE(tmp) / 2; n++) {
		tmp[2 * n] = (u64)q[n];
		tmp[2 * n + 1] = (u64)(q[n] >> 64);
	}
	return __copy_to_user(d, tmp, sizeof(tmp));
}

static void aa32_get_dregs(__uint128_t *q, const u64 *d)
{
	int n;

	if (!IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)) {
		memcpy(q, d, 32 * sizeof(*d));
		return;
	}

	for (n = 0; n < 16; n++)
		q[n] = (__uint128_t)d[2 * n + 1] << 64 | d[2 * n];
}

/* The frame was access_ok()ed whole when it was placed. */
static int aa32_save_vfp(struct aa32_vfp_record __user *rec)
{
	const struct user_fpsimd_state *fp = &current->thread.uw.fpsimd_state;
	u32 fpscr;
	int err = 0;

	/* The registers may still be live in the CPU: flush them first. */
	fpsimd_signal_preserve_current_state();

	/* AArch32 keeps in FPSCR what AArch64 splits into FPSR and FPCR. */
	fpscr = (fp->fpsr & VFP_FPSCR_STAT_MASK) |
		(fp->fpcr & AA32_FPSCR_CTRL);

	/* No trapped VFP exceptions here: FPINST and FPINST2 are zero. */
	__put_user_error(AA32_VFP_MAGIC, &rec->magic, err);
	__put_user_error(sizeof(*rec), &rec->size, err);
	__put_user_error(fpscr, &rec->regs.fpscr, err);
	__put_user_error(AA32_FPEXC_EN, &rec->exc.fpexc, err);
	__put_user_error(0, &rec->exc.fpinst, err);
	__put_user_error(0, &rec->exc.fpinst2, err);
	if (err || aa32_put_dregs(rec->regs.d, fp->vregs))
		return -EFAULT;
	return 0;
}

/*
 * Make the VFP registers of @vfp the task's.  The copy in memory becomes
 * the live one, so the registers are disowned first: a context switch
 * or kernel-mode NEON from here on saves nothing over it, and the
 * return to user space loads it.  q16-q31 are out of AArch32's reach
 * (nothing of a 32-bit task changes them) and keep their values.
 */
static void aa32_commit_vfp(const struct aa32_vfp_in *vfp)
{
	struct user_fpsimd_state *fp = &current->thread.uw.fpsimd_state;

	fpsimd_flush_task_state(current);
	aa32_get_dregs(fp->vregs, vfp->d);
	fp->fpsr = vfp->fpscr & VFP_FPSCR_STAT_MASK;
	fp->fpcr = vfp->fpscr & AA32_FPSCR_CTRL;
}

static void aa32_fill_sigcontext(struct compat_sigcontext *sc,
				 const struct pt_regs *regs,
				 const sigset_t *set)
{
	const struct thread_struct *thread = &current->thread;

	sc->trap_no = 0;
	sc->error_code = thread->fault_code & ESR_ELx_WNR ? AA32_FSR_WRITE : 0;
	sc->oldmask = set->sig[0];
	sc->arm_r0 = regs->regs[0];
	sc->arm_r1 = regs->regs[1];
	sc->arm_r2 = regs->regs[2];
	sc->arm_r3 = regs->regs[3];
	sc->arm_r4 = regs->regs[4];
	sc->arm_r5 = regs->regs[5];
	sc->arm_r6 = regs->regs[6];
	sc->arm_r7 = regs->regs[7];
	sc->arm_r8 = regs->regs[8];
	sc->arm_r9 = regs->regs[9];
	sc->arm_r10 = regs->regs[10];
	sc->arm_fp = regs->regs[11];
	sc->arm_ip = regs->regs[12];
	sc->arm_sp = regs->compat_sp;
	sc->arm_lr = regs->compat_lr;
	sc->arm_pc = regs->pc;
	sc->arm_cpsr = pstate_to_compat_psr(regs->pstate);
	sc->fault_address = thread->fault_address;
}

/*
 * Write @uc.  uc_link and uc_stack are left zero: the caller of an RT
 * frame fills uc_stack in; a non-RT frame has no use for either.
 */
static int aa32_save_ucontext(struct compat_ucontext __user *uc, u32 flags,
			      const struct pt_regs *regs, const sigset_t *set)
{
	u32 __user *records = (u32 __user *)uc->uc_regspace;
	struct aa32_uc_head head;

	/* Every byte of head is written: it has no padding to leak. */
	head.uc_flags = flags;
	head.uc_link = 0;
	head.uc_stack.ss_sp = 0;
	head.uc_stack.ss_flags = 0;
	head.uc_stack.ss_size = 0;
	aa32_fill_sigcontext(&head.uc_mcontext, regs, set);
	head.uc_sigmask.sig[0] = set->sig[0];
	head.uc_sigmask.sig[1] = set->sig[0] >> 32;
	if (__copy_to_user(uc, &head, sizeof(head)))
		return -EFAULT;

	if (system_supports_fpsimd()) {
		if (aa32_save_vfp((struct aa32_vfp_record __user *)records))
			return -EFAULT;
		records += sizeof(struct aa32_vfp_record) / sizeof(*records);
	}

	/* The zero word that ends the record list. */
	return __put_user(0, records);
}

/*
 * Read what sigreturn needs of @uc into @in, and check the VFP record.
 * When the frame cannot be read whole, the mask may still be readable
 * on its own: a refusal applies it then, as stock does.
 */
static int aa32_read_frame(struct aa32_frame_in *in,
			   const struct compat_ucontext __user *uc)
{
	bool has_vfp = system_supports_fpsimd();

	if (__copy_from_user(&in->mc, &uc->uc_mcontext, sizeof(in->mc))) {
		in->has_mask = !__copy_from_user(&in->mc.mask, &uc->uc_sigmask,
						 sizeof(in->mc.mask));
		return -EFAULT;
	}
	in->has_mask = true;
	if (has_vfp && __copy_from_user(&in->vfp, uc->uc_regspace,
					sizeof(in->vfp)))
		return -EFAULT;

	if (has_vfp && (in->vfp.magic != AA32_VFP_MAGIC ||
			in->vfp.size != sizeof(struct aa32_vfp_record)))
		return -EINVAL;
	return 0;
}

/*
 * Take the task back to the context in @uc: registers, blocked signals,
 * VFP registers and, for an RT frame, the alternate stack.  Everything
 * is read and checked before any of it is applied, so a frame refused
 * for any reason leaves the registers and VFP state as sigreturn found
 * them: what a SIGSEGV handler or a core dump then sees is the context
 * of the sigreturn call, never half of it and half of the frame.  Only
 * the frame's mask is applied all the same, when it could be read, as
 * stock, a 32-bit ARM kernel and x86 apply it: a SIGSEGV handler that
 * returns a bad frame then runs again instead of the task dying with
 * SIGSEGV blocked.
 */
static int aa32_restore_ucontext(struct pt_regs *regs,
				 const struct compat_ucontext __user *uc,
				 bool rt)
{
	const u64 old_pstate = regs->pstate, old_pc = regs->pc;
	const u64 old_sp = regs->compat_sp;
	const struct compat_sigcontext *sc;
	struct aa32_frame_in in;
	sigset_t blocked;
	int err;

	err = aa32_read_frame(&in, uc);
	if (in.has_mask)
		blocked.sig[0] = in.mc.mask.sig[0] |
				 (u64)in.mc.mask.sig[1] << 32;
	if (err)
		goto refused;
	sc = &in.mc.sc;

	/*
	 * valid_user_regs() checks (and settles) pstate in place: the
	 * frame's mode must be AArch32 user with A, I and F clear.  The
	 * alternate stack comes back last, as sigaltstack() refuses to
	 * change it while sp is on it: it needs the frame's sp.  Until both
	 * have passed, what they changed is put back.
	 */
	regs->pstate = compat_psr_to_pstate(sc->arm_cpsr);
	regs->pc = sc->arm_pc;
	regs->compat_sp = sc->arm_sp;
	if (!valid_user_regs(&regs->user_regs, current))
		err = -EINVAL;
	else if (rt && compat_restore_altstack(&uc->uc_stack))
		err = -EFAULT;
	if (err) {
		regs->pstate = old_pstate;
		regs->pc = old_pc;
		regs->compat_sp = old_sp;
		goto refused;
	}

	/* Nothing can fail from here on. */
	regs->regs[0] = sc->arm_r0;
	regs->regs[1] = sc->arm_r1;
	regs->regs[2] = sc->arm_r2;
	regs->regs[3] = sc->arm_r3;
	regs->regs[4] = sc->arm_r4;
	regs->regs[5] = sc->arm_r5;
	regs->regs[6] = sc->arm_r6;
	regs->regs[7] = sc->arm_r7;
	regs->regs[8] = sc->arm_r8;
	regs->regs[9] = sc->arm_r9;
	regs->regs[10] = sc->arm_r10;
	regs->regs[11] = sc->arm_fp;
	regs->regs[12] = sc->arm_ip;
	regs->compat_lr = sc->arm_lr;

	set_current_blocked(&blocked);

	if (system_supports_fpsimd())
		aa32_commit_vfp(&in.vfp);
	return 0;

refused:
	if (in.has_mask)
		set_current_blocked(&blocked);
	return err;
}

static long aa32_sigreturn(bool rt)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned long sp = regs->compat_sp;
	struct compat_rt_sigframe __user *rtf = compat_ptr(sp);
	struct compat_sigframe __user *sf = compat_ptr(sp);
	struct compat_ucontext __user *uc = rt ? &rtf->sig.uc : &sf->uc;
	size_t size = rt ? sizeof(*rtf) : sizeof(*sf);

	/* A syscall interrupted by the signal is over: no restart. */
	current->restart_block.fn = do_no_restart_syscall;

	/*
	 * Nor is this call ever restarted, taken or refused: a refusal
	 * leaves r0 as it was, which must not be read as a restart request.
	 */
	forget_syscall(regs);

	/* Frames are built 8-byte aligned: anything else was forged. */
	if ((sp & 7) || !access_ok(compat_ptr(sp), size) ||
	    aa32_restore_ucontext(regs, uc, rt))
		arm64_notify_segfault(sp);

	/* Taken, r0 is the frame's; refused, the call's, as for 64-bit */
	return regs->regs[0];
}

COMPAT_SYSCALL_DEFINE0(sigreturn)
{
	return aa32_sigreturn(false);
}

COMPAT_SYSCALL_DEFINE0(rt_sigreturn)
{
	return aa32_sigreturn(true);
}

/*
 * Room for @size bytes below the stack to use, 8-byte aligned (AAPCS), and
 * on the alternate stack when the frame starts there.
 */
static void __user *aa32_alloc_frame(struct ksignal *ksig,
				     struct pt_regs *regs, size_t size)
{
	unsigned long sp = sigsp(regs->compat_sp, ksig);
	unsigned long base = (sp - size) & ~7UL;
	void __user *frame = compat_ptr((compat_uptr_t)base);

	if (!sigframe_fits_altstack(sp, base))
		return NULL;
	return access_ok(frame, size) ? frame : NULL;
}

/* Where the handler returns to, unless it brought its own restorer. */
static compat_uptr_t aa32_sigpage_return(bool rt, bool thumb)
{
	unsigned long sigpage = (unsigned long)current->mm->context.sigpage;
	unsigned int offset;

	/* Bit 0 of a Thumb address selects Thumb state. */
	if (thumb)
		offset = (rt ? AA32_SIGRET_THUMB_RT : AA32_SIGRET_THUMB) | 1;
	else
		offset = rt ? AA32_SIGRET_ARM_RT : AA32_SIGRET_ARM;
	return sigpage + offset;
}

/*
 * The procedure call standard enters every function with FPSCR.Len and
 * FPSCR.Stride zero, and a 32-bit ARM kernel enters a signal handler so.
 * Where the CPU keeps the two writable, a non-zero value makes VFP data
 * processing UNDEFINED, so a handler that interrupted short-vector code
 * would die of SIGILL at its first floating-point instruction.  The frame
 * keeps the interrupted values (aa32_save_vfp() has just saved the live
 * registers), and sigreturn brings them back.
 */
static void aa32_handler_fpscr(void)
{
	struct user_fpsimd_state *fp = &current->thread.uw.fpsimd_state;

	if (!system_supports_fpsimd() || !(fp->fpcr & AA32_FPSCR_LEN_STRIDE))
		return;
	/* Disowned first, so that the return to user space loads this copy */
	fpsimd_flush_task_state(current);
	fp->fpcr &= ~AA32_FPSCR_LEN_STRIDE;
}

static void aa32_enter_handler(struct pt_regs *regs, struct ksignal *ksig,
			       void __user *frame, int usig, bool rt)
{
	struct k_sigaction *ka = &ksig->ka;
	compat_uptr_t handler = ptr_to_compat(ka->sa.sa_handler);
	bool thumb = handler & 1;
	u64 pstate = regs->pstate;

	/*
	 * The handler starts with clear flags, outside any If-Then block,
	 * in the instruction set its address asks for and in the kernel's
	 * data endianness.
	 */
	pstate &= ~(PSR_f | PSR_AA32_IT_MASK | PSR_AA32_E_BIT | PSR_AA32_T_BIT);
	pstate |= PSR_AA32_ENDSTATE;
	if (thumb)
		pstate |= PSR_AA32_T_BIT;

	regs->regs[0] = usig;
	regs->compat_sp = ptr_to_compat(frame);
	if (ka->sa.sa_flags & SA_RESTORER)
		regs->compat_lr = ptr_to_compat(ka->sa.sa_restorer);
	else
		regs->compat_lr = aa32_sigpage_return(rt, thumb);
	regs->pc = handler;
	regs->pstate = pstate;
	aa32_handler_fpscr();
}

int compat_setup_frame(int usig, struct ksignal *ksig, sigset_t *set,
		       struct pt_regs *regs)
{
	struct compat_sigframe __user *sf;

	sf = aa32_alloc_frame(ksig, regs, sizeof(*sf));
	if (!sf)
		return 1;

	if (aa32_save_ucontext(&sf->uc, AA32_SIGFRAME_UC_FLAGS, regs, set))
		return -EFAULT;

	aa32_enter_handler(regs, ksig, sf, usig, false);
	return 0;
}

int compat_setup_rt_frame(int usig, struct ksignal *ksig, sigset_t *set,
			  struct pt_regs *regs)
{
	struct compat_rt_sigframe __user *rtf;
	struct compat_ucontext __user *uc;

	rtf = aa32_alloc_frame(ksig, regs, sizeof(*rtf));
	if (!rtf)
		return 1;
	uc = &rtf->sig.uc;

	if (copy_siginfo_to_user32(&rtf->info, &ksig->info) ||
	    aa32_save_ucontext(uc, 0, regs, set) ||
	    __compat_save_altstack(&uc->uc_stack, regs->compat_sp))
		return -EFAULT;

	aa32_enter_handler(regs, ksig, rtf, usig, true);
	regs->regs[1] = ptr_to_compat(&rtf->info);
	regs->regs[2] = ptr_to_compat(uc);
	return 0;
}

void compat_setup_restart_syscall(struct pt_regs *regs)
{
	regs->regs[7] = __NR_compat32_restart_syscall;
}

/*
 * The compat_siginfo_t layout the AArch32 EABI fixed, checked here as
 * signal.c checks the native one.
 */
#define compat_siginfo_at(field, off) \
	static_assert(offsetof(compat_siginfo_t, field) == (off))

static_assert(sizeof(compat_siginfo_t) == 128);
static_assert(__alignof__(compat_siginfo_t) == 4);

compat_siginfo_at(si_signo, 0x00);
compat_siginfo_at(si_errno, 0x04);
compat_siginfo_at(si_code, 0x08);
/* kill, rt_sigqueueinfo */
compat_siginfo_at(si_pid, 0x0c);
compat_siginfo_at(si_uid, 0x10);
/* POSIX timers */
compat_siginfo_at(si_tid, 0x0c);
compat_siginfo_at(si_overrun, 0x10);
compat_siginfo_at(si_value, 0x14);
compat_siginfo_at(si_int, 0x14);
compat_siginfo_at(si_ptr, 0x14);
/* SIGCHLD */
compat_siginfo_at(si_status, 0x14);
compat_siginfo_at(si_utime, 0x18);
compat_siginfo_at(si_stime, 0x1c);
/* faults */
compat_siginfo_at(si_addr, 0x0c);
compat_siginfo_at(si_addr_lsb, 0x10);
compat_siginfo_at(si_lower, 0x14);
compat_siginfo_at(si_upper, 0x18);
compat_siginfo_at(si_pkey, 0x14);
compat_siginfo_at(si_perf_data, 0x10);
compat_siginfo_at(si_perf_type, 0x14);
compat_siginfo_at(si_perf_flags, 0x18);
/* SIGPOLL */
compat_siginfo_at(si_band, 0x0c);
compat_siginfo_at(si_fd, 0x10);
/* SIGSYS */
compat_siginfo_at(si_call_addr, 0x0c);
compat_siginfo_at(si_syscall, 0x10);
compat_siginfo_at(si_arch, 0x14);
