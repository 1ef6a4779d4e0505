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
 * kind "skip": the program is not run; one skip "<suite> <abi> <program>"
 *              whose reason is the rest of the line (it must have one).
 *
 * Results go to the file named by the "results" environment variable (the
 * host's results channel, /dev/hvc0, a virtio console of its own, so that
 * no kernel message can split a line), else to stdout.  Every result is a
 * top-level KTAP line followed by "# @@DURATION <seconds>"; what a program
 * prints is echoed as "# <program>: <line>" diagnostics.  The run opens
 * with "# @@BUILD-ID <hex>" (the running kernel's, from /sys/kernel/notes)
 * and closes with the plan "1..N" and "@@RUNNER-DONE".
 *
 * Before each program the runner says which it starts ("# @@PROGRAM <index>
 * <timeout> <suite> <abi> <program>", index counting manifest programs from
 * 0), and while a program is silent it says it is alive ("# @@ALIVE" every
 * HEARTBEAT seconds): a host that hears nothing for much longer knows the
 * kernel or the runner wedged, and which program was running.  It then
 * boots a fresh guest with resume=<index>,<results> on the command line:
 * the runner skips the programs up to that index and numbers its results
 * after the ones the host already has, so the plan covers the whole run.
 *
 * Nothing that went wrong becomes a pass or a skip: a program that cannot
 * be executed, whose KTAP plan does not match its results, that outlives
 * its timeout or that skips without a reason fails.  The one skip the
 * runner makes itself is an armhf program on a system without AArch32 at
 * EL0 (the kernel refuses PER_LINUX32), decided before it runs.
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
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/personality.h>
#include <sys/wait.h>

#define KSFT_SKIP	4
#define HEARTBEAT	2	/* seconds of silence between "# @@ALIVE" lines */
#define EXEC_MARK	"@@runner: exec failed: errno "

static FILE *out;
static int results;
static double last_result;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void emit(int ok, const char *suite, const char *abi, const char *name,
		 const char *fmt, ...)
{
	va_list ap;
	double t = now();

	fprintf(out, "%s %d %s %s %s", ok ? "ok" : "not ok", ++results, suite, abi, name);
	if (fmt) {
		fprintf(out, " # ");
		va_start(ap, fmt);
		vfprintf(out, fmt, ap);
		va_end(ap);
	}
	fprintf(out, "\n# @@DURATION %.3f\n", t - last_result);
	fflush(out);
	last_result = t;
}

struct run {
	const char *kind, *suite, *abi, *prog;
	int cases, failed, plan, exec_errno;
	char last[256];		/* last diagnostic line, for a skip reason */
	char skipped[256];	/* last line that said why it skipped */
};

/* "ok N name # directive" of the program, as our own result. */
static void take_result(struct run *r, char *line, int ok)
{
	char *p = line + (ok ? 3 : 7), *name, *directive;
	char full[512];

	strtol(p, &p, 10);
	while (*p == ' ')
		p++;
	if (*p == '-' && p[1] == ' ')
		p += 2;
	name = p;
	if (!strncmp(p, "# ", 2)) {
		name = "";	/* "ok 3 # SKIP ...": no name */
		directive = p + 2;
	} else if ((directive = strstr(p, " # "))) {
		*directive = '\0';
		directive += 3;
	}
	snprintf(full, sizeof(full), "%s.%s", r->prog, *name ? name : "unnamed");
	for (p = full; *p; p++)
		if (*p == ' ')
			*p = '_';
	r->cases++;
	if (ok && directive && !strncasecmp(directive, "SKIP", 4)) {
		p = directive + 4;
		while (*p == ' ')
			p++;
		if (!*p) {
			/* a skip must say why: without a reason it is a bug */
			r->failed++;
			emit(0, r->suite, r->abi, full, "SKIP without a reason");
			return;
		}
	}
	if (!ok)
		r->failed++;
	if (directive)
		emit(ok, r->suite, r->abi, full, "%s", directive);
	else
		emit(ok, r->suite, r->abi, full, NULL);
}

/* One line of the program's output. */
static void take_line(struct run *r, char *line)
{
	int ok = !strncmp(line, "ok ", 3), notok = !strncmp(line, "not ok ", 7);

	if (!strncmp(line, EXEC_MARK, strlen(EXEC_MARK))) {
		r->exec_errno = atoi(line + strlen(EXEC_MARK));
		return;
	}
	if (!strncmp(line, "1..", 3))
		r->plan = atoi(line + 3);
	if (!strcmp(r->kind, "ktap") && (ok || notok)) {
		take_result(r, line, ok);
		return;
	}
	if (ok || notok)
		r->cases++;	/* a kselftest's own TAP: counted for its plan */
	fprintf(out, "# %s: %s\n", r->prog, line);
	while (*line == '#' || *line == ' ')
		line++;
	if (*line && strncmp(line, "Totals:", 7) && strncmp(line, "Planned tests", 13))
		snprintf(r->last, sizeof(r->last), "%s", line);
	if (strstr(line, "SKIP") || strstr(line, "skip") || strstr(line, "not available"))
		if (strncmp(line, "Totals:", 7))
			snprintf(r->skipped, sizeof(r->skipped), "%s", line);
}

/*
 * Can this system run AArch32 code at EL0?  arm64 refuses PER_LINUX32
 * unless every CPU can (and the kernel has COMPAT); ID_AA64PFR0_EL1.EL0
 * cannot tell, as the kernel hides that field from EL0.
 */
static int system_runs_aarch32(void)
{
	int old = personality(0xffffffff);

	if (old == -1 || personality(PER_LINUX32) == -1)
		return 0;
	personality(old);
	return 1;
}

/* a "skip" line: the manifest says why the program is not run here */
static void skip_one(const char *path, const char *suite, const char *abi, const char *why)
{
	last_result = now();
	emit(1, suite, abi, strrchr(path, '/') ? strrchr(path, '/') + 1 : path, "SKIP %s", why);
}

static void run_one(char **argv, const char *kind, const char *suite,
		    const char *abi, int timeout)
{
	struct run r = { .kind = kind, .suite = suite, .abi = abi, .plan = -1 };
	char buf[4096], *path = argv[0], *dir;
	size_t have = 0;
	int pipefd[2], status = 0, timed_out = 0;
	double deadline = now() + timeout, t0 = now();
	pid_t pid;

	r.prog = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	last_result = t0;
	if (!strcmp(abi, "armhf") && !system_runs_aarch32()) {
		emit(1, suite, abi, r.prog, "SKIP no AArch32 at EL0 here (personality(PER_LINUX32) refused)");
		return;
	}
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
		printf("%s%d\n", EXEC_MARK, errno);
		fflush(stdout);
		_exit(126);
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
		if (left > HEARTBEAT)
			left = HEARTBEAT;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0) {
			if (left >= HEARTBEAT) {
				fprintf(out, "# @@ALIVE\n");
				fflush(out);
			}
			continue;
		}
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
	fprintf(out, "# %s: %.1f s\n", r.prog, now() - t0);

	if (r.exec_errno) {
		emit(0, suite, abi, r.prog, "cannot execute %s: %s", path, strerror(r.exec_errno));
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
		else if (r.plan < 0)
			emit(0, suite, abi, r.prog, "no KTAP plan (1..N) for %d results", r.cases);
		else if (r.plan != r.cases)
			emit(0, suite, abi, r.prog, "KTAP plan 1..%d, %d results", r.plan, r.cases);
		else if (status && !r.failed)
			emit(0, suite, abi, r.prog, "exit status %d after passing cases", status);
		return;
	}
	if (status == 0 && r.plan >= 0 && r.plan != r.cases)
		emit(0, suite, abi, r.prog, "exit status 0, but TAP plan 1..%d and %d results",
		     r.plan, r.cases);
	else if (status == 0)
		emit(1, suite, abi, r.prog, NULL);
	else if (status == KSFT_SKIP)
		emit(1, suite, abi, r.prog, "SKIP %s", r.skipped[0] ? r.skipped :
		     r.last[0] ? r.last : "the kselftest skipped itself");
	else
		emit(0, suite, abi, r.prog, "exit status %d", status);
}

/* The running kernel's GNU build id, from its notes, as hex. */
static void print_build_id(void)
{
	unsigned char notes[4096];
	size_t off = 0;
	ssize_t n;
	int fd = open("/sys/kernel/notes", O_RDONLY);

	n = fd >= 0 ? read(fd, notes, sizeof(notes)) : -1;
	if (fd >= 0)
		close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		unsigned int namesz, descsz, type, i;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		off += 12;
		if (type == 3 && namesz == 4 && !memcmp(notes + off, "GNU", 4) &&
		    off + 4 + descsz <= (size_t)n) {
			fprintf(out, "# @@BUILD-ID ");
			for (i = 0; i < descsz; i++)
				fprintf(out, "%02x", notes[off + 4 + i]);
			fprintf(out, "\n");
			return;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	fprintf(out, "# @@BUILD-ID none\n");
}

/* The results channel: raw, so that the host reads exactly what we wrote. */
static FILE *open_results(void)
{
	const char *path = getenv("results");
	struct termios t;
	FILE *f;
	int fd;

	if (!path || !*path)
		return stdout;
	fd = open(path, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "runner: cannot open the results channel %s: %s\n",
			path, strerror(errno));
		return NULL;
	}
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

int main(void)
{
	FILE *manifest;
	char line[1024];
	const char *resume = getenv("resume");
	int index = 0, first = 0;

	/* resume=<first program>,<results already counted> */
	if (resume && sscanf(resume, "%d,%d", &first, &results) != 2)
		first = results = 0;

	out = open_results();
	if (!out)
		return 1;
	fprintf(out, "KTAP version 1\n");
	print_build_id();
	fflush(out);
	signal(SIGPIPE, SIG_IGN);
	manifest = fopen("/tests/manifest", "r");
	if (!manifest) {
		emit(0, "runner", "aarch64", "manifest", "/tests/manifest: %s", strerror(errno));
	} else {
		while (fgets(line, sizeof(line), manifest)) {
			char *argv[16], *kind, *suite, *abi, *tmo, *save, *why = NULL;
			int argc = 0;

			kind = strtok_r(line, " \t\n", &save);
			if (!kind || *kind == '#')
				continue;
			if (index++ < first)
				continue;
			suite = strtok_r(NULL, " \t\n", &save);
			abi = strtok_r(NULL, " \t\n", &save);
			tmo = strtok_r(NULL, " \t\n", &save);
			if (!strcmp(kind, "skip")) {
				/* the path, then the reason: the rest of the line */
				argv[argc] = strtok_r(NULL, " \t\n", &save);
				argc += !!argv[argc];
				why = save ? save + strspn(save, " \t") : NULL;
				if (why)
					why[strcspn(why, "\n")] = 0;
			} else {
				while (argc < 15 && (argv[argc] = strtok_r(NULL, " \t\n", &save)))
					argc++;
			}
			argv[argc] = NULL;
			if (!suite || !abi || !tmo || !argc ||
			    (strcmp(kind, "ktap") && strcmp(kind, "exit") &&
			     (strcmp(kind, "skip") || !why || !*why))) {
				last_result = now();
				emit(0, "runner", "aarch64", "manifest", "bad line");
				continue;
			}
			fprintf(out, "# @@PROGRAM %d %s %s %s %s\n", index - 1, tmo, suite, abi,
				strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]);
			fflush(out);
			if (!strcmp(kind, "skip"))
				skip_one(argv[0], suite, abi, why);
			else
				run_one(argv, kind, suite, abi, atoi(tmo));
		}
		fclose(manifest);
	}
	fprintf(out, "1..%d\n@@RUNNER-DONE\n", results);
	fflush(out);
	fsync(fileno(out));
	return 0;
}
