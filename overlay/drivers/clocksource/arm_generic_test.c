// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "arm_generic": what of arm_generic.c no emulated machine
 * presents.  #included at the end of the driver (with
 * CONFIG_CLKSRC_ARM_GENERIC_KUNIT_TEST) so that it reaches its static
 * functions; run at boot, before init.
 *
 * The figures below are worked out by hand from the architecture and the
 * errata notices, not taken from the code under test.
 */

#include <kunit/test.h>

/* MIDR_EL1 of a few parts: implementer, variant, 0xf, part number, revision */
#define T_MIDR_XGENE1_R0	0x500f0000	/* APM X-Gene 1 (Potenza) */
#define T_MIDR_XGENE1_R3	0x500f0003
#define T_MIDR_XGENE2		0x501f0000	/* variant 1: a sound CVAL */
#define T_MIDR_APM_OTHER	0x500f0010	/* APM, another part number */
#define T_MIDR_CORTEX_A57	0x411fd070
#define T_MIDR_NEOVERSE_N1	0x414fd0c1

static void agt_test_max_delta_xgene1(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_XGENE1_R0, 56), 0x7fffffffULL);
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_XGENE1_R3, 64), 0x7fffffffULL);
}

static void agt_test_max_delta_others(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_XGENE2, 56), BIT_ULL(56) - 1);
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_APM_OTHER, 56), BIT_ULL(56) - 1);
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_CORTEX_A57, 57), BIT_ULL(57) - 1);
	KUNIT_EXPECT_EQ(test, agt_max_delta(T_MIDR_NEOVERSE_N1, 64), U64_MAX);
}

/* The clock event this CPU registered uses the range its MIDR allows */
static void agt_test_max_delta_registered(struct kunit *test)
{
	u64 registered, wanted;

	if (!agt.rate || !agt.width)
		kunit_skip(test, "the CPU timers do not run");
	preempt_disable();
	registered = this_cpu_ptr(&agt_evt)->max_delta_ticks;
	wanted = agt_max_delta(read_cpuid_id(), agt.width);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, registered, wanted);
}

/* 40 years at each rate, in the fewest bits, never below 56 */
static void agt_test_counter_width(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, agt_counter_width(1), 56U);
	KUNIT_EXPECT_EQ(test, agt_counter_width(24000000), 56U);	/* 3.03e16 */
	KUNIT_EXPECT_EQ(test, agt_counter_width(50000000), 56U);	/* 6.31e16 */
	KUNIT_EXPECT_EQ(test, agt_counter_width(62500000), 57U);	/* 7.88e16 */
	KUNIT_EXPECT_EQ(test, agt_counter_width(1000000000), 61U);	/* 1.26e18 */
	KUNIT_EXPECT_EQ(test, agt_counter_width(U32_MAX), 63U);	/* 5.42e18 */
}

/* Trigger bit n: an event every 2^(n+1) ticks, at most 100 us apart */
static void agt_test_evtstrm_bit(struct kunit *test)
{
	static const u32 rates[] = {
		20000, 1000000, 10000000, 19200000, 24000000, 25000000,
		50000000, 62500000, 100000000, 200000000, 1000000000,
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, agt_evtstrm_bit(62500000), 11);	/* 65.5 us */
	KUNIT_EXPECT_EQ(test, agt_evtstrm_bit(24000000), 10);	/* 85.3 us */
	KUNIT_EXPECT_EQ(test, agt_evtstrm_bit(1000000), 5);	/* 64 us */
	KUNIT_EXPECT_EQ(test, agt_evtstrm_bit(1000000000), 15);	/* EVNTI's top */
	KUNIT_EXPECT_EQ(test, agt_evtstrm_bit(10000), -1);	/* 1 tick: none */

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		int bit = agt_evtstrm_bit(rates[i]);
		u64 period_ns, next_ns;

		KUNIT_ASSERT_GE(test, bit, 0);
		period_ns = div_u64(BIT_ULL(bit + 1) * NSEC_PER_SEC, rates[i]);
		next_ns = div_u64(BIT_ULL(bit + 2) * NSEC_PER_SEC, rates[i]);
		KUNIT_EXPECT_LE_MSG(test, period_ns, 100000ULL, "rate %u", rates[i]);
		if (bit < ARM_GENERIC_EVNTI_MAX)
			KUNIT_EXPECT_GT_MSG(test, next_ns, 100000ULL,
					    "rate %u: bit %d is not the largest",
					    rates[i], bit);
	}
}

/* The shared read: the view asked for, filtered when asked */
static void agt_test_counter_reader(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, agt_counter_reader(false, false), &agt_count_virt);
	KUNIT_EXPECT_PTR_EQ(test, agt_counter_reader(true, false), &agt_count_phys);
	KUNIT_EXPECT_PTR_EQ(test, agt_counter_reader(false, true),
			    &agt_count_virt_filtered);
	KUNIT_EXPECT_PTR_EQ(test, agt_counter_reader(true, true),
			    &agt_count_phys_filtered);
	if (agt.rate)
		KUNIT_EXPECT_PTR_EQ(test, arch_timer_read_counter,
				    agt_counter_reader(agt.phys_counter,
						       agt_reads_filtered()));
}

static void agt_test_el0_kctl(struct kunit *test)
{
	/* EVNTI=11, EVNTEN, EL0VCTEN; bits 10, 11 and 16 kept */
	KUNIT_EXPECT_EQ(test, agt_el0_kctl(0xffffffff, false, 11),
			0xfffdfcb6U);
	/* no EVNTEN, no EVNTI, no EL0VCTEN (trapped) */
	KUNIT_EXPECT_EQ(test, agt_el0_kctl(0xffffffff, true, -1), 0xfffdfc00U);
	KUNIT_EXPECT_EQ(test, agt_el0_kctl(0, false, 0), 0x6U);
	KUNIT_EXPECT_EQ(test, agt_el0_kctl(0xc00, true, 15), 0xcf4U);
}

static void agt_test_ppi_trigger(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, agt_ppi_trigger(IRQ_TYPE_LEVEL_HIGH),
			(unsigned int)IRQ_TYPE_LEVEL_HIGH);
	KUNIT_EXPECT_EQ(test, agt_ppi_trigger(IRQ_TYPE_LEVEL_LOW),
			(unsigned int)IRQ_TYPE_LEVEL_LOW);
	KUNIT_EXPECT_EQ(test, agt_ppi_trigger(IRQ_TYPE_EDGE_RISING),
			(unsigned int)IRQ_TYPE_LEVEL_LOW);
	KUNIT_EXPECT_EQ(test, agt_ppi_trigger(IRQ_TYPE_EDGE_BOTH),
			(unsigned int)IRQ_TYPE_LEVEL_LOW);
	KUNIT_EXPECT_EQ(test, agt_ppi_trigger(IRQ_TYPE_NONE),
			(unsigned int)IRQ_TYPE_LEVEL_LOW);
}

/*
 * Across a CPU power-down, CNTKCTL_EL1 comes back as it went down, even
 * where that is not what the CPU started with: here EL0's counter access
 * off, as process.c leaves it for a 32-bit task on an erratum-1418040 CPU.
 */
static void agt_test_pm_restores_kctl(struct kunit *test, unsigned long exit)
{
	const u32 ours = ARM_GENERIC_KCTL_EL0PCTEN | ARM_GENERIC_KCTL_EL0VCTEN |
			 ARM_GENERIC_KCTL_EVNTEN | ARM_GENERIC_KCTL_EVNTI;
	u32 was, down, after;
	bool evtstrm;
	unsigned long flags;

	if (!agt.rate)
		kunit_skip(test, "the CPU timers do not run");
	local_irq_save(flags);
	was = read_sysreg(cntkctl_el1);
	down = was & ~ARM_GENERIC_KCTL_EL0VCTEN;
	write_sysreg(down, cntkctl_el1);
	isb();
	agt_cpu_pm(&agt_cpu_pm_nb, CPU_PM_ENTER, NULL);
	/* What a powered-down CPU may come back with */
	write_sysreg(down ^ ours, cntkctl_el1);
	isb();
	agt_cpu_pm(&agt_cpu_pm_nb, exit, NULL);
	after = read_sysreg(cntkctl_el1);
	evtstrm = arch_timer_evtstrm_available();
	write_sysreg(was, cntkctl_el1);
	isb();
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, after, down);
	KUNIT_EXPECT_EQ(test, evtstrm, agt.evnti >= 0);
}

static void agt_test_pm_exit(struct kunit *test)
{
	agt_test_pm_restores_kctl(test, CPU_PM_EXIT);
}

static void agt_test_pm_enter_failed(struct kunit *test)
{
	agt_test_pm_restores_kctl(test, CPU_PM_ENTER_FAILED);
}

/* The errata a timer node can ask for, all built */
#define AGT_TEST_DT_ERRATA (IS_ENABLED(CONFIG_FSL_ERRATUM_A008585) &&	\
			    IS_ENABLED(CONFIG_HISILICON_ERRATUM_161010101) && \
			    IS_ENABLED(CONFIG_SUN50I_ERRATUM_UNKNOWN1))

#ifdef CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND
/* A series of counter values for the read filters to chew on */
static const u64 *agt_test_script;
static unsigned int agt_test_reads, agt_test_script_len;

static u64 __maybe_unused agt_test_read(void)
{
	unsigned int i = min(agt_test_reads++, agt_test_script_len - 1);

	return agt_test_script[i];
}

/* A filter over a series of reads: the value it gives, after how many */
struct agt_test_series {
	u64 want;
	unsigned int reads, len;
	u64 read[6];
};

static void agt_test_filter(struct kunit *test, u64 (*filter)(agt_raw_read_fn),
			    const struct agt_test_series *series, unsigned int n)
{
	unsigned int i;
	u64 got;

	for (i = 0; i < n; i++) {
		agt_test_script = series[i].read;
		agt_test_script_len = series[i].len;
		agt_test_reads = 0;
		got = filter(agt_test_read);
		KUNIT_EXPECT_EQ_MSG(test, got, series[i].want, "series %u", i);
		KUNIT_EXPECT_EQ_MSG(test, agt_test_reads, series[i].reads,
				    "series %u", i);
	}
}

/* The filters are always inlined: these give the tests a pointer each */
#ifdef CONFIG_FSL_ERRATUM_A008585
static u64 agt_test_fsl_a008585(agt_raw_read_fn read)
{
	return agt_fsl_a008585(read);
}

/* A bad value never comes twice in a row: the first repeated one */
static void agt_test_filter_fsl(struct kunit *test)
{
	static const struct agt_test_series series[] = {
		{ 7, 4, 5, { 5, 100, 7, 7, 9 } },
		{ 42, 2, 2, { 42, 42 } },
		{ 0x100000000ULL, 3, 3, { 0xffffffffULL, 0x100000000ULL,
					  0x100000000ULL } },
	};

	agt_test_filter(test, agt_test_fsl_a008585, series, ARRAY_SIZE(series));
}
#endif

#ifdef CONFIG_HISILICON_ERRATUM_161010101
static u64 agt_test_hisi_161010101(agt_raw_read_fn read)
{
	return agt_hisi_161010101(read);
}

/* Two reads under 32 ticks apart, forwards; backwards is not close */
static void agt_test_filter_hisi(struct kunit *test)
{
	static const struct agt_test_series series[] = {
		{ 131, 2, 2, { 100, 131 } },
		{ 140, 3, 3, { 100, 132, 140 } },
		{ 5020, 4, 4, { 1000, 1000 + 0x10000, 5000, 5020 } },
		{ 995, 3, 3, { 1000, 990, 995 } },
	};

	agt_test_filter(test, agt_test_hisi_161010101, series,
			ARRAY_SIZE(series));
}
#endif

#ifdef CONFIG_ARM64_ERRATUM_858921
static u64 agt_test_arm_858921(agt_raw_read_fn read)
{
	return agt_arm_858921(read);
}

/* Of two reads, the first when bit 32 moved between them */
static void agt_test_filter_858921(struct kunit *test)
{
	static const struct agt_test_series series[] = {
		{ 0xffffffffULL, 2, 2, { 0xffffffffULL, 0x100000000ULL } },
		{ 0x1ffffffffULL, 2, 2, { 0x1ffffffffULL, 0x200000000ULL } },
		{ 0x100000002ULL, 2, 2, { 0x100000001ULL, 0x100000002ULL } },
	};

	agt_test_filter(test, agt_test_arm_858921, series, ARRAY_SIZE(series));
}
#endif

#ifdef CONFIG_SUN50I_ERRATUM_UNKNOWN1
static u64 agt_test_sun50i_unknown1(agt_raw_read_fn read)
{
	return agt_sun50i_unknown1(read);
}

/* Bits 8..0 all ones or all zeros: read again */
static void agt_test_filter_sun50i(struct kunit *test)
{
	static const struct agt_test_series series[] = {
		{ 0x401, 4, 4, { 0x1ff, 0x200, 0x3ff, 0x401 } },
		{ 0x1fe, 1, 1, { 0x1fe } },
	};

	agt_test_filter(test, agt_test_sun50i_unknown1, series,
			ARRAY_SIZE(series));
}
#endif

#if AGT_TEST_DT_ERRATA
/* The workaround asked for by a timer node with these properties alone */
static const struct arch_timer_erratum_workaround *
agt_test_dt(const char *first, const char *second)
{
	struct property props[2] = {
		{ .name = (char *)first },
		{ .name = (char *)second },
	};
	struct device_node np = { .name = "timer", .properties = props };

	if (second)
		props[0].next = &props[1];
	return agt_erratum_lookup(ate_match_dt, &np);
}

static void agt_test_errata_dt(struct kunit *test)
{
	const struct arch_timer_erratum_workaround *wa;

	KUNIT_EXPECT_NULL(test, agt_test_dt("always-on", NULL));

	wa = agt_test_dt("fsl,erratum-a008585", NULL);
	KUNIT_ASSERT_NOT_NULL(test, wa);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntvct_el0, &agt_fsl_a008585_vct);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntpct_el0, &agt_fsl_a008585_pct);

	wa = agt_test_dt("always-on", "hisilicon,erratum-161010101");
	KUNIT_ASSERT_NOT_NULL(test, wa);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntvct_el0, &agt_hisi_161010101_vct);

	wa = agt_test_dt("allwinner,erratum-unknown1", NULL);
	KUNIT_ASSERT_NOT_NULL(test, wa);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntvct_el0, &agt_sun50i_unknown1_vct);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntpct_el0, &agt_sun50i_unknown1_pct);

	/* two asked for: the first of the table, one per CPU */
	wa = agt_test_dt("hisilicon,erratum-161010101", "fsl,erratum-a008585");
	KUNIT_ASSERT_NOT_NULL(test, wa);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntvct_el0, &agt_fsl_a008585_vct);
}

#endif

#ifdef CONFIG_HISILICON_ERRATUM_161010101
static const struct arch_timer_erratum_workaround *
agt_test_gtdt(const char *oem, const char *table, u32 revision)
{
	struct acpi_table_header h = { .oem_revision = revision };

	memcpy(h.oem_id, oem, ACPI_OEM_ID_SIZE);
	memcpy(h.oem_table_id, table, ACPI_OEM_TABLE_ID_SIZE);
	return agt_erratum_lookup(ate_match_acpi_oem_info, &h);
}

static void agt_test_errata_gtdt(struct kunit *test)
{
	const struct arch_timer_erratum_workaround *wa;

	wa = agt_test_gtdt("HISI  ", "HIP06   ", 0);
	KUNIT_ASSERT_NOT_NULL(test, wa);
	KUNIT_EXPECT_PTR_EQ(test, wa->read_cntvct_el0, &agt_hisi_161010101_vct);
	KUNIT_EXPECT_NOT_NULL(test, agt_test_gtdt("HISI  ", "HIP05   ", 0));
	KUNIT_EXPECT_NOT_NULL(test, agt_test_gtdt("HISI  ", "HIP07   ", 0));
	KUNIT_EXPECT_NULL(test, agt_test_gtdt("HISI  ", "HIP07   ", 1));
	KUNIT_EXPECT_NULL(test, agt_test_gtdt("HISI  ", "HIP08   ", 0));
	KUNIT_EXPECT_NULL(test, agt_test_gtdt("BOCHS ", "BXPC    ", 1));
}

#endif

#if defined(CONFIG_ARM64_ERRATUM_858921) && defined(CONFIG_ARM64_ERRATUM_1418040)
static const struct arch_timer_erratum_workaround *agt_test_cap(int cap)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(agt_errata); i++)
		if (agt_errata[i].match_type == ate_match_local_cap_id &&
		    (uintptr_t)agt_errata[i].id == cap)
			return &agt_errata[i];
	return NULL;
}

/* The per-CPU errata: what each asks for, and which this CPU gets */
static void agt_test_errata_cpu(struct kunit *test)
{
	const struct arch_timer_erratum_workaround *a73, *a76, *want, *got;

	a73 = agt_test_cap(ARM64_WORKAROUND_858921);
	a76 = agt_test_cap(ARM64_WORKAROUND_1418040);
	KUNIT_ASSERT_NOT_NULL(test, a73);
	KUNIT_ASSERT_NOT_NULL(test, a76);
	KUNIT_EXPECT_PTR_EQ(test, a73->read_cntvct_el0, &agt_arm_858921_vct);
	KUNIT_EXPECT_FALSE(test, a73->disable_compat_vdso);
	KUNIT_EXPECT_NULL(test, a76->read_cntvct_el0);
	KUNIT_EXPECT_NULL(test, a76->read_cntpct_el0);
	KUNIT_EXPECT_TRUE(test, a76->disable_compat_vdso);

	preempt_disable();
	want = this_cpu_has_cap(ARM64_WORKAROUND_858921) ? a73 :
	       this_cpu_has_cap(ARM64_WORKAROUND_1418040) ? a76 : NULL;
	got = agt_erratum_lookup(ate_match_local_cap_id, NULL);
	preempt_enable();
	KUNIT_EXPECT_PTR_EQ(test, got, want);
}

static void agt_test_vdso_mode(struct kunit *test)
{
	const struct arch_timer_erratum_workaround *a73, *a76;

	a73 = agt_test_cap(ARM64_WORKAROUND_858921);
	a76 = agt_test_cap(ARM64_WORKAROUND_1418040);
	KUNIT_ASSERT_NOT_NULL(test, a73);
	KUNIT_ASSERT_NOT_NULL(test, a76);
	KUNIT_EXPECT_EQ(test, agt_vdso_mode_with(VDSO_CLOCKMODE_ARCHTIMER, a73),
			VDSO_CLOCKMODE_NONE);
	KUNIT_EXPECT_EQ(test, agt_vdso_mode_with(VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT,
						 a73),
			VDSO_CLOCKMODE_NONE);
	KUNIT_EXPECT_EQ(test, agt_vdso_mode_with(VDSO_CLOCKMODE_ARCHTIMER, a76),
			VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT);
	KUNIT_EXPECT_EQ(test, agt_vdso_mode_with(VDSO_CLOCKMODE_NONE, a76),
			VDSO_CLOCKMODE_NONE);
}
#endif
#endif /* CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND */

static struct kunit_case agt_test_cases[] = {
	KUNIT_CASE(agt_test_max_delta_xgene1),
	KUNIT_CASE(agt_test_max_delta_others),
	KUNIT_CASE(agt_test_max_delta_registered),
	KUNIT_CASE(agt_test_counter_width),
	KUNIT_CASE(agt_test_evtstrm_bit),
	KUNIT_CASE(agt_test_counter_reader),
	KUNIT_CASE(agt_test_el0_kctl),
	KUNIT_CASE(agt_test_ppi_trigger),
	KUNIT_CASE(agt_test_pm_exit),
	KUNIT_CASE(agt_test_pm_enter_failed),
#ifdef CONFIG_FSL_ERRATUM_A008585
	KUNIT_CASE(agt_test_filter_fsl),
#endif
#ifdef CONFIG_HISILICON_ERRATUM_161010101
	KUNIT_CASE(agt_test_filter_hisi),
	KUNIT_CASE(agt_test_errata_gtdt),
#endif
#ifdef CONFIG_ARM64_ERRATUM_858921
	KUNIT_CASE(agt_test_filter_858921),
#endif
#ifdef CONFIG_SUN50I_ERRATUM_UNKNOWN1
	KUNIT_CASE(agt_test_filter_sun50i),
#endif
#if AGT_TEST_DT_ERRATA
	KUNIT_CASE(agt_test_errata_dt),
#endif
#if defined(CONFIG_ARM64_ERRATUM_858921) && defined(CONFIG_ARM64_ERRATUM_1418040)
	KUNIT_CASE(agt_test_errata_cpu),
	KUNIT_CASE(agt_test_vdso_mode),
#endif
	{}
};

static struct kunit_suite agt_test_suite = {
	.name = "arm_generic",
	.test_cases = agt_test_cases,
};

kunit_test_suites(&agt_test_suite);
