# check-64k.frag: merged over Kbuild.frag by tools/check/check: 64K pages.
# COMPAT needs EXPERT with pages other than 4K.
CONFIG_ARM64_64K_PAGES=y
CONFIG_EXPERT=y
CONFIG_COMPAT=y
CONFIG_KUSER_HELPERS=y
