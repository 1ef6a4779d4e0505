// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt_sigreturn racing a thread that rewrites the frame's record sizes.
 *
 * One thread returns through a frame in a loop; another keeps flipping
 * the FPSIMD record's size between 528 and 544 and the SVE record's
 * between its header (16) and its full size.  The frame is laid out so
 * that each combination is a valid frame on its own: an ESR record fills
 * the 16 bytes a 544-byte FPSIMD record covers, and the first 8 bytes of
 * the SVE payload are zero, a null record for a header-only SVE record.
 * What the sizes say when the kernel reads them decides what it takes:
 * the full SVE registers, or V0-V31 alone (SVE size 16), or nothing
 * (SIGSEGV: sizes that changed under the kernel, or, without SVE, a
 * 544-byte FPSIMD record).  Whatever it does, a return that completes must
 * land with one whole register set of the frame: its x1-x30, sp, FPSR,
 * FPCR and V registers, and either all of its Z, P and FFR or none of it
 * beyond V.  A kernel that trusted a size read once for one use and again
 * for another would copy past the record, or mix the two readings; the
 * console is watched for any kernel report meanwhile.
 *
 * A fixed number of returns, each checked; how many went which way is
 * only reported, since that is up to the scheduler.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "sve_regs.h"

#define UNRACED		50
#define RACED		2000
#define VL		32		/* bytes: 256-bit vectors */
#define FRAME_SIZE	(sizeof(siginfo_t) + sizeof(ucontext_t))
#define FPSIMD_SIZE	sizeof(struct fpsimd_context)
#define ESR_AT		FPSIMD_SIZE
#define SVE_AT		(ESR_AT + sizeof(struct esr_context))
#define SVE_FULL	((SVE_SIG_CONTEXT_SIZE(VL / 16) + 15) & ~15U)

/* What the landing stores; the offsets are spelled out in its asm. */
struct landing {
	uint64_t x[31];
	uint64_t sp;
	uint32_t fpsr, fpcr;
	uint64_t pad;
	unsigned char v[32][16];
	unsigned char sve[SVE_SIG_REGS_SIZE(VL / 16)];
};

_Static_assert(offsetof(struct landing, sp) == 248, "landing layout");
_Static_assert(offsetof(struct landing, fpsr) == 256, "landing layout");
_Static_assert(offsetof(struct landing, v) == 272, "landing layout");
_Static_assert(offsetof(struct landing, sve) == 784, "landing layout");

/*
 * sigreturn_at(frame): sp = frame, rt_sigreturn.
 * race_landing_fp, race_landing_sve: where a taken frame resumes, x0 =
 * the struct landing: store the registers there, FPSR and FPCR back to
 * zero for the C code, and on to race_landed().
 */
void sigreturn_at(void *frame);
void race_landing_fp(void);
void race_landing_sve(void);
void race_landed(void);

#define LANDING_GPRS							\
	"	stp	x0, x1, [x0, #0]\n"				\
	"	stp	x2, x3, [x0, #16]\n"				\
	"	stp	x4, x5, [x0, #32]\n"				\
	"	stp	x6, x7, [x0, #48]\n"				\
	"	stp	x8, x9, [x0, #64]\n"				\
	"	stp	x10, x11, [x0, #80]\n"				\
	"	stp	x12, x13, [x0, #96]\n"				\
	"	stp	x14, x15, [x0, #112]\n"				\
	"	stp	x16, x17, [x0, #128]\n"				\
	"	stp	x18, x19, [x0, #144]\n"				\
	"	stp	x20, x21, [x0, #160]\n"				\
	"	stp	x22, x23, [x0, #176]\n"				\
	"	stp	x24, x25, [x0, #192]\n"				\
	"	stp	x26, x27, [x0, #208]\n"				\
	"	stp	x28, x29, [x0, #224]\n"				\
	"	str	x30, [x0, #240]\n"				\
	"	mov	x1, sp\n"					\
	"	str	x1, [x0, #248]\n"				\
	"	mrs	x1, fpsr\n"					\
	"	str	w1, [x0, #256]\n"				\
	"	mrs	x1, fpcr\n"					\
	"	str	w1, [x0, #260]\n"				\
	"	add	x1, x0, #272\n"					\
	"	stp	q0, q1, [x1, #0]\n"				\
	"	stp	q2, q3, [x1, #32]\n"				\
	"	stp	q4, q5, [x1, #64]\n"				\
	"	stp	q6, q7, [x1, #96]\n"				\
	"	stp	q8, q9, [x1, #128]\n"				\
	"	stp	q10, q11, [x1, #160]\n"				\
	"	stp	q12, q13, [x1, #192]\n"				\
	"	stp	q14, q15, [x1, #224]\n"				\
	"	stp	q16, q17, [x1, #256]\n"				\
	"	stp	q18, q19, [x1, #288]\n"				\
	"	stp	q20, q21, [x1, #320]\n"				\
	"	stp	q22, q23, [x1, #352]\n"				\
	"	stp	q24, q25, [x1, #384]\n"				\
	"	stp	q26, q27, [x1, #416]\n"				\
	"	stp	q28, q29, [x1, #448]\n"				\
	"	stp	q30, q31, [x1, #480]\n"

#define LANDING_DONE							\
	"	msr	fpsr, xzr\n"					\
	"	msr	fpcr, xzr\n"					\
	"	b	race_landed\n"

asm(".text\n"
    ".globl sigreturn_at\n"
    ".type sigreturn_at, %function\n"
    "sigreturn_at:\n"
    "	mov	sp, x0\n"
    "	mov	x8, #139\n"		/* __NR_rt_sigreturn */
    "	svc	#0\n"
    "	b	.\n"
    ".size sigreturn_at, . - sigreturn_at\n"
    ".globl race_landing_fp\n"
    ".type race_landing_fp, %function\n"
    "race_landing_fp:\n"
    LANDING_GPRS
    LANDING_DONE
    ".size race_landing_fp, . - race_landing_fp\n"
    ".arch_extension sve\n"
    ".globl race_landing_sve\n"
    ".type race_landing_sve, %function\n"
    "race_landing_sve:\n"
    LANDING_GPRS
    "	add	x0, x0, #784\n"
    SVE_REGS_STORE_ASM
    LANDING_DONE
    ".size race_landing_sve, . - race_landing_sve\n");

enum outcome { NONE, TAKEN, REFUSED };

static unsigned char area[65536] __attribute__((aligned(16)));
static unsigned char landing_stack[16384] __attribute__((aligned(16)));
static unsigned char *const frame = area + 16384;
static struct landing out __attribute__((aligned(16)));
static unsigned char img[SVE_SIG_REGS_SIZE(VL / 16)];
static unsigned char img_fpsimd[sizeof(img)];
static unsigned char v_want[32][16];
static int vl;
static sigjmp_buf env;
static volatile int done;

static struct {
	unsigned long taken_full, taken_v_only, refused, bad;
	char first_bad[160];
} count;

static uint64_t mix(uint64_t i, unsigned int n)
{
	uint64_t x = (i << 8 | n) * 0x9e3779b97f4a7c15ULL;

	return x ^ x >> 29;
}

static uint32_t want_fpsr(unsigned int i)
{
	return (i & 0x1f) | (i & 0x20 ? 1U << 27 : 0);
}

static uint32_t want_fpcr(unsigned int i)
{
	return (i & 3) << 22 | (i & 4 ? 1U << 24 : 0);
}

/*
 * Frame @i: registers from the index, records FPSIMD, ESR, SVE, null.
 * When @raced, the two sizes stay what the racer last made them.
 */
static void build_frame(unsigned int i, int raced)
{
	ucontext_t *uc = (ucontext_t *)(frame + sizeof(siginfo_t));
	unsigned char *resv = (unsigned char *)uc->uc_mcontext.__reserved;
	struct fpsimd_context *fp = (void *)resv;
	struct esr_context *esr = (void *)(resv + ESR_AT);
	struct sve_context *sve = (void *)(resv + SVE_AT);
	uint32_t fp_size = FPSIMD_SIZE, sve_size = SVE_FULL;
	unsigned int n, z;
	size_t end;

	if (raced) {
		fp_size = __atomic_load_n(&fp->head.size, __ATOMIC_RELAXED);
		sve_size = __atomic_load_n(&sve->head.size, __ATOMIC_RELAXED);
	}
	memset(frame, 0, FRAME_SIZE);
	uc->uc_stack.ss_flags = SS_DISABLE;
	uc->uc_mcontext.regs[0] = (uint64_t)&out;
	for (n = 1; n < 31; n++)
		uc->uc_mcontext.regs[n] = mix(i, n);
	uc->uc_mcontext.sp = (uint64_t)(landing_stack + sizeof(landing_stack));
	uc->uc_mcontext.pc = (uint64_t)(vl ? race_landing_sve :
					  race_landing_fp);
	uc->uc_mcontext.pstate = 0;	/* EL0t, AArch64, DAIF clear */

	if (vl) {
		sve_regs_fill(img, VL, i + 1);
		/* a null record, where a header-only SVE record ends */
		memset(img + sve_zoff(VL, 0), 0, 8);
		sve_regs_fpsimd_view(img_fpsimd, img, VL);
		for (z = 0; z < 32; z++)
			memcpy(v_want[z], img + sve_zoff(VL, z), 16);
	} else {
		for (z = 0; z < 32; z++)
			for (n = 0; n < 16; n++)
				v_want[z][n] = mix(i, 32 + z) >> (n % 8 * 8);
	}

	fp->head.magic = FPSIMD_MAGIC;
	fp->head.size = fp_size;
	fp->fpsr = want_fpsr(i);
	fp->fpcr = want_fpcr(i);
	memcpy(fp->vregs, v_want, sizeof(v_want));
	esr->head.magic = ESR_MAGIC;
	esr->head.size = sizeof(*esr);
	end = SVE_AT;
	if (vl) {
		sve->head.magic = SVE_MAGIC;
		sve->head.size = sve_size;
		sve->vl = VL;
		memcpy((char *)sve + SVE_SIG_REGS_OFFSET, img, sizeof(img));
		end += SVE_FULL;
	}
	memset(resv + end, 0, 16);
}

void race_landed(void)
{
	siglongjmp(env, TAKEN);
}

static void on_segv(int sig)
{
	siglongjmp(env, REFUSED);
}

/* Flip the two sizes until told to stop. */
static void *racer(void *arg)
{
	ucontext_t *uc = (ucontext_t *)(frame + sizeof(siginfo_t));
	unsigned char *resv = (unsigned char *)uc->uc_mcontext.__reserved;
	uint32_t *fp_size = (uint32_t *)(resv + 4);
	uint32_t *sve_size = (uint32_t *)(resv + SVE_AT + 4);
	uint32_t x = 1;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		x = x * 1103515245 + 12345;
		__atomic_store_n(fp_size, x & 0x10000 ? FPSIMD_SIZE + 16 :
				 FPSIMD_SIZE, __ATOMIC_RELAXED);
		if (vl)
			__atomic_store_n(sve_size, x & 0x20000 ?
					 (uint32_t)sizeof(struct sve_context) :
					 SVE_FULL, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Whether the landing holds frame @i's registers; what differs if not. */
static int landed_whole(unsigned int i, char *why, size_t len)
{
	unsigned int n;

	if (out.x[0] != (uint64_t)&out) {
		snprintf(why, len, "x0 %#llx", (unsigned long long)out.x[0]);
		return 0;
	}
	for (n = 1; n < 31; n++)
		if (out.x[n] != mix(i, n)) {
			snprintf(why, len, "x%u %#llx, want %#llx", n,
				 (unsigned long long)out.x[n],
				 (unsigned long long)mix(i, n));
			return 0;
		}
	if (out.sp != (uint64_t)(landing_stack + sizeof(landing_stack)) ||
	    out.fpsr != want_fpsr(i) || out.fpcr != want_fpcr(i)) {
		snprintf(why, len, "sp %#llx fpsr %#x fpcr %#x, want fpsr %#x fpcr %#x",
			 (unsigned long long)out.sp, out.fpsr, out.fpcr,
			 want_fpsr(i), want_fpcr(i));
		return 0;
	}
	if (memcmp(out.v, v_want, sizeof(v_want))) {
		snprintf(why, len, "V registers not the frame's");
		return 0;
	}
	return 1;
}

/* @n returns of frames @first.., each one counted by how it went. */
static void run(unsigned int first, unsigned int n, int raced)
{
	static unsigned int i;
	static char why[128];

	for (i = first; i < first + n; i++) {
		build_frame(i, raced);
		memset(&out, 0, sizeof(out));
		switch (sigsetjmp(env, 1)) {
		case NONE:
			sigreturn_at(frame);
			break;
		case REFUSED:
			count.refused++;
			continue;
		}
		if (!landed_whole(i, why, sizeof(why))) {
			/* why says it */
		} else if (!vl || !memcmp(out.sve, img, sizeof(img))) {
			count.taken_full++;
			continue;
		} else if (!memcmp(out.sve, img_fpsimd, sizeof(img))) {
			count.taken_v_only++;
			continue;
		} else {
			snprintf(why, sizeof(why),
				 "Z, P and FFR neither the frame's nor V alone");
		}
		if (!count.bad++)
			snprintf(count.first_bad, sizeof(count.first_bad),
				 "return %u: %s", i, why);
	}
}

int main(void)
{
	static char segv_stack[65536] __attribute__((aligned(16)));
	stack_t ss = { .ss_sp = segv_stack, .ss_size = sizeof(segv_stack) };
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_ONSTACK };
	pthread_t th;
	int ok;

	ktap_plan(2);
	vl = sve_present() && sve_set_vl(VL) ? VL : 0;
	ktap_diag("SVE: %s", vl ? "256-bit vectors" : "none, FPSIMD sizes only");
	sigaltstack(&ss, NULL);
	sigaction(SIGSEGV, &sa, NULL);

	/* The frames as built, nobody racing: each one taken whole. */
	run(0, UNRACED, 0);
	ok = count.taken_full == UNRACED && !count.bad;
	ktap_result(ok, "unraced_frames_taken_whole",
		    "%lu of %d taken with every register, %lu with V alone, %lu refused; %s",
		    count.taken_full, UNRACED, count.taken_v_only, count.refused,
		    count.bad ? count.first_bad : "none wrong");

	memset(&count, 0, sizeof(count));
	if (pthread_create(&th, NULL, racer, NULL)) {
		ktap_result(0, "raced_returns_whole", "pthread_create failed");
		return ktap_finish();
	}
	run(UNRACED, RACED, 1);
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	ktap_diag("%d raced returns: %lu with every register, %lu with V alone, %lu refused",
		  RACED, count.taken_full, count.taken_v_only, count.refused);
	ktap_result(!count.bad, "raced_returns_whole",
		    "%lu of %d returns landed with a mixed register set; first: %s",
		    count.bad, RACED, count.first_bad);
	return ktap_finish();
}
