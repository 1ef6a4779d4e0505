/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal KTAP output for our guest tests.  A test program declares its
 * plan, reports each case with ktap_result()/ktap_skip(), and returns
 * ktap_finish() from main.  The guest runner turns each case line into a
 * top-level result named "<suite> <abi> <case>", and fails a program whose
 * plan does not match the cases it reported.
 */
#ifndef TESTS_KTAP_H
#define TESTS_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int ktap_n, ktap_failed, ktap_planned = -1;

static inline void ktap_plan(int cases)
{
	ktap_planned = cases;
	printf("KTAP version 1\n1..%d\n", cases);
	fflush(stdout);
}

static inline void ktap_vline(const char *status, const char *name,
			      const char *directive, const char *fmt, va_list ap)
{
	printf("%s %d %s", status, ++ktap_n, name);
	if (directive) {
		printf(" # %s", directive);
		if (fmt)
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
		ktap_vline("ok", name, NULL, NULL, ap);
	} else {
		ktap_failed++;
		ktap_vline("not ok", name, fmt && *fmt ? "" : NULL, fmt, ap);
	}
	va_end(ap);
	return ok;
}

/*
 * Case @name cannot run here; @fmt says why.  Never a pass: a skip without
 * a reason is a failure, so that it is fixed rather than counted.
 */
static inline void ktap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (fmt && *fmt) {
		ktap_vline("ok", name, "SKIP ", fmt, ap);
	} else {
		ktap_failed++;
		ktap_vline("not ok", name, "skipped without a reason", NULL, ap);
	}
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

/* Exit status: 1 on a failed case or a plan that the cases did not meet. */
static inline int ktap_finish(void)
{
	if (ktap_planned >= 0 && ktap_n != ktap_planned) {
		ktap_diag("planned %d cases, reported %d", ktap_planned, ktap_n);
		return 1;
	}
	return ktap_failed ? 1 : 0;
}

#endif
