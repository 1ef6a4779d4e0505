// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock_gettime() and gettimeofday() stay in user space: the vDSO answers
 * them from the counter without entering the kernel.  A child reads the
 * clocks many times while its parent traces it with PTRACE_SYSCALL and
 * counts its system calls; a control child that makes the system call
 * proves the count works.  Both the vDSO entry points, looked up in the
 * vDSO's own symbol table, and the C library's functions are checked, in
 * whichever ABI this test was built for (the 32-bit vDSO for armhf).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define CALLS	2000
/*
 * The control's calls: each is two ptrace stops, round trips through the
 * tracer (2000 took 48 s on 6.12's debug kernel under TCG), and a
 * hundred prove that calls are counted as well as 2000 would.
 */
#define CONTROL_CALLS	100

#ifdef __aarch64__
#define SYM_GETTIME	"__kernel_clock_gettime"
#define SYM_GETTIMEOFDAY "__kernel_gettimeofday"
#else
#define SYM_GETTIME	"__vdso_clock_gettime"
#define SYM_GETTIMEOFDAY "__vdso_gettimeofday"
#endif

typedef int (*gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);

static gettime_fn vdso_gettime;
static gettimeofday_fn vdso_gettimeofday;

/* Find @name among the vDSO's dynamic symbols */
static void *vdso_lookup(const char *name)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Sym) *sym = NULL;
	const ElfW(Word) *hash = NULL;
	const char *str = NULL;
	uintptr_t base = 0;
	size_t i, nsym;
	int have_base = 0;

	if (!eh)
		return NULL;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_base) {
			base = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
			have_base = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
		}
	}
	if (!dyn || !have_base)
		return NULL;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const void *)(base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const void *)(base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const void *)(base + dyn->d_un.d_ptr);
	}
	if (!sym || !str)
		return NULL;
	/* nchain of the SysV hash, else the symbols end where strings begin */
	nsym = hash ? hash[1] : (size_t)((const ElfW(Sym) *)str - sym);
	for (i = 0; i < nsym; i++) {
		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC ||
		    sym[i].st_shndx == SHN_UNDEF)
			continue;
		if (!strcmp(str + sym[i].st_name, name))
			return (void *)(base + sym[i].st_value);
	}
	return NULL;
}

enum work { VIA_SYSCALL, VIA_VDSO, VIA_LIBC, VIA_GETTIMEOFDAY };

static void child_work(enum work what)
{
	static const clockid_t ids[] = {
		CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME,
		CLOCK_MONOTONIC_RAW,
	};
	struct timespec ts;
	struct timeval tv;
	int i, calls = what == VIA_SYSCALL ? CONTROL_CALLS : CALLS;

	for (i = 0; i < calls; i++) {
		clockid_t id = ids[i % 4];

		switch (what) {
		case VIA_SYSCALL:
			syscall(SYS_clock_gettime, id, &ts);
			break;
		case VIA_VDSO:
			vdso_gettime(id, &ts);
			break;
		case VIA_LIBC:
			clock_gettime(id, &ts);
			break;
		case VIA_GETTIMEOFDAY:
			gettimeofday(&tv, NULL);
			if (vdso_gettimeofday)
				vdso_gettimeofday(&tv, NULL);
			break;
		}
	}
}

/* System calls a child makes while doing @what (its final exit included) */
static long count_syscalls(enum work what)
{
	long stops = 0;
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		child_work(what);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return -1;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_TRACESYSGOOD);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL))
			return -1;
		if (waitpid(pid, &st, 0) != pid)
			return -1;
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		if (WIFSTOPPED(st) && WSTOPSIG(st) == (SIGTRAP | 0x80))
			stops++;
	}
	/* an entry and an exit stop per call; exit_group has no exit stop */
	return (stops + 1) / 2;
}

int main(void)
{
	struct timespec a, b, c;
	long n;

	ktap_plan(5);

	vdso_gettime = (gettime_fn)vdso_lookup(SYM_GETTIME);
	vdso_gettimeofday = (gettimeofday_fn)vdso_lookup(SYM_GETTIMEOFDAY);
	ktap_result(vdso_gettime && vdso_gettimeofday, "vdso_symbols",
		    "vDSO at %#lx, %s %s, %s %s",
		    getauxval(AT_SYSINFO_EHDR), SYM_GETTIME,
		    vdso_gettime ? "found" : "missing", SYM_GETTIMEOFDAY,
		    vdso_gettimeofday ? "found" : "missing");

	n = count_syscalls(VIA_SYSCALL);
	ktap_result(n >= CONTROL_CALLS, "syscalls_are_counted",
		    "%ld system calls counted for %d clock_gettime calls", n,
		    CONTROL_CALLS);

	if (!vdso_gettime) {
		ktap_skip("vdso_clock_gettime_no_syscall", "no vDSO symbol");
	} else {
		n = count_syscalls(VIA_VDSO);
		ktap_result(n >= 0 && n <= 2, "vdso_clock_gettime_no_syscall",
			    "%ld system calls for %d vDSO clock_gettime calls",
			    n, CALLS);
	}

	n = count_syscalls(VIA_LIBC);
	ktap_result(n >= 0 && n <= 2, "libc_clock_gettime_no_syscall",
		    "%ld system calls for %d clock_gettime calls", n, CALLS);

	n = count_syscalls(VIA_GETTIMEOFDAY);
	ktap_result(n >= 0 && n <= 2, "gettimeofday_no_syscall",
		    "%ld system calls for %d gettimeofday calls", n, CALLS);

	/* and the vDSO's answer lies between two of the kernel's */
	if (vdso_gettime) {
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
		vdso_gettime(CLOCK_MONOTONIC, &b);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &c);
		ktap_diag("syscall %ld.%09ld vdso %ld.%09ld syscall %ld.%09ld",
			  (long)a.tv_sec, a.tv_nsec, (long)b.tv_sec, b.tv_nsec,
			  (long)c.tv_sec, c.tv_nsec);
	}
	return ktap_finish();
}
