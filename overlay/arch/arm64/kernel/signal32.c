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
#include <asm/unistd.h>

#include "sigframe.h"

/* uc_flags of a non-RT frame: no value a trap number ever takes. */
#define AA32_SIGFRAME_UC_FLAGS	0x5ac3c35a

/* ARM FSR bit 11 (WnR): the faulting access was a write. */
#define AA32_FSR_WRITE		BIT(11)

#define AA32_VFP_MAGIC		0x56465001

/* FPEXC.EN: what a 32-bit task would read while it may use VFP. */
#define AA32_FPEXC_EN		BIT(30)

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

/*
 * Offsets of the return trampolines in the [sigpage], as laid out by
 * sigreturn32.S.
 */
#define AA32_SIGPAGE_RT		8
#define AA32_SIGPAGE_THUMB	16

static int aa32_save_vfp(struct aa32_vfp_record __user *rec)
{
	const struct user_fpsimd_state *fp = &current->thread.uw.fpsimd_state;
	struct aa32_vfp_record vfp;
	int n;

	/* The registers may still be live in the CPU: flush them first. */
	fpsimd_signal_preserve_current_state();

	memset(&vfp, 0, sizeof(vfp));
	vfp.magic = AA32_VFP_MAGIC;
	vfp.size = sizeof(vfp);

	/* d(2n) is the low half of q(n) and d(2n + 1) the high half. */
	for (n = 0; n < ARRAY_SIZE(vfp.regs.d) / 2; n++) {
		vfp.regs.d[2 * n] = (u64)fp->vregs[n];
		vfp.regs.d[2 * n + 1] = (u64)(fp->vregs[n] >> 64);
	}

	/* AArch32 keeps in FPSCR what AArch64 splits into FPSR and FPCR. */
	vfp.regs.fpscr = (fp->fpsr & VFP_FPSCR_STAT_MASK) |
			 (fp->fpcr & VFP_FPSCR_CTRL_MASK);

	/* No trapped VFP exceptions here: FPINST and FPINST2 stay zero. */
	vfp.exc.fpexc = AA32_FPEXC_EN;

	return copy_to_user(rec, &vfp, sizeof(vfp)) ? -EFAULT : 0;
}

static int aa32_restore_vfp(const struct aa32_vfp_record __user *rec)
{
	struct user_fpsimd_state fp;
	struct aa32_vfp_record vfp;
	int n;

	if (copy_from_user(&vfp, rec, sizeof(vfp)))
		return -EFAULT;
	if (vfp.magic != AA32_VFP_MAGIC || vfp.size != sizeof(vfp))
		return -EINVAL;

	/* q16-q31 cannot be seen from AArch32: they come back as zero. */
	memset(&fp, 0, sizeof(fp));
	for (n = 0; n < ARRAY_SIZE(vfp.regs.d) / 2; n++)
		fp.vregs[n] = ((__uint128_t)vfp.regs.d[2 * n + 1] << 64) |
			      vfp.regs.d[2 * n];
	fp.fpsr = vfp.regs.fpscr & VFP_FPSCR_STAT_MASK;
	fp.fpcr = vfp.regs.fpscr & VFP_FPSCR_CTRL_MASK;

	fpsimd_update_current_state(&fp);
	return 0;
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

/* Write everything of @uc but uc_flags, uc_link and uc_stack. */
static int aa32_save_ucontext(struct compat_ucontext __user *uc,
			      const struct pt_regs *regs, const sigset_t *set)
{
	u32 __user *records = (u32 __user *)uc->uc_regspace;
	struct compat_sigcontext sc;

	aa32_fill_sigcontext(&sc, regs, set);
	if (copy_to_user(&uc->uc_mcontext, &sc, sizeof(sc)) ||
	    put_compat_sigset(&uc->uc_sigmask, set, sizeof(uc->uc_sigmask)))
		return -EFAULT;

	if (system_supports_fpsimd()) {
		if (aa32_save_vfp((struct aa32_vfp_record __user *)records))
			return -EFAULT;
		records += sizeof(struct aa32_vfp_record) / sizeof(*records);
	}

	/* The zero word that ends the record list. */
	return put_user(0, records);
}

/*
 * A frame handed back by user space must not take the task anywhere a
 * 32-bit task cannot go by itself.  valid_user_regs() sees to the mode
 * (user, AArch32) and the A/I/F masks; an If-Then state only makes
 * sense in Thumb state.
 */
static bool aa32_cpsr_ok(u32 cpsr)
{
	return (cpsr & PSR_AA32_T_BIT) || !(cpsr & PSR_AA32_IT_MASK);
}

static int aa32_restore_ucontext(struct pt_regs *regs,
				 const struct compat_ucontext __user *uc)
{
	struct compat_sigcontext sc;
	struct user_pt_regs user;
	sigset_t blocked;

	if (copy_from_user(&sc, &uc->uc_mcontext, sizeof(sc)) ||
	    get_compat_sigset(&blocked, &uc->uc_sigmask))
		return -EFAULT;

	user = regs->user_regs;
	user.regs[0] = sc.arm_r0;
	user.regs[1] = sc.arm_r1;
	user.regs[2] = sc.arm_r2;
	user.regs[3] = sc.arm_r3;
	user.regs[4] = sc.arm_r4;
	user.regs[5] = sc.arm_r5;
	user.regs[6] = sc.arm_r6;
	user.regs[7] = sc.arm_r7;
	user.regs[8] = sc.arm_r8;
	user.regs[9] = sc.arm_r9;
	user.regs[10] = sc.arm_r10;
	user.regs[11] = sc.arm_fp;
	user.regs[12] = sc.arm_ip;
	user.compat_sp = sc.arm_sp;
	user.compat_lr = sc.arm_lr;
	user.pc = sc.arm_pc;
	user.pstate = compat_psr_to_pstate(sc.arm_cpsr);

	if (!aa32_cpsr_ok(sc.arm_cpsr) || !valid_user_regs(&user, current))
		return -EINVAL;

	set_current_blocked(&blocked);
	regs->user_regs = user;

	/* We return to the interrupted code, not into a syscall restart. */
	forget_syscall(regs);

	if (system_supports_fpsimd())
		return aa32_restore_vfp((const void __user *)uc->uc_regspace);
	return 0;
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

	/* Frames are built 8-byte aligned: anything else was forged. */
	if ((sp & 7) || !access_ok(compat_ptr(sp), size))
		goto bad_frame;

	if (aa32_restore_ucontext(regs, uc))
		goto bad_frame;

	if (rt && compat_restore_altstack(&uc->uc_stack))
		goto bad_frame;

	return regs->regs[0];

bad_frame:
	arm64_notify_segfault(regs->compat_sp);
	return 0;
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
	unsigned long ret = (unsigned long)current->mm->context.sigpage;

	if (rt)
		ret += AA32_SIGPAGE_RT;
	if (thumb)
		ret += AA32_SIGPAGE_THUMB | 1;
	return ret;
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
}

int compat_setup_frame(int usig, struct ksignal *ksig, sigset_t *set,
		       struct pt_regs *regs)
{
	struct compat_sigframe __user *sf;

	sf = aa32_alloc_frame(ksig, regs, sizeof(*sf));
	if (!sf)
		return 1;

	if (__put_user(AA32_SIGFRAME_UC_FLAGS, &sf->uc.uc_flags) ||
	    aa32_save_ucontext(&sf->uc, regs, set))
		return -EFAULT;

	aa32_enter_handler(regs, ksig, sf, usig, false);
	return 0;
}

int compat_setup_rt_frame(int usig, struct ksignal *ksig, sigset_t *set,
			  struct pt_regs *regs)
{
	struct compat_rt_sigframe __user *rtf;
	struct compat_ucontext __user *uc;
	int err;

	rtf = aa32_alloc_frame(ksig, regs, sizeof(*rtf));
	if (!rtf)
		return 1;
	uc = &rtf->sig.uc;

	err = copy_siginfo_to_user32(&rtf->info, &ksig->info);
	err |= __put_user(0, &uc->uc_flags);
	err |= __put_user(0, &uc->uc_link);
	err |= __compat_save_altstack(&uc->uc_stack, regs->compat_sp);
	err |= aa32_save_ucontext(uc, regs, set);
	if (err)
		return -EFAULT;

	aa32_enter_handler(regs, ksig, rtf, usig, true);
	regs->regs[1] = ptr_to_compat(&rtf->info);
	regs->regs[2] = ptr_to_compat(uc);
	return 0;
}

void compat_setup_restart_syscall(struct pt_regs *regs)
{
	regs->regs[7] = __NR_compat_restart_syscall;
}
