// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal delivery to a 32-bit task: the VFP state (d0-d31, FPSCR, with
 * its Len, Stride and FZ16 fields) survives a handler that clobbers it,
 * at two levels of nesting; the
 * frame carries the VFP record; the kernel's return trampolines in the
 * [sigpage] work for ARM and Thumb handlers and SA_RESTORER is used
 * when given.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "ktap.h"

#define FP_FN		__attribute__((target("fpu=neon"), noinline))
#define HWCAP_NEON	(1 << 12)	/* Advanced SIMD: d0-d31 */
#define HWCAP_VFPD32	(1 << 19)
#define VFP_MAGIC	0x56465001
#define VFP_SIZE	288

/* Cumulative flags, DN, FZ and round-towards-zero: not the default. */
#define FPSCR_PATTERN	0x2bc00010u

struct fp_state {
	uint64_t d[32];
	uint32_t fpscr;
};

/*
 * Load @in into d0-d31 and FPSCR, send @sig to ourselves with a bare
 * svc so that nothing touches the registers in between, then store them
 * into @out.  The signal is delivered on the way out of kill.
 */
static FP_FN void fp_kill_roundtrip(const struct fp_state *in,
				    struct fp_state *out, int sig)
{
	asm volatile(
		"vldmia	%[in], {d0-d15}\n\t"
		"add	r2, %[in], #128\n\t"
		"vldmia	r2, {d16-d31}\n\t"
		"ldr	r2, [%[in], #256]\n\t"
		"vmsr	fpscr, r2\n\t"
		"mov	r0, %[pid]\n\t"
		"mov	r1, %[sig]\n\t"
		"push	{r7}\n\t"
		"mov	r7, %[nr]\n\t"
		"svc	#0\n\t"
		"pop	{r7}\n\t"
		"vmrs	r2, fpscr\n\t"
		"str	r2, [%[out], #256]\n\t"
		"vstmia	%[out], {d0-d15}\n\t"
		"add	r2, %[out], #128\n\t"
		"vstmia	r2, {d16-d31}\n\t"
		:
		: [in] "r"(in), [out] "r"(out), [pid] "r"(getpid()),
		  [sig] "r"(sig), [nr] "r"(SYS_kill)
		: "r0", "r1", "r2", "memory", "cc",
		  "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		  "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
		  "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23",
		  "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");
}

static FP_FN void fp_clobber(void)
{
	static const uint64_t junk[32] = { [0 ... 31] = 0xdeadbeefcafef00dULL };

	asm volatile(
		"vldmia	%[j], {d0-d15}\n\t"
		"vldmia	%[j], {d16-d31}\n\t"
		"mov	r2, #0\n\t"
		"vmsr	fpscr, r2\n\t"
		:
		: [j] "r"(junk)
		: "r2", "memory",
		  "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		  "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
		  "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23",
		  "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");
}

static void fp_pattern(struct fp_state *s, uint64_t seed)
{
	int i;

	for (i = 0; i < 32; i++)
		s->d[i] = seed * 0x0101010101010101ULL + i * 0x1000000100ULL;
	s->fpscr = FPSCR_PATTERN;
}

static int fp_equal(const struct fp_state *a, const struct fp_state *b)
{
	return !memcmp(a->d, b->d, sizeof(a->d)) && a->fpscr == b->fpscr;
}

/* What the outer (SIGUSR1) and inner (SIGUSR2) handlers saw. */
static struct fp_state outer_in, outer_out, outer_ref, main_in, main_out;
static volatile int record_ok = -1, outer_fp_ok = -1, order_ok = -1;
static volatile int depth, inner_ran, inner_on_altstack;
static char altstack[65536];

static void check_record(const ucontext_t *uc, const struct fp_state *want)
{
	const uint32_t *rec = (const uint32_t *)uc->uc_regspace;
	uint64_t d[32];
	uint32_t fpscr;

	memcpy(d, rec + 2, sizeof(d));
	memcpy(&fpscr, rec + 66, sizeof(fpscr));
	record_ok = rec[0] == VFP_MAGIC && rec[1] == VFP_SIZE &&
		    !memcmp(d, want->d, sizeof(d)) && fpscr == want->fpscr &&
		    rec[VFP_SIZE / 4] == 0;
	if (!record_ok)
		ktap_diag("record: magic %#x size %u fpscr %#x", rec[0], rec[1],
			  fpscr);
}

static void on_usr2(int sig, siginfo_t *si, void *ctx)
{
	char here;

	inner_ran = 1;
	order_ok = depth == 1;
	inner_on_altstack = &here >= altstack && &here < altstack + sizeof(altstack);
	fp_clobber();
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	check_record(ctx, &main_in);
	depth++;
	/* A signal within the handler, with its own FP state to keep. */
	fp_kill_roundtrip(&outer_in, &outer_out, SIGUSR2);
	outer_fp_ok = fp_equal(&outer_out, &outer_ref) && inner_ran;
	depth--;
	fp_clobber();
}

static void test_fp_and_nesting(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	struct fp_state main_ref;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	if (!(getauxval(AT_HWCAP) & (HWCAP_NEON | HWCAP_VFPD32))) {
		ktap_skip("vfp_preserved", "no d16-d31 (neither NEON nor VFPD32)");
		ktap_skip("vfp_record", "no d16-d31 (neither NEON nor VFPD32)");
		ktap_skip("nested_vfp_preserved", "no d16-d31 (neither NEON nor VFPD32)");
		ktap_skip("nested_on_altstack", "no d16-d31 (neither NEON nor VFPD32)");
		return;
	}

	sigaltstack(&ss, NULL);
	sa.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags |= SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);

	/* Reference runs: what the registers read back with no handler. */
	fp_pattern(&main_in, 1);
	fp_pattern(&outer_in, 7);
	fp_kill_roundtrip(&main_in, &main_ref, 0);
	fp_kill_roundtrip(&outer_in, &outer_ref, 0);
	if (!fp_equal(&main_ref, &main_in))
		ktap_diag("FPSCR reads back as %#x, wrote %#x", main_ref.fpscr,
			  main_in.fpscr);
	main_in.fpscr = main_ref.fpscr;

	fp_kill_roundtrip(&main_in, &main_out, SIGUSR1);
	ktap_result(fp_equal(&main_out, &main_ref), "vfp_preserved",
		    "d0 %#llx d31 %#llx fpscr %#x after the handler",
		    (unsigned long long)main_out.d[0],
		    (unsigned long long)main_out.d[31], main_out.fpscr);
	ktap_result(record_ok == 1, "vfp_record", "VFP record wrong or missing");
	ktap_result(outer_fp_ok == 1 && order_ok == 1, "nested_vfp_preserved",
		    "outer handler state kept %d, inner ran nested %d",
		    outer_fp_ok, order_ok);
	ktap_result(inner_on_altstack, "nested_on_altstack",
		    "SA_ONSTACK handler ran off the alternate stack");

	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/*
 * FPSCR.Len and .Stride (VFP short vectors) are zero when a handler
 * starts, as the procedure call standard has every function start and a
 * 32-bit ARM kernel enters a handler; the frame keeps the interrupted
 * values and sigreturn restores them.  Where the CPU keeps the two
 * writable (QEMU does), a non-zero value makes VFP data processing
 * UNDEFINED.  Stock 6.1 hands the handler the interrupted values.
 */
#define FPSCR_LEN_STRIDE	0x00370000u	/* Len bits 18:16, Stride 21:20 */
#define FPSCR_SHORT_VECTORS	0x00210000u	/* Len 2, Stride 2 */

/* Short vectors off again, before any C code can meet them */
static void fpscr_reset(void)
{
	asm volatile("vmsr	fpscr, %0" : : "r"(0));
}

static volatile uint32_t len_handler_fpscr, len_record_fpscr;
static volatile int len_handler_ran;

static void on_len_usr1(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
	uint32_t v;

	/* First thing, before any code the compiler may give VFP work to */
	asm volatile("vmrs	%0, fpscr" : "=r"(v));
	len_handler_fpscr = v;
	/* Clear them ourselves, so that stock's handler can go on */
	v &= ~FPSCR_LEN_STRIDE;
	asm volatile("vmsr	fpscr, %0" : : "r"(v));
	len_record_fpscr = ((const volatile uint32_t *)uc->uc_regspace)[66];
	len_handler_ran = 1;
	fp_clobber();
}

static void test_handler_fpscr(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO, .sa_sigaction = on_len_usr1 };
	struct fp_state in, ref, out;

	if (!(getauxval(AT_HWCAP) & (HWCAP_NEON | HWCAP_VFPD32))) {
		ktap_skip("handler_fpscr_len_stride_zero", "no d16-d31 (neither NEON nor VFPD32)");
		ktap_skip("fpscr_len_stride_restored", "no d16-d31 (neither NEON nor VFPD32)");
		return;
	}
	fp_pattern(&in, 3);
	in.fpscr = FPSCR_PATTERN | FPSCR_SHORT_VECTORS;
	fp_kill_roundtrip(&in, &ref, 0);
	fpscr_reset();
	if ((ref.fpscr & FPSCR_LEN_STRIDE) != FPSCR_SHORT_VECTORS) {
		ktap_skip("handler_fpscr_len_stride_zero",
			  "the CPU keeps FPSCR.Len and .Stride zero (wrote %#x, read %#x)",
			  in.fpscr, ref.fpscr);
		ktap_skip("fpscr_len_stride_restored",
			  "the CPU keeps FPSCR.Len and .Stride zero");
		return;
	}
	in.fpscr = ref.fpscr;

	sigaction(SIGUSR1, &sa, NULL);
	fp_kill_roundtrip(&in, &out, SIGUSR1);
	fpscr_reset();
	signal(SIGUSR1, SIG_DFL);
	ktap_result(len_handler_ran &&
		    len_handler_fpscr == (ref.fpscr & ~FPSCR_LEN_STRIDE),
		    "handler_fpscr_len_stride_zero",
		    "the handler started with FPSCR %#x, interrupted at %#x",
		    len_handler_fpscr, ref.fpscr);
	ktap_result(len_record_fpscr == ref.fpscr && fp_equal(&out, &ref),
		    "fpscr_len_stride_restored",
		    "frame record FPSCR %#x, after the handler %#x, want %#x",
		    len_record_fpscr, out.fpscr, ref.fpscr);
}

/*
 * FPSCR.FZ16 (bit 19: flush-to-zero for half precision, with FEAT_FP16)
 * is kept across a handler like every other FPSCR control bit, in the
 * frame's VFP record and after sigreturn, as a 32-bit ARM kernel keeps
 * the whole FPSCR.  Stock 6.1 (and mainline, as of 2025) loses it:
 * VFP_FPSCR_CTRL_MASK, by which it splits FPSCR into FPSR and FPCR, leaves
 * bit 19 out, so the frame records it clear and sigreturn clears it.
 */
#define FPSCR_FZ16	(1u << 19)
#define FZ16_LOST	"stock 6.1 and mainline lose FPSCR.FZ16: VFP_FPSCR_CTRL_MASK leaves bit 19 out"

static volatile uint32_t fz16_record_fpscr;
static volatile int fz16_handler_ran;

static void on_fz16_usr1(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;

	fz16_record_fpscr = ((const volatile uint32_t *)uc->uc_regspace)[66];
	fz16_handler_ran = 1;
	fp_clobber();		/* FPSCR zero: sigreturn must bring FZ16 back */
}

static void test_fz16(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO,
				.sa_sigaction = on_fz16_usr1 };
	struct fp_state in, ref, out;

	if (!(getauxval(AT_HWCAP) & (HWCAP_NEON | HWCAP_VFPD32))) {
		ktap_skip("fpscr_fz16_in_frame", "no d16-d31 (neither NEON nor VFPD32)");
		ktap_skip("fpscr_fz16_restored", "no d16-d31 (neither NEON nor VFPD32)");
		return;
	}
	fp_pattern(&in, 5);
	in.fpscr = FPSCR_PATTERN | FPSCR_FZ16;
	fp_kill_roundtrip(&in, &ref, 0);
	fpscr_reset();
	if (!(ref.fpscr & FPSCR_FZ16)) {
		ktap_skip("fpscr_fz16_in_frame",
			  "the CPU keeps FPSCR.FZ16 zero (no FP16; wrote %#x, read %#x)",
			  in.fpscr, ref.fpscr);
		ktap_skip("fpscr_fz16_restored", "the CPU keeps FPSCR.FZ16 zero");
		return;
	}
	in.fpscr = ref.fpscr;

	sigaction(SIGUSR1, &sa, NULL);
	fp_kill_roundtrip(&in, &out, SIGUSR1);
	fpscr_reset();
	signal(SIGUSR1, SIG_DFL);
	ktap_result(fz16_handler_ran && fz16_record_fpscr == ref.fpscr,
		    "fpscr_fz16_in_frame",
		    "frame record FPSCR %#x, want %#x (" FZ16_LOST ")",
		    fz16_record_fpscr, ref.fpscr);
	ktap_result(fp_equal(&out, &ref), "fpscr_fz16_restored",
		    "after the handler FPSCR %#x, want %#x (" FZ16_LOST ")",
		    out.fpscr, ref.fpscr);
}

/* A signal blocked by sa_mask arrives once the handler has returned. */
static volatile int usr1_done, usr2_after_usr1;

static void masked_usr2(int sig)
{
	usr2_after_usr1 = usr1_done;
}

static void masking_usr1(int sig)
{
	kill(getpid(), SIGUSR2);
	usr1_done = 1;
}

static void test_sa_mask(void)
{
	struct sigaction sa = { .sa_handler = masking_usr1 };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, masked_usr2);
	kill(getpid(), SIGUSR1);
	ktap_result(usr1_done && usr2_after_usr1, "sa_mask_deferred",
		    "SIGUSR2 ran inside the SIGUSR1 handler");
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* The kernel's sigaction: no libc restorer slipped in. */
struct ksigaction {
	void *handler;
	unsigned long flags;
	void (*restorer)(void);
	uint32_t mask[2];
};

#define KSA_RESTORER	0x04000000

static volatile uintptr_t handler_lr;
static volatile int handler_hits;

static void lr_handler(int sig)
{
	handler_lr = (uintptr_t)__builtin_return_address(0);
	handler_hits++;
}

static int sigpage_range(uintptr_t *lo, uintptr_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[sigpage]") &&
		    sscanf(line, "%x-%x", lo, hi) == 2)
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static void test_sigpage(const char *name, unsigned long flags)
{
	struct ksigaction ksa = { .handler = lr_handler, .flags = flags };
	uintptr_t lo, hi;
	long ret;
	int hits;

	if (!sigpage_range(&lo, &hi)) {
		ktap_result(0, name, "no [sigpage] in /proc/self/maps");
		return;
	}
	handler_hits = 0;
	ret = syscall(SYS_rt_sigaction, SIGUSR1, &ksa, NULL, 8);
	kill(getpid(), SIGUSR1);
	hits = handler_hits;
	/* Back here at all means the trampoline's sigreturn worked. */
	ktap_result(ret == 0 && hits == 1 && handler_lr >= lo && handler_lr < hi &&
		    (handler_lr & 1) == ((uintptr_t)lr_handler & 1), name,
		    "hits %d lr %#lx, [sigpage] %#lx-%#lx", hits,
		    (unsigned long)handler_lr, (unsigned long)lo,
		    (unsigned long)hi);
	signal(SIGUSR1, SIG_DFL);
}

/* An ARM restorer that counts its calls, then does rt_sigreturn. */
void counting_restorer(void);
volatile int restorer_hits;
asm(".pushsection .text\n"
    ".balign 4\n"
    ".arm\n"
    ".type counting_restorer, %function\n"
    "counting_restorer:\n"
    "	ldr	r1, =restorer_hits\n"
    "	ldr	r0, [r1]\n"
    "	add	r0, r0, #1\n"
    "	str	r0, [r1]\n"
    "	mov	r7, #173\n"
    "	svc	#0\n"
    "	.ltorg\n"
#ifdef __thumb__
    ".thumb\n"
#endif
    ".popsection\n");

static void test_restorer(void)
{
	struct ksigaction ksa = {
		.handler = lr_handler,
		.flags = SA_SIGINFO | KSA_RESTORER,
		.restorer = counting_restorer,
	};

	handler_hits = 0;
	syscall(SYS_rt_sigaction, SIGUSR1, &ksa, NULL, 8);
	kill(getpid(), SIGUSR1);
	ktap_result(handler_hits == 1 && restorer_hits == 1 &&
		    handler_lr == (uintptr_t)counting_restorer, "sa_restorer",
		    "hits %d restorer %d lr %#lx", handler_hits, restorer_hits,
		    (unsigned long)handler_lr);
	signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
	ktap_plan(12);
	test_fp_and_nesting();
	test_handler_fpscr();
	test_fz16();
	test_sa_mask();
	test_sigpage("sigpage_return", 0);
	test_sigpage("sigpage_return_rt", SA_SIGINFO);
	test_restorer();
	return ktap_finish();
}
