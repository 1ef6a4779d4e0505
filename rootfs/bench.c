// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest microbenchmarks for `make bench`, one source for aarch64 and armhf.
 * Each metric prints one line
 *
 *   @@BENCH <metric> <abi> <value> <unit>
 *
 * where value is the median over BATCHES batches (per-operation time for the
 * fast paths, overshoot past the requested 1 ms for the sleeps).  The guest
 * runs under QEMU -icount, so CLOCK_MONOTONIC counts instructions and the
 * figures do not depend on the host's load.
 *
 * usage: bench [quick] [nobusy]   (quick: a tenth of the iterations, for a
 *        smoke run; nobusy: without the busy-sibling rows)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <sys/timerfd.h>

#ifdef __aarch64__
#define ABI "aarch64"
#define NR_CLOCK_GETTIME SYS_clock_gettime
#else
#define ABI "armhf"
/* clock_gettime64: the 64-bit time_t entry every y2038-safe libc uses */
#define NR_CLOCK_GETTIME 403
#endif

#define BATCHES 5

static int scale = 1;
static pid_t pid, tid;
static volatile unsigned long handled;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *metric, uint64_t *v, const char *unit, double div)
{
	qsort(v, BATCHES, sizeof(*v), cmp_u64);
	printf("@@BENCH %s %s %.3f %s\n", metric, ABI, v[BATCHES / 2] / div, unit);
	fflush(stdout);
}

/* Time n calls of fn per batch; report ns per call. */
static void per_op(const char *metric, void (*fn)(void), long n)
{
	uint64_t v[BATCHES];
	int b;
	long i;

	n /= scale;
	fn();	/* fault in whatever the first call touches */
	for (b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < n; i++)
			fn();
		v[b] = now_ns() - t0;
	}
	report(metric, v, "ns", (double)n);
}

/*
 * Call fn for a fixed stretch of guest time per batch and report ns per
 * call: for the rows whose rate QEMU's scheduling can cut by 20x or more,
 * so that a starved row still ends, and says how starved it was.
 */
static void per_window(const char *metric, void (*fn)(void), uint64_t window_ns)
{
	uint64_t v[BATCHES];
	int b;

	window_ns /= scale;
	fn();
	for (b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns(), t;
		unsigned long calls = 0;

		do {	/* the clock read every 16 calls, not in every one */
			for (int i = 0; i < 16; i++)
				fn();
			calls += 16;
			t = now_ns() - t0;
		} while (t < window_ns);
		/* scaled by 1000 so that report() keeps three decimals of ns */
		v[b] = t * 1000 / calls;
	}
	report(metric, v, "ns", 1000.0);
}

/* -- signals: tgkill to ourselves, so one syscall, delivery and sigreturn */

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

/*
 * Make the FP/SIMD registers hold our data when the signal arrives, so
 * that the kernel has live user FP state to save and restore.
 */
static void fp_dirty(void)
{
#ifdef __aarch64__
	__asm__ volatile("movi v0.2d, #0xff\n\tmovi v7.2d, #0xff\n\t"
			 "movi v16.2d, #0xff\n\tmovi v31.2d, #0xff\n\t"
			 "fmov d8, #1.0\n\tfmov d15, #1.0"
			 ::: "v0", "v7", "v8", "v15", "v16", "v31");
#else
	__asm__ volatile("vmov.f64 d0, #1.0\n\tvmov.f64 d7, #1.0\n\t"
			 "vmov.f64 d8, #1.0\n\tvmov.f64 d15, #1.0\n\t"
			 "vmov.f64 d12, #1.0\n\tvmov.f64 d14, #1.0"
			 ::: "d0", "d7", "d8", "d12", "d14", "d15");
#endif
}

static void sig_nofp(void)
{
	syscall(SYS_tgkill, pid, tid, SIGUSR1);
}

static void sig_fp(void)
{
	fp_dirty();
	syscall(SYS_tgkill, pid, tid, SIGUSR1);
}

#ifdef __aarch64__
/*
 * SVE live: a syscall drops the SVE state, so these signals come from a
 * BRK instead, with Z0 and P0 just written; the SIGTRAP handler steps
 * over the BRK.  The whole SVE state at the thread's vector length goes
 * through the frame and back each time.
 */
#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL 50
#endif
#define HWCAP_SVE_BIT (1UL << 22)

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc->uc_mcontext.pc += 4;
	handled++;
}

static void sig_sve(void)
{
	__asm__ volatile(".arch_extension sve\n\tptrue p0.b\n\t"
			 "dup z0.b, #1\n\tbrk #0x5e" ::: "v0", "memory");
}

static void signal_sve(const char *metric, int vl_bits)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };

	if (!(getauxval(AT_HWCAP) & HWCAP_SVE_BIT) ||
	    (prctl(PR_SVE_SET_VL, vl_bits / 8) & 0xffff) != vl_bits / 8)
		return;
	sigaction(SIGTRAP, &sa, NULL);
	per_op(metric, sig_sve, 5000);
}
#endif

/* -- syscalls */

static int zero_fd;
static char buf[64];

static void null_syscall(void)
{
	syscall(SYS_getppid);
}

static void do_pread64(void)
{
	/* an offset above 4 GiB, so both halves of the 64-bit argument count */
	if (pread64(zero_fd, buf, 8, 0x100000008ll) < 0)
		abort();
}

/* -- clocks */

static void cgt_vdso(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
}

static void cgt_syscall(void)
{
	/* a 64-bit struct timespec on both ABIs: clock_gettime64 on armhf */
	struct { int64_t sec; int64_t nsec; } ts;

	syscall(NR_CLOCK_GETTIME, CLOCK_MONOTONIC, &ts);
}

static void gtod_vdso(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
}

static void gtod_syscall(void)
{
	struct timeval tv;

	syscall(SYS_gettimeofday, &tv, NULL);
}

/* -- sleeps: how much later than the requested 1 ms the wakeup came */

static void sleep_overshoot(int n)
{
	struct timespec ms = { 0, 1000000 };
	uint64_t v[BATCHES];
	int b, i;

	for (b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < n; i++)
			nanosleep(&ms, NULL);
		v[b] = now_ns() - t0 - n * 1000000ull;
	}
	report("nanosleep_1ms_over", v, "us", n * 1000.0);
}

static void timerfd_overshoot(int n)
{
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	uint64_t v[BATCHES], ticks;
	int b, i;

	if (fd < 0) {
		perror("timerfd_create");
		return;
	}
	for (b = 0; b < BATCHES; b++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < n; i++) {
			timerfd_settime(fd, 0, &its, NULL);
			if (read(fd, &ticks, sizeof(ticks)) != sizeof(ticks))
				abort();
		}
		v[b] = now_ns() - t0 - n * 1000000ull;
	}
	close(fd);
	report("timerfd_1ms_over", v, "us", n * 1000.0);
}

/*
 * -- the same fast paths with the other CPU busy: a child pinned to CPU 1
 * loops on sigpending() and sched_yield(), two syscalls that never sleep.
 * Under -icount QEMU runs the CPUs in turn on one host thread, and how it
 * shares the turns hangs on whether the two CPUs' tick deadlines tie to the
 * counter tick: with a tie the CPU that re-arms first is kicked out of every
 * turn.  These rows measure QEMU's scheduling as much as the kernel (README,
 * issue 17), so they run for a fixed guest time, not a fixed count.
 */
static pid_t busy_sibling_start(void)
{
	cpu_set_t cpus;
	pid_t child;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return -1;
	child = fork();
	if (child == 0) {
		sigset_t set;

		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(1);
		for (;;) {
			sigpending(&set);
			sched_yield();
		}
	}
	return child;
}

static void busy_sibling_stop(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static void busy_sibling_rows(void)
{
	pid_t child = busy_sibling_start();

	if (child < 0) {
		fprintf(stderr, "bench: one CPU, no busy-sibling rows\n");
		return;
	}
	per_window("null_syscall_busy_sibling", null_syscall, 100000000);
	per_window("signal_nofp_busy_sibling", sig_nofp, 100000000);
	busy_sibling_stop(child);
}

#ifdef __aarch64__
/*
 * Boot to init: when init's first child, the runner that started us, was
 * forked.  Not pid 1's own start time: that is the kernel thread made early
 * in boot which only later execs /init.  In clock ticks since boot.
 */
static void boot_to_init(void)
{
	char path[64], stat[512], *p;
	unsigned long long start = 0;
	FILE *f;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)getppid());
	f = fopen(path, "r");
	if (!f || !fgets(stat, sizeof(stat), f)) {
		perror(path);
		return;
	}
	fclose(f);
	p = strrchr(stat, ')');	/* the comm field may hold spaces */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	printf("@@BENCH boot_to_init %s %.3f ms\n", ABI,
	       start * 1000.0 / sysconf(_SC_CLK_TCK));
}
#endif

/* nobusy: leave out the busy-sibling rows (see README, issue 17) */
static int no_busy;

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	cpu_set_t cpus;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "quick"))
			scale = 10;
		else if (!strcmp(argv[i], "nobusy"))
			no_busy = 1;
	}
	/* one CPU, so that no migration lands inside a batch */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	pid = getpid();
	tid = syscall(SYS_gettid);
	sigaction(SIGUSR1, &sa, NULL);
	zero_fd = open("/dev/zero", O_RDONLY);
	if (zero_fd < 0) {
		perror("/dev/zero");
		return 1;
	}

#ifdef __aarch64__
	boot_to_init();	/* once a boot: the armhf run would only repeat it */
#endif
	per_op("signal_nofp", sig_nofp, 20000);
	per_op("signal_fp", sig_fp, 20000);
	per_op("null_syscall", null_syscall, 50000);
	per_op("pread64", do_pread64, 50000);
	per_op("clock_gettime_vdso", cgt_vdso, 200000);
	per_op("gettimeofday_vdso", gtod_vdso, 200000);
	per_op("clock_gettime_syscall", cgt_syscall, 50000);
	per_op("gettimeofday_syscall", gtod_syscall, 50000);
	if (!no_busy)
		busy_sibling_rows();
	sleep_overshoot(200 / scale);
	timerfd_overshoot(200 / scale);
#ifdef __aarch64__
	/* last: they leave the vector length changed */
	signal_sve("signal_sve256", 256);
	signal_sve("signal_sve2048", 2048);
#endif
	if (handled < 2)
		fprintf(stderr, "bench: the signal handler never ran\n");
	return handled < 2;
}
