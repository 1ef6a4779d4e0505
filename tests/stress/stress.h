/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the stress programs share: their time budget, seeds and replay, a
 * deterministic generator, a page shared with the children that run the
 * cases, running those children in parallel with a watchdog, and the
 * kernel's taint flags.
 *
 * The environment reaches us from the kernel command line (an unknown
 * "KEY=value" parameter becomes an environment variable of init, which
 * the runner passes on):
 *   STRESS_DURATION  seconds for the whole suite, each program taking its
 *                    share (`make stress DURATION=s`).  Without it, the
 *                    bounded run of `make test`: each program runs a fixed
 *                    number of cases (stress_shares[].cases), whatever
 *                    the time it takes, so that a run is the same run on
 *                    any host
 *   STRESS_SEED      base seed of the run (default: a fixed one in the
 *                    bounded run, from the clock in a timed one); every
 *                    failure prints the seed of its case
 *   STRESS_REPLAY    "<abi>/<program>:<case seed>": that program runs that
 *                    one case and says what it did; the others skip
 *   STRESS_DIVISOR   n: the bounded run runs an n-th of each program's
 *                    cases, at least one (`make test` on the debug kernel:
 *                    20, where KASAN and lockdep make every case some ten
 *                    times slower)
 */
#ifndef TESTS_STRESS_H
#define TESTS_STRESS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ktap.h"

#ifdef __aarch64__
#define STRESS_ABI	"aarch64"
#else
#define STRESS_ABI	"armhf"
#endif

#define STRESS_BOUNDED_SEED	0x5eed0f16a5c3d00dULL

/*
 * Each program's share of STRESS_DURATION, in percent, and its cases in
 * the bounded run (about three minutes in all under TCG on 4 vCPUs).  The
 * sigreturn fuzzers get 86 %: a 30-minute run must reach 100 000 frames
 * per ABI at their TCG rate, a fork and an exit a frame (README, "Stress",
 * has the measured rates).  No program may take more than 60 % of
 * DURATION (the runner's timeout).  Hotplug runs its
 * 100 cycles whatever its share (MIN_CYCLES, some 30-50 s).  What a case
 * is belongs to the program: a fuzzed frame, a signal checked for kernel
 * bytes, a round of any storm thread (counted over all threads), an
 * offline/online cycle, a child of the syscall fuzzer.  0 takes a program
 * out of the bounded run (its results skip there); it still runs in a
 * timed run or a replay.
 */
static const struct {
	const char *abi, *prog;
	int percent;
	uint64_t cases;
} stress_shares[] = {
	{ "aarch64", "sigreturn", 50, 3000 },
	{ "aarch64", "kbytes", 1, 100 },
	{ "aarch64", "syscalls", 2, 200 },
	{ "aarch64", "storm", 2, 800 },
	{ "aarch64", "hotplug", 2, 100 },
	{ "armhf", "sigreturn", 36, 3000 },
	{ "armhf", "kbytes", 1, 100 },
	{ "armhf", "syscalls", 3, 400 },
	{ "armhf", "storm", 2, 400 },
	{ "armhf", "hotplug", 1, 30 },
};

static struct {
	const char *prog;
	double total, budget, start;
	int bounded;		/* a fixed number of cases, not a time */
	uint64_t cases;		/* that number */
	uint64_t seed;
	int replay;		/* replaying one case of this program */
	int replay_other;	/* replaying a case of another program */
	int not_bounded;	/* not in the bounded run: skip */
	uint64_t replay_seed;
} stress;

static inline double stress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* splitmix64: one step of a generator whose whole state is @*s */
static inline uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0; the bias is irrelevant here). */
static inline uint64_t rnd_below(uint64_t *s, uint64_t n)
{
	return rnd(s) % n;
}

/* True with probability @num/@den. */
static inline int rnd_chance(uint64_t *s, unsigned int num, unsigned int den)
{
	return rnd_below(s, den) < num;
}

/* The seed of case @i of this run: independent of the order cases run in. */
static inline uint64_t stress_case_seed(uint64_t i)
{
	uint64_t s = stress.seed ^ (i * 0xd1342543de82ef95ULL);

	return rnd(&s);
}

static inline double stress_elapsed(void)
{
	return stress_now() - stress.start;
}

static inline int stress_time_left(void)
{
	return stress_elapsed() < stress.budget;
}

/* Another case after @done of them: the count, or the time, says. */
static inline int stress_more(uint64_t done)
{
	return stress.bounded ? done < stress.cases : stress_time_left();
}

/*
 * Read the environment; @prog is this program's name in stress_shares[].
 * Prints the budget and the seed.
 */
static inline void stress_init(const char *prog)
{
	const char *d = getenv("STRESS_DURATION");
	const char *s = getenv("STRESS_SEED");
	const char *r = getenv("STRESS_REPLAY");
	const char *div = getenv("STRESS_DIVISOR");
	char want[64];
	size_t i;
	int percent = 0;

	stress.prog = prog;
	stress.start = stress_now();
	stress.bounded = !(d && atof(d) > 0);
	stress.total = stress.bounded ? 0 : atof(d);
	for (i = 0; i < sizeof(stress_shares) / sizeof(stress_shares[0]); i++)
		if (!strcmp(stress_shares[i].abi, STRESS_ABI) &&
		    !strcmp(stress_shares[i].prog, prog)) {
			percent = stress_shares[i].percent;
			stress.cases = stress_shares[i].cases;
		}
	stress.budget = stress.total * percent / 100;
	if (stress.bounded && stress.cases && div && atoi(div) > 1) {
		stress.cases /= atoi(div);
		if (!stress.cases)
			stress.cases = 1;
	}

	if (s && *s) {
		stress.seed = strtoull(s, NULL, 0);
	} else if (stress.bounded) {
		stress.seed = STRESS_BOUNDED_SEED;
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		stress.seed = ts.tv_sec * 1000000007ULL ^ ts.tv_nsec ^
			      (uint64_t)getpid() << 32;
	}

	if (stress.bounded && !stress.cases && !(r && *r)) {
		stress.not_bounded = 1;
		stress.replay_other = 1;
	}
	if (r && *r) {
		const char *colon = strchr(r, ':');

		snprintf(want, sizeof(want), "%s/%s", STRESS_ABI, prog);
		if (colon && (size_t)(colon - r) == strlen(want) &&
		    !strncmp(r, want, colon - r)) {
			stress.replay = 1;
			stress.replay_seed = strtoull(colon + 1, NULL, 0);
		} else {
			stress.replay_other = 1;
		}
	}
	if (stress.bounded)
		ktap_diag("%s/%s: bounded run, %" PRIu64 " cases, seed 0x%016" PRIx64 "%s",
			  STRESS_ABI, prog, stress.cases, stress.seed,
			  stress.replay ? " (replaying one case)" : "");
	else
		ktap_diag("%s/%s: %.0f s of a %.0f s run, seed 0x%016" PRIx64 "%s",
			  STRESS_ABI, prog, stress.budget, stress.total,
			  stress.seed, stress.replay ? " (replaying one case)" : "");
}

/* How to replay case @seed, for a failure message. */
static inline const char *stress_replay_hint(uint64_t seed)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "make stress REPLAY=%s/%s:0x%016" PRIx64,
		 STRESS_ABI, stress.prog, seed);
	return buf;
}

/* Anonymous memory shared with the children forked after this call. */
static inline void *stress_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		ktap_diag("mmap of %zu shared bytes: %s", size, strerror(errno));
		exit(1);
	}
	return p;
}

/* /proc/sys/kernel/tainted, or -1 */
static inline long stress_tainted(void)
{
	char buf[32];
	long v = -1;
	int fd = open("/proc/sys/kernel/tainted", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (n > 0) {
			buf[n] = '\0';
			v = strtol(buf, NULL, 10);
		}
		close(fd);
	}
	return v;
}

/*
 * Taint flags that mean the kernel complained while we ran: W (a WARN),
 * D (an oops), B (bad page), L (soft lockup).
 */
#define STRESS_TAINT_TROUBLE	((1L << 9) | (1L << 7) | (1L << 5) | (1L << 14))

static long stress_taint_before;

static inline void stress_taint_start(void)
{
	stress_taint_before = stress_tainted();
}

static inline void stress_taint_result(const char *name)
{
	long now = stress_tainted();
	long fresh = (now & ~stress_taint_before) & STRESS_TAINT_TROUBLE;

	ktap_result(now >= 0 && !fresh, name,
		    "kernel taint went from %#lx to %#lx (W=WARN, D=oops, B=bad page, L=lockup)",
		    stress_taint_before, now);
}

/* CPUs this process may run on. */
static inline int stress_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

/*
 * Running cases in children, up to @parallel at a time.  The parent
 * calls @start(slot, index) in each child (it must not return), and
 * @done(slot, index, wait status) once the child is reaped, with status
 * -1 when the child outlived @watchdog seconds and was killed, or -2 when
 * even SIGKILL did not end it within STRESS_UNKILLABLE seconds (its slot
 * is then given up).  Stops after @max_cases (0: as stress_more() says).
 * Returns the number of cases run.
 */
#define STRESS_UNKILLABLE	20

struct stress_pool {
	int parallel;
	double watchdog;
	uint64_t max_cases;
	void (*start)(int slot, uint64_t index);
	void (*done)(int slot, uint64_t index, int status);
};

#define STRESS_MAX_SLOTS 8

static inline uint64_t stress_run_pool(const struct stress_pool *p)
{
	struct {
		pid_t pid;
		uint64_t index;
		double since, killed_at;
		int killed, lost;
	} slot[STRESS_MAX_SLOTS];
	int busy = 0, i, n = p->parallel;
	uint64_t next = 0;
	sigset_t chld, old;

	if (n < 1)
		n = 1;
	if (n > STRESS_MAX_SLOTS)
		n = STRESS_MAX_SLOTS;
	memset(slot, 0, sizeof(slot));
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);

	for (;;) {
		int more = p->max_cases ? next < p->max_cases : stress_more(next);
		struct timespec tick = { 0, 200 * 1000 * 1000 };
		int status;
		pid_t pid;

		for (i = 0; more && i < n; i++) {
			if (slot[i].pid || slot[i].lost)
				continue;
			fflush(stdout);
			pid = fork();
			if (pid < 0) {
				ktap_diag("fork: %s", strerror(errno));
				break;
			}
			if (!pid) {
				sigprocmask(SIG_SETMASK, &old, NULL);
				p->start(i, next);
				_exit(127);
			}
			slot[i].pid = pid;
			slot[i].index = next++;
			slot[i].since = stress_now();
			slot[i].killed = 0;
			busy++;
			more = p->max_cases ? next < p->max_cases :
					      stress_more(next);
		}
		if (!busy)
			break;

		/* Wait for a child to end (SIGCHLD), or the next watchdog tick. */
		sigtimedwait(&chld, NULL, &tick);
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			for (i = 0; i < n; i++)
				if (slot[i].pid == pid && !slot[i].lost)
					break;
			if (i == n)
				continue;	/* a grandchild we adopted */
			p->done(i, slot[i].index, slot[i].killed ? -1 : status);
			slot[i].pid = 0;
			busy--;
		}
		for (i = 0; i < n; i++) {
			if (!slot[i].pid || slot[i].lost)
				continue;
			if (!slot[i].killed &&
			    stress_now() - slot[i].since > p->watchdog) {
				kill(slot[i].pid, SIGKILL);
				slot[i].killed = 1;
				slot[i].killed_at = stress_now();
			} else if (slot[i].killed &&
				   stress_now() - slot[i].killed_at > STRESS_UNKILLABLE) {
				p->done(i, slot[i].index, -2);
				slot[i].lost = 1;
				busy--;
			}
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return next;
}

/* Wait status in words, for a failure message. */
static inline const char *stress_status(int status)
{
	static char buf[64];

	if (status == -1)
		snprintf(buf, sizeof(buf), "hung (killed by the watchdog)");
	else if (status == -2)
		snprintf(buf, sizeof(buf), "still alive %d s after SIGKILL",
			 STRESS_UNKILLABLE);
	else if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "killed by %s",
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "status %#x", status);
	return buf;
}

/* Print at most @limit failure lines per kind; count them all. */
struct stress_fails {
	const char *kind;
	uint64_t count;
	int limit;
};

static inline void stress_fail(struct stress_fails *f, uint64_t seed,
			       const char *fmt, ...)
{
	va_list ap;

	if (f->count++ >= (uint64_t)f->limit)
		return;
	printf("# FAIL %s: case 0x%016" PRIx64 ": ", f->kind, seed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n#   replay: %s\n", stress_replay_hint(seed));
	fflush(stdout);
}

/* Every case name of the program skips, for a replay of another one. */
static inline int stress_skip_all(const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ktap_skip(names[i], stress.not_bounded ?
			  "not in the bounded run (make stress DURATION=s runs it)" :
			  "replaying a case of another program");
	return ktap_finish();
}

#endif
