// SPDX-License-Identifier: GPL-2.0-only
/*
 * No kernel bytes in signal frames.  Before each signal, system calls that
 * copy user data onto the kernel stack fill it with a pattern: the fd sets
 * of pselect6, the pollfds of ppoll, the iovecs of writev, the address and
 * control buffer of sendmsg, the address of connect, the attributes of
 * perf_event_open and sched_setattr (each fails after the copy, leaving the
 * pattern behind).  Then the signal comes: on the way out of a system call
 * that unblocks it, from an undefined instruction, from an alignment
 * fault (64-bit: the frame gets an ESR record), or from a timer interrupt;
 * with and without SA_SIGINFO, on the stack or the alternate stack; in
 * 64-bit frames also with SVE live at a random vector length, in AArch32
 * ones with ARM and Thumb handlers.  The handler reads its whole frame:
 * no 4-byte word of it may hold the pattern, except the registers it saves
 * (user values by definition).  The memory the frame lands on is filled
 * with another pattern first, so that stale user bytes (which stock
 * leaves) are told apart from kernel ones.
 */
#include "../stress/stress.h"

#include <pthread.h>
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <ucontext.h>

#define KPAT	0xa5c35a3cU	/* what the fillers leave on the kernel stack */
#define UPAT	0x6e6e6e6eU	/* what the frame lands on: stale user bytes */
#define ALT_SIZE	(64 << 10)

static unsigned char altstack[ALT_SIZE] __attribute__((aligned(16)));
static uint64_t rs;

enum { T_SYSCALL, T_UDF, T_BUS, T_TIMER, NR_T };
static const char *const trig_names[NR_T] = { "syscall", "udf", "bus", "timer" };

/* One trial's choices. */
static struct {
	int siginfo, onstack, trigger, sve, thumb;
	unsigned int vl;
} tr;

/* What the handler found. */
static volatile struct {
	int called;
	uint32_t size;		/* bytes scanned */
	uint32_t kernel;	/* words holding KPAT */
	int32_t first;		/* offset of the first one */
	const char *field;
	uint32_t stale;		/* words holding UPAT */
} seen;

static volatile int timer_fired;

/* ---- the fillers */
static uint32_t pat_buf[1024] __attribute__((aligned(16)));
static int sock[2], devnull;

static void fill_kernel_stack(void)
{
	struct iovec iov[8];
	struct msghdr msg;
	struct timespec zero = { 0, 0 };
	int order[7], i, j;

	for (i = 0; i < 7; i++)
		order[i] = i;
	for (i = 6; i > 0; i--) {
		int k = rnd_below(&rs, i + 1), t = order[i];

		order[i] = order[k];
		order[k] = t;
	}
	for (j = 0; j < 7; j++) {
		switch (order[j]) {
		case 0:	/* three fd_sets of 320 bits, copied to stack_fds */
			syscall(SYS_pselect6, 320, pat_buf, pat_buf + 16,
				pat_buf + 32, &zero, NULL);
			break;
		case 1:	/* 30 pollfds, copied to stack_pps */
			syscall(SYS_ppoll, pat_buf, 30, &zero, NULL, 8);
			break;
		case 2:	/* 8 iovecs, copied to iovstack */
			for (i = 0; i < 8; i++) {
				iov[i].iov_base = (void *)(uintptr_t)(KPAT * 0x100000001ULL);
				iov[i].iov_len = (size_t)(KPAT * 0x100000001ULL);
			}
			syscall(SYS_writev, devnull, iov, 8);
			break;
		case 3:	/* a 128-byte address and a 36-byte control buffer */
			memset(&msg, 0, sizeof(msg));
			msg.msg_name = pat_buf;
			msg.msg_namelen = 128;
			msg.msg_control = pat_buf + 64;
			msg.msg_controllen = 36;
			iov[0].iov_base = pat_buf;
			iov[0].iov_len = 4;
			msg.msg_iov = iov;
			msg.msg_iovlen = 1;
			syscall(SYS_sendmsg, sock[0], &msg, 0);
			break;
		case 4:
			syscall(SYS_connect, sock[0], pat_buf, 110);
			break;
		case 5: {	/* perf_event_attr: a valid size, the rest pattern */
			uint32_t attr[32];

			for (i = 0; i < 32; i++)
				attr[i] = KPAT;
			attr[1] = 128;
			syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
			break;
		}
		default: {	/* sched_attr: a valid size, the rest pattern */
			uint32_t attr[14];

			for (i = 0; i < 14; i++)
				attr[i] = KPAT;
			attr[0] = 56;
			syscall(SYS_sched_setattr, 0, attr, 0);
			break;
		}
		}
	}
}

/* Stale user bytes where a frame on the stack will land. */
static void __attribute__((noinline)) prefill_stack(void)
{
	volatile uint32_t below[8192];
	size_t i;

	for (i = 0; i < sizeof(below) / 4; i++)
		below[i] = UPAT;
}

/* ---- the scan, in the handler */
struct skip {
	uintptr_t lo, hi;
	const char *what;
};

static struct skip skips[8];
static int nskips;

static void skip_range(uintptr_t lo, uintptr_t len, const char *what)
{
	if (nskips < 8) {
		skips[nskips].lo = lo;
		skips[nskips].hi = lo + len;
		skips[nskips].what = what;
		nskips++;
	}
}

static const char *field_name(uintptr_t base, uintptr_t a);

static void scan(uintptr_t lo, uintptr_t hi)
{
	uintptr_t a;
	int i;

	seen.size = hi - lo;
	for (a = lo; a + 4 <= hi; a += 4) {
		uint32_t w = *(volatile uint32_t *)a;

		for (i = 0; i < nskips; i++)
			if (a >= skips[i].lo && a < skips[i].hi)
				break;
		if (i < nskips)
			continue;
		if (w == KPAT) {
			if (!seen.kernel++) {
				seen.first = a - lo;
				seen.field = field_name(lo, a);
			}
		} else if (w == UPAT) {
			seen.stale++;
		}
	}
}

#ifdef __aarch64__
#include <asm/sigcontext.h>
#define HWCAP_SVE_	(1 << 22)
#define PR_SVE_SET_VL_	50

static int have_sve;
static unsigned int vls[16], nvl;
volatile uint64_t entry_sp, entry_fp;
volatile uint32_t flag_word;

void kb_entry(int, siginfo_t *, void *);
void kb_handler(int, siginfo_t *, void *);
void fire_syscall(const uint64_t *unblock);
void fire_udf(int sve);
void fire_bus(int sve, uintptr_t misaligned);
void fire_spin(int sve, volatile uint32_t *flag);

asm(".text\n"
    ".arch_extension sve\n"
    ".globl kb_entry\n.type kb_entry, %function\n"
    "kb_entry:\n"
    "	adrp	x9, entry_sp\n"
    "	mov	x10, sp\n"
    "	str	x10, [x9, :lo12:entry_sp]\n"
    "	adrp	x9, entry_fp\n"
    "	str	x29, [x9, :lo12:entry_fp]\n"
    "	b	kb_handler\n"
    /* rt_sigprocmask(SIG_UNBLOCK, x0, NULL, 8): the signal comes on its way out */
    ".globl fire_syscall\n.type fire_syscall, %function\n"
    "fire_syscall:\n"
    "	mov	x1, x0\n"
    "	mov	x0, #1\n"
    "	mov	x2, #0\n"
    "	mov	x3, #8\n"
    "	mov	x8, #135\n"
    "	svc	#0\n"
    "	ret\n"
    ".globl fire_udf\n.type fire_udf, %function\n"
    "fire_udf:\n"
    "	cbz	w0, 1f\n"
    "	dup	z0.b, #0x11\n"		/* SVE live from here */
    "1:	udf	#0\n"
    "	ret\n"
    ".globl fire_bus\n.type fire_bus, %function\n"
    "fire_bus:\n"
    "	cbz	w0, 1f\n"
    "	dup	z0.b, #0x22\n"
    "1:	ldxr	w9, [x1]\n"
    "	ret\n"
    ".globl fire_spin\n.type fire_spin, %function\n"
    "fire_spin:\n"
    "	cbz	w0, 1f\n"
    "	dup	z0.b, #0x33\n"
    "1:	ldr	w9, [x1]\n"
    "	cbz	w9, 1b\n"
    "	ret\n");

static const char *field_name(uintptr_t base, uintptr_t a)
{
	uintptr_t off = a - base;

	if (off < sizeof(siginfo_t))
		return "siginfo";
	off -= sizeof(siginfo_t);
	if (off < offsetof(ucontext_t, uc_mcontext))
		return "ucontext head (flags, link, stack, mask)";
	if (off < offsetof(ucontext_t, uc_mcontext.__reserved))
		return "sigcontext (fault_address, padding)";
	if (off < sizeof(ucontext_t))
		return "__reserved[] records";
	return "extra space or frame record";
}

void kb_handler(int sig, siginfo_t *si, void *ucv)
{
	uintptr_t base = entry_sp, end = entry_fp + 16;
	ucontext_t *uc = (ucontext_t *)(base + sizeof(siginfo_t));
	uintptr_t at = (uintptr_t)uc->uc_mcontext.__reserved, stop = at + 4096;

	seen.called++;
	nskips = 0;
	skip_range((uintptr_t)&uc->uc_mcontext.regs, 8 * 34, "registers");
	skip_range(entry_fp, 16, "frame record");
	while (at + 8 <= stop) {
		struct _aarch64_ctx *h = (void *)at;

		if (!h->magic || h->size < 16 || h->size > stop - at)
			break;
		if (h->magic == FPSIMD_MAGIC)
			skip_range(at + 16, 512, "V registers");
		else if (h->magic == SVE_MAGIC && h->size > 16)
			skip_range(at + 16, h->size - 16, "SVE registers");
		if (h->magic == EXTRA_MAGIC) {
			struct extra_context *x = (void *)h;

			at = x->datap;
			stop = at + x->size;
			continue;
		}
		at += h->size;
	}
	if (end > base && end - base < (1 << 20))
		scan(base, end);
	if (sig == SIGILL || sig == SIGBUS)
		uc->uc_mcontext.pc += 4;
	if (sig == SIGALRM)
		flag_word = 1;
}

static void abi_setup(void)
{
	unsigned int vq;

	have_sve = !!(getauxval(AT_HWCAP) & HWCAP_SVE_);
	for (vq = 1; have_sve && vq <= 16; vq++) {
		long r = prctl(PR_SVE_SET_VL_, vq * 16);

		if (r >= 0 && (r & 0xffff) == vq * 16)
			vls[nvl++] = vq * 16;
	}
	if (!nvl)
		have_sve = 0;
}

static void choose_abi(void)
{
	tr.sve = have_sve && tr.trigger != T_SYSCALL && rnd_chance(&rs, 1, 2);
	if (tr.sve) {
		tr.vl = vls[rnd_below(&rs, nvl)];
		prctl(PR_SVE_SET_VL_, tr.vl);
	}
}

static void *handler_address(void)
{
	return (void *)kb_entry;
}

static void fire(const uint64_t *unblock)
{
	static uint32_t scratch[4];

	switch (tr.trigger) {
	case T_SYSCALL:
		fire_syscall(unblock);
		break;
	case T_UDF:
		fire_udf(tr.sve);
		break;
	case T_BUS:
		fire_bus(tr.sve, (uintptr_t)scratch + 1);
		break;
	default:
		fire_spin(tr.sve, &flag_word);
		break;
	}
}

#define CLASS5		"no_kernel_bytes_sve_live"
#define CLASS5_SKIP	(!have_sve)
#define CLASS5_WHY	"the CPU has no SVE"
#define IN_CLASS5	(tr.sve)

#else /* AArch32 */

volatile uint32_t entry_sp;
volatile uint32_t flag_word;

void kb_entry_arm(int);
void kb_entry_thumb(int);
void kb_handler(int sig);
void fire_syscall(const uint64_t *unblock);
void fire_udf(void);
void fire_spin(volatile uint32_t *flag);

#define ENTRY32				\
	"	ldr	r3, =entry_sp\n"	\
	"	str	sp, [r3]\n"		\
	"	ldr	r3, =kb_handler\n"	\
	"	bx	r3\n"			\
	"	.ltorg\n"

asm(".pushsection .text\n"
    ".syntax unified\n"
    ".arm\n"
    ".balign 4\n"
    ".globl kb_entry_arm\n.type kb_entry_arm, %function\n"
    "kb_entry_arm:\n" ENTRY32
    ".thumb\n"
    ".balign 4\n"
    ".globl kb_entry_thumb\n.type kb_entry_thumb, %function\n"
    ".thumb_func\n"
    "kb_entry_thumb:\n" ENTRY32
    ".globl fire_syscall\n.type fire_syscall, %function\n"
    ".thumb_func\n"
    "fire_syscall:\n"
    "	push	{r7, lr}\n"
    "	mov	r1, r0\n"
    "	movs	r0, #1\n"
    "	movs	r2, #0\n"
    "	movs	r3, #8\n"
    "	movs	r7, #175\n"		/* rt_sigprocmask */
    "	svc	#0\n"
    "	pop	{r7, pc}\n"
    ".globl fire_udf\n.type fire_udf, %function\n"
    ".thumb_func\n"
    "fire_udf:\n"
    "	udf	#0\n"
    "	bx	lr\n"
    ".globl fire_spin\n.type fire_spin, %function\n"
    ".thumb_func\n"
    "fire_spin:\n"
    "1:	ldr	r1, [r0]\n"
    "	cmp	r1, #0\n"
    "	beq	1b\n"
    "	bx	lr\n"
#ifndef __thumb__
    ".arm\n"
#endif
    ".popsection\n");

#define UC_SIZE		744
#define INFO_SIZE	128
#define RESV_OFF	232

static const char *field_name(uintptr_t base, uintptr_t a)
{
	uintptr_t off = a - base;

	if (tr.siginfo) {
		if (off < INFO_SIZE)
			return "siginfo";
		off -= INFO_SIZE;
	}
	if (off < 20)
		return "ucontext head (flags, link, stack)";
	if (off < 20 + 84)
		return "sigcontext (trap_no, error_code, oldmask, fault_address)";
	if (off < RESV_OFF)
		return "signal mask and its padding";
	if (off < RESV_OFF + 288)
		return "VFP record (header, FPSCR, FPEXC, FPINST)";
	if (off < UC_SIZE)
		return "uc_regspace after the VFP record";
	return "retcode";
}

void kb_handler(int sig)
{
	uintptr_t base = entry_sp;
	uintptr_t uc = base + (tr.siginfo ? INFO_SIZE : 0);
	uint32_t *pc = (uint32_t *)(uc + 20 + 4 * 18);

	seen.called++;
	nskips = 0;
	skip_range(uc + 20 + 12, 4 * 16, "registers r0-r15");
	skip_range(uc + RESV_OFF + 8, 256, "d0-d31");
	scan(base, uc + UC_SIZE + 8);
	if (sig == SIGILL)
		*pc += 2;	/* fire_udf is Thumb: udf is 2 bytes */
	if (sig == SIGALRM)
		flag_word = 1;
}

static void abi_setup(void)
{
}

static void choose_abi(void)
{
	if (tr.trigger == T_BUS)
		tr.trigger = T_UDF;
	tr.thumb = rnd_chance(&rs, 1, 2);
}

static void *handler_address(void)
{
	return tr.thumb ? (void *)((uintptr_t)kb_entry_thumb | 1) :
			  (void *)((uintptr_t)kb_entry_arm & ~1U);
}

static void fire(const uint64_t *unblock)
{
	switch (tr.trigger) {
	case T_SYSCALL:
		fire_syscall(unblock);
		break;
	case T_UDF:
		fire_udf();
		break;
	default:
		fire_spin(&flag_word);
		break;
	}
}

#define CLASS5		"no_kernel_bytes_thumb_handler"
#define CLASS5_SKIP	0
#define CLASS5_WHY	""
#define IN_CLASS5	(tr.thumb)

#endif

static const char *const names[] = {
	"no_kernel_bytes_sa_siginfo_stack",
	"no_kernel_bytes_sa_siginfo_altstack",
	"no_kernel_bytes_plain_stack",
	"no_kernel_bytes_plain_altstack",
	CLASS5,
	"kernel_not_tainted",
};

/* The frame classes: the four of signal delivery, then this ABI's fifth. */
#define NCLASS	5
static struct {
	uint64_t trials, leaks, stale, lost;
} cls[NCLASS];

/* The fifth class, when this CPU cannot make its frames. */
static int class_skipped(int i)
{
	return i == NCLASS - 1 && CLASS5_SKIP;
}

static struct stress_fails leaks = { "kernel bytes in a frame", 0, 5 };
static struct stress_fails lost = { "signal not delivered", 0, 5 };

static void trial(uint64_t seed, int loud)
{
	struct sigaction sa;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	uint64_t unblock = 0;
	sigset_t block;
	timer_t timer;
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct itimerspec its = { .it_value = { 0, 300 * 1000 } };
	int sig, c, i;

	rs = seed;
	memset(&tr, 0, sizeof(tr));
	tr.siginfo = rnd_chance(&rs, 1, 2);
	tr.onstack = rnd_chance(&rs, 1, 2);
	tr.trigger = rnd_below(&rs, NR_T);
	choose_abi();
	sig = tr.trigger == T_SYSCALL ? SIGUSR1 : tr.trigger == T_UDF ? SIGILL :
	      tr.trigger == T_BUS ? SIGBUS : SIGALRM;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (void (*)(int))handler_address();
	sa.sa_flags = (tr.siginfo ? SA_SIGINFO : 0) | (tr.onstack ? SA_ONSTACK : 0);
	sigfillset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	if (tr.onstack) {
		sigaltstack(&ss, NULL);
		for (i = 0; i < ALT_SIZE / 4; i++)
			((volatile uint32_t *)altstack)[i] = UPAT;
	}
	memset((void *)&seen, 0, sizeof(seen));

	sigemptyset(&block);
	sigaddset(&block, sig);
	if (tr.trigger == T_SYSCALL) {
		sigprocmask(SIG_BLOCK, &block, NULL);
		raise(sig);
		unblock = 1ULL << (sig - 1);
	} else if (tr.trigger == T_TIMER) {
		if (timer_create(CLOCK_MONOTONIC, &sev, &timer)) {
			stress_fail(&lost, seed, "timer_create: %s", strerror(errno));
			return;
		}
	}
	for (i = 0; i < 1024; i++)
		pat_buf[i] = KPAT;
	fill_kernel_stack();
	prefill_stack();
	if (tr.trigger == T_TIMER) {
		/* cleared before arming: the timer may fire before fire() */
		flag_word = 0;
		timer_settime(timer, 0, &its, NULL);
	}
	fire(&unblock);

	if (tr.trigger == T_TIMER)
		timer_delete(timer);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	signal(sig, SIG_DFL);
	if (tr.onstack) {
		ss.ss_flags = SS_DISABLE;
		sigaltstack(&ss, NULL);
	}

	c = (tr.siginfo ? 0 : 2) + tr.onstack;
	for (i = 0; i < NCLASS; i++) {
		if (i != c && !(i == NCLASS - 1 && IN_CLASS5))
			continue;
		cls[i].trials++;
		cls[i].stale += seen.stale;
		if (seen.called != 1)
			cls[i].lost++;
		if (seen.kernel)
			cls[i].leaks++;
	}
	if (seen.called != 1)
		stress_fail(&lost, seed, "handler ran %d times (trigger %s)",
			    seen.called, trig_names[tr.trigger]);
	if (seen.kernel)
		stress_fail(&leaks, seed,
			    "%u words of %u bytes, first at +%d (%s); trigger %s, %s, %s%s",
			    seen.kernel, seen.size, seen.first, seen.field,
			    trig_names[tr.trigger], tr.siginfo ? "SA_SIGINFO" : "plain",
			    tr.onstack ? "alternate stack" : "stack",
			    tr.sve ? ", SVE live" : tr.thumb ? ", Thumb handler" : "");
	if (loud)
		printf("# trial 0x%016" PRIx64 ": trigger %s, %s, %s%s: %u kernel words, %u stale user words in %u bytes\n",
		       seed, trig_names[tr.trigger], tr.siginfo ? "SA_SIGINFO" : "plain",
		       tr.onstack ? "alternate stack" : "stack",
		       tr.sve ? ", SVE live" : tr.thumb ? ", Thumb handler" : "",
		       seen.kernel, seen.stale, seen.size);
}

/* Every class has had a frame: a short run (DIVISOR=) must still check each. */
static int every_class_tried(void)
{
	int i;

	for (i = 0; i < NCLASS; i++)
		if (!cls[i].trials && !class_skipped(i))
			return 0;
	return 1;
}

int main(void)
{
	uint64_t n = 0, stale = 0;
	int i;

	ktap_plan(6);
	stress_init("kbytes");
	if (stress.replay_other)
		return stress_skip_all(names, 6);
	abi_setup();
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0 || socketpair(AF_UNIX, SOCK_DGRAM, 0, sock)) {
		ktap_diag("setup: %s", strerror(errno));
		return 1;
	}
	stress_taint_start();

	if (stress.replay) {
		trial(stress.replay_seed, 1);
	} else {
		do
			trial(stress_case_seed(n++), 0);
		while (stress_more(n) || (!every_class_tried() && n < 1000));
	}

	for (i = 0; i < NCLASS; i++)
		stale += cls[i].stale;
	ktap_diag("%s/kbytes: %" PRIu64 " frames, seed 0x%016" PRIx64
		  "; stale user-stack words seen in frames: %" PRIu64,
		  STRESS_ABI, n, stress.seed, stale);
	for (i = 0; i < NCLASS; i++) {
		if (class_skipped(i)) {
			ktap_skip(names[i], CLASS5_WHY);
			continue;
		}
		ktap_result(cls[i].trials && !cls[i].leaks && !cls[i].lost, names[i],
			    "%" PRIu64 " of %" PRIu64 " frames held kernel bytes, %" PRIu64
			    " signals lost", cls[i].leaks, cls[i].trials, cls[i].lost);
	}
	stress_taint_result(names[5]);
	return ktap_finish();
}
