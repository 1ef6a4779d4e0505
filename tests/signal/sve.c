// SPDX-License-Identifier: GPL-2.0-only
/*
 * SVE state across signals delivered asynchronously.  A thread loads
 * every Z, P and FFR register with a pattern, then spins in userspace on
 * a flag; another thread sends it a signal, which arrives on return from
 * an interrupt (the handler checks that the interrupted pc is in the
 * spin loop).  The handler checks the frame (SVE record at the thread's
 * vector length, through extra_context where it does not fit, no kernel
 * bytes), clobbers every SVE register, may edit the record, and returns.
 * The thread then stores its registers and they are compared bit for
 * bit with what they must be.  At 128, 256, 512, 1024 and 2048 bits.
 *
 * What stock promises as well and what is our own are separate cases,
 * so that a comparison with stock still sees a register regression at
 * every length: async_vl* and edit_record_vl* (the registers, through the
 * record), frame_vl*_no_kernel_bytes (and AT_MINSIGSTKSZ covers the
 * frame), frame_vl*_layout (ours: reserved fields zero, which stock 6.1
 * leaves as stack bytes in extra_context, and extra_context used from
 * 1024 bits on, where the record no longer fits __reserved[]).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include "ktap.h"
#include "framecheck.h"
#include "sve_regs.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

#define VL_MAX		256
#define REGS_MAX	(SVE_SIG_REGS_SIZE(VL_MAX / 16))

/* Registers at handler entry, before any C code runs. */
volatile unsigned long entry_sp, entry_x29;
void (*volatile entry_target)(int, siginfo_t *, void *);
void entry_stub(int, siginfo_t *, void *);

/*
 * sve_spin(in, out, go, ready): load Z0-Z31, P0-P15 and FFR from in[]
 * (laid out as in a signal frame at the current vector length), set
 * *ready, spin until *go, store everything to out[].
 */
void sve_spin(const void *in, void *out, volatile int *go,
	      volatile int *ready);
extern char sve_spin_loop[], sve_spin_done[];

asm(".text\n"
	".arch_extension sve\n"
	".globl entry_stub\n"
	".type entry_stub, %function\n"
	"entry_stub:\n"
	"	adrp	x9, entry_sp\n"
	"	mov	x10, sp\n"
	"	str	x10, [x9, :lo12:entry_sp]\n"
	"	adrp	x9, entry_x29\n"
	"	str	x29, [x9, :lo12:entry_x29]\n"
	"	adrp	x9, entry_target\n"
	"	ldr	x9, [x9, :lo12:entry_target]\n"
	"	br	x9\n"
	".size entry_stub, . - entry_stub\n"
	".globl sve_spin\n"
	".type sve_spin, %function\n"
	"sve_spin:\n"
	SVE_REGS_LOAD_ASM
	"	mov	w12, #1\n"
	"	stlr	w12, [x3]\n"
	".globl sve_spin_loop\n"
	"sve_spin_loop:\n"
	"	ldar	w12, [x2]\n"
	"	cbz	w12, sve_spin_loop\n"
	".globl sve_spin_done\n"
	"sve_spin_done:\n"
	"	mov	x0, x1\n"
	SVE_REGS_STORE_ASM
	"	ret\n"
	".size sve_spin, . - sve_spin\n");

enum edit {
	EDIT_NONE,	/* the registers come back as they were */
	EDIT_RECORD,	/* the handler's edits to the record land */
	EDIT_FPSIMD_ONLY, /* an SVE record cut to its header: V only */
};

static struct {
	unsigned int vl;
	enum edit edit;
	pid_t tid;
	volatile int go, ready;

	/* what the handler saw */
	int calls;
	unsigned long pc;
	int sve_found, payload_ok;
	unsigned int sve_vl, sve_size;
	unsigned long payload_bad;
	struct frame_report rep;
} t;

static unsigned char in[REGS_MAX], out[REGS_MAX], clobber[REGS_MAX];
static unsigned char want[REGS_MAX];
static unsigned char altstack[64 * 1024] __attribute__((aligned(16)));

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned int vl = t.vl, vq = vl / 16;
	unsigned long n = SVE_SIG_REGS_SIZE(vq), i;
	struct fpsimd_context *fp = frame_record(uc, FPSIMD_MAGIC);
	struct sve_context *sve;
	unsigned char *data;

	t.calls++;
	t.pc = uc->uc_mcontext.pc;
	frame_check(&t.rep, (void *)entry_sp, (void *)entry_x29, 1);

	sve = frame_record(uc, SVE_MAGIC);
	t.sve_found = !!sve;
	if (sve) {
		t.sve_vl = sve->vl;
		t.sve_size = sve->head.size;
		data = (unsigned char *)sve + SVE_SIG_REGS_OFFSET;
		t.payload_ok = sve->head.size >= SVE_SIG_CONTEXT_SIZE(vq);
		for (i = 0; t.payload_ok && i < n; i++)
			if (data[i] != in[i] && !t.payload_bad++)
				t.payload_ok = 0;
	}

	/* every SVE register now holds something else */
	sve_regs_load(clobber);

	if (sve && fp && t.payload_ok && t.edit == EDIT_RECORD) {
		/* Z5 and Z30 above bit 127, all of P3, FFR, and V9 */
		for (i = 16; i < vl; i++) {
			data[sve_zoff(vl, 5) + i] ^= 0xff;
			data[sve_zoff(vl, 30) + i] ^= 0x5a;
		}
		for (i = 0; i < vl / 8; i++)
			data[sve_poff(vl, 3) + i] ^= 0xff;
		sve_set_ffr(data, vl, 5);
		fp->vregs[9] = ~fp->vregs[9];
	}
	if (sve && t.edit == EDIT_FPSIMD_ONLY) {
		sve->head.size = sizeof(*sve);
		memset((unsigned char *)sve + sizeof(*sve), 0, 8);
	}
	__atomic_store_n(&t.go, 1, __ATOMIC_RELEASE);
}

/* What the registers must read after the handler. */
static void expect(unsigned int vl)
{
	unsigned long n = SVE_SIG_REGS_SIZE(vl / 16), i;
	int z;

	memcpy(want, in, n);
	if (t.edit == EDIT_RECORD) {
		for (i = 16; i < vl; i++) {
			want[sve_zoff(vl, 5) + i] ^= 0xff;
			want[sve_zoff(vl, 30) + i] ^= 0x5a;
		}
		for (i = 0; i < vl / 8; i++)
			want[sve_poff(vl, 3) + i] ^= 0xff;
		sve_set_ffr(want, vl, 5);
		for (i = 0; i < 16; i++)
			want[sve_zoff(vl, 9) + i] ^= 0xff;
	} else if (t.edit == EDIT_FPSIMD_ONLY) {
		/* the low 128 bits of each Z survive, nothing else */
		memset(want, 0, n);
		for (z = 0; z < 32; z++)
			memcpy(want + sve_zoff(vl, z), in + sve_zoff(vl, z), 16);
	}
}

static void *spinner(void *arg)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	(void)arg;
	t.tid = syscall(SYS_gettid);
	if (sigaltstack(&ss, NULL))
		return NULL;
	memset(altstack, FILL_BYTE, sizeof(altstack));
	sve_spin(in, out, &t.go, &t.ready);
	return NULL;
}

/*
 * One signal into a spinning thread at vector length @vl (bytes): the
 * registers case @name, and, when @frame_name, the frame's two cases.
 */
static void run_case(unsigned int vl, enum edit edit, const char *name,
		     const char *frame_name)
{
	struct sigaction sa = { .sa_sigaction = entry_stub,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	unsigned long n = SVE_SIG_REGS_SIZE(vl / 16), diff = 0, first = 0, i;
	unsigned long loop = (unsigned long)sve_spin_loop;
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	char fname[96];
	pthread_t th;
	int ok;

	memset(&t, 0, sizeof(t));
	t.vl = vl;
	t.edit = edit;
	sve_regs_fill(in, vl, vl * 7 + edit);
	sve_regs_fill(clobber, vl, vl * 13 + 1);
	memset(out, 0, sizeof(out));
	entry_target = handler;
	sigaction(SIGUSR1, &sa, NULL);

	/* the vector length is per thread and inherited by new threads */
	if (!sve_set_vl(vl)) {
		ktap_skip(name, "vector length %u bits not supported", vl * 8);
		if (frame_name) {
			snprintf(fname, sizeof(fname), "%s_no_kernel_bytes",
				 frame_name);
			ktap_skip(fname, "vector length %u bits not supported",
				  vl * 8);
			snprintf(fname, sizeof(fname), "%s_layout", frame_name);
			ktap_skip(fname, "vector length %u bits not supported",
				  vl * 8);
		}
		return;
	}
	if (pthread_create(&th, NULL, spinner, NULL)) {
		ktap_diag("pthread_create failed");
		t.calls = -1;
	} else {
		while (!__atomic_load_n(&t.ready, __ATOMIC_ACQUIRE))
			sched_yield();
		syscall(SYS_tgkill, getpid(), t.tid, SIGUSR1);
		pthread_join(th, NULL);
	}

	expect(vl);
	for (i = 0; i < n; i++)
		if (out[i] != want[i] && !diff++)
			first = i;

	/* What stock promises too: the registers, through the record. */
	ok = t.calls == 1 && t.pc >= loop && t.pc <= loop + 4 &&
	     t.sve_found && t.sve_vl == vl && t.payload_ok && !diff;
	ktap_result(ok, name,
		    "calls %d, pc %#lx (loop %#lx), sve record %d vl %u size %u, payload %s (%lu bad), %lu register bytes differ, first at %lu: %#x want %#x",
		    t.calls, t.pc, loop, t.sve_found, t.sve_vl, t.sve_size,
		    t.payload_ok ? "ok" : "wrong", t.payload_bad, diff, first,
		    out[first], want[first]);
	if (!frame_name)
		return;

	/* No kernel bytes in the frame, and AT_MINSIGSTKSZ covers it. */
	snprintf(fname, sizeof(fname), "%s_no_kernel_bytes", frame_name);
	ktap_result(t.calls == 1 && !t.rep.bad && minsig >= t.rep.span + 16,
		    fname, "%lu bad bytes (%s), span %lu vs AT_MINSIGSTKSZ %lu",
		    t.rep.bad, t.rep.why, t.rep.span, minsig);

	/*
	 * Our own rules: reserved fields written as zero (stock 6.1 leaves
	 * stack bytes in extra_context's), and an SVE record too large for
	 * __reserved[] placed through extra_context.
	 */
	snprintf(fname, sizeof(fname), "%s_layout", frame_name);
	ktap_result(t.calls == 1 && !t.rep.reserved_bad &&
		    (t.rep.extra || vl * 8 < 1024), fname,
		    "%lu reserved bytes not zero (%s), extra_context %s",
		    t.rep.reserved_bad, t.rep.why_reserved,
		    t.rep.extra ? "used" : "not used");
}

static const unsigned int vls[] = { 128, 256, 512, 1024, 2048 };

#define NR_CASES	(4 * 5 + 1)

int main(void)
{
	char name[64], fname[64];
	int i;

	ktap_plan(NR_CASES);
	if (!sve_present()) {
		for (i = 0; i < NR_CASES; i++)
			ktap_skip("sve", "no SVE on this CPU/kernel");
		return ktap_finish();
	}

	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "async_vl%u", vls[i]);
		snprintf(fname, sizeof(fname), "frame_vl%u", vls[i]);
		run_case(vls[i] / 8, EDIT_NONE, name, fname);
	}
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "edit_record_vl%u", vls[i]);
		run_case(vls[i] / 8, EDIT_RECORD, name, NULL);
	}
	run_case(256 / 8, EDIT_FPSIMD_ONLY, "fpsimd_only_record_vl256", NULL);
	return ktap_finish();
}
