// SPDX-License-Identifier: GPL-2.0-only
/*
 * sigaltstack: handlers on the alternate stack, uc_stack, SS_AUTODISARM,
 * a MINSIGSTKSZ stack that must hold a whole frame, and a frame that does
 * not fit: the task gets SIGSEGV and nothing below the stack is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ktap.h"

/*
 * The kernel's MINSIGSTKSZ (glibc's may be a sysconf() call): arm64's, or
 * the AArch32 one when tests/compat builds this file for armhf.
 */
#ifdef __aarch64__
#define KERNEL_MINSIGSTKSZ 5120
#else
#define KERNEL_MINSIGSTKSZ 2048
#endif

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif

static char big_stack[65536] __attribute__((aligned(16)));

static unsigned long cur_sp(void)
{
	unsigned long sp;

	asm volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

static int on(unsigned long a, const void *base, size_t size)
{
	return a >= (unsigned long)base && a < (unsigned long)base + size;
}

static volatile struct {
	int calls;
	unsigned long sp, sp2, frame_lo, frame_hi;
	stack_t uc_stack, query, query2;
} s;

static void onstack_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	s.calls++;
	s.sp = cur_sp();
	s.frame_lo = (unsigned long)si;
	s.frame_hi = (unsigned long)(uc + 1);
	s.uc_stack = uc->uc_stack;
	sigaltstack(NULL, (stack_t *)&s.query);
}

static void check_onstack(void)
{
	stack_t ss = { .ss_sp = big_stack, .ss_size = sizeof(big_stack) };
	struct sigaction sa = { .sa_sigaction = onstack_handler,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t after;

	memset((void *)&s, 0, sizeof(s));
	sigaltstack(&ss, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	sigaltstack(NULL, &after);
	ktap_result(s.calls == 1 && on(s.sp, big_stack, sizeof(big_stack)) &&
		    on(s.frame_lo, big_stack, sizeof(big_stack)) &&
		    on(s.frame_hi - 1, big_stack, sizeof(big_stack)),
		    "handler_on_altstack", "sp %#lx frame [%#lx,%#lx) stack %p+%zu",
		    s.sp, s.frame_lo, s.frame_hi, big_stack, sizeof(big_stack));
	ktap_result(s.uc_stack.ss_sp == big_stack &&
		    s.uc_stack.ss_size == sizeof(big_stack) &&
		    s.uc_stack.ss_flags == 0 && s.query.ss_flags == SS_ONSTACK &&
		    after.ss_flags == 0, "uc_stack_and_ss_onstack",
		    "uc_stack %p/%zu/%#x, in handler flags %#x, after %#x",
		    s.uc_stack.ss_sp, s.uc_stack.ss_size, s.uc_stack.ss_flags,
		    s.query.ss_flags, after.ss_flags);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void autodisarm_inner(int sig)
{
	s.sp2 = cur_sp();
}

static void autodisarm_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	s.calls++;
	s.sp = cur_sp();
	s.uc_stack = uc->uc_stack;
	sigaltstack(NULL, (stack_t *)&s.query);
	/* a nested SA_ONSTACK signal must not restart at the top */
	raise(SIGUSR2);
}

static void check_autodisarm(void)
{
	stack_t ss = { .ss_sp = big_stack, .ss_size = sizeof(big_stack),
		       .ss_flags = SS_AUTODISARM };
	struct sigaction sa = { .sa_sigaction = autodisarm_handler,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };
	stack_t after;
	int r;

	memset((void *)&s, 0, sizeof(s));
	r = sigaltstack(&ss, NULL);
	if (r) {
		ktap_skip("ss_autodisarm", "SS_AUTODISARM refused: %s",
			  strerror(errno));
		ktap_skip("autodisarm_nested_below", "SS_AUTODISARM refused");
		return;
	}
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = autodisarm_inner;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR1);
	sigaltstack(NULL, &after);

	ktap_result(s.calls == 1 && on(s.sp, big_stack, sizeof(big_stack)) &&
		    s.query.ss_flags == SS_DISABLE &&
		    s.uc_stack.ss_sp == big_stack &&
		    s.uc_stack.ss_flags == SS_AUTODISARM &&
		    after.ss_sp == big_stack &&
		    after.ss_flags == SS_AUTODISARM, "ss_autodisarm",
		    "in handler %#x, uc_stack %p/%#x, after %p/%#x",
		    s.query.ss_flags, s.uc_stack.ss_sp, s.uc_stack.ss_flags,
		    after.ss_sp, after.ss_flags);
	ktap_result(s.sp2 && s.sp2 < s.sp && on(s.sp2, big_stack,
						     sizeof(big_stack)),
		    "autodisarm_nested_below", "outer sp %#lx nested sp %#lx",
		    s.sp, s.sp2);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* MINSIGSTKSZ is what sigaltstack accepts; a frame must fit in it. */
static void check_minimal(void)
{
	static char small[KERNEL_MINSIGSTKSZ] __attribute__((aligned(16)));
	stack_t ss = { .ss_sp = small, .ss_size = sizeof(small) };
	struct sigaction sa = { .sa_sigaction = onstack_handler,
				.sa_flags = SA_SIGINFO | SA_ONSTACK };

	memset((void *)&s, 0, sizeof(s));
	if (sigaltstack(&ss, NULL)) {
		ktap_skip("minsigstksz_stack", "sigaltstack(%d) failed: %s",
			  KERNEL_MINSIGSTKSZ, strerror(errno));
		return;
	}
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	ktap_result(s.calls == 1 && on(s.frame_lo, small, sizeof(small)) &&
		    s.frame_hi <= (unsigned long)small + sizeof(small),
		    "minsigstksz_stack", "frame [%#lx,%#lx) stack %p+%d",
		    s.frame_lo, s.frame_hi, small, KERNEL_MINSIGSTKSZ);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/*
 * Overflow, in a child.  A shared mapping holds a guard area and, above
 * it, the alternate stack.  The SIGUSR1 handler eats the alternate stack
 * down to ROOM_LEFT bytes and raises SIGUSR2, also SA_ONSTACK: that frame cannot
 * fit, so the child must die of SIGSEGV with the guard untouched.
 */
/* what is left of the alternate stack: less than a frame, more than a call */
#ifdef __aarch64__
#define ROOM_LEFT 1024
#else
#define ROOM_LEFT 512	/* an AArch32 rt_sigframe takes 880 bytes */
#endif
#define GUARD	65536
#define ALT	65536
#define GUARD_BYTE 0x6b

static char *region;
static volatile int usr2_ran;

static void overflow_usr2(int sig)
{
	usr2_ran = 1;
}

static void __attribute__((noinline)) eat_and_raise(size_t len)
{
	volatile char buf[len];

	buf[0] = 1;
	asm volatile("" : : "r"(buf) : "memory");
	syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2);
	buf[len - 1] = 1;
}

static void overflow_usr1(int sig)
{
	unsigned long left = cur_sp() - (unsigned long)(region + GUARD);

	eat_and_raise(left - ROOM_LEFT);
	/* only reached when the kernel delivered SIGUSR2 after all */
	_exit(usr2_ran ? 3 : 4);
}

static void check_overflow(void)
{
	struct sigaction sa = { .sa_handler = overflow_usr1,
				.sa_flags = SA_ONSTACK };
	size_t i, dirty = 0;
	pid_t pid;
	int st;

	region = mmap(NULL, GUARD + ALT, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		ktap_skip("overflow_sigsegv", "mmap: %s", strerror(errno));
		ktap_skip("overflow_no_write_below", "mmap failed");
		return;
	}
	memset(region, GUARD_BYTE, GUARD);
	pid = fork();
	if (!pid) {
		stack_t ss = { .ss_sp = region + GUARD, .ss_size = ALT };

		sigaltstack(&ss, NULL);
		sigaction(SIGUSR1, &sa, NULL);
		sa.sa_handler = overflow_usr2;
		sigaction(SIGUSR2, &sa, NULL);
		raise(SIGUSR1);
		_exit(2);
	}
	waitpid(pid, &st, 0);
	for (i = 0; i < GUARD; i++)
		dirty += region[i] != GUARD_BYTE;
	ktap_result(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		    "overflow_sigsegv", "child status %#x", st);
	ktap_result(!dirty, "overflow_no_write_below",
		    "%zu bytes below the alternate stack changed", dirty);
	munmap(region, GUARD + ALT);
}

int main(void)
{
	ktap_plan(7);
	check_onstack();
	check_autodisarm();
	check_minimal();
	check_overflow();
	return ktap_finish();
}
