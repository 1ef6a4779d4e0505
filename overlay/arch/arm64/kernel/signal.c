// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal delivery and rt_sigreturn for native AArch64 tasks; AArch32
 * tasks are handed to the compat code in signal32.c.
 *
 * A native frame, lowest address first:
 *
 *	struct rt_sigframe		<- sp of the handler
 *	    siginfo			(written only for SA_SIGINFO)
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
 * every record goes, then sigframe_write_blocks() and
 * sigframe_write_fields() fill the frame in.  Bytes the
 * plan gives no meaning to (padding, the unused tail of __reserved[], the
 * siginfo of a handler without SA_SIGINFO) are not written: they still
 * hold what the task's own stack held.  Every byte that is written comes
 * from the task's registers or from a fully initialised value, never from
 * uninitialised kernel memory.
 *
 * rt_sigreturn reads and checks the whole frame before it changes any
 * register: a frame it refuses leaves the registers, the FP/SIMD/SVE
 * state and the alternate stack as they were at the call, so that the
 * SIGSEGV which follows shows the caller.  Of a refused frame only the
 * signal mask is applied, when it could be read, as stock, x86 and 32-bit
 * ARM apply it: the handler that returned is over either way, and a
 * SIGSEGV handler that returns a bad frame runs again rather than the
 * task dying with SIGSEGV blocked.  Accepted or not, the call drops the
 * restart of a syscall the handler interrupted and is never restarted
 * itself.
 */

#include <linux/compat.h>
#include <linux/cpufeature.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/pkeys.h>
#include <linux/processor.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/daifflags.h>
#include <asm/debug-monitors.h>
#include <asm/exception.h>
#include <asm/fpsimd.h>
#include <asm/kver_compat.h>
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

/* x0-x30, sp, pc and pstate cross as one block, as in struct pt_regs. */
static_assert(offsetof(struct sigcontext, sp) ==
	      offsetof(struct sigcontext, regs) +
	      offsetof(struct user_pt_regs, sp));
static_assert(offsetof(struct sigcontext, pc) ==
	      offsetof(struct sigcontext, regs) +
	      offsetof(struct user_pt_regs, pc));
static_assert(offsetof(struct sigcontext, pstate) ==
	      offsetof(struct sigcontext, regs) +
	      offsetof(struct user_pt_regs, pstate));

/* The kernel's sigset_t is the first word of the one in the frame. */
static_assert(_NSIG_WORDS == 1);

/* Head of an FPSIMD record, everything before V0. */
struct fpsimd_record_head {
	struct _aarch64_ctx head;
	u32 fpsr;
	u32 fpcr;
};

static_assert(sizeof(struct fpsimd_record_head) ==
	      offsetof(struct fpsimd_context, vregs));
/* Both layouts keep FPSR and FPCR side by side, FPSR first. */
static_assert(offsetof(struct user_fpsimd_state, fpcr) ==
	      offsetof(struct user_fpsimd_state, fpsr) + 4);

#define RESV_START	offsetof(struct rt_sigframe, uc.uc_mcontext.__reserved)
#define RESV_END	(RESV_START + sizeof_field(struct sigcontext, __reserved))
#define NULL_REC_SIZE	round_up(sizeof(struct _aarch64_ctx), 16)
#define EXTRA_REC_SIZE	round_up(sizeof(struct extra_context), 16)
#define SIGINFO_TAIL	(sizeof(siginfo_t) - sizeof(struct kernel_siginfo))

static_assert(sizeof(struct rt_sigframe) == RESV_END);
static_assert(SIGINFO_TAIL % 8 == 0);

/*
 * Upper bound on the frame we build or accept through extra_context.
 * An implementation limit, not ABI.
 */
#define SIGFRAME_CAP	SZ_256K

/*
 * User access windows.  6.1's arm64 has no user_access_begin() of its
 * own: the generic stand-in makes every unsafe_put_user() a complete
 * put_user(), access_ok() included (6.12's is what follows, per call).
 * Here the whole frame is checked
 * with access_ok() once, and the scalar fields then cross with bare
 * LDTR/STTR (EL0 permissions: PAN stays on), each pointer masked
 * against speculation, inside one uaccess_ttbr0_enable()/disable()
 * pair.  Nothing inside a window may call a copy routine (it toggles
 * TTBR0 itself under SW_TTBR0_PAN) or schedule on purpose; the large
 * blocks are copied between windows.  A fault inside a window may sleep:
 * exception entry and return save and restore the TTBR0 state around it.
 */
#define frame_uaccess_begin()	uaccess_ttbr0_enable()
#define frame_uaccess_end()	uaccess_ttbr0_disable()

/*
 * One field of 1, 2, 4 or 8 bytes; a fault sets @err to -EFAULT (and a
 * load gives 0), every other access leaves it alone.
 */
#define frame_put(val, uptr, err)					\
	uaccess_put("sttr", val, uaccess_mask_ptr(uptr), err, U)
#define frame_get(var, uptr, err)					\
	uaccess_get("ldtr", var, uaccess_mask_ptr(uptr), err, U)

/*
 * A small kernel object of whole 64-bit words (8-byte aligned, no
 * padding), to or from the frame, inside a window.
 */
static __always_inline void frame_put_words(void __user *udst,
					    const void *ksrc, size_t bytes,
					    int *err)
{
	const u64 *src = ksrc;
	u64 __user *dst = udst;
	size_t i;

	BUILD_BUG_ON(bytes % 8);
	for (i = 0; i < bytes / 8; i++)
		frame_put(src[i], dst + i, *err);
}

static __always_inline void frame_get_words(void *kdst,
					    const void __user *usrc,
					    size_t bytes, int *err)
{
	const u64 __user *src = usrc;
	u64 *dst = kdst;
	size_t i;

	BUILD_BUG_ON(bytes % 8);
	for (i = 0; i < bytes / 8; i++)
		frame_get(dst[i], src + i, *err);
}

/*
 * Records of one 64-bit register, as 6.12's uapi has them: FPMR
 * (FEAT_FPMR, fpmr_context) and POR_EL0 (FEAT_S1POE, poe_context).  A
 * tree whose uapi lacks the magic has neither record, and its CPUs'
 * registers are not the task's to keep.
 */
struct sig_reg_record {
	struct _aarch64_ctx head;
	u64 value;
};

#ifdef FPMR_MAGIC
static_assert(sizeof(struct fpmr_context) == sizeof(struct sig_reg_record));
static_assert(offsetof(struct fpmr_context, fpmr) ==
	      offsetof(struct sig_reg_record, value));
/* FPMR is FP state: thread.uw.fpmr is saved and loaded with the rest. */
#define sig_has_fpmr()		system_supports_fpmr()
#define sig_fpmr_saved()	(current->thread.uw.fpmr)
#define sig_fpmr_stage(v)	(current->thread.uw.fpmr = (v))
#endif

#ifdef POE_MAGIC
static_assert(sizeof(struct poe_context) == sizeof(struct sig_reg_record));
static_assert(offsetof(struct poe_context, por_el0) ==
	      offsetof(struct sig_reg_record, value));
#define sig_has_poe()		system_supports_poe()

/*
 * The frame is written with EL0's permissions, so POR_EL0 decides which
 * pkeys' pages the kernel may write it to: every pkey is opened for the
 * writes, and the task's own value goes into the frame.  The register
 * is the task's (a context switch saves it from there).
 */
static u64 sig_por_open_all(void)
{
	u64 saved = read_sysreg_s(SYS_POR_EL0);
	u64 all = 0;
	int pkey;

	for (pkey = 0; pkey < arch_max_pkey(); pkey++)
		all |= POE_RXW << (pkey * POR_BITS_PER_PKEY);
	write_sysreg_s(all, SYS_POR_EL0);
	isb();
	return saved;
}

static void sig_por_set(u64 por)
{
	write_sysreg_s(por, SYS_POR_EL0);
}

/* Every handler starts with only pkey 0 open, as at exec. */
static void sig_por_handler_start(void)
{
	sig_por_set(POR_EL0_INIT);
}
#else
#define sig_has_poe()		false
static inline u64 sig_por_open_all(void) { return 0; }
static inline void sig_por_set(u64 por) { }
static inline void sig_por_handler_start(void) { }
#endif

/* Optional records, in the order they are laid out. */
enum sigframe_rec {
	SIGREC_FPSIMD,
	SIGREC_ESR,
	SIGREC_SVE,
#ifdef FPMR_MAGIC
	SIGREC_FPMR,
#endif
#ifdef POE_MAGIC
	SIGREC_POE,
#endif
	SIGREC_COUNT
};

struct sigframe_plan {
	/* Offsets from the frame base; 0 means absent from this frame. */
	unsigned long rec[SIGREC_COUNT];
	unsigned long extra;	/* extra_context, then a null record */
	unsigned long end;	/* the null record closing the list */
	unsigned long size;	/* whole rt_sigframe + extra space */
	unsigned int sve_vq;	/* SVE record's register data, 0: none */

	struct rt_sigframe __user *frame;	/* base of the frame */
	struct sig_frame_record __user *record;
};

/*
 * Sizes of the records a frame for the current task needs, or, for
 * @worst_case, the most any task on this system can need.  The SVE
 * record is always there on an SVE system; it carries Z, P and FFR at
 * the task's vector length when what fpsimd_signal_preserve_current_state()
 * saved was the SVE registers (fp_type), as upstream decides it since
 * TIF_SVE may outlive a syscall that discarded them.
 */
static void sigframe_wanted(size_t want[SIGREC_COUNT], unsigned int *sve_vq,
			    bool worst_case)
{
	*sve_vq = 0;
	want[SIGREC_FPSIMD] = system_supports_fpsimd() ?
			      sizeof(struct fpsimd_context) : 0;
	want[SIGREC_ESR] = (worst_case || current->thread.fault_code) ?
			   sizeof(struct esr_context) : 0;
	want[SIGREC_SVE] = 0;
#ifdef FPMR_MAGIC
	want[SIGREC_FPMR] = sig_has_fpmr() ? sizeof(struct sig_reg_record) : 0;
#endif
#ifdef POE_MAGIC
	want[SIGREC_POE] = sig_has_poe() ? sizeof(struct sig_reg_record) : 0;
#endif

	if (system_supports_sve()) {
		if (worst_case)
			*sve_vq = sve_vq_from_vl(sve_max_vl());
		else if (current->thread.fp_type == FP_STATE_SVE)
			*sve_vq = sve_vq_from_vl(task_get_sve_vl(current));
		want[SIGREC_SVE] = SVE_SIG_CONTEXT_SIZE(*sve_vq);
	}
}

/*
 * Layout pass.  Records go into __reserved[] one after another.  Room
 * for an extra_context and a null record is always kept back there: the
 * first record that would eat into it is preceded by that pair instead,
 * and it and everything after it go into the extra space, which starts
 * right behind the pair and may run past the end of __reserved[].
 */
static int sigframe_plan_records(struct sigframe_plan *plan,
				 const size_t want[SIGREC_COUNT],
				 unsigned int sve_vq)
{
	const unsigned long inline_end = RESV_END - EXTRA_REC_SIZE -
					 NULL_REC_SIZE;
	unsigned long at = RESV_START;
	int i;

	memset(plan, 0, sizeof(*plan));
	plan->sve_vq = sve_vq;

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

/* The large blocks: registers, siginfo, V0-V31, SVE register data. */
static int sigframe_write_blocks(struct pt_regs *regs,
				 const struct sigframe_plan *plan,
				 const kernel_siginfo_t *info)
{
	struct rt_sigframe __user *sf = plan->frame;
	const struct thread_struct *t = &current->thread;
	unsigned long off;

	if (__copy_to_user(sf->uc.uc_mcontext.regs, &regs->user_regs,
			   sizeof(regs->user_regs)))
		return -EFAULT;

	if (info && __copy_to_user(&sf->info, info, sizeof(*info)))
		return -EFAULT;

	off = plan->rec[SIGREC_FPSIMD];
	if (off) {
		struct fpsimd_context __user *ctx = sigframe_at(plan, off);

		if (__copy_to_user(ctx->vregs, t->uw.fpsimd_state.vregs,
				   sizeof(ctx->vregs)))
			return -EFAULT;
	}

	/* fpsimd_signal_preserve_current_state() saved it there. */
	off = plan->rec[SIGREC_SVE];
	if (off && plan->sve_vq) {
		char __user *data = sigframe_at(plan, off);

		if (__copy_to_user(data + SVE_SIG_REGS_OFFSET, t->sve_state,
				   SVE_SIG_REGS_SIZE(plan->sve_vq)))
			return -EFAULT;
	}

	return 0;
}

/*
 * A one-register record (FPMR, POE) at @off, if the plan made room.
 * This and the two helpers below have no caller on a tree without
 * either record (6.1).
 */
static __always_inline __maybe_unused void
frame_put_reg_record(const struct sigframe_plan *plan, unsigned long off,
		     u32 magic, u64 value, int *err)
{
	struct sig_reg_record rec = {
		.head.magic = magic,
		.head.size = sizeof(rec),
		.value = value,
	};

	if (off)
		frame_put_words(sigframe_at(plan, off), &rec, sizeof(rec), err);
}

/* Every other field and record header, in one window. */
static __always_inline int
sigframe_write_fields(struct pt_regs *regs, const struct sigframe_plan *plan,
		      const kernel_siginfo_t *info, const sigset_t *set, u64 por)
{
	struct rt_sigframe __user *sf = plan->frame;
	struct task_struct *tsk = current;
	u64 __user *tail;
	unsigned long off;
	int err = 0;
	int i;

	frame_uaccess_begin();

	frame_put(regs->regs[29], &plan->record->fp, err);
	frame_put(regs->regs[30], &plan->record->lr, err);

	frame_put(0UL, &sf->uc.uc_flags, err);
	frame_put(NULL, &sf->uc.uc_link, err);
	frame_put((void __user *)tsk->sas_ss_sp, &sf->uc.uc_stack.ss_sp, err);
	frame_put(tsk->sas_ss_flags, &sf->uc.uc_stack.ss_flags, err);
	frame_put(tsk->sas_ss_size, &sf->uc.uc_stack.ss_size, err);
	frame_put(set->sig[0], &sf->uc.uc_sigmask.sig[0], err);
	frame_put(tsk->thread.fault_address,
		  &sf->uc.uc_mcontext.fault_address, err);

	/* siginfo_t beyond what the kernel keeps reads as zero */
	if (info) {
		tail = (u64 __user *)((char __user *)&sf->info +
				      sizeof(*info));
		for (i = 0; i < SIGINFO_TAIL / 8; i++)
			frame_put(0UL, tail + i, err);
	}

	off = plan->rec[SIGREC_FPSIMD];
	if (off) {
		const struct user_fpsimd_state *st = &tsk->thread.uw.fpsimd_state;
		struct fpsimd_record_head hdr __aligned(8) = {
			.head.magic = FPSIMD_MAGIC,
			.head.size = sizeof(struct fpsimd_context),
			.fpsr = st->fpsr,
			.fpcr = st->fpcr,
		};

		frame_put_words(sigframe_at(plan, off), &hdr, sizeof(hdr),
				&err);
	}

	off = plan->rec[SIGREC_ESR];
	if (off) {
		struct esr_context esr = {
			.head.magic = ESR_MAGIC,
			.head.size = sizeof(esr),
			.esr = tsk->thread.fault_code,
		};

		frame_put_words(sigframe_at(plan, off), &esr, sizeof(esr),
				&err);
	}

	off = plan->rec[SIGREC_SVE];
	if (off) {
		struct sve_context sve __aligned(8) = {
			.head.magic = SVE_MAGIC,
			.head.size = round_up(SVE_SIG_CONTEXT_SIZE(plan->sve_vq),
					      16),
			.vl = task_get_sve_vl(tsk),
		};

		frame_put_words(sigframe_at(plan, off), &sve, sizeof(sve),
				&err);
	}

#ifdef FPMR_MAGIC
	frame_put_reg_record(plan, plan->rec[SIGREC_FPMR], FPMR_MAGIC,
			     sig_fpmr_saved(), &err);
#endif
#ifdef POE_MAGIC
	frame_put_reg_record(plan, plan->rec[SIGREC_POE], POE_MAGIC, por, &err);
#endif

	if (plan->extra) {
		unsigned long data = plan->extra + EXTRA_REC_SIZE +
				     NULL_REC_SIZE;
		struct extra_context extra = {
			.head.magic = EXTRA_MAGIC,
			.head.size = EXTRA_REC_SIZE,
			.datap = (__force u64)sigframe_at(plan, data),
			.size = plan->size - data,
		};

		static_assert(sizeof(extra) == EXTRA_REC_SIZE);
		frame_put_words(sigframe_at(plan, plan->extra), &extra,
				sizeof(extra), &err);
		/* the null record that closes __reserved[] */
		frame_put(0ULL, (u64 __user *)sigframe_at(plan, plan->extra +
							  EXTRA_REC_SIZE), err);
	}

	frame_put(0ULL, (u64 __user *)sigframe_at(plan, plan->end), err);

	frame_uaccess_end();
	return err;
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

static __always_inline int deliver_native(struct pt_regs *regs,
					  struct ksignal *ksig, sigset_t *set)
{
	const kernel_siginfo_t *info = NULL;
	size_t want[SIGREC_COUNT];
	struct sigframe_plan plan;
	unsigned int sve_vq;
	u64 por = 0;
	int err;

	if (ksig->ka.sa.sa_flags & SA_SIGINFO)
		info = &ksig->info;

	/*
	 * Bring thread.uw.fpsimd_state (and sve_state, while SVE is live)
	 * up to date before they are copied out.
	 */
	fpsimd_signal_preserve_current_state();

	sigframe_wanted(want, &sve_vq, false);
	err = sigframe_plan_records(&plan, want, sve_vq);
	if (!err)
		err = sigframe_place(&plan, ksig, regs->sp);
	if (err)
		return err;

	if (sig_has_poe())
		por = sig_por_open_all();
	err = sigframe_write_blocks(regs, &plan, info);
	if (!err)
		err = sigframe_write_fields(regs, &plan, info, set, por);
	if (err) {
		if (sig_has_poe())
			sig_por_set(por);
		return err;
	}

	if (sig_has_poe())
		sig_por_handler_start();
	enter_handler(regs, &plan, &ksig->ka, ksig->sig);
	if (info) {
		regs->regs[1] = (unsigned long)&plan.frame->info;
		regs->regs[2] = (unsigned long)&plan.frame->uc;
	}
	return 0;
}

/* What rt_sigreturn reads from a frame before it applies any of it. */
struct sigreturn_state {
	struct user_pt_regs gprs;
	sigset_t mask;
	struct user_fpsimd_state fp;
	bool has_mask;			/* the mask could be read */
	bool has_fp;
	bool has_sve;			/* an SVE record was present */
#ifdef FPMR_MAGIC
	bool has_fpmr;
	u64 fpmr;
#endif
#ifdef POE_MAGIC
	bool has_por;
	u64 por;
#endif
	unsigned int sve_vq;		/* its register data, 0: none */
	const void __user *sve_data;
	void *sve_staged;		/* a copy of it, see sve_data_fetch() */
};

/* Where the records of interest sit, as the scan found them. */
struct sigframe_found {
	char __user *fpsimd;
	char __user *sve;
#ifdef FPMR_MAGIC
	char __user *fpmr;
#endif
#ifdef POE_MAGIC
	char __user *poe;
#endif
	u32 fpsimd_size;
	u32 sve_size;
};

/*
 * The caller's extra_context at @rec (@size bytes, with @room bytes left
 * in __reserved[]) says where the record list goes on.  The extra space
 * must start right after the null record that follows the extra_context
 * and stay within SIGFRAME_CAP of the frame.  Called inside a window.
 */
static int extra_space_find(struct rt_sigframe __user *sf,
			    char __user *rec, u32 size, unsigned long room,
			    char __user **from, char __user **to)
{
	char __user *after = rec + size;
	struct extra_context ctx;
	u64 closing;
	char __user *data;
	int fault = 0;

	if (size < sizeof(ctx) || room - size < NULL_REC_SIZE)
		return -EINVAL;
	frame_get_words(&ctx, rec, sizeof(ctx), &fault);
	frame_get(closing, (u64 __user *)after, fault);
	if (fault)
		return fault;
	if (closing)
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
 * A one-register record (FPMR, POE) is taken once, at its exact size,
 * and only from a task on a CPU that has the register.
 */
static __always_inline __maybe_unused bool
found_reg_record(char __user **slot, char __user *at, u32 size, bool cpu_has)
{
	if (!cpu_has || *slot || size != sizeof(struct sig_reg_record))
		return false;
	*slot = at;
	return true;
}

/*
 * Walk the records a handler hands back.  Every record must be 16-byte
 * aligned, no smaller than its header and wholly inside its area; the
 * list must end with a null record; FPSIMD, SVE and extra_context may
 * each appear once and unknown records are refused.  Called inside a
 * window.
 */
static int sigframe_scan(struct rt_sigframe __user *sf,
			 struct sigframe_found *found)
{
	char __user *at = (char __user *)sf->uc.uc_mcontext.__reserved;
	char __user *stop = at + sizeof(sf->uc.uc_mcontext.__reserved);
	bool extra_seen = false;
	int fault = 0;
	int err;

	memset(found, 0, sizeof(*found));

	for (;;) {
		unsigned long room = stop - at;
		struct _aarch64_ctx head __aligned(8);

		if (room < sizeof(head))
			return -EINVAL;
		frame_get_words(&head, at, sizeof(head), &fault);
		if (fault)
			return fault;

		if (!head.magic)
			return head.size ? -EINVAL : 0;

		if (head.size < sizeof(head) || head.size > room ||
		    !IS_ALIGNED(head.size, 16))
			return -EINVAL;

		switch (head.magic) {
		case FPSIMD_MAGIC:
			if (!system_supports_fpsimd() || found->fpsimd ||
			    head.size < sizeof(struct fpsimd_context))
				return -EINVAL;
			found->fpsimd = at;
			found->fpsimd_size = head.size;
			break;

		case SVE_MAGIC:
			if (!system_supports_sve() || found->sve ||
			    head.size < sizeof(struct sve_context))
				return -EINVAL;
			found->sve = at;
			found->sve_size = head.size;
			break;

		case ESR_MAGIC:
			/* Information for the handler; nothing to restore. */
			break;

#ifdef FPMR_MAGIC
		case FPMR_MAGIC:
			if (!found_reg_record(&found->fpmr, at, head.size,
					      sig_has_fpmr()))
				return -EINVAL;
			break;
#endif

#ifdef POE_MAGIC
		case POE_MAGIC:
			if (!found_reg_record(&found->poe, at, head.size,
					      sig_has_poe()))
				return -EINVAL;
			break;
#endif

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

/*
 * The FP side of the frame.  Headers are read again after the scan
 * (another thread may have rewritten them since) and must still say
 * what the scan saw.  A frame without an SVE record must have an
 * FPSIMD record of exactly its size, as stock 6.1 requires.
 */
static int sigframe_read_fp(const struct sigframe_found *found,
			    struct sigreturn_state *st)
{
	struct fpsimd_record_head hdr __aligned(8);
	struct sve_context sve __aligned(8);
	unsigned int vq;
	int fault = 0;

	frame_get_words(&hdr, found->fpsimd, sizeof(hdr), &fault);
	if (fault)
		return fault;
	if (hdr.head.magic != FPSIMD_MAGIC ||
	    hdr.head.size != found->fpsimd_size)
		return -EINVAL;
	if ((!found->sve || AA64_FPSIMD_SIZE_ALWAYS_EXACT) &&
	    hdr.head.size != sizeof(struct fpsimd_context))
		return -EINVAL;
	st->fp.fpsr = hdr.fpsr;
	st->fp.fpcr = hdr.fpcr;
	/* ptrace shows these: no stack bytes in them */
	memset(st->fp.__reserved, 0, sizeof(st->fp.__reserved));
	st->has_fp = true;

	if (!found->sve)
		return 0;

	frame_get_words(&sve, found->sve, sizeof(sve), &fault);
	if (fault)
		return fault;
	if (sve.head.magic != SVE_MAGIC || sve.head.size != found->sve_size)
		return -EINVAL;
	/* Streaming mode needs SME: off in 6.1.y, see the static_assert. */
	if (sve.flags & SVE_SIG_FLAG_SM)
		return -EINVAL;
	/* The vector length cannot change across a handler. */
	if (sve.vl != task_get_sve_vl(current))
		return -EINVAL;

	st->has_sve = true;
	if (sve.head.size == sizeof(sve))
		return 0;		/* FPSIMD view only */

	vq = sve_vq_from_vl(sve.vl);
	if (sve.head.size < SVE_SIG_CONTEXT_SIZE(vq))
		return -EINVAL;
	st->sve_vq = vq;
	st->sve_data = found->sve + SVE_SIG_REGS_OFFSET;
	return 0;
}

/* The value of a one-register record the scan found, if there is one. */
static __always_inline __maybe_unused bool
frame_get_reg_record(char __user *rec, u64 *val, int *err)
{
	if (!rec || *err)
		return false;
	frame_get(*val, &((struct sig_reg_record __user *)rec)->value, *err);
	return !*err;
}

/*
 * Read and check everything in the frame; change nothing.  The mask is
 * read first, as stock reads it, so that a refusal can still apply it.
 */
static int sigframe_read(struct rt_sigframe __user *sf,
			 struct sigreturn_state *st)
{
	struct sigframe_found found;
	int err = 0;

	st->has_mask = false;
	st->has_fp = false;
	st->has_sve = false;
	st->sve_vq = 0;
	st->sve_data = NULL;
	st->sve_staged = NULL;

	frame_uaccess_begin();
	frame_get(st->mask.sig[0], &sf->uc.uc_sigmask.sig[0], err);
	st->has_mask = !err;
	if (!err)
		err = sigframe_scan(sf, &found);
	if (!err && system_supports_fpsimd()) {
		if (!found.fpsimd)
			err = -EINVAL;
		else
			err = sigframe_read_fp(&found, st);
	}
#ifdef FPMR_MAGIC
	st->has_fpmr = frame_get_reg_record(found.fpmr, &st->fpmr, &err);
#endif
#ifdef POE_MAGIC
	st->has_por = frame_get_reg_record(found.poe, &st->por, &err);
#endif
	frame_uaccess_end();
	if (err)
		return err;

	if (__copy_from_user(&st->gprs, sf->uc.uc_mcontext.regs,
			     sizeof(st->gprs)))
		return -EFAULT;

	/*
	 * valid_user_regs() refuses EL1-3, AArch32 and masked DAIF, and
	 * clears RES0 bits (IL among them), as for stock 6.1.
	 */
	if (!valid_user_regs(&st->gprs, current))
		return -EINVAL;

	if (st->has_fp &&
	    __copy_from_user(st->fp.vregs,
			     ((struct fpsimd_context __user *)found.fpsimd)->vregs,
			     sizeof(st->fp.vregs)))
		return -EFAULT;
	return 0;
}

/*
 * Fetch the frame's Z, P and FFR; they become the task's only in
 * sigframe_commit_fp(), once nothing can refuse the frame any more.
 *
 * Inside this syscall thread.sve_state normally holds nothing of the
 * task's: no context switch saves into it and nothing loads from it
 * until the commit says so (6.1's syscall entry clears TIF_SVE; 6.12's
 * makes every save during the call store the FPSIMD view only, see
 * aa64_sve_state_is_live()).  The data then goes straight there, and a
 * refused frame leaves only dead bytes behind.  A tracer that wrote the
 * SVE registers at the syscall-entry stop made sve_state the task's live
 * state: then the data waits in a buffer of its own.
 */
static int sve_data_fetch(struct sigreturn_state *st)
{
	size_t len = SVE_SIG_REGS_SIZE(st->sve_vq);
	void *buf;

	sve_alloc(current, false);
	if (!current->thread.sve_state)
		return -ENOMEM;
	if (WARN_ON_ONCE(sve_state_size(current) < len))
		return -EINVAL;

	if (likely(!aa64_sve_state_is_live(current)))
		return __copy_from_user(current->thread.sve_state,
					st->sve_data, len) ? -EFAULT : 0;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (__copy_from_user(buf, st->sve_data, len)) {
		kfree(buf);
		return -EFAULT;
	}
	st->sve_staged = buf;
	return 0;
}

/* Commit the FP state: the FPSIMD record's V registers win over Z. */
static void sigframe_commit_fp(struct sigreturn_state *st)
{
	if (st->sve_vq) {
		/* No context switch may save over sve_state from here. */
		fpsimd_flush_task_state(current);
		if (st->sve_staged) {
			memcpy(current->thread.sve_state, st->sve_staged,
			       SVE_SIG_REGS_SIZE(st->sve_vq));
			kfree(st->sve_staged);
			st->sve_staged = NULL;
		}
		set_thread_flag(TIF_SVE);
		current->thread.fp_type = FP_STATE_SVE;
	} else {
		clear_thread_flag(TIF_SVE);
		current->thread.fp_type = FP_STATE_FPSIMD;
	}
#ifdef FPMR_MAGIC
	/* Loaded into the register with the rest of the FP state. */
	if (st->has_fpmr)
		sig_fpmr_stage(st->fpmr);
#endif
	fpsimd_update_current_state(&st->fp);
}

SYSCALL_DEFINE0(rt_sigreturn)
{
	struct pt_regs *regs = current_pt_regs();
	struct rt_sigframe __user *sf = (struct rt_sigframe __user *)regs->sp;
	unsigned long call_sp = regs->sp;
	struct sigreturn_state st;

	/* A restart still pending belonged to a call the handler broke. */
	current->restart_block.fn = do_no_restart_syscall;

	/* rt_sigreturn itself must never be restarted. */
	forget_syscall(regs);

	/* Frames are built 16-byte aligned: anything else is forged. */
	if (!IS_ALIGNED(call_sp, 16) || !access_ok(sf, sizeof(*sf)))
		goto refuse;

	if (sigframe_read(sf, &st) || (st.sve_vq && sve_data_fetch(&st)))
		goto refuse_read;

	/*
	 * The alternate stack settings, judged against the sp being
	 * returned to as for stock 6.1.  Only a fault fails here, and then
	 * nothing has changed.
	 */
	regs->sp = st.gprs.sp;
	if (restore_altstack(&sf->uc.uc_stack)) {
		regs->sp = call_sp;
		goto refuse_read;
	}

	set_current_blocked(&st.mask);
	regs->user_regs = st.gprs;
	if (st.has_fp)
		sigframe_commit_fp(&st);
#ifdef POE_MAGIC
	if (st.has_por)
		sig_por_set(st.por);
#endif
	return regs->regs[0];

refuse_read:
	kfree(st.sve_staged);
	if (st.has_mask)
		set_current_blocked(&st.mask);
refuse:
	/* x0 too stays as it was: the syscall "returns" it unchanged. */
	arm64_notify_segfault(call_sp);
	return regs->regs[0];
}

static __always_inline void run_handler(struct ksignal *ksig, struct pt_regs *regs)
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

/*
 * Pending signals at the return to EL0, IRQs enabled: 6.12's
 * entry-common.c calls this, on 6.1 user_return_work() below does,
 * with this inlined (as is everything down to the frame writes: out
 * of line, each call costs a delivery more than a few frame fields).
 */
#if AA64_SIGNAL_OWNS_NOTIFY_RESUME
static __always_inline void do_signal(struct pt_regs *regs);
#endif

void do_signal(struct pt_regs *regs)
{
	bool from_syscall = in_syscall(regs);
	unsigned long resume_pc = regs->pc;
	unsigned long retry_pc = 0;
	struct ksignal ksig;
	long ret = 0;

	if (from_syscall) {
		/* All 64 bits of a native result; 32 for an AArch32 task. */
		ret = syscall_get_return_value(current, regs);
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

#if AA64_SIGNAL_OWNS_NOTIFY_RESUME
/* One round of the work due before returning to EL0, IRQs enabled. */
static __always_inline void user_return_work(struct pt_regs *regs, unsigned long flags)
{
	if (flags & _TIF_UPROBE)
		uprobe_notify_resume(regs);

	if (flags & _TIF_MTE_ASYNC_FAULT) {
		clear_thread_flag(TIF_MTE_ASYNC_FAULT);
		send_sig_fault(SIGSEGV, SEGV_MTEAERR, (void __user *)NULL,
			       current);
	}

	if (flags & (_TIF_SIGPENDING | _TIF_NOTIFY_SIGNAL))
		do_signal(regs);

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
#endif

unsigned long __ro_after_init signal_minsigstksz;

/*
 * AT_MINSIGSTKSZ: the largest frame any task can get (SVE at the largest
 * vector length the system supports), plus its frame record and 16
 * bytes of slack for aligning the top of the stack.  Runs once the CPU
 * features are final.
 */
void __init minsigstksz_setup(void)
{
	size_t want[SIGREC_COUNT];
	struct sigframe_plan plan;
	unsigned int sve_vq;

	sigframe_wanted(want, &sve_vq, true);
	if (WARN_ON(sigframe_plan_records(&plan, want, sve_vq)))
		return;

	signal_minsigstksz = plan.size + sizeof(struct sig_frame_record) + 16;
}

/*
 * The siginfo_t layout the AArch64 ABI fixed.  A new field or si_code
 * range shows up here first: check it against the ABI before changing
 * anything below.
 */
#define siginfo_field_at(field, off) \
	static_assert(offsetof(siginfo_t, field) == (off))

static_assert(sizeof(siginfo_t) == 128 && __alignof__(siginfo_t) == 8);
static_assert(NSIGILL == 11 && NSIGFPE == 15);
#ifdef SEGV_CPERR
/* 6.6 added the shadow stack's code after the MTE ones. */
static_assert(SEGV_MTESERR == 9 && SEGV_CPERR == 10 && NSIGSEGV == 10);
#else
static_assert(SEGV_MTESERR == 9 && NSIGSEGV == 9);
#endif
static_assert(NSIGBUS == 5 && NSIGTRAP == 6 && NSIGCHLD == 6);
static_assert(NSIGSYS == 2);

siginfo_field_at(si_signo, 0x00);
siginfo_field_at(si_errno, 0x04);
siginfo_field_at(si_code, 0x08);
/* kill, rt_sigqueueinfo */
siginfo_field_at(si_pid, 0x10);
siginfo_field_at(si_uid, 0x14);
/* POSIX timers */
siginfo_field_at(si_tid, 0x10);
siginfo_field_at(si_overrun, 0x14);
siginfo_field_at(si_value, 0x18);
siginfo_field_at(si_int, 0x18);
siginfo_field_at(si_ptr, 0x18);
/* SIGCHLD */
siginfo_field_at(si_status, 0x18);
siginfo_field_at(si_utime, 0x20);
siginfo_field_at(si_stime, 0x28);
/* faults */
siginfo_field_at(si_addr, 0x10);
siginfo_field_at(si_addr_lsb, 0x18);
siginfo_field_at(si_lower, 0x20);
siginfo_field_at(si_upper, 0x28);
siginfo_field_at(si_pkey, 0x20);
siginfo_field_at(si_perf_data, 0x18);
siginfo_field_at(si_perf_type, 0x20);
siginfo_field_at(si_perf_flags, 0x24);
/* SIGPOLL */
siginfo_field_at(si_band, 0x10);
siginfo_field_at(si_fd, 0x18);
/* SIGSYS */
siginfo_field_at(si_call_addr, 0x10);
siginfo_field_at(si_syscall, 0x18);
siginfo_field_at(si_arch, 0x1c);
