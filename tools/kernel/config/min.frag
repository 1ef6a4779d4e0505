# min.frag: merged over Kbuild.frag (ours) by tools/build/build-min, to keep the
# overlay's paths for a kernel without SVE, MTE and AArch32 compiling.
# Every option here is checked after olddefconfig, as Kbuild.frag's are.
# CONFIG_ARM64_SVE is not set
# CONFIG_ARM64_MTE is not set
# CONFIG_COMPAT is not set
# what Kbuild.frag turns on that depends on COMPAT
# CONFIG_KUSER_HELPERS is not set
# CONFIG_COMPAT_VDSO is not set
# CONFIG_ARMV8_DEPRECATED is not set
# CONFIG_SWP_EMULATION is not set
# CONFIG_CP15_BARRIER_EMULATION is not set
# CONFIG_SETEND_EMULATION is not set
# CONFIG_COMPAT_ALIGNMENT_FIXUPS is not set
# CONFIG_ARM64_ERRATUM_1418040 is not set
