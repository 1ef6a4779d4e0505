// SPDX-License-Identifier: GPL-2.0-only
/*
 * A native syscall's 64-bit result is never mistaken for a restart
 * request.  lseek() to 0x1fffffe00 returns a value whose low 32 bits
 * read as -ERESTARTSYS; a signal taken on the way out of that call must
 * leave the result alone.  (Stock 6.1 looks at the low 32 bits only: the
 * call then fails with EINTR after it moved the offset, or, under
 * SA_RESTART, runs a second time.)
 *
 * The signal is made pending at the syscall-exit stop by a tracer, so it
 * is taken on the way out of exactly that call.  The tracer finds that
 * stop by the result as PTRACE_GET_SYSCALL_INFO reports it, which is the
 * kernel's own syscall_get_return_value(): the same notion of "the
 * result" the restart code must use, 64 bits for a native task.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "ktap.h"

#define START		0xfffffe00L
#define STEP		0x100000000L
#define WANT		(START + STEP)	/* low 32 bits: -512, -ERESTARTSYS */
#define ERESTARTSYS	512

_Static_assert((int)WANT == -ERESTARTSYS, "the result's low half must read as -ERESTARTSYS");

static volatile int handled;

static void on_usr1(int sig)
{
	handled++;
}

/* Child: exit status 0 when lseek gave WANT once and the handler ran. */
static void child(int sa_flags)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = sa_flags };
	char path[] = "/tmp/retvalXXXXXX";
	long r, pos;
	int fd;

	sigaction(SIGUSR1, &sa, NULL);
	fd = mkstemp(path);
	if (fd < 0)
		_exit(10);
	unlink(path);
	if (lseek(fd, START, SEEK_SET) != START)
		_exit(11);
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(12);
	raise(SIGSTOP);
	errno = 0;
	r = syscall(SYS_lseek, fd, STEP, SEEK_CUR);
	pos = lseek(fd, 0, SEEK_CUR);
	if (r == WANT && pos == WANT && handled == 1)
		_exit(0);
	fprintf(stderr, "# lseek returned %#lx (errno %d), offset now %#lx, handler ran %d times\n",
		r, errno, pos, handled);
	_exit(1);
}

/* Tracer: at the exit stop of the lseek returning WANT, queue SIGUSR1. */
static int trace(pid_t pid)
{
	struct __ptrace_syscall_info info;
	int st, queued = 0, sig = 0;
	unsigned long long nr = ~0ULL;

	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return -1;
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, sig))
			return -1;
		sig = 0;
		if (waitpid(pid, &st, 0) != pid)
			return -1;
		if (WIFEXITED(st))
			return queued ? WEXITSTATUS(st) : -2;
		if (WIFSIGNALED(st))
			return -3;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info),
				   &info) <= 0)
				return -4;
			if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
				nr = info.entry.nr;
			else if (info.op == PTRACE_SYSCALL_INFO_EXIT &&
				 !queued && nr == SYS_lseek &&
				 !info.exit.is_error &&
				 info.exit.rval == (long long)WANT) {
				kill(pid, SIGUSR1);
				queued = 1;
			}
			continue;
		}
		/* a signal-delivery stop: hand the signal on */
		sig = WSTOPSIG(st);
	}
}

static void check(const char *name, int sa_flags)
{
	pid_t pid = fork();
	int r;

	if (!pid)
		child(sa_flags);
	r = trace(pid);
	ktap_result(r == 0, name, "child result %d (0: one lseek, result intact)", r);
}

int main(void)
{
	ktap_plan(2);
	check("lseek_result_kept_no_restart", 0);
	check("lseek_result_kept_sa_restart", SA_RESTART);
	return ktap_finish();
}
