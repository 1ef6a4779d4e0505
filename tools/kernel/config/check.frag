# check.frag: merged over Kbuild.frag by tools/check/check for every config it
# builds.  No debug info: no warning depends on it, and the compile is
# faster for it.
CONFIG_DEBUG_INFO_NONE=y
# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set
# CONFIG_DEBUG_INFO_REDUCED is not set
