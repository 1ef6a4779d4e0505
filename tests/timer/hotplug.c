// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU 1 goes offline and online 20 times while a thread pinned on it
 * waits on a periodic timerfd.  In every round the timer must keep firing
 * while CPU 1 is away (its timers move to another CPU), and once CPU 1 is
 * back the thread, pinned there again, must be woken on CPU 1 by CPU 1's
 * own timer, which the driver set up again on the way up.  Waits are
 * bounded: a stall fails the test instead of hanging it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"

#define ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define ROUNDS		20
#define PERIOD_NS	(2 * 1000 * 1000)
#define WAIT_S		10
#define WAKES		3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct {
	int repin;		/* main asks the worker to pin itself on CPU 1 */
	int stop;
	long wakes;		/* timerfd reads so far */
	long wakes_on_cpu1;	/* of which on CPU 1 after a re-pin */
	long early;		/* fewer ns passed than expiries * period */
	int error;
} st;

static void *worker(void *arg)
{
	struct itimerspec its = {
		.it_value = { 0, PERIOD_NS }, .it_interval = { 0, PERIOD_NS },
	};
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	int64_t t0 = mono_ns();
	uint64_t expiries = 0, e;
	int pinned = 0;

	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL)) {
		pthread_mutex_lock(&lock);
		st.error = errno;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	for (;;) {
		int ok = read(fd, &e, sizeof(e)) == sizeof(e);
		int cpu = sched_getcpu();

		expiries += ok ? e : 0;
		pthread_mutex_lock(&lock);
		if (!ok)
			st.error = errno;
		if ((int64_t)expiries * PERIOD_NS > mono_ns() - t0)
			st.early++;
		st.wakes++;
		if (pinned && cpu == 1)
			st.wakes_on_cpu1++;
		if (st.repin) {
			st.repin = 0;
			pinned = !pin_cpu(1);
		}
		pthread_cond_broadcast(&changed);
		if (st.stop || !ok) {
			pthread_mutex_unlock(&lock);
			break;
		}
		pthread_mutex_unlock(&lock);
	}
	close(fd);
	return NULL;
}

static int set_online(int on)
{
	int fd = open(ONLINE, O_WRONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* Wait, bounded, until *counter has grown by @more; 0 when it did */
static int await(long *counter, long more)
{
	struct timespec limit;
	long target;
	int err = 0;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += WAIT_S;
	pthread_mutex_lock(&lock);
	target = *counter + more;
	while (*counter < target && !st.error && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&changed, &lock, &limit);
	err = *counter < target;
	pthread_mutex_unlock(&lock);
	return err;
}

/* Interrupts taken by "arch_timer" on CPU 1 so far, or -1 */
static long cpu1_timer_irqs(void)
{
	char line[512];
	long n = -1, c0, c1;
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "arch_timer") &&
		    sscanf(strchr(line, ':') + 1, "%ld %ld", &c0, &c1) == 2)
			n = c1;
	fclose(f);
	return n;
}

int main(void)
{
	int round, offline_ok = 0, online_ok = 0, toggles = 0;
	long irq0, irq1;
	pthread_t thr;

	ktap_plan(5);

	if (access(ONLINE, W_OK) || sysconf(_SC_NPROCESSORS_CONF) < 2) {
		const char *why = "no " ONLINE " (one CPU or no CPU hotplug)";

		ktap_skip("toggle_cpu1", "%s", why);
		ktap_skip("events_while_cpu1_offline", "%s", why);
		ktap_skip("events_on_cpu1_after_online", "%s", why);
		ktap_skip("cpu1_timer_interrupts", "%s", why);
		ktap_skip("timerfd_never_early", "%s", why);
		return ktap_finish();
	}
	set_online(1);
	irq0 = cpu1_timer_irqs();

	st.repin = 1;
	if (pthread_create(&thr, NULL, worker, NULL)) {
		ktap_diag("pthread_create failed");
		return 1;
	}

	for (round = 0; round < ROUNDS && !st.error; round++) {
		if (await(&st.wakes_on_cpu1, WAKES))
			break;
		if (set_online(0))
			break;
		if (!await(&st.wakes, WAKES))
			offline_ok++;
		if (set_online(1))
			break;
		toggles++;
		pthread_mutex_lock(&lock);
		st.repin = 1;
		pthread_mutex_unlock(&lock);
		if (!await(&st.wakes_on_cpu1, WAKES))
			online_ok++;
	}
	pthread_mutex_lock(&lock);
	st.stop = 1;
	pthread_mutex_unlock(&lock);
	pthread_join(thr, NULL);
	set_online(1);
	irq1 = cpu1_timer_irqs();

	ktap_result(toggles == ROUNDS && !st.error, "toggle_cpu1",
		    "%d of %d offline/online rounds (error: %s)", toggles,
		    ROUNDS, strerror(st.error));
	ktap_result(offline_ok == ROUNDS, "events_while_cpu1_offline",
		    "timer fired in %d of %d rounds with CPU 1 offline",
		    offline_ok, ROUNDS);
	ktap_result(online_ok == ROUNDS, "events_on_cpu1_after_online",
		    "woken on CPU 1 in %d of %d rounds after it came back",
		    online_ok, ROUNDS);
	ktap_result(irq0 >= 0 && irq1 > irq0, "cpu1_timer_interrupts",
		    "arch_timer interrupts on CPU 1: %ld before, %ld after",
		    irq0, irq1);
	ktap_result(!st.early, "timerfd_never_early",
		    "%ld wakes with more expiries than time allowed", st.early);
	return ktap_finish();
}
