/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers the timer, stress and kvm tests share: a clock in nanoseconds,
 * and running the calling thread on one CPU.  The including
 * file defines _GNU_SOURCE before its first #include (cpu_set_t).
 */
#ifndef TESTS_CPU_TIME_H
#define TESTS_CPU_TIME_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/* A timespec, in nanoseconds. */
static inline int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/* Clock @clk now, in nanoseconds. */
static inline int64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts_ns(&ts);
}

/* CLOCK_MONOTONIC, in nanoseconds. */
static inline int64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * Run the calling thread on @cpu alone: 0 once it runs there (the kernel
 * moves it before sched_setaffinity() returns), -1 if it cannot.
 */
static inline int pin_cpu(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	return sched_getcpu() == cpu ? 0 : -1;
}

#endif
