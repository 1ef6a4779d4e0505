# Kernel config fragment, merged over allnoconfig with the tree's own
# scripts/kconfig/merge_config.sh.  Every option set here is checked after
# olddefconfig: one that does not stick is a build error.
# Full-feature where it touches our subsystems; no drivers the guest lacks.

# -- the guest: QEMU virt, serial console, initramfs, SMP
CONFIG_SMP=y
CONFIG_NR_CPUS=4
CONFIG_HOTPLUG_CPU=y
CONFIG_PRINTK=y
CONFIG_BUG=y
CONFIG_KALLSYMS=y
CONFIG_MULTIUSER=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_TTY=y
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y
CONFIG_RTC_CLASS=y
CONFIG_RTC_DRV_PL031=y
CONFIG_ARM_GIC_V3=y
CONFIG_DEVTMPFS=y
CONFIG_DEVTMPFS_MOUNT=y
CONFIG_PROC_FS=y
CONFIG_PROC_SYSCTL=y
CONFIG_SYSFS=y
CONFIG_TMPFS=y
CONFIG_SHMEM=y
CONFIG_UNIX98_PTYS=y
# the test results' own channel, a virtio console (/dev/hvc0), so that
# no kernel message can split or hide a result line
CONFIG_VIRTIO_MENU=y
CONFIG_VIRTIO_MMIO=y
CONFIG_VIRTIO_CONSOLE=y

# -- what the tests and busybox use
CONFIG_FUTEX=y
CONFIG_EPOLL=y
CONFIG_SIGNALFD=y
CONFIG_TIMERFD=y
CONFIG_EVENTFD=y
CONFIG_POSIX_TIMERS=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_NO_HZ_FULL=y
CONFIG_FHANDLE=y
CONFIG_ADVISE_SYSCALLS=y
CONFIG_FANOTIFY=y
CONFIG_RSEQ=y
CONFIG_MEMBARRIER=y
CONFIG_CROSS_MEMORY_ATTACH=y

# -- 32-bit (AArch32 EABI) applications
CONFIG_COMPAT=y
CONFIG_COMPAT_32BIT_TIME=y
CONFIG_KUSER_HELPERS=y
CONFIG_COMPAT_VDSO=y

# -- exception-trace (/proc/sys/debug/exception-trace)
CONFIG_SYSCTL_EXCEPTION_TRACE=y

# -- generic timer: event stream for WFE timeouts
CONFIG_ARM_ARCH_TIMER_EVTSTREAM=y
# -- generic timer: the counter errata workarounds a distro kernel has
# (Debian's config-6.1 among them).  The Allwinner one needs the sunxi
# platform, which adds its pinctrl and clock drivers; the guest probes none.
CONFIG_FSL_ERRATUM_A008585=y
CONFIG_HISILICON_ERRATUM_161010101=y
CONFIG_ARM64_ERRATUM_858921=y
CONFIG_ARCH_SUNXI=y
CONFIG_SUN50I_ERRATUM_UNKNOWN1=y
CONFIG_ARM64_ERRATUM_1418040=y

# -- a full-feature kernel: what a distro's arm64 kernel (Debian's
# config-6.1 among them) turns on that touches signals, compat, traps or
# the timer.  Drivers the guest does not have stay off.
CONFIG_ARM64_VA_BITS_48=y
CONFIG_ARM64_SVE=y
CONFIG_ARM64_MTE=y
CONFIG_ARM64_BTI=y
CONFIG_ARM64_PTR_AUTH=y
CONFIG_ARM64_PTR_AUTH_KERNEL=y
CONFIG_ARM64_TAGGED_ADDR_ABI=y
CONFIG_ARM64_PAN=y
# software PAN for CPUs without it (Cortex-A53/A57/A72...), as distro
# kernels have it: user access windows switch TTBR0 there; on a CPU with
# PAN the alternatives pick hardware PAN, so one Image serves both
CONFIG_ARM64_SW_TTBR0_PAN=y
CONFIG_ARM64_EPAN=y
CONFIG_ARM64_E0PD=y
CONFIG_ARM64_AMU_EXTN=y
CONFIG_ARM64_RAS_EXTN=y
CONFIG_ARM64_CNP=y
CONFIG_ARM64_HW_AFDBM=y
CONFIG_ARM64_USE_LSE_ATOMICS=y
CONFIG_UNMAP_KERNEL_AT_EL0=y
CONFIG_RANDOMIZE_BASE=y
CONFIG_VMAP_STACK=y
CONFIG_STACKPROTECTOR=y
CONFIG_STACKPROTECTOR_STRONG=y
CONFIG_HARDENED_USERCOPY=y
CONFIG_PERF_EVENTS=y
CONFIG_HW_PERF_EVENTS=y
CONFIG_ARM_PMU=y
CONFIG_SECCOMP=y
CONFIG_SECCOMP_FILTER=y
CONFIG_AUDIT=y
CONFIG_AUDITSYSCALL=y
CONFIG_MODULES=y
CONFIG_KPROBES=y
CONFIG_FTRACE=y
CONFIG_FUNCTION_TRACER=y
CONFIG_UPROBE_EVENTS=y
CONFIG_UPROBES=y
CONFIG_ARMV8_DEPRECATED=y
CONFIG_SWP_EMULATION=y
CONFIG_CP15_BARRIER_EMULATION=y
CONFIG_SETEND_EMULATION=y
CONFIG_COMPAT_ALIGNMENT_FIXUPS=y
CONFIG_PREEMPT_VOLUNTARY=y
CONFIG_PM=y
CONFIG_SUSPEND=y
CONFIG_CPU_IDLE=y
CONFIG_ARM_PSCI_CPUIDLE=y
# the idle governor Debian builds: it, not the ladder, picks the states
# of VARIANT=timer-idle (no other guest has idle states)
CONFIG_CPU_IDLE_GOV_MENU=y
CONFIG_EFI=y
CONFIG_ACPI=y
# PCI: QEMU virt's DSDT describes its PCIe host bridge, and without PCI
# the DSDT does not load (AE_BAD_PARAMETER): an ACPI boot finds no
# devices, not even its console
CONFIG_PCI=y
CONFIG_PCI_HOST_GENERIC=y
CONFIG_NET=y
CONFIG_UNIX=y
CONFIG_POSIX_MQUEUE=y
# memory features MTE's tag handling meets (the arm64/mte kselftests
# check_ksm_options and check_hugetlb_options need them)
CONFIG_KSM=y
CONFIG_HUGETLBFS=y
# line tables for decode_stacktrace.sh and gdb
CONFIG_DEBUG_KERNEL=y
CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=y
CONFIG_DEBUG_INFO_REDUCED=y

# KVM, as every distro has it: our timer gives KVM its PPIs and counter
CONFIG_VIRTUALIZATION=y
CONFIG_KVM=y
# and, in a KVM guest, ptp_kvm's cross-timestamp against the host's clock
# (Debian's config-6.1: PTP_1588_CLOCK_KVM=y)
CONFIG_PTP_1588_CLOCK=y
CONFIG_PTP_1588_CLOCK_KVM=y

# -- KUnit, the kernel's unit tests, built in: the suites a kernel has run
# at boot, before init; the guest reads their results from debugfs
# (tests/kunit).  On in both kernels, so that they share this base; the
# suites themselves are our options, in the block below.
CONFIG_KUNIT=y
CONFIG_DEBUG_FS=y
CONFIG_KUNIT_DEBUGFS=y

# -- not available: SME depends on BROKEN in 6.1.y.

# -- our own options: the stock reference build drops this block
# @ours-begin
# exception-trace on at boot, as in the 2012 port
CONFIG_ARM64_EXCEPTION_TRACE_DEFAULT=1
# our generic timer driver in place of ARM_ARCH_TIMER
CONFIG_CLKSRC_ARM_GENERIC=y
# and its KUnit suites (the frame driver, the errata, MIDR-chosen limits)
CONFIG_CLKSRC_ARM_GENERIC_KUNIT_TEST=y
# @ours-end
