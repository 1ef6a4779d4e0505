# check-16k.frag: merged over Kbuild.frag by tools/check/check: 16K pages.
# COMPAT needs EXPERT with pages other than 4K.
CONFIG_ARM64_16K_PAGES=y
CONFIG_EXPERT=y
CONFIG_COMPAT=y
CONFIG_KUSER_HELPERS=y
