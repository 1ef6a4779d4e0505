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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <asm/sigcontext.h>

#include "ktap.h"
#include "framecheck.h"

#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL 50
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif
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
 * sve_load(in): only the loads (the handler's clobber).
 */
void sve_spin(const void *in, void *out, volatile int *go,
	      volatile int *ready);
void sve_load(const void *in);
extern char sve_spin_loop[], sve_spin_done[];

#define LDZ(n)	"ldr z" #n ", [x0, #" #n ", mul vl]\n"
#define STZ(n)	"str z" #n ", [x1, #" #n ", mul vl]\n"
#define LDP(n)	"ldr p" #n ", [x10, #" #n ", mul vl]\n"
#define STP(n)	"str p" #n ", [x10, #" #n ", mul vl]\n"
#define X8(m, a) m(a##0) m(a##1) m(a##2) m(a##3) m(a##4) m(a##5) m(a##6) m(a##7)
#define ALL_Z(m) X8(m, ) m(8) m(9) X8(m, 1) m(18) m(19) X8(m, 2) m(28) m(29) \
		 m(30) m(31)
#define ALL_P(m) X8(m, ) m(8) m(9) m(10) m(11) m(12) m(13) m(14) m(15)

/* the loads shared by sve_spin and sve_load: x0 = in */
#define LOAD_ALL							\
	"	rdvl	x9, #1\n"						\
	"	add	x10, x0, x9, lsl #5\n"	/* P0, after Z0-Z31 */		\
	"	add	x11, x10, x9, lsl #1\n"	/* FFR, after P0-P15 */		\
	"	ldr	p0, [x11]\n"						\
	"	wrffr	p0.b\n"							\
	ALL_P(LDP) ALL_Z(LDZ)

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
	".globl sve_load\n"
	".type sve_load, %function\n"
	"sve_load:\n"
	LOAD_ALL
	"	ret\n"
	".size sve_load, . - sve_load\n"
	".globl sve_spin\n"
	".type sve_spin, %function\n"
	"sve_spin:\n"
	LOAD_ALL
	"	mov	w12, #1\n"
	"	stlr	w12, [x3]\n"
	".globl sve_spin_loop\n"
	"sve_spin_loop:\n"
	"	ldar	w12, [x2]\n"
	"	cbz	w12, sve_spin_loop\n"
	".globl sve_spin_done\n"
	"sve_spin_done:\n"
	"	add	x10, x1, x9, lsl #5\n"
	"	add	x11, x10, x9, lsl #1\n"
	ALL_Z(STZ) ALL_P(STP)
	"	rdffr	p0.b\n"
	"	str	p0, [x11]\n"
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
	int sve_found, payload_ok, extra;
	unsigned int sve_vl, sve_size;
	unsigned long payload_bad;
	struct frame_report rep;
} t;

static unsigned char in[REGS_MAX], out[REGS_MAX], clobber[REGS_MAX];
static unsigned char want[REGS_MAX];
static unsigned char altstack[64 * 1024] __attribute__((aligned(16)));

static unsigned long zoff(unsigned int vl, int n)
{
	return (unsigned long)n * vl;
}

static unsigned long poff(unsigned int vl, int n)
{
	return 32UL * vl + (unsigned long)n * (vl / 8);
}

/* FFR must hold a monotonic predicate: ones from bit 0, then zeroes. */
static void set_ffr(unsigned char *regs, unsigned int vl, unsigned int ones)
{
	unsigned char *ffr = regs + poff(vl, 16);
	unsigned int i;

	memset(ffr, 0, vl / 8);
	for (i = 0; i < ones; i++)
		ffr[i / 8] |= 1 << (i % 8);
}

static void fill(unsigned char *regs, unsigned int vl, unsigned int seed)
{
	unsigned long i, n = SVE_SIG_REGS_SIZE(vl / 16);
	uint32_t x = seed;

	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		regs[i] = x >> 16;
	}
	set_ffr(regs, vl, vl - 3);	/* vl bits of FFR (one per byte) */
}

/* The SVE record of the frame, through extra_context if need be. */
static struct sve_context *find_sve(ucontext_t *uc)
{
	unsigned char *p = (unsigned char *)uc->uc_mcontext.__reserved;
	unsigned char *stop = p + sizeof(uc->uc_mcontext.__reserved);

	while (p + 8 <= stop) {
		struct _aarch64_ctx *h = (void *)p;

		if (!h->magic || h->size < 8)
			return NULL;
		if (h->magic == SVE_MAGIC)
			return (void *)h;
		if (h->magic == EXTRA_MAGIC) {
			struct extra_context *x = (void *)h;

			t.extra = 1;
			p = (unsigned char *)(unsigned long)x->datap;
			stop = p + x->size;
			continue;
		}
		p += h->size;
	}
	return NULL;
}

static struct fpsimd_context *find_fpsimd(ucontext_t *uc)
{
	struct _aarch64_ctx *h = (void *)uc->uc_mcontext.__reserved;

	return h->magic == FPSIMD_MAGIC ? (void *)h : NULL;
}

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned int vl = t.vl, vq = vl / 16;
	unsigned long n = SVE_SIG_REGS_SIZE(vq), i;
	struct fpsimd_context *fp = find_fpsimd(uc);
	struct sve_context *sve;
	unsigned char *data;

	t.calls++;
	t.pc = uc->uc_mcontext.pc;
	frame_check(&t.rep, (void *)entry_sp, (void *)entry_x29, 1);

	sve = find_sve(uc);
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
	sve_load(clobber);

	if (sve && fp && t.payload_ok && t.edit == EDIT_RECORD) {
		/* Z5 and Z30 above bit 127, all of P3, FFR, and V9 */
		for (i = 16; i < vl; i++) {
			data[zoff(vl, 5) + i] ^= 0xff;
			data[zoff(vl, 30) + i] ^= 0x5a;
		}
		for (i = 0; i < vl / 8; i++)
			data[poff(vl, 3) + i] ^= 0xff;
		set_ffr(data, vl, 5);
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
			want[zoff(vl, 5) + i] ^= 0xff;
			want[zoff(vl, 30) + i] ^= 0x5a;
		}
		for (i = 0; i < vl / 8; i++)
			want[poff(vl, 3) + i] ^= 0xff;
		set_ffr(want, vl, 5);
		for (i = 0; i < 16; i++)
			want[zoff(vl, 9) + i] ^= 0xff;
	} else if (t.edit == EDIT_FPSIMD_ONLY) {
		/* the low 128 bits of each Z survive, nothing else */
		memset(want, 0, n);
		for (z = 0; z < 32; z++)
			memcpy(want + zoff(vl, z), in + zoff(vl, z), 16);
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

/* One signal into a spinning thread at vector length @vl. */
static void run_case(unsigned int vl, enum edit edit, const char *name)
{
	struct sigaction sa = { .sa_sigaction = entry_stub,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	unsigned long n = SVE_SIG_REGS_SIZE(vl / 16), diff = 0, first = 0, i;
	unsigned long loop = (unsigned long)sve_spin_loop;
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	pthread_t th;
	int ok;

	memset(&t, 0, sizeof(t));
	t.vl = vl;
	t.edit = edit;
	fill(in, vl, vl * 7 + edit);
	fill(clobber, vl, vl * 13 + 1);
	memset(out, 0, sizeof(out));
	entry_target = handler;
	sigaction(SIGUSR1, &sa, NULL);

	/* the vector length is per thread and inherited by new threads */
	if ((prctl(PR_SVE_SET_VL, vl) & PR_SVE_VL_LEN_MASK) != (int)vl) {
		ktap_skip(name, "vector length %u not supported", vl);
		return;
	}
	if (pthread_create(&th, NULL, spinner, NULL)) {
		ktap_result(0, name, "pthread_create failed");
		return;
	}
	while (!__atomic_load_n(&t.ready, __ATOMIC_ACQUIRE))
		sched_yield();
	syscall(SYS_tgkill, getpid(), t.tid, SIGUSR1);
	pthread_join(th, NULL);

	expect(vl);
	for (i = 0; i < n; i++)
		if (out[i] != want[i] && !diff++)
			first = i;

	ok = t.calls == 1 && t.pc >= loop && t.pc <= loop + 4 &&
	     t.sve_found && t.sve_vl == vl && t.payload_ok && !t.rep.bad &&
	     !diff && minsig >= t.rep.span + 16;
	ktap_result(ok, name,
		    "calls %d, pc %#lx (loop %#lx), sve record %d vl %u size %u, payload %s (%lu bad), extra %d, frame: %lu bad (%s), span %lu vs AT_MINSIGSTKSZ %lu, %lu register bytes differ, first at %lu: %#x want %#x",
		    t.calls, t.pc, loop, t.sve_found, t.sve_vl, t.sve_size,
		    t.payload_ok ? "ok" : "wrong", t.payload_bad, t.extra,
		    t.rep.bad, t.rep.why, t.rep.span, minsig, diff, first,
		    out[first], want[first]);
	if (ok && vl >= 1024 && !t.extra)
		ktap_diag("vl %u: no extra_context seen", vl);
}

static const unsigned int vls[] = { 128, 256, 512, 1024, 2048 };

int main(void)
{
	char name[64];
	int i;

	ktap_plan(2 * 5 + 1);
	if (!(getauxval(AT_HWCAP) & HWCAP_SVE)) {
		for (i = 0; i < 2 * 5 + 1; i++)
			ktap_skip("sve", "no SVE on this CPU/kernel");
		return ktap_finish();
	}

	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "async_vl%u", vls[i]);
		run_case(vls[i] / 8, EDIT_NONE, name);
	}
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "edit_record_vl%u", vls[i]);
		run_case(vls[i] / 8, EDIT_RECORD, name);
	}
	run_case(256 / 8, EDIT_FPSIMD_ONLY, "fpsimd_only_record_vl256");
	return ktap_finish();
}
