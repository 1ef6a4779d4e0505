// SPDX-License-Identifier: GPL-2.0-only
/*
 * V0-V31, FPSR and FPCR across a signal handler that clobbers them all,
 * what the FPSIMD record shows the handler, and a handler that edits the
 * record to change the state it returns to.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <asm/sigcontext.h>

#include "ktap.h"

/*
 * fp_roundtrip(in, out, fpcr, fpsr, ctl_out, pid, sig): load V0-V31 from
 * in[], set FPCR/FPSR, kill(pid, sig), then store V0-V31 to out[] and
 * ctl_out[0..1] = FPCR, FPSR as found after the handler.  Nothing but the
 * syscall sits between the loads and the stores.
 */
void fp_roundtrip(const __uint128_t *in, __uint128_t *out, unsigned long fpcr,
		  unsigned long fpsr, unsigned long *ctl_out, long pid,
		  long sig);
/* Set every V register to a byte pattern and FPCR/FPSR to other values. */
void fp_clobber(unsigned long fpcr);

asm(".text\n"
	".globl fp_roundtrip\n"
	".type fp_roundtrip, %function\n"
	"fp_roundtrip:\n"
	"	stp	d8, d9, [sp, #-64]!\n"
	"	stp	d10, d11, [sp, #16]\n"
	"	stp	d12, d13, [sp, #32]\n"
	"	stp	d14, d15, [sp, #48]\n"
	"	mov	x9, x0\n"
	"	mov	x10, x1\n"
	"	ldp	q0, q1, [x9, #0]\n"
	"	ldp	q2, q3, [x9, #32]\n"
	"	ldp	q4, q5, [x9, #64]\n"
	"	ldp	q6, q7, [x9, #96]\n"
	"	ldp	q8, q9, [x9, #128]\n"
	"	ldp	q10, q11, [x9, #160]\n"
	"	ldp	q12, q13, [x9, #192]\n"
	"	ldp	q14, q15, [x9, #224]\n"
	"	ldp	q16, q17, [x9, #256]\n"
	"	ldp	q18, q19, [x9, #288]\n"
	"	ldp	q20, q21, [x9, #320]\n"
	"	ldp	q22, q23, [x9, #352]\n"
	"	ldp	q24, q25, [x9, #384]\n"
	"	ldp	q26, q27, [x9, #416]\n"
	"	ldp	q28, q29, [x9, #448]\n"
	"	ldp	q30, q31, [x9, #480]\n"
	"	msr	fpcr, x2\n"
	"	msr	fpsr, x3\n"
	"	mov	x11, x4\n"
	"	mov	x0, x5\n"
	"	mov	x1, x6\n"
	"	mov	x8, #129\n"		/* __NR_kill */
	"	svc	#0\n"
	"	mrs	x12, fpcr\n"
	"	mrs	x13, fpsr\n"
	"	stp	x12, x13, [x11]\n"
	"	stp	q0, q1, [x10, #0]\n"
	"	stp	q2, q3, [x10, #32]\n"
	"	stp	q4, q5, [x10, #64]\n"
	"	stp	q6, q7, [x10, #96]\n"
	"	stp	q8, q9, [x10, #128]\n"
	"	stp	q10, q11, [x10, #160]\n"
	"	stp	q12, q13, [x10, #192]\n"
	"	stp	q14, q15, [x10, #224]\n"
	"	stp	q16, q17, [x10, #256]\n"
	"	stp	q18, q19, [x10, #288]\n"
	"	stp	q20, q21, [x10, #320]\n"
	"	stp	q22, q23, [x10, #352]\n"
	"	stp	q24, q25, [x10, #384]\n"
	"	stp	q26, q27, [x10, #416]\n"
	"	stp	q28, q29, [x10, #448]\n"
	"	stp	q30, q31, [x10, #480]\n"
	"	msr	fpcr, xzr\n"
	"	msr	fpsr, xzr\n"
	"	ldp	d14, d15, [sp, #48]\n"
	"	ldp	d12, d13, [sp, #32]\n"
	"	ldp	d10, d11, [sp, #16]\n"
	"	ldp	d8, d9, [sp], #64\n"
	"	ret\n"
	".size fp_roundtrip, . - fp_roundtrip\n"
	".globl fp_clobber\n"
	".type fp_clobber, %function\n"
	"fp_clobber:\n"
	"	movi	v0.16b, #0x3c\n"
	"	mov	v1.16b, v0.16b\n	mov	v2.16b, v0.16b\n"
	"	mov	v3.16b, v0.16b\n	mov	v4.16b, v0.16b\n"
	"	mov	v5.16b, v0.16b\n	mov	v6.16b, v0.16b\n"
	"	mov	v7.16b, v0.16b\n	mov	v8.16b, v0.16b\n"
	"	mov	v9.16b, v0.16b\n	mov	v10.16b, v0.16b\n"
	"	mov	v11.16b, v0.16b\n	mov	v12.16b, v0.16b\n"
	"	mov	v13.16b, v0.16b\n	mov	v14.16b, v0.16b\n"
	"	mov	v15.16b, v0.16b\n	mov	v16.16b, v0.16b\n"
	"	mov	v17.16b, v0.16b\n	mov	v18.16b, v0.16b\n"
	"	mov	v19.16b, v0.16b\n	mov	v20.16b, v0.16b\n"
	"	mov	v21.16b, v0.16b\n	mov	v22.16b, v0.16b\n"
	"	mov	v23.16b, v0.16b\n	mov	v24.16b, v0.16b\n"
	"	mov	v25.16b, v0.16b\n	mov	v26.16b, v0.16b\n"
	"	mov	v27.16b, v0.16b\n	mov	v28.16b, v0.16b\n"
	"	mov	v29.16b, v0.16b\n	mov	v30.16b, v0.16b\n"
	"	mov	v31.16b, v0.16b\n"
	"	msr	fpcr, x0\n"
	"	msr	fpsr, xzr\n"
	"	ret\n"
	".size fp_clobber, . - fp_clobber\n");

/* DN, FZ and round towards +inf; then IOC..IXC, IDC and QC. */
#define TEST_FPCR	((1UL << 25) | (1UL << 24) | (1UL << 22))
#define TEST_FPSR	(0x9fUL | (1UL << 27))
/* AHP and round towards zero, set by the handler */
#define CLOBBER_FPCR	((1UL << 26) | (3UL << 22))

static __uint128_t vin[32] __attribute__((aligned(16)));
static __uint128_t vout[32] __attribute__((aligned(16)));
static unsigned long ctl[2];

static volatile struct {
	int called;
	int magic_ok, size_ok;
	unsigned int fpsr, fpcr;
	int vregs_match;
	int edit;
} h;

/* Find the FPSIMD record, following an extra_context if there is one. */
static struct fpsimd_context *find_fpsimd(ucontext_t *uc)
{
	unsigned char *p = uc->uc_mcontext.__reserved;
	size_t off = 0, limit = sizeof(uc->uc_mcontext.__reserved);

	while (off + 16 <= limit) {
		struct _aarch64_ctx *head = (void *)(p + off);

		if (head->magic == FPSIMD_MAGIC)
			return (void *)head;
		if (head->magic == EXTRA_MAGIC) {
			struct extra_context *x = (void *)head;

			p = (unsigned char *)x->datap;
			off = 0;
			limit = x->size;
			continue;
		}
		if (!head->magic || head->size < 8)
			break;
		off += head->size;
	}
	return NULL;
}

static void handler(int sig, siginfo_t *si, void *ucv)
{
	struct fpsimd_context *fp = find_fpsimd(ucv);

	h.called++;
	if (fp) {
		h.magic_ok = 1;
		h.size_ok = fp->head.size == sizeof(*fp);
		h.fpsr = fp->fpsr;
		h.fpcr = fp->fpcr;
		h.vregs_match = !memcmp(fp->vregs, vin, sizeof(vin));
		if (h.edit) {
			/* return with V7 and FPCR changed */
			memset(&fp->vregs[7], 0x5e, 16);
			fp->fpcr = CLOBBER_FPCR;
		}
	}
	fp_clobber(CLOBBER_FPCR);
}

static void fill_vin(unsigned int seed)
{
	unsigned char *b = (unsigned char *)vin;
	size_t i;

	for (i = 0; i < sizeof(vin); i++)
		b[i] = (unsigned char)(i * 7 + seed + (i >> 4) * 13);
}

static unsigned long readback_fpsr(void)
{
	unsigned long v;

	/* what of TEST_FPSR sticks on this CPU */
	asm volatile("msr fpsr, %1\n\tmrs %0, fpsr\n\tmsr fpsr, xzr"
		     : "=r"(v) : "r"(TEST_FPSR));
	return v;
}

static unsigned long readback_fpcr(unsigned long want)
{
	unsigned long v;

	asm volatile("msr fpcr, %1\n\tmrs %0, fpcr\n\tmsr fpcr, xzr"
		     : "=r"(v) : "r"(want));
	return v;
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = handler,
				.sa_flags = SA_SIGINFO };
	unsigned long want_fpsr = readback_fpsr();
	unsigned long want_fpcr = readback_fpcr(TEST_FPCR);
	__uint128_t expect[32];
	int i, bad = -1;

	ktap_plan(5);
	ktap_diag("FPCR %#lx FPSR %#lx stick", want_fpcr, want_fpsr);
	sigaction(SIGUSR1, &sa, NULL);

	fill_vin(1);
	fp_roundtrip(vin, vout, TEST_FPCR, TEST_FPSR, ctl, getpid(), SIGUSR1);
	for (i = 0; i < 32; i++)
		if (memcmp(&vin[i], &vout[i], 16) && bad < 0)
			bad = i;
	ktap_result(h.called == 1 && bad < 0, "vregs_preserved",
		    "handler ran %d times, first differing V%d", h.called, bad);
	ktap_result(ctl[0] == want_fpcr && ctl[1] == want_fpsr,
		    "fpsr_fpcr_preserved", "FPCR %#lx (want %#lx) FPSR %#lx (want %#lx)",
		    ctl[0], want_fpcr, ctl[1], want_fpsr);
	ktap_result(h.magic_ok && h.size_ok && h.vregs_match &&
		    h.fpcr == want_fpcr && h.fpsr == want_fpsr,
		    "record_shows_state",
		    "record found %d, size ok %d, vregs match %d, fpcr %#x fpsr %#x",
		    h.magic_ok, h.size_ok, h.vregs_match, h.fpcr, h.fpsr);

	/* the handler edits the record: sigreturn must load the edit */
	memset((void *)&h, 0, sizeof(h));
	h.edit = 1;
	fill_vin(2);
	memcpy(expect, vin, sizeof(expect));
	memset(&expect[7], 0x5e, 16);
	fp_roundtrip(vin, vout, TEST_FPCR, TEST_FPSR, ctl, getpid(), SIGUSR1);
	bad = -1;
	for (i = 0; i < 32; i++)
		if (memcmp(&expect[i], &vout[i], 16) && bad < 0)
			bad = i;
	ktap_result(h.called == 1 && bad < 0, "edited_vregs_restored",
		    "handler ran %d times, first unexpected V%d", h.called,
		    bad);
	ktap_result(ctl[0] == readback_fpcr(CLOBBER_FPCR) &&
		    ctl[0] != want_fpcr, "edited_fpcr_restored",
		    "FPCR %#lx, edited to %#lx", ctl[0], CLOBBER_FPCR);
	return ktap_finish();
}
