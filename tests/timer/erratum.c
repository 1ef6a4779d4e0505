// SPDX-License-Identifier: GPL-2.0-only
/*
 * A counter erratum workaround changes what user space sees: with one that
 * filters counter reads engaged (a timer node property, or a Cortex-A73),
 * the vDSO may not read the counter and must hand clock_gettime() and
 * gettimeofday() to the system call, and EL0 reads of the counter trap to
 * the kernel; with erratum 1418040 (Cortex-A76/Neoverse-N1 up to r3p1)
 * only the 32-bit vDSO falls back.  Otherwise the vDSO answers alone.
 *
 * Which case this boot is comes from the device tree and the CPUs' MIDRs,
 * checked against the variant named on the command line (variant=...,
 * set by the Makefile), never from the kernel log.  A seccomp filter that
 * fails the clock system calls with a distinctive errno tells a vDSO that
 * fell back from one that did not.  Then, engaged or not: the counter read
 * from EL0 and CLOCK_MONOTONIC never step back from one CPU to the next,
 * and a timer armed on each CPU fires, not early.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/audit.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"

#define DT_TIMER	"/proc/device-tree/timer/"
#define FILTER_ERRNO	ENOANO		/* nothing else returns it here */
#define HANDOFFS	1000
#define TIMER_NS	(5 * 1000 * 1000LL)
#define MAX_CPUS	64

#ifdef __aarch64__
#define THIS_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#else
#define THIS_AUDIT_ARCH	AUDIT_ARCH_ARM
#endif

/* The DT-selected errata, by the variant that asks for each */
static const struct {
	const char *variant;
	const char *property;
} dt_errata[] = {
	{ "timer-erratum-fsl", "fsl,erratum-a008585" },
	{ "timer-erratum-hisi", "hisilicon,erratum-161010101" },
	{ "timer-erratum-a64", "allwinner,erratum-unknown1" },
};
#define NR_DT_ERRATA (sizeof(dt_errata) / sizeof(dt_errata[0]))

enum vdso_expect { VDSO_ANSWERS, VDSO_32BIT_FALLS_BACK, VDSO_FALLS_BACK };

static int ncpus, cpus[MAX_CPUS];

/* @word is among the boot's variant words ("variant=a b" on the command line) */
static int variant_has(const char *word)
{
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		for (tok = strtok_r(line, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			if (!strncmp(tok, "variant=", 8))
				tok += 8;
			if (!strcmp(tok, word))
				found = 1;
		}
	}
	fclose(f);
	return found;
}

static int dt_has(const char *property)
{
	char path[256];

	snprintf(path, sizeof(path), DT_TIMER "%s", property);
	return access(path, F_OK) == 0;
}

static int read_midr(int cpu, uint64_t *midr)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", cpu);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fscanf(f, "%llx", (unsigned long long *)midr) == 1;
	fclose(f);
	return ok;
}

/* What the MIDRs ask for: 858921 (any Cortex-A73), 1418040 (A76/N1 <= r3p1) */
static enum vdso_expect midr_expect(char *why, size_t len)
{
	enum vdso_expect e = VDSO_ANSWERS;
	int i;

	snprintf(why, len, "no CPU with a counter erratum");
	for (i = 0; i < ncpus; i++) {
		uint64_t midr;
		unsigned int impl, part, var, rev;

		if (!read_midr(cpus[i], &midr))
			continue;
		impl = (midr >> 24) & 0xff;
		var = (midr >> 20) & 0xf;
		part = (midr >> 4) & 0xfff;
		rev = midr & 0xf;
		if (impl != 0x41)
			continue;
		if (part == 0xd09) {
			snprintf(why, len, "CPU%d is a Cortex-A73 (858921)", cpus[i]);
			return VDSO_FALLS_BACK;
		}
		if ((part == 0xd0b || part == 0xd0c) &&
		    (var < 3 || (var == 3 && rev <= 1))) {
			snprintf(why, len, "CPU%d is r%up%u of part %#x (1418040)",
				 cpus[i], var, rev, part);
			e = VDSO_32BIT_FALLS_BACK;
		}
	}
	return e;
}

static uint64_t el0_counter(void)
{
	uint64_t v;
#ifdef __aarch64__
	asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r" (v) :: "memory");
#else
	uint32_t lo, hi;

	asm volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r" (lo), "=r" (hi) :: "memory");
	v = (uint64_t)hi << 32 | lo;
#endif
	return v;
}

/* Every clock-reading system call of this ABI fails with FILTER_ERRNO */
static int filter_clock_syscalls(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_gettimeofday, 2, 0),
#ifdef SYS_clock_gettime64
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime64, 1, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime, 1, 0),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | FILTER_ERRNO),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/*
 * In a child under the filter, on @cpu: bit 0 set when clock_gettime()
 * failed with the filter's errno (it reached the system call), bit 1 the
 * same for gettimeofday(); 4 when it failed otherwise, 8 when the filter
 * could not be installed, 16 the control: a raw system call was not failed.
 */
static int vdso_probe(int cpu)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct timespec ts;
		struct timeval tv;
		int r = 0;

		pin_cpu(cpu);
		if (filter_clock_syscalls())
			_exit(8);
		if (clock_gettime(CLOCK_MONOTONIC, &ts))
			r |= errno == FILTER_ERRNO ? 1 : 4;
		if (gettimeofday(&tv, NULL))
			r |= errno == FILTER_ERRNO ? 2 : 4;
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != -1 ||
		    errno != FILTER_ERRNO)
			r |= 16;
		_exit(r);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Two threads on two CPUs pass a token back and forth; each reads the
 * clock after it sees the token and publishes the value with it, so every
 * reading must not be older than the one the other CPU took before.
 */
static struct handoff {
	int cpu[2];
	int use_counter;		/* the EL0 counter, else CLOCK_MONOTONIC */
	volatile int turn;
	volatile uint64_t last;
	long back;
	uint64_t worst;
	int unpinned;
} ho;

static void *handoff_side(void *arg)
{
	int me = (int)(intptr_t)arg, i;

	if (pin_cpu(ho.cpu[me]))
		__atomic_store_n(&ho.unpinned, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < HANDOFFS; i++) {
		uint64_t prev, now;

		while (__atomic_load_n(&ho.turn, __ATOMIC_ACQUIRE) != me)
			;
		prev = ho.last;
		now = ho.use_counter ? el0_counter() : (uint64_t)mono_ns();
		if (now < prev) {
			ho.back++;
			if (prev - now > ho.worst)
				ho.worst = prev - now;
		}
		ho.last = now;
		__atomic_store_n(&ho.turn, !me, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void handoff_case(const char *name, int use_counter)
{
	pthread_t t[2];
	int i;

	if (ncpus < 2) {
		ktap_skip(name, "one CPU online, nothing to compare across");
		return;
	}
	memset(&ho, 0, sizeof(ho));
	ho.cpu[0] = cpus[0];
	ho.cpu[1] = cpus[1];
	ho.use_counter = use_counter;
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, handoff_side, (void *)(intptr_t)i);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ktap_result(!ho.back && !ho.unpinned, name,
		    "%ld of %d readings older than the other CPU's (worst by %llu), pinned %s",
		    ho.back, 2 * HANDOFFS, (unsigned long long)ho.worst,
		    ho.unpinned ? "no" : "yes");
}

/* A timerfd armed on each CPU in turn expires once, and not early */
static void timers_fire_case(void)
{
	char why[160] = "";
	int i, ok = 1;

	for (i = 0; i < ncpus && ok; i++) {
		struct itimerspec its = { .it_value.tv_nsec = TIMER_NS };
		uint64_t expiries = 0;
		int64_t t0, t1;
		int fd;

		if (pin_cpu(cpus[i])) {
			snprintf(why, sizeof(why), "cannot pin to CPU%d", cpus[i]);
			ok = 0;
			break;
		}
		fd = timerfd_create(CLOCK_MONOTONIC, 0);
		t0 = mono_ns();
		if (fd < 0 || timerfd_settime(fd, 0, &its, NULL) ||
		    read(fd, &expiries, sizeof(expiries)) != sizeof(expiries)) {
			snprintf(why, sizeof(why), "CPU%d: timerfd: %s", cpus[i], strerror(errno));
			ok = 0;
		} else {
			t1 = mono_ns();
			if (expiries != 1 || t1 - t0 < TIMER_NS) {
				snprintf(why, sizeof(why),
					 "CPU%d: %llu expiries after %lld ns (armed for %lld)",
					 cpus[i], (unsigned long long)expiries,
					 (long long)(t1 - t0), TIMER_NS);
				ok = 0;
			}
		}
		if (fd >= 0)
			close(fd);
	}
	ktap_result(ok, "timers_fire", "%s", why);
}

int main(void)
{
	const char *want_prop = NULL, *why_dt = "";
	enum vdso_expect expect;
	char why[160], seen[160] = "";
	cpu_set_t online;
	int i, dt, ok, r, fell = 0, answered = 0, broken = 0;

	ktap_plan(5);

	CPU_ZERO(&online);
	sched_getaffinity(0, sizeof(online), &online);
	for (i = 0; i < CPU_SETSIZE && ncpus < MAX_CPUS; i++)
		if (CPU_ISSET(i, &online))
			cpus[ncpus++] = i;

	/* The variant asks for at most one property; the DT has just that */
	for (i = 0; i < (int)NR_DT_ERRATA; i++)
		if (variant_has(dt_errata[i].variant))
			want_prop = dt_errata[i].property;
	dt = access("/proc/device-tree", F_OK) == 0;
	ok = 1;
	for (i = 0; i < (int)NR_DT_ERRATA; i++) {
		int wanted = want_prop && !strcmp(want_prop, dt_errata[i].property);

		if (dt_has(dt_errata[i].property) != wanted) {
			ok = 0;
			why_dt = dt_errata[i].property;
		}
	}
	if (want_prop && !dt)
		ok = 0;
	ktap_result(ok, "dt_matches_variant",
		    "variant asks for %s, the timer node %s %s", want_prop ? want_prop : "none",
		    dt ? "disagrees on" : "is missing:", why_dt);

	expect = midr_expect(why, sizeof(why));
	if (want_prop) {
		expect = VDSO_FALLS_BACK;
		snprintf(why, sizeof(why), "the timer node asks for %s", want_prop);
	}
	if (expect == VDSO_32BIT_FALLS_BACK)
#ifdef __aarch64__
		expect = VDSO_ANSWERS;
#else
		expect = VDSO_FALLS_BACK;
#endif
	ktap_diag("expected: %s (%s)", expect == VDSO_FALLS_BACK ? "the vDSO falls back" :
		  "the vDSO answers", why);

	if (!getauxval(AT_SYSINFO_EHDR)) {
		ktap_skip("vdso_fallback", "no vDSO mapped in this process");
	} else {
		for (i = 0; i < ncpus; i++) {
			r = vdso_probe(cpus[i]);
			if (r < 0 || r & (4 | 8 | 16)) {
				broken = 1;
				snprintf(seen, sizeof(seen), "CPU%d: probe result %d", cpus[i], r);
			} else if (r == 3) {
				fell++;
			} else if (r == 0) {
				answered++;
			} else {
				broken = 1;
				snprintf(seen, sizeof(seen),
					 "CPU%d: only %s fell back", cpus[i],
					 r == 1 ? "clock_gettime" : "gettimeofday");
			}
		}
		ktap_result(!broken && (expect == VDSO_FALLS_BACK ? fell == ncpus : answered == ncpus),
			    "vdso_fallback", "%s; %d CPUs fell back to the syscall, %d answered in the vDSO (%s)",
			    why, fell, answered, broken ? seen : "each probe clean");
	}

	handoff_case("counter_monotonic_across_cpus", 1);
	handoff_case("clock_monotonic_across_cpus", 0);
	timers_fire_case();
	return ktap_finish();
}
