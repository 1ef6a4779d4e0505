// SPDX-License-Identifier: GPL-2.0-only
/*
 * System call restart for a 32-bit task, ARM or Thumb: a read blocked
 * on a pipe and interrupted by an SA_RESTART handler carries on and gets
 * its data; without SA_RESTART it fails with EINTR; a nanosleep stopped
 * and continued with no handler resumes through restart_syscall and
 * still sleeps its whole time.  The parent only acts once
 * /proc/PID/syscall shows the child blocked in the call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

/* Spin until the child sits in syscall @nr (an ARM number) or is gone. */
static int wait_in_syscall(pid_t pid, long nr)
{
	char path[64], buf[128];
	siginfo_t si;
	long cur;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) ||
		    si.si_pid == pid)
			return 0;
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return 0;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			if (sscanf(buf, "%ld", &cur) == 1 && cur == nr)
				return 1;
		}
		sched_yield();
	}
}

static int notify[2];

static void note_signal(int sig)
{
	char c = 's';

	if (write(notify[1], &c, 1) != 1)
		_exit(3);
}

/* Child: read one byte from @fd; exit 0 on data, 1 on EINTR, 2 else. */
static void reader(int fd, int flags)
{
	struct sigaction sa = { .sa_handler = note_signal, .sa_flags = flags };
	char c;
	ssize_t n;

	sigaction(SIGUSR1, &sa, NULL);
	n = read(fd, &c, 1);
	if (n == 1 && c == 'd')
		_exit(0);
	_exit(n < 0 && errno == EINTR ? 1 : 2);
}

static int interrupted_read(int flags)
{
	int data[2], status = -1;
	char c = 'd';
	pid_t pid;

	if (pipe(data) || pipe(notify))
		return -1;
	pid = fork();
	if (pid == 0)
		reader(data[0], flags);
	if (!wait_in_syscall(pid, SYS_read)) {
		kill(pid, SIGKILL);
	} else {
		kill(pid, SIGUSR1);
		/* The handler has run once this byte arrives. */
		if (read(notify[0], &c, 1) == 1) {
			c = 'd';
			if (write(data[1], &c, 1) != 1)
				kill(pid, SIGKILL);
		}
	}
	waitpid(pid, &status, 0);
	close(data[0]);
	close(data[1]);
	close(notify[0]);
	close(notify[1]);
	return status;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_nanosleep_restart(void)
{
	int status = -1, stopped = 0, sleeping;
	pid_t pid = fork();

	if (pid == 0) {
		/* The 32-bit time_t nanosleep itself, not a libc substitute. */
		struct { long sec, nsec; } req = { 0, 500000000 };
		double t0 = now();
		long ret = syscall(SYS_nanosleep, &req, NULL);

		_exit(ret == 0 && now() - t0 >= 0.5 ? 0 : 1);
	}
	sleeping = wait_in_syscall(pid, SYS_nanosleep);
	if (sleeping) {
		kill(pid, SIGSTOP);
		waitpid(pid, &status, WUNTRACED);
		stopped = WIFSTOPPED(status);
		kill(pid, SIGCONT);
	}
	waitpid(pid, &status, 0);
	ktap_result(sleeping && stopped && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0, "nanosleep_restart_syscall",
		    "seen sleeping %d, stopped %d, status %#x", sleeping,
		    stopped, status);
}

int main(void)
{
	int status;

	ktap_plan(3);
	status = interrupted_read(SA_RESTART);
	ktap_result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "read_restarted_after_handler", "child status %#x", status);
	status = interrupted_read(0);
	ktap_result(WIFEXITED(status) && WEXITSTATUS(status) == 1,
		    "read_eintr_without_restart", "child status %#x", status);
	test_nanosleep_restart();
	return ktap_finish();
}
