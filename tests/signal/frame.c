// SPDX-License-Identifier: GPL-2.0-only
/*
 * The native signal frame as a handler sees it: registers on entry, the
 * record list in __reserved[], the frame record for unwinders, the
 * return trampoline, AT_MINSIGSTKSZ, and no kernel bytes in the frame.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <asm/sigcontext.h>

#include "ktap.h"
#include "framecheck.h"

#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

/* the uapi MINSIGSTKSZ; glibc's may be a sysconf() call */
#define KERNEL_MINSIGSTKSZ 5120

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

/* Registers as the kernel left them at handler entry. */
struct entry_regs {
	unsigned long x0, x1, x2, x29, x30, sp;
};

volatile struct entry_regs entry;
void (*volatile entry_target)(int, siginfo_t *, void *);
volatile unsigned long restorer_hits;

void entry_stub(int, siginfo_t *, void *);
void test_restorer(void);

asm(".text\n"
	".globl entry_stub\n"
	".type entry_stub, %function\n"
	"entry_stub:\n"
	"	adrp	x9, entry\n"
	"	add	x9, x9, :lo12:entry\n"
	"	stp	x0, x1, [x9]\n"
	"	stp	x2, x29, [x9, #16]\n"
	"	mov	x10, sp\n"
	"	stp	x30, x10, [x9, #32]\n"
	"	adrp	x9, entry_target\n"
	"	ldr	x9, [x9, :lo12:entry_target]\n"
	"	br	x9\n"
	".size entry_stub, . - entry_stub\n"
	".globl test_restorer\n"
	".type test_restorer, %function\n"
	"test_restorer:\n"
	"	adrp	x9, restorer_hits\n"
	"	ldr	x10, [x9, :lo12:restorer_hits]\n"
	"	add	x10, x10, #1\n"
	"	str	x10, [x9, :lo12:restorer_hits]\n"
	"	mov	x8, #139\n"		/* __NR_rt_sigreturn */
	"	svc	#0\n"
	".size test_restorer, . - test_restorer\n");

/* What the handlers saw, checked once they have returned. */
static volatile struct {
	int called;
	unsigned long x0, x1, x2, x29, x30, sp;
	unsigned long uc, info;
	unsigned long rec_fp, rec_lr, saved_fp, saved_lr;
	unsigned long reserved;
	unsigned int magic[8], size[8];
	unsigned long offset[8];
	int nrec;
	int bad_walk;
	char why[160];
} seen;

static unsigned long vdso_lo, vdso_hi;

static void find_vdso(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]"))
			sscanf(line, "%lx-%lx", &vdso_lo, &vdso_hi);
	fclose(f);
}

/* Walk __reserved[] from the handler, recording what is there. */
static void walk_records(ucontext_t *uc)
{
	unsigned char *base = (unsigned char *)uc->uc_mcontext.__reserved;
	size_t off = 0, limit = sizeof(uc->uc_mcontext.__reserved);

	seen.nrec = 0;
	seen.bad_walk = 0;
	while (seen.nrec < 8) {
		struct _aarch64_ctx *h = (void *)(base + off);

		if (off % 16 || limit - off < sizeof(*h)) {
			seen.bad_walk = 1;
			snprintf((char *)seen.why, sizeof(seen.why),
				 "record at +%zu misaligned or past the end", off);
			return;
		}
		seen.magic[seen.nrec] = h->magic;
		seen.size[seen.nrec] = h->size;
		seen.offset[seen.nrec] = off;
		seen.nrec++;
		if (!h->magic)
			return;
		if (h->size < sizeof(*h) || h->size > limit - off) {
			seen.bad_walk = 1;
			snprintf((char *)seen.why, sizeof(seen.why),
				 "record %#x has size %u at +%zu", h->magic,
				 h->size, off);
			return;
		}
		off += h->size;
	}
	seen.bad_walk = 1;
	snprintf((char *)seen.why, sizeof(seen.why), "more than 8 records");
}

static void layout_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long *rec = (unsigned long *)entry.x29;

	seen.called++;
	seen.x0 = entry.x0;
	seen.x1 = entry.x1;
	seen.x2 = entry.x2;
	seen.x29 = entry.x29;
	seen.x30 = entry.x30;
	seen.sp = entry.sp;
	seen.uc = (unsigned long)uc;
	seen.info = (unsigned long)si;
	seen.reserved = (unsigned long)uc->uc_mcontext.__reserved;
	seen.rec_fp = rec[0];
	seen.rec_lr = rec[1];
	seen.saved_fp = uc->uc_mcontext.regs[29];
	seen.saved_lr = uc->uc_mcontext.regs[30];
	walk_records(uc);
}

static void check_layout(void)
{
	struct sigaction sa = { .sa_sigaction = entry_stub,
				.sa_flags = SA_SIGINFO };
	int ok, sve;

	entry_target = layout_handler;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);

	ktap_result(seen.called == 1, "handler_called", "called %d times",
		    seen.called);
	ktap_result(seen.x0 == SIGUSR1 && seen.x1 == seen.info &&
		    seen.x2 == seen.uc, "entry_args",
		    "x0=%lu x1=%#lx x2=%#lx info=%#lx uc=%#lx", seen.x0,
		    seen.x1, seen.x2, seen.info, seen.uc);
	ktap_result(seen.sp % 16 == 0 && seen.sp == seen.info &&
		    seen.reserved % 16 == 0, "frame_aligned",
		    "sp=%#lx info=%#lx __reserved=%#lx", seen.sp, seen.info,
		    seen.reserved);
	ok = seen.x29 % 16 == 0 &&
	     seen.x29 >= seen.uc + sizeof(ucontext_t) &&
	     seen.rec_fp == seen.saved_fp && seen.rec_lr == seen.saved_lr;
	ktap_result(ok, "frame_record",
		    "x29=%#lx uc_end=%#lx record={%#lx,%#lx} saved={%#lx,%#lx}",
		    seen.x29, seen.uc + sizeof(ucontext_t), seen.rec_fp,
		    seen.rec_lr, seen.saved_fp, seen.saved_lr);
	ktap_result(vdso_lo && seen.x30 >= vdso_lo && seen.x30 < vdso_hi,
		    "returns_via_vdso", "x30=%#lx vdso=[%#lx,%#lx)", seen.x30,
		    vdso_lo, vdso_hi);

	/*
	 * A task that never faulted: FPSIMD first, then (on an SVE system)
	 * the SVE record, header only since the signal came from a syscall,
	 * then the null record.
	 */
	sve = !!(getauxval(AT_HWCAP) & HWCAP_SVE);
	ok = !seen.bad_walk && seen.nrec == 2 + sve &&
	     seen.magic[0] == FPSIMD_MAGIC &&
	     seen.size[0] == sizeof(struct fpsimd_context) &&
	     seen.offset[0] == 0 &&
	     (!sve || (seen.magic[1] == SVE_MAGIC && seen.size[1] == 16)) &&
	     seen.magic[1 + sve] == 0 && seen.size[1 + sve] == 0;
	ktap_result(ok, "records_fpsimd_then_null",
		    "%s; %d records, first %#x/%u, last %#x/%u (SVE %d)",
		    (const char *)seen.why,
		    seen.nrec, seen.magic[0], seen.size[0],
		    seen.magic[seen.nrec ? seen.nrec - 1 : 0],
		    seen.size[seen.nrec ? seen.nrec - 1 : 0], sve);
}

struct kernel_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask;
};

static void restorer_handler(int sig, siginfo_t *si, void *uc)
{
	seen.called++;
	seen.x30 = entry.x30;
}

static void check_restorer(void)
{
	struct kernel_sigaction ka = {
		.handler = entry_stub,
		.flags = SA_SIGINFO | SA_RESTORER,
		.restorer = test_restorer,
	};
	long r;

	memset((void *)&seen, 0, sizeof(seen));
	entry_target = restorer_handler;
	r = syscall(SYS_rt_sigaction, SIGUSR2, &ka, NULL, 8);
	raise(SIGUSR2);
	ktap_result(!r && seen.called == 1 &&
		    seen.x30 == (unsigned long)test_restorer &&
		    restorer_hits == 1, "sa_restorer",
		    "rt_sigaction=%ld called=%d x30=%#lx restorer=%p hits=%lu",
		    r, seen.called, seen.x30, test_restorer, restorer_hits);
	signal(SIGUSR2, SIG_DFL);
}

/*
 * No kernel bytes: frames built on an alternate stack filled with
 * FILL_BYTE, checked by frame_check() from inside the handler, with and
 * without SA_SIGINFO and with the ESR record a fault adds.
 */
static unsigned char altstack[65536] __attribute__((aligned(16)));
static volatile int nk_calls, nk_esr;
static struct frame_report nk;

static void nk_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned int i;

	nk_calls++;
	frame_check(&nk, (void *)entry.sp, (void *)entry.x29,
		    sig != SIGUSR2);
	for (i = 0; i < nk.nrec; i++)
		nk_esr |= nk.magic[i] == ESR_MAGIC;
	if (sig == SIGSEGV)
		uc->uc_mcontext.pc += 4;	/* past the faulting load */
}

static void fault_once(void)
{
	/* one 4-byte load from an unmapped address */
	asm volatile("mov x9, #8\n\tldr x9, [x9]" : : : "x9", "memory");
}

static void check_no_kernel_bytes(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_sigaction = entry_stub,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	static const struct {
		const char *name;
		int sig;
	} cases[] = {
		{ "no_kernel_bytes_siginfo", SIGUSR1 },
		{ "no_kernel_bytes_no_siginfo", SIGUSR2 },
		{ "no_kernel_bytes_fault", SIGSEGV },
	};
	unsigned int i;

	if (sigaltstack(&ss, NULL)) {
		for (i = 0; i < 3; i++)
			ktap_skip(cases[i].name, "sigaltstack failed");
		return;
	}
	entry_target = nk_handler;
	for (i = 0; i < 3; i++) {
		sa.sa_flags = SA_ONSTACK | (cases[i].sig == SIGUSR2 ? 0 :
					    SA_SIGINFO);
		sigaction(cases[i].sig, &sa, NULL);
		nk_calls = 0;
		nk_esr = 0;
		memset(altstack, FILL_BYTE, sizeof(altstack));
		if (cases[i].sig == SIGSEGV)
			fault_once();
		else
			raise(cases[i].sig);
		ktap_result(nk_calls == 1 && !nk.bad && !nk.reserved_bad &&
			    (cases[i].sig != SIGSEGV || nk_esr),
			    cases[i].name,
			    "handler ran %d times, %lu bad bytes, first at sp+%#lx: %s; %lu reserved bytes not zero (%s); ESR record %d",
			    nk_calls, nk.bad, nk.first, nk.why,
			    nk.reserved_bad, nk.why_reserved, nk_esr);
		signal(cases[i].sig, SIG_DFL);
	}

	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void check_minsigstksz(void)
{
	unsigned long at = getauxval(AT_MINSIGSTKSZ);
	unsigned long span = seen.x29 + 16 - seen.sp;

	/*
	 * the frame of check_layout(), taken by a task that never faulted;
	 * with SVE the largest vector length may take it past MINSIGSTKSZ
	 */
	ktap_result(at && at >= span + 16 &&
		    (at <= KERNEL_MINSIGSTKSZ || (getauxval(AT_HWCAP) & HWCAP_SVE)),
		    "at_minsigstksz",
		    "AT_MINSIGSTKSZ=%lu, frame+record=%lu, MINSIGSTKSZ=%d",
		    at, span, KERNEL_MINSIGSTKSZ);
}

int main(void)
{
	ktap_plan(11);
	find_vdso();
	check_layout();
	check_minsigstksz();
	check_restorer();
	check_no_kernel_bytes();
	return ktap_finish();
}
