# check-be.frag: merged over Kbuild.frag by tools/check/check: big-endian.
# kuser32.S, sigreturn32.S and signal32.c are built for BE8 tasks here.
CONFIG_CPU_BIG_ENDIAN=y
CONFIG_COMPAT=y
CONFIG_KUSER_HELPERS=y
# what arm64 has only little-endian: the compat vDSO, UEFI and so ACPI
# CONFIG_COMPAT_VDSO is not set
# CONFIG_EFI is not set
# CONFIG_ACPI is not set
