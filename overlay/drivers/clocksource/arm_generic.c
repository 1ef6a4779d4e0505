// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARMv8 generic timer, our driver: the system counter becomes the
 * clocksource "arch_sys_counter" and sched_clock, and each CPU's own timer
 * its clock event device "arch_sys_timer".  Probed from a device tree node
 * ("arm,armv8-timer" or "arm,armv7-timer") or from ACPI's GTDT.
 *
 * Which counter and which timer.  Every CPU sees the one system counter
 * twice, as a physical count (CNTPCT_EL0) and as a virtual count
 * (CNTVCT_EL0, the physical one minus CNTVOFF_EL2), each with a timer of
 * its own.  The choice follows where the kernel runs, as the stock driver's
 * does, so that KVM finds the timers it expects free:
 *
 *  - EL1 with no EL2 to be had (a guest, QEMU's default): the virtual
 *    timer and CNTVCT_EL0.  The virtual timer is the one a hypervisor
 *    always leaves to its guest, while the physical timer and counter may
 *    be trapped (CNTHCTL_EL2.EL1PCEN/EL1PCTEN).
 *  - EL2 with VHE (is_kernel_in_hyp_mode()): the kernel is the hypervisor
 *    and owns the EL2 physical timer (its CNTP_*_EL0 accesses land on
 *    CNTHP_*_EL2) and CNTPCT_EL0; the EL1 virtual and physical timers are
 *    left to KVM's guests.
 *  - EL2 without VHE (KVM in nVHE or protected mode): the host runs at EL1
 *    next to its guests.  KVM switches the virtual timer and CNTVOFF_EL2
 *    to each guest's, so the host keeps the EL1 physical timer and
 *    CNTPCT_EL0, which the EL2 code lets EL1 reach.
 *
 * In every case EL0 reads CNTVCT_EL0 (the vDSO); CNTVOFF_EL2 is zero while
 * the host runs, so both views count alike.
 *
 * Events are armed through CVAL, an absolute compare value: the timer
 * reaches as far as the counter does, not just the 2^31 ticks of the
 * signed TVAL down-count (except on APM X-Gene 1, whose CVAL is built on
 * that down-count), and a shut-down timer is left disabled with its
 * interrupt masked, not pending against a stale deadline.
 *
 * A memory-mapped timer frame, when the firmware describes one, is driven
 * by arm_generic_mem.c: the broadcast clock event for CPUs whose own timer
 * stops in deep idle.
 */

#define pr_fmt(fmt) "arm_generic: " fmt

#include <linux/acpi.h>
#include <linux/arm-smccc.h>
#include <linux/bitfield.h>
#include <linux/clockchips.h>
#include <linux/clocksource.h>
#include <linux/clocksource_ids.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/jump_label.h>
#include <linux/irq.h>
#include <linux/kstrtox.h>
#include <linux/log2.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/percpu.h>
#include <linux/ptp_kvm.h>
#include <linux/sched_clock.h>
#include <linux/slab.h>
#include <linux/timecounter.h>

#include <asm/arch_timer.h>
#include <asm/cputype.h>
#include <asm/kver_compat.h>
#include <asm/virt.h>

#include <clocksource/arm_generic.h>

/* Fixed at probe time, read on every event */
static struct {
	u32 rate;			/* counter ticks per second */
	unsigned int width;		/* counter bits */
	int ppi[ARCH_TIMER_MAX_TIMER_PPI]; /* Linux irq of each timer, or 0 */
	enum arch_timer_ppi_nr uses;	/* the timer we drive */
	bool phys_timer;		/* CNTP_* (EL1 or EL2), else CNTV_* */
	bool phys_counter;		/* clocksource reads CNTPCT_EL0 */
	bool stops_in_idle;		/* the timer loses state in deep idle */
	bool stops_in_suspend;		/* the counter stops in suspend */
	int evnti;			/* event stream trigger bit, <0: none */
} agt __ro_after_init = {
	.evnti = -1,
};

static DEFINE_PER_CPU(struct clock_event_device, agt_evt);

/* CPUs whose WFE is woken by the event stream */
static cpumask_t agt_evtstrm_cpus;

static bool agt_evtstrm_wanted __ro_after_init =
	IS_ENABLED(CONFIG_ARM_ARCH_TIMER_EVTSTREAM);

/* Same switch, same name as the stock driver's, so command lines carry over */
static int __init agt_evtstrm_param(char *arg)
{
	return kstrtobool(arg, &agt_evtstrm_wanted);
}
early_param("clocksource.arm_arch_timer.evtstrm", agt_evtstrm_param);

/*
 * Counter errata.  Some parts can return a wrong count from CNTPCT_EL0 or
 * CNTVCT_EL0 now and then; each workaround below is a read that filters
 * the bad values out, at the price of two or more reads.  Which one a CPU
 * needs comes from the firmware (a device tree property, the GTDT's OEM
 * ids: every CPU) or from the CPU itself (a capability cpu_errata.c sets
 * from the MIDR: that CPU alone), and is kept where asm/arch_timer.h's
 * __arch_counter_get_c[pv]ct_stable() look for it, udelay() included.
 *
 * With a read workaround engaged anywhere:
 *  - the clocksource, sched_clock, KVM's timecounter and traps.c's CNTVCT
 *    emulation (all through arch_timer_read_counter) and set_next_event
 *    read through it; a static key keeps that test out of the way on
 *    every other machine;
 *  - EL0 may not read CNTVCT_EL0 directly on an affected CPU: the access
 *    traps and the kernel answers with a filtered read;
 *  - the vDSO, which cannot filter, hands clock_gettime() and friends to
 *    the system call (VDSO_CLOCKMODE_NONE).
 * Erratum 1418040 (Cortex-A76, Neoverse-N1) needs no read filter: an
 * AArch32 read of the 64-bit counter may be wrong, so only the 32-bit vDSO
 * falls back (VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT), and process.c traps a
 * 32-bit task's counter reads on such a CPU.
 */
#ifdef CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND
/*
 * Exported as the stock driver does: asm/arch_timer.h's stable reads,
 * which a module may inline, look a CPU's workaround up here.
 */
DEFINE_PER_CPU(const struct arch_timer_erratum_workaround *, timer_unstable_counter_workaround);
EXPORT_PER_CPU_SYMBOL_GPL(timer_unstable_counter_workaround);

static DEFINE_STATIC_KEY_FALSE(agt_filtered_reads);
#define agt_reads_filtered()	static_branch_unlikely(&agt_filtered_reads)

/*
 * The filtered reads look up the running CPU's workaround, so they must
 * not migrate half way: kernels after 6.1 leave that to the caller.
 */
static noinline notrace u64 agt_count_virt_filtered(void)
{
	u64 count;

	preempt_disable_notrace();
	count = __arch_counter_get_cntvct_stable();
	preempt_enable_notrace();
	return count;
}

static noinline notrace u64 agt_count_phys_filtered(void)
{
	u64 count;

	preempt_disable_notrace();
	count = __arch_counter_get_cntpct_stable();
	preempt_enable_notrace();
	return count;
}
#else
#define agt_reads_filtered()		false
#define agt_count_virt_filtered		agt_count_virt
#define agt_count_phys_filtered		agt_count_phys
#endif

static notrace u64 agt_count_virt(void)
{
	return __arch_counter_get_cntvct();
}

static notrace u64 agt_count_phys(void)
{
	return __arch_counter_get_cntpct();
}

typedef u64 (*agt_counter_fn)(void);

/*
 * The read of the shared paths (clocksource, sched_clock, KVM's
 * timecounter, udelay()): filtered once some CPU needs it.  A pointer
 * chosen at start, as in the stock driver, so that the unfiltered read
 * tests nothing on the way (a static key is a load and a compare where
 * CONFIG_JUMP_LABEL is off).
 */
static agt_counter_fn agt_counter_reader(bool phys, bool filtered)
{
	if (filtered)
		return phys ? agt_count_phys_filtered : agt_count_virt_filtered;
	return phys ? agt_count_phys : agt_count_virt;
}

/*
 * get_cycles(), traps.c's CNTVCT emulation and perf's sched_clock test call
 * through this pointer; it is valid before probe (virtual view) and points
 * at the counter sched_clock uses afterwards.
 */
agt_counter_fn arch_timer_read_counter __ro_after_init = agt_count_virt;
EXPORT_SYMBOL_GPL(arch_timer_read_counter);

u32 arch_timer_get_rate(void)
{
	return agt.rate;
}

/*
 * Per CPU, like the stock driver: a task may ask from preemptible context,
 * which is fine since every CPU a task can run on has the stream or none
 * does, except briefly around hotplug.
 */
bool arch_timer_evtstrm_available(void)
{
	return cpumask_test_cpu(raw_smp_processor_id(), &agt_evtstrm_cpus);
}

static u64 agt_cc_read(const struct cyclecounter *cc)
{
	return arch_timer_read_counter();
}

static struct cyclecounter agt_cc __ro_after_init = {
	.read	= agt_cc_read,
};

/*
 * What KVM's timer emulation takes from us: the host interrupts of the
 * EL1 virtual timer and, when the kernel is the hypervisor (VHE), of the
 * EL1 physical timer, and the counter as a timecounter.  Without VHE the
 * host itself drives the EL1 physical timer, so KVM gets none and
 * emulates its guests' physical timer in software.
 */
static struct arch_timer_kvm_info agt_kvm_info;

struct arch_timer_kvm_info *arch_timer_get_kvm_info(void)
{
	return &agt_kvm_info;
}

static u64 agt_cs_read(struct clocksource *cs)
{
	return arch_timer_read_counter();
}

/* The id lets ptp_kvm and KVM's PTP service recognise the counter */
static struct clocksource agt_clocksource = {
	.name		= "arch_sys_counter",
	.id		= CSID_ARM_ARCH_COUNTER,
	.rating		= 400,
	.read		= agt_cs_read,
	.flags		= CLOCK_SOURCE_IS_CONTINUOUS |
			  CLOCK_SOURCE_VALID_FOR_HRES,
	.vdso_clock_mode = VDSO_CLOCKMODE_ARCHTIMER,
};

#if IS_ENABLED(CONFIG_PTP_1588_CLOCK_KVM)
/*
 * ptp_kvm, in a KVM guest, asks the host for its wall clock and for the
 * count of our counter at that same instant (KVM's PTP service, one SMCCC
 * call): the guest's /dev/ptp clock and its precise cross-timestamp.  The
 * host answers in the view the caller names, so name the one the
 * clocksource reads: get_device_system_crosststamp() turns the count into
 * guest time with this clocksource, and in a guest the two views differ
 * by CNTVOFF_EL2.  Each result register holds 32 bits; a negative a0 is
 * the host's refusal (no such service, or its clocksource is not the
 * architected counter).
 */
#if AA64_PTP_CS_BY_ID
#define AGT_PTP_CS_TYPE	enum clocksource_ids
#define AGT_PTP_CS	CSID_ARM_ARCH_COUNTER
#else
#define AGT_PTP_CS_TYPE	struct clocksource *
#define AGT_PTP_CS	(&agt_clocksource)
#endif

int kvm_arch_ptp_get_crosststamp(u64 *cycle, struct timespec64 *ts,
				 AGT_PTP_CS_TYPE *cs)
{
	u32 view = agt.phys_counter ? KVM_PTP_PHYS_COUNTER :
				      KVM_PTP_VIRT_COUNTER;
	struct arm_smccc_res res;

	if (!IS_ENABLED(CONFIG_HAVE_ARM_SMCCC_DISCOVERY))
		return -EOPNOTSUPP;

	arm_smccc_1_1_invoke(ARM_SMCCC_VENDOR_HYP_KVM_PTP_FUNC_ID, view, &res);
	if ((s32)res.a0 < 0)
		return -EOPNOTSUPP;

	*ts = ns_to_timespec64(((u64)(u32)res.a0 << 32) | (u32)res.a1);
	if (cycle)
		*cycle = ((u64)(u32)res.a2 << 32) | (u32)res.a3;
	if (cs)
		*cs = AGT_PTP_CS;
	return 0;
}
EXPORT_SYMBOL_GPL(kvm_arch_ptp_get_crosststamp);
#endif

#ifdef CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND
/*
 * The filters below take the read they filter as an argument: the
 * counter itself in the kernel (a constant, inlined), a scripted series
 * of values in the KUnit tests.
 */
typedef u64 (*agt_raw_read_fn)(void);

static __always_inline u64 agt_raw_pct(void)
{
	return read_sysreg(cntpct_el0);
}

static __always_inline u64 agt_raw_vct(void)
{
	return read_sysreg(cntvct_el0);
}

/*
 * Bounds on the filtering loops below, far above what the parts were seen
 * to need; running out means the counter is broken beyond the erratum.
 */
#define AGT_FSL_A008585_TRIES		200
#define AGT_HISI_161010101_TRIES	50
#define AGT_SUN50I_UNKNOWN1_TRIES	150

/*
 * Read until two reads in a row are at most @max_step ticks apart (the
 * second no earlier than the first), and return the second.
 */
static __always_inline u64 agt_settled_count(agt_raw_read_fn read,
					     u64 max_step, int tries)
{
	u64 prev, cur = read();

	do {
		prev = cur;
		cur = read();
	} while (unlikely(cur - prev > max_step) && --tries);
	WARN_ON_ONCE(!tries);
	return cur;
}

/* Freescale A-008585: a bad value never comes twice in a row. */
static __always_inline u64 agt_fsl_a008585(agt_raw_read_fn read)
{
	return agt_settled_count(read, 0, AGT_FSL_A008585_TRIES);
}

/*
 * HiSilicon 161010101: a read may be off by a large amount, up to twice in
 * a row (more if interrupts come between).  Two reads less than 32 ticks
 * apart are both good.
 */
static __always_inline u64 agt_hisi_161010101(agt_raw_read_fn read)
{
	return agt_settled_count(read, 31, AGT_HISI_161010101_TRIES);
}

/*
 * ARM 858921 (Cortex-A73): a read that races a carry into bit 32 may be
 * wrong.  Of two reads, the second is good unless bit 32 differs between
 * them; then the first is.
 */
static __always_inline u64 agt_arm_858921(agt_raw_read_fn read)
{
	u64 first = read();
	u64 second = read();

	return (first ^ second) & BIT_ULL(32) ? first : second;
}

/*
 * Allwinner A64 ("unknown1"): while bits 10 and up roll over, the low bits
 * read as garbage, so the count can jump either way; such reads show all
 * ones or all zeros in bits 8..0.  Skip them: at most three periods of the
 * 24 MHz counter.
 */
static __always_inline u64 agt_sun50i_unknown1(agt_raw_read_fn read)
{
	int tries = AGT_SUN50I_UNKNOWN1_TRIES;
	u64 count, low;

	do {
		count = read();
		low = count & GENMASK_ULL(8, 0);
	} while ((low == 0 || low == GENMASK_ULL(8, 0)) && --tries);
	WARN_ON_ONCE(!tries);
	return count;
}

/* The GTDTs whose machines have HiSilicon 161010101 */
struct agt_gtdt_id {
	char oem[ACPI_OEM_ID_SIZE + 1];
	char table[ACPI_OEM_TABLE_ID_SIZE + 1];
	u32 revision;
};

static const struct agt_gtdt_id agt_hisi_161010101_gtdts[] __maybe_unused = {
	{ "HISI  ", "HIP05   ", 0 },
	{ "HISI  ", "HIP06   ", 0 },
	{ "HISI  ", "HIP07   ", 0 },
	{ }
};

/* The entry points asm/arch_timer.h calls, a physical and a virtual one */
#ifdef CONFIG_FSL_ERRATUM_A008585
static notrace u64 agt_fsl_a008585_pct(void) { return agt_fsl_a008585(agt_raw_pct); }
static notrace u64 agt_fsl_a008585_vct(void) { return agt_fsl_a008585(agt_raw_vct); }
#endif
#ifdef CONFIG_HISILICON_ERRATUM_161010101
static notrace u64 agt_hisi_161010101_pct(void) { return agt_hisi_161010101(agt_raw_pct); }
static notrace u64 agt_hisi_161010101_vct(void) { return agt_hisi_161010101(agt_raw_vct); }
#endif
#ifdef CONFIG_ARM64_ERRATUM_858921
static notrace u64 agt_arm_858921_pct(void) { return agt_arm_858921(agt_raw_pct); }
static notrace u64 agt_arm_858921_vct(void) { return agt_arm_858921(agt_raw_vct); }
#endif
#ifdef CONFIG_SUN50I_ERRATUM_UNKNOWN1
static notrace u64 agt_sun50i_unknown1_pct(void) { return agt_sun50i_unknown1(agt_raw_pct); }
static notrace u64 agt_sun50i_unknown1_vct(void) { return agt_sun50i_unknown1(agt_raw_vct); }
#endif

/* A workaround that filters reads: @how and @match select it */
#define AGT_READ_FILTER(how, match, name, filter)			\
	{								\
		.match_type = how, .id = match, .desc = name,		\
		.read_cntpct_el0 = filter##_pct,			\
		.read_cntvct_el0 = filter##_vct,			\
	}

/* Built-in workarounds; the first that matches a CPU is the one it gets. */
static const struct arch_timer_erratum_workaround agt_errata[] = {
#ifdef CONFIG_FSL_ERRATUM_A008585
	AGT_READ_FILTER(ate_match_dt, "fsl,erratum-a008585",
			"Freescale erratum A-008585", agt_fsl_a008585),
#endif
#ifdef CONFIG_HISILICON_ERRATUM_161010101
	AGT_READ_FILTER(ate_match_dt, "hisilicon,erratum-161010101",
			"HiSilicon erratum 161010101", agt_hisi_161010101),
	AGT_READ_FILTER(ate_match_acpi_oem_info, agt_hisi_161010101_gtdts,
			"HiSilicon erratum 161010101", agt_hisi_161010101),
#endif
#ifdef CONFIG_ARM64_ERRATUM_858921
	AGT_READ_FILTER(ate_match_local_cap_id, (void *)ARM64_WORKAROUND_858921,
			"ARM erratum 858921", agt_arm_858921),
#endif
#ifdef CONFIG_SUN50I_ERRATUM_UNKNOWN1
	AGT_READ_FILTER(ate_match_dt, "allwinner,erratum-unknown1",
			"Allwinner erratum UNKNOWN1", agt_sun50i_unknown1),
#endif
#ifdef CONFIG_ARM64_ERRATUM_1418040
	{
		/* AArch32 counter reads only: no filter, the 32-bit vDSO stops */
		.match_type = ate_match_local_cap_id,
		.id = (void *)ARM64_WORKAROUND_1418040,
		.desc = "ARM erratum 1418040",
		.disable_compat_vdso = true,
	},
#endif
};

static bool agt_gtdt_is(const struct acpi_table_header *gtdt,
			const struct agt_gtdt_id *ids)
{
	for (; ids->oem[0]; ids++) {
		if (!memcmp(gtdt->oem_id, ids->oem, ACPI_OEM_ID_SIZE) &&
		    !memcmp(gtdt->oem_table_id, ids->table,
			    ACPI_OEM_TABLE_ID_SIZE) &&
		    gtdt->oem_revision == ids->revision)
			return true;
	}
	return false;
}

static bool agt_erratum_applies(const struct arch_timer_erratum_workaround *wa,
				const void *from)
{
	switch (wa->match_type) {
	case ate_match_dt:
		return of_property_read_bool(from, wa->id);
	case ate_match_local_cap_id:
		return this_cpu_has_cap((uintptr_t)wa->id);
	case ate_match_acpi_oem_info:
		return agt_gtdt_is(from, wa->id);
	}
	return false;
}

static bool agt_filter_wanted;
static bool agt_counter_started;

/*
 * Some CPU filters its reads: so must every shared path from now on.  The
 * shared read (and the key set_next_event tests) is chosen before the
 * clocksource starts, or once the boot CPUs are all up
 * (agt_filter_late_cpus()) for one of them that engaged its workaround
 * after the clocksource started: neither can change from the CPU coming
 * up.
 */
static void agt_filter_reads(void)
{
	agt_filter_wanted = true;
}

static void __init agt_filter_reads_start(void)
{
	if (agt_filter_wanted)
		static_branch_enable(&agt_filtered_reads);
	agt_counter_started = true;
}

/*
 * An arch_initcall runs after smp_init(), and arm64 refuses any CPU that
 * comes up later needing an erratum workaround that no boot CPU had
 * (ARM64_CPUCAP_LOCAL_CPU_ERRATUM is not late-permitted): from here on,
 * the answer is final.  sched_clock takes the new read as a clock of the
 * same rate, carrying its count over.
 */
static int __init agt_filter_late_cpus(void)
{
	agt_counter_fn read = agt_counter_reader(agt.phys_counter, true);

	if (!agt_filter_wanted || !agt_counter_started ||
	    arch_timer_read_counter == read)
		return 0;
	static_branch_enable(&agt_filtered_reads);
	arch_timer_read_counter = read;
	sched_clock_register(read, agt.width, agt.rate);
	pr_info("a CPU that came up late filters its counter reads: so do the clocksource and sched_clock\n");
	return 0;
}
arch_initcall(agt_filter_late_cpus);

/*
 * The first workaround of @how that @from (a timer node, a GTDT, or NULL
 * for the running CPU's capabilities) asks for, or NULL.
 */
static const struct arch_timer_erratum_workaround *
agt_erratum_lookup(enum arch_timer_erratum_match_type how, const void *from)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(agt_errata); i++) {
		if (agt_errata[i].match_type == how &&
		    agt_erratum_applies(&agt_errata[i], from))
			return &agt_errata[i];
	}
	return NULL;
}

/*
 * What the vDSO may still do once @wa is engaged somewhere: nothing if
 * EL0 reads need filtering, only the 64-bit clocks if AArch32 reads do.
 */
static enum vdso_clock_mode
agt_vdso_mode_with(enum vdso_clock_mode mode,
		   const struct arch_timer_erratum_workaround *wa)
{
	if (wa->read_cntvct_el0)
		return VDSO_CLOCKMODE_NONE;
	if (wa->disable_compat_vdso && mode != VDSO_CLOCKMODE_NONE)
		return VDSO_CLOCKMODE_ARCHTIMER_NOCOMPAT;
	return mode;
}

/*
 * Engage the first workaround of @how that @from asks for: on the running
 * CPU for a capability, on every CPU otherwise.  A CPU has one or none.
 */
static void agt_engage_erratum(enum arch_timer_erratum_match_type how,
			       const void *from)
{
	const struct arch_timer_erratum_workaround *wa, *had;
	bool one_cpu = how == ate_match_local_cap_id;
	const char *effect = "";
	unsigned int cpu;

	wa = agt_erratum_lookup(how, from);
	if (!wa)
		return;

	had = __this_cpu_read(timer_unstable_counter_workaround);
	if (had) {
		if (had != wa)
			pr_warn("CPU%u: %s workaround not engaged, this CPU has the one for %s\n",
				smp_processor_id(), wa->desc, had->desc);
		return;
	}

	if (one_cpu) {
		__this_cpu_write(timer_unstable_counter_workaround, wa);
	} else {
		for_each_possible_cpu(cpu)
			per_cpu(timer_unstable_counter_workaround, cpu) = wa;
	}

	agt_clocksource.vdso_clock_mode =
		agt_vdso_mode_with(agt_clocksource.vdso_clock_mode, wa);
	if (wa->read_cntvct_el0)
		agt_filter_reads();

	if (wa->read_cntvct_el0)
		effect = "; EL0 counter reads trap, the vDSO uses the syscall";
	else if (wa->disable_compat_vdso)
		effect = "; the 32-bit vDSO uses the syscall";
	if (one_cpu)
		pr_info("CPU%u: %s workaround engaged on this CPU%s\n",
			smp_processor_id(), wa->desc, effect);
	else
		pr_info("%s workaround engaged on every CPU%s\n", wa->desc, effect);
}

static bool agt_dt_erratum_built(const char *property)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(agt_errata); i++) {
		if (agt_errata[i].match_type == ate_match_dt &&
		    !strcmp(agt_errata[i].id, property))
			return true;
	}
	return false;
}

/* The running CPU's EL0 must not read CNTVCT_EL0 unfiltered */
static bool agt_el0_counter_traps(void)
{
	return has_erratum_handler(read_cntvct_el0);
}
#else
static inline void agt_engage_erratum(enum arch_timer_erratum_match_type how,
				      const void *from) { }
static inline void agt_filter_reads_start(void) { }
static inline bool agt_dt_erratum_built(const char *property) { return false; }
static inline bool agt_el0_counter_traps(void) { return false; }
#endif /* CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND */

static const char *const agt_timer_name[ARCH_TIMER_MAX_TIMER_PPI] = {
	[ARCH_TIMER_PHYS_SECURE_PPI]	= "secure physical",
	[ARCH_TIMER_PHYS_NONSECURE_PPI]	= "EL1 physical",
	[ARCH_TIMER_VIRT_PPI]		= "virtual",
	[ARCH_TIMER_HYP_PPI]		= "EL2 physical",
	[ARCH_TIMER_HYP_VIRT_PPI]	= "EL2 virtual",
};

/* The timer's registers, in the view chosen at probe */
static u32 agt_ctl_get(void)
{
	if (agt.phys_timer)
		return read_sysreg(cntp_ctl_el0);
	return read_sysreg(cntv_ctl_el0);
}

static void agt_ctl_set(u32 ctl)
{
	if (agt.phys_timer)
		write_sysreg(ctl, cntp_ctl_el0);
	else
		write_sysreg(ctl, cntv_ctl_el0);
	isb();
}

/* One per view, so that the event path tests nothing but the erratum key */
static __always_inline void agt_arm(bool phys, unsigned long ticks)
{
	u64 at;

	if (phys) {
		at = agt_reads_filtered() ? agt_count_phys_filtered() :
					    __arch_counter_get_cntpct();
		write_sysreg(at + ticks, cntp_cval_el0);
		write_sysreg(ARM_GENERIC_CTL_ENABLE, cntp_ctl_el0);
	} else {
		at = agt_reads_filtered() ? agt_count_virt_filtered() :
					    __arch_counter_get_cntvct();
		write_sysreg(at + ticks, cntv_cval_el0);
		write_sysreg(ARM_GENERIC_CTL_ENABLE, cntv_ctl_el0);
	}
	isb();
}

static int agt_arm_phys(unsigned long ticks, struct clock_event_device *evt)
{
	agt_arm(true, ticks);
	return 0;
}

static int agt_arm_virt(unsigned long ticks, struct clock_event_device *evt)
{
	agt_arm(false, ticks);
	return 0;
}

/* Off and masked: the line drops and stays quiet until the next agt_arm() */
static int agt_quiesce(struct clock_event_device *evt)
{
	agt_ctl_set(ARM_GENERIC_CTL_IMASK);
	return 0;
}

static irqreturn_t agt_fired(int irq, void *dev_id)
{
	struct clock_event_device *evt = dev_id;
	u32 ctl = agt_ctl_get();
	u32 pending = ARM_GENERIC_CTL_ENABLE | ARM_GENERIC_CTL_ISTATUS;

	if ((ctl & pending) != pending)
		return IRQ_NONE;

	/* Mask before the handler: it may arm the next event itself. */
	agt_ctl_set(ctl | ARM_GENERIC_CTL_IMASK);
	evt->event_handler(evt);
	return IRQ_HANDLED;
}

/*
 * Pick the trigger bit of the event stream.  An event is sent each time the
 * chosen counter bit goes from 0 to 1, that is every 2^(bit + 1) ticks.
 * The delay loop sleeps in WFE as long as ARCH_TIMER_EVT_STREAM_PERIOD_US
 * is left, so the period must not be longer than that: take the largest
 * power of two that fits.  Not __init: the KUnit suite calls it.
 */
static int agt_evtstrm_bit(u32 rate)
{
	u32 ticks = rate / (USEC_PER_SEC / ARCH_TIMER_EVT_STREAM_PERIOD_US);

	if (ticks < 2)
		return -1;
	return min(ilog2(ticks) - 1, ARM_GENERIC_EVNTI_MAX);
}

/*
 * CNTKCTL_EL1 from @kctl: EL0 may read the virtual counter and CNTFRQ_EL0
 * (the vDSO), unless @trap_vct, and nothing else: no timer registers, no
 * physical counter.  The event stream, on trigger bit @evnti (none when
 * negative), is set in the same register; the bits that are not ours
 * (EL1PCTEN and EL1PCEN under VHE) are kept.
 */
static u32 agt_el0_kctl(u32 kctl, bool trap_vct, int evnti)
{
	kctl &= ~(ARM_GENERIC_KCTL_EL0PCTEN | ARM_GENERIC_KCTL_EL0VCTEN |
		  ARM_GENERIC_KCTL_EL0VTEN | ARM_GENERIC_KCTL_EL0PTEN |
		  ARM_GENERIC_KCTL_EVNTEN | ARM_GENERIC_KCTL_EVNTDIR |
		  ARM_GENERIC_KCTL_EVNTI | ARM_GENERIC_KCTL_EVNTIS);
	if (!trap_vct)
		kctl |= ARM_GENERIC_KCTL_EL0VCTEN;
	if (evnti >= 0)
		kctl |= ARM_GENERIC_KCTL_EVNTEN |
			FIELD_PREP(ARM_GENERIC_KCTL_EVNTI, evnti);
	return kctl;
}

/*
 * APM X-Gene 1 (Potenza, every revision) implements CVAL on top of TVAL,
 * a signed 32-bit down-count: a compare value more than 2^31 ticks ahead
 * fires at once (about 43 s at its 50 MHz), an interrupt flood on any
 * long idle.  Every other CPU's timer reaches as far as the counter.
 */
static u64 agt_max_delta(u32 midr, unsigned int width)
{
	if (midr_is_cpu_model_range(midr,
				    MIDR_CPU_MODEL(ARM_CPU_IMP_APM, APM_CPU_PART_XGENE),
				    MIDR_CPU_VAR_REV(APM_CPU_VAR_POTENZA, 0),
				    MIDR_CPU_VAR_REV(APM_CPU_VAR_POTENZA, 0xf)))
		return CLOCKSOURCE_MASK(31);
	return CLOCKSOURCE_MASK(width);
}

/*
 * The timer's output is a level, and the GIC must sample it so: firmware
 * that says edge (or nothing) is wrong, and the line taken as level low,
 * as the stock driver does.
 */
static unsigned int agt_ppi_trigger(unsigned int type)
{
	if (type == IRQ_TYPE_LEVEL_HIGH || type == IRQ_TYPE_LEVEL_LOW)
		return type;
	return IRQ_TYPE_LEVEL_LOW;
}

static int agt_cpu_starting(unsigned int cpu)
{
	struct clock_event_device *evt = this_cpu_ptr(&agt_evt);
	unsigned int type, trigger;
	u64 max_delta;

	/* Whatever firmware or the previous life of this CPU left armed */
	agt_ctl_set(ARM_GENERIC_CTL_IMASK);
	agt_engage_erratum(ate_match_local_cap_id, NULL);

	write_sysreg(agt_el0_kctl(read_sysreg(cntkctl_el1),
				  agt_el0_counter_traps(), agt.evnti),
		     cntkctl_el1);
	isb();
	if (agt.evnti >= 0) {
		arch_timer_set_evtstrm_feature();
		cpumask_set_cpu(cpu, &agt_evtstrm_cpus);
	}

	max_delta = agt_max_delta(read_cpuid_id(), agt.width);
	if (max_delta < CLOCKSOURCE_MASK(agt.width))
		pr_warn_once("CPU%u: APM X-Gene 1 CVAL is a 31-bit TVAL: events at most 2^31 ticks ahead\n",
			     cpu);

	evt->name = "arch_sys_timer";
	evt->features = CLOCK_EVT_FEAT_ONESHOT;
	if (agt.stops_in_idle)
		evt->features |= CLOCK_EVT_FEAT_C3STOP;
	evt->rating = ARM_GENERIC_EVT_RATING;
	evt->irq = agt.ppi[agt.uses];
	evt->cpumask = cpumask_of(cpu);
	evt->set_next_event = agt.phys_timer ? agt_arm_phys : agt_arm_virt;
	evt->set_state_shutdown = agt_quiesce;
	evt->set_state_oneshot_stopped = agt_quiesce;
	clockevents_config_and_register(evt, agt.rate, ARM_GENERIC_MIN_DELTA,
					max_delta);

	type = irq_get_trigger_type(evt->irq);
	trigger = agt_ppi_trigger(type);
	if (trigger != type)
		pr_warn_once(FW_BUG "interrupt %d of the %s timer is not described as level-triggered (type %u): taken as level\n",
			     evt->irq, agt_timer_name[agt.uses], type);
	enable_percpu_irq(evt->irq, trigger);
	return 0;
}

static int agt_cpu_dying(unsigned int cpu)
{
	cpumask_clear_cpu(cpu, &agt_evtstrm_cpus);
	disable_percpu_irq(agt.ppi[agt.uses]);
	agt_quiesce(this_cpu_ptr(&agt_evt));
	return 0;
}

/*
 * A CPU that comes back from a power-down state (cpuidle, suspend) may
 * have lost CNTKCTL_EL1: put back what it held on the way down, which is
 * not always what agt_cpu_starting() set (process.c drops EL0's counter
 * access while a 32-bit task runs on a CPU with erratum 1418040).  The
 * timer itself is reprogrammed by the clockevents core, and the hwcaps
 * were set once, at the CPU's start.
 */
static DEFINE_PER_CPU(u32, agt_kctl_saved);

static int agt_cpu_pm(struct notifier_block *nb, unsigned long action,
		      void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (action == CPU_PM_ENTER) {
		__this_cpu_write(agt_kctl_saved, read_sysreg(cntkctl_el1));
		cpumask_clear_cpu(cpu, &agt_evtstrm_cpus);
	} else if (action == CPU_PM_EXIT || action == CPU_PM_ENTER_FAILED) {
		write_sysreg(__this_cpu_read(agt_kctl_saved), cntkctl_el1);
		isb();
		if (agt.evnti >= 0)
			cpumask_set_cpu(cpu, &agt_evtstrm_cpus);
	}
	return NOTIFY_OK;
}

static struct notifier_block agt_cpu_pm_nb = {
	.notifier_call = agt_cpu_pm,
};

/*
 * The architecture does not say how wide the counter is, only that it has
 * at least 56 bits and does not roll over in less than 40 years: take the
 * fewest bits that hold 40 years at this rate.  Not __init: the KUnit
 * suite calls it.
 */
static unsigned int agt_counter_width(u32 rate)
{
	u64 ticks = (u64)rate * ARM_GENERIC_ROLLOVER_SECS;

	return clamp_t(unsigned int, fls64(ticks - 1),
		       ARM_GENERIC_COUNTER_MIN_BITS, 64);
}

/*
 * The timer the kernel drives, from where it runs (see the top of the
 * file); 0 when its interrupt is missing.
 */
static bool __init agt_pick_timer(void)
{
	if (is_kernel_in_hyp_mode())
		agt.uses = ARCH_TIMER_HYP_PPI;
	else if (!is_hyp_mode_available() && agt.ppi[ARCH_TIMER_VIRT_PPI])
		agt.uses = ARCH_TIMER_VIRT_PPI;
	else
		agt.uses = ARCH_TIMER_PHYS_NONSECURE_PPI;

	agt.phys_timer = agt.uses != ARCH_TIMER_VIRT_PPI;
	agt.phys_counter = agt.phys_timer && is_hyp_mode_available();
	return agt.ppi[agt.uses] > 0;
}

static void __init agt_start_counter(agt_counter_fn read)
{
	u64 now;

	agt_clocksource.mask = CLOCKSOURCE_MASK(agt.width);
	agt_cc.mask = CLOCKSOURCE_MASK(agt.width);
	agt_filter_reads_start();
	arch_timer_read_counter = read;
	if (!agt.stops_in_suspend)
		agt_clocksource.flags |= CLOCK_SOURCE_SUSPEND_NONSTOP;

	now = arch_timer_read_counter();
	clocksource_register_hz(&agt_clocksource, agt.rate);
	sched_clock_register(arch_timer_read_counter, agt.width, agt.rate);

	agt_cc.mult = agt_clocksource.mult;
	agt_cc.shift = agt_clocksource.shift;
	timecounter_init(&agt_kvm_info.timecounter, &agt_cc, now);
}

/*
 * Common to both probes, once agt.ppi[], agt.uses and the idle/suspend
 * properties are known.  The per-CPU timers come first: if they cannot be
 * had, nothing of ours is left behind (no rate, no interrupt, no
 * notifier) and the boot says why in one line.
 */
static int __init agt_start(u32 rate, const char *rate_from)
{
	int irq = agt.ppi[agt.uses];
	int err;

	/* Coarser than a microsecond: udelay() and the event stream suffer */
	if (rate < ARM_GENERIC_MIN_RATE)
		pr_warn(FW_BUG "counter rate %u Hz is below 1 MHz\n", rate);

	agt.width = agt_counter_width(rate);
	if (agt_evtstrm_wanted)
		agt.evnti = agt_evtstrm_bit(rate);

	agt_kvm_info.virtual_irq = agt.ppi[ARCH_TIMER_VIRT_PPI];
	if (is_kernel_in_hyp_mode())
		agt_kvm_info.physical_irq = agt.ppi[ARCH_TIMER_PHYS_NONSECURE_PPI];

	err = request_percpu_irq(irq, agt_fired, "arch_timer", &agt_evt);
	if (err) {
		pr_err("cannot have interrupt %d of the %s timer: %d\n", irq,
		       agt_timer_name[agt.uses], err);
		return err;
	}

	err = cpu_pm_register_notifier(&agt_cpu_pm_nb);
	if (err) {
		pr_err("cannot register the CPU PM notifier: %d\n", err);
		goto out_irq;
	}

	agt.rate = rate;
	err = cpuhp_setup_state(CPUHP_AP_ARM_ARCH_TIMER_STARTING,
				"clockevents/arm_generic:starting",
				agt_cpu_starting, agt_cpu_dying);
	if (err) {
		pr_err("cannot start the per-CPU timers: %d; no clock events from the generic timer\n",
		       err);
		agt.rate = 0;
		cpu_pm_unregister_notifier(&agt_cpu_pm_nb);
		goto out_irq;
	}

	agt_start_counter(agt_counter_reader(agt.phys_counter,
					     agt_reads_filtered()));

	pr_info("%u Hz (rate from %s), %s counter, %s timer, event stream %s (%u-bit counter, %s timer)\n",
		rate, rate_from, agt.phys_counter ? "physical" : "virtual",
		agt.phys_timer ? "physical" : "virtual",
		agt.evnti >= 0 ? "on" : "off", agt.width,
		agt_timer_name[agt.uses]);
	return 0;

out_irq:
	free_percpu_irq(irq, &agt_evt);
	agt_kvm_info.virtual_irq = 0;
	agt_kvm_info.physical_irq = 0;
	return err;
}

/* interrupt-names of the timer node, in enum arch_timer_ppi_nr order */
static const char *const agt_ppi_dt_name[ARCH_TIMER_MAX_TIMER_PPI] = {
	[ARCH_TIMER_PHYS_SECURE_PPI]	= "sec-phys",
	[ARCH_TIMER_PHYS_NONSECURE_PPI]	= "phys",
	[ARCH_TIMER_VIRT_PPI]		= "virt",
	[ARCH_TIMER_HYP_PPI]		= "hyp-phys",
	[ARCH_TIMER_HYP_VIRT_PPI]	= "hyp-virt",
};

/* Counter errata a device tree can ask a workaround for */
static const char *const agt_dt_errata[] = {
	"fsl,erratum-a008585",
	"hisilicon,erratum-161010101",
	"allwinner,erratum-unknown1",
};

static int __init agt_of_probe(struct device_node *np)
{
	bool by_name = of_property_read_bool(np, "interrupt-names");
	const char *rate_from = "dt";
	u32 rate;
	int i, irq;

	if (agt.rate) {
		pr_warn("%pOF: a timer is already running, node ignored\n", np);
		return 0;
	}

	/* By name when the node names them (any order), else by position */
	for (i = 0; i < ARCH_TIMER_MAX_TIMER_PPI; i++) {
		irq = by_name ? of_irq_get_byname(np, agt_ppi_dt_name[i]) :
				of_irq_get(np, i);
		agt.ppi[i] = irq > 0 ? irq : 0;
	}

	if (of_property_read_u32(np, "clock-frequency", &rate)) {
		rate = arch_timer_get_cntfrq();
		rate_from = "cntfrq";
	}
	if (!rate) {
		pr_err("%pOF: counter rate is 0 (%s); set clock-frequency in the device tree or CNTFRQ_EL0 in firmware\n",
		       np, rate_from);
		return -EINVAL;
	}

	/*
	 * "arm,cpu-registers-not-fw-configured" only matters to a 32-bit
	 * kernel, which may then have to use the secure physical timer; an
	 * arm64 kernel always finds CNTVOFF_EL2 and CNTHCTL_EL2 set by the
	 * EL2 code or firmware, so it changes nothing here (nor in stock).
	 */
	if (!agt_pick_timer()) {
		pr_err("%pOF: no %s interrupt (\"%s\") for the %s timer\n", np,
		       by_name ? "named" : "positional",
		       agt_ppi_dt_name[agt.uses], agt_timer_name[agt.uses]);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(agt_dt_errata); i++) {
		if (of_property_read_bool(np, agt_dt_errata[i]) &&
		    !agt_dt_erratum_built(agt_dt_errata[i]))
			pr_warn("%pOF: %s: workaround not built in, the counter may misread\n",
				np, agt_dt_errata[i]);
	}
	agt_engage_erratum(ate_match_dt, np);
	agt.stops_in_idle = !of_property_read_bool(np, "always-on");
	agt.stops_in_suspend = of_property_read_bool(np, "arm,no-tick-in-suspend");

	return agt_start(rate, rate_from);
}

TIMER_OF_DECLARE(arm_generic_v8, "arm,armv8-timer", agt_of_probe);
TIMER_OF_DECLARE(arm_generic_v7, "arm,armv7-timer", agt_of_probe);

/*
 * No CPU timer: a device tree with a memory-mapped frame and no
 * "arm,armv8-timer" node.  The frame's counter becomes the clocksource and
 * sched_clock, as in the stock driver; the vDSO, which reads CNTVCT_EL0,
 * stands aside.
 */
void __init arm_generic_counter_from_frame(u64 (*read)(void), u32 rate)
{
	agt.rate = rate;
	agt.width = agt_counter_width(rate);
	agt_clocksource.vdso_clock_mode = VDSO_CLOCKMODE_NONE;
	agt_start_counter(read);
	pr_info("%u Hz, counter of the memory-mapped frame (%u bits), no CPU timer\n",
		rate, agt.width);
}

#ifdef CONFIG_ACPI_GTDT
static int __init agt_acpi_probe(struct acpi_table_header *table)
{
	int platform_timers, err;
	u32 rate;

	if (agt.rate) {
		pr_warn("GTDT: a timer is already running, table ignored\n");
		return -EINVAL;
	}

	err = acpi_gtdt_init(table, &platform_timers);
	if (err) {
		pr_err("GTDT: cannot parse the table: %d\n", err);
		return err;
	}

	/* The GTDT describes these three; the secure one is not ours. */
	agt.ppi[ARCH_TIMER_PHYS_NONSECURE_PPI] =
		acpi_gtdt_map_ppi(ARCH_TIMER_PHYS_NONSECURE_PPI);
	agt.ppi[ARCH_TIMER_VIRT_PPI] = acpi_gtdt_map_ppi(ARCH_TIMER_VIRT_PPI);
	agt.ppi[ARCH_TIMER_HYP_PPI] = acpi_gtdt_map_ppi(ARCH_TIMER_HYP_PPI);

	/* ACPI has no other source for the rate: CNTFRQ_EL0 must hold it. */
	rate = arch_timer_get_cntfrq();
	if (!rate) {
		pr_err(FW_BUG "GTDT: CNTFRQ_EL0 is 0 and ACPI gives no other counter rate\n");
		return -EINVAL;
	}

	if (!agt_pick_timer()) {
		pr_err("GTDT: no interrupt for the %s timer\n",
		       agt_timer_name[agt.uses]);
		return -EINVAL;
	}
	agt.stops_in_idle = acpi_gtdt_c3stop(agt.uses);
	agt_engage_erratum(ate_match_acpi_oem_info, table);

	err = agt_start(rate, "cntfrq");
	if (!err && platform_timers)
		arm_generic_gtdt_frames(platform_timers, rate);
	return err;
}

TIMER_ACPI_DECLARE(arm_generic, ACPI_SIG_GTDT, agt_acpi_probe);
#endif

#if IS_ENABLED(CONFIG_CLKSRC_ARM_GENERIC_KUNIT_TEST)
#include "arm_generic_test.c"
#endif
