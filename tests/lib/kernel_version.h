/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The running kernel's version, for a test whose expectation is the
 * stock kernel's of the same line (6.1 and 6.12 differ in a few rules).
 */
#ifndef TESTS_KERNEL_VERSION_H
#define TESTS_KERNEL_VERSION_H

#include <stdio.h>
#include <sys/utsname.h>

/* The running kernel is at least major.minor (0 when uname fails). */
static inline int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

#endif /* TESTS_KERNEL_VERSION_H */
