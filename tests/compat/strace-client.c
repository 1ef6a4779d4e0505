// SPDX-License-Identifier: GPL-2.0-only
/*
 * Real 32-bit clients of ptrace: Debian's strace, its armhf build
 * (/opt/armhf/strace, itself a compat task) and its arm64 build
 * (/bin/strace, a 64-bit tracer of a compat task), each traces this
 * program run as "workload".  strace decodes by its own syscall table
 * and its own idea of the ARM EABI (register pairs, the signal frames,
 * the private calls), so a misnumbered entry in our table, a 64-bit
 * argument in the wrong register order, a signal frame strace cannot
 * read or a wrong error return shows as a line that differs.  Each case
 * looks for the lines it expects, in order, in strace's output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define ARM_NR_CACHEFLUSH	0x0f0002
#define MISSING		"/nonexistent/strace-client"
#define TEXT		"compat strace\n"
#define BIG_SIZE	0x123456789ULL	/* ftruncate64: both halves non-zero */
#define HIGH_OFF	0x123456780ULL	/* pwrite64/pread64 */
#define SEEK_OFF	0x100000000ULL	/* _llseek: low half zero */
#define LO(x)		((uint32_t)(x))
#define HI(x)		((uint32_t)((x) >> 32))
#define MAX_LINES	512
#define LINE_LEN	256

/* What cacheflush is given: a fixed address, the same in the tracer. */
static char flush_area[64] __attribute__((aligned(64)));

static void on_usr1(int sig)
{
	(void)sig;
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
}

/*
 * Raw calls, so that each is the one the tracer expects, with the
 * arguments in the registers EABI gives them: a 64-bit value in an
 * even/odd pair, low word first, _llseek's halves high first.
 */
static int workload(const char *path)
{
	uint64_t sigset = 1ULL << (SIGHUP - 1), pos;
	struct sigaction sa;
	char buf[64];
	long fd, pid;

	syscall(SYS_openat, AT_FDCWD, MISSING, O_RDONLY | O_LARGEFILE);
	fd = syscall(SYS_openat, AT_FDCWD, path,
		     O_RDWR | O_CREAT | O_TRUNC | O_LARGEFILE, 0600);
	syscall(SYS_write, fd, TEXT, strlen(TEXT));
	syscall(SYS_ftruncate64, fd, 0, LO(BIG_SIZE), HI(BIG_SIZE));
	syscall(SYS_pwrite64, fd, "high", 4, 0, LO(HIGH_OFF), HI(HIGH_OFF));
	syscall(SYS_pread64, fd, buf, 4, 0, LO(HIGH_OFF), HI(HIGH_OFF));
	syscall(SYS__llseek, fd, HI(SEEK_OFF), LO(SEEK_OFF), &pos, SEEK_SET);
	syscall(SYS__llseek, fd, 0, 0, &pos, SEEK_SET);
	syscall(SYS_read, fd, buf, strlen(TEXT));
	syscall(SYS_close, fd);
	syscall(SYS_close, fd);
	syscall(SYS_unlink, path);

	/* sigreturn for SIGUSR1, rt_sigreturn for SIGUSR2 (glibc's restorers) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &sigset, NULL, 8);
	pid = syscall(SYS_getpid);
	syscall(SYS_kill, pid, SIGUSR1);
	syscall(SYS_kill, pid, SIGUSR2);

	syscall(ARM_NR_CACHEFLUSH, flush_area, flush_area + sizeof(flush_area), 0);
	return 0;
}

/* -------- the driver: run a tracer, then read what it printed -------- */

static char lines[MAX_LINES][LINE_LEN];
static int nlines, cursor;

/* Run @tracer on this program; its output to @out, its messages to @msg. */
static int run_tracer(const char *tracer, const char *self, const char *out,
		      const char *msg, const char *path)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		fd = open(msg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0)
			dup2(fd, 2);
		execl(tracer, tracer, "-f", "-o", out, self, "workload", path,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* strace pads a call to align its " = "; the lines compared have no padding. */
static void squeeze(char *s)
{
	char *start = s, *to = s;

	for (; *s; s++)
		if (*s != ' ' || (to > start && to[-1] != ' '))
			*to++ = *s;
	*to = 0;
}

/*
 * Keep the lines of the process that opened MISSING, from that call on,
 * without strace's "PID " prefix; *@pid is that process.
 */
static int load(const char *file, long *pid)
{
	char line[LINE_LEN], *rest;
	FILE *f = fopen(file, "r");
	long p;

	nlines = cursor = 0;
	*pid = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && nlines < MAX_LINES) {
		line[strcspn(line, "\n")] = 0;
		p = strtol(line, &rest, 10);
		if (rest == line)
			continue;
		rest += strspn(rest, " ");
		if (*pid < 0 && strstr(rest, MISSING))
			*pid = p;
		if (*pid < 0 || p != *pid)
			continue;
		squeeze(rest);
		snprintf(lines[nlines++], LINE_LEN, "%s", rest);
	}
	fclose(f);
	return 0;
}

static int same(const char *line, const char *want)
{
	return !strcmp(line, want);
}

/* "rt_sigreturn({mask=[...]}) = 0", whatever the mask */
static int rt_sigreturn_any_mask(const char *line, const char *unused)
{
	const char *head = "rt_sigreturn({mask=[", *tail = "]}) = 0";
	size_t len = strlen(line);

	(void)unused;
	return !strncmp(line, head, strlen(head)) && len > strlen(tail) &&
	       !strcmp(line + len - strlen(tail), tail);
}

/* Find a line that @match takes, from the cursor on; past it if found. */
static int find(int (*match)(const char *, const char *), const char *want)
{
	int i;

	for (i = cursor; i < nlines; i++) {
		if (match(lines[i], want)) {
			cursor = i + 1;
			return 1;
		}
	}
	ktap_diag("expected: %s", want);
	ktap_diag("   after: %s", cursor ? lines[cursor - 1] : "(start)");
	return 0;
}

static int expect(const char *want)
{
	return find(same, want);
}

static const char *const case_names[] = {
	"error_enoent", "openat", "write", "ftruncate64_pair", "pwrite64_pair",
	"pread64_pair", "llseek_halves", "read", "close_ebadf", "unlink",
	"rt_sigprocmask", "getpid_kill", "sigreturn_frame",
	"rt_sigreturn_frame", "cacheflush_private", "all_calls_named",
	"exit_group",
};
#define NCASES	(int)(sizeof(case_names) / sizeof(case_names[0]))

static void skip_tracer(const char *prefix, const char *fmt, const char *arg)
{
	char name[64];
	int i;

	for (i = 0; i < NCASES; i++) {
		snprintf(name, sizeof(name), "%s.%s", prefix, case_names[i]);
		ktap_skip(name, fmt, arg);
	}
}

#define CASE(name, ok, ...)						\
	do {								\
		snprintf(cname, sizeof(cname), "%s.%s", prefix, name);	\
		ktap_result(ok, cname, __VA_ARGS__);			\
	} while (0)

/* The start of @file, before the workload's own calls. */
static void show_head(const char *file)
{
	char line[LINE_LEN];
	FILE *f = fopen(file, "r");
	int n = 0;

	while (f && n++ < 8 && fgets(line, sizeof(line), f))
		ktap_diag("head: %.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

static void check_tracer(const char *prefix, const char *tracer,
			 const char *self, int native32)
{
	char out[64], msg[64], path[64], want[LINE_LEN], cname[96];
	int status, fd = -1, i, ok, named = 1, failed = ktap_failed;
	long pid;

	if (access(tracer, X_OK)) {
		skip_tracer(prefix, "no %s in this root", tracer);
		return;
	}
	snprintf(out, sizeof(out), "/tmp/strace-%s.%d.out", prefix, getpid());
	snprintf(msg, sizeof(msg), "/tmp/strace-%s.%d.msg", prefix, getpid());
	snprintf(path, sizeof(path), "/tmp/strace-%s.%d.data", prefix, getpid());
	status = run_tracer(tracer, self, out, msg, path);
	/* a tracer that is there but cannot trace fails every case */
	if (load(out, &pid) || pid < 0 || !nlines) {
		show_head(out);
		show_head(msg);
		for (i = 0; i < NCASES; i++)
			CASE(case_names[i], 0, "%s (status %#x) left no trace "
			     "of the workload in %s", tracer, status, out);
		return;
	}

	CASE("error_enoent", expect("openat(AT_FDCWD, \"" MISSING "\", "
		"O_RDONLY|O_LARGEFILE) = -1 ENOENT (No such file or directory)"),
		"see the lines above");

	snprintf(want, sizeof(want), "openat(AT_FDCWD, \"%s\", "
		 "O_RDWR|O_CREAT|O_TRUNC|O_LARGEFILE, 0600) = ", path);
	for (i = cursor; i < nlines && fd < 0; i++) {
		if (!strncmp(lines[i], want, strlen(want))) {
			fd = atoi(lines[i] + strlen(want));
			cursor = i + 1;
		}
	}
	CASE("openat", fd >= 3, "no line \"%s<fd>\"", want);

#define EXPECTF(...) (snprintf(want, sizeof(want), __VA_ARGS__), expect(want))
	CASE("write", EXPECTF("write(%d, \"compat strace\\n\", 14) = 14", fd), "");
	CASE("ftruncate64_pair",
	     EXPECTF("ftruncate64(%d, %llu) = 0", fd, BIG_SIZE), "");
	CASE("pwrite64_pair",
	     EXPECTF("pwrite64(%d, \"high\", 4, %llu) = 4", fd, HIGH_OFF), "");
	CASE("pread64_pair",
	     EXPECTF("pread64(%d, \"high\", 4, %llu) = 4", fd, HIGH_OFF), "");
	ok = EXPECTF("_llseek(%d, %llu, [%llu], SEEK_SET) = 0", fd, SEEK_OFF, SEEK_OFF);
	ok &= EXPECTF("_llseek(%d, 0, [0], SEEK_SET) = 0", fd);
	CASE("llseek_halves", ok, "");
	CASE("read", EXPECTF("read(%d, \"compat strace\\n\", 14) = 14", fd), "");
	ok = EXPECTF("close(%d) = 0", fd);
	ok &= EXPECTF("close(%d) = -1 EBADF (Bad file descriptor)", fd);
	CASE("close_ebadf", ok, "");
	CASE("unlink", EXPECTF("unlink(\"%s\") = 0", path), "");
	CASE("rt_sigprocmask",
	     expect("rt_sigprocmask(SIG_BLOCK, [HUP], NULL, 8) = 0"), "");
	ok = EXPECTF("getpid() = %ld", pid);
	ok &= EXPECTF("kill(%ld, SIGUSR1) = 0", pid);
	CASE("getpid_kill", ok, "");
	/* the frame's mask is the one before the signal: HUP blocked */
	ok = EXPECTF("--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, "
		     "si_pid=%ld, si_uid=0} ---", pid);
	ok &= expect("sigreturn({mask=[HUP]}) = 0");
	CASE("sigreturn_frame", ok, "");
	ok = EXPECTF("kill(%ld, SIGUSR2) = 0", pid);
	ok &= EXPECTF("--- SIGUSR2 {si_signo=SIGUSR2, si_code=SI_USER, "
		      "si_pid=%ld, si_uid=0} ---", pid);
	if (native32) {
		ok &= expect("rt_sigreturn({mask=[HUP]}) = 0");
	} else {
		/*
		 * strace 6.1's arm64 build reads a compat rt_sigreturn's
		 * mask where a 64-bit frame has it (inside the compat
		 * ucontext's padding: stack bytes, on stock too), so only
		 * the name and the result count here; the armhf strace
		 * checks the mask of the very same frame.
		 */
		ok &= find(rt_sigreturn_any_mask, "rt_sigreturn({mask=[...]}) = 0");
	}
	CASE("rt_sigreturn_frame", ok, "");
	CASE("cacheflush_private",
	     EXPECTF("cacheflush(%#lx, %#lx, 0) = 0", (unsigned long)flush_area,
		     (unsigned long)(flush_area + sizeof(flush_area))), "");

	/* strace names a number its table lacks "syscall_0x..." */
	for (i = 0; i < nlines; i++) {
		if (!strncmp(lines[i], "syscall_", 8)) {
			ktap_diag("undecoded: %s", lines[i]);
			named = 0;
		}
	}
	CASE("all_calls_named", named, "");
	ok = expect("exit_group(0) = ?");
	ok &= expect("+++ exited with 0 +++");
	CASE("exit_group", ok && WIFEXITED(status) && !WEXITSTATUS(status),
	     "strace status %#x", status);
	if (ktap_failed > failed) {
		ktap_diag("%s's trace (%d lines of pid %ld):", tracer, nlines, pid);
		for (i = 0; i < nlines; i++)
			ktap_diag("  %s", lines[i]);
		show_head(out);
		show_head(msg);
	}
	unlink(out);
	unlink(msg);
}

int main(int argc, char **argv)
{
	char self[256];
	ssize_t n;

	if (argc > 2 && !strcmp(argv[1], "workload"))
		return workload(argv[2]);

	ktap_plan(2 * NCASES);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		skip_tracer("armhf_strace", "%s", "no /proc/self/exe");
		skip_tracer("arm64_strace", "%s", "no /proc/self/exe");
		return ktap_finish();
	}
	self[n] = 0;
	check_tracer("armhf_strace", "/opt/armhf/strace", self, 1);
	check_tracer("arm64_strace", "/bin/strace", self, 0);
	return ktap_finish();
}
