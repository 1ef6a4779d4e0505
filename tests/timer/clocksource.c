// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generic timer driver as seen from user space: it is the clocksource,
 * its one boot line tells the truth (rate, where the rate came from, which
 * counter and timer), the counter really runs at that rate, the event
 * stream is advertised as the line says, and clocks have 1 ns resolution.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"

#ifdef __aarch64__
#define EVTSTRM_HWCAP	(1UL << 2)
#else
#define EVTSTRM_HWCAP	(1UL << 21)
#endif

struct boot_line {
	unsigned int rate;
	char from[16], counter[16], timer[16], evtstrm[8];
};

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

static char *kernel_log(void)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (int)n;
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

static int parse_boot_line(const char *log, struct boot_line *bl)
{
	const char *p = log;
	int found = 0;

	/* the last one wins, should the log hold several boots' worth */
	while ((p = strstr(p, "arm_generic: "))) {
		if (sscanf(p, "arm_generic: %u Hz (rate from %15[a-z]), %15s counter, %15s timer, event stream %7s",
			   &bl->rate, bl->from, bl->counter, bl->timer,
			   bl->evtstrm) == 5)
			found = 1;
		p++;
	}
	return found;
}

int main(void)
{
	struct boot_line bl = { 0 };
	unsigned int dt_hz = 0;
	char buf[256];
	char *log;
	int have_line, el2_vhe;

	ktap_plan(7);

	if (read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      buf, sizeof(buf)) < 0)
		strcpy(buf, "(unreadable)\n");
	buf[strcspn(buf, "\n")] = '\0';
	ktap_result(!strcmp(buf, "arch_sys_counter"), "current_clocksource",
		    "current clocksource is '%s'", buf);

	log = kernel_log();
	have_line = log && parse_boot_line(log, &bl);
	ktap_result(have_line && bl.rate, "boot_line",
		    log ? "no 'arm_generic: <rate> Hz (rate from ...)' line in the kernel log"
			: "cannot read the kernel log: %s", strerror(errno));
	if (have_line)
		ktap_diag("rate %u Hz from %s, %s counter, %s timer, event stream %s",
			  bl.rate, bl.from, bl.counter, bl.timer, bl.evtstrm);

	if (!have_line) {
		ktap_skip("rate_source", "no boot line to check");
	} else if (dt_clock_frequency(&dt_hz) == 0) {
		ktap_result(!strcmp(bl.from, "dt") && bl.rate == dt_hz,
			    "rate_source",
			    "DT clock-frequency %u, line says %u from %s",
			    dt_hz, bl.rate, bl.from);
	} else {
		ktap_result(!strcmp(bl.from, "cntfrq") &&
			    bl.rate == counter_freq(), "rate_source",
			    "no DT clock-frequency, CNTFRQ %u, line says %u from %s",
			    counter_freq(), bl.rate, bl.from);
	}

	/*
	 * Entered at EL2, with VHE or without (KVM's nVHE host keeps the EL1
	 * physical timer, its guests get the virtual one): physical; a
	 * kernel entered at EL1: virtual.
	 */
	el2_vhe = log && strstr(log, "started at EL2");
	if (!have_line) {
		ktap_skip("timer_view", "no boot line to check");
	} else {
		const char *want = el2_vhe ? "physical" : "virtual";

		ktap_diag("kernel %s entered at EL2", el2_vhe ? "was" : "was not");
		ktap_result(!strcmp(bl.counter, want) && !strcmp(bl.timer, want),
			    "timer_view", "want %s counter and timer, line says %s/%s",
			    want, bl.counter, bl.timer);
	}

	if (!have_line) {
		ktap_skip("evtstrm_hwcap", "no boot line to check");
	} else {
		int on = !strcmp(bl.evtstrm, "on");
		int cap = !!(getauxval(AT_HWCAP) & EVTSTRM_HWCAP);

		ktap_result(on == cap, "evtstrm_hwcap",
			    "event stream %s but HWCAP_EVTSTRM %s",
			    bl.evtstrm, cap ? "set" : "clear");
	}

	/* The counter must tick at the rate the driver gave timekeeping */
	if (!have_line) {
		ktap_skip("counter_rate", "no boot line to check");
	} else {
		struct timespec d = { 0, 200 * 1000 * 1000 };
		int64_t t0 = mono_ns(), t1;
		uint64_t c0 = counter_now(), c1;
		double hz;

		nanosleep(&d, NULL);
		c1 = counter_now();
		t1 = mono_ns();
		hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		ktap_result(hz > bl.rate * 0.99 && hz < bl.rate * 1.01,
			    "counter_rate", "counter runs at %.0f Hz, driver says %u",
			    hz, bl.rate);
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

	free(log);
	return ktap_finish();
}
