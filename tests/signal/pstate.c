// SPDX-License-Identifier: GPL-2.0-only
/*
 * PSTATE across a handler, with the features a distro kernel turns on:
 * DIT and SSBS go into the frame and come back from it; TCO is cleared
 * for the handler and restored after it; BTYPE is set as for a BLR on
 * handler entry (a handler in a PROT_BTI page needs a landing pad) and
 * comes back from the frame; pointer-auth keys are the same in the
 * handler and after it; MTE tag-check faults arrive with their si_codes.
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
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ktap.h"

#ifndef HWCAP_DIT
#define HWCAP_DIT	(1UL << 24)
#endif
#ifndef HWCAP_SSBS
#define HWCAP_SSBS	(1UL << 28)
#endif
#ifndef HWCAP_PACA
#define HWCAP_PACA	(1UL << 30)
#endif
#ifndef HWCAP_PACG
#define HWCAP_PACG	(1UL << 31)
#endif
#ifndef HWCAP2_BTI
#define HWCAP2_BTI	(1UL << 17)
#endif
#ifndef HWCAP2_MTE
#define HWCAP2_MTE	(1UL << 18)
#endif
#ifndef PROT_BTI
#define PROT_BTI	0x10
#endif
#ifndef PROT_MTE
#define PROT_MTE	0x20
#endif
#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL	55
#define PR_TAGGED_ADDR_ENABLE	(1UL << 0)
#endif
#ifndef PR_MTE_TCF_SYNC
#define PR_MTE_TCF_SYNC		(1UL << 1)
#define PR_MTE_TCF_ASYNC	(1UL << 2)
#define PR_MTE_TAG_SHIFT	3
#endif
#ifndef SEGV_MTEAERR
#define SEGV_MTEAERR	8
#define SEGV_MTESERR	9
#endif

#define PSR_BTYPE_SHIFT	10
#define PSR_SSBS	(1UL << 12)
#define PSR_DIT		(1UL << 24)
#define PSR_TCO		(1UL << 25)

/*
 * Each accessor reads or writes one PSTATE field with its own system
 * register, so the test sees what the CPU holds, not what libc cached.
 */
#define SYSREG_RW(name, reg)						\
static unsigned long get_##name(void)					\
{									\
	unsigned long v;						\
									\
	asm volatile("mrs %0, " reg : "=r"(v));			\
	return v;							\
}									\
static void set_##name(unsigned long v)					\
{									\
	asm volatile("msr " reg ", %0" : : "r"(v));			\
}

SYSREG_RW(dit, "s3_3_c4_c2_5")
SYSREG_RW(ssbs, "s3_3_c4_c2_6")
SYSREG_RW(tco, "s3_3_c4_c2_7")

static unsigned long pstate_bit(const char *name)
{
	if (!strcmp(name, "dit"))
		return PSR_DIT;
	if (!strcmp(name, "ssbs"))
		return PSR_SSBS;
	return PSR_TCO;
}

static volatile struct {
	int calls;
	unsigned long live, saved;	/* in the handler: CPU, frame */
	unsigned long flip;		/* frame bit to toggle */
	unsigned long (*get)(void);
} h;

static void flip_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	h.calls++;
	h.live = h.get();
	h.saved = uc->uc_mcontext.pstate;
	uc->uc_mcontext.pstate ^= h.flip;
}

/*
 * Set the field to @before, take a signal whose handler toggles it in
 * the frame, and see it come back toggled.  @in_handler: what the CPU
 * must show inside the handler (-1: the same as @before).
 */
static void roundtrip(const char *name, unsigned long (*get)(void),
		      void (*set)(unsigned long), unsigned long before,
		      long in_handler)
{
	struct sigaction sa = { .sa_sigaction = flip_handler,
				.sa_flags = SA_SIGINFO };
	unsigned long bit = pstate_bit(name), after, want_live;
	char case_name[64];

	want_live = in_handler < 0 ? before : (unsigned long)in_handler;
	snprintf(case_name, sizeof(case_name), "%s_%s_roundtrip", name,
		 before ? "set" : "clear");
	memset((void *)&h, 0, sizeof(h));
	h.get = get;
	h.flip = bit;
	sigaction(SIGUSR1, &sa, NULL);

	set(before ? bit : 0);
	raise(SIGUSR1);
	after = get();
	set(0);

	ktap_result(h.calls == 1 && !!(h.saved & bit) == !!before &&
		    !!h.live == !!want_live && !!after == !before, case_name,
		    "calls %d, frame pstate %#lx, in handler %#lx (want %s), after %#lx (want %s)",
		    h.calls, h.saved, h.live, want_live ? "set" : "clear",
		    after, before ? "clear" : "set");
}

static void check_dit_ssbs_tco(void)
{
	unsigned long hwcap = getauxval(AT_HWCAP);
	unsigned long hwcap2 = getauxval(AT_HWCAP2);

	if (hwcap & HWCAP_DIT) {
		roundtrip("dit", get_dit, set_dit, 1, -1);
		roundtrip("dit", get_dit, set_dit, 0, -1);
	} else {
		ktap_skip("dit_set_roundtrip", "no DIT (HWCAP_DIT)");
		ktap_skip("dit_clear_roundtrip", "no DIT (HWCAP_DIT)");
	}
	if (hwcap & HWCAP_SSBS) {
		roundtrip("ssbs", get_ssbs, set_ssbs, 1, -1);
		roundtrip("ssbs", get_ssbs, set_ssbs, 0, -1);
	} else {
		ktap_skip("ssbs_set_roundtrip", "no SSBS (HWCAP_SSBS)");
		ktap_skip("ssbs_clear_roundtrip", "no SSBS (HWCAP_SSBS)");
	}
	/* every handler starts with tag checks on: TCO clear */
	if (hwcap2 & HWCAP2_MTE) {
		roundtrip("tco", get_tco, set_tco, 1, 0);
		roundtrip("tco", get_tco, set_tco, 0, 0);
	} else {
		ktap_skip("tco_set_roundtrip", "no MTE (HWCAP2_MTE)");
		ktap_skip("tco_clear_roundtrip", "no MTE (HWCAP2_MTE)");
	}
}

/*
 * BTYPE, in a child: a PROT_BTI page holding
 *	+0   nop		not a landing pad
 *	+4   mov x0, #42; mov x8, #__NR_exit_group; svc #0
 *	+16  bti c		landing pad, then b +4
 * The child either exits 42 or dies of SIGILL (a branch target
 * exception).
 */
static const uint32_t bti_code[] = {
	0xd503201f,		/* nop */
	0xd2800540,		/* mov x0, #42 */
	0xd2800bc8,		/* mov x8, #94 */
	0xd4000001,		/* svc #0 */
	0xd503245f,		/* bti c */
	0x17fffffc,		/* b .-16 */
};

static unsigned char *bti_page;
static unsigned long bti_target, bti_btype;

static void btype_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	uc->uc_mcontext.pc = bti_target;
	uc->uc_mcontext.pstate = (uc->uc_mcontext.pstate &
				  ~(3UL << PSR_BTYPE_SHIFT)) |
				 (bti_btype << PSR_BTYPE_SHIFT);
}

enum bti_how { BTI_HANDLER, BTI_SIGRETURN };

static int bti_child(enum bti_how how, unsigned long offset,
		     unsigned long btype)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	pid_t pid = fork();
	int st;

	if (!pid) {
		signal(SIGILL, SIG_DFL);
		if (how == BTI_HANDLER) {
			/* the handler itself sits in the guarded page */
			sa.sa_sigaction = (void *)(bti_page + offset);
		} else {
			sa.sa_sigaction = btype_handler;
			bti_target = (unsigned long)bti_page + offset;
			bti_btype = btype;
		}
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(7);	/* never: the page's code exits */
	}
	waitpid(pid, &st, 0);
	return st;
}

static void check_btype(void)
{
	static const struct {
		const char *name;
		enum bti_how how;
		unsigned long offset, btype;
		int sigill;
	} cases[] = {
		{ "btype_handler_needs_landing_pad", BTI_HANDLER, 0, 0, 1 },
		{ "btype_handler_at_bti_c", BTI_HANDLER, 16, 0, 0 },
		{ "btype_restored_traps", BTI_SIGRETURN, 0, 1, 1 },
		{ "btype_restored_zero_runs", BTI_SIGRETURN, 0, 0, 0 },
		{ "btype_restored_at_bti_c", BTI_SIGRETURN, 16, 2, 0 },
	};
	unsigned int i;
	int st;

	bti_page = MAP_FAILED;
	if (getauxval(AT_HWCAP2) & HWCAP2_BTI)
		bti_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bti_page != MAP_FAILED) {
		memcpy(bti_page, bti_code, sizeof(bti_code));
		__builtin___clear_cache((char *)bti_page,
					(char *)bti_page + sizeof(bti_code));
		if (mprotect(bti_page, 4096,
			     PROT_READ | PROT_EXEC | PROT_BTI)) {
			munmap(bti_page, 4096);
			bti_page = MAP_FAILED;
		}
	}

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (bti_page == MAP_FAILED) {
			ktap_skip(cases[i].name, "no BTI (HWCAP2_BTI, PROT_BTI)");
			continue;
		}
		st = bti_child(cases[i].how, cases[i].offset, cases[i].btype);
		if (cases[i].sigill)
			ktap_result(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL,
				    cases[i].name,
				    "child status %#x, want SIGILL", st);
		else
			ktap_result(WIFEXITED(st) && WEXITSTATUS(st) == 42,
				    cases[i].name,
				    "child status %#x, want exit 42", st);
	}
}

/* Pointer authentication: same signature before, in and after a handler. */
static unsigned long pac_sign(unsigned long ptr, unsigned long mod)
{
	register unsigned long x17 asm("x17") = ptr;
	register unsigned long x16 asm("x16") = mod;

	asm volatile("hint #8" : "+r"(x17) : "r"(x16));	/* pacia1716 */
	return x17;
}

static unsigned long pac_generic(unsigned long v, unsigned long mod)
{
	unsigned long r;

	asm volatile(".arch armv8.3-a\npacga %0, %1, %2"
		     : "=r"(r) : "r"(v), "r"(mod));
	return r;
}

static volatile unsigned long pac_in_handler, pacg_in_handler;

static void pac_handler(int sig)
{
	pac_in_handler = pac_sign((unsigned long)&pac_in_handler, 0x1234);
	if (getauxval(AT_HWCAP) & HWCAP_PACG)
		pacg_in_handler = pac_generic(0x5555, 0x1234);
}

static void check_pac(void)
{
	unsigned long ptr = (unsigned long)&pac_in_handler, before, after;
	unsigned long g_before = 0, g_after = 0;
	int pacg = !!(getauxval(AT_HWCAP) & HWCAP_PACG);

	if (!(getauxval(AT_HWCAP) & HWCAP_PACA)) {
		ktap_skip("pac_keys_unchanged", "no pointer auth (HWCAP_PACA)");
		return;
	}
	signal(SIGUSR2, pac_handler);
	before = pac_sign(ptr, 0x1234);
	if (pacg)
		g_before = pac_generic(0x5555, 0x1234);
	raise(SIGUSR2);
	after = pac_sign(ptr, 0x1234);
	if (pacg)
		g_after = pac_generic(0x5555, 0x1234);
	ktap_result(before != ptr && before == pac_in_handler &&
		    before == after && g_before == pacg_in_handler &&
		    g_before == g_after, "pac_keys_unchanged",
		    "IA signature before %#lx, in handler %#lx, after %#lx; GA %#lx, %#lx, %#lx",
		    before, pac_in_handler, after, g_before, pacg_in_handler,
		    g_after);
	signal(SIGUSR2, SIG_DFL);
}

/* MTE: a tag-check fault reaches a handler with its si_code. */
static void mte_handler(int sig, siginfo_t *si, void *uc)
{
	_exit(si->si_code);
}

static int mte_child(unsigned long tcf)
{
	struct sigaction sa = { .sa_sigaction = mte_handler,
				.sa_flags = SA_SIGINFO };
	pid_t pid = fork();
	int st, i;

	if (!pid) {
		volatile unsigned char *p;

		if (prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE |
			  tcf | (0xfffeUL << PR_MTE_TAG_SHIFT), 0, 0, 0))
			_exit(100);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_MTE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(101);
		sigaction(SIGSEGV, &sa, NULL);
		/* memory tag 0, pointer tag 3: a mismatch */
		p = (volatile unsigned char *)((unsigned long)p | (3UL << 56));
		p[0] = 1;
		/* async: reported on a later entry to the kernel */
		for (i = 0; i < 100; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_mte(void)
{
	int code;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_MTE)) {
		ktap_skip("mte_sync_fault_code", "no MTE (HWCAP2_MTE)");
		ktap_skip("mte_async_fault_code", "no MTE (HWCAP2_MTE)");
		return;
	}
	code = mte_child(PR_MTE_TCF_SYNC);
	ktap_result(code == SEGV_MTESERR, "mte_sync_fault_code",
		    "handler saw si_code %d (child exit), want SEGV_MTESERR %d",
		    code, SEGV_MTESERR);
	code = mte_child(PR_MTE_TCF_ASYNC);
	ktap_result(code == SEGV_MTEAERR, "mte_async_fault_code",
		    "handler saw si_code %d (child exit), want SEGV_MTEAERR %d",
		    code, SEGV_MTEAERR);
}

int main(void)
{
	ktap_plan(6 + 5 + 1 + 2);
	check_dit_ssbs_tco();
	check_btype();
	check_pac();
	check_mte();
	return ktap_finish();
}
