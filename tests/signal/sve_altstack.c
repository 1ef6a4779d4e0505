// SPDX-License-Identifier: GPL-2.0-only
/*
 * An alternate signal stack of MINSIGSTKSZ (5120 bytes, the least
 * sigaltstack() accepts) is too small for a frame with live SVE
 * registers at 1024-bit vectors and more: the SVE record alone takes
 * 4384 bytes at 1024 bits, the whole frame some 5.6 KiB.  Ours refuses
 * to write such a frame below the stack and kills the task with
 * SIGSEGV; stock 6.1 writes the bytes that do not fit below ss_sp,
 * over whatever the task keeps there, and runs the handler (a
 * departure, docs/departures.md).  A stack of AT_MINSIGSTKSZ bytes holds
 * the largest frame on both.
 *
 * The signal is a SIGTRAP from BRK right after an SVE instruction, so
 * it is delivered with the SVE registers live (a syscall would discard
 * them).  Each case runs in a child; below the alternate stack lies a
 * guard area it must not touch.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ktap.h"
#include "sve_regs.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ	51
#endif
#define KERNEL_MINSIGSTKSZ	5120
#define GUARD		65536
#define GUARD_BYTE	0x6b
#define HANDLER_RAN	3

/* sve_then_brk(): an SVE instruction, then a breakpoint */
void sve_then_brk(void);
asm(".text\n"
    ".arch_extension sve\n"
    ".globl sve_then_brk\n"
    ".type sve_then_brk, %function\n"
    "sve_then_brk:\n"
    "	ptrue	p1.b\n"
    "	brk	#0x5a\n"
    "	ret\n"
    ".size sve_then_brk, . - sve_then_brk\n");

static void on_trap(int sig)
{
	_exit(HANDLER_RAN);
}

/*
 * A child with an alternate stack of @size bytes above the guard and SVE
 * live at @vl takes a SIGTRAP on it: its wait status, and how many guard
 * bytes changed.
 */
static int run(unsigned int vl, size_t size, size_t *dirty)
{
	char *region = mmap(NULL, GUARD + size, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	size_t i;
	pid_t pid;
	int st = -1;

	*dirty = 0;
	if (region == MAP_FAILED)
		return -1;
	memset(region, GUARD_BYTE, GUARD);
	pid = fork();
	if (!pid) {
		stack_t ss = { .ss_sp = region + GUARD, .ss_size = size };
		struct sigaction sa = { .sa_handler = on_trap,
					.sa_flags = SA_ONSTACK };

		if (!sve_set_vl(vl) || sigaltstack(&ss, NULL) ||
		    sigaction(SIGTRAP, &sa, NULL))
			_exit(10);
		sve_then_brk();
		_exit(11);
	}
	waitpid(pid, &st, 0);
	for (i = 0; i < GUARD; i++)
		*dirty += region[i] != GUARD_BYTE;
	munmap(region, GUARD + size);
	return st;
}

/* The largest vector length this CPU offers, in bytes. */
static unsigned int max_vl(void)
{
	unsigned int vl = SVE_VL_ARCH_MAX, got = 0;
	int r = prctl(PR_SVE_SET_VL, vl);

	if (r >= 0)
		got = r & PR_SVE_VL_LEN_MASK;
	return got;
}

int main(void)
{
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	unsigned int vl;
	size_t dirty;
	int st;

	ktap_plan(3);
	if (!sve_present()) {
		ktap_skip("sve_vl1024_minsigstksz_sigsegv", "no SVE");
		ktap_skip("sve_vl1024_minsigstksz_no_write_below", "no SVE");
		ktap_skip("sve_vlmax_at_minsigstksz_fits", "no SVE");
		return ktap_finish();
	}

	if (!sve_set_vl(1024 / 8)) {
		ktap_skip("sve_vl1024_minsigstksz_sigsegv",
			  "no 1024-bit vector length: the frame fits MINSIGSTKSZ below it");
		ktap_skip("sve_vl1024_minsigstksz_no_write_below",
			  "no 1024-bit vector length");
	} else {
		st = run(1024 / 8, KERNEL_MINSIGSTKSZ, &dirty);
		ktap_result(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
			    "sve_vl1024_minsigstksz_sigsegv",
			    "child status %#x (%s)", st,
			    WIFEXITED(st) && WEXITSTATUS(st) == HANDLER_RAN ?
			    "the handler ran: the frame did not fit the stack" :
			    "want death by SIGSEGV");
		ktap_result(!dirty, "sve_vl1024_minsigstksz_no_write_below",
			    "%zu bytes below the %d-byte alternate stack changed",
			    dirty, KERNEL_MINSIGSTKSZ);
	}

	vl = max_vl();
	st = run(vl, minsig, &dirty);
	ktap_result(minsig && WIFEXITED(st) && WEXITSTATUS(st) == HANDLER_RAN &&
		    !dirty, "sve_vlmax_at_minsigstksz_fits",
		    "vector length %u bits, AT_MINSIGSTKSZ %lu: child status %#x, %zu bytes below the stack changed",
		    vl * 8, minsig, st, dirty);
	return ktap_finish();
}
