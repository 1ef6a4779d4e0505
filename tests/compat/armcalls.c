// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARM private system calls and unknown numbers: cacheflush makes code
 * freshly written to a page executable, rejects bad arguments, the
 * unimplemented part of the private range answers ENOSYS, a number past
 * it raises SIGILL, and a number past the table answers ENOSYS (so does
 * one with the top bit set: the number is taken as signed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define ARM_CACHEFLUSH	0x0f0002
#define ARM_UNUSED	0x0f0010	/* inside the private range, unused */
#define ARM_PAST_RANGE	0x0f0900	/* past the private range */

#define A32_MOV_R0(imm)	(0xe3a00000u | (imm))	/* mov r0, #imm */
#define A32_BX_LR	0xe12fff1eu		/* bx lr */

static long cacheflush(void *start, void *end, int flags)
{
	return syscall(ARM_CACHEFLUSH, start, end, flags);
}

static void test_code_page(void)
{
	uint32_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int (*fn)(void) = (int (*)(void))code;
	long r1, r2;
	int v1, v2;

	if (code == MAP_FAILED) {
		ktap_result(0, "cacheflush_new_code", "mmap: %s", strerror(errno));
		return;
	}
	code[0] = A32_MOV_R0(42);
	code[1] = A32_BX_LR;
	r1 = cacheflush(code, code + 2, 0);
	v1 = fn();
	/* Rewrite the same instruction: the stale one must not run. */
	code[0] = A32_MOV_R0(43);
	r2 = cacheflush(code, code + 1, 0);
	v2 = fn();
	ktap_result(r1 == 0 && r2 == 0 && v1 == 42 && v2 == 43,
		    "cacheflush_new_code", "flush %ld/%ld, ran %d then %d",
		    r1, r2, v1, v2);
	munmap(code, 4096);
}

/*
 * Flags are reserved and the range must not run backwards.  (A range
 * that is not mapped is not tested: QEMU's cache maintenance does not
 * fault, so the EFAULT path cannot be seen there.)
 */
static void test_bad_args(void)
{
	char buf[64];
	long flags, order;
	int e_flags, e_order;

	flags = cacheflush(buf, buf + sizeof(buf), 1);
	e_flags = errno;
	order = cacheflush(buf + sizeof(buf), buf, 0);
	e_order = errno;
	ktap_result(flags == -1 && e_flags == EINVAL && order == -1 &&
		    e_order == EINVAL, "cacheflush_bad_args",
		    "flags %ld/%d, reversed %ld/%d", flags, e_flags, order,
		    e_order);
}

static void test_unknown_numbers(void)
{
	long in_range, past_table, huge;
	int e_in_range, e_past_table, e_huge;
	pid_t pid;
	int status = -1;

	in_range = syscall(ARM_UNUSED);
	e_in_range = errno;
	past_table = syscall(1000);
	e_past_table = errno;
	huge = syscall(0xfffff000);
	e_huge = errno;
	ktap_result(in_range == -1 && e_in_range == ENOSYS &&
		    past_table == -1 && e_past_table == ENOSYS &&
		    huge == -1 && e_huge == ENOSYS, "unknown_numbers_enosys",
		    "0xf0010: %ld/%d, 1000: %ld/%d, 0xfffff000: %ld/%d",
		    in_range, e_in_range, past_table, e_past_table, huge,
		    e_huge);

	pid = fork();
	if (pid == 0) {
		syscall(ARM_PAST_RANGE);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ktap_result(WIFSIGNALED(status) && WTERMSIG(status) == SIGILL,
		    "past_private_range_sigill", "wait status %#x", status);
}

int main(void)
{
	ktap_plan(4);
	test_code_page();
	test_bad_args();
	test_unknown_numbers();
	return ktap_finish();
}
