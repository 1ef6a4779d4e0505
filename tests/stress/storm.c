// SPDX-License-Identifier: GPL-2.0-only
/*
 * SMP signal storm.  Two threads per CPU, four CPUs at least.  Each thread
 * loops: it loads its own values into every FP/SIMD register (and, on
 * 64-bit with SVE, Z0-Z31, P0-P15 and FFR at a vector length of its own),
 * spins long enough to be interrupted, and stores them back to compare;
 * in between it sends queued real-time signals, with a payload, to the
 * other threads (rt_tgsigqueueinfo, one signal number per sender).  A
 * POSIX timer per thread (SIGEV_THREAD_ID) sends it SIGALRM every
 * millisecond or so.  Every handler loads other values into all the
 * registers before it returns.
 *
 * Checked: every real-time signal arrives exactly once, with its payload,
 * in the order its sender sent it; SIGALRM reaches the thread whose timer
 * it is; after every spin each register holds the thread's own value (a
 * wrong one is reported as another thread's, a handler's, or other).
 */
#include "../stress/stress.h"

#include <pthread.h>
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define MAX_THREADS	16
#define SPIN		20000
#define DRAIN_S		20
#define HANDLER_TID	0xee

static int nthreads;
static pid_t pid;

struct thread {
	pthread_t handle;
	int idx;
	pid_t tid;
	timer_t timer;
	unsigned int vl;	/* SVE vector length in bytes, 0: FP/SIMD only */
	/* counters of the sender: sent[to] */
	uint32_t sent[MAX_THREADS];
	uint32_t eagain;
	/* counters of the receiver: last sequence number from each sender */
	uint32_t last[MAX_THREADS];
	uint32_t dups, gaps, bad_payload, bad_code;
	uint32_t alarms, alarms_wrong;
	/* register checks */
	uint64_t spins, fp_bad, fp_foreign, fp_handler, sve_bad, sve_foreign;
	char first_bad[160];
};

static struct thread threads[MAX_THREADS];
static int senders_done;	/* threads that have sent their last signal */
static uint64_t rounds_done;	/* rounds of all threads together */
static pthread_barrier_t ready;
static __thread struct thread *self;

/* A 64-bit lane that says whose it is: thread, round, register, lane. */
static inline uint64_t lane64(unsigned int tid, unsigned int round,
			      unsigned int reg, unsigned int lane)
{
	return 0xa5ULL << 56 | (uint64_t)(tid & 0xff) << 48 |
	       (uint64_t)(round & 0xffff) << 32 | (reg & 0xff) << 24 |
	       (lane & 0xff) << 16 | 0xc3c3;
}

static void note_bad(struct thread *t, uint64_t got, uint64_t want,
		     const char *what, int reg)
{
	unsigned int owner = got >> 48 & 0xff;

	if (got >> 56 == 0xa5 && owner != (unsigned int)t->idx &&
	    owner < (unsigned int)nthreads)
		t->fp_foreign++;
	else if (got >> 56 == 0xa5 && owner == HANDLER_TID)
		t->fp_handler++;
	if (!t->first_bad[0])
		snprintf(t->first_bad, sizeof(t->first_bad),
			 "thread %d %s%d: %#llx, want %#llx (%s)", t->idx, what, reg,
			 (unsigned long long)got, (unsigned long long)want,
			 got >> 56 != 0xa5 ? "not a thread's value" :
			 owner == HANDLER_TID ? "a handler's value" :
			 owner == (unsigned int)t->idx ? "its own, another round or register" :
			 "another thread's value");
}

#ifdef __aarch64__
#define HWCAP_SVE_	(1 << 22)
#define PR_SVE_SET_VL_	50
#define FPCR_BITS(t)	((uint64_t)((t) & 3) << 22 | ((t) & 4 ? 1ULL << 25 : 0) | \
			 ((t) & 8 ? 1ULL << 24 : 0))
#define FPSR_BITS(t)	((uint64_t)((t) * 0x11 & 0x9f) | ((t) & 1 ? 1ULL << 27 : 0))

static int have_sve;
static unsigned int vls[16], nvl;

/*
 * fp_spin(in, out, iters, ctl): V0-V31 from in[], FPCR = ctl[0],
 * FPSR = ctl[1]; spin; V0-V31 to out[], ctl[2], ctl[3] = FPCR, FPSR.
 */
void fp_spin(const uint64_t *in, uint64_t *out, uint64_t iters, uint64_t *ctl);
/* sve_spin(z, out, iters, ctl): Z0-Z31 then P0-P15, FFR packed at the VL */
void sve_spin(const uint8_t *in, uint8_t *out, uint64_t iters, uint64_t *ctl);
void fp_clobber(int sve);

asm(".text\n"
    ".arch_extension sve\n"
    ".globl fp_spin\n.type fp_spin, %function\n"
    "fp_spin:\n"
    "	stp	d8, d9, [sp, #-64]!\n"
    "	stp	d10, d11, [sp, #16]\n"
    "	stp	d12, d13, [sp, #32]\n"
    "	stp	d14, d15, [sp, #48]\n"
    "	ldp	x4, x5, [x3]\n"
    "	msr	fpcr, x4\n"
    "	msr	fpsr, x5\n"
    "	ldp q0, q1, [x0, #0]\n	ldp q2, q3, [x0, #32]\n"
    "	ldp q4, q5, [x0, #64]\n	ldp q6, q7, [x0, #96]\n"
    "	ldp q8, q9, [x0, #128]\n	ldp q10, q11, [x0, #160]\n"
    "	ldp q12, q13, [x0, #192]\n	ldp q14, q15, [x0, #224]\n"
    "	ldp q16, q17, [x0, #256]\n	ldp q18, q19, [x0, #288]\n"
    "	ldp q20, q21, [x0, #320]\n	ldp q22, q23, [x0, #352]\n"
    "	ldp q24, q25, [x0, #384]\n	ldp q26, q27, [x0, #416]\n"
    "	ldp q28, q29, [x0, #448]\n	ldp q30, q31, [x0, #480]\n"
    "1:	subs	x2, x2, #1\n"
    "	b.ne	1b\n"
    "	stp q0, q1, [x1, #0]\n	stp q2, q3, [x1, #32]\n"
    "	stp q4, q5, [x1, #64]\n	stp q6, q7, [x1, #96]\n"
    "	stp q8, q9, [x1, #128]\n	stp q10, q11, [x1, #160]\n"
    "	stp q12, q13, [x1, #192]\n	stp q14, q15, [x1, #224]\n"
    "	stp q16, q17, [x1, #256]\n	stp q18, q19, [x1, #288]\n"
    "	stp q20, q21, [x1, #320]\n	stp q22, q23, [x1, #352]\n"
    "	stp q24, q25, [x1, #384]\n	stp q26, q27, [x1, #416]\n"
    "	stp q28, q29, [x1, #448]\n	stp q30, q31, [x1, #480]\n"
    "	mrs	x4, fpcr\n"
    "	mrs	x5, fpsr\n"
    "	stp	x4, x5, [x3, #16]\n"
    "	msr	fpcr, xzr\n"
    "	msr	fpsr, xzr\n"
    "	ldp	d14, d15, [sp, #48]\n"
    "	ldp	d12, d13, [sp, #32]\n"
    "	ldp	d10, d11, [sp, #16]\n"
    "	ldp	d8, d9, [sp], #64\n"
    "	ret\n"
    ".size fp_spin, . - fp_spin\n"

    ".globl sve_spin\n.type sve_spin, %function\n"
    "sve_spin:\n"
    "	stp	d8, d9, [sp, #-64]!\n"
    "	stp	d10, d11, [sp, #16]\n"
    "	stp	d12, d13, [sp, #32]\n"
    "	stp	d14, d15, [sp, #48]\n"
    "	ldp	x4, x5, [x3]\n"
    "	msr	fpcr, x4\n"
    "	msr	fpsr, x5\n"
    "	rdvl	x6, #16\n"
    "	lsl	x6, x6, #1\n"		/* 32 Z registers */
    "	add	x7, x0, x6\n"		/* P0 */
    "	ldr	p0, [x7, #16, mul vl]\n"
    "	wrffr	p0.b\n"
    "	ldr p0, [x7, #0, mul vl]\n	ldr p1, [x7, #1, mul vl]\n"
    "	ldr p2, [x7, #2, mul vl]\n	ldr p3, [x7, #3, mul vl]\n"
    "	ldr p4, [x7, #4, mul vl]\n	ldr p5, [x7, #5, mul vl]\n"
    "	ldr p6, [x7, #6, mul vl]\n	ldr p7, [x7, #7, mul vl]\n"
    "	ldr p8, [x7, #8, mul vl]\n	ldr p9, [x7, #9, mul vl]\n"
    "	ldr p10, [x7, #10, mul vl]\n	ldr p11, [x7, #11, mul vl]\n"
    "	ldr p12, [x7, #12, mul vl]\n	ldr p13, [x7, #13, mul vl]\n"
    "	ldr p14, [x7, #14, mul vl]\n	ldr p15, [x7, #15, mul vl]\n"
    "	ldr z0, [x0, #0, mul vl]\n	ldr z1, [x0, #1, mul vl]\n"
    "	ldr z2, [x0, #2, mul vl]\n	ldr z3, [x0, #3, mul vl]\n"
    "	ldr z4, [x0, #4, mul vl]\n	ldr z5, [x0, #5, mul vl]\n"
    "	ldr z6, [x0, #6, mul vl]\n	ldr z7, [x0, #7, mul vl]\n"
    "	ldr z8, [x0, #8, mul vl]\n	ldr z9, [x0, #9, mul vl]\n"
    "	ldr z10, [x0, #10, mul vl]\n	ldr z11, [x0, #11, mul vl]\n"
    "	ldr z12, [x0, #12, mul vl]\n	ldr z13, [x0, #13, mul vl]\n"
    "	ldr z14, [x0, #14, mul vl]\n	ldr z15, [x0, #15, mul vl]\n"
    "	ldr z16, [x0, #16, mul vl]\n	ldr z17, [x0, #17, mul vl]\n"
    "	ldr z18, [x0, #18, mul vl]\n	ldr z19, [x0, #19, mul vl]\n"
    "	ldr z20, [x0, #20, mul vl]\n	ldr z21, [x0, #21, mul vl]\n"
    "	ldr z22, [x0, #22, mul vl]\n	ldr z23, [x0, #23, mul vl]\n"
    "	ldr z24, [x0, #24, mul vl]\n	ldr z25, [x0, #25, mul vl]\n"
    "	ldr z26, [x0, #26, mul vl]\n	ldr z27, [x0, #27, mul vl]\n"
    "	ldr z28, [x0, #28, mul vl]\n	ldr z29, [x0, #29, mul vl]\n"
    "	ldr z30, [x0, #30, mul vl]\n	ldr z31, [x0, #31, mul vl]\n"
    "1:	subs	x2, x2, #1\n"
    "	b.ne	1b\n"
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
    "	add	x7, x1, x6\n"
    "	str p0, [x7, #0, mul vl]\n	str p1, [x7, #1, mul vl]\n"
    "	str p2, [x7, #2, mul vl]\n	str p3, [x7, #3, mul vl]\n"
    "	str p4, [x7, #4, mul vl]\n	str p5, [x7, #5, mul vl]\n"
    "	str p6, [x7, #6, mul vl]\n	str p7, [x7, #7, mul vl]\n"
    "	str p8, [x7, #8, mul vl]\n	str p9, [x7, #9, mul vl]\n"
    "	str p10, [x7, #10, mul vl]\n	str p11, [x7, #11, mul vl]\n"
    "	str p12, [x7, #12, mul vl]\n	str p13, [x7, #13, mul vl]\n"
    "	str p14, [x7, #14, mul vl]\n	str p15, [x7, #15, mul vl]\n"
    "	rdffr	p0.b\n"
    "	str	p0, [x7, #16, mul vl]\n"
    "	mrs	x4, fpcr\n"
    "	mrs	x5, fpsr\n"
    "	stp	x4, x5, [x3, #16]\n"
    "	msr	fpcr, xzr\n"
    "	msr	fpsr, xzr\n"
    "	ldp	d14, d15, [sp, #48]\n"
    "	ldp	d12, d13, [sp, #32]\n"
    "	ldp	d10, d11, [sp, #16]\n"
    "	ldp	d8, d9, [sp], #64\n"
    "	ret\n"
    ".size sve_spin, . - sve_spin\n"

    /* a handler's values everywhere: lane pattern with thread 0xee */
    ".globl fp_clobber\n.type fp_clobber, %function\n"
    "fp_clobber:\n"
    "	stp	d8, d9, [sp, #-64]!\n"
    "	stp	d10, d11, [sp, #16]\n"
    "	stp	d12, d13, [sp, #32]\n"
    "	stp	d14, d15, [sp, #48]\n"
    "	ldr	x1, =0xa5ee0000eeeec3c3\n"
    "	cbz	w0, 1f\n"
    "	dup	z0.d, x1\n"
    "	ptrue	p0.b\n"
    "	setffr\n"
    "	pfalse	p1.b\n"
    "	b	2f\n"
    "1:	dup	v0.2d, x1\n"
    "2:	mov v1.16b, v0.16b\n	mov v2.16b, v0.16b\n	mov v3.16b, v0.16b\n"
    "	mov v4.16b, v0.16b\n	mov v5.16b, v0.16b\n	mov v6.16b, v0.16b\n"
    "	mov v7.16b, v0.16b\n	mov v16.16b, v0.16b\n	mov v17.16b, v0.16b\n"
    "	mov v18.16b, v0.16b\n	mov v19.16b, v0.16b\n	mov v20.16b, v0.16b\n"
    "	mov v21.16b, v0.16b\n	mov v22.16b, v0.16b\n	mov v23.16b, v0.16b\n"
    "	mov v24.16b, v0.16b\n	mov v25.16b, v0.16b\n	mov v26.16b, v0.16b\n"
    "	mov v27.16b, v0.16b\n	mov v28.16b, v0.16b\n	mov v29.16b, v0.16b\n"
    "	mov v30.16b, v0.16b\n	mov v31.16b, v0.16b\n"
    "	mov	x2, #(3 << 22)\n"
    "	msr	fpcr, x2\n"
    "	msr	fpsr, xzr\n"
    "	ldp	d14, d15, [sp, #48]\n"
    "	ldp	d12, d13, [sp, #32]\n"
    "	ldp	d10, d11, [sp, #16]\n"
    "	ldp	d8, d9, [sp], #64\n"
    "	ret\n"
    "	.ltorg\n"
    ".size fp_clobber, . - fp_clobber\n");

static void abi_probe(void)
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

static void thread_setup(struct thread *t)
{
	/* every other thread is an SVE one, at its own vector length */
	if (have_sve && t->idx % 2) {
		t->vl = vls[t->idx / 2 % nvl];
		if ((prctl(PR_SVE_SET_VL_, t->vl) & 0xffff) != (long)t->vl)
			t->vl = 0;
	}
}

static void handler_clobber(void)
{
	fp_clobber(self && self->vl);
}

/* One spin with every register loaded; compare what comes back. */
static void spin_and_check(struct thread *t, unsigned int round)
{
	static __thread uint64_t in[32 * 32 + 80], out[32 * 32 + 80];
	uint64_t ctl[4];
	unsigned int r, l, lanes = t->vl ? t->vl / 8 : 2, pbytes = t->vl / 8;

	ctl[0] = FPCR_BITS(t->idx + round);
	ctl[1] = FPSR_BITS(t->idx + round);
	for (r = 0; r < 32; r++)
		for (l = 0; l < lanes; l++)
			in[r * lanes + l] = lane64(t->idx, round, r, l);
	if (t->vl) {
		uint8_t *p = (uint8_t *)(in + 32 * lanes);
		unsigned int k = (t->idx * 7 + round) % (t->vl + 1);

		for (r = 0; r < 16; r++)
			for (l = 0; l < pbytes; l++)
				p[r * pbytes + l] = (uint8_t)(t->idx * 16 + r + l * 3 + round);
		memset(p + 16 * pbytes, 0, pbytes);
		for (l = 0; l < k; l++)
			p[16 * pbytes + l / 8] |= 1 << (l % 8);
		sve_spin((uint8_t *)in, (uint8_t *)out, SPIN, ctl);
	} else {
		fp_spin(in, out, SPIN, ctl);
	}
	t->spins++;
	for (r = 0; r < 32; r++)
		for (l = 0; l < lanes; l++)
			if (out[r * lanes + l] != in[r * lanes + l]) {
				if (l >= 2)
					t->sve_bad++;
				else
					t->fp_bad++;
				note_bad(t, out[r * lanes + l], in[r * lanes + l],
					 l >= 2 ? "Z upper lane of " : "V", r);
				if (l >= 2 && out[r * lanes + l] >> 56 == 0xa5 &&
				    (out[r * lanes + l] >> 48 & 0xff) != (unsigned int)t->idx &&
				    (out[r * lanes + l] >> 48 & 0xff) < (unsigned int)nthreads)
					t->sve_foreign++;
				return;
			}
	if (t->vl && memcmp((uint8_t *)(out + 32 * lanes), (uint8_t *)(in + 32 * lanes),
			    17 * pbytes)) {
		t->sve_bad++;
		if (!t->first_bad[0])
			snprintf(t->first_bad, sizeof(t->first_bad),
				 "thread %d: P registers or FFR differ (VL %u)", t->idx, t->vl);
		return;
	}
	if ((ctl[2] & 0x07c00000) != (ctl[0] & 0x07c00000) ||
	    (ctl[3] & 0xf800009f) != (ctl[1] & 0xf800009f)) {
		t->fp_bad++;
		if (!t->first_bad[0])
			snprintf(t->first_bad, sizeof(t->first_bad),
				 "thread %d: FPCR %#llx FPSR %#llx, want %#llx %#llx", t->idx,
				 (unsigned long long)ctl[2], (unsigned long long)ctl[3],
				 (unsigned long long)ctl[0], (unsigned long long)ctl[1]);
	}
}

#define SVE_RESULTS	1

#else /* AArch32 */

#define HWCAP_NEON_	(1 << 12)
#define HWCAP_VFPD32_	(1 << 19)
#define FPSCR_BITS(t)	((uint32_t)((t) & 3) << 22 | ((t) & 4 ? 1U << 25 : 0) | \
			 ((t) & 8 ? 1U << 24 : 0) | ((t) * 0x11 & 0x9f) | ((t) & 1 ? 1U << 27 : 0))

static int have_d32;

void fp_spin(const uint64_t *in, uint64_t *out, uint32_t iters, uint32_t *ctl);
void fp_clobber(void);

asm(".pushsection .text\n"
    ".syntax unified\n"
    ".fpu neon\n"
    ".thumb\n"
    ".balign 4\n"
    ".globl fp_spin\n.type fp_spin, %function\n"
    ".thumb_func\n"
    "fp_spin:\n"
    "	push	{r4, lr}\n"
    "	vpush	{d8-d15}\n"
    "	ldr	r4, [r3]\n"
    "	vmsr	fpscr, r4\n"
    "	mov	r4, r0\n"
    "	vldmia	r4!, {d0-d15}\n"
    "	vldmia	r4, {d16-d31}\n"
    "1:	subs	r2, r2, #1\n"
    "	bne	1b\n"
    "	mov	r4, r1\n"
    "	vstmia	r4!, {d0-d15}\n"
    "	vstmia	r4, {d16-d31}\n"
    "	vmrs	r4, fpscr\n"
    "	str	r4, [r3, #4]\n"
    "	movs	r4, #0\n"
    "	vmsr	fpscr, r4\n"
    "	vpop	{d8-d15}\n"
    "	pop	{r4, pc}\n"
    ".globl fp_clobber\n.type fp_clobber, %function\n"
    ".thumb_func\n"
    "fp_clobber:\n"
    "	vpush	{d8-d15}\n"
    "	ldr	r0, =0xeeeec3c3\n"
    "	ldr	r1, =0xa5ee0000\n"
    "	vmov	d0, r0, r1\n"
    "	vmov d1, d0\n	vmov d2, d0\n	vmov d3, d0\n	vmov d4, d0\n"
    "	vmov d5, d0\n	vmov d6, d0\n	vmov d7, d0\n	vmov d16, d0\n"
    "	vmov d17, d0\n	vmov d18, d0\n	vmov d19, d0\n	vmov d20, d0\n"
    "	vmov d21, d0\n	vmov d22, d0\n	vmov d23, d0\n	vmov d24, d0\n"
    "	vmov d25, d0\n	vmov d26, d0\n	vmov d27, d0\n	vmov d28, d0\n"
    "	vmov d29, d0\n	vmov d30, d0\n	vmov d31, d0\n"
    "	ldr	r0, =0x00c00000\n"
    "	vmsr	fpscr, r0\n"
    "	vpop	{d8-d15}\n"
    "	bx	lr\n"
    "	.ltorg\n"
#ifndef __thumb__
    ".arm\n"
#endif
    ".popsection\n");

static void abi_probe(void)
{
	have_d32 = !!(getauxval(AT_HWCAP) & (HWCAP_NEON_ | HWCAP_VFPD32_));
}

static void thread_setup(struct thread *t)
{
	(void)t;
}

static void handler_clobber(void)
{
	if (have_d32)
		fp_clobber();
}

static void spin_and_check(struct thread *t, unsigned int round)
{
	uint64_t in[32], out[32];
	uint32_t ctl[2] = { FPSCR_BITS(t->idx + round), 0 };
	unsigned int r;

	if (!have_d32)
		return;
	for (r = 0; r < 32; r++)
		in[r] = lane64(t->idx, round, r, 0);
	fp_spin(in, out, SPIN, ctl);
	t->spins++;
	for (r = 0; r < 32; r++)
		if (out[r] != in[r]) {
			t->fp_bad++;
			note_bad(t, out[r], in[r], "d", r);
			return;
		}
	if ((ctl[1] & 0xfbc0009f) != (ctl[0] & 0xfbc0009f)) {
		t->fp_bad++;
		if (!t->first_bad[0])
			snprintf(t->first_bad, sizeof(t->first_bad),
				 "thread %d: FPSCR %#x, want %#x", t->idx, ctl[1], ctl[0]);
	}
}

#define SVE_RESULTS	0

#endif

/* ---- signals */
static int rt_sig(int sender)
{
	return SIGRTMIN + sender % (SIGRTMAX - SIGRTMIN - 1);
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	struct thread *t = self;
	unsigned int v = si->si_value.sival_int, from = v >> 24, seq = v & 0xffffff;

	if (!t)
		return;
	if (si->si_code != SI_QUEUE || si->si_pid != pid) {
		t->bad_code++;
	} else if (from >= (unsigned int)nthreads || rt_sig(from) != sig) {
		t->bad_payload++;
	} else if (seq <= t->last[from]) {
		t->dups++;
	} else {
		if (seq != t->last[from] + 1)
			t->gaps++;
		__atomic_store_n(&t->last[from], seq, __ATOMIC_RELEASE);
	}
	handler_clobber();
}

static void on_alarm(int sig, siginfo_t *si, void *uc)
{
	struct thread *t = self;

	if (!t)
		return;
	t->alarms++;
	if (si->si_code != SI_TIMER || si->si_value.sival_int != t->idx)
		t->alarms_wrong++;
	handler_clobber();
}

static int send_rt(struct thread *from, int to)
{
	siginfo_t si;
	uint32_t seq = from->sent[to] + 1;

	memset(&si, 0, sizeof(si));
	si.si_signo = rt_sig(from->idx);
	si.si_code = SI_QUEUE;
	si.si_pid = pid;
	si.si_uid = getuid();
	si.si_value.sival_int = from->idx << 24 | (seq & 0xffffff);
	if (syscall(SYS_rt_tgsigqueueinfo, pid, threads[to].tid, si.si_signo, &si)) {
		from->eagain++;
		return 0;
	}
	__atomic_store_n(&from->sent[to], seq, __ATOMIC_RELEASE);
	return 1;
}

/* Every sender's last sequence number to @t has arrived. */
static int drained(struct thread *t)
{
	int s;

	for (s = 0; s < nthreads; s++)
		if (__atomic_load_n(&t->last[s], __ATOMIC_ACQUIRE) <
		    __atomic_load_n(&threads[s].sent[t->idx], __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

static void *run(void *arg)
{
	struct thread *t = arg;
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID,
				.sigev_signo = SIGALRM };
	struct itimerspec its;
	unsigned int round = 0;
	uint64_t rs = stress.seed ^ (uint64_t)t->idx << 40;
	double drain_until = 0;
	int stopped = 0;

	self = t;
	t->tid = gettid();
	thread_setup(t);
	sev.sigev_value.sival_int = t->idx;
	sev._sigev_un._tid = t->tid;	/* sigev_notify_thread_id */
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 1000 * 1000;
	its.it_interval.tv_sec = 0;
	its.it_interval.tv_nsec = 700 * 1000 + 97 * 1000 * t->idx;
	if (timer_create(CLOCK_MONOTONIC, &sev, &t->timer))
		t->alarms_wrong = ~0U;
	pthread_barrier_wait(&ready);
	timer_settime(t->timer, 0, &its, NULL);

	for (;;) {
		int k;

		spin_and_check(t, round++);
		/*
		 * A case is a round of any thread: the run stops on the
		 * rounds of all threads together, so one thread the
		 * scheduler starves does not hold the others.
		 */
		if (!stopped && stress_more(__atomic_fetch_add(&rounds_done, 1,
							       __ATOMIC_RELAXED))) {
			for (k = 0; k < 4; k++) {
				int to = rnd_below(&rs, nthreads - 1);

				send_rt(t, to >= t->idx ? to + 1 : to);
			}
			continue;
		}
		/*
		 * Stopped: keep working until everything sent to us is in.
		 * The drain bound starts when the last sender has stopped,
		 * not when this thread did: a sender still running may queue
		 * a signal to us long after our own last round, and a thread
		 * that left before it arrived would lose it.
		 */
		if (!stopped) {
			stopped = 1;
			__atomic_add_fetch(&senders_done, 1, __ATOMIC_ACQ_REL);
		}
		if (__atomic_load_n(&senders_done, __ATOMIC_ACQUIRE) < nthreads)
			continue;
		if (!drain_until)
			drain_until = stress_now() + DRAIN_S;
		if (drained(t) || stress_now() > drain_until)
			break;
	}
	timer_delete(t->timer);
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO | SA_RESTART };
	const char *names[] = {
		"rt_signals_arrive_exactly_once",
		"rt_signals_in_order_with_payload",
		"sigalrm_reaches_its_thread",
		"fpsimd_registers_keep_own_values",
		"sve_registers_keep_own_values",
		"kernel_not_tainted",
	};
	int n = 5 + SVE_RESULTS, i, s, cpus;
	uint64_t sent = 0, got = 0, lost = 0, dups = 0, gaps = 0, bad = 0;
	uint64_t alarms = 0, wrong = 0, spins = 0, fp = 0, fpf = 0, fph = 0, sve = 0, svef = 0;
	int no_alarm = 0;
	const char *first = NULL;

	if (!SVE_RESULTS)
		names[4] = names[5];
	ktap_plan(n);
	stress_init("storm");
	if (stress.replay_other)
		return stress_skip_all(names, n);
	cpus = stress_cpus();
	if (cpus < 4) {
		for (i = 0; i < n; i++)
			ktap_skip(names[i], "needs 4 CPUs, has %d (make stress boots with SMP=4)",
				  cpus);
		return ktap_finish();
	}
	abi_probe();
	pid = getpid();
	nthreads = cpus * 2 > MAX_THREADS ? MAX_THREADS : cpus * 2;
	stress_taint_start();

	sigfillset(&sa.sa_mask);
	sa.sa_sigaction = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_sigaction = on_rt;
	for (i = 0; i < nthreads; i++)
		sigaction(rt_sig(i), &sa, NULL);

	pthread_barrier_init(&ready, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		threads[i].idx = i;
		if (pthread_create(&threads[i].handle, NULL, run, &threads[i])) {
			ktap_diag("pthread_create: %s", strerror(errno));
			return 1;
		}
	}
	pthread_barrier_wait(&ready);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i].handle, NULL);

	for (i = 0; i < nthreads; i++) {
		struct thread *t = &threads[i];

		for (s = 0; s < nthreads; s++) {
			sent += threads[s].sent[i];
			got += t->last[s] < threads[s].sent[i] ? t->last[s] : threads[s].sent[i];
			if (t->last[s] < threads[s].sent[i])
				lost += threads[s].sent[i] - t->last[s];
		}
		dups += t->dups;
		gaps += t->gaps;
		bad += t->bad_payload + t->bad_code;
		alarms += t->alarms;
		wrong += t->alarms_wrong;
		no_alarm += !t->alarms;
		spins += t->spins;
		fp += t->fp_bad;
		fpf += t->fp_foreign;
		fph += t->fp_handler;
		sve += t->sve_bad;
		svef += t->sve_foreign;
		if (t->first_bad[0] && !first)
			first = t->first_bad;
		ktap_diag("thread %d (VL %u): %" PRIu64 " spins, %u SIGALRM, %u EAGAIN",
			  i, t->vl, t->spins, t->alarms, t->eagain);
	}
	ktap_diag("%s/storm: %d threads, %" PRIu64 " RT signals sent, %" PRIu64
		  " SIGALRM, %" PRIu64 " register checks, seed 0x%016" PRIx64,
		  STRESS_ABI, nthreads, sent, alarms, spins, stress.seed);
	if (first)
		ktap_diag("first bad register: %s", first);

	ktap_result(sent && !lost && !dups, names[0],
		    "%" PRIu64 " sent, %" PRIu64 " never arrived, %" PRIu64 " twice",
		    sent, lost, dups);
	ktap_result(!gaps && !bad, names[1],
		    "%" PRIu64 " out of order, %" PRIu64 " with a wrong payload or code",
		    gaps, bad);
	ktap_result(!wrong && !no_alarm, names[2],
		    "%" PRIu64 " to the wrong thread or with a wrong code, %d threads got none",
		    wrong, no_alarm);
	ktap_result(spins && !fp, names[3],
		    "%" PRIu64 " of %" PRIu64 " checks wrong: %" PRIu64
		    " with another thread's value, %" PRIu64 " with a handler's",
		    fp, spins, fpf, fph);
	if (SVE_RESULTS) {
#ifdef __aarch64__
		if (!have_sve)
			ktap_skip(names[4], "the CPU has no SVE");
		else
#endif
			ktap_result(!sve, names[4],
				    "%" PRIu64 " checks with Z/P/FFR wrong, %" PRIu64
				    " with another thread's value", sve, svef);
	}
	stress_taint_result(names[n - 1]);
	return ktap_finish();
}
