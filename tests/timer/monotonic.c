// SPDX-License-Identifier: GPL-2.0-only
/*
 * CLOCK_MONOTONIC never goes back: one thread pinned on every online CPU
 * reads it for a while, through the vDSO and through the system call in
 * turn, and checks each reading against its own previous one and against
 * the newest one any CPU has published.  A vDSO that read another counter
 * than the kernel's clocksource would step back when the two are mixed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define RUN_NS		(1500LL * 1000 * 1000)
#define MAX_CPUS	64

struct worker {
	pthread_t thread;
	int cpu;
	int pinned;		/* every reading was taken on @cpu */
	long reads;
	long back_local;	/* older than this thread's previous reading */
	long back_global;	/* older than one another CPU published before */
	long back_raw;
	long vdso_vs_sys;	/* vDSO, syscall, vDSO not in order */
	int64_t worst;
};

static int64_t newest;		/* newest CLOCK_MONOTONIC reading, all CPUs */
static pthread_barrier_t start;

static int64_t ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int64_t vdso_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ns(&ts);
}

static int64_t sys_read(clockid_t id)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, id, &ts);
	return ns(&ts);
}

static void *run(void *arg)
{
	struct worker *w = arg;
	int64_t prev = 0, prev_raw = 0, end;
	long i;

	pthread_barrier_wait(&start);
	w->pinned = sched_getcpu() == w->cpu;
	end = vdso_read(CLOCK_MONOTONIC) + RUN_NS;

	for (i = 0;; i++) {
		int64_t seen = __atomic_load_n(&newest, __ATOMIC_ACQUIRE);
		int64_t a, b, c, raw;

		a = vdso_read(CLOCK_MONOTONIC);
		b = sys_read(CLOCK_MONOTONIC);
		c = vdso_read(CLOCK_MONOTONIC);
		raw = vdso_read(CLOCK_MONOTONIC_RAW);

		if (a < prev) {
			w->back_local++;
			if (prev - a > w->worst)
				w->worst = prev - a;
		}
		if (a < seen) {
			w->back_global++;
			if (seen - a > w->worst)
				w->worst = seen - a;
		}
		if (b < a || c < b)
			w->vdso_vs_sys++;
		if (raw < prev_raw)
			w->back_raw++;
		prev = c;
		prev_raw = raw;

		/* publish: the newest reading only ever grows */
		while (seen < c &&
		       !__atomic_compare_exchange_n(&newest, &seen, c, 0,
						    __ATOMIC_RELEASE,
						    __ATOMIC_ACQUIRE))
			;
		if ((i & 63) == 0 && sched_getcpu() != w->cpu)
			w->pinned = 0;
		if (c > end)
			break;
	}
	w->reads = i + 1;
	return NULL;
}

int main(void)
{
	struct worker w[MAX_CPUS];
	long local = 0, global = 0, raw = 0, mixed = 0, reads = 0;
	int n = 0, cpu, pinned = 1, err;
	int64_t worst = 0;
	cpu_set_t online;

	ktap_plan(5);

	CPU_ZERO(&online);
	if (sched_getaffinity(0, sizeof(online), &online)) {
		ktap_diag("sched_getaffinity: %s", strerror(errno));
		return 1;
	}
	memset(w, 0, sizeof(w));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &online))
			w[n++].cpu = cpu;
	pthread_barrier_init(&start, NULL, n);

	for (cpu = 0; cpu < n; cpu++) {
		pthread_attr_t attr;
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(w[cpu].cpu, &one);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		err = pthread_create(&w[cpu].thread, &attr, run, &w[cpu]);
		pthread_attr_destroy(&attr);
		if (err) {
			ktap_diag("pthread_create on CPU %d: %s", w[cpu].cpu,
				  strerror(err));
			return 1;
		}
	}
	for (cpu = 0; cpu < n; cpu++) {
		pthread_join(w[cpu].thread, NULL);
		pinned &= w[cpu].pinned;
		local += w[cpu].back_local;
		global += w[cpu].back_global;
		raw += w[cpu].back_raw;
		mixed += w[cpu].vdso_vs_sys;
		reads += w[cpu].reads;
		if (w[cpu].worst > worst)
			worst = w[cpu].worst;
		ktap_diag("CPU %d: %ld rounds", w[cpu].cpu, w[cpu].reads);
	}

	ktap_result(n >= 2 && pinned, "pinned_on_every_cpu",
		    "%d CPUs online, threads %s", n,
		    pinned ? "stayed pinned" : "moved off their CPU");
	ktap_result(!local, "monotonic_each_cpu",
		    "%ld of %ld readings went back (worst %lld ns)", local,
		    reads, (long long)worst);
	ktap_result(!global, "monotonic_across_cpus",
		    "%ld of %ld readings older than another CPU's (worst %lld ns)",
		    global, reads, (long long)worst);
	ktap_result(!mixed, "vdso_agrees_with_syscall",
		    "%ld of %ld vDSO/syscall/vDSO triples out of order", mixed,
		    reads);
	ktap_result(!raw, "monotonic_raw", "%ld CLOCK_MONOTONIC_RAW steps back",
		    raw);
	return ktap_finish();
}
