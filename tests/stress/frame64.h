/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AArch64 half of the sigreturn fuzzer (see sigreturn.c).
 *
 * A case, in its own child:
 *  1. a stub loads a random state into every register (x0-x30, sp, NZCV,
 *     V0-V31, FPSR, FPCR, or Z0-Z31, P0-P15 and FFR when SVE is to be live,
 *     at a random vector length) and raises a signal without touching it:
 *     an undefined instruction (SIGILL), a misaligned exclusive load
 *     (SIGBUS, so the frame carries an ESR record), or a spin that a timer
 *     interrupts (SIGALRM, delivered from an interrupt);
 *  2. the handler checks that the frame holds that state, then edits the
 *     frame as the case's seed says: register values, pstate bits, record
 *     bytes, magics and sizes, record order, duplicates, drops, inserts,
 *     the terminator, an extra_context with its pointer and size aimed
 *     anywhere, the SVE record's vector length, flags and size, the signal
 *     mask, the alternate stack, or the whole frame moved (misaligned,
 *     across an unmapped page, to a kernel address);
 *  3. from the edited frame a model of the ABI (what stock 6.1 and the
 *     documentation in asm/sigcontext.h require) says whether the frame
 *     must be taken, must be refused, or may be either, and what state it
 *     asks for;
 *  4. sigreturn; a taken frame resumes in "landing", which stores every
 *     register and stops at a BRK: the SIGTRAP handler checks EL0t,
 *     AArch64, DAIF clear, and every register against the model.  A
 *     refused frame kills the child with SIGSEGV.
 */
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <asm/sigcontext.h>

#ifndef HWCAP_SVE
#define HWCAP_SVE	(1 << 22)
#endif
#ifndef HWCAP_DIT
#define HWCAP_DIT	(1 << 24)
#endif
#ifndef HWCAP2_MTE
#define HWCAP2_MTE	(1 << 18)
#endif
#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL		50
#define PR_SVE_GET_VL		51
#endif
#define VL_MASK		0xffff

/* Records the 6.1 ABI does not have: unknown to sigreturn. */
#define TPIDR2_MAGIC	0x54504902
#define ZA_MAGIC_	0x54366345

#define PSR_NZCV	0xf0000000ULL
#define PSR_DIT		(1ULL << 24)
#define PSR_TCO		(1ULL << 25)
#define PSR_IL		(1ULL << 20)
#define PSR_SS		(1ULL << 21)
#define PSR_DAIF	(0xfULL << 6)
#define PSR_M		0xfULL
#define PSR_NRW		(1ULL << 4)
/* SPSR_EL1 bits that are RES0 for an AArch64 EL0 (the kernel clears them) */
#define PSR_RES0	(0xffffffff00000000ULL | (3ULL << 26) | (3ULL << 22) | \
			 (0xffULL << 13) | (1ULL << 5))

#define SIGFRAME_MAX	(256 << 10)	/* stock's "unreasonably large" */
#define TASK_TOP	(1ULL << 48)
#define MAX_VL		256
#define FPSIMD_SIZE	sizeof(struct fpsimd_context)
#define RESV_SIZE	4096

#define GUARD		(64 << 10)
#define TSTACK_SIZE	(256 << 10)
#define ALT_SIZE	(64 << 10)
#define RELOC_SIZE	(512 << 10)

/*
 * The register file, as the trigger loads it and the landing stores it.
 * The offsets are used by the asm below.
 */
struct regfile {
	uint64_t x[31];			/* 0 */
	uint64_t sp;			/* 248 */
	uint64_t nzcv;			/* 256 */
	uint64_t fpsr;			/* 264 */
	uint64_t fpcr;			/* 272 */
	uint64_t sve;			/* 280: load/store Z, P, FFR */
	__uint128_t q[32];		/* 288 */
	uint8_t z[32 * MAX_VL];		/* 800: packed at the vector length */
	uint8_t p[17 * MAX_VL / 8];	/* 8992: P0-P15 then FFR, packed */
};

_Static_assert(offsetof(struct regfile, sp) == 248, "asm offsets");
_Static_assert(offsetof(struct regfile, sve) == 280, "asm offsets");
_Static_assert(offsetof(struct regfile, q) == 288, "asm offsets");
_Static_assert(offsetof(struct regfile, z) == 800, "asm offsets");
_Static_assert(offsetof(struct regfile, p) == 8992, "asm offsets");

static struct regfile start_regs __attribute__((aligned(16)));
struct regfile landed_regs __attribute__((aligned(16)));
uint64_t saved_tls;

/*
 * trigger_udf/_bus/_spin(&start_regs): load everything, then raise the
 * signal with the state untouched.  landing: store everything into
 * landed_regs (x0 goes through TPIDR_EL0, which on_landing restores),
 * then BRK.
 */
void trigger_udf(struct regfile *);
void trigger_bus(struct regfile *);
void trigger_spin(struct regfile *);
extern char trigger_udf_end[], trigger_bus_end[], trigger_spin_end[];
extern char landing[], landing_brk[];
void on_landing(int, siginfo_t *, void *);

#define LOAD_STATE							\
	"	ldr	x1, [x0, #264]\n"				\
	"	msr	fpsr, x1\n"					\
	"	ldr	x1, [x0, #272]\n"				\
	"	msr	fpcr, x1\n"					\
	"	ldr	x1, [x0, #280]\n"				\
	"	cbz	x1, 1f\n"					\
	"	add	x1, x0, #800\n"					\
	"	ldr z0, [x1, #0, mul vl]\n	ldr z1, [x1, #1, mul vl]\n"	\
	"	ldr z2, [x1, #2, mul vl]\n	ldr z3, [x1, #3, mul vl]\n"	\
	"	ldr z4, [x1, #4, mul vl]\n	ldr z5, [x1, #5, mul vl]\n"	\
	"	ldr z6, [x1, #6, mul vl]\n	ldr z7, [x1, #7, mul vl]\n"	\
	"	ldr z8, [x1, #8, mul vl]\n	ldr z9, [x1, #9, mul vl]\n"	\
	"	ldr z10, [x1, #10, mul vl]\n	ldr z11, [x1, #11, mul vl]\n"	\
	"	ldr z12, [x1, #12, mul vl]\n	ldr z13, [x1, #13, mul vl]\n"	\
	"	ldr z14, [x1, #14, mul vl]\n	ldr z15, [x1, #15, mul vl]\n"	\
	"	ldr z16, [x1, #16, mul vl]\n	ldr z17, [x1, #17, mul vl]\n"	\
	"	ldr z18, [x1, #18, mul vl]\n	ldr z19, [x1, #19, mul vl]\n"	\
	"	ldr z20, [x1, #20, mul vl]\n	ldr z21, [x1, #21, mul vl]\n"	\
	"	ldr z22, [x1, #22, mul vl]\n	ldr z23, [x1, #23, mul vl]\n"	\
	"	ldr z24, [x1, #24, mul vl]\n	ldr z25, [x1, #25, mul vl]\n"	\
	"	ldr z26, [x1, #26, mul vl]\n	ldr z27, [x1, #27, mul vl]\n"	\
	"	ldr z28, [x1, #28, mul vl]\n	ldr z29, [x1, #29, mul vl]\n"	\
	"	ldr z30, [x1, #30, mul vl]\n	ldr z31, [x1, #31, mul vl]\n"	\
	"	mov	x2, #8992\n"					\
	"	add	x1, x0, x2\n"					\
	"	ldr	p0, [x1, #16, mul vl]\n"			\
	"	wrffr	p0.b\n"						\
	"	ldr p0, [x1, #0, mul vl]\n	ldr p1, [x1, #1, mul vl]\n"	\
	"	ldr p2, [x1, #2, mul vl]\n	ldr p3, [x1, #3, mul vl]\n"	\
	"	ldr p4, [x1, #4, mul vl]\n	ldr p5, [x1, #5, mul vl]\n"	\
	"	ldr p6, [x1, #6, mul vl]\n	ldr p7, [x1, #7, mul vl]\n"	\
	"	ldr p8, [x1, #8, mul vl]\n	ldr p9, [x1, #9, mul vl]\n"	\
	"	ldr p10, [x1, #10, mul vl]\n	ldr p11, [x1, #11, mul vl]\n"	\
	"	ldr p12, [x1, #12, mul vl]\n	ldr p13, [x1, #13, mul vl]\n"	\
	"	ldr p14, [x1, #14, mul vl]\n	ldr p15, [x1, #15, mul vl]\n"	\
	"	b	2f\n"						\
	"1:	add	x1, x0, #288\n"					\
	"	ldp q0, q1, [x1, #0]\n	ldp q2, q3, [x1, #32]\n"	\
	"	ldp q4, q5, [x1, #64]\n	ldp q6, q7, [x1, #96]\n"	\
	"	ldp q8, q9, [x1, #128]\n	ldp q10, q11, [x1, #160]\n"	\
	"	ldp q12, q13, [x1, #192]\n	ldp q14, q15, [x1, #224]\n"	\
	"	ldp q16, q17, [x1, #256]\n	ldp q18, q19, [x1, #288]\n"	\
	"	ldp q20, q21, [x1, #320]\n	ldp q22, q23, [x1, #352]\n"	\
	"	ldp q24, q25, [x1, #384]\n	ldp q26, q27, [x1, #416]\n"	\
	"	ldp q28, q29, [x1, #448]\n	ldp q30, q31, [x1, #480]\n"	\
	"2:	ldr	x1, [x0, #248]\n"				\
	"	mov	sp, x1\n"					\
	"	ldr	x1, [x0, #256]\n"				\
	"	msr	nzcv, x1\n"					\
	"	mov	x30, x0\n"					\
	"	ldp x0, x1, [x30, #0]\n	ldp x2, x3, [x30, #16]\n"	\
	"	ldp x4, x5, [x30, #32]\n	ldp x6, x7, [x30, #48]\n"	\
	"	ldp x8, x9, [x30, #64]\n	ldp x10, x11, [x30, #80]\n"	\
	"	ldp x12, x13, [x30, #96]\n	ldp x14, x15, [x30, #112]\n"	\
	"	ldp x16, x17, [x30, #128]\n	ldp x18, x19, [x30, #144]\n"	\
	"	ldp x20, x21, [x30, #160]\n	ldp x22, x23, [x30, #176]\n"	\
	"	ldp x24, x25, [x30, #192]\n	ldp x26, x27, [x30, #208]\n"	\
	"	ldp x28, x29, [x30, #224]\n"				\
	"	ldr	x30, [x30, #240]\n"

asm(".text\n"
	".arch_extension sve\n"
	".globl trigger_udf\n.type trigger_udf, %function\n"
	"trigger_udf:\n"
	LOAD_STATE
	".globl trigger_udf_end\n"
	"trigger_udf_end:\n"
	"	udf	#0\n"
	".size trigger_udf, . - trigger_udf\n"
	".globl trigger_bus\n.type trigger_bus, %function\n"
	"trigger_bus:\n"
	LOAD_STATE
	".globl trigger_bus_end\n"
	"trigger_bus_end:\n"
	"	ldxr	w9, [x30]\n"	/* x30 is misaligned: alignment fault */
	"	udf	#1\n"
	".size trigger_bus, . - trigger_bus\n"
	".globl trigger_spin\n.type trigger_spin, %function\n"
	"trigger_spin:\n"
	LOAD_STATE
	".globl trigger_spin_end\n"
	"trigger_spin_end:\n"
	"	b	trigger_spin_end\n"
	".size trigger_spin, . - trigger_spin\n"

	".globl landing\n.type landing, %function\n"
	".balign 16\n"
	"landing:\n"
	"	msr	tpidr_el0, x0\n"
	"	adrp	x0, landed_regs\n"
	"	add	x0, x0, :lo12:landed_regs\n"
	"	stp x1, x2, [x0, #8]\n	stp x3, x4, [x0, #24]\n"
	"	stp x5, x6, [x0, #40]\n	stp x7, x8, [x0, #56]\n"
	"	stp x9, x10, [x0, #72]\n	stp x11, x12, [x0, #88]\n"
	"	stp x13, x14, [x0, #104]\n	stp x15, x16, [x0, #120]\n"
	"	stp x17, x18, [x0, #136]\n	stp x19, x20, [x0, #152]\n"
	"	stp x21, x22, [x0, #168]\n	stp x23, x24, [x0, #184]\n"
	"	stp x25, x26, [x0, #200]\n	stp x27, x28, [x0, #216]\n"
	"	stp x29, x30, [x0, #232]\n"
	"	mrs	x1, tpidr_el0\n"
	"	str	x1, [x0]\n"
	"	mov	x1, sp\n"
	"	str	x1, [x0, #248]\n"
	"	mrs	x1, nzcv\n"
	"	str	x1, [x0, #256]\n"
	"	mrs	x1, fpsr\n"
	"	str	x1, [x0, #264]\n"
	"	mrs	x1, fpcr\n"
	"	str	x1, [x0, #272]\n"
	"	add	x1, x0, #288\n"
	"	stp q0, q1, [x1, #0]\n	stp q2, q3, [x1, #32]\n"
	"	stp q4, q5, [x1, #64]\n	stp q6, q7, [x1, #96]\n"
	"	stp q8, q9, [x1, #128]\n	stp q10, q11, [x1, #160]\n"
	"	stp q12, q13, [x1, #192]\n	stp q14, q15, [x1, #224]\n"
	"	stp q16, q17, [x1, #256]\n	stp q18, q19, [x1, #288]\n"
	"	stp q20, q21, [x1, #320]\n	stp q22, q23, [x1, #352]\n"
	"	stp q24, q25, [x1, #384]\n	stp q26, q27, [x1, #416]\n"
	"	stp q28, q29, [x1, #448]\n	stp q30, q31, [x1, #480]\n"
	"	ldr	x1, [x0, #280]\n"
	"	cbz	x1, 1f\n"
	"	add	x1, x0, #800\n"
	"	str z0, [x1, #0, mul vl]\n	str z1, [x1, #1, mul vl]\n"
	"	str z2, [x1, #2, mul vl]\n	str z3, [x1, #3, mul vl]\n"
	"	str z4, [x1, #4, mul vl]\n	str z5, [x1, #5, mul vl]\n"
	"	str z6, [x1, #6, mul vl]\n	str z7, [x1, #7, mul vl]\n"
	"	str z8, [x1, #8, mul vl]\n	str z9, [x1, #9, mul vl]\n"
	"	str z10, [x1, #10, mul vl]\n	str z11, [x1, #11, mul vl]\n"
	"	str z12, [x1, #12, mul vl]\n	str z13, [x1, #13, mul vl]\n"
	"	str z14, [x1, #14, mul vl]\n	str z15, [x1, #15, mul vl]\n"
	"	str z16, [x1, #16, mul vl]\n	str z17, [x1, #17, mul vl]\n"
	"	str z18, [x1, #18, mul vl]\n	str z19, [x1, #19, mul vl]\n"
	"	str z20, [x1, #20, mul vl]\n	str z21, [x1, #21, mul vl]\n"
	"	str z22, [x1, #22, mul vl]\n	str z23, [x1, #23, mul vl]\n"
	"	str z24, [x1, #24, mul vl]\n	str z25, [x1, #25, mul vl]\n"
	"	str z26, [x1, #26, mul vl]\n	str z27, [x1, #27, mul vl]\n"
	"	str z28, [x1, #28, mul vl]\n	str z29, [x1, #29, mul vl]\n"
	"	str z30, [x1, #30, mul vl]\n	str z31, [x1, #31, mul vl]\n"
	"	mov	x2, #8992\n"
	"	add	x1, x0, x2\n"
	"	str p0, [x1, #0, mul vl]\n	str p1, [x1, #1, mul vl]\n"
	"	str p2, [x1, #2, mul vl]\n	str p3, [x1, #3, mul vl]\n"
	"	str p4, [x1, #4, mul vl]\n	str p5, [x1, #5, mul vl]\n"
	"	str p6, [x1, #6, mul vl]\n	str p7, [x1, #7, mul vl]\n"
	"	str p8, [x1, #8, mul vl]\n	str p9, [x1, #9, mul vl]\n"
	"	str p10, [x1, #10, mul vl]\n	str p11, [x1, #11, mul vl]\n"
	"	str p12, [x1, #12, mul vl]\n	str p13, [x1, #13, mul vl]\n"
	"	str p14, [x1, #14, mul vl]\n	str p15, [x1, #15, mul vl]\n"
	"	rdffr	p0.b\n"
	"	str	p0, [x1, #16, mul vl]\n"
	"1:\n"
	".globl landing_brk\n"
	"landing_brk:\n"
	"	brk	#0x3c\n"
	".size landing, . - landing\n"

	/* the SIGTRAP handler: give glibc its TLS pointer back first */
	".globl on_landing\n.type on_landing, %function\n"
	"on_landing:\n"
	"	adrp	x9, saved_tls\n"
	"	ldr	x9, [x9, :lo12:saved_tls]\n"
	"	msr	tpidr_el0, x9\n"
	"	b	landing_check\n"
	".size on_landing, . - on_landing\n");

/* -- what the CPU and the kernel offer, probed once by the parent */
static struct {
	int sve, nvl;
	unsigned int vls[16];		/* supported vector lengths, bytes */
	uint32_t fpsr_mask, fpcr_mask;	/* bits that hold what is written */
	uint64_t pstate_kept;		/* pstate bits a sigreturn must keep */
	timer_t timer;
} hw;

static uint32_t rw_mask_fpsr(void)
{
	uint64_t old, v;

	asm volatile("mrs %0, fpsr" : "=r"(old));
	asm volatile("msr fpsr, %1\n mrs %0, fpsr" : "=r"(v) : "r"(~0ULL));
	asm volatile("msr fpsr, %0" : : "r"(old));
	return v;
}

static uint32_t rw_mask_fpcr(void)
{
	uint64_t old, v;

	asm volatile("mrs %0, fpcr" : "=r"(old));
	asm volatile("msr fpcr, %1\n mrs %0, fpcr" : "=r"(v) : "r"(~0ULL));
	asm volatile("msr fpcr, %0" : : "r"(old));
	return v;
}

/* -- memory the cases use; the model knows what is mapped */
static struct {
	uintptr_t lo, hi;
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

static int mapped(uintptr_t a, uint64_t n)
{
	int i;

	if (a + n < a)
		return 0;
	for (i = 0; i < nregions; i++)
		if (a >= regions[i].lo && a + n <= regions[i].hi)
			return 1;
	return 0;
}

static uintptr_t region_end(uintptr_t a)
{
	int i;

	for (i = 0; i < nregions; i++)
		if (a >= regions[i].lo && a < regions[i].hi)
			return regions[i].hi;
	return a;
}

static void fuzz_probe(void)
{
	unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
	int vq;
	long r;

	hw.sve = !!(hwcap & HWCAP_SVE);
	for (vq = 1; hw.sve && vq <= 16; vq++) {
		r = prctl(PR_SVE_SET_VL, vq * 16);
		if (r >= 0 && (r & VL_MASK) == vq * 16)
			hw.vls[hw.nvl++] = vq * 16;
	}
	if (hw.sve && !hw.nvl)
		hw.sve = 0;
	hw.fpsr_mask = rw_mask_fpsr();
	hw.fpcr_mask = rw_mask_fpcr();
	hw.pstate_kept = PSR_NZCV;
	if (hwcap & HWCAP_DIT)
		hw.pstate_kept |= PSR_DIT;
	if (hwcap2 & HWCAP2_MTE)
		hw.pstate_kept |= PSR_TCO;

	tstack = guarded(TSTACK_SIZE);
	alt = guarded(ALT_SIZE);
	alt2 = guarded(ALT_SIZE);
	reloc = guarded(RELOC_SIZE);
	regions[nregions].lo = (uintptr_t)__executable_start;
	regions[nregions].hi = (uintptr_t)_end;
	nregions++;

	ktap_diag("SVE %s (%d vector lengths, %u to %u bytes), FPSR mask %#x, FPCR mask %#x, pstate kept %#llx",
		  hw.sve ? "on" : "off", hw.nvl, hw.nvl ? hw.vls[0] : 0,
		  hw.nvl ? hw.vls[hw.nvl - 1] : 0, hw.fpsr_mask, hw.fpcr_mask,
		  (unsigned long long)hw.pstate_kept);
}

static int fuzz_has_sve(void)
{
	return hw.sve;
}

/* -- one case, in the child */
static struct fuzz_report *rep;
static uint64_t rs;		/* the case's generator */
static int verbose;
static volatile int phase;	/* 0: before the trigger, 1: after sigreturn */
static unsigned int vl;		/* bytes; 0 without SVE */
static int sve_live;
static int trigger_kind;	/* 0 udf, 1 bus, 2 spin */
static int handler_on_alt;

/* What the edited frame asks for, and what to check after landing. */
static struct {
	uint64_t x[31], sp, pc, pstate, mask;
	__uint128_t v[32];
	uint32_t fpsr, fpcr;
	int sve_regs;		/* Z, P, FFR come from the SVE record */
	uint8_t z[32 * MAX_VL], p[17 * MAX_VL / 8];
	int check_ffr;
	int pc_faults;		/* pc misaligned: expect SIGBUS there */
} want;

static uint64_t rd64(uintptr_t a)
{
	uint64_t v;

	memcpy(&v, (void *)a, 8);
	return v;
}

static uint32_t rd32(uintptr_t a)
{
	uint32_t v;

	memcpy(&v, (void *)a, 4);
	return v;
}

static void wr32(uintptr_t a, uint32_t v)
{
	memcpy((void *)a, &v, 4);
}

static void wr64(uintptr_t a, uint64_t v)
{
	memcpy((void *)a, &v, 8);
}

static void randomize(void *p, size_t n)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = rnd(&rs);
}

#define ZREG_OFF(n)	(16 + (n) * vl)
#define PREG_OFF(n)	(16 + 32 * vl + (n) * (vl / 8))
#define SVE_SIZE(l)	(16 + 32 * (l) + 17 * ((l) / 8))

/* A register value worth trying: edges, pointers, or noise. */
static uint64_t gen_value(void)
{
	switch (rnd_below(&rs, 8)) {
	case 0:
		return 0;
	case 1:
		return ~0ULL;
	case 2:
		return rnd_below(&rs, 4096);
	case 3:
		return 0xffff000000000000ULL | rnd(&rs);
	case 4:
		return (uintptr_t)tstack + rnd_below(&rs, TSTACK_SIZE);
	default:
		return rnd(&rs);
	}
}

/* A sp for the resumed code: it only reads it, never dereferences it. */
static uint64_t gen_sp(void)
{
	switch (rnd_below(&rs, 4)) {
	case 0:
		return (uintptr_t)tstack + TSTACK_SIZE - 16 * rnd_below(&rs, 1024);
	case 1:
		return (uintptr_t)tstack + rnd_below(&rs, TSTACK_SIZE);
	case 2:
		return 0xffff800000000000ULL | (rnd(&rs) & ~15ULL);
	default:
		return rnd(&rs) & 0x0000fffffffffff0ULL;
	}
}

static void gen_ffr(uint8_t *ffr)
{
	/* FFR writes must be monotonic (trues, then falses) */
	unsigned int bits = vl, n = rnd_below(&rs, bits + 1), i;

	memset(ffr, 0, vl / 8);
	for (i = 0; i < n; i++)
		ffr[i / 8] |= 1 << (i % 8);
}

static int ffr_monotonic(const uint8_t *ffr)
{
	unsigned int i, seen_false = 0;

	for (i = 0; i < vl; i++) {
		int bit = ffr[i / 8] >> (i % 8) & 1;

		if (bit && seen_false)
			return 0;
		if (!bit)
			seen_false = 1;
	}
	return 1;
}

/* -- the delivered frame against the interrupted state */
static uintptr_t trigger_pc(void)
{
	return trigger_kind == 0 ? (uintptr_t)trigger_udf_end :
	       trigger_kind == 1 ? (uintptr_t)trigger_bus_end :
				   (uintptr_t)trigger_spin_end;
}

static void bad_delivery(int sve_only, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad_delivery(int sve_only, const char *fmt, ...)
{
	va_list ap;

	if (rep->delivery_bad++) {
		if (!sve_only)
			rep->delivery_sve = 0;
		return;
	}
	rep->delivery_sve = sve_only;
	va_start(ap, fmt);
	vsnprintf(rep->delivery, sizeof(rep->delivery), fmt, ap);
	va_end(ap);
}

static void check_delivery(int sig, siginfo_t *si, ucontext_t *uc)
{
	mcontext_t *mc = &uc->uc_mcontext;
	uintptr_t at = (uintptr_t)mc->__reserved, end = at + RESV_SIZE;
	int i, have_fp = 0, have_esr = 0, have_sve = 0;

	for (i = 0; i < 31; i++)
		if (mc->regs[i] != start_regs.x[i]) {
			bad_delivery(0, "x%d %#llx, was %#llx", i,
				     (unsigned long long)mc->regs[i],
				     (unsigned long long)start_regs.x[i]);
			break;
		}
	if (mc->sp != start_regs.sp || mc->pc != trigger_pc())
		bad_delivery(0, "sp %#llx pc %#llx, were %#llx %#lx",
			     (unsigned long long)mc->sp,
			     (unsigned long long)mc->pc,
			     (unsigned long long)start_regs.sp, trigger_pc());
	if ((mc->pstate & (PSR_NZCV | PSR_M | PSR_NRW | PSR_DAIF)) !=
	    start_regs.nzcv)
		bad_delivery(0, "pstate %#llx, NZCV was %#llx",
			     (unsigned long long)mc->pstate,
			     (unsigned long long)start_regs.nzcv);
	if (si->si_signo != sig ||
	    (sig == SIGILL && si->si_addr != (void *)trigger_pc()) ||
	    (sig == SIGBUS && si->si_addr != (void *)start_regs.x[30]))
		bad_delivery(0, "siginfo signo %d code %d addr %p",
			     si->si_signo, si->si_code, si->si_addr);

	while (at + 8 <= end) {
		struct _aarch64_ctx *h = (void *)at;

		if (!h->magic)
			break;
		if (h->size < 16 || h->size % 16 || h->size > end - at) {
			bad_delivery(0, "record %#x with size %u", h->magic,
				     h->size);
			return;
		}
		if (h->magic == FPSIMD_MAGIC) {
			struct fpsimd_context *f = (void *)h;

			have_fp = 1;
			for (i = 0; i < 32; i++) {
				__uint128_t want_v = start_regs.q[i];

				if (sve_live)
					memcpy(&want_v, start_regs.z + i * vl, 16);
				if (f->vregs[i] != want_v)
					break;
			}
			if (i < 32)
				bad_delivery(0, "V%d in the FPSIMD record differs", i);
			if (f->fpsr != (start_regs.fpsr & hw.fpsr_mask) ||
			    f->fpcr != (start_regs.fpcr & hw.fpcr_mask))
				bad_delivery(0, "FPSR %#x FPCR %#x, were %#x %#x",
					     f->fpsr, f->fpcr,
					     (uint32_t)start_regs.fpsr & hw.fpsr_mask,
					     (uint32_t)start_regs.fpcr & hw.fpcr_mask);
		} else if (h->magic == ESR_MAGIC) {
			have_esr = 1;
		} else if (h->magic == SVE_MAGIC) {
			struct sve_context *s = (void *)h;

			have_sve = 1;
			if (s->vl != vl)
				bad_delivery(1, "SVE record VL %u, task's %u",
					     s->vl, vl);
			else if (sve_live && h->size < SVE_SIZE(vl))
				bad_delivery(1, "SVE record of %u bytes without the live registers",
					     h->size);
			else if (sve_live &&
				 (memcmp((void *)(at + ZREG_OFF(0)), start_regs.z, 32 * vl) ||
				  memcmp((void *)(at + PREG_OFF(0)), start_regs.p, 17 * vl / 8)))
				bad_delivery(1, "Z/P/FFR in the SVE record differ from the live ones");
		} else if (h->magic == EXTRA_MAGIC) {
			struct extra_context *x = (void *)h;

			if (!mapped(x->datap, x->size) ||
			    x->datap != at + h->size + 16) {
				bad_delivery(0, "extra_context datap %#llx size %u",
					     (unsigned long long)x->datap, x->size);
				return;
			}
			at = x->datap;
			end = at + x->size;
			continue;
		}
		at += h->size;
	}
	if (!have_fp)
		bad_delivery(0, "no FPSIMD record");
	if (trigger_kind == 1 && !have_esr)
		bad_delivery(0, "no ESR record after a data abort");
	if (sve_live && !have_sve)
		bad_delivery(1, "no SVE record while SVE was live");
}

/* -- editing: the records as blobs, laid out again */
#define MAX_BLOBS	24
static struct blob {
	uint8_t *b;
	uint32_t len;		/* bytes to write, header included */
} blobs[MAX_BLOBS];
static int nblobs;
static uint8_t pool[192 << 10] __attribute__((aligned(16)));
static size_t pool_used;

static struct blob *blob_new(uint32_t len)
{
	struct blob *b;

	len = (len + 15) & ~15U;
	if (nblobs == MAX_BLOBS || pool_used + len > sizeof(pool))
		return NULL;
	b = &blobs[nblobs++];
	b->b = pool + pool_used;
	b->len = len;
	pool_used += len;
	memset(b->b, 0, len);
	return b;
}

static void blob_insert(int at, struct blob nb)
{
	/* blob_new() appended it: move it to @at */
	memmove(&blobs[at + 1], &blobs[at], (nblobs - 1 - at) * sizeof(nb));
	blobs[at] = nb;
}

static uint32_t blob_magic(int i)
{
	return rd32((uintptr_t)blobs[i].b);
}

/* Take the records of a kernel-made frame; 0 when it cannot be read. */
static int take_blobs(uintptr_t resv)
{
	uintptr_t at = resv, end = resv + RESV_SIZE;

	nblobs = 0;
	pool_used = 0;
	while (at + 8 <= end) {
		uint32_t magic = rd32(at), size = rd32(at + 4);
		struct blob *b;

		if (!magic)
			return 1;
		if (size < 16 || size % 16 || size > end - at)
			return 0;
		if (magic == EXTRA_MAGIC) {
			uint64_t datap = rd64(at + 8);
			uint32_t xsize = rd32(at + 16);

			if (datap != at + size + 16 || !mapped(datap, xsize))
				return 0;
			at = datap;
			end = at + xsize;
			continue;
		}
		b = blob_new(size);
		if (!b)
			return 0;
		memcpy(b->b, (void *)at, size);
		at += size;
	}
	return 0;
}

/* End of the frame and its extra space, as edited. */
static uintptr_t frame_end;

/* How the blobs go back into the frame. */
static struct layout {
	int extra_at;		/* blob index starting the extra space; -1 auto */
	int no_terminator;
	int no_extra_null;	/* leave out the null record after extra_context */
	uint32_t extra_rec;	/* size field and length of the extra_context */
	int datap_mode;
	int size_mode;
	int dup_extra;		/* a second extra_context in the extra space */
	uintptr_t datap;	/* as written, for the notes */
	uint32_t size;
} lay;

enum { DP_EXACT, DP_PLUS16, DP_MISALIGNED, DP_NULL, DP_KERNEL, DP_UNMAPPED,
       DP_FRAME, DP_RESERVED, DP_SIGINFO, DP_RANDOM, DP_PAST_CAP, NR_DP };
enum { SZ_EXACT, SZ_PLUS16, SZ_MINUS16, SZ_ZERO, SZ_UNALIGNED, SZ_HUGE,
       SZ_CAP, SZ_CAP_PLUS16, SZ_RANDOM, NR_SZ };

static const char *const dp_names[NR_DP] = {
	"exact", "+16", "misaligned", "NULL", "kernel", "unmapped", "frame",
	"__reserved", "siginfo", "random", "past the 256K cap",
};
static const char *const sz_names[NR_SZ] = {
	"exact", "+16", "-16", "0", "unaligned", "huge", "cap", "cap+16",
	"random",
};

/*
 * Write the blobs back from __reserved[] on, with an extra_context when
 * they do not fit or the layout asks for one.  @frame is the frame base,
 * @limit the end of the memory the frame may use.
 */
static void lay_out(uintptr_t frame, uintptr_t resv, uintptr_t limit)
{
	uintptr_t at = resv, inline_end = resv + RESV_SIZE - 48, data = 0;
	uint32_t natural;
	int i, in_extra = 0;

	memset((void *)resv, 0, limit - resv);
	for (i = 0; i <= nblobs; i++) {
		uint32_t len = i < nblobs ? blobs[i].len : 0;

		if (!in_extra && (i == lay.extra_at ||
				  (lay.extra_at < 0 && i < nblobs &&
				   at + len > inline_end))) {
			if (at + lay.extra_rec + 16 > limit)
				break;
			wr32(at, EXTRA_MAGIC);
			wr32(at + 4, lay.extra_rec);
			lay.datap = at;		/* the record, for now */
			at += lay.extra_rec;
			if (!lay.no_extra_null)
				at += 16;
			data = at;
			in_extra = 1;
		}
		if (i == nblobs)
			break;
		if (in_extra && lay.dup_extra && i == nblobs - 1 &&
		    at + 48 <= limit) {
			wr32(at, EXTRA_MAGIC);
			wr32(at + 4, 32);
			wr64(at + 8, at + 48);
			wr32(at + 16, 16);
			at += 48;
		}
		if (at + len > limit) {
			NOTE(rep->what, " (no room for record %d)", i);
			break;
		}
		memcpy((void *)at, blobs[i].b, len);
		at += len;
	}
	if (!lay.no_terminator && at + 16 <= limit)
		at += 16;	/* the null record: already zero */
	if (at > frame_end)
		frame_end = at;
	if (!in_extra)
		return;

	{
		uintptr_t rec = lay.datap, exact = data, dp = exact;
		uint64_t cap = frame + SIGFRAME_MAX - exact;

		natural = at - data;
		switch (lay.datap_mode) {
		case DP_PLUS16: dp = exact + 16; break;
		case DP_MISALIGNED: dp = exact + 8; break;
		case DP_NULL: dp = 0; break;
		case DP_KERNEL: dp = 0xffff800008000000ULL; break;
		case DP_UNMAPPED: dp = (uintptr_t)reloc - GUARD / 2; break;
		case DP_FRAME: dp = frame; break;
		case DP_RESERVED: dp = resv; break;
		case DP_SIGINFO: dp = frame + 16; break;
		case DP_RANDOM: dp = rnd(&rs); break;
		case DP_PAST_CAP: dp = frame + SIGFRAME_MAX + 16; break;
		}
		switch (lay.size_mode) {
		case SZ_EXACT: lay.size = natural; break;
		case SZ_PLUS16: lay.size = natural + 16; break;
		case SZ_MINUS16: lay.size = natural - 16; break;
		case SZ_ZERO: lay.size = 0; break;
		case SZ_UNALIGNED: lay.size = natural + 8; break;
		case SZ_HUGE: lay.size = 0xfffffff0; break;
		case SZ_CAP: lay.size = cap; break;
		case SZ_CAP_PLUS16: lay.size = cap + 16; break;
		default: lay.size = rnd(&rs); break;
		}
		wr64(rec + 8, dp);
		wr32(rec + 16, lay.size);
		lay.datap = dp;
	}
}

/* -- the model: what the ABI says of the frame at @frame */
static void expect(int cls, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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

static void model(uintptr_t frame)
{
	uintptr_t uc = frame + sizeof(siginfo_t);
	uintptr_t mc = uc + offsetof(ucontext_t, uc_mcontext);
	uintptr_t base = mc + offsetof(mcontext_t, __reserved);
	uintptr_t fp = 0, sve = 0;
	uint64_t off = 0, limit = RESV_SIZE, ps;
	int in_extra = 0, have_extra = 0, i;

	want.pc_faults = 0;
	if (frame % 16)
		expect(EXPECT_REJECT, "sp not 16-byte aligned");
	if (frame >= TASK_TOP || frame + sizeof(siginfo_t) + sizeof(ucontext_t) > TASK_TOP) {
		expect(EXPECT_REJECT, "frame outside user memory");
		return;
	}
	/* both kernels read the mask, the registers and uc_stack */
	if (!mapped(uc + offsetof(ucontext_t, uc_stack),
		    base - (uc + offsetof(ucontext_t, uc_stack)))) {
		expect(EXPECT_REJECT, "ucontext unmapped");
		return;
	}
	if (!mapped(uc, 16))
		expect(EXPECT_EITHER, "uc_flags/uc_link unmapped");

	for (i = 0; i < 31; i++)
		want.x[i] = rd64(mc + offsetof(mcontext_t, regs) + 8 * i);
	want.sp = rd64(mc + offsetof(mcontext_t, sp));
	want.pc = rd64(mc + offsetof(mcontext_t, pc));
	ps = rd64(mc + offsetof(mcontext_t, pstate));
	want.mask = rd64(uc + offsetof(ucontext_t, uc_sigmask)) &
		    ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	want.pstate = ps & ~PSR_RES0;
	if (want.pstate & (PSR_M | PSR_NRW))
		expect(EXPECT_REJECT, "pstate mode %#llx is not EL0t AArch64",
		       (unsigned long long)(want.pstate & 0x1f));
	if (want.pstate & PSR_DAIF)
		expect(EXPECT_REJECT, "pstate masks DAIF");
	if (ps & PSR_IL)
		expect(EXPECT_EITHER, "pstate IL set (RES0: both kernels clear it)");

	for (;;) {
		uintptr_t h = base + off;
		uint32_t magic, size;

		if (limit - off < 8) {
			expect(EXPECT_REJECT, "records run off their area");
			return;
		}
		if (off % 16) {
			expect(EXPECT_REJECT, "record at +%llu misaligned",
			       (unsigned long long)off);
			return;
		}
		if (!mapped(h, 8)) {
			expect(EXPECT_REJECT, "record header unmapped");
			return;
		}
		magic = rd32(h);
		size = rd32(h + 4);
		if (limit - off < size) {
			expect(EXPECT_REJECT, "record %#x of %u bytes overruns", magic, size);
			return;
		}
		if (!magic) {
			if (size)
				expect(EXPECT_REJECT, "null record of size %u", size);
			break;
		}
		switch (magic) {
		case FPSIMD_MAGIC:
			if (fp) {
				expect(EXPECT_REJECT, "two FPSIMD records");
				return;
			}
			if (size < FPSIMD_SIZE) {
				expect(EXPECT_REJECT, "FPSIMD record of %u bytes", size);
				return;
			}
			if (!mapped(h, FPSIMD_SIZE)) {
				expect(EXPECT_REJECT, "FPSIMD record unmapped");
				return;
			}
			if (in_extra)
				expect(EXPECT_EITHER, "FPSIMD record in the extra space");
			fp = h;
			break;
		case ESR_MAGIC:
			if (in_extra)
				expect(EXPECT_EITHER, "ESR record in the extra space");
			break;
		case SVE_MAGIC:
			if (!hw.sve) {
				expect(EXPECT_REJECT, "SVE record without SVE");
				return;
			}
			if (sve) {
				expect(EXPECT_REJECT, "two SVE records");
				return;
			}
			if (size < 16) {
				expect(EXPECT_REJECT, "SVE record of %u bytes", size);
				return;
			}
			sve = h;
			break;
		case EXTRA_MAGIC: {
			uint64_t datap;
			uint32_t xsize;
			uintptr_t after = h + size;

			if (have_extra) {
				expect(EXPECT_REJECT, "two extra_context records");
				return;
			}
			if (size < 32) {
				expect(EXPECT_REJECT, "extra_context of %u bytes", size);
				return;
			}
			if (!mapped(h, 32)) {
				expect(EXPECT_REJECT, "extra_context unmapped");
				return;
			}
			datap = rd64(h + 8);
			xsize = rd32(h + 16);
			if (limit - off - size < 16 || !mapped(after, 16) ||
			    rd32(after) || rd32(after + 4)) {
				expect(EXPECT_REJECT, "no null record after extra_context");
				return;
			}
			if (datap % 16 || xsize % 16 || datap != after + 16) {
				expect(EXPECT_REJECT, "extra_context datap %#llx size %u (space at %#lx)",
				       (unsigned long long)datap, xsize, after + 16);
				return;
			}
			if (xsize > frame + SIGFRAME_MAX - (after + 16)) {
				expect(EXPECT_REJECT, "extra space past the 256K cap");
				return;
			}
			if (datap + xsize > TASK_TOP) {
				expect(EXPECT_REJECT, "extra space outside user memory");
				return;
			}
			have_extra = in_extra = 1;
			base = datap;
			off = 0;
			limit = xsize;
			continue;
		}
		case ZA_MAGIC_:
			expect(EXPECT_REJECT, "ZA record without SME");
			return;
		default:
			expect(EXPECT_REJECT, "unknown record %#x", magic);
			return;
		}
		if (size < 8) {
			expect(EXPECT_REJECT, "record %#x of %u bytes", magic, size);
			return;
		}
		off += size;
	}

	if (!fp) {
		expect(EXPECT_REJECT, "no FPSIMD record");
		return;
	}
	memcpy(want.v, (void *)(fp + 16), sizeof(want.v));
	want.fpsr = rd32(fp + 8) & hw.fpsr_mask;
	want.fpcr = rd32(fp + 12) & hw.fpcr_mask;
	want.sve_regs = 0;
	if (sve) {
		uint32_t size = rd32(sve + 4);
		uint16_t svl, flags;

		memcpy(&svl, (void *)(sve + 8), 2);
		memcpy(&flags, (void *)(sve + 10), 2);
		if (flags & 1) {
			expect(EXPECT_REJECT, "SVE record in streaming mode without SME");
			return;
		}
		if (flags)
			expect(EXPECT_EITHER, "SVE record flags %#x", flags);
		if (svl != vl) {
			expect(EXPECT_REJECT, "SVE record VL %u, task's %u", svl, vl);
			return;
		}
		if (size > 16 && size < SVE_SIZE(vl)) {
			expect(EXPECT_REJECT, "SVE record of %u bytes, %u needed",
			       size, (unsigned int)SVE_SIZE(vl));
			return;
		}
		if (size > 16) {
			if (!mapped(sve, SVE_SIZE(vl))) {
				expect(EXPECT_REJECT, "SVE registers unmapped");
				return;
			}
			want.sve_regs = 1;
			memcpy(want.z, (void *)(sve + ZREG_OFF(0)), 32 * vl);
			memcpy(want.p, (void *)(sve + PREG_OFF(0)), 17 * vl / 8);
		}
		if (rd32(fp + 4) != FPSIMD_SIZE)
			expect(EXPECT_EITHER, "FPSIMD record of %u bytes with an SVE record",
			       rd32(fp + 4));
	} else if (rd32(fp + 4) != FPSIMD_SIZE) {
		expect(EXPECT_REJECT, "FPSIMD record of %u bytes", rd32(fp + 4));
		return;
	}
	/* the V registers always come from the FPSIMD record */
	if (hw.sve && !want.sve_regs) {
		memset(want.z, 0, sizeof(want.z));
		memset(want.p, 0, sizeof(want.p));
	}
	for (i = 0; hw.sve && i < 32; i++)
		memcpy(want.z + i * vl, &want.v[i], 16);
	want.check_ffr = ffr_monotonic(want.p + 16 * vl / 8);
	if (want.pc != (uintptr_t)landing) {
		if (want.pc % 4 && want.pc < TASK_TOP) {
			want.pc_faults = 1;
		} else {
			want.pc_faults = 0;
			expect(EXPECT_EITHER, "pc %#llx: the resumed code faults",
			       (unsigned long long)want.pc);
		}
	}
}

/* -- the mutations */
enum { M_PSTATE, M_SP, M_PC, M_FP_VALUES, M_SVE_VALUES, M_BYTES, M_MAGIC,
       M_SIZE, M_ORDER, M_DUP, M_DROP, M_INSERT, M_TERMINATOR, M_EXTRA,
       M_SVE_VL, M_SVE_SIZE, M_SVE_FLAGS, M_RELOCATE, M_SIGMASK, M_UCSTACK,
       M_MISC, NR_M };

static const char *const m_names[NR_M] = {
	"pstate", "sp", "pc", "fp-values", "sve-values", "bytes", "magic",
	"size", "order", "dup", "drop", "insert", "terminator", "extra",
	"sve-vl", "sve-size", "sve-flags", "relocate", "sigmask", "uc_stack",
	"misc",
};

static int find_blob(uint32_t magic)
{
	int i;

	for (i = 0; i < nblobs; i++)
		if (blob_magic(i) == magic)
			return i;
	return -1;
}

static uint32_t other_vl(void)
{
	switch (rnd_below(&rs, 4)) {
	case 0:
		return hw.nvl ? hw.vls[rnd_below(&rs, hw.nvl)] : 16;
	case 1:
		return 0;
	case 2:
		return 16 * (1 + rnd_below(&rs, 32));
	default:
		return rnd(&rs) & 0xffff;
	}
}

static struct {
	int mode;		/* 0 stay, 1 aligned, 2 misaligned, 3 top edge,
				 * 4 bottom edge, 5 kernel, 6 unmapped, 7 NULL */
	int fix_datap;
} reloc_plan;

static void mutate_blobs(int m)
{
	int i = nblobs ? rnd_below(&rs, nblobs) : 0, j;
	struct blob *b;
	uint32_t magics[] = { 0, FPSIMD_MAGIC, ESR_MAGIC, SVE_MAGIC,
			      EXTRA_MAGIC, ZA_MAGIC_, TPIDR2_MAGIC, 0x12345678 };

	switch (m) {
	case M_BYTES:
		if (!nblobs)
			break;
		for (j = 1 + rnd_below(&rs, 8); j; j--) {
			uint32_t at = rnd_chance(&rs, 1, 3) ? rnd_below(&rs, 8) :
				      rnd_below(&rs, blobs[i].len);

			blobs[i].b[at] = rnd(&rs);
			NOTE(rep->what, " byte %u of record %d", at, i);
		}
		break;
	case M_MAGIC:
		if (!nblobs)
			break;
		wr32((uintptr_t)blobs[i].b,
		     rnd_chance(&rs, 1, 8) ? (uint32_t)rnd(&rs) :
		     magics[rnd_below(&rs, 8)]);
		NOTE(rep->what, " record %d magic %#x", i, blob_magic(i));
		break;
	case M_SIZE: {
		uint32_t s, n;

		if (!nblobs)
			break;
		s = rd32((uintptr_t)blobs[i].b + 4);
		switch (rnd_below(&rs, 9)) {
		case 0: n = 0; break;
		case 1: n = 8; break;
		case 2: n = 16; break;
		case 3: n = s - 16; break;
		case 4: n = s + 16; break;
		case 5: n = s + 1; break;
		case 6: n = 0xffffffff; break;
		case 7: n = 4096; break;
		default: n = rnd(&rs); break;
		}
		wr32((uintptr_t)blobs[i].b + 4, n);
		NOTE(rep->what, " record %d size %u", i, n);
		break;
	}
	case M_ORDER:
		for (j = nblobs - 1; j > 0; j--) {
			int k = rnd_below(&rs, j + 1);
			struct blob t = blobs[j];

			blobs[j] = blobs[k];
			blobs[k] = t;
		}
		NOTE(rep->what, " shuffled");
		break;
	case M_DUP:
		if (!nblobs)
			break;
		b = blob_new(blobs[i].len);
		if (!b)
			break;
		memcpy(b->b, blobs[i].b, b->len);
		blob_insert(rnd_below(&rs, nblobs), *b);
		NOTE(rep->what, " duplicated %#x", rd32((uintptr_t)b->b));
		break;
	case M_DROP:
		if (!nblobs)
			break;
		NOTE(rep->what, " dropped %#x", blob_magic(i));
		memmove(&blobs[i], &blobs[i + 1], (nblobs - i - 1) * sizeof(*b));
		nblobs--;
		break;
	case M_INSERT: {
		int kind = rnd_below(&rs, 7);
		uint32_t len = kind == 1 ? 32 : kind == 4 && vl ? SVE_SIZE(vl) : 16;

		b = blob_new(len);
		if (!b)
			break;
		switch (kind) {
		case 0:
		case 1:
			wr32((uintptr_t)b->b, ESR_MAGIC);
			wr64((uintptr_t)b->b + 8, rnd(&rs));
			break;
		case 2:
			wr32((uintptr_t)b->b, 0x40000000 | (uint32_t)rnd(&rs));
			break;
		case 3:
		case 4:
			wr32((uintptr_t)b->b, SVE_MAGIC);
			*(uint16_t *)(b->b + 8) = rnd_chance(&rs, 3, 4) ? vl : other_vl();
			if (len > 16)
				randomize(b->b + 16, len - 16);
			if (len > 16)
				gen_ffr(b->b + PREG_OFF(16));
			break;
		case 5:
			wr32((uintptr_t)b->b, ZA_MAGIC_);
			*(uint16_t *)(b->b + 8) = vl;
			break;
		default:
			wr32((uintptr_t)b->b, TPIDR2_MAGIC);
			wr64((uintptr_t)b->b + 8, rnd(&rs));
			break;
		}
		wr32((uintptr_t)b->b + 4, len);
		blob_insert(rnd_below(&rs, nblobs), *b);
		NOTE(rep->what, " inserted %#x/%u", rd32((uintptr_t)b->b), len);
		break;
	}
	case M_TERMINATOR:
		if (rnd_chance(&rs, 1, 2)) {
			lay.no_terminator = 1;
			NOTE(rep->what, " no null record");
		} else {
			b = blob_new(16);
			if (!b)
				break;
			wr32((uintptr_t)b->b + 4, 16 * (1 + rnd_below(&rs, 3)));
			blob_insert(rnd_below(&rs, nblobs), *b);
			NOTE(rep->what, " null record with size %u",
			     rd32((uintptr_t)b->b + 4));
		}
		break;
	case M_EXTRA:
		lay.extra_at = rnd_below(&rs, nblobs + 1);
		lay.datap_mode = rnd_chance(&rs, 1, 3) ? DP_EXACT : rnd_below(&rs, NR_DP);
		lay.size_mode = rnd_chance(&rs, 1, 3) ? SZ_EXACT : rnd_below(&rs, NR_SZ);
		lay.extra_rec = rnd_chance(&rs, 3, 4) ? 32 : 16 * rnd_below(&rs, 4);
		lay.no_extra_null = rnd_chance(&rs, 1, 8);
		lay.dup_extra = rnd_chance(&rs, 1, 8);
		NOTE(rep->what, " extra_context before record %d (rec %u, datap %s, size %s%s%s)",
		     lay.extra_at, lay.extra_rec, dp_names[lay.datap_mode],
		     sz_names[lay.size_mode],
		     lay.no_extra_null ? ", no null after it" : "",
		     lay.dup_extra ? ", a second one inside" : "");
		break;
	case M_SVE_VL:
		j = find_blob(SVE_MAGIC);
		if (j < 0)
			break;
		*(uint16_t *)(blobs[j].b + 8) = other_vl();
		NOTE(rep->what, " SVE VL %u", *(uint16_t *)(blobs[j].b + 8));
		break;
	case M_SVE_SIZE: {
		uint32_t n;

		j = find_blob(SVE_MAGIC);
		if (j < 0 || !vl)
			break;
		switch (rnd_below(&rs, 5)) {
		case 0:		/* registers dropped: header only */
			n = 16;
			blobs[j].len = 16;
			break;
		case 1:		/* registers added */
			b = blob_new(SVE_SIZE(vl));
			if (!b)
				return;
			memcpy(b->b, blobs[j].b, 16);
			randomize(b->b + 16, b->len - 16);
			gen_ffr(b->b + PREG_OFF(16));
			blobs[j] = *b;
			nblobs--;
			n = SVE_SIZE(vl);
			n = (n + 15) & ~15U;
			break;
		case 2:
			n = SVE_SIZE(vl) - 16;
			break;
		case 3:
			n = 32;
			break;
		default:
			n = rd32((uintptr_t)blobs[j].b + 4) + 16;
			break;
		}
		wr32((uintptr_t)blobs[j].b + 4, n);
		NOTE(rep->what, " SVE size %u", n);
		break;
	}
	case M_SVE_FLAGS:
		j = find_blob(SVE_MAGIC);
		if (j < 0)
			break;
		*(uint16_t *)(blobs[j].b + 10) = rnd_chance(&rs, 1, 2) ? 1 : rnd(&rs);
		NOTE(rep->what, " SVE flags %#x", *(uint16_t *)(blobs[j].b + 10));
		break;
	case M_FP_VALUES:
		j = find_blob(FPSIMD_MAGIC);
		if (j < 0)
			break;
		randomize(blobs[j].b + 8, FPSIMD_SIZE - 8);
		NOTE(rep->what, " FPSIMD values");
		break;
	case M_SVE_VALUES:
		j = find_blob(SVE_MAGIC);
		if (j < 0 || rd32((uintptr_t)blobs[j].b + 4) < SVE_SIZE(vl) ||
		    blobs[j].len < SVE_SIZE(vl))
			break;
		randomize(blobs[j].b + 16, SVE_SIZE(vl) - 16);
		if (rnd_chance(&rs, 3, 4))
			gen_ffr(blobs[j].b + PREG_OFF(16));
		NOTE(rep->what, " SVE values");
		break;
	}
}

/* Edit the frame; returns the frame base sigreturn will use. */
static uintptr_t mutate(siginfo_t *si, ucontext_t *uc)
{
	uintptr_t frame = (uintptr_t)si, resv = (uintptr_t)uc->uc_mcontext.__reserved;
	uintptr_t limit = region_end(frame), end = (uintptr_t)(uc + 1);
	mcontext_t *mc = &uc->uc_mcontext;
	int n, i, m, relaid = 0;

	/* the registers the resumed code must see */
	for (i = 0; i < 31; i++)
		mc->regs[i] = gen_value();
	mc->sp = gen_sp();
	mc->pc = (uintptr_t)landing;
	mc->pstate = (mc->pstate & ~PSR_NZCV) | (rnd(&rs) & PSR_NZCV);

	memset(&lay, 0, sizeof(lay));
	lay.extra_at = -1;
	lay.extra_rec = 32;
	memset(&reloc_plan, 0, sizeof(reloc_plan));
	if (!take_blobs(resv)) {
		NOTE(rep->what, " (frame records unreadable: left as they are)");
		return frame;
	}
	/* the extent of the frame, its extra space included */
	{
		uintptr_t at = resv;

		while (rd32(at)) {
			if (rd32(at) == EXTRA_MAGIC) {
				uintptr_t x = rd64(at + 8) + rd32(at + 16);

				if (x > end)
					end = x;
				break;
			}
			at += rd32(at + 4);
		}
	}
	if (limit < end)
		limit = end;
	frame_end = end;

	n = 1 + rnd_below(&rs, 3);
	if (verbose)
		NOTE(rep->what, "%d mutations:", n);
	for (i = 0; i < n; i++) {
		m = rnd_below(&rs, NR_M);
		NOTE(rep->what, " [%s]", m_names[m]);
		switch (m) {
		case M_PSTATE: {
			uint64_t bit;

			switch (rnd_below(&rs, 6)) {
			case 0:
				mc->pstate = (mc->pstate & ~0x1fULL) | rnd_below(&rs, 32);
				break;
			case 1:
				mc->pstate |= 1ULL << (6 + rnd_below(&rs, 4));
				break;
			case 2:
				mc->pstate |= PSR_IL;
				break;
			case 3:
				bit = rnd_below(&rs, 64);
				mc->pstate ^= 1ULL << bit;
				break;
			case 4:
				mc->pstate ^= rnd(&rs) & (PSR_DIT | PSR_TCO | PSR_SS |
							  (1ULL << 12) | (3ULL << 10));
				break;
			default:
				mc->pstate = rnd(&rs);
				break;
			}
			NOTE(rep->what, " %#llx", (unsigned long long)mc->pstate);
			break;
		}
		case M_SP:
			mc->sp = gen_sp();
			break;
		case M_PC:
			switch (rnd_below(&rs, 3)) {
			case 0:
				mc->pc = (uintptr_t)landing + 1 + rnd_below(&rs, 3);
				break;
			case 1:
				mc->pc = (uintptr_t)reloc - GUARD / 2;
				break;
			default:
				mc->pc = 0xffff800008000000ULL;
				break;
			}
			NOTE(rep->what, " %#llx", (unsigned long long)mc->pc);
			break;
		case M_RELOCATE:
			reloc_plan.mode = 1 + rnd_below(&rs, 7);
			reloc_plan.fix_datap = rnd_chance(&rs, 3, 4);
			NOTE(rep->what, " mode %d%s", reloc_plan.mode,
			     reloc_plan.fix_datap ? "" : " datap not moved");
			break;
		case M_SIGMASK: {
			uint64_t keep = (1ULL << (SIGTRAP - 1)) | (1ULL << (SIGBUS - 1)) |
					(1ULL << (SIGSEGV - 1)) | (1ULL << (SIGILL - 1));
			uint64_t mask = rnd(&rs) & ~keep;

			memcpy(&uc->uc_sigmask, &mask, 8);
			break;
		}
		case M_UCSTACK:
			switch (rnd_below(&rs, 4)) {
			case 0:
				uc->uc_stack.ss_flags = SS_DISABLE;
				break;
			case 1:
				uc->uc_stack.ss_sp = alt2;
				uc->uc_stack.ss_size = ALT_SIZE;
				uc->uc_stack.ss_flags = 0;
				break;
			case 2:
				uc->uc_stack.ss_flags = rnd(&rs);
				break;
			default:
				uc->uc_stack.ss_size = rnd_below(&rs, 8192);
				break;
			}
			expect(EXPECT_EITHER, "uc_stack edited");
			break;
		case M_MISC:
			switch (rnd_below(&rs, 4)) {
			case 0:
				randomize(si, sizeof(*si));
				break;
			case 1:
				uc->uc_flags = rnd(&rs);
				uc->uc_link = (void *)rnd(&rs);
				break;
			case 2:
				mc->fault_address = rnd(&rs);
				break;
			default:
				randomize((char *)&uc->uc_sigmask + 8,
					  sizeof(uc->uc_sigmask) - 8);
				break;
			}
			break;
		default:
			mutate_blobs(m);
			relaid = 1;
			break;
		}
	}
	if (relaid || reloc_plan.mode)
		lay_out(frame, resv, limit);
	return frame;
}

/* Move the frame as reloc_plan says; returns the new frame base. */
static uintptr_t relocate(uintptr_t frame, uintptr_t *end)
{
	uintptr_t resv = frame + sizeof(siginfo_t) +
			 offsetof(ucontext_t, uc_mcontext.__reserved);
	uintptr_t len = *end - frame, to, x = 0;
	uintptr_t lo = (uintptr_t)reloc, hi = lo + RELOC_SIZE, a, b;

	switch (reloc_plan.mode) {
	case 1:
		to = lo + 16 * rnd_below(&rs, (RELOC_SIZE - len) / 16);
		break;
	case 2:
		to = lo + 16 * rnd_below(&rs, (RELOC_SIZE - len) / 16) +
		     1 + rnd_below(&rs, 15);
		break;
	case 3:		/* runs into the guard above */
		to = (hi - 16 * (1 + rnd_below(&rs, len / 16))) & ~15UL;
		break;
	case 4:		/* starts in the guard below */
		to = lo - 16 * (1 + rnd_below(&rs, 64));
		break;
	case 5:
		return 0xffff800008000000ULL + 16 * rnd_below(&rs, 1024);
	case 6:
		return lo - GUARD / 2;
	default:
		return 0;
	}
	/* copy what lands on mapped memory */
	for (a = 0; a < len; a += 16) {
		b = to + a;
		if (mapped(b, 16))
			memcpy((void *)b, (void *)(frame + a), 16);
	}
	/* an extra_context points at the old place: move it too */
	{
		uintptr_t at = resv;

		while (at + 16 <= *end && rd32(at)) {
			if (rd32(at) == EXTRA_MAGIC) {
				x = at - frame + 8;
				break;
			}
			if (rd32(at + 4) < 16 || rd32(at + 4) % 16)
				break;
			at += rd32(at + 4);
		}
	}
	if (x && reloc_plan.fix_datap && mapped(to + x, 8))
		wr64(to + x, rd64(frame + x) - frame + to);
	*end = to + len;
	return to;
}

static void __attribute__((noreturn)) sigreturn_from(uintptr_t sp)
{
	asm volatile("mov	sp, %0\n"
		     "mov	x8, #139\n"	/* __NR_rt_sigreturn */
		     "svc	#0\n"
		     "udf	#2\n" : : "r"(sp) : "memory");
	__builtin_unreachable();
}

static void check_landed(int sig, ucontext_t *uc);

static void on_trigger(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t frame, end;

	if (phase) {		/* resumed at a pc that faulted */
		check_landed(sig, uc);
		_exit(rep->state[0] ? FUZZ_BAD_STATE : FUZZ_OK);
	}
	if (trigger_kind == 2 &&
	    uc->uc_mcontext.pc != (uintptr_t)trigger_spin_end) {
		/* the timer beat the loads: let them finish, then again */
		struct itimerspec again = { .it_value = { 0, 200 * 1000 } };

		timer_settime(hw.timer, 0, &again, NULL);
		return;
	}
	phase = 1;
	rep->stage = STAGE_DELIVERED;
	check_delivery(sig, si, uc);
	frame = mutate(si, uc);
	end = frame_end;
	if (reloc_plan.mode)
		frame = relocate(frame, &end);
	model(frame);
	if (vl) {
		int i;

		for (i = 0; i < nblobs; i++)
			if (blob_magic(i) == SVE_MAGIC)
				rep->sve = 1;
	}
	if (verbose) {
		printf("# case: trigger %d, VL %u, SVE %s, handler %s\n#  %s\n#  expect %s: %s\n",
		       trigger_kind, vl, sve_live ? "live" : "not live",
		       handler_on_alt ? "on the alternate stack" : "on the stack",
		       rep->what, rep->expect == EXPECT_ACCEPT ? "accept" :
		       rep->expect == EXPECT_REJECT ? "refuse" : "either",
		       rep->expect_why);
		fflush(stdout);
	}
	rep->stage = STAGE_MUTATED;
	if (reloc_plan.mode)
		sigreturn_from(frame);
}

/* -- after sigreturn */
static void bad_state(int sve_only, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad_state(int sve_only, const char *fmt, ...)
{
	va_list ap;

	if (rep->state[0]) {
		if (!sve_only)
			rep->state_sve = 0;
		return;
	}
	rep->state_sve = sve_only;
	va_start(ap, fmt);
	vsnprintf(rep->state, sizeof(rep->state), fmt, ap);
	va_end(ap);
}

static void check_landed(int sig, ucontext_t *uc)
{
	mcontext_t *mc = &uc->uc_mcontext;
	uint64_t ps = mc->pstate, mask;
	int i, from_regs;

	rep->stage = STAGE_RESUMED;
	if ((ps & PSR_M) || (ps & PSR_NRW) || (ps & PSR_DAIF) || (ps & PSR_IL))
		bad_state(0, "resumed with pstate %#llx: not EL0t AArch64 with DAIF clear",
			  (unsigned long long)ps);
	if ((ps & hw.pstate_kept) != (want.pstate & hw.pstate_kept))
		bad_state(0, "pstate %#llx, frame asked %#llx (bits %#llx)",
			  (unsigned long long)ps, (unsigned long long)want.pstate,
			  (unsigned long long)hw.pstate_kept);
	memcpy(&mask, &uc->uc_sigmask, 8);
	if (mask != want.mask)
		bad_state(0, "signal mask %#llx, frame asked %#llx",
			  (unsigned long long)mask, (unsigned long long)want.mask);

	if (sig == SIGTRAP && mc->pc == (uintptr_t)landing_brk && !want.pc_faults) {
		from_regs = 0;
	} else if (sig == SIGBUS && want.pc_faults && mc->pc == want.pc) {
		from_regs = 1;	/* nothing ran: the frame holds it all */
	} else {
		bad_state(0, "stopped by signal %d at pc %#llx, frame asked pc %#llx",
			  sig, (unsigned long long)mc->pc,
			  (unsigned long long)want.pc);
		return;
	}

	for (i = 0; i < 31; i++) {
		uint64_t got = from_regs ? mc->regs[i] : landed_regs.x[i];

		if (got != want.x[i]) {
			bad_state(0, "x%d %#llx, frame asked %#llx", i,
				  (unsigned long long)got,
				  (unsigned long long)want.x[i]);
			break;
		}
	}
	if ((from_regs ? mc->sp : landed_regs.sp) != want.sp)
		bad_state(0, "sp %#llx, frame asked %#llx",
			  (unsigned long long)(from_regs ? mc->sp : landed_regs.sp),
			  (unsigned long long)want.sp);
	if (from_regs)
		return;
	for (i = 0; i < 32; i++)
		if (landed_regs.q[i] != want.v[i]) {
			bad_state(0, "V%d differs from the FPSIMD record", i);
			break;
		}
	if ((uint32_t)landed_regs.fpsr != want.fpsr ||
	    (uint32_t)landed_regs.fpcr != want.fpcr)
		bad_state(0, "FPSR %#x FPCR %#x, frame asked %#x %#x",
			  (uint32_t)landed_regs.fpsr, (uint32_t)landed_regs.fpcr,
			  want.fpsr, want.fpcr);
	if (!hw.sve)
		return;
	for (i = 0; i < 32; i++)
		if (memcmp(landed_regs.z + i * vl, want.z + i * vl, vl)) {
			bad_state(1, "Z%d differs (%s)", i, want.sve_regs ?
				  "frame had an SVE record with registers" :
				  "frame had no SVE registers: want V, zero-extended");
			break;
		}
	if (memcmp(landed_regs.p, want.p, 16 * vl / 8))
		bad_state(1, "P registers differ");
	if (want.check_ffr && memcmp(landed_regs.p + 16 * vl / 8,
				     want.p + 16 * vl / 8, vl / 8))
		bad_state(1, "FFR differs");
}

void landing_check(int sig, siginfo_t *si, void *ucv);
void landing_check(int sig, siginfo_t *si, void *ucv)
{
	check_landed(sig, ucv);
	_exit(rep->state[0] ? FUZZ_BAD_STATE : FUZZ_OK);
}

static void __attribute__((noreturn)) fuzz_child(struct fuzz_report *r,
						 uint64_t seed, int loud)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	stack_t ss = { .ss_sp = alt, .ss_size = ALT_SIZE };
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGALRM };
	struct itimerspec its = { .it_value = { 0, 200 * 1000 } };
	int i;

	rep = r;
	rs = seed;
	verbose = loud;
	memset(rep, 0, sizeof(*rep));
	rep->stage = STAGE_SETUP;

	if (hw.sve) {
		vl = hw.vls[rnd_below(&rs, hw.nvl)];
		if ((prctl(PR_SVE_SET_VL, vl) & VL_MASK) != (int)vl)
			_exit(FUZZ_SETUP);
		sve_live = rnd_chance(&rs, 2, 5);
		rep->sve = sve_live;
	}
	trigger_kind = rnd_below(&rs, 3);
	handler_on_alt = trigger_kind == 1 || rnd_chance(&rs, 1, 2);

	if (sigaltstack(&ss, NULL))
		_exit(FUZZ_SETUP);
	sigfillset(&sa.sa_mask);
	sa.sa_sigaction = on_trigger;
	sa.sa_flags = SA_SIGINFO | (handler_on_alt ? SA_ONSTACK : 0);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	/* also what a misaligned pc raises after sigreturn: a sure stack */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_sigaction = on_landing;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGTRAP, &sa, NULL);
	signal(SIGSEGV, SIG_DFL);

	for (i = 0; i < 31; i++)
		start_regs.x[i] = gen_value();
	start_regs.sp = (uintptr_t)tstack + TSTACK_SIZE - 32768 -
			16 * rnd_below(&rs, 1024);
	start_regs.nzcv = rnd(&rs) & PSR_NZCV;
	start_regs.fpsr = rnd(&rs) & hw.fpsr_mask;
	start_regs.fpcr = rnd(&rs) & hw.fpcr_mask;
	randomize(start_regs.q, sizeof(start_regs.q));
	start_regs.sve = sve_live;
	if (sve_live) {
		randomize(start_regs.z, 32 * vl);
		randomize(start_regs.p, 16 * vl / 8);
		gen_ffr(start_regs.p + 16 * vl / 8);
	}
	if (trigger_kind == 1)
		start_regs.x[30] = (uintptr_t)tstack + 1 + 4 * rnd_below(&rs, 64);
	landed_regs.sve = hw.sve;
	asm volatile("mrs %0, tpidr_el0" : "=r"(saved_tls));

	if (trigger_kind == 2) {
		if (timer_create(CLOCK_MONOTONIC, &sev, &hw.timer) ||
		    timer_settime(hw.timer, 0, &its, NULL))
			_exit(FUZZ_SETUP);
		trigger_spin(&start_regs);
	} else if (trigger_kind == 1) {
		trigger_bus(&start_regs);
	} else {
		trigger_udf(&start_regs);
	}
	_exit(FUZZ_SETUP);
}
