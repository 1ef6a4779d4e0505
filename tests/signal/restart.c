// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall restart around signal delivery.  The signal is only sent once
 * /proc/<tid>/syscall shows the target blocked in the call under test,
 * so no case depends on timing.
 *
 *   read() on an empty pipe (-ERESTARTSYS): SA_RESTART restarts it,
 *   without SA_RESTART it fails with EINTR, with no handler at all
 *   (stop/continue) it restarts.
 *   sigsuspend() (-ERESTARTNOHAND): EINTR even with SA_RESTART.
 *   nanosleep() (-ERESTART_RESTARTBLOCK): EINTR and the time left with a
 *   handler; after stop/continue it goes on in restart_syscall.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ktap.h"
#include "procwait.h"

#define NR_read			63
#define NR_clock_nanosleep	115
#define NR_restart_syscall	128
#define NR_rt_sigsuspend	133

static int pipefd[2];
static volatile int handled;

static void put_byte(int sig)
{
	handled++;
	/* what the restarted read will return */
	if (write(pipefd[1], "x", 1) != 1)
		handled = -100;
}

static void count_only(int sig)
{
	handled++;
}

struct kicker {
	pid_t tid;
	long nr;
	int sig;
	int found;
};

static void *kick(void *arg)
{
	struct kicker *k = arg;

	k->found = !wait_in_syscall(getpid(), k->tid, k->nr);
	syscall(SYS_tgkill, getpid(), k->tid, k->sig);
	return NULL;
}

static pthread_t start_kicker(struct kicker *k, long nr, int sig)
{
	pthread_t t;

	k->tid = gettid();
	k->nr = nr;
	k->sig = sig;
	k->found = 0;
	pthread_create(&t, NULL, kick, k);
	return t;
}

static void check_read(int flags, const char *name)
{
	struct sigaction sa = { .sa_handler = put_byte, .sa_flags = flags };
	struct kicker k;
	pthread_t t;
	char c = 0;
	ssize_t r;
	int err;

	if (pipe(pipefd)) {
		ktap_skip(name, "pipe: %s", strerror(errno));
		return;
	}
	handled = 0;
	sigaction(SIGUSR1, &sa, NULL);
	t = start_kicker(&k, NR_read, SIGUSR1);
	r = read(pipefd[0], &c, 1);
	err = errno;
	pthread_join(t, NULL);
	if (flags & SA_RESTART)
		ktap_result(k.found && handled == 1 && r == 1 && c == 'x', name,
			    "blocked %d, handled %d, read %zd '%c' (%s)",
			    k.found, handled, r, c ? c : '?',
			    r < 0 ? strerror(err) : "-");
	else
		ktap_result(k.found && handled == 1 && r == -1 &&
			    err == EINTR, name,
			    "blocked %d, handled %d, read %zd (%s)", k.found,
			    handled, r, r < 0 ? strerror(err) : "-");
	close(pipefd[0]);
	close(pipefd[1]);
}

static void check_sigsuspend(void)
{
	struct sigaction sa = { .sa_handler = count_only,
				.sa_flags = SA_RESTART };
	sigset_t block, empty;
	struct kicker k;
	pthread_t t;
	int r, err;

	handled = 0;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&empty);
	t = start_kicker(&k, NR_rt_sigsuspend, SIGUSR1);
	r = sigsuspend(&empty);
	err = errno;
	pthread_join(t, NULL);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	ktap_result(k.found && handled == 1 && r == -1 && err == EINTR,
		    "sigsuspend_eintr_despite_sa_restart",
		    "blocked %d, handled %d, sigsuspend %d (%s)", k.found,
		    handled, r, strerror(err));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void check_nanosleep_handler(void)
{
	struct sigaction sa = { .sa_handler = count_only,
				.sa_flags = SA_RESTART };
	struct timespec req = { .tv_sec = 5 }, rem = { 0 };
	struct kicker k;
	pthread_t t;
	int r, err;

	handled = 0;
	sigaction(SIGUSR1, &sa, NULL);
	t = start_kicker(&k, NR_clock_nanosleep, SIGUSR1);
	r = nanosleep(&req, &rem);
	err = errno;
	pthread_join(t, NULL);
	ktap_result(k.found && handled == 1 && r == -1 && err == EINTR &&
		    rem.tv_sec <= 5 && (rem.tv_sec || rem.tv_nsec),
		    "nanosleep_eintr_with_handler",
		    "blocked %d, handled %d, nanosleep %d (%s), left %ld.%09ld",
		    k.found, handled, r, strerror(err), (long)rem.tv_sec,
		    rem.tv_nsec);
}

/*
 * Stop and continue a child blocked in @nr: no handler runs, so the call
 * must go on.  The child reports through its exit status; the parent
 * sees which syscall the child is in after SIGCONT.
 */
static void check_stop_cont_nanosleep(void)
{
	const double nap = 0.4;
	int st, in_restart = 0;
	pid_t pid = fork();

	if (!pid) {
		struct timespec req = { 0, 400000000 };
		double t0 = now();
		int r = nanosleep(&req, NULL);

		_exit(r ? 1 : now() - t0 < nap ? 2 : 0);
	}
	if (!wait_in_syscall(pid, pid, NR_clock_nanosleep)) {
		kill(pid, SIGSTOP);
		waitpid(pid, &st, WUNTRACED);
		kill(pid, SIGCONT);
		in_restart = !wait_in_syscall(pid, pid, NR_restart_syscall);
	}
	waitpid(pid, &st, 0);
	ktap_result(in_restart && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "nanosleep_restart_syscall",
		    "seen in restart_syscall %d, child status %#x", in_restart,
		    st);
}

static void check_stop_cont_read(void)
{
	int p[2], st, found = 0;
	pid_t pid;

	if (pipe(p)) {
		ktap_skip("read_restarts_after_stop", "pipe failed");
		return;
	}
	pid = fork();
	if (!pid) {
		char c = 0;
		ssize_t r = read(p[0], &c, 1);

		_exit(r == 1 && c == 'y' ? 0 : 1);
	}
	if (!wait_in_syscall(pid, pid, NR_read)) {
		kill(pid, SIGSTOP);
		waitpid(pid, &st, WUNTRACED);
		kill(pid, SIGCONT);
		found = !wait_in_syscall(pid, pid, NR_read);
	}
	if (write(p[1], "y", 1) != 1)
		found = 0;
	waitpid(pid, &st, 0);
	ktap_result(found && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "read_restarts_after_stop",
		    "back in read %d, child status %#x", found, st);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	ktap_plan(6);
	check_read(SA_RESTART, "read_sa_restart_restarts");
	check_read(0, "read_eintr_without_sa_restart");
	check_sigsuspend();
	check_nanosleep_handler();
	check_stop_cont_nanosleep();
	check_stop_cont_read();
	return ktap_finish();
}
