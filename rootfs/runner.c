// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest test runner.  Reads /tests/manifest, one test program a line:
 *
 *   <kind> <suite> <abi> <timeout-seconds> <path> [args...]
 *
 * kind "ktap": the program prints KTAP; each top-level "ok"/"not ok" line
 *              becomes one result "<suite> <abi> <program>.<case>".
 * kind "exit": one result "<suite> <abi> <program>" from the exit status,
 *              kselftest style (0 pass, 4 skip, anything else fail).
 *
 * Every result is printed as a top-level KTAP line; everything a program
 * prints is echoed as "# " diagnostics.  A program that outlives its
 * timeout is killed with its process group and fails.  At the end the
 * kernel log is printed with a "@@KLOG " prefix so that the host can look
 * for oopses and warnings that the quiet console did not show.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/wait.h>

#define KSFT_SKIP	4
#define EXIT_NOEXEC	126
#define NOEXEC_MARK	"@@runner: ENOEXEC"

static int results;

static void emit(int ok, const char *suite, const char *abi, const char *name,
		 const char *fmt, ...)
{
	va_list ap;

	printf("%s %d %s %s %s", ok ? "ok" : "not ok", ++results, suite, abi, name);
	if (fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

struct run {
	const char *kind, *suite, *abi, *prog;
	int cases, failed, noexec;
	char last[256];		/* last diagnostic line, for a skip reason */
	char skipped[256];	/* last line that said why it skipped */
};

/* One line of the program's output. */
static void take_line(struct run *r, char *line)
{
	int ok = !strncmp(line, "ok ", 3), notok = !strncmp(line, "not ok ", 7);

	if (!strcmp(line, NOEXEC_MARK)) {
		r->noexec = 1;
		return;
	}
	if (!strcmp(r->kind, "ktap") && (ok || notok)) {
		char *p = line + (ok ? 3 : 7), *name, *directive;
		char full[512];

		strtol(p, &p, 10);
		while (*p == ' ')
			p++;
		name = p;
		directive = strstr(p, " # ");
		if (directive) {
			*directive = '\0';
			directive += 3;
		}
		snprintf(full, sizeof(full), "%s.%s", r->prog, *name ? name : "unnamed");
		for (p = full; *p; p++)
			if (*p == ' ')
				*p = '_';
		r->cases++;
		if (!ok)
			r->failed++;
		if (directive)
			emit(ok, r->suite, r->abi, full, "%s", directive);
		else
			emit(ok, r->suite, r->abi, full, NULL);
		return;
	}
	printf("# %s: %s\n", r->prog, line);
	while (*line == '#' || *line == ' ')
		line++;
	if (*line && strncmp(line, "Totals:", 7) && strncmp(line, "Planned tests", 13))
		snprintf(r->last, sizeof(r->last), "%s", line);
	if (strstr(line, "SKIP") || strstr(line, "skip") || strstr(line, "not available"))
		if (strncmp(line, "Totals:", 7))
			snprintf(r->skipped, sizeof(r->skipped), "%s", line);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_one(char **argv, const char *kind, const char *suite,
		    const char *abi, int timeout)
{
	struct run r = { .kind = kind, .suite = suite, .abi = abi };
	char buf[4096], *path = argv[0], *dir;
	size_t have = 0;
	int pipefd[2], status = 0, timed_out = 0;
	double deadline = now() + timeout, t0 = now();
	pid_t pid;

	r.prog = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (pipe(pipefd)) {
		emit(0, suite, abi, r.prog, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		char *copy = strdup(path);

		setpgid(0, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		/* kselftests look for their helpers next to themselves */
		dir = !strcmp(kind, "exit") ? dirname(copy) : "/tmp";
		if (chdir(dir))
			printf("chdir %s: %s\n", dir, strerror(errno));
		execv(path, argv);
		if (errno == ENOEXEC)
			printf("%s\n", NOEXEC_MARK);
		else
			printf("exec %s: %s\n", path, strerror(errno));
		fflush(stdout);
		_exit(EXIT_NOEXEC);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		emit(0, suite, abi, r.prog, "fork: %s", strerror(errno));
		return;
	}
	setpgid(pid, pid);

	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		double left = deadline - now();
		ssize_t n;
		char *nl;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			timed_out = 1;
			break;
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		n = read(pipefd[0], buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			break;
		have += n;
		buf[have] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			take_line(&r, buf);
			have -= nl + 1 - buf;
			memmove(buf, nl + 1, have + 1);
		}
		if (have == sizeof(buf) - 1) {	/* overlong line: flush it */
			take_line(&r, buf);
			have = 0;
		}
	}
	if (have) {
		buf[have] = '\0';
		take_line(&r, buf);
	}
	close(pipefd[0]);
	kill(-pid, SIGKILL);	/* leftovers of the group; harmless if none */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("# %s: %.1f s\n", r.prog, now() - t0);

	if (r.noexec) {
		emit(1, suite, abi, r.prog, "SKIP this CPU cannot execute %s binaries", abi);
		return;
	}
	if (timed_out) {
		emit(0, suite, abi, r.prog, "timeout after %d s", timeout);
		return;
	}
	if (WIFSIGNALED(status)) {
		emit(0, suite, abi, r.prog, "killed by signal %d", WTERMSIG(status));
		return;
	}
	status = WEXITSTATUS(status);
	if (!strcmp(kind, "ktap")) {
		if (!r.cases)
			emit(0, suite, abi, r.prog, "no results (exit status %d)", status);
		else if (status && !r.failed)
			emit(0, suite, abi, r.prog, "exit status %d after passing cases", status);
		return;
	}
	if (status == 0)
		emit(1, suite, abi, r.prog, NULL);
	else if (status == KSFT_SKIP)
		emit(1, suite, abi, r.prog, "SKIP %s", r.skipped[0] ? r.skipped :
		     r.last[0] ? r.last : "the kselftest skipped itself");
	else
		emit(0, suite, abi, r.prog, "exit status %d", status);
}

static void dump_klog(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *line, *save;

	if (len <= 0)
		return;
	buf = malloc(len + 1);
	if (!buf)
		return;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len > 0) {
		buf[len] = '\0';
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			printf("@@KLOG %s\n", line);
	}
	free(buf);
	fflush(stdout);
}

int main(void)
{
	FILE *manifest = fopen("/tests/manifest", "r");
	char line[1024];

	printf("KTAP version 1\n");
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);
	if (!manifest) {
		emit(0, "runner", "aarch64", "manifest", "/tests/manifest: %s", strerror(errno));
	} else {
		while (fgets(line, sizeof(line), manifest)) {
			char *argv[16], *kind, *suite, *abi, *tmo, *save;
			int argc = 0;

			kind = strtok_r(line, " \t\n", &save);
			if (!kind || *kind == '#')
				continue;
			suite = strtok_r(NULL, " \t\n", &save);
			abi = strtok_r(NULL, " \t\n", &save);
			tmo = strtok_r(NULL, " \t\n", &save);
			while (argc < 15 && (argv[argc] = strtok_r(NULL, " \t\n", &save)))
				argc++;
			argv[argc] = NULL;
			if (!suite || !abi || !tmo || !argc) {
				emit(0, "runner", "aarch64", "manifest", "bad line");
				continue;
			}
			run_one(argv, kind, suite, abi, atoi(tmo));
		}
		fclose(manifest);
	}
	printf("1..%d\n", results);
	dump_klog();
	printf("@@RUNNER-DONE\n");
	fflush(stdout);
	return 0;
}
