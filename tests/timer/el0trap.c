// SPDX-License-Identifier: GPL-2.0-only
/*
 * EL0 may read the virtual counter and its frequency (the vDSO needs
 * them) but may not touch the timers: reading or writing a timer register
 * from user space must trap and end in SIGILL.  The register accesses
 * are the A64 system register ones, or the AArch32 CP15 ones for armhf.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "ktap.h"

static sigjmp_buf back;
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
	siglongjmp(back, 1);
}

#ifdef __aarch64__
#define ACCESSOR(name, insn)						\
static void name(uint64_t *v)						\
{									\
	asm volatile(insn : "+r" (*v) :: "memory");			\
}
ACCESSOR(rd_cntvct, "isb; mrs %0, cntvct_el0")
ACCESSOR(rd_cntfrq, "mrs %0, cntfrq_el0")
ACCESSOR(rd_cntv_ctl, "mrs %0, cntv_ctl_el0")
ACCESSOR(wr_cntv_ctl, "msr cntv_ctl_el0, %0")
ACCESSOR(wr_cntv_tval, "msr cntv_tval_el0, %0")
ACCESSOR(rd_cntp_ctl, "mrs %0, cntp_ctl_el0")
ACCESSOR(wr_cntp_ctl, "msr cntp_ctl_el0, %0")
ACCESSOR(wr_cntp_cval, "msr cntp_cval_el0, %0")
#else
#define ACCESSOR(name, insn)						\
static void name(uint64_t *v)						\
{									\
	uint32_t w = (uint32_t)*v;					\
	asm volatile(insn : "+r" (w) :: "memory");			\
	*v = w;								\
}
static void rd_cntvct(uint64_t *v)
{
	asm volatile("isb; mrrc p15, 1, %Q0, %R0, c14" : "=r" (*v) :: "memory");
}
ACCESSOR(rd_cntfrq, "mrc p15, 0, %0, c14, c0, 0")
ACCESSOR(rd_cntv_ctl, "mrc p15, 0, %0, c14, c3, 1")
ACCESSOR(wr_cntv_ctl, "mcr p15, 0, %0, c14, c3, 1")
ACCESSOR(wr_cntv_tval, "mcr p15, 0, %0, c14, c3, 0")
ACCESSOR(rd_cntp_ctl, "mrc p15, 0, %0, c14, c2, 1")
ACCESSOR(wr_cntp_ctl, "mcr p15, 0, %0, c14, c2, 1")
static void wr_cntp_cval(uint64_t *v)
{
	asm volatile("mcrr p15, 2, %Q0, %R0, c14" :: "r" (*v) : "memory");
}
#endif

/* Run @fn once; the signal it raised, or 0 */
static int try(void (*fn)(uint64_t *), uint64_t *v)
{
	got_signal = 0;
	if (!sigsetjmp(back, 1))
		fn(v);
	return got_signal;
}

static void expect_sigill(const char *name, void (*fn)(uint64_t *),
			  uint64_t value)
{
	int sig = try(fn, &value);

	ktap_result(sig == SIGILL, name, "got %s",
		    sig ? strsignal(sig) : "no signal: EL0 reached the timer");
}

int main(void)
{
	struct sigaction sa;
	uint64_t v1 = 0, v2 = 0, ctl = 0;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	ktap_plan(8);

	sig = try(rd_cntvct, &v1);
	if (!sig)
		sig = try(rd_cntvct, &v2);
	ktap_result(!sig && v2 >= v1 && v1, "counter_readable",
		    "signal %d, readings %llu then %llu", sig,
		    (unsigned long long)v1, (unsigned long long)v2);

	v1 = 0;
	sig = try(rd_cntfrq, &v1);
	ktap_result(!sig && v1, "cntfrq_readable", "signal %d, CNTFRQ %llu",
		    sig, (unsigned long long)v1);

	/*
	 * Read the control register first: if that did not trap, the writes
	 * below put back what was read, or an event due at once, so a
	 * failing kernel loses no timer.
	 */
	sig = try(rd_cntv_ctl, &ctl);
	ktap_result(sig == SIGILL, "read_cntv_ctl_traps", "got %s",
		    sig ? strsignal(sig) : "no signal: EL0 read the timer");
	expect_sigill("write_cntv_ctl_traps", wr_cntv_ctl, ctl);
	expect_sigill("write_cntv_tval_traps", wr_cntv_tval, 1);

	ctl = 0;
	sig = try(rd_cntp_ctl, &ctl);
	ktap_result(sig == SIGILL, "read_cntp_ctl_traps", "got %s",
		    sig ? strsignal(sig) : "no signal: EL0 read the timer");
	expect_sigill("write_cntp_ctl_traps", wr_cntp_ctl, ctl);
	expect_sigill("write_cntp_cval_traps", wr_cntp_cval, 0);

	return ktap_finish();
}
