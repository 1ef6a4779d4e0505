/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal KTAP output for our guest tests.  A test program declares its
 * plan, reports each case with ktap_result()/ktap_skip(), and returns
 * ktap_finish() from main.  The guest runner turns each case line into a
 * top-level result named "<suite> <abi> <case>".
 */
#ifndef TESTS_KTAP_H
#define TESTS_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int ktap_n, ktap_failed;

static inline void ktap_plan(int cases)
{
	printf("KTAP version 1\n1..%d\n", cases);
	fflush(stdout);
}

static inline void ktap_vline(const char *status, const char *name,
			      const char *directive, const char *fmt, va_list ap)
{
	printf("%s %d %s", status, ++ktap_n, name);
	if (fmt && *fmt) {
		printf(" # %s", directive);
		vprintf(fmt, ap);
	}
	printf("\n");
	fflush(stdout);
}

/* Report case @name: pass when @ok; on failure, @fmt says what was seen. */
static inline int ktap_result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (ok) {
		ktap_vline("ok", name, "", NULL, ap);
	} else {
		ktap_failed++;
		ktap_vline("not ok", name, "", fmt, ap);
	}
	va_end(ap);
	return ok;
}

/* Case @name cannot run here; @fmt says why (never a pass). */
static inline void ktap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("ok", name, "SKIP ", fmt, ap);
	va_end(ap);
}

/* Diagnostic line, shown in the log next to the results. */
static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

static inline int ktap_finish(void)
{
	return ktap_failed ? 1 : 0;
}

#endif
