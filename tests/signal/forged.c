// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_sigreturn with forged frames.  A real frame is captured once; each
 * case edits a copy, places it at a known address and calls rt_sigreturn
 * on it from a child.  Good frames must resume at the pc they name, with
 * the registers they hold (the child exits 42); bad ones must kill the
 * child with SIGSEGV, and leave its registers as they were at the call.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <asm/sigcontext.h>

#include "kernel_version.h"
#include "ktap.h"

#define FRAME_SIZE	(sizeof(siginfo_t) + sizeof(ucontext_t))
#define RESV_SIZE	4096
#define MARK		0x5151a5a5c3c3UL
#define UNKNOWN_MAGIC	0x12345678
/* 6.12's records of one register; refused on a CPU without it */
#define FPMR_MAGIC_612	0x46504d52
#define POE_MAGIC_612	0x504f4530
#define HWCAP2_FPMR_612	(1UL << 48)
#define HWCAP2_POE_612	(1UL << 63)

#ifndef HWCAP_SVE
#define HWCAP_SVE	(1UL << 22)
#endif
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL	51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif

/*
 * Where a good frame resumes: exit(x0) when x19 == x20 == MARK was
 * restored, exit(7) otherwise.
 */
void resumed(void);
asm(".text\n.globl resumed\n.type resumed, %function\n"
	"resumed:\n"
	"	cmp	x19, x20\n"
	"	b.ne	1f\n"
	"	ldr	x9, =0x5151a5a5c3c3\n"
	"	cmp	x19, x9\n"
	"	b.eq	2f\n"
	"1:	mov	x0, #7\n"
	"2:	mov	x8, #94\n"		/* __NR_exit_group */
	"	svc	#0\n"
	".ltorg\n");

static unsigned char captured[FRAME_SIZE] __attribute__((aligned(16)));
static unsigned char fpsimd_rec[sizeof(struct fpsimd_context)];
static unsigned char area[65536] __attribute__((aligned(16)));
static unsigned char resume_stack[16384] __attribute__((aligned(16)));
static int captured_ok;

static void capture(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	struct _aarch64_ctx *h = (void *)uc->uc_mcontext.__reserved;

	/* siginfo sits at the base of the frame, the ucontext right after */
	if ((void *)(si + 1) != (void *)uc)
		return;
	memcpy(captured, si, FRAME_SIZE);
	if (h->magic == FPSIMD_MAGIC && h->size == sizeof(fpsimd_rec)) {
		memcpy(fpsimd_rec, h, sizeof(fpsimd_rec));
		captured_ok = 1;
	}
}

/* The frame being forged, and a cursor in its __reserved[]. */
static unsigned char *frame;
static ucontext_t *fuc;
static unsigned char *resv;
static size_t at;

static void start(size_t misalign)
{
	frame = area + 16384 + misalign;
	memcpy(frame, captured, FRAME_SIZE);
	fuc = (ucontext_t *)(frame + sizeof(siginfo_t));
	resv = (unsigned char *)fuc->uc_mcontext.__reserved;
	memset(resv, 0, RESV_SIZE);
	sigemptyset(&fuc->uc_sigmask);
	fuc->uc_mcontext.pc = (unsigned long)resumed;
	fuc->uc_mcontext.sp = (unsigned long)resume_stack +
			      sizeof(resume_stack);
	fuc->uc_mcontext.regs[0] = 42;
	fuc->uc_mcontext.regs[19] = MARK;
	fuc->uc_mcontext.regs[20] = MARK;
	at = 0;
}

static void put_fpsimd(void)
{
	memcpy(resv + at, fpsimd_rec, sizeof(fpsimd_rec));
	at += sizeof(fpsimd_rec);
}

static void put(uint32_t magic, uint32_t size)
{
	struct _aarch64_ctx h = { magic, size };

	memcpy(resv + at, &h, sizeof(h));
	at += magic ? size : 16;
}

static unsigned int sve_vl;

/* An SVE record: header only when @size is 16, else zeroed Z, P, FFR. */
static void put_sve(unsigned int vl, unsigned int flags, uint32_t size)
{
	struct sve_context c = { .head = { SVE_MAGIC, size }, .vl = vl,
				 .flags = flags };

	memcpy(resv + at, &c, sizeof(c));
	at += size;
}

/* extra_context pointing @skew bytes past where its data must start */
static unsigned char *put_extra(uint32_t size, long skew)
{
	struct extra_context x = { .head = { EXTRA_MAGIC, sizeof(x) } };
	unsigned char *data = resv + at + sizeof(x) + 16;

	x.datap = (unsigned long)data + skew;
	x.size = size;
	memcpy(resv + at, &x, sizeof(x));
	at += sizeof(x);
	return data;
}

static void __attribute__((noreturn)) sigreturn_now(void)
{
	asm volatile("mov	sp, %0\n"
		     "mov	x8, #139\n"	/* __NR_rt_sigreturn */
		     "svc	#0\n"
		     : : "r"(frame) : "memory");
	__builtin_unreachable();
}

enum forge {
	GOOD,
	GOOD_ESR,
	GOOD_EXTRA,
	BAD_MAGIC,
	BAD_FPSIMD_SIZE,
	UNALIGNED_SIZE,
	OVERRUN,
	NULL_WITH_SIZE,
	NO_TERMINATOR,
	UNKNOWN_RECORD,
	MISSING_FPSIMD,
	DUP_FPSIMD,
	MISALIGNED_SP,
	PSTATE_EL1H,
	PSTATE_EL1T,
	PSTATE_EL2H,
	PSTATE_AARCH32,
	PSTATE_DAIF,
	PSTATE_IL,
	GOOD_SVE_HEADER,
	GOOD_SVE_REGS,
	GOOD_FPSIMD_OVERSIZE_SVE,
	SVE_BAD_VL,
	SVE_STREAMING,
	SVE_SHORT,
	SVE_TWICE,
	SVE_NO_FPSIMD,
	BAD_FPSIMD_OVERSIZE,
	EXTRA_BAD_DATAP,
	EXTRA_NO_NULL_AFTER,
	EXTRA_UNALIGNED_SIZE,
	EXTRA_TOO_BIG,
	EXTRA_TWICE,
	EXTRA_UNTERMINATED,
	FPMR_WITHOUT_CPU,
	POE_WITHOUT_CPU,
	NR_FORGE
};

struct forge_case {
	const char *name;
	int good;
	int sve;	/* needs SVE */
};

static const struct forge_case forge_cases_init[NR_FORGE] = {
	[GOOD] = { "good_frame_resumes", 1 },
	[GOOD_ESR] = { "good_frame_with_esr_resumes", 1 },
	[GOOD_EXTRA] = { "good_extra_context_resumes", 1 },
	[BAD_MAGIC] = { "bad_fpsimd_magic", 0 },
	[BAD_FPSIMD_SIZE] = { "bad_fpsimd_size", 0 },
	[UNALIGNED_SIZE] = { "unaligned_record_size", 0 },
	[OVERRUN] = { "record_overruns_reserved", 0 },
	[NULL_WITH_SIZE] = { "null_record_with_size", 0 },
	[NO_TERMINATOR] = { "no_null_record", 0 },
	[UNKNOWN_RECORD] = { "unknown_record", 0 },
	[MISSING_FPSIMD] = { "missing_fpsimd", 0 },
	[DUP_FPSIMD] = { "duplicated_fpsimd", 0 },
	[MISALIGNED_SP] = { "misaligned_sp", 0 },
	[PSTATE_EL1H] = { "pstate_el1h", 0 },
	[PSTATE_EL1T] = { "pstate_el1t", 0 },
	[PSTATE_EL2H] = { "pstate_el2h", 0 },
	[PSTATE_AARCH32] = { "pstate_aarch32", 0 },
	[PSTATE_DAIF] = { "pstate_daif_masked", 0 },
	/* IL is RES0 for a return to EL0: cleared, as stock 6.1 does */
	[PSTATE_IL] = { "pstate_illegal_cleared_resumes", 1 },
	[GOOD_SVE_HEADER] = { "good_sve_header_resumes", 1, 1 },
	[GOOD_SVE_REGS] = { "good_sve_registers_resume", 1, 1 },
	/*
	 * With an SVE record, stock 6.1 takes a larger FPSIMD record;
	 * 6.12.y refuses it ("arm64/fpsimd: signal: Consistently read
	 * FPSIMD context"): main() sets .good by the running kernel.
	 */
	[GOOD_FPSIMD_OVERSIZE_SVE] = { "fpsimd_oversize_with_sve", 1, 1 },
	[SVE_BAD_VL] = { "sve_vector_length_changed", 0, 1 },
	[SVE_STREAMING] = { "sve_streaming_flag", 0, 1 },
	[SVE_SHORT] = { "sve_registers_truncated", 0, 1 },
	[SVE_TWICE] = { "sve_duplicated", 0, 1 },
	[SVE_NO_FPSIMD] = { "sve_without_fpsimd", 0, 1 },
	[BAD_FPSIMD_OVERSIZE] = { "fpsimd_oversize_without_sve", 0 },
	[EXTRA_BAD_DATAP] = { "extra_bad_datap", 0 },
	[EXTRA_NO_NULL_AFTER] = { "extra_no_null_after", 0 },
	[EXTRA_UNALIGNED_SIZE] = { "extra_unaligned_size", 0 },
	[EXTRA_TOO_BIG] = { "extra_too_big", 0 },
	[EXTRA_TWICE] = { "extra_twice", 0 },
	[EXTRA_UNTERMINATED] = { "extra_unterminated", 0 },
	[FPMR_WITHOUT_CPU] = { "fpmr_record_without_fpmr", 0 },
	[POE_WITHOUT_CPU] = { "poe_record_without_poe", 0 },
};

static struct forge_case forge_cases[NR_FORGE];

static void forge(enum forge c)
{
	unsigned long *pstate;
	unsigned char *data;

	start(c == MISALIGNED_SP ? 8 : 0);
	pstate = (unsigned long *)&fuc->uc_mcontext.pstate;

	switch (c) {
	case GOOD_ESR:
		put_fpsimd();
		put(ESR_MAGIC, sizeof(struct esr_context));
		put(0, 0);
		break;
	case GOOD_EXTRA:
	case EXTRA_BAD_DATAP:
	case EXTRA_NO_NULL_AFTER:
	case EXTRA_UNALIGNED_SIZE:
	case EXTRA_TOO_BIG:
	case EXTRA_UNTERMINATED:
		data = put_extra(c == EXTRA_UNALIGNED_SIZE ? 552 :
				 c == EXTRA_TOO_BIG ? 1 << 20 :
				 c == EXTRA_UNTERMINATED ? 528 : 544,
				 c == EXTRA_BAD_DATAP ? 16 : 0);
		if (c == EXTRA_NO_NULL_AFTER)
			put(ESR_MAGIC, 16);
		else
			put(0, 0);
		at = data - resv;
		put_fpsimd();
		put(0, 0);
		break;
	case EXTRA_TWICE:
		data = put_extra(576, 0);
		put(0, 0);
		at = data - resv;
		put_fpsimd();
		put_extra(16, 0);
		put(0, 0);
		break;
	case BAD_MAGIC:
		put_fpsimd();
		put(0, 0);
		memcpy(resv, &(uint32_t){ 0xdeadbeef }, 4);
		break;
	case BAD_FPSIMD_SIZE:
		put_fpsimd();
		memcpy(resv + 4, &(uint32_t){ sizeof(fpsimd_rec) + 16 }, 4);
		at += 16;
		put(0, 0);
		break;
	case UNALIGNED_SIZE:
		put_fpsimd();
		put(ESR_MAGIC, 24);
		put(0, 0);
		break;
	case OVERRUN:
		put_fpsimd();
		put(ESR_MAGIC, RESV_SIZE - at + 16);
		break;
	case NULL_WITH_SIZE:
		put_fpsimd();
		put(0, 16);
		break;
	case NO_TERMINATOR:
		put_fpsimd();
		while (at < RESV_SIZE)
			put(ESR_MAGIC, 16);
		break;
	case UNKNOWN_RECORD:
		put_fpsimd();
		put(UNKNOWN_MAGIC, 16);
		put(0, 0);
		break;
	case FPMR_WITHOUT_CPU:
		put_fpsimd();
		put(FPMR_MAGIC_612, 16);
		put(0, 0);
		break;
	case POE_WITHOUT_CPU:
		put_fpsimd();
		put(POE_MAGIC_612, 16);
		put(0, 0);
		break;
	case GOOD_SVE_HEADER:
		put_fpsimd();
		put_sve(sve_vl, 0, 16);
		put(0, 0);
		break;
	case GOOD_SVE_REGS:
		put_fpsimd();
		put_sve(sve_vl, 0, (SVE_SIG_CONTEXT_SIZE(sve_vl / 16) + 15) &
			~15U);
		put(0, 0);
		break;
	case GOOD_FPSIMD_OVERSIZE_SVE:
	case BAD_FPSIMD_OVERSIZE:
		put_fpsimd();
		memcpy(resv + 4, &(uint32_t){ sizeof(fpsimd_rec) + 16 }, 4);
		at += 16;
		if (c == GOOD_FPSIMD_OVERSIZE_SVE)
			put_sve(sve_vl, 0, 16);
		put(0, 0);
		break;
	case SVE_BAD_VL:
		put_fpsimd();
		put_sve(sve_vl == 16 ? 32 : sve_vl / 2, 0, 16);
		put(0, 0);
		break;
	case SVE_STREAMING:
		put_fpsimd();
		put_sve(sve_vl, SVE_SIG_FLAG_SM, 16);
		put(0, 0);
		break;
	case SVE_SHORT:
		put_fpsimd();
		put_sve(sve_vl, 0, 32);
		put(0, 0);
		break;
	case SVE_TWICE:
		put_fpsimd();
		put_sve(sve_vl, 0, 16);
		put_sve(sve_vl, 0, 16);
		put(0, 0);
		break;
	case SVE_NO_FPSIMD:
		put_sve(sve_vl, 0, 16);
		put(0, 0);
		break;
	case MISSING_FPSIMD:
		put(ESR_MAGIC, 16);
		put(0, 0);
		break;
	case DUP_FPSIMD:
		put_fpsimd();
		put_fpsimd();
		put(0, 0);
		break;
	default:
		put_fpsimd();
		put(0, 0);
		break;
	}

	switch (c) {
	case PSTATE_EL1H:
		*pstate = (*pstate & ~0x1fUL) | 0x5;
		break;
	case PSTATE_EL1T:
		*pstate = (*pstate & ~0x1fUL) | 0x4;
		break;
	case PSTATE_EL2H:
		*pstate = (*pstate & ~0x1fUL) | 0x9;
		break;
	case PSTATE_AARCH32:
		*pstate = (*pstate & ~0x1fUL) | 0x10;
		break;
	case PSTATE_DAIF:
		*pstate |= 1UL << 7;
		break;
	case PSTATE_IL:
		*pstate |= 1UL << 20;
		break;
	default:
		break;
	}
	sigreturn_now();
}

/*
 * A refused frame leaves the registers alone: the SIGSEGV that follows
 * shows the registers and FP state the task had at the rt_sigreturn call
 * (x0 included), pc just after the SVC, and the frame as sp and si_addr.
 * The frame's signal mask is applied all the same, as stock, a 32-bit ARM
 * kernel and x86 apply it, so that a SIGSEGV handler which returns a bad
 * frame runs again rather than the task being killed.  Stock 6.1 also
 * loads the forged registers before it refuses, so its SIGSEGV handler
 * (and a core dump) sees a half-restored context.
 */
#define CALL_X19	0x1919191919191919UL
#define CALL_X20	0x2020202020202020UL

void sigreturn_marked(void *frame);
extern char sigreturn_marked_after[];
asm(".text\n.globl sigreturn_marked\n.type sigreturn_marked, %function\n"
	"sigreturn_marked:\n"
	"	ldr	x19, =0x1919191919191919\n"
	"	ldr	x20, =0x2020202020202020\n"
	"	movi	v8.16b, #0x3c\n"
	"	mov	sp, x0\n"
	"	mov	x8, #139\n"		/* __NR_rt_sigreturn */
	"	svc	#0\n"
	".globl sigreturn_marked_after\n"
	"sigreturn_marked_after:\n"
	"	b	.\n"
	".ltorg\n");

static struct refused {
	int called, usr2_blocked;
	unsigned long addr, pc, sp, x0, x19, x20;
	unsigned char v8[16];
} *refused;

static void refused_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	struct fpsimd_context *fp = (void *)uc->uc_mcontext.__reserved;

	refused->called++;
	refused->addr = (unsigned long)si->si_addr;
	refused->pc = uc->uc_mcontext.pc;
	refused->sp = uc->uc_mcontext.sp;
	refused->x0 = uc->uc_mcontext.regs[0];
	refused->x19 = uc->uc_mcontext.regs[19];
	refused->x20 = uc->uc_mcontext.regs[20];
	refused->usr2_blocked = sigismember(&uc->uc_sigmask, SIGUSR2);
	if (fp->head.magic == FPSIMD_MAGIC)
		memcpy(refused->v8, &fp->vregs[8], 16);
	_exit(0);
}

static void check_refused_frame(void)
{
	struct sigaction sa = { .sa_sigaction = refused_handler,
				.sa_flags = SA_SIGINFO };
	unsigned long want_frame = (unsigned long)area + 16384;
	unsigned char want_v8[16];
	pid_t pid;
	int st;

	refused = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (refused == MAP_FAILED) {
		ktap_skip("refused_frame_keeps_registers", "mmap failed");
		return;
	}
	memset(want_v8, 0x3c, sizeof(want_v8));

	pid = fork();
	if (!pid) {
		sigaction(SIGSEGV, &sa, NULL);
		start(0);
		sigaddset(&fuc->uc_sigmask, SIGUSR2);
		put_fpsimd();
		put(0, 0);
		memcpy(resv, &(uint32_t){ 0xdeadbeef }, 4);
		sigreturn_marked(frame);
	}
	waitpid(pid, &st, 0);
	ktap_result(WIFEXITED(st) && !WEXITSTATUS(st) && refused->called == 1 &&
		    refused->addr == want_frame && refused->sp == want_frame &&
		    refused->pc == (unsigned long)sigreturn_marked_after &&
		    refused->x0 == want_frame &&
		    refused->x19 == CALL_X19 && refused->x20 == CALL_X20 &&
		    refused->usr2_blocked &&
		    !memcmp(refused->v8, want_v8, sizeof(want_v8)),
		    "refused_frame_keeps_registers",
		    "child status %#x; SIGSEGV handler: si_addr %#lx sp %#lx (frame %#lx), pc %#lx (want %p), x0 %#lx x19 %#lx x20 %#lx, the frame's mask %s, v8 byte %#x",
		    st, refused->addr, refused->sp, want_frame, refused->pc,
		    sigreturn_marked_after, refused->x0, refused->x19,
		    refused->x20, refused->usr2_blocked ? "applied" : "not applied",
		    refused->v8[0]);
	munmap(refused, 4096);
}

/*
 * A SIGSEGV handler that hands back a frame rt_sigreturn refuses: the
 * frame's mask (SIGSEGV not blocked) is applied, so the SIGSEGV the
 * refusal raises runs the handler again, as on stock and x86, instead of
 * killing the task.
 */
static volatile int segv_entries;

static void bad_return_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	if (segv_entries++)
		_exit(7);
	uc->uc_mcontext.pstate = (uc->uc_mcontext.pstate & ~0x1fUL) | 0x5;
}

static void check_bad_return(void)
{
	struct sigaction sa = { .sa_sigaction = bad_return_segv,
				.sa_flags = SA_SIGINFO };
	pid_t pid = fork();
	int st;

	if (!pid) {
		sigaction(SIGSEGV, &sa, NULL);
		raise(SIGSEGV);
		_exit(8);
	}
	waitpid(pid, &st, 0);
	ktap_result(WIFEXITED(st) && WEXITSTATUS(st) == 7,
		    "segv_handler_bad_return_runs_again",
		    "child status %#x (exit 7: the handler ran twice)", st);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = capture,
				.sa_flags = SA_SIGINFO };
	int i;

	memcpy(forge_cases, forge_cases_init, sizeof(forge_cases));
	forge_cases[GOOD_FPSIMD_OVERSIZE_SVE].good = !kernel_at_least(6, 12);

	ktap_plan(NR_FORGE + 2);
	if (getauxval(AT_HWCAP) & HWCAP_SVE)
		sve_vl = prctl(PR_SVE_GET_VL) & PR_SVE_VL_LEN_MASK;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	if (!captured_ok) {
		for (i = 0; i < NR_FORGE; i++)
			ktap_skip(forge_cases[i].name,
				  "no FPSIMD record to start from");
		ktap_skip("refused_frame_keeps_registers",
			  "no FPSIMD record to start from");
		ktap_skip("segv_handler_bad_return_runs_again",
			  "no FPSIMD record to start from");
		return ktap_finish();
	}

	for (i = 0; i < NR_FORGE; i++) {
		pid_t pid;
		int st;

		if (forge_cases[i].sve && !sve_vl) {
			ktap_skip(forge_cases[i].name, "no SVE");
			continue;
		}
		if ((i == FPMR_WITHOUT_CPU &&
		     (getauxval(AT_HWCAP2) & HWCAP2_FPMR_612)) ||
		    (i == POE_WITHOUT_CPU &&
		     (getauxval(AT_HWCAP2) & HWCAP2_POE_612))) {
			ktap_skip(forge_cases[i].name,
				  "the CPU has it: the record is valid here");
			continue;
		}
		pid = fork();

		if (!pid) {
			signal(SIGSEGV, SIG_DFL);
			forge(i);
		}
		waitpid(pid, &st, 0);
		if (forge_cases[i].good)
			ktap_result(WIFEXITED(st) && WEXITSTATUS(st) == 42,
				    forge_cases[i].name,
				    "child status %#x, want exit 42", st);
		else
			ktap_result(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
				    forge_cases[i].name,
				    "child status %#x, want SIGSEGV", st);
	}
	check_refused_frame();
	check_bad_return();
	return ktap_finish();
}
