# Kernel config fragment, merged over allnoconfig with the tree's own
# scripts/kconfig/merge_config.sh.  Every option set here is checked after
# olddefconfig: one that does not stick is a build error.
# Keep it small: the guest, the tests and our subsystems.

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

# -- what the tests and busybox use
CONFIG_FUTEX=y
CONFIG_EPOLL=y
CONFIG_SIGNALFD=y
CONFIG_TIMERFD=y
CONFIG_EVENTFD=y
CONFIG_POSIX_TIMERS=y
CONFIG_HIGH_RES_TIMERS=y
CONFIG_NO_HZ_IDLE=y
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

# -- off on purpose: KVM needs the stock timer driver; SVE comes with its
# own issue; SME depends on BROKEN in 6.1.y.
# CONFIG_KVM is not set
# CONFIG_ARM64_SVE is not set

# -- our own options: the stock reference build drops this block
# @ours-begin
# exception-trace on at boot, as in the 2012 port
CONFIG_ARM64_EXCEPTION_TRACE_DEFAULT=1
# our generic timer driver in place of ARM_ARCH_TIMER
CONFIG_CLKSRC_ARM_GENERIC=y
# @ours-end
