// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signal delivery under a debugger: single-stepping into a handler stops
 * on its first instruction with the frame set up, a tracee stopped for a
 * signal that interrupted a syscall already shows the syscall rewound for
 * restart (pc on the SVC, x0 = its first argument), and the FP/SIMD state
 * a tracer reads after rt_sigreturn holds nothing but what the frame
 * gave: the two reserved words of NT_PRFPREG are zero (stock 6.1 copies
 * them from an uninitialised stack variable, zero only where the kernel
 * is built to zero its stack).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <asm/ptrace.h>

#include "ktap.h"
#include "procwait.h"

#define SVC_0	0xd4000001U
#define NR_read	63

struct gpregs {
	unsigned long regs[31];
	unsigned long sp, pc, pstate;
};

volatile int step_handled;
void step_handler(int sig);

asm(".text\n.globl step_handler\n.type step_handler, %function\n"
	"step_handler:\n"
	"	nop\n"
	"	adrp	x1, step_handled\n"
	"	mov	w2, #1\n"
	"	str	w2, [x1, :lo12:step_handled]\n"
	"	ret\n"
	".size step_handler, . - step_handler\n");

static int get_regs(pid_t pid, struct gpregs *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov);
}

static int stopped_with(pid_t pid, int sig)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFSTOPPED(st) && WSTOPSIG(st) == sig;
}

static void check_singlestep(void)
{
	struct gpregs at_entry = { 0 }, next = { 0 };
	int entry_ok = 0, next_ok = 0, st = -1;
	pid_t pid = fork();

	if (!pid) {
		signal(SIGUSR1, step_handler);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(step_handled ? 0 : 1);
	}
	if (stopped_with(pid, SIGSTOP) &&
	    !ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)SIGUSR1) &&
	    stopped_with(pid, SIGTRAP) && !get_regs(pid, &at_entry)) {
		entry_ok = at_entry.pc == (unsigned long)step_handler &&
			   at_entry.regs[0] == SIGUSR1 &&
			   at_entry.sp % 16 == 0;
		if (!ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) &&
		    stopped_with(pid, SIGTRAP) && !get_regs(pid, &next))
			next_ok = next.pc == at_entry.pc + 4 &&
				  next.sp == at_entry.sp;
	}
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &st, 0);
	ktap_result(entry_ok, "singlestep_stops_at_handler",
		    "pc %#lx (handler %p) x0 %lu sp %#lx", at_entry.pc,
		    step_handler, at_entry.regs[0], at_entry.sp);
	ktap_result(next_ok && WIFEXITED(st) && !WEXITSTATUS(st),
		    "singlestep_through_handler",
		    "next pc %#lx, child status %#x", next.pc, st);
}

static void check_rewound_syscall(void)
{
	struct gpregs r = { 0 };
	int p[2], st = -1, seen = 0;
	unsigned int insn = 0;
	pid_t pid;

	if (pipe(p)) {
		ktap_skip("stop_shows_rewound_svc", "pipe: %s", strerror(errno));
		ktap_skip("suppressed_signal_restarts_read", "no pipe");
		return;
	}
	pid = fork();
	if (!pid) {
		char c = 0;

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(read(p[0], &c, 1) == 1 && c == 'z' ? 0 : 1);
	}
	if (stopped_with(pid, SIGSTOP) &&
	    !ptrace(PTRACE_CONT, pid, NULL, NULL) &&
	    !wait_in_syscall(pid, pid, NR_read)) {
		kill(pid, SIGUSR1);
		if (stopped_with(pid, SIGUSR1) && !get_regs(pid, &r)) {
			errno = 0;
			insn = (unsigned int)ptrace(PTRACE_PEEKTEXT, pid,
						    (void *)r.pc, NULL);
			seen = !errno;
		}
	}
	ktap_result(seen && insn == SVC_0 && r.regs[0] == (unsigned long)p[0] &&
		    r.regs[8] == NR_read, "stop_shows_rewound_svc",
		    "pc %#lx holds %#x, x0 %lu (fd %d), x8 %lu", r.pc, insn,
		    r.regs[0], p[0], r.regs[8]);

	/* drop the signal: the read goes on and gets the byte */
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	if (write(p[1], "z", 1) != 1)
		st = -1;
	waitpid(pid, &st, 0);
	ktap_result(WIFEXITED(st) && !WEXITSTATUS(st),
		    "suppressed_signal_restarts_read", "child status %#x", st);
	close(p[0]);
	close(p[1]);
}

static void nothing(int sig)
{
}

static void check_fpsimd_reserved(void)
{
	struct user_fpsimd_state fp;
	struct iovec iov = { &fp, sizeof(fp) };
	int read = 0, st = -1;
	pid_t pid = fork();

	if (!pid) {
		signal(SIGUSR1, nothing);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGUSR1);		/* a handler, and rt_sigreturn */
		raise(SIGSTOP);
		_exit(0);
	}
	memset(&fp, 0x5a, sizeof(fp));
	if (stopped_with(pid, SIGUSR1) &&
	    !ptrace(PTRACE_CONT, pid, NULL, (void *)SIGUSR1) &&
	    stopped_with(pid, SIGSTOP))
		read = !ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRFPREG, &iov) &&
		       iov.iov_len == sizeof(fp);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &st, 0);
	ktap_result(read && !fp.__reserved[0] && !fp.__reserved[1],
		    "fpsimd_reserved_zero_after_sigreturn",
		    "NT_PRFPREG read %d, reserved words %#x %#x, child status %#x",
		    read, fp.__reserved[0], fp.__reserved[1], st);
}

int main(void)
{
	ktap_plan(5);
	check_singlestep();
	check_rewound_syscall();
	check_fpsimd_reserved();
	return ktap_finish();
}
