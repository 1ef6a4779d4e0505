// SPDX-License-Identifier: GPL-2.0-only
/*
 * Forged signal frames, handed to sigreturn and to rt_sigreturn alike.
 * A real frame is captured once as a template; each case edits a copy,
 * lays it out as a non-RT or an RT frame and calls the return syscall on
 * it from a child, whose fate the parent reads:
 *  - a frame the task could have made itself is taken: the child lands
 *    where the frame says, in the state it says (ARM or Thumb, an If-Then
 *    block in progress, big-endian data where the CPU has it);
 *  - a frame that would leave user mode or AArch32, mask A, I or F, or
 *    hold a bad VFP record, or a misaligned one, ends in SIGSEGV;
 *  - a refused frame leaves the registers alone: the SIGSEGV handler
 *    sees the registers (r0 included) and VFP registers of the sigreturn
 *    call; the frame's signal mask is applied, as stock, a 32-bit ARM
 *    kernel and x86 do, so a SIGSEGV handler that returns a bad frame
 *    runs again rather than the task being killed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "ktap.h"

#define CPSR_USR	0x10
#define CPSR_SYS	0x1f
#define CPSR_MODE	0x1f
#define CPSR_T		(1u << 5)
#define CPSR_F		(1u << 6)
#define CPSR_I		(1u << 7)
#define CPSR_A		(1u << 8)
#define CPSR_E		(1u << 9)
#define CPSR_Q		(1u << 27)
#define CPSR_Z		(1u << 30)
/* ITSTATE: IT[1:0] in bits 26:25, IT[7:2] in bits 15:10. */
#define CPSR_IT(it)	((((it) & 3u) << 25) | (((it) >> 2) << 10))
#define IT_ITE_EQ	0x0c	/* the state "ite eq" leaves for its block */

#define VFP_MAGIC	0x56465001
#define RT_INFO_SIZE	128	/* the compat_siginfo before an RT ucontext */
#define LANDED		42	/* exit status of a child that landed */

/* Landing places, entered only through a forged frame. */
void land_arm(void);		/* exit(r0) */
void land_thumb(void);		/* exit(r0), Thumb state */
void it_block(void);		/* "ite eq" ... */
void it_first(void);		/* exit(1) inside, exit(2) outside the block */
void e_probe(void);		/* exit(1) little-, exit(2) big-endian data */
void after_svc(void);		/* just past the svc of forged_sigreturn() */

/*
 * forged_sigreturn(frame, nr, regs): load r4-r6, r8-r11 from regs[0..6]
 * and d8 from regs[7..8], move sp to frame and call syscall nr.  Nothing
 * comes back: the child lands somewhere else, or takes SIGSEGV.
 */
void forged_sigreturn(void *frame, int nr, const uint32_t *regs);

asm(".pushsection .text\n"
    ".syntax unified\n"			/* the IT block below needs it */
    ".balign 4\n"
    ".arm\n"
    ".type land_arm, %function\n"
    "land_arm:\n"
    "	mov	r7, #1\n"
    "	svc	#0\n"
    ".type e_probe, %function\n"
    "e_probe:\n"			/* no literal loads: data may be BE */
    "	movw	r1, #:lower16:probe_word\n"
    "	movt	r1, #:upper16:probe_word\n"
    "	ldr	r2, [r1]\n"
    "	movw	r3, #0x3344\n"
    "	movt	r3, #0x1122\n"
    "	cmp	r2, r3\n"
    "	moveq	r0, #1\n"
    "	movne	r0, #2\n"
    "	mov	r7, #1\n"
    "	svc	#0\n"
    ".type forged_sigreturn, %function\n"
    "forged_sigreturn:\n"
    "	mov	r12, r0\n"
    "	mov	r7, r1\n"
    "	vldr	d8, [r2, #28]\n"
    "	ldm	r2, {r4, r5, r6, r8, r9, r10, r11}\n"
    "	mov	sp, r12\n"
    "	svc	#0\n"
    ".type after_svc, %function\n"
    "after_svc:\n"
    "	udf	#0\n"
    ".thumb\n"
    ".balign 4\n"
    ".type land_thumb, %function\n"
    ".thumb_func\n"
    "land_thumb:\n"
    "	movs	r7, #1\n"
    "	svc	#0\n"
    ".type it_block, %function\n"
    ".thumb_func\n"
    "it_block:\n"
    "	ite	eq\n"
    ".thumb_func\n"
    "it_first:\n"
    "	moveq	r0, #1\n"
    "	movne	r0, #2\n"
    "	movs	r7, #1\n"
    "	svc	#0\n"
#ifndef __thumb__
    ".arm\n"
    ".syntax divided\n"			/* what GCC's -marm output is in */
#endif
    ".popsection\n");

const uint32_t probe_word = 0x11223344;

static ucontext_t template;
static volatile int captured;
static uint64_t frame_area[160];	/* 8-byte aligned, room for an RT frame */
static uint32_t call_regs[9];		/* r4-r6, r8-r11, d8 at the call */

static void capture(int sig, siginfo_t *si, void *ctx)
{
	memcpy(&template, ctx, sizeof(template));
	captured = 1;
}

/* Where a frame built from @uc for @rt starts, in @area. */
static void *lay_out(void *area, const ucontext_t *uc, int rt)
{
	memcpy((char *)area + (rt ? RT_INFO_SIZE : 0), uc, sizeof(*uc));
	return area;
}

/* A template to land at @pc in @cpsr with r0 = @r0, on a usable stack. */
static ucontext_t landing(void (*pc)(void), uint32_t cpsr, uint32_t r0)
{
	static uint64_t stack[256];
	ucontext_t uc = template;

	uc.uc_mcontext.arm_pc = (uintptr_t)pc & ~1u;
	uc.uc_mcontext.arm_cpsr = CPSR_USR | cpsr;
	uc.uc_mcontext.arm_r0 = r0;
	uc.uc_mcontext.arm_sp = (uintptr_t)(stack + 256);
	return uc;
}

static int child_status(void (*fn)(const void *), const void *arg)
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		fn(arg);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	return status;
}

struct forgery {
	ucontext_t uc;
	int nr;
	int misalign;
};

static void run_forgery(const void *arg)
{
	const struct forgery *f = arg;
	char *frame = lay_out(frame_area, &f->uc, f->nr == SYS_rt_sigreturn);

	forged_sigreturn(frame + f->misalign, f->nr, call_regs);
}

static int forge(const ucontext_t *uc, int nr, int misalign)
{
	static struct forgery f;

	f.uc = *uc;
	f.nr = nr;
	f.misalign = misalign;
	return child_status(run_forgery, &f);
}

static const char *const flavours[] = { "sigreturn", "rt_sigreturn" };
static const int flavour_nr[] = { SYS_sigreturn, SYS_rt_sigreturn };

/* One result per flavour: the child exits with @want, or dies of SIGSEGV. */
static void expect(const char *name, const ucontext_t *uc, int misalign,
		   int want)
{
	char full[96];
	int i, status;

	for (i = 0; i < 2; i++) {
		snprintf(full, sizeof(full), "%s_%s", name, flavours[i]);
		status = forge(uc, flavour_nr[i], misalign);
		if (want < 0)
			ktap_result(WIFSIGNALED(status) &&
				    WTERMSIG(status) == SIGSEGV, full,
				    "wait status %#x, wanted SIGSEGV", status);
		else
			ktap_result(WIFEXITED(status) &&
				    WEXITSTATUS(status) == want, full,
				    "wait status %#x, wanted exit %d", status,
				    want);
	}
}

/* Whether SETEND BE works: the CPU has big-endian data at EL0. */
static void try_setend(const void *arg)
{
	asm volatile("setend	be\n\t"
		     "setend	le\n\t");
	_exit(0);
}

static int mixed_endian(void)
{
	int status = child_status(try_setend, NULL);

	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_accepted(void)
{
	ucontext_t uc;
	int be;

	uc = landing(land_arm, 0, LANDED);
	expect("untouched", &uc, 0, LANDED);

	uc = landing(land_arm, CPSR_Q, LANDED);
	expect("q_flag_set", &uc, 0, LANDED);

	uc = landing(land_thumb, CPSR_T, LANDED);
	expect("thumb_landing", &uc, 0, LANDED);

	/* Z set: "ite eq" runs the first instruction only, if kept. */
	uc = landing(it_first, CPSR_T | CPSR_Z | CPSR_IT(IT_ITE_EQ), 0);
	expect("thumb_it_state_kept", &uc, 0, 1);

	/*
	 * In ARM state the CPU itself clears an If-Then state on the return
	 * (RestoredITBits()): harmless, taken as a 32-bit kernel takes it.
	 */
	uc = landing(land_arm, CPSR_IT(IT_ITE_EQ), LANDED);
	expect("it_state_in_arm", &uc, 0, LANDED);

	/* E is kept where the CPU has big-endian EL0 data, else cleared. */
	be = mixed_endian();
	ktap_diag("big-endian data at EL0: %s", be ? "yes" : "no");
	uc = landing(e_probe, CPSR_E, 0);
	expect("e_bit", &uc, 0, be ? 2 : 1);
}

static void test_refused(void)
{
	ucontext_t uc;

	uc = landing(land_arm, 0, LANDED);
	uc.uc_mcontext.arm_cpsr = CPSR_SYS;
	expect("mode_sys", &uc, 0, -1);

	uc = landing(land_arm, 0, LANDED);
	uc.uc_mcontext.arm_cpsr &= ~CPSR_MODE;	/* AArch64 EL0t */
	expect("mode_aarch64", &uc, 0, -1);

	uc = landing(land_arm, CPSR_A, LANDED);
	expect("a_masked", &uc, 0, -1);
	uc = landing(land_arm, CPSR_I, LANDED);
	expect("i_masked", &uc, 0, -1);
	uc = landing(land_arm, CPSR_F, LANDED);
	expect("f_masked", &uc, 0, -1);

	uc = landing(land_arm, 0, LANDED);
	uc.uc_regspace[0] = VFP_MAGIC + 1;
	expect("vfp_bad_magic", &uc, 0, -1);

	uc = landing(land_arm, 0, LANDED);
	uc.uc_regspace[1] += 8;
	expect("vfp_bad_size", &uc, 0, -1);

	uc = landing(land_arm, 0, LANDED);
	expect("misaligned", &uc, 4, -1);
}

/*
 * A refused frame leaves the registers as they were at the call: the
 * SIGSEGV handler checks the registers the call was made with, r0 (the
 * frame's address: the call's, not 0 and not the frame's r0), d8 and the
 * mask (the frame's: applied even though the rest is refused), and exits
 * with a bit for each that is right.
 */
#define CTX_REGS	1
#define CTX_MASK	2
#define CTX_VFP		4
#define CTX_R0		8
#define CTX_ALL		15

static void *segv_frame_sp;

static void check_context(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
	const mcontext_t *mc = &uc->uc_mcontext;
	const uint32_t *vfp = (const uint32_t *)uc->uc_regspace;
	uint64_t d8;
	int ok = 0;

	memcpy(&d8, vfp + 2 + 2 * 8, sizeof(d8));
	if (mc->arm_r4 == call_regs[0] && mc->arm_r5 == call_regs[1] &&
	    mc->arm_r6 == call_regs[2] && mc->arm_r8 == call_regs[3] &&
	    mc->arm_r9 == call_regs[4] && mc->arm_r10 == call_regs[5] &&
	    mc->arm_fp == call_regs[6] &&
	    mc->arm_pc == (uintptr_t)after_svc &&
	    mc->arm_sp == (uintptr_t)segv_frame_sp && !(mc->arm_cpsr & CPSR_T))
		ok |= CTX_REGS;
	if (mc->arm_r0 == (uintptr_t)segv_frame_sp)
		ok |= CTX_R0;
	if (sigismember(&uc->uc_sigmask, SIGUSR1) &&
	    !sigismember(&uc->uc_sigmask, SIGUSR2))
		ok |= CTX_MASK;
	if (vfp[0] == VFP_MAGIC && !memcmp(&d8, &call_regs[7], sizeof(d8)))
		ok |= CTX_VFP;
	_exit(ok);
}

struct refusal {
	ucontext_t uc;
	int rt;
	int fault_uc_stack;
};

static void run_refusal(const void *arg)
{
	static char segv_stack[65536];
	const struct refusal *r = arg;
	stack_t ss = { .ss_sp = segv_stack, .ss_size = sizeof(segv_stack) };
	struct sigaction sa = {
		.sa_sigaction = check_context,
		.sa_flags = SA_SIGINFO | SA_ONSTACK,
	};
	sigset_t usr2;
	char *frame;

	sigaltstack(&ss, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_SETMASK, &usr2, NULL);

	if (r->fault_uc_stack) {
		/*
		 * Two pages, the first one unreadable, the frame across the
		 * boundary: uc_stack straddles it, what follows is readable.
		 */
		char *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (pages == MAP_FAILED)
			_exit(98);
		frame = lay_out(pages + 4096 - 144, &r->uc, 1);
		mprotect(pages, 4096, PROT_NONE);
	} else {
		frame = lay_out(frame_area, &r->uc, r->rt);
	}
	segv_frame_sp = frame;
	forged_sigreturn(frame, r->rt ? SYS_rt_sigreturn : SYS_sigreturn,
			 call_regs);
}

static void refusal(const char *name, const ucontext_t *uc, int rt,
		    int fault_uc_stack)
{
	static struct refusal r;
	int status;

	r.uc = *uc;
	r.rt = rt;
	r.fault_uc_stack = fault_uc_stack;
	status = child_status(run_refusal, &r);
	ktap_result(WIFEXITED(status) && WEXITSTATUS(status) == CTX_ALL, name,
		    "wait status %#x: registers %s, r0 %s, VFP %s, mask %s", status,
		    WIFEXITED(status) && (WEXITSTATUS(status) & CTX_REGS) ? "kept" : "changed",
		    WIFEXITED(status) && (WEXITSTATUS(status) & CTX_R0) ? "kept" : "changed",
		    WIFEXITED(status) && (WEXITSTATUS(status) & CTX_VFP) ? "kept" : "changed",
		    WIFEXITED(status) && (WEXITSTATUS(status) & CTX_MASK) ? "the frame's" : "not the frame's");
}

static void test_nothing_committed(void)
{
	const uint64_t frame_d8 = 0x5151515151515151ULL;
	uint32_t *vfp;
	ucontext_t uc;
	int i;

	for (i = 0; i < 7; i++)
		call_regs[i] = 0xc0de0000u + i;
	call_regs[7] = 0x89abcdef;
	call_regs[8] = 0x01234567;

	/* A frame with other registers, mask and d8, and a bad VFP magic. */
	uc = landing(land_arm, 0, LANDED);
	uc.uc_mcontext.arm_r4 = uc.uc_mcontext.arm_r5 = 0xbad;
	sigemptyset(&uc.uc_sigmask);
	sigaddset(&uc.uc_sigmask, SIGUSR1);
	vfp = (uint32_t *)uc.uc_regspace;
	memcpy(vfp + 2 + 2 * 8, &frame_d8, sizeof(frame_d8));

	/* The alternate stack cannot be read: refused last, after all else. */
	refusal("refused_altstack_keeps_registers_rt_sigreturn", &uc, 1, 1);

	vfp[0] = VFP_MAGIC + 1;
	refusal("refused_vfp_keeps_registers_sigreturn", &uc, 0, 0);
	refusal("refused_vfp_keeps_registers_rt_sigreturn", &uc, 1, 0);
}

/*
 * A SIGSEGV handler that hands back a frame sigreturn refuses: the
 * frame's mask (SIGSEGV not blocked) is applied, so the SIGSEGV that the
 * refusal raises runs the handler again, as on stock, a 32-bit ARM kernel
 * and x86, instead of killing the task.
 */
static volatile int segv_entries;

static void bad_return_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	if (segv_entries++)
		_exit(7);
	uc->uc_mcontext.arm_cpsr = CPSR_SYS;	/* refused: not user mode */
}

static void run_bad_return(const void *arg)
{
	struct sigaction sa = { .sa_sigaction = bad_return_segv,
				.sa_flags = SA_SIGINFO };

	sigaction(SIGSEGV, &sa, NULL);
	raise(SIGSEGV);
	_exit(8);
}

static void test_bad_return(void)
{
	int status = child_status(run_bad_return, NULL);

	ktap_result(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		    "segv_handler_bad_return_runs_again",
		    "wait status %#x (exit 7: the handler ran twice)", status);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = capture, .sa_flags = SA_SIGINFO };

	ktap_plan(2 * 14 + 3 + 1);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	if (!captured) {
		ktap_diag("no frame captured");
		return 1;
	}

	test_accepted();
	test_refused();
	test_nothing_committed();
	test_bad_return();
	return ktap_finish();
}
