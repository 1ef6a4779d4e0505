// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/sys/debug/exception-trace: with 1, each unhandled user fault and
 * each rejected signal frame logs exactly one line naming the task, its
 * pid, pc and fault address; with 0, nothing.  Junk written to the sysctl
 * is refused with EINVAL and the value stays.  The line names the file
 * mapped at pc ("in exception-trace[START+SIZE]", as stock's register dump
 * does), and a task name holding a newline cannot make up a log line of
 * its own.  Built for aarch64 and armhf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "ktap.h"

#define SYSCTL "/proc/sys/debug/exception-trace"

static int read_sysctl(void)
{
	char buf[32] = "";
	int fd = open(SYSCTL, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

static int write_sysctl(const char *val)
{
	int fd = open(SYSCTL, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* The faulting instructions, at addresses the parent knows too. */
#ifdef __aarch64__
asm(".text\n.globl xt_udf\n.type xt_udf, %function\nxt_udf: .inst 0x00000000\n ret\n"
    ".globl xt_badframe\n.type xt_badframe, %function\n"
    "xt_badframe:\n mov sp, x0\n mov x8, #139\n svc #0\n");
#else
/* ARM state; %function so that Thumb callers switch with BLX */
asm(".text\n.arm\n.globl xt_udf\n.type xt_udf, %function\n"
    "xt_udf: .inst 0xe7f000f0\n bx lr\n"
    ".globl xt_badframe\n.type xt_badframe, %function\n"
    "xt_badframe:\n mov sp, r0\n mov r7, #173\n svc #0\n");
#endif
void xt_udf(void);
void xt_badframe(void *sp);

enum fault { SEGV, ILL, BUS, BADFRAME, NR_FAULTS };
static const char *const fault_name[NR_FAULTS] = { "segv", "ill", "bus", "badframe" };
static const int fault_sig[NR_FAULTS] = { SIGSEGV, SIGILL, SIGBUS, SIGSEGV };

static volatile uintptr_t bad_address = 0x10;
static char exe_name[64];

static void __attribute__((noreturn)) do_fault(enum fault f)
{
	static uint64_t junk[512] __attribute__((aligned(16)));
	char path[] = "/tmp/xt-bus-XXXXXX";
	volatile char *p;
	int fd;

	switch (f) {
	case SEGV:
		*(volatile int *)bad_address = 1;
		break;
	case ILL:
		xt_udf();
		break;
	case BUS:
		/* the second page lies beyond the end of the file */
		fd = mkstemp(path);
		if (fd < 0 || ftruncate(fd, 4096))
			_exit(100);
		unlink(path);
		p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			_exit(101);
		p[4096] = 1;
		break;
	case BADFRAME:
		memset(junk, 0x5a, sizeof(junk));
		xt_badframe(junk);
		break;
	default:
		break;
	}
	_exit(102);
}

/* Run one fault in a child named @comm; return its pid, or -1. */
static pid_t fault_child(enum fault f, const char *comm, int *sig)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, comm);
		signal(fault_sig[f], SIG_DFL);
		do_fault(f);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	*sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	return pid;
}

static char *klog(void)
{
	int len = klogctl(10, NULL, 0);
	char *buf;

	if (len <= 0)
		return NULL;
	buf = calloc(1, len + 1);
	if (buf && klogctl(3, buf, len) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Lines of the kernel log that name "comm[pid]:"; the last one in *line. */
static int log_lines_for(const char *comm, pid_t pid, char *line, size_t size)
{
	char tag[48], *log = klog(), *s, *save;
	int n = 0;

	if (!log)
		return -1;
	snprintf(tag, sizeof(tag), "%s[%d]:", comm, (int)pid);
	for (s = strtok_r(log, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
		if (strstr(s, tag)) {
			n++;
			snprintf(line, size, "%s", s);
		}
	}
	free(log);
	return n;
}

/*
 * " in NAME[START+SIZE]" names this program's file and, when @pc is known,
 * a range that holds it.
 */
static int mapping_ok(const char *line, uintptr_t pc)
{
	char want[80];
	const char *p;
	unsigned long long start, size;

	snprintf(want, sizeof(want), " in %s[", exe_name);
	p = strstr(line, want);
	if (!p || sscanf(p + strlen(want), "%llx+%llx]", &start, &size) != 2)
		return 0;
	return !pc || (pc >= start && pc - start < size);
}

/* How many times the kernel has logged that it suppressed lines. */
static int suppressed_reports(void)
{
	char *log = klog(), *s;
	int n = 0;

	for (s = log; s && (s = strstr(s, " callbacks suppressed")); s++)
		n++;
	free(log);
	return n;
}

/*
 * The lines are ratelimited, as stock's are: 10 in 5 s
 * (DEFAULT_RATELIMIT_BURST, DEFAULT_RATELIMIT_INTERVAL), and a suite run
 * just before this one may have spent them.  So a fault that logged no
 * line with exception-trace at 1 is made again once that interval is
 * over, and counts only if the kernel then says it suppressed lines
 * (which it logs on the first line it lets through after the interval).
 * Returns the child's pid (-1: no child) and the count of its lines, the
 * last of them in @line, as the tag "@logged_comm[pid]:" finds them.
 */
static pid_t fault_logged(enum fault f, const char *comm, const char *logged_comm,
			  int trace, int *sig, int *n, char *line, size_t size)
{
	int before;
	pid_t pid = fault_child(f, comm, sig);

	*n = pid < 0 ? 0 : log_lines_for(logged_comm, pid, line, size);
	if (*n < 0)
		snprintf(line, size, "cannot read the kernel log");
	if (!trace || pid < 0 || *n != 0)
		return pid;
	ktap_diag("%s: no line; the ratelimit may have been spent before: again in 6 s", comm);
	sleep(6);
	before = suppressed_reports();
	pid = fault_child(f, comm, sig);
	*n = pid < 0 ? 0 : log_lines_for(logged_comm, pid, line, size);
	if (*n < 0)
		snprintf(line, size, "cannot read the kernel log");
	else if (*n == 1 && suppressed_reports() <= before) {
		snprintf(line, size, "a line only on the second try, and no report of lines suppressed");
		*n = -1;
	}
	return pid;
}

/*
 * A task named "xt-\nforged" that faults: its line shows the newline
 * escaped, and no log line starts with the text after it.
 */
static void check_comm_escaped(void)
{
	char line[512] = "", *log, *s, *save;
	int sig = 0, escaped, forged = 0;
	pid_t pid = fault_logged(SEGV, "xt-\nforged", "xt-\\nforged", 1, &sig, &escaped,
				 line, sizeof(line));

	if (pid < 0 || sig != SIGSEGV) {
		ktap_result(0, "comm_escaped", "child did not die of SIGSEGV");
		return;
	}
	log = klog();
	if (!log) {
		ktap_result(0, "comm_escaped", "cannot read the kernel log");
		return;
	}
	for (s = strtok_r(log, "\n", &save); s; s = strtok_r(NULL, "\n", &save)) {
		const char *text = strstr(s, "] ") ? strstr(s, "] ") + 2 : s;

		forged += !strncmp(text, "forged[", 7);
	}
	free(log);
	ktap_result(escaped == 1 && !forged, "comm_escaped",
		    "%d lines for xt-\\nforged[%d] (%s), %d lines starting 'forged['",
		    escaped, (int)pid, line, forged);
}

static void check_fault(enum fault f, int trace)
{
	char name[64], comm[16], line[512] = "", want[64];
	int sig = 0, n;
	pid_t pid;

	snprintf(name, sizeof(name), "%s_trace%d", fault_name[f], trace);
	snprintf(comm, sizeof(comm), "xt-%s", fault_name[f]);
	pid = fault_logged(f, comm, comm, trace, &sig, &n, line, sizeof(line));
	if (pid < 0 || sig != fault_sig[f]) {
		ktap_result(0, name, "child ended by signal %d, want %d", sig, fault_sig[f]);
		return;
	}
	if (n < 0) {
		ktap_result(0, name, "%s", line);
		return;
	}
	if (!trace) {
		ktap_result(n == 0, name, "%d log lines with exception-trace 0: %s", n, line);
		return;
	}
	if (n != 1) {
		ktap_result(0, name, "%d log lines for %s[%d], want 1", n, comm, (int)pid);
		return;
	}
	if (!strstr(line, " pc 0x") || !strstr(line, "fault address 0x")) {
		ktap_result(0, name, "line lacks pc or fault address: %s", line);
		return;
	}
	if (!mapping_ok(line, f == ILL ? (uintptr_t)xt_udf : 0)) {
		ktap_result(0, name, "no mapping ' in %s[START+SIZE]' holding pc in: %s",
			    exe_name, line);
		return;
	}
	/* where we know them: the fault address and the pc */
	want[0] = '\0';
	if (f == SEGV)
		snprintf(want, sizeof(want), "fault address 0x%016llx", 0x10ULL);
	else if (f == ILL)
		snprintf(want, sizeof(want), "pc 0x%016llx", (unsigned long long)(uintptr_t)xt_udf);
	ktap_result(!want[0] || strstr(line, want), name, "no '%s' in: %s", want, line);
}

int main(void)
{
	int old = read_sysctl(), f, err;
	char exe[256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(exe_name, sizeof(exe_name), "%.63s", strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe);
	ktap_plan(3 + 2 * NR_FAULTS);
	if (old < 0) {
		for (f = 0; f < 3 + 2 * NR_FAULTS; f++)
			ktap_skip("exception_trace", "no " SYSCTL " on this kernel");
		return ktap_finish();
	}
	ktap_diag("exception-trace is %d at start", old);
	ktap_result(old == 1, "boot_default_is_1", "exception-trace is %d at boot", old);

	if (write_sysctl("1")) {
		ktap_result(0, "junk_is_einval", "cannot write " SYSCTL);
	} else {
		err = write_sysctl("junk\n");
		ktap_result(err == -EINVAL && read_sysctl() == 1, "junk_is_einval",
			    "write gave %d (want %d), value now %d", err, -EINVAL, read_sysctl());
	}

	for (f = 0; f < NR_FAULTS; f++)
		check_fault(f, 1);
	check_comm_escaped();
	write_sysctl("0");
	for (f = 0; f < NR_FAULTS; f++)
		check_fault(f, 0);
	write_sysctl(old ? "1" : "0");
	return ktap_finish();
}
