// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU idle states in which a CPU's timer stops (VARIANT=timer-idle: PSCI
 * idle states marked "local-timer-stop" in the device tree, and a timer
 * node without "always-on").  Before a CPU enters one, its next event goes
 * to the broadcast clock event device, and the CPU PM notifiers run around
 * the entry (the timer driver saves and restores CNTKCTL_EL1 there).  The
 * checks: a broadcast device is installed and takes CPUs over, every CPU
 * enters the state, the CPU PM notifiers run on every CPU, and timers armed
 * on each CPU still expire once, not early and not lost.  CLOCK_MONOTONIC
 * across CPUs is tests/timer/monotonic's, run in the same guest.
 *
 * Everything comes from sysfs, /proc/timer_list, the function tracer and
 * the clocks, the same on any timer driver.  Without such a state in the
 * device tree every case skips.  Waits poll their condition against a
 * deadline.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"
#include "readfile.h"

#define MAX_CPUS	16
#define DEADLINE_NS	(20 * 1000000000LL)
#define TRACEFS		"/sys/kernel/tracing"

static int ncpus;
static int state_idx = -1;		/* the cpuidle state under test */
static char state_name[256];

/* 0, or -1 with a diagnostic naming the file */
static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t left;
	ssize_t n;

	if (fd < 0) {
		ktap_diag("open %s: %s", path, strerror(errno));
		return -1;
	}
	/* set_ftrace_filter takes one function a write() */
	for (left = strlen(s); left > 0; s += n, left -= n) {
		n = write(fd, s, left);
		if (n <= 0) {
			ktap_diag("write '%s' to %s: %s", s, path,
				  n ? strerror(errno) : "nothing taken");
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

static void chomp(char *s)
{
	s[strcspn(s, "\n")] = '\0';
}

static void nap_ms(int ms)
{
	struct timespec d = { 0, ms * 1000000L };

	nanosleep(&d, NULL);
}

/*
 * The name of a device tree idle state that stops the CPU's timer (the
 * cpuidle state takes the node's name), or -1 when there is none.
 */
static int dt_timer_stop_state(char *name, size_t len)
{
	static const char *const dirs[] = {
		"/proc/device-tree/cpus/idle-states",
		"/proc/device-tree/idle-states",
	};
	char p[512];
	struct dirent *de;
	struct stat st;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		DIR *d = opendir(dirs[i]);

		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s/local-timer-stop", dirs[i],
				 de->d_name);
			if (stat(p, &st))
				continue;
			snprintf(name, len, "%s", de->d_name);
			closedir(d);
			return 0;
		}
		if (d)
			closedir(d);
	}
	return -1;
}

/* The cpuidle state index of @name on CPU 0, or -1 */
static int cpuidle_index(const char *name)
{
	char p[256], buf[64];
	int i;

	for (i = 0; i < 10; i++) {
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", i);
		if (read_file(p, buf, sizeof(buf)) < 0)
			return -1;
		chomp(buf);
		if (!strcmp(buf, name))
			return i;
	}
	return -1;
}

static long long state_usage(int cpu)
{
	char p[256], buf[64];

	snprintf(p, sizeof(p),
		 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", cpu,
		 state_idx);
	if (read_file(p, buf, sizeof(buf)) < 0)
		return -1;
	return atoll(buf);
}

static void broadcast_device(void)
{
	char dev[64] = "", *p;
	static char list[1 << 18];
	int n;

	if (read_file("/sys/devices/system/clockevents/broadcast/current_device",
		      dev, sizeof(dev)) < 0)
		strcpy(dev, "(unreadable)");
	chomp(dev);
	/* /proc/timer_list names it after "Broadcast device" */
	n = read_file("/proc/timer_list", list, sizeof(list));
	p = n > 0 ? strstr(list, "Broadcast device\nClock Event Device: ") : NULL;
	ktap_diag("broadcast device: %s", dev);
	ktap_result(*dev && strcmp(dev, "(unreadable)") &&
		    strcmp(dev, "arch_sys_timer") && p &&
		    !strncmp(p + strlen("Broadcast device\nClock Event Device: "),
			     dev, strlen(dev)),
		    "broadcast_device",
		    "broadcast device '%s', /proc/timer_list %s", dev,
		    p ? "names another" : "has none");
}

/* Some CPU is seen handed over to the broadcast device */
static void broadcast_takes_over(void)
{
	int64_t end = mono_ns() + DEADLINE_NS;
	static char list[1 << 18];
	char *m;
	unsigned long mask = 0;

	while (!mask && mono_ns() < end) {
		if (read_file("/proc/timer_list", list, sizeof(list)) > 0 &&
		    (m = strstr(list, "tick_broadcast_oneshot_mask: ")))
			mask = strtoul(m + strlen("tick_broadcast_oneshot_mask: "),
				       NULL, 16);
		if (!mask)
			nap_ms(1);
	}
	ktap_diag("tick_broadcast_oneshot_mask %lx", mask);
	ktap_result(mask != 0, "broadcast_takes_over",
		    "no CPU handed to the broadcast device in %lld s",
		    DEADLINE_NS / 1000000000LL);
}

/*
 * Each CPU enters the state, watched from another CPU.  With the hrtimer
 * broadcast device (the device tree gives no broadcast timer) the CPU
 * that holds the broadcast hrtimer is refused the timer-stop state
 * (tick_broadcast_enter(): -EBUSY), and a CPU arms that hrtimer on
 * itself when it goes idle with the earliest event of those asleep.  The
 * watcher wakes every millisecond on another CPU, so that the CPU it
 * watches is not the one left holding it.
 */
static void state_entered_every_cpu(void)
{
	long long before[MAX_CPUS], after[MAX_CPUS];
	int cpu, missed = 0, unpinned = 0;
	cpu_set_t all;

	sched_getaffinity(0, sizeof(all), &all);
	for (cpu = 0; cpu < ncpus; cpu++) {
		int64_t end = mono_ns() + DEADLINE_NS;

		if (ncpus > 1 && pin_cpu((cpu + 1) % ncpus))
			unpinned++;
		before[cpu] = after[cpu] = state_usage(cpu);
		while (before[cpu] >= 0 && after[cpu] <= before[cpu] && mono_ns() < end) {
			nap_ms(1);
			after[cpu] = state_usage(cpu);
		}
		missed += before[cpu] < 0 || after[cpu] <= before[cpu];
	}
	sched_setaffinity(0, sizeof(all), &all);
	for (cpu = 0; cpu < ncpus; cpu++)
		ktap_diag("cpu%d: %s usage %lld -> %lld", cpu, state_name,
			  before[cpu], after[cpu]);
	ktap_result(!missed && !unpinned, "state_entered_every_cpu",
		    "%d CPUs never entered %s in %lld s each; %d watches not pinned",
		    missed, state_name, DEADLINE_NS / 1000000000LL, unpinned);
}

/* Lines of CPU @cpu's trace buffer that name @func */
static int traced(int cpu, const char *func)
{
	static char buf[1 << 20];
	char p[128], want[80], *s;
	int n, count = 0;

	snprintf(p, sizeof(p), TRACEFS "/per_cpu/cpu%d/trace", cpu);
	n = read_file(p, buf, sizeof(buf));
	snprintf(want, sizeof(want), " %s <-", func);
	for (s = buf; n > 0 && (s = strstr(s, want)); s++)
		count++;
	return count;
}

/* The function tracer sees cpu_pm_enter() and cpu_pm_exit() on every CPU */
static void cpu_pm_notifiers(void)
{
	int64_t end = mono_ns() + DEADLINE_NS;
	int cpu, left = ncpus;
	struct stat st;

	if (stat(TRACEFS "/current_tracer", &st) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL) && errno != EBUSY) {
		ktap_skip("cpu_pm_notifiers", "no tracefs: %s", strerror(errno));
		return;
	}
	if (write_file(TRACEFS "/set_ftrace_filter", "cpu_pm_enter cpu_pm_exit\n") ||
	    write_file(TRACEFS "/trace", "\n") ||
	    write_file(TRACEFS "/current_tracer", "function\n")) {
		ktap_skip("cpu_pm_notifiers",
			  "the function tracer cannot trace cpu_pm_enter/exit (see above)");
		return;
	}
	while (left && mono_ns() < end) {
		nap_ms(50);
		for (left = 0, cpu = 0; cpu < ncpus; cpu++)
			left += !traced(cpu, "cpu_pm_enter") ||
				!traced(cpu, "cpu_pm_exit");
	}
	for (cpu = 0; cpu < ncpus; cpu++)
		ktap_diag("cpu%d: cpu_pm_enter %d, cpu_pm_exit %d", cpu,
			  traced(cpu, "cpu_pm_enter"), traced(cpu, "cpu_pm_exit"));
	write_file(TRACEFS "/current_tracer", "nop");
	write_file(TRACEFS "/set_ftrace_filter", "");
	write_file(TRACEFS "/trace", "");
	ktap_result(!left, "cpu_pm_notifiers",
		    "%d CPUs ran no cpu_pm_enter/exit pair in %lld s", left,
		    DEADLINE_NS / 1000000000LL);
}

/*
 * A 20 ms timerfd, five times on each CPU in turn while the others idle:
 * each expires once, never early, and within a second (a wake-up the
 * broadcast device lost would leave it waiting for some other interrupt).
 */
static void timers_on_time(void)
{
	const int64_t period = 20 * 1000000LL, slack = 1000000000LL;
	int cpu, i, bad = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

		if (fd < 0 || pin_cpu(cpu)) {
			ktap_diag("cpu%d: no timerfd or cannot run there", cpu);
			bad++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (i = 0; i < 5; i++) {
			struct itimerspec its = { .it_value = { 0, period } };
			int64_t armed, woke;
			uint64_t n = 0;

			armed = mono_ns();
			if (timerfd_settime(fd, 0, &its, NULL) ||
			    read(fd, &n, sizeof(n)) != sizeof(n)) {
				bad++;
				continue;
			}
			woke = mono_ns();
			if (n != 1 || woke - armed < period ||
			    woke - armed > period + slack) {
				ktap_diag("cpu%d: %llu expirations after %lld ns", cpu,
					  (unsigned long long)n,
					  (long long)(woke - armed));
				bad++;
			}
		}
		close(fd);
	}
	ktap_result(!bad, "timers_on_time", "%d of %d timers early, late or lost",
		    bad, ncpus * 5);
}

int main(void)
{
	ktap_plan(5);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;

	if (dt_timer_stop_state(state_name, sizeof(state_name)) ||
	    (state_idx = cpuidle_index(state_name)) < 0) {
		const char *why = state_idx < 0 && *state_name ?
			"the device tree's idle state is not a cpuidle state" :
			"no idle state with local-timer-stop in the device tree (VARIANT=timer-idle has one)";

		ktap_skip("broadcast_device", "%s", why);
		ktap_skip("broadcast_takes_over", "%s", why);
		ktap_skip("state_entered_every_cpu", "%s", why);
		ktap_skip("cpu_pm_notifiers", "%s", why);
		ktap_skip("timers_on_time", "%s", why);
		return ktap_finish();
	}
	ktap_diag("idle state %s is cpuidle state%d; %d CPUs", state_name,
		  state_idx, ncpus);

	broadcast_device();
	broadcast_takes_over();
	state_entered_every_cpu();
	cpu_pm_notifiers();
	timers_on_time();
	return ktap_finish();
}
