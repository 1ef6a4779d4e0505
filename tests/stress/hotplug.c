// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU hotplug under timers.  A worker thread pinned on each CPU arms, in
 * turn, a POSIX timer (SIGEV_THREAD_ID, waited for with sigtimedwait), a
 * one-shot timerfd and a clock_nanosleep, each with an absolute
 * CLOCK_MONOTONIC expiry a fraction of a millisecond to a few away, and
 * keeps a periodic timerfd running besides; a reader thread per CPU reads
 * CLOCK_MONOTONIC (vDSO and system call) and publishes the newest value.
 * Meanwhile CPUs 1-3 go offline and online, a random non-empty subset per
 * cycle, 100 cycles at least, more while the time budget lasts.
 *
 * Checked: every timer fires (within a generous bound: a lost one fails,
 * a late one does not) and none before its expiry, read from the clock;
 * the periodic timerfd never counts more expiries than the time allows;
 * CLOCK_MONOTONIC never reads older than a value any CPU published
 * before; after each online the CPU's clockevent device is the one it had
 * (sysfs), its timer interrupt count moves, and the worker pinned there
 * again is woken by a timer on that CPU.
 */
#include "../stress/stress.h"
#include "cpu_time.h"

#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

#define MIN_CYCLES	100
#define NCPU		4
#define BOUND_S		10	/* a timer this late is lost */
#define TIMER_SIG	(SIGRTMIN + 1)

static struct worker {
	pthread_t handle, reader;
	int cpu;
	pid_t tid;
	uint64_t rounds, rounds_home;	/* iterations; of those, woken on its CPU */
	uint64_t fired, lost, early, periodic_early;
	uint64_t reads, back;
	int64_t worst_back;
	char first[160];
} workers[NCPU];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER;
static volatile int stop;
static int64_t newest;
static char ce_name[NCPU][64];

static int64_t ns_sys(void)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec ts_of(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	return ts;
}

static void note(struct worker *w, const char *what, int64_t late)
{
	pthread_mutex_lock(&lock);
	if (!w->first[0])
		snprintf(w->first, sizeof(w->first), "CPU %d %s by %lld ns", w->cpu,
			 what, (long long)late);
	pthread_mutex_unlock(&lock);
}

/* One event: fired at @now for expiry @exp, or lost (@ok false). */
static void judge(struct worker *w, int ok, int64_t now, int64_t exp, const char *what)
{
	if (!ok) {
		w->lost++;
		note(w, what, -1);
	} else if (now < exp) {
		w->early++;
		note(w, what, exp - now);
	} else {
		w->fired++;
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = 0 };
	struct itimerspec periodic = { { 0, 1500 * 1000 }, { 0, 1500 * 1000 } };
	uint64_t rs = stress.seed ^ (uint64_t)w->cpu << 32, expiries = 0, e;
	int64_t periodic_start;
	timer_t timer;
	sigset_t set;
	int oneshot, tick;

	w->tid = gettid();
	pin_cpu(w->cpu);
	sigemptyset(&set);
	sigaddset(&set, TIMER_SIG);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sev.sigev_signo = TIMER_SIG;
	sev._sigev_un._tid = w->tid;	/* sigev_notify_thread_id */
	oneshot = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	tick = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (oneshot < 0 || tick < 0 || timer_create(CLOCK_MONOTONIC, &sev, &timer)) {
		snprintf(w->first, sizeof(w->first), "CPU %d: timer setup: %s", w->cpu,
			 strerror(errno));
		w->lost++;
		return NULL;
	}
	periodic_start = mono_ns();
	timerfd_settime(tick, 0, &periodic, NULL);

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		int64_t e1, e2, e3, now;
		struct itimerspec its = { { 0, 0 }, { 0, 0 } };
		struct timespec bound = { BOUND_S, 0 };
		struct pollfd pfd = { .fd = oneshot, .events = POLLIN };
		siginfo_t si;
		int cpu_before = sched_getcpu(), home;

		/* back on our CPU once it is online again */
		if (cpu_before != w->cpu)
			pin_cpu(w->cpu);

		now = mono_ns();
		e1 = now + 200 * 1000 + rnd_below(&rs, 2000 * 1000);
		e2 = e1 + rnd_below(&rs, 1500 * 1000);
		its.it_value = ts_of(e1);
		timer_settime(timer, TIMER_ABSTIME, &its, NULL);
		its.it_value = ts_of(e2);
		timerfd_settime(oneshot, TFD_TIMER_ABSTIME, &its, NULL);

		judge(w, sigtimedwait(&set, &si, &bound) == TIMER_SIG, mono_ns(), e1,
		      "POSIX timer early");
		judge(w, poll(&pfd, 1, BOUND_S * 1000) == 1 &&
		      read(oneshot, &e, sizeof(e)) == sizeof(e), mono_ns(), e2,
		      "timerfd early");

		e3 = mono_ns() + rnd_below(&rs, 2000 * 1000);
		{
			struct timespec t3 = ts_of(e3);

			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t3, NULL) == EINTR)
				;
		}
		now = mono_ns();
		home = sched_getcpu() == w->cpu;
		judge(w, 1, now, e3, "clock_nanosleep early");

		if (read(tick, &e, sizeof(e)) == sizeof(e))
			expiries += e;
		/*
		 * The clock after the read: every expiry it counted happened
		 * by then, while one read before it may be milliseconds old
		 * if this vCPU was descheduled in between.
		 */
		now = mono_ns();
		if ((int64_t)expiries * 1500 * 1000 > now - periodic_start) {
			w->periodic_early++;
			note(w, "periodic timerfd ahead of the clock", (int64_t)expiries * 1500 * 1000 -
			     (now - periodic_start));
		}

		pthread_mutex_lock(&lock);
		w->rounds++;
		w->rounds_home += home && cpu_before == w->cpu;
		pthread_cond_broadcast(&progress);
		pthread_mutex_unlock(&lock);
	}
	timer_delete(timer);
	close(oneshot);
	close(tick);
	return NULL;
}

static void *read_clock(void *arg)
{
	struct worker *w = arg;
	int64_t prev = 0;
	uint64_t i;

	pin_cpu(w->cpu);
	for (i = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); i++) {
		int64_t seen = __atomic_load_n(&newest, __ATOMIC_ACQUIRE);
		int64_t a = (i & 1) ? ns_sys() : mono_ns();

		if (a < seen || a < prev) {
			int64_t by = (seen > prev ? seen : prev) - a;

			w->back++;
			if (by > w->worst_back)
				w->worst_back = by;
		}
		prev = a;
		while (seen < a && !__atomic_compare_exchange_n(&newest, &seen, a, 0,
								 __ATOMIC_RELEASE,
								 __ATOMIC_ACQUIRE))
			;
		if ((i & 255) == 0 && sched_getcpu() != w->cpu)
			pin_cpu(w->cpu);
	}
	w->reads = i;
	return NULL;
}

static int set_online(int cpu, int on)
{
	char path[64];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok = f && fgets(buf, len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

static int clockevent(int cpu, char *buf, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/clockevents/clockevent%d/current_device", cpu);
	return read_line(path, buf, len);
}

/*
 * Timer interrupts taken by @cpu: the per-CPU interrupt on GIC PPI 26-30
 * (the generic timer's, whatever its driver calls it) that moves most.
 */
static long timer_irqs(int cpu)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[512];
	long best = -1;

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':'), *end;
		long counts[NCPU];
		int i, hw;

		if (!p)
			continue;
		p++;
		for (i = 0; i < NCPU; i++) {
			counts[i] = strtol(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (i < NCPU || !(p = strstr(p, "GICv3")))
			continue;
		hw = strtol(p + 5, NULL, 10);
		if (hw >= 26 && hw <= 30 && counts[cpu] > best)
			best = counts[cpu];
	}
	if (f)
		fclose(f);
	return best;
}

/* Wait until @pred holds, at most BOUND_S seconds; 0 when it did. */
static int await(int (*pred)(void *), void *arg)
{
	struct timespec limit;
	int err = 0, ok;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += BOUND_S;
	pthread_mutex_lock(&lock);
	while (!(ok = pred(arg)) && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&progress, &lock, &limit);
	pthread_mutex_unlock(&lock);
	return !ok;
}

static uint64_t mark[NCPU], mark_home[NCPU];

static int all_moved(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < NCPU; i++)
		if (workers[i].rounds < mark[i] + 2)
			return 0;
	return 1;
}

static int home_again(void *arg)
{
	int cpu = *(int *)arg;

	return workers[cpu].rounds_home >= mark_home[cpu] + 2;
}

int main(void)
{
	const char *names[] = {
		"offline_online_cycles",
		"every_timer_fires",
		"no_timer_fires_early",
		"monotonic_never_steps_back_across_cpus",
		"clockevent_back_on_every_cpu",
		"kernel_not_tainted",
	};
	int cycles = 0, bad_cycles = 0, stuck = 0, ce_bad = 0, irq_bad = 0, wake_bad = 0;
	uint64_t rs, fired = 0, lost = 0, early = 0, reads = 0, back = 0;
	int64_t worst = 0;
	char why[160] = "", buf[64];
	int i, have_ce = 1;

	ktap_plan(6);
	stress_init("hotplug");
	if (stress.replay_other)
		return stress_skip_all(names, 6);
	for (i = 1; i < NCPU; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", i);
		if (access(path, W_OK) || stress_cpus() < NCPU) {
			for (i = 0; i < 6; i++)
				ktap_skip(names[i], "needs CPUs 0-3 with 1-3 hotpluggable (has %d CPUs; make stress boots with SMP=4)",
					  stress_cpus());
			return ktap_finish();
		}
	}
	for (i = 0; i < NCPU; i++)
		if (clockevent(i, ce_name[i], sizeof(ce_name[i])))
			have_ce = 0;
	rs = stress.seed;
	stress_taint_start();
	pin_cpu(0);

	for (i = 0; i < NCPU; i++) {
		workers[i].cpu = i;
		if (pthread_create(&workers[i].handle, NULL, work, &workers[i]) ||
		    pthread_create(&workers[i].reader, NULL, read_clock, &workers[i])) {
			ktap_diag("pthread_create: %s", strerror(errno));
			return 1;
		}
	}

	while (stress.bounded ? (uint64_t)cycles < stress.cases :
	       cycles < MIN_CYCLES || stress_time_left()) {
		int set = 1 + rnd_below(&rs, 7), cpu, failed = 0;
		long irq_before[NCPU];

		for (cpu = 1; cpu < NCPU; cpu++)
			irq_before[cpu] = timer_irqs(cpu);
		pthread_mutex_lock(&lock);
		for (i = 0; i < NCPU; i++)
			mark[i] = workers[i].rounds;
		pthread_mutex_unlock(&lock);

		for (cpu = 1; cpu < NCPU; cpu++)
			if (set & 1 << (cpu - 1) && set_online(cpu, 0))
				failed = 1;
		/* timers keep firing while they are away */
		if (await(all_moved, NULL)) {
			stuck++;
			if (!why[0])
				snprintf(why, sizeof(why), "cycle %d: workers stalled with CPUs %#x offline",
					 cycles, set << 1);
		}
		pthread_mutex_lock(&lock);
		for (i = 0; i < NCPU; i++)
			mark_home[i] = workers[i].rounds_home;
		pthread_mutex_unlock(&lock);
		for (cpu = 1; cpu < NCPU; cpu++)
			if (set & 1 << (cpu - 1) && set_online(cpu, 1))
				failed = 1;

		for (cpu = 1; cpu < NCPU; cpu++) {
			if (!(set & 1 << (cpu - 1)))
				continue;
			/* woken on that CPU by a timer there, twice */
			if (await(home_again, &cpu)) {
				wake_bad++;
				if (!why[0])
					snprintf(why, sizeof(why), "cycle %d: no wake-up on CPU %d after it came back",
						 cycles, cpu);
			}
			if (have_ce && (clockevent(cpu, buf, sizeof(buf)) ||
					strcmp(buf, ce_name[cpu]))) {
				ce_bad++;
				if (!why[0])
					snprintf(why, sizeof(why), "cycle %d: CPU %d clockevent \"%s\", was \"%s\"",
						 cycles, cpu, buf, ce_name[cpu]);
			}
			if (timer_irqs(cpu) <= irq_before[cpu]) {
				irq_bad++;
				if (!why[0])
					snprintf(why, sizeof(why), "cycle %d: CPU %d timer interrupts stayed at %ld",
						 cycles, cpu, irq_before[cpu]);
			}
		}
		bad_cycles += failed;
		cycles++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NCPU; i++) {
		set_online(i, 1);
		pthread_join(workers[i].handle, NULL);
		pthread_join(workers[i].reader, NULL);
	}

	for (i = 0; i < NCPU; i++) {
		struct worker *w = &workers[i];

		fired += w->fired;
		lost += w->lost;
		early += w->early + w->periodic_early;
		reads += w->reads;
		back += w->back;
		if (w->worst_back > worst)
			worst = w->worst_back;
		ktap_diag("CPU %d: %" PRIu64 " rounds (%" PRIu64 " on its CPU), %" PRIu64
			  " timers fired, %" PRIu64 " clock reads%s%s", i, w->rounds,
			  w->rounds_home, w->fired, w->reads, w->first[0] ? "; first: " : "",
			  w->first);
	}
	ktap_diag("%s/hotplug: %d cycles in %.0f s, seed 0x%016" PRIx64 "%s%s", STRESS_ABI,
		  cycles, stress_elapsed(), stress.seed, why[0] ? "; " : "", why);

	ktap_result((uint64_t)cycles >= (stress.bounded ? stress.cases : MIN_CYCLES) &&
		    !bad_cycles, names[0],
		    "%d cycles, %d with a failed offline/online write", cycles, bad_cycles);
	ktap_result(fired && !lost && !stuck, names[1],
		    "%" PRIu64 " fired, %" PRIu64 " lost, %d cycles with stalled workers",
		    fired, lost, stuck);
	ktap_result(!early, names[2], "%" PRIu64 " timers fired before their expiry", early);
	ktap_result(reads && !back, names[3],
		    "%" PRIu64 " of %" PRIu64 " readings older than one already seen (worst %lld ns)",
		    back, reads, (long long)worst);
	if (have_ce)
		ktap_result(!ce_bad && !irq_bad && !wake_bad, names[4],
			    "after online: %d wrong clockevent, %d without timer interrupts, %d without a wake-up there",
			    ce_bad, irq_bad, wake_bad);
	else
		ktap_result(!irq_bad && !wake_bad, names[4],
			    "no clockevent in sysfs; after online: %d without timer interrupts, %d without a wake-up there",
			    irq_bad, wake_bad);
	stress_taint_result(names[5]);
	return ktap_finish();
}
