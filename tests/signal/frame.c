// SPDX-License-Identifier: GPL-2.0-only
/*
 * The native signal frame as a handler sees it: registers on entry, the
 * record list in __reserved[], the frame record for unwinders, the
 * return trampoline, AT_MINSIGSTKSZ, and no stale bytes in the frame.
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

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

/* the uapi MINSIGSTKSZ; glibc's may be a sysconf() call */
#define KERNEL_MINSIGSTKSZ 5120

#define PATTERN	0xa5a5a5a5a5a5a5a5UL

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
	int ok;

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

	/* A task that never faulted: FPSIMD, then the null record. */
	ok = !seen.bad_walk && seen.nrec == 2 &&
	     seen.magic[0] == FPSIMD_MAGIC &&
	     seen.size[0] == sizeof(struct fpsimd_context) &&
	     seen.offset[0] == 0 && seen.magic[1] == 0 && seen.size[1] == 0;
	ktap_result(ok, "records_fpsimd_then_null",
		    "%s; %d records, first %#x/%u, last %#x/%u",
		    (const char *)seen.why,
		    seen.nrec, seen.magic[0], seen.size[0],
		    seen.magic[seen.nrec ? seen.nrec - 1 : 0],
		    seen.size[seen.nrec ? seen.nrec - 1 : 0]);
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
 * Stale bytes: the frame is built on an alternate stack filled with a
 * pattern; no pattern may survive anywhere in it outside the registers
 * (which belong to the interrupted code).
 */
static unsigned long altstack_words[8192];

static volatile struct {
	int called;
	unsigned long sp, x29, fp_lo, fp_hi, regs_lo, regs_hi;
	unsigned long stale, first_stale;
	unsigned long nonzero, first_nonzero;
} zs;

static int in_range(unsigned long a, unsigned long lo, unsigned long hi)
{
	return a >= lo && a < hi;
}

static void zero_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long a, end = entry.x29 + 16;

	zs.called++;
	zs.sp = entry.sp;
	zs.x29 = entry.x29;
	zs.regs_lo = (unsigned long)&uc->uc_mcontext.regs[0];
	zs.regs_hi = (unsigned long)&uc->uc_mcontext.pstate + 8;
	/* the V registers in the FPSIMD record are also the task's own */
	zs.fp_lo = (unsigned long)uc->uc_mcontext.__reserved + 16;
	zs.fp_hi = zs.fp_lo + 512;
	for (a = zs.sp; a < end; a += 8) {
		if (in_range(a, zs.regs_lo, zs.regs_hi) ||
		    in_range(a, zs.fp_lo, zs.fp_hi))
			continue;
		if (*(unsigned long *)a == PATTERN && !zs.stale++)
			zs.first_stale = a - zs.sp;
	}
}

/* Bytes of the frame that carry no meaning must read as zero. */
static unsigned long count_nonzero(const void *p, size_t len)
{
	const unsigned char *c = p;
	unsigned long n = 0;

	while (len--)
		n += *c++ != 0;
	return n;
}

static volatile struct {
	int called;
	unsigned long pad_stack, pad_mask, pad_mc, tail, info;
} zz;

static void zero_fields_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned char *resv = uc->uc_mcontext.__reserved;
	size_t off = 0;

	zz.called++;
	/* stack_t padding after ss_flags */
	zz.pad_stack = count_nonzero((char *)&uc->uc_stack.ss_flags + 4, 4);
	/* glibc's 1024-bit sigset_t beyond the kernel's 64 bits */
	zz.pad_mask = count_nonzero((char *)&uc->uc_sigmask + 8,
				    sizeof(uc->uc_sigmask) - 8);
	/* between pstate and __reserved[] */
	zz.pad_mc = count_nonzero((char *)&uc->uc_mcontext.pstate + 8,
				  (char *)resv -
				  ((char *)&uc->uc_mcontext.pstate + 8));
	while (off + 8 <= 4096) {
		struct _aarch64_ctx *h = (void *)(resv + off);

		if (!h->magic || h->size < 8)
			break;
		off += h->size;
	}
	/* the null record and everything after it */
	zz.tail = off < 4096 ? count_nonzero(resv + off, 4096 - off) : 1;
}

static void plain_handler(int sig)
{
	zz.called++;
	/* no SA_SIGINFO: the siginfo slot at the base of the frame */
	zz.info = count_nonzero((void *)entry.sp, sizeof(siginfo_t));
}

static void fill_altstack(void)
{
	volatile unsigned long *w = altstack_words;
	size_t i;

	for (i = 0; i < sizeof(altstack_words) / 8; i++)
		w[i] = PATTERN;
}

static void check_zeroed(void)
{
	stack_t ss = { .ss_sp = altstack_words,
		       .ss_size = sizeof(altstack_words) };
	struct sigaction sa = { .sa_sigaction = entry_stub,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };

	if (sigaltstack(&ss, NULL)) {
		ktap_skip("no_stale_bytes", "sigaltstack failed");
		ktap_skip("unused_fields_zero", "sigaltstack failed");
		ktap_skip("siginfo_zero_without_sa_siginfo",
			  "sigaltstack failed");
		return;
	}

	fill_altstack();
	entry_target = zero_handler;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	ktap_result(zs.called == 1 && !zs.stale, "no_stale_bytes",
		    "%lu pattern words in the frame, first at sp+%#lx",
		    zs.stale, zs.first_stale);

	fill_altstack();
	entry_target = zero_fields_handler;
	raise(SIGUSR1);
	ktap_result(zz.called == 1 && !zz.pad_stack && !zz.pad_mask &&
		    !zz.pad_mc && !zz.tail, "unused_fields_zero",
		    "non-zero bytes: uc_stack pad %lu, sigmask tail %lu, mcontext pad %lu, __reserved tail %lu",
		    zz.pad_stack, zz.pad_mask, zz.pad_mc, zz.tail);

	fill_altstack();
	sa.sa_handler = (void (*)(int))entry_stub;
	sa.sa_flags = SA_ONSTACK;
	entry_target = (void (*)(int, siginfo_t *, void *))plain_handler;
	zz.called = 0;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	ktap_result(zz.called == 1 && !zz.info,
		    "siginfo_zero_without_sa_siginfo",
		    "handler ran %d times, %lu non-zero bytes in the siginfo slot",
		    zz.called, zz.info);

	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	signal(SIGUSR1, SIG_DFL);
}

static void check_minsigstksz(void)
{
	unsigned long at = getauxval(AT_MINSIGSTKSZ);
	unsigned long span = seen.x29 + 16 - seen.sp;

	/* the frame of check_layout(), taken by a task that never faulted */
	ktap_result(at && at >= span + 16 && at <= KERNEL_MINSIGSTKSZ,
		    "at_minsigstksz",
		    "AT_MINSIGSTKSZ=%lu, frame+record=%lu, MINSIGSTKSZ=%d",
		    at, span, KERNEL_MINSIGSTKSZ);
}

int main(void)
{
	ktap_plan(10);
	find_vdso();
	check_layout();
	check_minsigstksz();
	check_restorer();
	check_zeroed();
	return ktap_finish();
}
