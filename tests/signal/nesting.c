// SPDX-License-Identifier: GPL-2.0-only
/*
 * Nested and queued signals: a handler interrupted by another signal,
 * a signal raised while blocked by its own handler, sa_mask, queued
 * real-time signals delivered in order with their values, and a handler
 * that edits uc_sigmask to change the mask it returns to.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "ktap.h"

static volatile int depth, max_depth, log_n;
static volatile int log_sig[16];
static volatile unsigned long outer_sp, inner_sp;
static volatile int inner_saw_outer_blocked;

static void note(int sig)
{
	if (log_n < 16)
		log_sig[log_n++] = sig;
}

static unsigned long cur_sp(void)
{
	unsigned long sp;

	asm volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

static void inner(int sig, siginfo_t *si, void *uc)
{
	sigset_t now;

	note(sig);
	inner_sp = cur_sp();
	sigprocmask(SIG_BLOCK, NULL, &now);
	inner_saw_outer_blocked = sigismember(&now, SIGUSR1);
}

static void outer(int sig, siginfo_t *si, void *uc)
{
	if (++depth > max_depth)
		max_depth = depth;
	note(sig);
	outer_sp = cur_sp();
	if (log_n == 1) {
		/* SIGUSR2 interrupts us; SIGUSR1 waits until we return */
		raise(SIGUSR2);
		raise(SIGUSR1);
		note(-1);
	}
	depth--;
}

static void reset(void)
{
	depth = max_depth = log_n = 0;
	memset((void *)log_sig, 0, sizeof(log_sig));
}

static void check_nesting(void)
{
	struct sigaction sa = { .sa_sigaction = outer,
				.sa_flags = SA_SIGINFO };
	int ok;

	reset();
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = inner;
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR1);

	/* USR1 { USR2 } marker, then the deferred USR1 */
	ok = log_n == 4 && log_sig[0] == SIGUSR1 && log_sig[1] == SIGUSR2 &&
	     log_sig[2] == -1 && log_sig[3] == SIGUSR1;
	ktap_result(ok, "nested_order", "log %d: %d %d %d %d", log_n,
		    log_sig[0], log_sig[1], log_sig[2], log_sig[3]);
	ktap_result(inner_sp < outer_sp && inner_saw_outer_blocked,
		    "nested_frame_below",
		    "inner sp %#lx outer sp %#lx, SIGUSR1 blocked in inner %d",
		    inner_sp, outer_sp, inner_saw_outer_blocked);
	ktap_result(max_depth == 1, "self_blocked_not_nested",
		    "SIGUSR1 handler depth reached %d", max_depth);
}

static volatile int masked_pending, mask_runs;

static void masked(int sig)
{
	sigset_t p;

	mask_runs++;
	if (sig == SIGUSR1) {
		raise(SIGUSR2);
		sigpending(&p);
		masked_pending = sigismember(&p, SIGUSR2);
	}
}

static void check_sa_mask(void)
{
	struct sigaction sa = { .sa_handler = masked };

	mask_runs = 0;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR1);
	ktap_result(masked_pending && mask_runs == 2, "sa_mask_defers",
		    "SIGUSR2 pending in handler %d, handler runs %d",
		    masked_pending, mask_runs);
}

static volatile int rt_n, rt_vals[8], rt_codes[8];

static void rt_handler(int sig, siginfo_t *si, void *uc)
{
	if (rt_n < 8) {
		rt_vals[rt_n] = si->si_value.sival_int;
		rt_codes[rt_n] = si->si_code;
	}
	rt_n++;
}

static void check_queued(void)
{
	struct sigaction sa = { .sa_sigaction = rt_handler,
				.sa_flags = SA_SIGINFO };
	sigset_t set, old;
	int i, ok;

	sigaction(SIGRTMIN, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (i = 1; i <= 5; i++)
		sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = i });
	ok = rt_n == 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	ok = ok && rt_n == 5;
	for (i = 0; ok && i < 5; i++)
		ok = rt_vals[i] == i + 1 && rt_codes[i] == SI_QUEUE;
	ktap_result(ok, "rt_queued_in_order",
		    "%d deliveries, values %d %d %d %d %d", rt_n, rt_vals[0],
		    rt_vals[1], rt_vals[2], rt_vals[3], rt_vals[4]);
}

static void edit_mask(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	/* uc_sigmask is the mask the task returns to */
	sigaddset(&uc->uc_sigmask, SIGUSR2);
}

static void check_mask_restore(void)
{
	struct sigaction sa = { .sa_sigaction = edit_mask,
				.sa_flags = SA_SIGINFO };
	sigset_t now, empty;

	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	sigprocmask(SIG_BLOCK, NULL, &now);
	ktap_result(sigismember(&now, SIGUSR2) && !sigismember(&now, SIGUSR1),
		    "uc_sigmask_restored", "SIGUSR2 blocked %d, SIGUSR1 blocked %d",
		    sigismember(&now, SIGUSR2), sigismember(&now, SIGUSR1));
	sigprocmask(SIG_SETMASK, &empty, NULL);
}

int main(void)
{
	ktap_plan(6);
	check_nesting();
	check_sa_mask();
	check_queued();
	check_mask_restore();
	return ktap_finish();
}
