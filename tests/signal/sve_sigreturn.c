// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_sigreturn of a frame that carries SVE registers, when a tracer wrote
 * the task's SVE registers (NT_ARM_SVE) at the call's entry stop: that
 * makes thread.sve_state the task's live state during the call, so
 * nothing of the frame may reach it before the frame is known good.
 *
 *  - frame_taken_over_tracer_sve: a good frame's Z, P and FFR win over
 *    what the tracer wrote (stock does the same);
 *  - refused_frame_keeps_tracer_sve: the frame is refused by the last
 *    thing rt_sigreturn reads, uc_stack (it straddles a PROT_NONE page);
 *    the SIGSEGV handler must see the tracer's registers, as every other
 *    register of the call, not the refused frame's (stock has loaded the
 *    frame by then: a departure, docs/departures.md);
 *  - refused_frame_keeps_call_fpsimd: the same refusal with no tracer:
 *    V0-V31 are those of the call, and the SVE record holds no more than
 *    them (the syscall discarded the rest).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <asm/ptrace.h>

#include "ktap.h"
#include "sve_regs.h"

#define VL		32		/* bytes: 256-bit vectors */
#define VQ		(VL / 16)
#define NR_rt_sigreturn	139
#define FRAME_SIZE	(sizeof(siginfo_t) + sizeof(ucontext_t))
/* uc_stack starts this far into the frame: it straddles a page there */
#define UC_STACK_AT	(sizeof(siginfo_t) + offsetof(ucontext_t, uc_stack))
#define STRADDLE	(UC_STACK_AT + 16)

/* What the child saw, in memory it shares with us. */
struct report {
	int segv, landed;
	unsigned int sve_size, sve_vl;
	unsigned char payload[SVE_SIG_REGS_SIZE(VQ)];
	unsigned char v[32][16];
	unsigned char regs[SVE_SIG_REGS_SIZE(VQ)];	/* at the landing */
};

static struct report *rep;
static unsigned char regs_a[SVE_SIG_REGS_SIZE(VQ)];	/* the tracer's */
static unsigned char regs_b[SVE_SIG_REGS_SIZE(VQ)];	/* the frame's */
static unsigned char v_call[32][16];			/* V at the call */

/*
 * sigreturn_with_v(frame, v): V0-V31 from v[], sp = frame, rt_sigreturn.
 * sve_landing: where a taken frame resumes, x0 = the report's regs[]:
 * store Z, P and FFR there and exit(42).
 */
void sigreturn_with_v(void *frame, const void *v);
void sve_landing(void);
asm(".text\n"
    ".globl sigreturn_with_v\n"
    ".type sigreturn_with_v, %function\n"
    "sigreturn_with_v:\n"
    "	ldp	q0, q1, [x1, #0]\n"
    "	ldp	q2, q3, [x1, #32]\n"
    "	ldp	q4, q5, [x1, #64]\n"
    "	ldp	q6, q7, [x1, #96]\n"
    "	ldp	q8, q9, [x1, #128]\n"
    "	ldp	q10, q11, [x1, #160]\n"
    "	ldp	q12, q13, [x1, #192]\n"
    "	ldp	q14, q15, [x1, #224]\n"
    "	ldp	q16, q17, [x1, #256]\n"
    "	ldp	q18, q19, [x1, #288]\n"
    "	ldp	q20, q21, [x1, #320]\n"
    "	ldp	q22, q23, [x1, #352]\n"
    "	ldp	q24, q25, [x1, #384]\n"
    "	ldp	q26, q27, [x1, #416]\n"
    "	ldp	q28, q29, [x1, #448]\n"
    "	ldp	q30, q31, [x1, #480]\n"
    "	mov	sp, x0\n"
    "	mov	x8, #139\n"
    "	svc	#0\n"
    "	b	.\n"
    ".size sigreturn_with_v, . - sigreturn_with_v\n"
    ".arch_extension sve\n"
    ".globl sve_landing\n"
    ".type sve_landing, %function\n"
    "sve_landing:\n"
    SVE_REGS_STORE_ASM
    "	mov	x0, #42\n"
    "	mov	x8, #94\n"			/* exit_group */
    "	svc	#0\n"
    ".size sve_landing, . - sve_landing\n");

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	struct fpsimd_context *fp = frame_record(ucv, FPSIMD_MAGIC);
	struct sve_context *sve = frame_record(ucv, SVE_MAGIC);

	rep->segv = 1;
	if (fp)
		memcpy(rep->v, fp->vregs, sizeof(rep->v));
	if (sve) {
		rep->sve_size = sve->head.size;
		rep->sve_vl = sve->vl;
		if (sve->vl == VL && sve->head.size >= SVE_SIG_CONTEXT_SIZE(VQ))
			memcpy(rep->payload, (char *)sve + SVE_SIG_REGS_OFFSET,
			       sizeof(rep->payload));
	}
	_exit(0);
}

/*
 * A frame at @at that rt_sigreturn takes as it stands: FPSIMD and SVE
 * records holding regs_b (V is the low half of Z), resuming at the
 * landing with x0 = the report.
 */
static void build_frame(unsigned char *at)
{
	static unsigned char stack[16384] __attribute__((aligned(16)));
	ucontext_t *uc = (ucontext_t *)(at + sizeof(siginfo_t));
	unsigned char *resv = (unsigned char *)uc->uc_mcontext.__reserved;
	struct fpsimd_context *fp = (void *)resv;
	struct sve_context *sve = (void *)(resv + sizeof(*fp));
	struct _aarch64_ctx *end;
	int z;

	memset(at, 0, FRAME_SIZE);
	uc->uc_stack.ss_flags = SS_DISABLE;
	uc->uc_mcontext.regs[0] = (unsigned long)rep->regs;
	uc->uc_mcontext.sp = (unsigned long)(stack + sizeof(stack));
	uc->uc_mcontext.pc = (unsigned long)sve_landing;
	uc->uc_mcontext.pstate = 0;		/* EL0t, AArch64, DAIF clear */

	fp->head.magic = FPSIMD_MAGIC;
	fp->head.size = sizeof(*fp);
	for (z = 0; z < 32; z++)
		memcpy(&fp->vregs[z], regs_b + sve_zoff(VL, z), 16);

	sve->head.magic = SVE_MAGIC;
	sve->head.size = (SVE_SIG_CONTEXT_SIZE(VQ) + 15) & ~15U;
	sve->vl = VL;
	memcpy((char *)sve + SVE_SIG_REGS_OFFSET, regs_b, sizeof(regs_b));

	end = (void *)((char *)sve + sve->head.size);
	end->magic = 0;
	end->size = 0;
}

/* The tracer's registers, written with NT_ARM_SVE. */
static int write_sve(pid_t pid)
{
	static unsigned char buf[SVE_PT_SIZE(VQ, SVE_PT_REGS_SVE)]
		__attribute__((aligned(16)));
	struct user_sve_header *h = (void *)buf;
	struct iovec iov = { buf, sizeof(buf) };

	memset(buf, 0, sizeof(buf));
	h->size = sizeof(buf);
	h->vl = VL;
	h->flags = SVE_PT_REGS_SVE;
	memcpy(buf + SVE_PT_SVE_OFFSET, regs_a, sizeof(regs_a));
	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_SVE, &iov) ? -errno : 0;
}

/*
 * Follow the child's syscalls; at the entry stop of rt_sigreturn write the
 * tracer's registers and let it go.  0, or what went wrong.
 */
static int trace(pid_t pid)
{
	struct __ptrace_syscall_info info;
	int st, sig = 0;

	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return -1;
	if (ptrace(PTRACE_SETOPTIONS, pid, 0,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL))
		return -2;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, sig))
			return -3;
		sig = 0;
		if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
			return -4;	/* gone before its rt_sigreturn */
		if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(st);
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info),
			   &info) <= 0)
			return -5;
		if (info.op != PTRACE_SYSCALL_INFO_ENTRY ||
		    info.entry.nr != NR_rt_sigreturn)
			continue;
		st = write_sve(pid);
		if (ptrace(PTRACE_DETACH, pid, 0, 0))
			return -6;
		return st;
	}
}

enum variant { TAKEN_TRACED, REFUSED_TRACED, REFUSED_UNTRACED };

static void child(enum variant v)
{
	static char segv_stack[65536] __attribute__((aligned(16)));
	stack_t ss = { .ss_sp = segv_stack, .ss_size = sizeof(segv_stack) };
	struct sigaction sa = { .sa_sigaction = on_segv,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map, *frame;

	/* page A (unreadable at the call), then the frame from page B on */
	map = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		_exit(10);
	frame = v == TAKEN_TRACED ? map + page : map + page - STRADDLE;
	build_frame(frame);
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL))
		_exit(11);
	if (v != REFUSED_UNTRACED) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(12);
		raise(SIGSTOP);
	}
	if (v != TAKEN_TRACED && mprotect(map, page, PROT_NONE))
		_exit(13);
	sigreturn_with_v(frame, v_call);
}

static int run(enum variant v, int *traced)
{
	pid_t pid = fork();
	int st;

	if (!pid)
		child(v);
	*traced = v == REFUSED_UNTRACED ? 0 : trace(pid);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void check_taken(void)
{
	const char *name = "frame_taken_over_tracer_sve";
	int st, traced;

	memset(rep, 0, sizeof(*rep));
	st = run(TAKEN_TRACED, &traced);
	ktap_result(!traced && WIFEXITED(st) && WEXITSTATUS(st) == 42 &&
		    !memcmp(rep->regs, regs_b, sizeof(regs_b)), name,
		    "tracer %d, child status %#x, registers %s", traced, st,
		    !memcmp(rep->regs, regs_b, sizeof(regs_b)) ? "the frame's" :
		    !memcmp(rep->regs, regs_a, sizeof(regs_a)) ?
		    "the tracer's" : "neither the frame's nor the tracer's");
}

static void check_refused_traced(void)
{
	const char *name = "refused_frame_keeps_tracer_sve";
	unsigned char v_a[32][16];
	int st, traced, z, ok;

	for (z = 0; z < 32; z++)
		memcpy(v_a[z], regs_a + sve_zoff(VL, z), 16);
	memset(rep, 0, sizeof(*rep));
	st = run(REFUSED_TRACED, &traced);
	ok = !traced && WIFEXITED(st) && !WEXITSTATUS(st) && rep->segv &&
	     rep->sve_vl == VL &&
	     !memcmp(rep->payload, regs_a, sizeof(regs_a)) &&
	     !memcmp(rep->v, v_a, sizeof(v_a));
	ktap_result(ok, name,
		    "tracer %d, child status %#x, SIGSEGV %d, SVE record vl %u size %u: %s",
		    traced, st, rep->segv, rep->sve_vl, rep->sve_size,
		    !memcmp(rep->payload, regs_a, sizeof(regs_a)) ?
		    "the tracer's registers (V differ)" :
		    !memcmp(rep->payload, regs_b, sizeof(regs_b)) ?
		    "the refused frame's registers" : "other registers");
}

static void check_refused_untraced(void)
{
	const char *name = "refused_frame_keeps_call_fpsimd";
	unsigned char want[SVE_SIG_REGS_SIZE(VQ)], v_image[sizeof(want)];
	int st, traced, z, payload_ok;

	memset(v_image, 0, sizeof(v_image));
	for (z = 0; z < 32; z++)
		memcpy(v_image + sve_zoff(VL, z), v_call[z], 16);
	sve_regs_fpsimd_view(want, v_image, VL);

	memset(rep, 0, sizeof(*rep));
	st = run(REFUSED_UNTRACED, &traced);
	payload_ok = rep->sve_size == sizeof(struct sve_context) ||
		     !memcmp(rep->payload, want, sizeof(want));
	ktap_result(WIFEXITED(st) && !WEXITSTATUS(st) && rep->segv &&
		    rep->sve_vl == VL && payload_ok &&
		    !memcmp(rep->v, v_call, sizeof(v_call)), name,
		    "child status %#x, SIGSEGV %d, V %s, SVE record vl %u size %u%s",
		    st, rep->segv,
		    !memcmp(rep->v, v_call, sizeof(v_call)) ? "of the call" :
		    "not the call's", rep->sve_vl, rep->sve_size,
		    payload_ok ? "" : ", more than the call's V in it");
}

int main(void)
{
	const char *names[] = { "frame_taken_over_tracer_sve",
				"refused_frame_keeps_tracer_sve",
				"refused_frame_keeps_call_fpsimd" };
	unsigned int i;

	ktap_plan(3);
	if (!sve_present() || !sve_set_vl(VL)) {
		for (i = 0; i < 3; i++)
			ktap_skip(names[i], sve_present() ?
				  "no 256-bit vector length" : "no SVE");
		return ktap_finish();
	}
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		return 1;

	sve_regs_fill(regs_a, VL, 0xa);
	sve_regs_fill(regs_b, VL, 0xb);
	memset(v_call, 0x3c, sizeof(v_call));

	check_taken();
	check_refused_traced();
	check_refused_untraced();
	return ktap_finish();
}
