/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small file (sysfs, procfs, debugfs) read whole into a buffer.
 */
#ifndef TESTS_READFILE_H
#define TESTS_READFILE_H

#include <stdio.h>

/* The bytes read (at most @len - 1, NUL-terminated), or -1. */
static inline int read_file(const char *path, char *buf, size_t len)
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

#endif
