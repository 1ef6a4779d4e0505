// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 32-bit vDSO answers clock_gettime and gettimeofday without a
 * system call.  The kernel has no seccomp here, so a tracing parent
 * counts the child's system calls instead: between two marker calls the
 * child reads the clocks many times and must make no time syscall.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define READS		200
#define NR_GETTIMEOFDAY	78
#define NR_CLOCK_GETTIME	263
#define NR_CLOCK_GETTIME64	403
#define MARKER		SYS_getppid

struct arm_regs {
	unsigned long r[18];	/* r0-r15, cpsr, orig_r0 */
};

static int child_reads(void)
{
	struct timespec a, b;
	struct timeval tv;
	int i, ok = 1;

	syscall(MARKER);
	for (i = 0; i < READS; i++) {
		ok &= !clock_gettime(CLOCK_MONOTONIC, &a);
		ok &= !clock_gettime(CLOCK_REALTIME, &b);
		ok &= !gettimeofday(&tv, NULL);
	}
	syscall(MARKER);
	return ok ? 0 : 1;
}

int main(void)
{
	int status, markers = 0, time_calls = 0, stops = 0, entering = 1;
	struct timespec t0, t1;
	struct arm_regs regs;
	pid_t pid;

	ktap_plan(2);
	if (!getauxval(AT_SYSINFO_EHDR)) {
		ktap_skip("clock_gettime_works", "no vDSO mapped");
		ktap_skip("no_time_syscalls", "no vDSO mapped");
		return ktap_finish();
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ktap_result(t1.tv_sec > t0.tv_sec ||
		    (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec),
		    "clock_gettime_works", "went back from %ld.%09ld to %ld.%09ld",
		    (long)t0.tv_sec, t0.tv_nsec, (long)t1.tv_sec, t1.tv_nsec);

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(child_reads());
	}
	waitpid(pid, &status, 0);
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_TRACESYSGOOD);
	for (;;) {
		ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
		if (waitpid(pid, &status, 0) < 0 || WIFEXITED(status) ||
		    WIFSIGNALED(status))
			break;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		stops++;
		/* Count each call at its entry stop only. */
		if (entering && !ptrace(PTRACE_GETREGS, pid, NULL, &regs)) {
			unsigned long nr = regs.r[7];

			if (nr == MARKER)
				markers++;
			else if (markers == 1 && (nr == NR_GETTIMEOFDAY ||
						  nr == NR_CLOCK_GETTIME ||
						  nr == NR_CLOCK_GETTIME64))
				time_calls++;
		}
		entering = !entering;
	}
	ktap_result(markers == 2 && time_calls == 0 && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0, "no_time_syscalls",
		    "%d time syscalls between %d markers (%d stops), status %#x",
		    time_calls, markers, stops, status);
	return ktap_finish();
}
