// SPDX-License-Identifier: GPL-2.0-only
/*
 * Timers never fire early: nanosleep, clock_nanosleep (relative and
 * absolute), timerfd (one-shot and periodic) and POSIX timers, each timed
 * against CLOCK_MONOTONIC for several lengths.  Every wait must also end
 * (a bound of a few seconds catches an event that is lost).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define LATE_LIMIT_NS	(3LL * 1000 * 1000 * 1000)

static const long lengths_us[] = { 50, 1000, 4000, 10000, 30000 };
#define N_LENGTHS (sizeof(lengths_us) / sizeof(lengths_us[0]))
#define ROUNDS 4

struct tally {
	int early, lost, errors;
	int64_t worst_early, worst_late;
};

static int64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec to_ts(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	return ts;
}

static void account(struct tally *t, int64_t elapsed, int64_t want)
{
	if (elapsed < want) {
		t->early++;
		if (want - elapsed > t->worst_early)
			t->worst_early = want - elapsed;
	} else if (elapsed - want > LATE_LIMIT_NS) {
		t->lost++;
	}
	if (elapsed - want > t->worst_late)
		t->worst_late = elapsed - want;
}

static void report(const struct tally *t, const char *name)
{
	ktap_result(!t->early && !t->lost && !t->errors, name,
		    "%d early (worst %lld ns), %d over %lld ns late, %d errors",
		    t->early, (long long)t->worst_early, t->lost,
		    (long long)LATE_LIMIT_NS, t->errors);
	if (!t->early && !t->lost && !t->errors)
		ktap_diag("%s: worst lateness %lld us", name,
			  (long long)t->worst_late / 1000);
}

typedef int (*waiter)(int64_t want, void *ctx);

static void measure(struct tally *t, waiter wait, void *ctx)
{
	unsigned int i, r;

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < N_LENGTHS; i++) {
			int64_t want = lengths_us[i] * 1000;
			int64_t t0 = now_ns(CLOCK_MONOTONIC);

			if (wait(want, ctx)) {
				t->errors++;
				continue;
			}
			account(t, now_ns(CLOCK_MONOTONIC) - t0, want);
		}
	}
}

static int wait_nanosleep(int64_t want, void *ctx)
{
	struct timespec ts = to_ts(want);

	return nanosleep(&ts, NULL);
}

static int wait_clock_nanosleep_abs(int64_t want, void *ctx)
{
	struct timespec ts = to_ts(now_ns(CLOCK_MONOTONIC) + want);

	return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static int wait_timerfd(int64_t want, void *ctx)
{
	int fd = *(int *)ctx;
	struct itimerspec its = { .it_value = to_ts(want) };
	uint64_t expiries;

	if (timerfd_settime(fd, 0, &its, NULL))
		return -1;
	if (read(fd, &expiries, sizeof(expiries)) != sizeof(expiries))
		return -1;
	return expiries == 1 ? 0 : -1;
}

static int wait_posix_timer(int64_t want, void *ctx)
{
	timer_t id = *(timer_t *)ctx;
	struct itimerspec its = { .it_value = to_ts(want) };
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	if (timer_settime(id, 0, &its, NULL))
		return -1;
	if (sigwaitinfo(&set, &si) != SIGRTMIN)
		return -1;
	return si.si_code == SI_TIMER ? 0 : -1;
}

/* Periodic timerfd: n expiries never take less than n periods */
static void periodic_timerfd(void)
{
	const int64_t period = 2000 * 1000;
	struct itimerspec its = { .it_value = to_ts(period),
				  .it_interval = to_ts(period) };
	uint64_t total = 0, e;
	int64_t t0, elapsed;
	int fd, ok = 1;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	t0 = now_ns(CLOCK_MONOTONIC);
	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL)) {
		ktap_result(0, "timerfd_periodic", "timerfd: %s", strerror(errno));
		return;
	}
	while (total < 50 && ok) {
		ok = read(fd, &e, sizeof(e)) == sizeof(e);
		total += e;
		elapsed = now_ns(CLOCK_MONOTONIC) - t0;
		if ((int64_t)total * period > elapsed)
			ok = 0;
	}
	close(fd);
	ktap_result(ok, "timerfd_periodic",
		    "%llu expiries after %lld ns of %lld ns periods",
		    (unsigned long long)total, (long long)elapsed,
		    (long long)period);
}

int main(void)
{
	struct tally t;
	struct sigevent sev;
	sigset_t set;
	timer_t id;
	int fd;

	ktap_plan(6);

	memset(&t, 0, sizeof(t));
	measure(&t, wait_nanosleep, NULL);
	report(&t, "nanosleep_not_early");

	memset(&t, 0, sizeof(t));
	measure(&t, wait_clock_nanosleep_abs, NULL);
	report(&t, "clock_nanosleep_abs_not_early");

	memset(&t, 0, sizeof(t));
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0) {
		t.errors++;
		ktap_diag("timerfd_create: %s", strerror(errno));
	} else {
		measure(&t, wait_timerfd, &fd);
		close(fd);
	}
	report(&t, "timerfd_not_early");

	periodic_timerfd();

	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;

	memset(&t, 0, sizeof(t));
	if (timer_create(CLOCK_MONOTONIC, &sev, &id)) {
		t.errors++;
		ktap_diag("timer_create: %s", strerror(errno));
	} else {
		measure(&t, wait_posix_timer, &id);
		timer_delete(id);
	}
	report(&t, "posix_timer_not_early");

	/* A relative CLOCK_REALTIME timer, as many programs arm them */
	memset(&t, 0, sizeof(t));
	if (timer_create(CLOCK_REALTIME, &sev, &id)) {
		t.errors++;
		ktap_diag("timer_create: %s", strerror(errno));
	} else {
		measure(&t, wait_posix_timer, &id);
		timer_delete(id);
	}
	report(&t, "posix_timer_realtime_not_early");

	return ktap_finish();
}
