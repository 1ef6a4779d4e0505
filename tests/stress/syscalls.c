// SPDX-License-Identifier: GPL-2.0-only
/*
 * System call fuzzer.  Each case is a child that confines itself (a new
 * session, chroot into a small tmpfs of its own, every descriptor closed,
 * a uid of its own, no new privileges, rlimits on processes, memory, file
 * size and CPU time), then makes 32 calls with random numbers and
 * arguments: on armhf over the whole compat table, the private ARM calls
 * (0xf0000 on: cacheflush, set_tls, ...) and numbers past both; on aarch64
 * over the native table.  Arguments mix edges (0, -1, small values),
 * pointers into a scratch area, across its end, into unmapped and kernel
 * memory, descriptors and flag bits.  A periodic timer interrupts the
 * calls with signals whose handlers are installed with and without
 * SA_RESTART, so that the kernel's restart paths run after arbitrary
 * calls.
 *
 * Checked: no child outlives SIGKILL (a task stuck in the kernel), the
 * kernel is not tainted, and the parent's own system calls still work
 * after every case.  Each case's seed is printed with a failure and the
 * call in flight is named.
 */
#include "../stress/stress.h"

#include <grp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>

#define CALLS		32
#define SCRATCH		(64 << 10)
#define ROOT		"/tmp/stress-syscalls"
#define UID_BASE	60000

#ifdef __aarch64__
#define NR_TABLE	451
#define NARGS		6
typedef uint64_t arg_t;
#define KERNEL_PTR	0xffff800008000000ULL
#define EXIT_NR		93
#define EXIT_GROUP_NR	94
#else
#define NR_TABLE	451
#define NARGS		7
typedef uint32_t arg_t;
#define KERNEL_PTR	0xffff0000U	/* the vectors page: user-readable */
#define EXIT_NR		1
#define EXIT_GROUP_NR	248
#define ARM_PRIVATE	0x0f0000
#define ARM_PRIVATE_END	0x0f0800
#endif

struct batch {
	volatile uint32_t done;		/* calls made */
	volatile uint32_t nr;		/* the call in flight */
	volatile arg_t args[NARGS];
	volatile pid_t leader;
};

static struct batch *batches;
static unsigned char *scratch;
static uint64_t rs;

static struct {
	uint64_t cases, calls, killed_by[NSIG], exited, watchdog;
} count;

static struct stress_fails stuck = { "task stuck in the kernel", 0, 5 };
static struct stress_fails broken = { "parent's system calls", 0, 5 };

static uint64_t case_seed(uint64_t index)
{
	return stress.replay ? stress.replay_seed : stress_case_seed(index);
}

static arg_t gen_arg(void)
{
	switch (rnd_below(&rs, 12)) {
	case 0:
		return 0;
	case 1:
		return (arg_t)-1;
	case 2:
		return rnd_below(&rs, 64);
	case 3:		/* inside the scratch area */
		return (uintptr_t)scratch + rnd_below(&rs, SCRATCH);
	case 4:		/* running off its end */
		return (uintptr_t)scratch + SCRATCH - rnd_below(&rs, 64);
	case 5:		/* the guard page above it */
		return (uintptr_t)scratch + SCRATCH + rnd_below(&rs, 4096);
	case 6:
		return KERNEL_PTR + rnd_below(&rs, 4096);
	case 7:		/* a descriptor */
		return rnd_below(&rs, 16);
	case 8:		/* a flag */
		return (arg_t)1 << rnd_below(&rs, sizeof(arg_t) * 8);
	case 9:
		return 4096 * rnd_below(&rs, 64);
	default:
		return rnd(&rs);
	}
}

static uint32_t gen_nr(void)
{
#ifdef __aarch64__
	switch (rnd_below(&rs, 20)) {
	case 0:
		return rnd(&rs);
	case 1:
		return NR_TABLE + rnd_below(&rs, 64);
	default:
		return rnd_below(&rs, NR_TABLE);
	}
#else
	switch (rnd_below(&rs, 20)) {
	case 0:
		return rnd(&rs);
	case 1:		/* the private calls that exist */
	case 2:
		return ARM_PRIVATE + 1 + rnd_below(&rs, 5);
	case 3:		/* the rest of the private range */
		return ARM_PRIVATE + rnd_below(&rs, ARM_PRIVATE_END - ARM_PRIVATE);
	case 4:		/* past it: SIGILL */
		return ARM_PRIVATE_END + rnd_below(&rs, 0x1000);
	case 5:
		return NR_TABLE + rnd_below(&rs, 64);
	default:
		return rnd_below(&rs, NR_TABLE);
	}
#endif
}

static volatile uint32_t interrupts;

static void on_signal(int sig)
{
	interrupts++;
}

static void confine(int slot, int keep_stdout)
{
	struct rlimit lim;
	uid_t uid = UID_BASE + slot;
	int fd;

	setsid();
	/* the first the OOM killer takes */
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "1000", 4) != 4)
			_exit(3);
		close(fd);
	}
	if (chdir(ROOT) || chroot(".") || chdir("/"))
		_exit(3);
	setgroups(0, NULL);
	if (setgid(uid) || setuid(uid))
		_exit(3);
	/* what an earlier case of this uid left running */
	kill(-1, SIGKILL);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	lim.rlim_cur = lim.rlim_max = 8;
	setrlimit(RLIMIT_NPROC, &lim);
	lim.rlim_cur = lim.rlim_max = 64;
	setrlimit(RLIMIT_NOFILE, &lim);
	lim.rlim_cur = lim.rlim_max = 1 << 20;
	setrlimit(RLIMIT_FSIZE, &lim);
	lim.rlim_cur = lim.rlim_max = 32 << 20;
	setrlimit(RLIMIT_AS, &lim);
	lim.rlim_cur = lim.rlim_max = 5;
	setrlimit(RLIMIT_CPU, &lim);
	lim.rlim_cur = lim.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &lim);
	for (fd = 0; fd < 1024; fd++)
		if (!keep_stdout || fd != 1)
			close(fd);
}

static void start_case(int slot, uint64_t index)
{
	struct batch *b = &batches[slot];
	struct sigaction sa;
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	static char alt[16384];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof(alt) };
	int verbose = stress.replay, i, j;

	rs = case_seed(index);
	memset((void *)b, 0, sizeof(*b));
	b->leader = getpid();
	confine(slot, verbose);

	for (i = 0; i < SCRATCH; i++)
		scratch[i] = rnd(&rs);

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = (rnd_chance(&rs, 1, 2) ? SA_RESTART : 0) |
		      (rnd_chance(&rs, 1, 2) ? SA_ONSTACK : 0);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_flags ^= SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);

	for (i = 0; i < CALLS; i++) {
		arg_t a[NARGS];
		uint32_t nr = gen_nr();
		long r;

		for (j = 0; j < NARGS; j++)
			a[j] = gen_arg();
		if (nr == EXIT_NR || nr == EXIT_GROUP_NR)
			nr = __NR_getpid;	/* ending early only wastes the case */
		if (getpid() == b->leader) {
			b->nr = nr;
			for (j = 0; j < NARGS; j++)
				b->args[j] = a[j];
		}
		if (verbose) {
			printf("# call %d: %#x(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)\n", i, nr,
			       (unsigned long long)a[0], (unsigned long long)a[1],
			       (unsigned long long)a[2], (unsigned long long)a[3],
			       (unsigned long long)a[4], (unsigned long long)a[5]);
			fflush(stdout);
		}
#ifdef __aarch64__
		r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#else
		r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
#endif
		if (verbose) {
			printf("#   = %ld\n", r);
			fflush(stdout);
		}
		if (getpid() == b->leader)
			b->done = i + 1;
	}
	_exit(0);
}

static void case_done(int slot, uint64_t index, int status)
{
	struct batch *b = &batches[slot];
	uint64_t seed = case_seed(index);

	count.cases++;
	count.calls += b->done;
	if (status == -2) {
		stress_fail(&stuck, seed, "call %u: %#x(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)",
			    b->done, b->nr, (unsigned long long)b->args[0],
			    (unsigned long long)b->args[1], (unsigned long long)b->args[2],
			    (unsigned long long)b->args[3], (unsigned long long)b->args[4],
			    (unsigned long long)b->args[5]);
		return;
	}
	if (status == -1)
		count.watchdog++;
	else if (WIFSIGNALED(status))
		count.killed_by[WTERMSIG(status) % NSIG]++;
	else
		count.exited++;
	if (stress.replay)
		printf("# case 0x%016" PRIx64 ": %s after %u calls\n", seed,
		       stress_status(status), b->done);
}

/* The parent's own calls, after a case: still answering as they must. */
static int parent_ok(void)
{
	int p[2], ok;
	char c = 'x', d = 0;
	struct timespec a, b;

	if (pipe(p))
		return 0;
	ok = write(p[1], &c, 1) == 1 && read(p[0], &d, 1) == 1 && d == 'x';
	close(p[0]);
	close(p[1]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
	return ok && syscall(SYS_getpid) == getpid() &&
	       (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
}

static void wrap_done(int slot, uint64_t index, int status)
{
	case_done(slot, index, status);
	if (!parent_ok())
		stress_fail(&broken, case_seed(index), "pipe, getpid or clock_gettime wrong");
}

int main(void)
{
	const char *names[] = {
		"no_task_stuck_after_sigkill",
		"parent_calls_still_work",
		"kernel_not_tainted",
	};
	struct stress_pool pool = {
		.watchdog = 5,
		.start = start_case,
		.done = wrap_done,
	};
	char line[256] = "";
	int i, slot;

	ktap_plan(3);
	stress_init("syscalls");
	if (stress.replay_other)
		return stress_skip_all(names, 3);
	if (geteuid()) {
		for (i = 0; i < 3; i++)
			ktap_skip(names[i], "needs root to mount the tmpfs and drop to other uids");
		return ktap_finish();
	}
	mkdir(ROOT, 0755);
	if (mount("stress", ROOT, "tmpfs", MS_NOSUID | MS_NODEV,
		  "size=8m,nr_inodes=2048,mode=1777")) {
		ktap_diag("mount tmpfs on %s: %s", ROOT, strerror(errno));
		return 1;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	scratch = mmap(NULL, SCRATCH + 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED || mprotect(scratch + SCRATCH, 4096, PROT_NONE)) {
		ktap_diag("scratch: %s", strerror(errno));
		return 1;
	}
	batches = stress_shared(sizeof(*batches) * STRESS_MAX_SLOTS);
	pool.parallel = stress.replay ? 1 : stress_cpus();
	pool.max_cases = stress.replay ? 1 : 0;
	stress_taint_start();

	stress_run_pool(&pool);

	/* what the cases left: kill each uid's processes, reap them */
	for (slot = 0; slot < STRESS_MAX_SLOTS; slot++) {
		pid_t pid = fork();

		if (!pid) {
			if (!setuid(UID_BASE + slot))
				kill(-1, SIGKILL);
			_exit(0);
		}
	}
	{
		/* reap them, a bounded while: a stuck one was reported */
		double until = stress_now() + 5;
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		sigset_t chld;

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		while (stress_now() < until) {
			pid_t pid = waitpid(-1, NULL, WNOHANG);

			if (pid < 0 && errno == ECHILD)
				break;
			if (pid <= 0)
				sigtimedwait(&chld, NULL, &tick);
		}
	}
	umount2(ROOT, MNT_DETACH);

	for (i = 1; i < NSIG; i++)
		if (count.killed_by[i])
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s %" PRIu64 ",",
				 strsignal(i), count.killed_by[i]);
	ktap_diag("%s/syscalls: %" PRIu64 " cases, %" PRIu64 " calls in %.0f s; %" PRIu64
		  " ran to the end, %" PRIu64 " blocked until the watchdog; killed by:%s seed 0x%016"
		  PRIx64, STRESS_ABI, count.cases, count.calls, stress_elapsed(), count.exited,
		  count.watchdog, line, stress.seed);
	ktap_result(count.cases && !stuck.count, names[0], "%" PRIu64 " of %" PRIu64
		    " cases left a task SIGKILL could not end", stuck.count, count.cases);
	ktap_result(!broken.count, names[1], "%" PRIu64 " cases broke them", broken.count);
	stress_taint_result(names[2]);
	return ktap_finish();
}
