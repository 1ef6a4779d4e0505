// SPDX-License-Identifier: GPL-2.0-only
/*
 * Forged signal frames: a handler edits the frame it was given, or a
 * child calls sigreturn on a stack that holds no frame.  A frame that
 * would leave user mode, switch to AArch64, carry an If-Then state into
 * ARM state, hold a bad VFP record or sit misaligned must end in
 * SIGSEGV; a harmless edit must be taken.  Each case runs in a forked
 * child so that the parent only reads its fate.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "ktap.h"

#define CPSR_MODE_MASK	0x1f
#define CPSR_MODE_SYS	0x1f
#define CPSR_T		(1u << 5)
#define CPSR_Q		(1u << 27)
#define CPSR_IT_1_0	(3u << 25)	/* IT[1:0]: a live If-Then block */
#define VFP_MAGIC	0x56465001

enum forgery { FORGE_NONE, FORGE_Q, FORGE_SYS_MODE, FORGE_AARCH64,
	       FORGE_IT_IN_ARM, FORGE_VFP_MAGIC };

static volatile enum forgery forgery;

/*
 * Send a signal from ARM-state code, so that the frame's CPSR has T
 * clear whichever instruction set the rest of the test was built for.
 */
void arm_state_kill(int pid, int sig);
asm(".pushsection .text\n"
    ".balign 4\n"
    ".arm\n"
    ".type arm_state_kill, %function\n"
    "arm_state_kill:\n"
    "	push	{r7, lr}\n"
    "	mov	r7, #37\n"		/* kill */
    "	svc	#0\n"
    "	pop	{r7, lr}\n"
    "	bx	lr\n"
#ifdef __thumb__
    ".thumb\n"
#endif
    ".popsection\n");

static void forge(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint32_t *cpsr = (uint32_t *)&uc->uc_mcontext.arm_cpsr;

	switch (forgery) {
	case FORGE_NONE:
		break;
	case FORGE_Q:
		*cpsr |= CPSR_Q;
		break;
	case FORGE_SYS_MODE:
		*cpsr |= CPSR_MODE_SYS;
		break;
	case FORGE_AARCH64:
		*cpsr &= ~CPSR_MODE_MASK;
		break;
	case FORGE_IT_IN_ARM:
		*cpsr = (*cpsr & ~CPSR_T) | CPSR_IT_1_0;
		break;
	case FORGE_VFP_MAGIC:
		uc->uc_regspace[0] = VFP_MAGIC + 1;
		break;
	}
}

/* Run @fn in a child; its wait status. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void forged_return(void)
{
	struct sigaction sa = { .sa_sigaction = forge, .sa_flags = SA_SIGINFO };

	sigaction(SIGUSR1, &sa, NULL);
	arm_state_kill(getpid(), SIGUSR1);
}

/* sigreturn with sp 4 bytes off the 8-byte alignment frames have. */
static void misaligned_sigreturn(void)
{
	asm volatile("mov	r0, sp\n\t"
		     "bic	r0, r0, #7\n\t"
		     "sub	r0, r0, #1024 + 4\n\t"
		     "mov	sp, r0\n\t"
		     "mov	r7, %0\n\t"
		     "svc	#0\n\t"
		     : : "i"(SYS_rt_sigreturn) : "r0", "r7", "memory");
}

static void check(const char *name, enum forgery f, int want_segv)
{
	int status;

	forgery = f;
	status = in_child(forged_return);
	if (want_segv)
		ktap_result(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
			    name, "wait status %#x, wanted SIGSEGV", status);
	else
		ktap_result(WIFEXITED(status) && WEXITSTATUS(status) == 0, name,
			    "wait status %#x, wanted a clean exit", status);
}

int main(void)
{
	int status;

	ktap_plan(7);
	check("untouched_frame", FORGE_NONE, 0);
	check("harmless_edit_q_flag", FORGE_Q, 0);
	check("bad_mode_sys", FORGE_SYS_MODE, 1);
	check("switch_to_aarch64", FORGE_AARCH64, 1);
	check("it_state_in_arm", FORGE_IT_IN_ARM, 1);
	check("bad_vfp_magic", FORGE_VFP_MAGIC, 1);

	status = in_child(misaligned_sigreturn);
	ktap_result(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		    "misaligned_frame", "wait status %#x, wanted SIGSEGV", status);
	return ktap_finish();
}
