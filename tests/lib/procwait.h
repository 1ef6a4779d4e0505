/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Waiting for another task to be blocked in a given syscall, read from
 * /proc/<pid>/task/<tid>/syscall: the synchronisation the restart tests
 * need before they signal a sleeper (no sleeps).
 */
#ifndef TESTS_PROCWAIT_H
#define TESTS_PROCWAIT_H

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* 0 once task @tid of @pid sits in syscall @nr; -1 after 10 s or on error. */
static inline int wait_in_syscall(pid_t pid, pid_t tid, long nr)
{
	struct timespec t0, t;
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		int fd = open(path, O_RDONLY);
		ssize_t n;

		if (fd < 0)
			return -1;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			if (strtol(buf, NULL, 10) == nr)
				return 0;
		}
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 10);
	return -1;
}

#endif
