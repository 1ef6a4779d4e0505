// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generic timer as user space sees it, on any driver: the system
 * counter is the clocksource; timekeeping counts it at the rate the
 * firmware gives (the timer node's clock-frequency, else CNTFRQ), and so
 * do the per-CPU clock event devices (/proc/timer_list); their range is
 * what the CPU allows (2^31 ticks on APM X-Gene 1, whose CVAL is a 31-bit
 * TVAL; the whole counter elsewhere); the event stream is advertised
 * exactly when it is on; clocks have 1 ns resolution.  Nothing here reads
 * the kernel log.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"
#include "readfile.h"

#ifdef __aarch64__
#define EVTSTRM_HWCAP	(1UL << 2)
#else
#define EVTSTRM_HWCAP	(1UL << 21)
#endif

static uint64_t counter_now(void)
{
	uint64_t v;

#ifdef __aarch64__
	asm volatile("isb; mrs %0, cntvct_el0" : "=r" (v) :: "memory");
#else
	asm volatile("isb; mrrc p15, 1, %Q0, %R0, c14" : "=r" (v) :: "memory");
#endif
	return v;
}

static uint32_t counter_freq(void)
{
#ifdef __aarch64__
	uint64_t v;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (v));
	return (uint32_t)v;
#else
	uint32_t v;

	asm volatile("mrc p15, 0, %0, c14, c0, 0" : "=r" (v));
	return v;
#endif
}

/*
 * clock-frequency of the CPU timer node (either compatible), if the
 * device tree the kernel booted with has one: 0 and *hz set, else -1.
 */
static int dt_clock_frequency(unsigned int *hz)
{
	static const char *const roots[] = {
		"/proc/device-tree", "/sys/firmware/devicetree/base",
	};
	char compat[256], p[1024];
	unsigned char be[8];
	struct dirent *de;
	unsigned int r;

	for (r = 0; r < 2; r++) {
		DIR *d = opendir(roots[r]);

		while (d && (de = readdir(d))) {
			int n, off, match = 0;

			snprintf(p, sizeof(p), "%s/%s/compatible", roots[r],
				 de->d_name);
			n = read_file(p, compat, sizeof(compat));
			for (off = 0; n > 0 && off < n;
			     off += strlen(compat + off) + 1)
				match |= !strcmp(compat + off, "arm,armv8-timer") ||
					 !strcmp(compat + off, "arm,armv7-timer");
			if (!match)
				continue;
			snprintf(p, sizeof(p), "%s/%s/clock-frequency", roots[r],
				 de->d_name);
			closedir(d);
			if (read_file(p, (char *)be, sizeof(be)) != 4)
				return -1;
			*hz = (unsigned int)be[0] << 24 | be[1] << 16 |
			      be[2] << 8 | be[3];
			return 0;
		}
		if (d)
			closedir(d);
	}
	return -1;
}

/*
 * The counter, and CLOCK_MONOTONIC_RAW at that moment (the middle of two
 * reads less than 200 us apart): 0, or -1 if no such pair came.
 */
static int paired_read(uint64_t *count, int64_t *ns)
{
	int i;

	for (i = 0; i < 1000; i++) {
		int64_t before = clock_ns(CLOCK_MONOTONIC_RAW), after;
		uint64_t c = counter_now();

		after = clock_ns(CLOCK_MONOTONIC_RAW);
		if (after - before < 200000) {
			*count = c;
			*ns = before + (after - before) / 2;
			return 0;
		}
	}
	return -1;
}

/* The per-CPU clock event device's fields in /proc/timer_list */
struct evt_view {
	unsigned long long max_delta_ns;
	unsigned int mult, shift;
};

static int timer_list_evt(const char *name, struct evt_view *v)
{
	static char list[1 << 18];
	char want[96], *p;

	if (read_file("/proc/timer_list", list, sizeof(list)) <= 0)
		return -1;
	snprintf(want, sizeof(want), "Per CPU device: 0\nClock Event Device: %s\n",
		 name);
	p = strstr(list, want);
	if (!p)
		return -1;
	p += strlen(want);
	return sscanf(p, " max_delta_ns: %llu min_delta_ns: %*u mult: %u shift: %u",
		      &v->max_delta_ns, &v->mult, &v->shift) == 3 ? 0 : -1;
}

/* MIDR_EL1 of CPU 0, or 0 */
static uint32_t cpu0_midr(void)
{
	char buf[32];

	if (read_file("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
		      buf, sizeof(buf)) <= 0)
		return 0;
	return (uint32_t)strtoull(buf, NULL, 16);
}

/*
 * What the command line asks of the event stream: 1 on, 0 off, -1 not
 * said (kstrtobool's spellings).
 */
static int cmdline_evtstrm(void)
{
	const char *key = "clocksource.arm_arch_timer.evtstrm=";
	char cmd[4096], *p;

	if (read_file("/proc/cmdline", cmd, sizeof(cmd)) <= 0)
		return -1;
	p = strstr(cmd, key);
	if (!p)
		return -1;
	p += strlen(key);
	if (strchr("1yYtT", *p) || !strncasecmp(p, "on", 2))
		return 1;
	if (strchr("0nNfF", *p) || !strncasecmp(p, "of", 2))
		return 0;
	return -1;
}

int main(void)
{
	unsigned int dt_hz = 0, rate;
	struct evt_view ev;
	const char *from;
	char buf[256];
	int have_ev;

	ktap_plan(6);

	if (read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      buf, sizeof(buf)) < 0)
		strcpy(buf, "(unreadable)\n");
	buf[strcspn(buf, "\n")] = '\0';
	ktap_result(!strcmp(buf, "arch_sys_counter"), "current_clocksource",
		    "current clocksource is '%s'", buf);

	/* The rate the firmware gives: the timer node's, else CNTFRQ */
	if (dt_clock_frequency(&dt_hz) == 0) {
		rate = dt_hz;
		from = "the timer node's clock-frequency";
	} else {
		rate = counter_freq();
		from = "CNTFRQ";
	}
	ktap_diag("counter rate %u Hz from %s", rate, from);

	/*
	 * Timekeeping turns counter ticks into CLOCK_MONOTONIC_RAW at the
	 * rate it was given: ticks per raw second is that rate.  Each count
	 * is paired with the clock read around it, and the pair taken again
	 * when the two clock reads are far apart (a vCPU descheduled by the
	 * host between them).
	 */
	{
		struct timespec d = { 0, 200 * 1000 * 1000 };
		int64_t t0, t1;
		uint64_t c0, c1;
		double hz = 0;

		if (!paired_read(&c0, &t0) && !nanosleep(&d, NULL) &&
		    !paired_read(&c1, &t1))
			hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		ktap_result(rate && hz > rate * 0.99 && hz < rate * 1.01,
			    "counter_rate",
			    "timekeeping counts %.0f ticks a second, %s says %u",
			    hz, from, rate);
	}

	have_ev = !timer_list_evt("arch_sys_timer", &ev);
	if (!have_ev) {
		ktap_result(0, "clockevent_rate",
			    "no arch_sys_timer for CPU 0 in /proc/timer_list");
		ktap_result(0, "clockevent_range",
			    "no arch_sys_timer for CPU 0 in /proc/timer_list");
	} else {
		/* ticks = ns * mult >> shift */
		double evt_hz = (double)ev.mult * 1e9 / (double)(1ULL << ev.shift);
		uint32_t midr = cpu0_midr();
		/* APM X-Gene 1: implementer 0x50, variant 0, part 0 */
		int xgene1 = (midr & 0xfff0fff0) == 0x50000000;
		double cap_ns = 2147483648.0 * 1e9 / rate;

		ktap_result(rate && evt_hz > rate * 0.999 && evt_hz < rate * 1.001,
			    "clockevent_rate",
			    "arch_sys_timer runs at %.0f Hz (mult %u, shift %u), %s says %u",
			    evt_hz, ev.mult, ev.shift, from, rate);
		ktap_diag("MIDR %08x; arch_sys_timer reaches %llu ns; 2^31 ticks are %.0f ns",
			  midr, ev.max_delta_ns, cap_ns);
		if (xgene1)
			ktap_result(ev.max_delta_ns <= cap_ns * 1.001, "clockevent_range",
				    "X-Gene 1 events must stay within 2^31 ticks");
		else
			ktap_result(ev.max_delta_ns > cap_ns, "clockevent_range",
				    "events capped at %llu ns, within 2^31 ticks",
				    ev.max_delta_ns);
	}

	/*
	 * The event stream is on unless the command line turns it off
	 * (Kbuild.frag has CONFIG_ARM_ARCH_TIMER_EVTSTREAM=y on both
	 * kernels) or the counter is too slow for a 100 us period.
	 */
	{
		int want = cmdline_evtstrm();
		int cap = !!(getauxval(AT_HWCAP) & EVTSTRM_HWCAP);

		if (want < 0)
			want = rate >= 20000;
		ktap_result(cap == want, "evtstrm_hwcap",
			    "event stream wanted %s but HWCAP_EVTSTRM %s",
			    want ? "on" : "off", cap ? "set" : "clear");
	}

	{
		static const clockid_t ids[] = {
			CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME,
			CLOCK_MONOTONIC_RAW,
		};
		struct timespec res;
		unsigned int i, bad = 0;

		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			if (clock_getres(ids[i], &res) || res.tv_sec ||
			    res.tv_nsec != 1) {
				ktap_diag("clock %d: resolution %ld.%09ld s",
					  (int)ids[i], (long)res.tv_sec,
					  res.tv_nsec);
				bad++;
			}
		}
		ktap_result(!bad, "getres_1ns", "%u clocks not at 1 ns", bad);
	}

	return ktap_finish();
}
