/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the sigreturn fuzzer's two halves (frame64.h for AArch64 tasks,
 * frame32.h for AArch32 ones) tell the driver in sigreturn.c about each
 * case, through memory shared with the child that ran it.
 */
#ifndef TESTS_STRESS_FUZZ_H
#define TESTS_STRESS_FUZZ_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What the frame, as mutated, must lead to. */
enum fuzz_expect {
	EXPECT_ACCEPT,	/* the ABI says the frame is good: resume from it */
	EXPECT_EITHER,	/* kernels may differ: resume from it, or SIGSEGV */
	EXPECT_REJECT,	/* the frame is bad: SIGSEGV */
};

/* How far the child got. */
enum fuzz_stage {
	STAGE_SETUP,		/* preparing the interrupted state */
	STAGE_DELIVERED,	/* the handler has the frame */
	STAGE_MUTATED,		/* the frame is edited; sigreturn is next */
	STAGE_RESUMED,		/* the code the frame asked for ran */
};

/* Child exit statuses. */
#define FUZZ_OK		0	/* resumed with the state the frame asked for */
#define FUZZ_BAD_STATE	1	/* resumed, but not with that state */
#define FUZZ_SETUP	3	/* could not set the case up */

struct fuzz_report {
	volatile int stage;
	int expect;
	int sve;		/* SVE state or an SVE record took part */
	int delivery_bad;	/* the frame did not hold the interrupted state */
	int delivery_sve;	/* ... only in its SVE part */
	int state_sve;		/* a bad resumed state was only in SVE registers */
	char what[512];		/* the mutations, in words */
	char expect_why[192];	/* why the frame is not simply good */
	char delivery[256];	/* first thing the delivered frame got wrong */
	char state[384];	/* first thing the resumed state got wrong */
};

static void fuzz_note(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append to a report string, keeping it terminated. */
static void fuzz_note(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

#define NOTE(field, ...) fuzz_note(field, sizeof(field), __VA_ARGS__)

#endif
