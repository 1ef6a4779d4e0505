/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AArch32 half of the sigreturn fuzzer (see sigreturn.c).
 *
 * A case, in its own child:
 *  1. a stub, in ARM or in Thumb state, loads a random state into r0-r14,
 *     the flags (NZCVQ, GE), d0-d31 and FPSCR, and raises a signal without
 *     touching it: an undefined instruction (SIGILL) or a spin that a
 *     timer interrupts (SIGALRM, delivered from an interrupt);
 *  2. the handler, itself ARM or Thumb code, with or without SA_SIGINFO
 *     (so the kernel's ARM or Thumb, sigreturn or rt_sigreturn trampoline
 *     returns from it), checks that the frame holds that state, then edits
 *     it as the case's seed says: register values, CPSR mode bits, T, E,
 *     IT, A/I/F, J, GE, the VFP record's magic, size and contents, the
 *     bytes after it, the signal mask, uc_stack, the other fields, the
 *     frame moved (misaligned, across an unmapped page, into the vectors
 *     page), or returned through the other call (a rt frame through
 *     sigreturn, a plain one through rt_sigreturn);
 *  3. a model of the ABI (stock 6.1's compat_restore_sigframe) says
 *     whether the frame must be taken, must be refused, or may be either,
 *     and what state it asks for;
 *  4. sigreturn; a taken frame resumes in the ARM or Thumb landing that
 *     its T bit asks for, which stores every register and stops at a
 *     BKPT: the SIGTRAP handler checks user mode, A/I/F clear, T, E and
 *     the flags, and every register against the model.
 */
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <ucontext.h>

#define HWCAP_NEON_	(1 << 12)
#define HWCAP_VFPD32_	(1 << 19)

#define VFP_MAGIC	0x56465001
#define VFP_SIZE	288
#define FPSCR_STAT	0xf800009fU
#define FPSCR_CTRL	0x07f79f00U

#define CPSR_MODE	0x1fU
#define CPSR_USR	0x10U
#define CPSR_T		(1U << 5)
#define CPSR_F		(1U << 6)
#define CPSR_I		(1U << 7)
#define CPSR_A		(1U << 8)
#define CPSR_E		(1U << 9)
#define CPSR_IT		((0x3fU << 10) | (3U << 25))
#define CPSR_GE		(0xfU << 16)
#define CPSR_IL		(1U << 20)
#define CPSR_J		(1U << 24)
#define CPSR_FLAGS	0xf8000000U	/* NZCVQ */

#define GUARD		(64 << 10)
#define TSTACK_SIZE	(128 << 10)
#define ALT_SIZE	(32 << 10)
#define RELOC_SIZE	(128 << 10)
#define UC_SIZE		744		/* struct compat_ucontext */
#define INFO_SIZE	128
#define RESV_OFF	232		/* uc_regspace[] in the ucontext */
#define MASK_OFF	104		/* uc_sigmask */
#define MC_OFF		20		/* uc_mcontext */
#define UC_STACK_OFF	8		/* uc_stack */
#define CPSR_OFF	(MC_OFF + 4 * 19)
#define PC_OFF		(MC_OFF + 4 * 18)
#define REG_OFF(n)	(MC_OFF + 4 * (3 + (n)))	/* r0-r15 */

_Static_assert(offsetof(ucontext_t, uc_regspace) == RESV_OFF, "layout");
_Static_assert(offsetof(ucontext_t, uc_sigmask) == MASK_OFF, "layout");
_Static_assert(offsetof(ucontext_t, uc_mcontext) == MC_OFF, "layout");

struct regfile32 {
	uint32_t r[15];		/* 0: r0-r12, sp, lr */
	uint32_t apsr;		/* 60 */
	uint32_t fpscr;		/* 64 */
	uint32_t pad;
	uint64_t d[32];		/* 72 */
};

_Static_assert(offsetof(struct regfile32, d) == 72, "asm offsets");

static struct regfile32 start_regs __attribute__((aligned(8)));
struct regfile32 landed_regs __attribute__((aligned(8)));
uint32_t entry_sp;

void trigger_arm(struct regfile32 *);
void trigger_arm_spin(struct regfile32 *);
void trigger_thumb(struct regfile32 *);
void trigger_thumb_spin(struct regfile32 *);
extern char trigger_arm_end[], trigger_arm_spin_end[];
extern char trigger_thumb_end[], trigger_thumb_spin_end[];
extern char landing_arm[], landing_arm_bkpt[];
extern char landing_thumb[], landing_thumb_bkpt[];
void mutate_arm(int);
void mutate_thumb(int);
void on_trigger(int);
void trap_entry(int, siginfo_t *, void *);
void on_landing(int, siginfo_t *, void *);

#define LOAD32					\
	"	add	r1, r0, #72\n"		\
	"	vldmia	r1!, {d0-d15}\n"	\
	"	vldmia	r1, {d16-d31}\n"	\
	"	ldr	r1, [r0, #64]\n"	\
	"	vmsr	fpscr, r1\n"		\
	"	ldr	r1, [r0, #60]\n"	\
	"	msr	APSR_nzcvqg, r1\n"	\
	"	ldr	sp, [r0, #52]\n"	\
	"	ldr	lr, [r0, #56]\n"	\
	"	ldm	r0, {r0-r12}\n"

/*
 * The landing: r0 goes to TPIDRURW while r0 takes the address of
 * landed_regs.  That address comes from movw/movt, not a literal pool:
 * instructions are fetched little-endian whatever CPSR.E says, but a
 * literal is data, and with E set a literal load byte-reverses the
 * address and the first store faults.  The stores themselves are
 * big-endian then, which check_landed() undoes.
 */
#define STORE32(name)					\
	"	nop\n	nop\n	nop\n	nop\n"		\
	"	mcr	p15, 0, r0, c13, c0, 2\n"	\
	"	movw	r0, #:lower16:landed_regs\n"	\
	"	movt	r0, #:upper16:landed_regs\n"	\
	"	str r1, [r0, #4]\n	str r2, [r0, #8]\n"	\
	"	str r3, [r0, #12]\n	str r4, [r0, #16]\n"	\
	"	str r5, [r0, #20]\n	str r6, [r0, #24]\n"	\
	"	str r7, [r0, #28]\n	str r8, [r0, #32]\n"	\
	"	str r9, [r0, #36]\n	str r10, [r0, #40]\n"	\
	"	str r11, [r0, #44]\n	str r12, [r0, #48]\n"	\
	"	str sp, [r0, #52]\n	str lr, [r0, #56]\n"	\
	"	mrc	p15, 0, r1, c13, c0, 2\n"	\
	"	str	r1, [r0]\n"			\
	"	mrs	r1, apsr\n"			\
	"	str	r1, [r0, #60]\n"		\
	"	vmrs	r1, fpscr\n"			\
	"	str	r1, [r0, #64]\n"		\
	"	add	r1, r0, #72\n"			\
	"	vstmia	r1!, {d0-d15}\n"		\
	"	vstmia	r1, {d16-d31}\n"		\
	".globl " name "_bkpt\n"			\
	name "_bkpt:\n"					\
	"	bkpt	#0x42\n"

/*
 * The code a case interrupts may have FPSCR Len or Stride set (writable
 * here).  A 32-bit ARM kernel, and ours, enter a handler with the two
 * clear, as the AAPCS wants them at a call; stock arm64 6.1 enters it
 * with the interrupted FPSCR.  VFP code run with them set is CONSTRAINED
 * UNPREDICTABLE on a CPU without short vectors: QEMU makes VFP
 * data-processing instructions UNDEFINED, and our handlers' C, which has
 * such instructions and runs with SIGILL blocked, died of SIGILL on
 * stock.  So each handler entry clears the two fields before any C, on
 * either kernel (tests/compat/signals.c checks the kernel's part).  The
 * frame holds the interrupted FPSCR whole, and returning through it
 * restores it.
 */
#define FPSCR_FOR_C(reg)				\
	"	vmrs	" reg ", fpscr\n"		\
	"	bic	" reg ", " reg ", #0x00370000\n"	\
	"	vmsr	fpscr, " reg "\n"

/*
 * The handler entry: FPSCR made fit for C, remember sp (the frame),
 * then the C handler.
 */
#define ENTRY32						\
	FPSCR_FOR_C("r3")				\
	"	ldr	r3, =entry_sp\n"		\
	"	str	sp, [r3]\n"			\
	"	ldr	r3, =on_trigger\n"		\
	"	bx	r3\n"				\
	"	.ltorg\n"

asm(".pushsection .text\n"
    ".syntax unified\n"
    ".fpu neon\n"
    ".arm\n"
    ".balign 4\n"
    ".globl trigger_arm\n.type trigger_arm, %function\n"
    "trigger_arm:\n" LOAD32
    ".globl trigger_arm_end\ntrigger_arm_end:\n"
    "	udf	#0\n"
    ".globl trigger_arm_spin\n.type trigger_arm_spin, %function\n"
    "trigger_arm_spin:\n" LOAD32
    ".globl trigger_arm_spin_end\ntrigger_arm_spin_end:\n"
    "	b	trigger_arm_spin_end\n"
    ".globl landing_arm\n.type landing_arm, %function\n"
    "landing_arm:\n" STORE32("landing_arm")
    ".globl mutate_arm\n.type mutate_arm, %function\n"
    "mutate_arm:\n" ENTRY32
    ".globl trap_entry\n.type trap_entry, %function\n"
    "trap_entry:\n"
    FPSCR_FOR_C("ip")
    "	ldr	ip, =on_landing\n"
    "	bx	ip\n"
    "	.ltorg\n"

    ".thumb\n"
    ".balign 4\n"
    ".globl trigger_thumb\n.type trigger_thumb, %function\n"
    ".thumb_func\n"
    "trigger_thumb:\n" LOAD32
    ".globl trigger_thumb_end\ntrigger_thumb_end:\n"
    "	udf	#0\n"
    ".globl trigger_thumb_spin\n.type trigger_thumb_spin, %function\n"
    ".thumb_func\n"
    "trigger_thumb_spin:\n" LOAD32
    ".globl trigger_thumb_spin_end\ntrigger_thumb_spin_end:\n"
    "	b	trigger_thumb_spin_end\n"
    ".balign 4\n"
    ".globl landing_thumb\n.type landing_thumb, %function\n"
    ".thumb_func\n"
    "landing_thumb:\n" STORE32("landing_thumb")
    ".balign 4\n"
    ".globl mutate_thumb\n.type mutate_thumb, %function\n"
    ".thumb_func\n"
    "mutate_thumb:\n" ENTRY32
#ifndef __thumb__
    ".arm\n"
#endif
    ".popsection\n");

/* Addresses without the Thumb bit. */
#define CODE(sym)	((uint32_t)(uintptr_t)(sym) & ~1U)

static struct {
	int d32;
	uint32_t fpscr_mask;
	uint32_t vectors;	/* the [vectors] page, or 0 */
	timer_t timer;
} hw;

static struct {
	uint32_t lo, hi;
} regions[8];
static int nregions;
static unsigned char *tstack, *alt, *alt2, *reloc;
extern char __executable_start[], _end[];

static unsigned char *guarded(size_t size)
{
	unsigned char *p = mmap(NULL, size + 2 * GUARD, PROT_NONE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED ||
	    mprotect(p + GUARD, size, PROT_READ | PROT_WRITE)) {
		ktap_diag("mmap %zu: %s", size, strerror(errno));
		exit(1);
	}
	regions[nregions].lo = (uintptr_t)p + GUARD;
	regions[nregions].hi = (uintptr_t)p + GUARD + size;
	nregions++;
	return p + GUARD;
}

static int mapped(uint64_t a, uint64_t n)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (a >= regions[i].lo && a + n <= regions[i].hi)
			return 1;
	return 0;
}

static void find_vectors(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned int lo, hi;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vectors]") &&
		    sscanf(line, "%x-%x", &lo, &hi) == 2)
			hw.vectors = lo;
	if (f)
		fclose(f);
}

static void fuzz_probe(void)
{
	uint32_t old, v;

	hw.d32 = !!(getauxval(AT_HWCAP) & (HWCAP_NEON_ | HWCAP_VFPD32_));
	asm volatile(".fpu neon\n"
		     "vmrs	%0, fpscr\n"
		     "vmsr	fpscr, %2\n"
		     "vmrs	%1, fpscr\n"
		     "vmsr	fpscr, %0\n"
		     : "=&r"(old), "=&r"(v) : "r"(~0U));
	hw.fpscr_mask = v & (FPSCR_STAT | FPSCR_CTRL);
	find_vectors();
	tstack = guarded(TSTACK_SIZE);
	alt = guarded(ALT_SIZE);
	alt2 = guarded(ALT_SIZE);
	reloc = guarded(RELOC_SIZE);
	regions[nregions].lo = (uintptr_t)__executable_start;
	regions[nregions].hi = (uintptr_t)_end;
	nregions++;
	if (hw.vectors) {
		regions[nregions].lo = hw.vectors;
		regions[nregions].hi = hw.vectors + 4096;
		nregions++;
	}
	ktap_diag("d0-d31 %s, FPSCR mask %#x, [vectors] at %#x",
		  hw.d32 ? "present" : "absent", hw.fpscr_mask, hw.vectors);
}

static int fuzz_has_sve(void)
{
	return 0;
}

/* -- one case, in the child */
static struct fuzz_report *rep;
static uint64_t rs;
static int verbose;
static volatile int phase;
static int trig_thumb, trig_spin, handler_thumb, handler_rt, handler_on_alt;

/* The spin's one-shot timer, and the ticks that came before the spin. */
#define TICK_NS		(200 * 1000)
static struct itimerspec tick = { .it_value = { 0, TICK_NS } };
static int early_ticks;

static struct {
	uint32_t r[15], pc, cpsr, fpscr, vfp_fpscr;
	uint64_t mask, d[32];
	int thumb;
	int pc_faults;
} want;

static uint32_t rd32(uint32_t a)
{
	uint32_t v;

	memcpy(&v, (void *)(uintptr_t)a, 4);
	return v;
}

static void wr32(uint32_t a, uint32_t v)
{
	memcpy((void *)(uintptr_t)a, &v, 4);
}

static void randomize(void *p, size_t n)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = rnd(&rs);
}

static uint32_t gen_value(void)
{
	switch (rnd_below(&rs, 6)) {
	case 0:
		return 0;
	case 1:
		return ~0U;
	case 2:
		return rnd_below(&rs, 4096);
	case 3:
		return (uintptr_t)tstack + rnd_below(&rs, TSTACK_SIZE);
	default:
		return rnd(&rs);
	}
}

/* A sp for the resumed code: it only stores it, never dereferences it. */
static uint32_t gen_sp(void)
{
	switch (rnd_below(&rs, 3)) {
	case 0:
		return (uintptr_t)tstack + TSTACK_SIZE - 8 * rnd_below(&rs, 1024);
	case 1:
		return (uintptr_t)tstack + rnd_below(&rs, TSTACK_SIZE);
	default:
		return rnd(&rs);
	}
}

static uint32_t trigger_pc(void)
{
	if (trig_thumb)
		return CODE(trig_spin ? trigger_thumb_spin_end : trigger_thumb_end);
	return CODE(trig_spin ? trigger_arm_spin_end : trigger_arm_end);
}

static void bad_delivery(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void bad_delivery(const char *fmt, ...)
{
	va_list ap;

	if (rep->delivery_bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(rep->delivery, sizeof(rep->delivery), fmt, ap);
	va_end(ap);
}

static void check_delivery(int sig, uint32_t uc)
{
	uint32_t cpsr = rd32(uc + CPSR_OFF), vfp = uc + RESV_OFF;
	int i;

	for (i = 0; i < 15; i++)
		if (rd32(uc + REG_OFF(i)) != start_regs.r[i]) {
			bad_delivery("r%d %#x, was %#x", i, rd32(uc + REG_OFF(i)),
				     start_regs.r[i]);
			break;
		}
	if (rd32(uc + PC_OFF) != trigger_pc())
		bad_delivery("pc %#x, was %#x", rd32(uc + PC_OFF), trigger_pc());
	if ((cpsr & (CPSR_FLAGS | CPSR_GE)) != (start_regs.apsr & (CPSR_FLAGS | CPSR_GE)) ||
	    (cpsr & CPSR_MODE) != CPSR_USR || !!(cpsr & CPSR_T) != trig_thumb ||
	    (cpsr & (CPSR_A | CPSR_I | CPSR_F | CPSR_E | CPSR_IT)))
		bad_delivery("cpsr %#x, APSR was %#x in %s state", cpsr,
			     start_regs.apsr, trig_thumb ? "Thumb" : "ARM");
	if (rd32(vfp) != VFP_MAGIC || rd32(vfp + 4) != VFP_SIZE) {
		bad_delivery("VFP record %#x/%u", rd32(vfp), rd32(vfp + 4));
		return;
	}
	if (memcmp((void *)(uintptr_t)(vfp + 8), start_regs.d, sizeof(start_regs.d)))
		bad_delivery("d0-d31 in the VFP record differ");
	if (rd32(vfp + 8 + 256) != (start_regs.fpscr & hw.fpscr_mask))
		bad_delivery("FPSCR %#x in the VFP record, was %#x",
			     rd32(vfp + 8 + 256), start_regs.fpscr & hw.fpscr_mask);
	(void)sig;
}

/* -- the model: what stock's compat_restore_sigframe makes of the frame */
static void expect(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void expect(int cls, const char *fmt, ...)
{
	va_list ap;

	if (cls < rep->expect)
		return;
	if (cls > rep->expect)
		rep->expect_why[0] = '\0';
	rep->expect = cls;
	if (rep->expect_why[0])
		NOTE(rep->expect_why, "; ");
	va_start(ap, fmt);
	vsnprintf(rep->expect_why + strlen(rep->expect_why),
		  sizeof(rep->expect_why) - strlen(rep->expect_why), fmt, ap);
	va_end(ap);
}

/* @sp: where sigreturn finds the frame; @rt: through rt_sigreturn */
static void model(uint32_t sp, int rt)
{
	uint32_t uc = sp + (rt ? INFO_SIZE : 0), vfp = uc + RESV_OFF, cpsr, i;

	want.pc_faults = 0;
	if (sp & 7)
		expect(EXPECT_REJECT, "sp %#x not 8-byte aligned", sp);
	/* stock reads r0-r15, CPSR and the mask (and uc_stack for rt) */
	if (!mapped(uc + REG_OFF(0), MASK_OFF + 8 - REG_OFF(0)) ||
	    (rt && !mapped(uc + UC_STACK_OFF, 12))) {
		expect(EXPECT_REJECT, "ucontext unmapped");
		return;
	}
	/* ours reads the sigcontext whole, trap_no to oldmask too */
	if (!mapped(uc + MC_OFF, REG_OFF(0) - MC_OFF))
		expect(EXPECT_EITHER, "sigcontext head unmapped (stock takes it, ours refuses)");
	for (i = 0; i < 15; i++)
		want.r[i] = rd32(uc + REG_OFF(i));
	want.pc = rd32(uc + PC_OFF);
	cpsr = rd32(uc + CPSR_OFF);
	want.mask = rd32(uc + MASK_OFF) | (uint64_t)rd32(uc + MASK_OFF + 4) << 32;
	want.mask &= ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	want.cpsr = cpsr & ~((1U << 22) | CPSR_IL);
	want.thumb = !!(cpsr & CPSR_T);
	if ((cpsr & CPSR_MODE) != CPSR_USR)
		expect(EXPECT_REJECT, "CPSR mode %#x", cpsr & CPSR_MODE);
	if (cpsr & (CPSR_A | CPSR_I | CPSR_F))
		expect(EXPECT_REJECT, "CPSR masks A/I/F");
	/*
	 * Neither is a reason to refuse: IL (and PAN) the kernel clears
	 * as reserved to it, and an If-Then state in ARM state both
	 * kernels take, the CPU dropping it on the return (README,
	 * "compat armhf frames.it_state_in_arm").
	 */
	if (!mapped(vfp, 8 + 256 + 4)) {
		expect(EXPECT_REJECT, "VFP record unmapped");
		return;
	}
	if (rd32(vfp) != VFP_MAGIC || rd32(vfp + 4) != VFP_SIZE) {
		expect(EXPECT_REJECT, "VFP record %#x/%u", rd32(vfp), rd32(vfp + 4));
		return;
	}
	memcpy(want.d, (void *)(uintptr_t)(vfp + 8), sizeof(want.d));
	want.vfp_fpscr = rd32(vfp + 8 + 256);
	want.fpscr = want.vfp_fpscr & hw.fpscr_mask;

	if (want.pc != CODE(want.thumb ? landing_thumb : landing_arm)) {
		uint32_t land = CODE(want.thumb ? landing_thumb : landing_arm);

		/* where it stops is the CPU's business: only the mode is checked */
		expect(EXPECT_EITHER, "pc %#x, not the landing at %#x", want.pc, land);
		want.pc_faults = 1;
	}
}

/* -- the mutations */

/*
 * The signals the resumed code reports through (the landing's BKPT, a
 * fault at a pc the model cannot predict).  A frame that blocked one
 * would have the kernel kill the case on it, hiding the resumed state:
 * the mutations leave them unblocked.
 */
#define HARNESS_SIGS	((1ULL << (SIGTRAP - 1)) | (1ULL << (SIGBUS - 1)) | \
			 (1ULL << (SIGSEGV - 1)) | (1ULL << (SIGILL - 1)))

enum { M_CPSR, M_T, M_E, M_IT, M_PC, M_VFP_VALUES, M_VFP_MAGIC, M_VFP_SIZE,
       M_AUX_BYTES, M_BYTES, M_SIGMASK, M_UCSTACK, M_MISC, M_RELOCATE,
       M_OTHER_CALL, NR_M };

static const char *const m_names[NR_M] = {
	"cpsr", "T", "E", "IT", "pc", "vfp-values", "vfp-magic", "vfp-size",
	"aux-bytes", "bytes", "sigmask", "uc_stack", "misc", "relocate",
	"other-call",
};

static void set_landing(uint32_t uc)
{
	uint32_t cpsr = rd32(uc + CPSR_OFF);

	wr32(uc + PC_OFF, CODE(cpsr & CPSR_T ? landing_thumb : landing_arm));
}

static void __attribute__((noreturn)) sigreturn_from(uint32_t sp, int nr)
{
	asm volatile("mov	sp, %0\n"
		     "mov	r7, %1\n"
		     "svc	#0\n"
		     "udf	#2\n" : : "r"(sp), "r"(nr) : "r7", "memory");
	__builtin_unreachable();
}

static void check_landed(int sig, ucontext_t *uc);

void on_trigger(int sig)
{
	uint32_t frame = entry_sp, uc = frame + (handler_rt ? INFO_SIZE : 0);
	uint32_t end = uc + UC_SIZE + 8, sp = frame;
	int n, i, m, rt = handler_rt, moved = 0;

	if (phase) {
		/* resumed at a pc that faulted */
		check_landed(sig, (ucontext_t *)(uintptr_t)uc);
		_exit(rep->state[0] ? FUZZ_BAD_STATE : FUZZ_OK);
	}
	if (sig == SIGALRM && rd32(uc + PC_OFF) != trigger_pc()) {
		/*
		 * The tick came before the spin, while the stub was still
		 * loading the state (or before it ran): this frame holds
		 * no state of ours.  Return through it untouched and wait
		 * for the next, later tick (a one-shot timer: nothing else
		 * is pending; each wait longer than the last, so that a
		 * slow vCPU gets there).
		 */
		early_ticks++;
		tick.it_value.tv_nsec = TICK_NS << (early_ticks < 12 ? early_ticks : 12);
		timer_settime(hw.timer, 0, &tick, NULL);
		return;
	}
	phase = 1;
	rep->stage = STAGE_DELIVERED;
	check_delivery(sig, uc);

	for (i = 0; i < 15; i++)
		wr32(uc + REG_OFF(i), gen_value());
	wr32(uc + REG_OFF(13), gen_sp());
	wr32(uc + CPSR_OFF, (rd32(uc + CPSR_OFF) & ~(CPSR_FLAGS | CPSR_GE | CPSR_T)) |
	     ((uint32_t)rnd(&rs) & (CPSR_FLAGS | CPSR_GE | CPSR_T)));
	set_landing(uc);

	n = 1 + rnd_below(&rs, 3);
	for (i = 0; i < n; i++) {
		uint32_t cpsr = rd32(uc + CPSR_OFF), vfp = uc + RESV_OFF;

		m = rnd_below(&rs, NR_M);
		NOTE(rep->what, " [%s]", m_names[m]);
		switch (m) {
		case M_CPSR:
			switch (rnd_below(&rs, 5)) {
			case 0:
				cpsr = (cpsr & ~CPSR_MODE) | rnd_below(&rs, 32);
				break;
			case 1:
				cpsr |= CPSR_F << rnd_below(&rs, 3);
				break;
			case 2:
				cpsr ^= 1U << rnd_below(&rs, 32);
				break;
			case 3:
				cpsr ^= rnd(&rs) & (CPSR_J | CPSR_IL | (1U << 21) |
						    (1U << 22) | (1U << 23));
				break;
			default:
				cpsr = rnd(&rs);
				break;
			}
			wr32(uc + CPSR_OFF, cpsr);
			set_landing(uc);
			NOTE(rep->what, " %#x", cpsr);
			break;
		case M_T:
			wr32(uc + CPSR_OFF, cpsr ^ CPSR_T);
			set_landing(uc);
			break;
		case M_E:
			wr32(uc + CPSR_OFF, cpsr ^ CPSR_E);
			break;
		case M_IT: {
			/* a live If-Then block: firstcond and a mask */
			uint32_t it = rnd_chance(&rs, 3, 4) ?
				      (rnd_below(&rs, 15) << 4) | (1 + rnd_below(&rs, 15)) :
				      (uint32_t)rnd_below(&rs, 256);

			cpsr &= ~CPSR_IT;
			cpsr |= (it & 3) << 25 | (it >> 2) << 10;
			wr32(uc + CPSR_OFF, cpsr);
			NOTE(rep->what, " %#x", it);
			break;
		}
		case M_PC:
			switch (rnd_below(&rs, 3)) {
			case 0:
				wr32(uc + PC_OFF, rd32(uc + PC_OFF) + 1 + rnd_below(&rs, 3));
				break;
			case 1:
				wr32(uc + PC_OFF, (uintptr_t)reloc - GUARD / 2);
				break;
			default:
				wr32(uc + PC_OFF, 0xfffff000 + 4 * rnd_below(&rs, 1024));
				break;
			}
			NOTE(rep->what, " %#x", rd32(uc + PC_OFF));
			break;
		case M_VFP_VALUES:
			randomize((void *)(uintptr_t)(vfp + 8), VFP_SIZE - 8);
			break;
		case M_VFP_MAGIC:
			wr32(vfp, rnd_chance(&rs, 1, 2) ? VFP_MAGIC ^ (1U << rnd_below(&rs, 32)) :
			     (uint32_t)rnd(&rs));
			NOTE(rep->what, " %#x", rd32(vfp));
			break;
		case M_VFP_SIZE: {
			static const uint32_t sizes[] = { 0, 8, 280, 284, 287, 289, 292, 296, 512, ~0U };

			wr32(vfp + 4, rnd_chance(&rs, 1, 4) ? (uint32_t)rnd(&rs) :
			     sizes[rnd_below(&rs, 10)]);
			NOTE(rep->what, " %u", rd32(vfp + 4));
			break;
		}
		case M_AUX_BYTES:
			randomize((void *)(uintptr_t)(vfp + VFP_SIZE), 512 - VFP_SIZE);
			break;
		case M_BYTES: {
			int k, pc_or_cpsr = 0;

			for (k = 1 + rnd_below(&rs, 6); k; k--) {
				uint32_t at = rnd_below(&rs, UC_SIZE);

				*(uint8_t *)(uintptr_t)(uc + at) = rnd(&rs);
				NOTE(rep->what, " +%u", at);
				/* what M_UCSTACK does, by other means */
				if (at >= UC_STACK_OFF && at < UC_STACK_OFF + 12)
					expect(EXPECT_EITHER, "uc_stack edited");
				pc_or_cpsr |= at >= PC_OFF && at < CPSR_OFF + 4;
			}
			/*
			 * As M_CPSR and M_T: the pc follows T to its landing.
			 * An edited pc would resume anywhere in our own code
			 * (a handler entered by a branch, a spin, an svc with
			 * random registers): nothing a model can say.  M_PC
			 * moves the pc where the outcome is known.
			 */
			if (pc_or_cpsr)
				set_landing(uc);
			/* as M_SIGMASK: the landing reports through these */
			wr32(uc + MASK_OFF, rd32(uc + MASK_OFF) & ~(uint32_t)HARNESS_SIGS);
			break;
		}
		case M_SIGMASK: {
			uint64_t mask = rnd(&rs) & ~HARNESS_SIGS;

			wr32(uc + MASK_OFF, mask);
			wr32(uc + MASK_OFF + 4, mask >> 32);
			break;
		}
		case M_UCSTACK:
			switch (rnd_below(&rs, 3)) {
			case 0:
				wr32(uc + 12, SS_DISABLE);
				break;
			case 1:
				wr32(uc + 8, (uintptr_t)alt2);
				wr32(uc + 12, 0);
				wr32(uc + 16, ALT_SIZE);
				break;
			default:
				randomize((void *)(uintptr_t)(uc + 8), 12);
				break;
			}
			expect(EXPECT_EITHER, "uc_stack edited");
			break;
		case M_MISC:
			switch (rnd_below(&rs, 4)) {
			case 0:
				randomize((void *)(uintptr_t)uc, 8);
				break;
			case 1:
				randomize((void *)(uintptr_t)(uc + MC_OFF), 12);
				break;
			case 2:
				randomize((void *)(uintptr_t)(uc + MC_OFF + 80), 4);
				break;
			default:
				if (rt)
					randomize((void *)(uintptr_t)frame, INFO_SIZE);
				break;
			}
			break;
		case M_RELOCATE:
			moved = 1 + rnd_below(&rs, 6);
			NOTE(rep->what, " mode %d", moved);
			break;
		case M_OTHER_CALL:
			/* the same ucontext, read by the other sigreturn */
			if (rt) {
				sp = uc;
				rt = 0;
			} else if (mapped(frame - INFO_SIZE, INFO_SIZE)) {
				sp = frame - INFO_SIZE;
				rt = 1;
			}
			NOTE(rep->what, " %s", rt ? "rt_sigreturn" : "sigreturn");
			break;
		}
	}

	if (moved) {
		uint32_t lo = (uintptr_t)reloc, hi = lo + RELOC_SIZE, len = end - sp, to, a;

		switch (moved) {
		case 1:
			to = lo + 8 * rnd_below(&rs, (RELOC_SIZE - len) / 8);
			break;
		case 2:
			to = lo + 8 * rnd_below(&rs, (RELOC_SIZE - len) / 8) + 4;
			break;
		case 3:
			to = (hi - 8 * (1 + rnd_below(&rs, len / 8))) & ~7U;
			break;
		case 4:
			to = lo - 8 * (1 + rnd_below(&rs, 64));
			break;
		case 5:
			to = hw.vectors ? hw.vectors + 8 * rnd_below(&rs, 64) : 0;
			break;
		default:
			to = 0xfffff000 + 8 * rnd_below(&rs, 64);
			break;
		}
		if (moved <= 4)
			for (a = 0; a < len; a += 4)
				if (mapped(to + a, 4))
					wr32(to + a, rd32(sp + a));
		sp = to;
	}
	model(sp, rt);
	if (verbose) {
		printf("# case: trigger %s%s, handler %s%s%s, return through %s at %#x\n#  %s\n#  expect %s: %s\n",
		       trig_thumb ? "Thumb" : "ARM", trig_spin ? " spin" : " udf",
		       handler_thumb ? "Thumb" : "ARM", handler_rt ? " SA_SIGINFO" : "",
		       handler_on_alt ? " on the alternate stack" : "",
		       rt ? "rt_sigreturn" : "sigreturn", sp, rep->what,
		       rep->expect == EXPECT_ACCEPT ? "accept" :
		       rep->expect == EXPECT_REJECT ? "refuse" : "either",
		       rep->expect_why);
		fflush(stdout);
	}
	rep->stage = STAGE_MUTATED;
	if (sp != frame || rt != handler_rt)
		sigreturn_from(sp, rt ? SYS_rt_sigreturn : SYS_sigreturn);
}

/* -- after sigreturn */
static void bad_state(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void bad_state(const char *fmt, ...)
{
	va_list ap;

	if (rep->state[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rep->state, sizeof(rep->state), fmt, ap);
	va_end(ap);
}

static void check_landed(int sig, ucontext_t *uc)
{
	mcontext_t *mc = &uc->uc_mcontext;
	uint32_t cpsr = mc->arm_cpsr, land, got;
	uint64_t mask, d;
	int i, big;

	rep->stage = STAGE_RESUMED;
	if ((cpsr & CPSR_MODE) != CPSR_USR || (cpsr & (CPSR_A | CPSR_I | CPSR_F)))
		bad_state("resumed with CPSR %#x: not user mode with A/I/F clear", cpsr);
	if (!want.pc_faults && !!(cpsr & CPSR_T) != want.thumb)
		bad_state("resumed in %s state, frame asked %s",
			  cpsr & CPSR_T ? "Thumb" : "ARM", want.thumb ? "Thumb" : "ARM");
	if ((cpsr & (CPSR_FLAGS | CPSR_GE)) != (want.cpsr & (CPSR_FLAGS | CPSR_GE)))
		bad_state("CPSR %#x, frame asked flags of %#x", cpsr, want.cpsr);
	if (want.pc_faults)
		return;
	big = !!(cpsr & CPSR_E);
	if (big && !(want.cpsr & CPSR_E))
		bad_state("big-endian data after a frame without E");
	memcpy(&mask, &uc->uc_sigmask, 8);
	if (mask != want.mask)
		bad_state("signal mask %#llx, frame asked %#llx",
			  (unsigned long long)mask, (unsigned long long)want.mask);

	land = CODE(want.thumb ? landing_thumb_bkpt : landing_arm_bkpt);
	if (sig != SIGTRAP || mc->arm_pc != land) {
		bad_state("stopped by signal %d at pc %#lx, expected the BKPT at %#x",
			  sig, mc->arm_pc, land);
		return;
	}
	for (i = 0; i < 15; i++) {
		got = big ? __builtin_bswap32(landed_regs.r[i]) : landed_regs.r[i];
		if (got != want.r[i]) {
			bad_state("r%d %#x, frame asked %#x", i, got, want.r[i]);
			break;
		}
	}
	for (i = 0; i < 32; i++) {
		d = big ? __builtin_bswap64(landed_regs.d[i]) : landed_regs.d[i];
		if (d != want.d[i]) {
			bad_state("d%d %#llx, frame asked %#llx", i,
				  (unsigned long long)d, (unsigned long long)want.d[i]);
			break;
		}
	}
	got = big ? __builtin_bswap32(landed_regs.fpscr) : landed_regs.fpscr;
	if ((got & hw.fpscr_mask) != want.fpscr)
		bad_state("FPSCR %#x, frame asked %#x (VFP record %#x)", got,
			  want.fpscr, want.vfp_fpscr);
}

void on_landing(int sig, siginfo_t *si, void *ucv)
{
	check_landed(sig, ucv);
	_exit(rep->state[0] ? FUZZ_BAD_STATE : FUZZ_OK);
}

static void __attribute__((noreturn)) fuzz_child(struct fuzz_report *r,
						 uint64_t seed, int loud)
{
	struct sigaction sa;
	stack_t ss = { .ss_sp = alt, .ss_size = ALT_SIZE };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGALRM };
	void (*handler)(int);
	int i;

	rep = r;
	rs = seed;
	verbose = loud;
	memset(rep, 0, sizeof(*rep));
	rep->stage = STAGE_SETUP;
	if (!hw.d32)
		_exit(FUZZ_SETUP);

	trig_thumb = rnd_chance(&rs, 1, 2);
	trig_spin = rnd_chance(&rs, 1, 3);
	handler_thumb = rnd_chance(&rs, 1, 2);
	handler_rt = rnd_chance(&rs, 1, 2);
	handler_on_alt = rnd_chance(&rs, 1, 2);
	handler = handler_thumb ? (void (*)(int))((uintptr_t)mutate_thumb | 1) :
				  (void (*)(int))CODE(mutate_arm);

	if (sigaltstack(&ss, NULL))
		_exit(FUZZ_SETUP);
	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_handler = handler;
	sa.sa_flags = (handler_rt ? SA_SIGINFO : 0) | (handler_on_alt ? SA_ONSTACK : 0);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_sigaction = trap_entry;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGTRAP, &sa, NULL);
	signal(SIGSEGV, SIG_DFL);

	for (i = 0; i < 15; i++)
		start_regs.r[i] = gen_value();
	start_regs.r[13] = (uintptr_t)tstack + TSTACK_SIZE - 16384 -
			   4 * rnd_below(&rs, 1024);
	start_regs.apsr = rnd(&rs) & (CPSR_FLAGS | CPSR_GE);
	start_regs.fpscr = rnd(&rs) & hw.fpscr_mask;
	randomize(start_regs.d, sizeof(start_regs.d));

	if (trig_spin) {
		if (timer_create(CLOCK_MONOTONIC, &sev, &hw.timer) ||
		    timer_settime(hw.timer, 0, &tick, NULL))
			_exit(FUZZ_SETUP);
	}
	if (trig_thumb)
		(trig_spin ? trigger_thumb_spin : trigger_thumb)(&start_regs);
	else
		(trig_spin ? trigger_arm_spin : trigger_arm)(&start_regs);
	_exit(FUZZ_SETUP);
}
