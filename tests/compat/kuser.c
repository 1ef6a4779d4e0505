// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kuser helpers in the vectors page (ARM kernel_user_helpers ABI):
 * version, cmpxchg and cmpxchg64 results and atomicity under contention
 * from two threads on two CPUs, the barrier, and __kuser_get_tls after
 * the ARM set_tls call.  Without the [vectors] page every case skips.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"

typedef int (*kuser_cmpxchg_t)(int32_t oldval, int32_t newval,
			       volatile int32_t *ptr);
typedef int (*kuser_cmpxchg64_t)(const int64_t *oldval, const int64_t *newval,
				 volatile int64_t *ptr);
typedef void (*kuser_barrier_t)(void);
typedef uintptr_t (*kuser_get_tls_t)(void);

#define kuser_helper_version	(*(const int32_t *)0xffff0ffc)
#define kuser_cmpxchg		((kuser_cmpxchg_t)0xffff0fc0)
#define kuser_cmpxchg64		((kuser_cmpxchg64_t)0xffff0f60)
#define kuser_memory_barrier	((kuser_barrier_t)0xffff0fa0)
#define kuser_get_tls		((kuser_get_tls_t)0xffff0fe0)

#define ARM_SET_TLS		0x0f0005
#define ROUNDS			100000

static int have_vectors(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vectors]") && !strncmp(line, "ffff0000-", 9))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static volatile int32_t counter32;
static volatile int64_t counter64;
static volatile int go;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ktap_diag("cannot pin to CPU %d", cpu);
}

/* Add one to both counters ROUNDS times with the helpers alone. */
static void *hammer(void *arg)
{
	int i;

	pin((intptr_t)arg);
	while (!go)
		;
	for (i = 0; i < ROUNDS; i++) {
		int32_t old32;
		int64_t old64, new64;

		do {
			old32 = counter32;
		} while (kuser_cmpxchg(old32, old32 + 1, &counter32));

		/* Carry into the high word to exercise both halves. */
		do {
			old64 = counter64;
			new64 = old64 + 0x100000001LL;
		} while (kuser_cmpxchg64(&old64, &new64, &counter64));
	}
	return NULL;
}

/* The C flag a helper returns with: set when the store happened. */
static int carry_after_cmpxchg(int32_t oldval, int32_t newval,
			       volatile int32_t *ptr, int *ret)
{
	register int32_t r0 asm("r0") = oldval;
	register int32_t r1 asm("r1") = newval;
	register volatile int32_t *r2 asm("r2") = ptr;
	uint32_t psr;

	asm volatile("blx	%[fn]\n\t"
		     "mrs	%[psr], apsr\n\t"
		     : "+r"(r0), "+r"(r1), "+r"(r2), [psr] "=&r"(psr)
		     : [fn] "r"(0xffff0fc0)
		     : "r3", "r12", "lr", "memory", "cc");
	*ret = r0;
	return !!(psr & (1u << 29));
}

static int carry_after_cmpxchg64(const int64_t *oldp, const int64_t *newp,
				 volatile int64_t *ptr, int *ret)
{
	register const int64_t *r0 asm("r0") = oldp;
	register const int64_t *r1 asm("r1") = newp;
	register volatile int64_t *r2 asm("r2") = ptr;
	uint32_t psr;

	asm volatile("blx	%[fn]\n\t"
		     "mrs	%[psr], apsr\n\t"
		     : "+r"(r0), "+r"(r1), "+r"(r2), [psr] "=&r"(psr)
		     : [fn] "r"(0xffff0f60)
		     : "r3", "r12", "lr", "memory", "cc");
	*ret = (int)(intptr_t)r0;
	return !!(psr & (1u << 29));
}

static void test_results(void)
{
	volatile int32_t v = 5;
	volatile int64_t w = 0x1122334455667788LL;
	int64_t oldw = 0x1122334455667788LL, neww = -2, wrong = 7;
	int ret_ok, ret_bad, ret64_ok, ret64_bad;

	ret_bad = kuser_cmpxchg(4, 9, &v);
	ktap_result(ret_bad != 0 && v == 5, "cmpxchg_mismatch",
		    "returned %d, value %d", ret_bad, v);
	ret_ok = kuser_cmpxchg(5, 9, &v);
	ktap_result(ret_ok == 0 && v == 9, "cmpxchg_store",
		    "returned %d, value %d", ret_ok, v);

	ret64_bad = kuser_cmpxchg64(&wrong, &neww, &w);
	ret64_ok = kuser_cmpxchg64(&oldw, &neww, &w);
	ktap_result(ret64_bad != 0 && ret64_ok == 0 && w == -2,
		    "cmpxchg64_results", "mismatch %d, match %d, value %#llx",
		    ret64_bad, ret64_ok, (unsigned long long)w);
}

static void test_carry(void)
{
	volatile int32_t v = 1;
	int ret_ok, ret_bad, c_ok, c_bad;

	c_ok = carry_after_cmpxchg(1, 2, &v, &ret_ok);
	c_bad = carry_after_cmpxchg(1, 3, &v, &ret_bad);
	ktap_result(ret_ok == 0 && c_ok && ret_bad != 0 && !c_bad,
		    "cmpxchg_carry_flag", "store: r0 %d C %d, miss: r0 %d C %d",
		    ret_ok, c_ok, ret_bad, c_bad);
}

/* The same for __kuser_cmpxchg64, a miss in either half included. */
static void test_carry64(void)
{
	volatile int64_t w = 0x100000001LL;
	const int64_t old = 0x100000001LL, new = 0x200000002LL;
	const int64_t old_lo = 0x200000001LL, old_hi = 0x100000002LL;
	int ret_ok, ret_lo, ret_hi, c_ok, c_lo, c_hi;

	c_ok = carry_after_cmpxchg64(&old, &new, &w, &ret_ok);
	/* w is now new: each half of these differs from it. */
	c_lo = carry_after_cmpxchg64(&old_lo, &old, &w, &ret_lo);
	c_hi = carry_after_cmpxchg64(&old_hi, &old, &w, &ret_hi);
	ktap_result(ret_ok == 0 && c_ok && ret_lo != 0 && !c_lo &&
		    ret_hi != 0 && !c_hi && w == new, "cmpxchg64_carry_flag",
		    "store: r0 %d C %d, low miss: r0 %d C %d, high miss: r0 %d C %d",
		    ret_ok, c_ok, ret_lo, c_lo, ret_hi, c_hi);
}

static void test_contention(void)
{
	pthread_t t[2];
	int i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		ktap_diag("one CPU online: the threads will share it");
	counter32 = 0;
	counter64 = 0;
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, hammer, (void *)(intptr_t)i);
	go = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ktap_result(counter32 == 2 * ROUNDS, "cmpxchg_contended",
		    "counter %d, wanted %d", counter32, 2 * ROUNDS);
	ktap_result(counter64 == 2 * ROUNDS * 0x100000001LL,
		    "cmpxchg64_contended", "counter %#llx, wanted %#llx",
		    (unsigned long long)counter64,
		    (unsigned long long)(2 * ROUNDS * 0x100000001LL));
}

/*
 * set_tls replaces the thread pointer libc uses for TLS, so nothing
 * may call into libc until the old value is back: the whole exchange
 * is one asm block with raw syscalls, a sched_yield in the middle to
 * get the value through a context switch.
 */
static void test_tls(void)
{
	const uintptr_t probe = 0x12345678;
	uintptr_t before, via_helper, via_mrc, after;

	before = kuser_get_tls();
	{
		/* Fixed registers: r7 is saved and used for the numbers. */
		register uintptr_t r4 asm("r4") = probe;
		register uintptr_t r5 asm("r5") = before;
		register uintptr_t r6 asm("r6");

		asm volatile(
			"push	{r7}\n\t"
			"mov	r0, r4\n\t"
			"ldr	r7, =%c[set_tls]\n\t"
			"svc	#0\n\t"
			"mov	r7, #158\n\t"	/* sched_yield */
			"svc	#0\n\t"
			"mrc	p15, 0, r6, c13, c0, 3\n\t"
			"ldr	r7, =%c[set_tls]\n\t"
			"mov	r0, r5\n\t"
			"svc	#0\n\t"
			"pop	{r7}\n\t"
			"b	1f\n\t"
			".ltorg\n"
			"1:\n\t"
			: "=r"(r6)
			: "r"(r4), "r"(r5), [set_tls] "i"(ARM_SET_TLS)
			: "r0", "memory");
		via_mrc = r6;
	}
	after = kuser_get_tls();
	{
		/* The helper itself, with the probe installed the same way. */
		register uintptr_t r4 asm("r4") = probe;
		register uintptr_t r5 asm("r5") = before;
		register uintptr_t r6 asm("r6") = 0xffff0fe0;

		asm volatile(
			"push	{r7}\n\t"
			"mov	r0, r4\n\t"
			"ldr	r7, =%c[set_tls]\n\t"
			"svc	#0\n\t"
			"blx	r6\n\t"
			"mov	r6, r0\n\t"
			"ldr	r7, =%c[set_tls]\n\t"
			"mov	r0, r5\n\t"
			"svc	#0\n\t"
			"pop	{r7}\n\t"
			"b	1f\n\t"
			".ltorg\n"
			"1:\n\t"
			: "+r"(r6)
			: "r"(r4), "r"(r5), [set_tls] "i"(ARM_SET_TLS)
			: "r0", "r1", "r2", "r3", "r12", "lr", "memory", "cc");
		via_helper = r6;
	}
	ktap_result(via_mrc == probe && via_helper == probe && after == before &&
		    kuser_get_tls() == before, "get_tls_after_set_tls",
		    "TPIDRURO %#lx, helper %#lx, restored %#lx of %#lx",
		    (unsigned long)via_mrc, (unsigned long)via_helper,
		    (unsigned long)after, (unsigned long)before);
}

int main(void)
{
	static const char *const names[] = {
		"helper_version", "cmpxchg_mismatch", "cmpxchg_store",
		"cmpxchg64_results", "cmpxchg_carry_flag", "cmpxchg64_carry_flag",
		"cmpxchg_contended",
		"cmpxchg64_contended", "get_tls_after_set_tls",
	};
	unsigned int i;
	int version;

	ktap_plan(9);
	if (!have_vectors()) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			ktap_skip(names[i], "no [vectors] page (kuser helpers off)");
		return ktap_finish();
	}

	version = kuser_helper_version;
	kuser_memory_barrier();
	/* Version 5 is the one that has __kuser_cmpxchg64. */
	ktap_result(version >= 5, "helper_version", "version %d", version);

	test_results();
	test_carry();
	test_carry64();
	test_contention();
	test_tls();
	return ktap_finish();
}
