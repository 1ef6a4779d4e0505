// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault signals as an SA_SIGINFO handler sees them: si_signo, si_code,
 * si_addr, sigcontext.fault_address and the ESR record, which must be
 * there (with a data-abort syndrome) for memory faults and absent for an
 * undefined instruction or a BRK in a task that never faulted.  Each
 * fault happens in its own child, reporting through shared memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <asm/sigcontext.h>

#include "ktap.h"

#define ESR_EC(esr)	(((esr) >> 26) & 0x3f)
#define EC_DABT_LOW	0x24
#define ESR_WNR		(1UL << 6)

void udf_here(void);
void brk_here(void);

asm(".text\n"
	".globl udf_here\n.type udf_here, %function\n"
	"udf_here:\n	udf	#0\n	ret\n"
	".globl brk_here\n.type brk_here, %function\n"
	"brk_here:\n	brk	#0x123\n	ret\n");

struct report {
	int done;
	int signo, code;
	unsigned long addr, fault_address;
	int has_esr, nesr;
	unsigned long esr;
};

static struct report *rep;

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned char *p = uc->uc_mcontext.__reserved;
	size_t off = 0, limit = sizeof(uc->uc_mcontext.__reserved);

	rep->signo = si->si_signo;
	rep->code = si->si_code;
	rep->addr = (unsigned long)si->si_addr;
	rep->fault_address = uc->uc_mcontext.fault_address;
	while (off + 16 <= limit) {
		struct _aarch64_ctx *h = (void *)(p + off);

		if (h->magic == EXTRA_MAGIC) {
			/* the list goes on in the extra space */
			p = (unsigned char *)((struct extra_context *)h)->datap;
			off = 0;
			limit = ((struct extra_context *)h)->size;
			continue;
		}
		if (!h->magic || h->size < 8)
			break;
		if (h->magic == ESR_MAGIC) {
			rep->has_esr = 1;
			rep->nesr++;
			rep->esr = ((struct esr_context *)h)->esr;
		}
		off += h->size;
	}
	rep->done = 1;
	_exit(0);
}

/* Run @fault in a child with handler() on @sig; 0 when it reported. */
static int in_child(int sig, void (*fault)(void *), void *arg)
{
	pid_t pid;
	int st;

	memset(rep, 0, sizeof(*rep));
	pid = fork();
	if (!pid) {
		struct sigaction sa = { .sa_sigaction = handler,
					.sa_flags = SA_SIGINFO };

		sigaction(sig, &sa, NULL);
		fault(arg);
		_exit(9);
	}
	waitpid(pid, &st, 0);
	if (!rep->done)
		ktap_diag("child status %#x without a report", st);
	return rep->done ? 0 : -1;
}

static void write_to(void *p)
{
	*(volatile int *)p = 1;
}

static void read_from(void *p)
{
	(void)*(volatile int *)p;
}

static void run_udf(void *p)
{
	udf_here();
}

static void run_brk(void *p)
{
	brk_here();
}

static void check_memfault(const char *name, int sig, int code,
			   void (*fault)(void *), void *addr, int write)
{
	int ok = !in_child(sig, fault, addr);

	ok = ok && rep->signo == sig && rep->code == code &&
	     rep->addr == (unsigned long)addr &&
	     rep->fault_address == (unsigned long)addr && rep->nesr == 1 &&
	     ESR_EC(rep->esr) == EC_DABT_LOW &&
	     !!(rep->esr & ESR_WNR) == write;
	ktap_result(ok, name,
		    "signo %d code %d addr %#lx (want %p) fault_address %#lx, %d ESR records, esr %#lx",
		    rep->signo, rep->code, rep->addr, addr,
		    rep->fault_address, rep->nesr, rep->esr);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char path[] = "/tmp/sigbusXXXXXX";
	char *hole, *ro, *beyond;
	int fd, ok;

	ktap_plan(5);
	rep = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* a hole nothing else is mapped into before the fault */
	hole = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED || ro == MAP_FAILED || hole == MAP_FAILED) {
		printf("Bail out! mmap failed\n");
		return 1;
	}

	munmap(hole, pg);
	check_memfault("sigsegv_maperr", SIGSEGV, SEGV_MAPERR, write_to,
		       hole + 8, 1);
	check_memfault("sigsegv_accerr", SIGSEGV, SEGV_ACCERR, write_to,
		       ro + 16, 1);

	fd = mkstemp(path);
	beyond = fd < 0 ? MAP_FAILED :
		 mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (beyond == MAP_FAILED) {
		ktap_skip("sigbus_adrerr", "no empty file mapping: %s",
			  strerror(errno));
	} else {
		/* the file is empty: the page lies wholly beyond its end */
		check_memfault("sigbus_adrerr", SIGBUS, BUS_ADRERR, read_from,
			       beyond + 24, 0);
	}
	if (fd >= 0)
		unlink(path);

	ok = !in_child(SIGILL, run_udf, NULL) && rep->signo == SIGILL &&
	     rep->code == ILL_ILLOPC &&
	     rep->addr == (unsigned long)udf_here && !rep->has_esr;
	ktap_result(ok, "sigill_illopc",
		    "signo %d code %d addr %#lx (want %p), ESR %d (%#lx)",
		    rep->signo, rep->code, rep->addr, udf_here, rep->has_esr,
		    rep->esr);

	ok = !in_child(SIGTRAP, run_brk, NULL) && rep->signo == SIGTRAP &&
	     rep->code == TRAP_BRKPT &&
	     rep->addr == (unsigned long)brk_here && !rep->has_esr;
	ktap_result(ok, "sigtrap_brkpt",
		    "signo %d code %d addr %#lx (want %p), ESR %d (%#lx)",
		    rep->signo, rep->code, rep->addr, brk_here, rep->has_esr,
		    rep->esr);
	return ktap_finish();
}
