// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptrace of a 32-bit (AArch32) tracee.  One source, two tracers:
 *  - built for aarch64, a 64-bit tracer: the regsets of the AArch32 view
 *    (NT_PRSTATUS, NT_ARM_VFP, NT_ARM_TLS, NT_ARM_SYSTEM_CALL),
 *    PTRACE_GET_SYSCALL_INFO at entry and exit (a 32-bit error is a
 *    negative 64-bit rval) and PTRACE_SYSEMU;
 *  - built for armhf, a 32-bit tracer with the ARM requests (GETREGS,
 *    GETVFPREGS, SET_SYSCALL, GET_THREAD_AREA).
 * The tracee is always the armhf build of this file, run as "tracee": it
 * makes three marked getppid calls that the tracer stops at, reads and
 * changes, and exits with a bit for each change it saw take effect.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define TRACEE		"/tests/compat-ptrace/armhf/ptrace"
#define ARM_NR_GETPPID	64
#define ARM_NR_GETPID	20
#define ARM_NR_NONE	1023	/* past the table: the call fails with ENOSYS */
#define AUDIT_ARCH_ARM	0x40000028u
#define CPSR_MODE	0x1f
#define CPSR_USR	0x10
#define CPSR_T		(1u << 5)

#define TAG_REGS	0xa0	/* marker 1: registers, syscall number */
#define TAG_VFP		0xb0	/* marker 2: VFP registers */
#define TAG_EMU		0xc0	/* marker 3: the call is emulated */
#define EMU_RESULT	0x1234
#define NEW_D5		0x5555aaaa5555aaaaULL

/* What the tracee found, as bits of its exit status. */
#define SAW_NR_CHANGE	1	/* marker 1 ran getpid instead */
#define SAW_VFP_WRITE	2	/* d5 replaced, the rest intact */
#define SAW_EMULATION	4	/* marker 3 returned EMU_RESULT */

/* ARM's struct pt_regs, as both views give it: r0-r15, cpsr, orig_r0. */
struct arm_regs {
	uint32_t r[16];
	uint32_t cpsr;
	uint32_t orig_r0;
};

/* ARM's VFP state: d0-d31, then FPSCR. */
struct arm_vfp {
	uint64_t d[32];
	uint32_t fpscr;
} __attribute__((packed));

static uint64_t vfp_pattern(int n)
{
	return 0x0101010101010101ULL * (n + 1) ^ 0x8000000000000000ULL;
}

#ifdef __arm__
/* -------- the tracee -------- */

#define FP_FN	__attribute__((target("fpu=neon"), noinline))

/* getppid with r0-r5 = tag .. tag + 5 and r6 = the TLS register. */
static long marker(long tag)
{
	register long r0 asm("r0") = tag;
	register long r1 asm("r1") = tag + 1;
	register long r2 asm("r2") = tag + 2;
	register long r3 asm("r3") = tag + 3;
	register long r4 asm("r4") = tag + 4;
	register long r5 asm("r5") = tag + 5;
	register long r6 asm("r6");

	asm volatile("mrc	p15, 0, %[tls], c13, c0, 3\n\t"
		     "push	{r7}\n\t"
		     "mov	r7, %[nr]\n\t"
		     "svc	#0\n\t"
		     "pop	{r7}\n\t"
		     : "+r"(r0), [tls] "=&r"(r6)
		     : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5),
		       [nr] "i"(ARM_NR_GETPPID)
		     : "memory");
	return r0;
}

/* Marker 2 with d0-d31 loaded from @in, stored to @out afterwards. */
static FP_FN void vfp_marker(const uint64_t *in, uint64_t *out)
{
	register long r0 asm("r0") = TAG_VFP;

	asm volatile("vldmia	%[in], {d0-d15}\n\t"
		     "add	r1, %[in], #128\n\t"
		     "vldmia	r1, {d16-d31}\n\t"
		     "push	{r7}\n\t"
		     "mov	r7, %[nr]\n\t"
		     "svc	#0\n\t"
		     "pop	{r7}\n\t"
		     "vstmia	%[out], {d0-d15}\n\t"
		     "add	r1, %[out], #128\n\t"
		     "vstmia	r1, {d16-d31}\n\t"
		     : "+r"(r0)
		     : [in] "r"(in), [out] "r"(out), [nr] "i"(ARM_NR_GETPPID)
		     : "r1", "memory",
		       "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		       "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
		       "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23",
		       "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");
}

static int tracee(void)
{
	uint64_t in[32], out[32];
	int saw = 0, n, vfp_ok = 1;

	if (marker(TAG_REGS) == getpid())
		saw |= SAW_NR_CHANGE;

	for (n = 0; n < 32; n++)
		in[n] = vfp_pattern(n);
	vfp_marker(in, out);
	for (n = 0; n < 32; n++)
		vfp_ok &= out[n] == (n == 5 ? NEW_D5 : in[n]);
	if (vfp_ok)
		saw |= SAW_VFP_WRITE;

	if (marker(TAG_EMU) == EMU_RESULT)
		saw |= SAW_EMULATION;
	return saw;
}
#endif

/* -------- the tracer, 64- or 32-bit -------- */

#ifdef __aarch64__
#define TRACER		"64-bit"
#define EMULATION	"PTRACE_SYSEMU"

static int get_regs(pid_t pid, struct arm_regs *regs, size_t *len)
{
	struct iovec iov = { regs, sizeof(*regs) };
	int ret = ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov);

	*len = iov.iov_len;
	return ret;
}

static int set_regs(pid_t pid, struct arm_regs *regs)
{
	struct iovec iov = { regs, sizeof(*regs) };

	return ptrace(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
}

static int get_vfp(pid_t pid, struct arm_vfp *vfp)
{
	struct iovec iov = { vfp, sizeof(*vfp) };

	return ptrace(PTRACE_GETREGSET, pid, NT_ARM_VFP, &iov);
}

static int set_vfp(pid_t pid, struct arm_vfp *vfp)
{
	struct iovec iov = { vfp, sizeof(*vfp) };

	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_VFP, &iov);
}

static long get_tls(pid_t pid)
{
	uint32_t tls = 0;
	struct iovec iov = { &tls, sizeof(tls) };

	return ptrace(PTRACE_GETREGSET, pid, NT_ARM_TLS, &iov) ? -1 : tls;
}

static long get_nr(pid_t pid)
{
	int32_t nr = -1;
	struct iovec iov = { &nr, sizeof(nr) };

	return ptrace(PTRACE_GETREGSET, pid, NT_ARM_SYSTEM_CALL, &iov) ? -1 : nr;
}

static int set_nr(pid_t pid, int32_t nr)
{
	struct iovec iov = { &nr, sizeof(nr) };

	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_SYSTEM_CALL, &iov);
}
#else
#define TRACER		"32-bit"
#define EMULATION	"skipped call (number -1)"
#define ARM_GETVFPREGS		27
#define ARM_SETVFPREGS		28
#define ARM_GET_THREAD_AREA	22
#define ARM_SET_SYSCALL		23

static int get_regs(pid_t pid, struct arm_regs *regs, size_t *len)
{
	*len = sizeof(*regs);
	return ptrace(PTRACE_GETREGS, pid, 0, regs);
}

static int set_regs(pid_t pid, struct arm_regs *regs)
{
	return ptrace(PTRACE_SETREGS, pid, 0, regs);
}

static int get_vfp(pid_t pid, struct arm_vfp *vfp)
{
	return ptrace(ARM_GETVFPREGS, pid, 0, vfp);
}

static int set_vfp(pid_t pid, struct arm_vfp *vfp)
{
	return ptrace(ARM_SETVFPREGS, pid, 0, vfp);
}

static long get_tls(pid_t pid)
{
	uint32_t tls = 0;

	return ptrace(ARM_GET_THREAD_AREA, pid, 0, &tls) ? -1 : tls;
}

/* ARM has no request that reads the number: r7 holds it (EABI). */
static long get_nr(pid_t pid)
{
	struct arm_regs regs;
	size_t len;

	return get_regs(pid, &regs, &len) ? -1 : regs.r[7];
}

static int set_nr(pid_t pid, int32_t nr)
{
	return ptrace(ARM_SET_SYSCALL, pid, 0, nr);
}
#endif

/*
 * Resume @pid with @request until a syscall stop whose r7 and r0 are
 * the marker's, entry (r12 == 0) or exit (r12 == 1) as @exit says.
 */
static int run_to(pid_t pid, int request, uint32_t tag, int exit,
		  struct arm_regs *regs)
{
	int status;
	size_t len;

	for (;;) {
		if (ptrace(request, pid, 0, 0) || waitpid(pid, &status, 0) != pid)
			return -1;
		if (!WIFSTOPPED(status))
			return -1;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		if (get_regs(pid, regs, &len))
			return -1;
		if (regs->r[12] != (uint32_t)exit)
			continue;
		if (!exit && regs->r[7] == ARM_NR_GETPPID && regs->r[0] == tag)
			return 0;
		if (exit && regs->r[7] == ARM_NR_GETPPID)
			return 0;
	}
}

static const char *const cases[] = {
	"entry_stop_registers", "syscall_number_read", "tls_register",
	"syscall_info", "syscall_number_changed", "syscall_info_exit",
	"vfp_registers_read", "vfp_register_written", "error_return_exit",
	"syscall_emulated", "tracee_exit",
};

static void skip_all(const char *why)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ktap_skip(cases[i], "%s", why);
}

#ifdef __aarch64__
static void check_syscall_info(pid_t pid)
{
	struct __ptrace_syscall_info info;
	long n = ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info);
	int i, args_ok = 1;

	for (i = 0; i < 6; i++)
		args_ok &= info.entry.args[i] == TAG_REGS + (uint64_t)i;
	ktap_result(n > 0 && info.op == PTRACE_SYSCALL_INFO_ENTRY &&
		    info.arch == AUDIT_ARCH_ARM &&
		    info.entry.nr == ARM_NR_GETPPID && args_ok, "syscall_info",
		    "size %ld op %d arch %#x nr %llu args %s", n, info.op,
		    info.arch, (unsigned long long)info.entry.nr,
		    args_ok ? "right" : "wrong");
}

/*
 * At an exit stop: the result as a 64-bit tracer sees it.  A compat
 * task's r0 holds 32 bits; an error must still read as a negative rval
 * with is_error set (strace prints "-1 ENOENT" from these).
 */
static int exit_info_ok(pid_t pid, long long rval, int is_error)
{
	struct __ptrace_syscall_info info;
	long n = ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info);

	if (n > 0 && info.op == PTRACE_SYSCALL_INFO_EXIT &&
	    info.arch == AUDIT_ARCH_ARM && info.exit.rval == rval &&
	    info.exit.is_error == is_error)
		return 1;
	ktap_diag("exit info: size %ld op %d arch %#x rval %lld is_error %d, "
		  "wanted rval %lld is_error %d", n, info.op, info.arch,
		  (long long)info.exit.rval, info.exit.is_error, rval, is_error);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	const char *path = TRACEE;
	struct arm_regs regs, entry;
	struct arm_vfp vfp;
	int status, i, vfp_ok, emulated;
	size_t len;
	long tls, nr;
	pid_t pid;

#ifdef __arm__
	if (argc > 1 && !strcmp(argv[1], "tracee"))
		return tracee();
	path = "/proc/self/exe";
#endif
	ktap_plan(sizeof(cases) / sizeof(cases[0]));
	if (access(path, X_OK)) {
		skip_all("no armhf tracee " TRACEE);
		return ktap_finish();
	}

	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl(path, path, "tracee", (char *)NULL);
		_exit(127);
	}
	/* The exec stop, then syscall stops marked by SIGTRAP | 0x80. */
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, 0,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) {
		skip_all("tracee did not stop at exec");
		return ktap_finish();
	}

	/* Marker 1: the registers at the entry stop, then a new number. */
	if (run_to(pid, PTRACE_SYSCALL, TAG_REGS, 0, &entry)) {
		kill(pid, SIGKILL);
		skip_all("tracee never reached marker 1");
		return ktap_finish();
	}
	get_regs(pid, &entry, &len);
	ktap_result(len == sizeof(entry) && entry.r[1] == TAG_REGS + 1 &&
		    entry.r[5] == TAG_REGS + 5 && entry.orig_r0 == TAG_REGS &&
		    (entry.cpsr & CPSR_MODE) == CPSR_USR && entry.r[12] == 0,
		    "entry_stop_registers",
		    "%zu bytes, r0 %#x r1 %#x r5 %#x orig_r0 %#x cpsr %#x ip %u",
		    len, entry.r[0], entry.r[1], entry.r[5], entry.orig_r0,
		    entry.cpsr, entry.r[12]);
	nr = get_nr(pid);
	ktap_result(nr == ARM_NR_GETPPID, "syscall_number_read",
		    "number %ld, wanted %d", nr, ARM_NR_GETPPID);
	tls = get_tls(pid);
	ktap_result(tls == entry.r[6] && tls != -1, "tls_register",
		    "TLS %#lx, tracee read %#x", tls, entry.r[6]);
#ifdef __aarch64__
	check_syscall_info(pid);
#else
	ktap_skip("syscall_info", "a 32-bit tracer: see the 64-bit run");
#endif
	set_nr(pid, ARM_NR_GETPID);
	run_to(pid, PTRACE_SYSCALL, 0, 1, &regs);
	ktap_result(regs.r[0] == (uint32_t)pid, "syscall_number_changed",
		    "returned %u, tracee is %d", regs.r[0], pid);
#ifdef __aarch64__
	ktap_result(exit_info_ok(pid, pid, 0), "syscall_info_exit", "");
#else
	ktap_skip("syscall_info_exit", "a 32-bit tracer: see the 64-bit run");
#endif

	/* Marker 2: read d0-d31, replace d5. */
	run_to(pid, PTRACE_SYSCALL, TAG_VFP, 0, &regs);
	memset(&vfp, 0, sizeof(vfp));
	vfp_ok = !get_vfp(pid, &vfp);
	for (i = 0; i < 32; i++)
		vfp_ok &= vfp.d[i] == vfp_pattern(i);
	ktap_result(vfp_ok, "vfp_registers_read", "d0 %#llx d31 %#llx",
		    (unsigned long long)vfp.d[0], (unsigned long long)vfp.d[31]);
	vfp.d[5] = NEW_D5;
	ktap_result(!set_vfp(pid, &vfp), "vfp_register_written",
		    "set: %s", strerror(errno));

	/* The same stop: a number past the table fails with ENOSYS. */
	i = !set_nr(pid, ARM_NR_NONE) && !run_to(pid, PTRACE_SYSCALL, 0, 1, &regs) &&
	    regs.r[0] == (uint32_t)-ENOSYS;
#ifdef __aarch64__
	i = exit_info_ok(pid, -ENOSYS, 1) && i;
#endif
	ktap_result(i, "error_return_exit", "number %d: r0 %#x at the exit stop",
		    ARM_NR_NONE, regs.r[0]);

	/*
	 * Marker 3: the call does not run; the tracer supplies r0, which
	 * the tracee reports back through its exit status.
	 */
#ifdef __aarch64__
	emulated = !run_to(pid, PTRACE_SYSEMU, TAG_EMU, 0, &regs);
#else
	/* ARM skips a call whose number is set to -1. */
	emulated = !run_to(pid, PTRACE_SYSCALL, TAG_EMU, 0, &regs) &&
		   !set_nr(pid, -1);
#endif
	regs.r[0] = EMU_RESULT;
	emulated = emulated && !set_regs(pid, &regs);

	ptrace(PTRACE_CONT, pid, 0, 0);
	while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status))
		ptrace(PTRACE_CONT, pid, 0, 0);
	ktap_result(emulated && WIFEXITED(status) &&
		    (WEXITSTATUS(status) & SAW_EMULATION), "syscall_emulated",
		    "%s stop and r0 set: %s, tracee saw r0 %s", EMULATION,
		    emulated ? "yes" : "no",
		    WIFEXITED(status) && (WEXITSTATUS(status) & SAW_EMULATION) ?
		    "set" : "not set");
	ktap_result(WIFEXITED(status) &&
		    WEXITSTATUS(status) == (SAW_NR_CHANGE | SAW_VFP_WRITE | SAW_EMULATION),
		    "tracee_exit", "%s tracer: status %#x (number change %d, "
		    "d5 %d, emulation %d)", TRACER, status,
		    !!(WEXITSTATUS(status) & SAW_NR_CHANGE),
		    !!(WEXITSTATUS(status) & SAW_VFP_WRITE),
		    !!(WEXITSTATUS(status) & SAW_EMULATION));
	return ktap_finish();
}
