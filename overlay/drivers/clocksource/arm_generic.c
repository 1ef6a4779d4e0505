// SPDX-License-Identifier: GPL-2.0-only
/*
 * ARMv8 generic timer, our driver: the system counter becomes the
 * clocksource "arch_sys_counter" and sched_clock, and each CPU's own timer
 * its clock event device "arch_sys_timer".
 *
 * Which counter and which timer.  Every CPU sees the one system counter
 * twice, as a physical count (CNTPCT_EL0) and as a virtual count
 * (CNTVCT_EL0, the physical one minus CNTVOFF_EL2), each with a timer of
 * its own.  We take the pair that belongs to the exception level the kernel
 * was entered at:
 *
 *  - EL1 (a guest, and QEMU's default): the virtual timer and CNTVCT_EL0.
 *    The virtual timer is the one a hypervisor always leaves to its
 *    guest, while the physical timer and counter may be trapped
 *    (CNTHCTL_EL2.EL1PCEN/EL1PCTEN).  CNTVCT_EL0 is also what the vDSO reads
 *    at EL0 and what WFET/WFIT compare against, so the kernel's clock, user
 *    space's clock and the delay loop all count from the same base.
 *  - EL2 with VHE (is_kernel_in_hyp_mode()): the kernel is the hypervisor
 *    and owns the physical timer (its CNTP_*_EL0 accesses land on the EL2
 *    timer, CNTHP_*_EL2) and CNTPCT_EL0; the virtual timer stays free for
 *    guests.  EL0 and EL2 see CNTVOFF_EL2 as zero in this regime, so the
 *    vDSO's CNTVCT_EL0 reads still agree with the kernel's CNTPCT_EL0.
 *
 * The 2012 seed counted with CNTPCT_EL0 but ran sched_clock and the timer
 * from other views; that only holds if CNTVOFF_EL2 is zero and EL1 may
 * read the physical counter, neither of which a hypervisor promises.
 *
 * Events are armed through TVAL, a down-count relative to the moment of the
 * write: one register write per event, no counter read on the way.
 */

#define pr_fmt(fmt) "arm_generic: " fmt

#include <linux/bitfield.h>
#include <linux/clockchips.h>
#include <linux/clocksource.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kstrtox.h>
#include <linux/log2.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/percpu.h>
#include <linux/sched_clock.h>
#include <linux/timecounter.h>

#include <asm/arch_timer.h>
#include <asm/virt.h>

#include <clocksource/arm_generic.h>

/* Fixed at probe time, read on every event */
static struct {
	u32 rate;		/* counter ticks per second */
	int irq;		/* the per-CPU interrupt of our timer */
	bool el2_phys;		/* EL2 physical timer + CNTPCT_EL0 */
	bool stops_in_idle;	/* the node lacks "always-on" */
	int evnti;		/* event stream trigger bit, <0: none */
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

static notrace u64 agt_count_virt(void)
{
	return __arch_counter_get_cntvct();
}

static notrace u64 agt_count_phys(void)
{
	return __arch_counter_get_cntpct();
}

/*
 * get_cycles(), traps.c's CNTVCT emulation and perf's sched_clock test call
 * through this pointer; it is valid before probe (virtual view) and points
 * at the counter sched_clock uses afterwards.
 */
typedef u64 (*agt_counter_fn)(void);
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
	.mask	= CLOCKSOURCE_MASK(ARM_GENERIC_COUNTER_BITS),
};

static struct arch_timer_kvm_info agt_kvm_info;

/* KVM is not supported with this driver; the data is still right. */
struct arch_timer_kvm_info *arch_timer_get_kvm_info(void)
{
	return &agt_kvm_info;
}

static u64 agt_cs_read(struct clocksource *cs)
{
	return arch_timer_read_counter();
}

static struct clocksource agt_clocksource = {
	.name		= "arch_sys_counter",
	.rating		= 400,
	.read		= agt_cs_read,
	.mask		= CLOCKSOURCE_MASK(ARM_GENERIC_COUNTER_BITS),
	.flags		= CLOCK_SOURCE_IS_CONTINUOUS |
			  CLOCK_SOURCE_VALID_FOR_HRES,
	.vdso_clock_mode = VDSO_CLOCKMODE_ARCHTIMER,
};

/* The timer's registers, in the view chosen at probe */
static u32 agt_ctl_get(void)
{
	if (agt.el2_phys)
		return read_sysreg(cntp_ctl_el0);
	return read_sysreg(cntv_ctl_el0);
}

static void agt_ctl_set(u32 ctl)
{
	if (agt.el2_phys)
		write_sysreg(ctl, cntp_ctl_el0);
	else
		write_sysreg(ctl, cntv_ctl_el0);
	isb();
}

static void agt_tval_set(u32 ticks)
{
	if (agt.el2_phys)
		write_sysreg(ticks, cntp_tval_el0);
	else
		write_sysreg(ticks, cntv_tval_el0);
}

static int agt_arm(unsigned long ticks, struct clock_event_device *evt)
{
	agt_tval_set(ticks);
	agt_ctl_set(ARM_GENERIC_CTL_ENABLE);
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
 * power of two that fits.
 */
static int __init agt_evtstrm_bit(u32 rate)
{
	u32 ticks = rate / (USEC_PER_SEC / ARCH_TIMER_EVT_STREAM_PERIOD_US);

	if (ticks < 2)
		return -1;
	return min(ilog2(ticks) - 1, ARM_GENERIC_EVNTI_MAX);
}

/*
 * EL0 may read the virtual counter and CNTFRQ_EL0 (the vDSO) and nothing
 * else: no timer registers, no physical counter.  The event stream is set
 * in the same register.
 */
static void agt_cpu_el0_and_evtstrm(unsigned int cpu)
{
	u32 kctl = read_sysreg(cntkctl_el1);

	kctl &= ~(ARM_GENERIC_KCTL_EL0PCTEN | ARM_GENERIC_KCTL_EL0VTEN |
		  ARM_GENERIC_KCTL_EL0PTEN | ARM_GENERIC_KCTL_EVNTEN |
		  ARM_GENERIC_KCTL_EVNTDIR | ARM_GENERIC_KCTL_EVNTI |
		  ARM_GENERIC_KCTL_EVNTIS);
	kctl |= ARM_GENERIC_KCTL_EL0VCTEN;

	if (agt.evnti >= 0) {
		kctl |= ARM_GENERIC_KCTL_EVNTEN |
			FIELD_PREP(ARM_GENERIC_KCTL_EVNTI, agt.evnti);
	}
	write_sysreg(kctl, cntkctl_el1);
	isb();

	if (agt.evnti >= 0) {
		arch_timer_set_evtstrm_feature();
		cpumask_set_cpu(cpu, &agt_evtstrm_cpus);
	}
}

static int agt_cpu_starting(unsigned int cpu)
{
	struct clock_event_device *evt = this_cpu_ptr(&agt_evt);

	/* Whatever firmware or the previous life of this CPU left armed */
	agt_ctl_set(ARM_GENERIC_CTL_IMASK);
	agt_cpu_el0_and_evtstrm(cpu);

	evt->name = "arch_sys_timer";
	evt->features = CLOCK_EVT_FEAT_ONESHOT;
	if (agt.stops_in_idle)
		evt->features |= CLOCK_EVT_FEAT_C3STOP;
	evt->rating = 400;
	evt->irq = agt.irq;
	evt->cpumask = cpumask_of(cpu);
	evt->set_next_event = agt_arm;
	evt->set_state_shutdown = agt_quiesce;
	evt->set_state_oneshot_stopped = agt_quiesce;
	clockevents_config_and_register(evt, agt.rate, ARM_GENERIC_TVAL_MIN,
					ARM_GENERIC_TVAL_MAX);

	enable_percpu_irq(agt.irq, IRQ_TYPE_NONE);
	return 0;
}

static int agt_cpu_dying(unsigned int cpu)
{
	cpumask_clear_cpu(cpu, &agt_evtstrm_cpus);
	disable_percpu_irq(agt.irq);
	agt_quiesce(this_cpu_ptr(&agt_evt));
	return 0;
}

/*
 * A CPU that comes back from a power-down state (cpuidle, suspend) has lost
 * CNTKCTL_EL1: give EL0 its counter and the event stream back.  The timer
 * itself is reprogrammed by the clockevents core.
 */
static int agt_cpu_pm(struct notifier_block *nb, unsigned long action,
		      void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (action == CPU_PM_ENTER)
		cpumask_clear_cpu(cpu, &agt_evtstrm_cpus);
	else if (action == CPU_PM_EXIT || action == CPU_PM_ENTER_FAILED)
		agt_cpu_el0_and_evtstrm(cpu);
	return NOTIFY_OK;
}

static struct notifier_block agt_cpu_pm_nb = {
	.notifier_call = agt_cpu_pm,
};

static void __init agt_start_counter(void)
{
	u64 now;

	arch_timer_read_counter = agt.el2_phys ? agt_count_phys : agt_count_virt;

	now = arch_timer_read_counter();
	clocksource_register_hz(&agt_clocksource, agt.rate);
	sched_clock_register(arch_timer_read_counter, ARM_GENERIC_COUNTER_BITS,
			     agt.rate);

	agt_cc.mult = agt_clocksource.mult;
	agt_cc.shift = agt_clocksource.shift;
	timecounter_init(&agt_kvm_info.timecounter, &agt_cc, now);
}

static int __init agt_probe(struct device_node *np)
{
	const char *rate_from = "dt";
	int which, err;
	u32 rate;

	if (agt.rate) {
		pr_warn("%pOF: a timer is already running, node ignored\n", np);
		return 0;
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

	agt.el2_phys = is_kernel_in_hyp_mode();
	which = agt.el2_phys ? ARM_GENERIC_IRQ_EL2_PHYS :
			       ARM_GENERIC_IRQ_EL1_VIRT;
	agt.irq = irq_of_parse_and_map(np, which);
	if (!agt.irq) {
		pr_err("%pOF: no interrupt #%d for the %s timer\n", np, which,
		       agt.el2_phys ? "EL2 physical" : "virtual");
		return -EINVAL;
	}
	agt_kvm_info.virtual_irq = irq_of_parse_and_map(np, ARM_GENERIC_IRQ_EL1_VIRT);
	agt_kvm_info.physical_irq = irq_of_parse_and_map(np, ARM_GENERIC_IRQ_NONSECURE_PHYS);

	agt.stops_in_idle = !of_property_read_bool(np, "always-on");
	if (agt_evtstrm_wanted)
		agt.evnti = agt_evtstrm_bit(rate);

	err = request_percpu_irq(agt.irq, agt_fired, "arch_timer", &agt_evt);
	if (err) {
		pr_err("%pOF: cannot have interrupt %d: %d\n", np, agt.irq, err);
		return err;
	}

	if (!of_property_read_bool(np, "arm,no-tick-in-suspend"))
		agt_clocksource.flags |= CLOCK_SOURCE_SUSPEND_NONSTOP;
	agt.rate = rate;
	agt_start_counter();

	err = cpu_pm_register_notifier(&agt_cpu_pm_nb);
	if (err)
		pr_warn("no CPU PM notifier (%d): EL0 access may be lost in idle\n",
			err);

	err = cpuhp_setup_state(CPUHP_AP_ARM_ARCH_TIMER_STARTING,
				"clockevents/arm_generic:starting",
				agt_cpu_starting, agt_cpu_dying);
	if (err) {
		pr_err("cannot set up the per-CPU timers: %d\n", err);
		return err;
	}

	pr_info("%u Hz (rate from %s), %s counter, %s timer, event stream %s\n",
		rate, rate_from, agt.el2_phys ? "physical" : "virtual",
		agt.el2_phys ? "physical" : "virtual",
		agt.evnti >= 0 ? "on" : "off");
	return 0;
}

TIMER_OF_DECLARE(arm_generic_v8, "arm,armv8-timer", agt_probe);
